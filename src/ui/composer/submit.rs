//! Sending the batch: the submit button with the problems still to fix, the confirmation that
//! says what the batch does, and the platform's result.

use egui::RichText;

use super::super::problems::problem_words;
use super::batch::summarize;
use super::node::NodeId;
use super::{ComposerScreen, MAX_LISTED, Submitted};
use crate::core::{Call, Command, Core, Profile};
use crate::ui::form::{busy_button_ui, profile_name, warn_if_production};
use crate::ui::i18n::{Lang, Text, t, tr};

impl ComposerScreen {
    pub(super) fn bottom_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal(|ui| {
            let ready = self.problems.is_empty();
            let busy = self.submit_call.is_waiting();
            ui.add_enabled_ui(ready, |ui| {
                if busy_button_ui(ui, t(lang, Text::SubmitBatch), busy) {
                    self.confirm_submit = true;
                }
            });
            if ready {
                ui.label(t(lang, Text::NoProblems));
            } else {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    tr!(lang, "problems-count", n = self.problems.len()),
                );
            }
        });
        if let Some(s) = &self.submitted {
            self.submitted_ui(ui, lang, s);
            return;
        }
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .id_salt("problems")
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for p in self.problems.iter().take(MAX_LISTED) {
                    let words = problem_words(lang, p);
                    let text = RichText::new(words).color(ui.visuals().error_fg_color);
                    // The interface's path on hover, to find the value in a file.
                    if ui
                        .selectable_label(false, text)
                        .on_hover_text(p.to_string())
                        .clicked()
                    {
                        clicked = Some(p.path.clone());
                    }
                }
                if self.problems.len() > MAX_LISTED {
                    ui.label(tr!(
                        lang,
                        "more-problems",
                        n = self.problems.len().saturating_sub(MAX_LISTED)
                    ));
                }
            });
        if let Some(path) = clicked {
            let (node, rest) = NodeId::of_path(&path);
            self.tree.reveal(&node);
            self.tree.select(node);
            self.focus_field = rest.first().map(|seg| seg.name());
        }
    }

    pub(super) fn submitted_ui(&self, ui: &mut egui::Ui, lang: Lang, s: &Submitted) {
        let n = s.results.len();
        let text = if s.repeat {
            tr!(lang, "submitted-again", n = n)
        } else {
            tr!(lang, "submitted-new", n = n)
        };
        ui.label(RichText::new(text).strong());
        egui::ScrollArea::vertical()
            .id_salt("results")
            .show(ui, |ui| {
                egui::Grid::new("submit_results")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for head in [Text::Sequence, Text::LicenseOrderId, Text::CustomerId] {
                            ui.label(RichText::new(t(lang, head)).strong());
                        }
                        ui.end_row();
                        for r in &s.results {
                            ui.label(r.sequence.to_string());
                            ui.label(RichText::new(&r.license_order_id).monospace());
                            ui.label(RichText::new(&r.customer_id).monospace());
                            ui.end_row();
                        }
                    });
            });
    }

    pub(super) fn confirm_submit_ui(
        &mut self,
        ctx: &egui::Context,
        core: &Core,
        lang: Lang,
        profile: &Profile,
    ) {
        if !self.confirm_submit {
            return;
        }
        let Some(draft) = &mut self.draft else {
            return;
        };
        let summary = summarize(&draft.batch);
        let channel_order_id = draft.batch.channel_order_id.clone().unwrap_or_default();
        let repeat = draft.hints.submitted.contains(&channel_order_id);
        let mut send = false;
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("confirm_submit")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            let question = tr!(
                lang,
                "confirm-submit",
                profile = profile_name(lang, profile)
            );
            ui.label(warn_if_production(question, profile));
            ui.label(tr!(
                lang,
                "summary-orders",
                n = draft.batch.order_list.len(),
                new = summary.new_buy,
                assets = summary.delete_asset,
                products = summary.delete_product
            ));
            ui.label(tr!(
                lang,
                "summary-counts",
                assets = summary.asset_numbers,
                products = summary.products
            ));
            for d in summary.deletions.iter().take(20) {
                let text = if d.products.is_empty() {
                    tr!(
                        lang,
                        "removes-assets",
                        seq = d.sequence,
                        assets = list_words(&d.assets)
                    )
                } else {
                    tr!(
                        lang,
                        "removes-products",
                        seq = d.sequence,
                        products = list_words(&d.products),
                        assets = list_words(&d.assets)
                    )
                };
                ui.colored_label(ui.visuals().warn_fg_color, text);
            }
            if !summary.deletions.is_empty() {
                ui.label(t(lang, Text::DeletesFinal));
            }
            if repeat {
                ui.label(tr!(lang, "repeat-warning", id = channel_order_id.as_str()));
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button(t(lang, Text::Send)).clicked() {
                    send = true;
                }
                if ui.button(t(lang, Text::Cancel)).clicked() {
                    close = true;
                }
            });
        });
        if send {
            self.submitting = Some(channel_order_id);
            self.submitted = None;
            // To the profile the confirmation named, in this same frame.
            self.submit_call.start(core.send(Command::CallOn {
                profile: profile.name.clone(),
                call: Call::BatchOrder(draft.batch.clone()),
            }));
        }
        if send || close || modal.should_close() {
            self.confirm_submit = false;
        }
    }
}

/// The first few items, then how many more.
fn list_words(items: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut text = items
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" (+{})", items.len() - SHOWN));
    }
    if text.is_empty() {
        "—".to_owned()
    } else {
        text
    }
}
