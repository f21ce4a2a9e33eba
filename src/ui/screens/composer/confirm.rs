//! The submit confirmation: where the batch goes, what it holds and deletes (with the delete
//! preview), whether it went there before or waits for approval there, and Send.

use egui::RichText;

use super::ComposerScreen;
use super::batch::{Summary, summarize};
use super::sent::SentTo;
use super::submit::{Sending, unknown_choice};
use crate::core::calls::requests as calls;
use crate::core::snapshot::Snapshot;
use crate::core::wire::BatchOrderRequest;
use crate::core::wire::validate::Problem;
use crate::core::{Profile, WriteState};
use crate::ui::kit::button::{danger_button, primary_button};
use crate::ui::kit::form::{dialog_body_ui, production_guard_ui, profile_name, warn_if_production};
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, t, tr};
use crate::ui::text::labels::{
    field_label, license_type_name, order_type_short, write_state_words,
};
use crate::ui::text::problems::path_words;

/// The values the batch names that are no choice of theirs, with where each is.
fn unknown_choices(lang: Lang, problems: &[Problem]) -> Vec<String> {
    problems
        .iter()
        .filter_map(|p| {
            let value = unknown_choice(p)?;
            Some(format!("{}: {value}", path_words(lang, &p.path.0)))
        })
        .collect()
}

/// Send and Cancel: whether each was clicked. Send is the dialog's one main action, enabled
/// once the checks above passed, and then given the keyboard's focus once (Enter or Space
/// sends); a batch that deletes says by its look that it cannot be undone.
fn send_row_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    (deletes, held, passed): (bool, bool, bool),
    focused: &mut bool,
) -> (bool, bool) {
    ui.horizontal(|ui| {
        // A held batch changes nothing yet: its button says where it goes.
        let button = if held {
            primary_button(ui, Icon::Send, t!(lang, "send-for-approval"))
        } else if deletes {
            danger_button(ui, Icon::Send, t!(lang, "send"))
        } else {
            primary_button(ui, Icon::Send, t!(lang, "send"))
        };
        let send = ui.add_enabled(passed, button);
        if passed && !std::mem::replace(focused, true) {
            send.request_focus();
        }
        let send = send.clicked();
        let close = ui.button(t!(lang, "cancel")).clicked();
        (send, close)
    })
    .inner
}

impl ComposerScreen {
    pub(super) fn confirm_submit_ui(
        &mut self,
        ctx: &egui::Context,
        caller: &Caller<'_>,
        lang: Lang,
    ) {
        if !self.submit.confirm {
            return;
        }
        // The shortcut that opened it never answers it (pressed twice, it would send unread):
        // Send, focused, takes Enter alone.
        ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Enter));
        let (out, profile) = (caller.out, caller.profile);
        let Some(draft) = &mut self.draft else {
            return;
        };
        let summary = summarize(&draft.batch);
        let held_by = held_by(caller, &summary);
        let unknown = unknown_choices(lang, &self.check.problems);
        let channel_order_id = draft
            .batch
            .head()
            .channel_order_id
            .clone()
            .unwrap_or_default();
        let (before, elsewhere) = sent_before(&draft.hints, &profile.name, &channel_order_id);
        // Sent there before, to a platform not declared to recognise it: a risk worth a guard.
        // Held there is not: the team server answers the request it already keeps.
        let risky = before
            .as_ref()
            .is_some_and(|s| s.state != WriteState::Held && !profile.recognises_repeats());
        let deletes = !summary.deletions.is_empty();
        if deletes {
            self.submit.preview.ask(out, &profile.name, &draft.batch);
        }
        let mut send = false;
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("confirm_submit")).show(ctx, |ui| {
            ui.set_width(if deletes { 760.0 } else { 520.0 });
            dialog_body_ui(ui, 240.0, |ui| {
                let said = Said {
                    profile,
                    summary: &summary,
                    orders: draft.batch.len(),
                    repeat: before.as_ref(),
                    held_by,
                    elsewhere: &elsewhere,
                    unknown: &unknown,
                };
                summary_ui(ui, lang, &said);
                ui.add_space(6.0);
                orders_table_ui(ui, lang, &draft.batch);
            });
            // What the deletes remove must be seen (or known to be unknown) before sending.
            let previewed = !deletes || self.submit.preview.ui(ui, lang);
            // A delete on production waits for the profile's name.
            let guard = &mut self.submit.guard;
            let passed =
                production_guard_ui(ui, lang, profile, deletes || risky, guard) && previewed;
            ui.add_space(8.0);
            let state = (deletes, held_by.is_some(), passed);
            (send, close) = send_row_ui(ui, lang, state, &mut self.submit.send_focused);
        });
        if send {
            let batch = draft.batch.to_batch(None);
            self.send_batch(out, profile, batch);
        }
        if send || close || modal.should_close() {
            self.submit.confirm = false;
            self.submit.send_focused = false;
            self.submit.guard.clear();
            self.submit.preview.forget();
        }
    }
}

impl ComposerScreen {
    /// To the profile the confirmation named, in the frame it was confirmed.
    fn send_batch(&mut self, out: &Outbox<'_>, profile: &Profile, batch: BatchOrderRequest) {
        self.submit.submitting = Some(Sending {
            profile: profile.name.clone(),
            recognised: profile.recognises_repeats(),
            batch: batch.clone(),
        });
        self.submit.forget();
        self.submit.call.start(out.ask(calls::BatchOrder {
            profile: profile.name.clone(),
            batch,
        }));
    }
}

/// How the draft went to `profile` with this channelOrderId, and the other profiles it went to.
fn sent_before(
    hints: &super::Hints,
    profile: &str,
    channel_order_id: &str,
) -> (Option<SentTo>, Vec<String>) {
    let before = hints.sent_to(profile, channel_order_id).cloned();
    let elsewhere = hints
        .sent_elsewhere(profile, channel_order_id)
        .into_iter()
        .map(str::to_owned)
        .collect();
    (before, elsewhere)
}

/// What the confirmation says of the batch.
struct Said<'a> {
    profile: &'a Profile,
    summary: &'a Summary,
    orders: usize,
    /// How it went, when this draft was sent with its channelOrderId to this profile.
    repeat: Option<&'a SentTo>,
    /// Other profiles it was sent to with this channelOrderId ("" for one not recorded).
    elsewhere: &'a [String],
    /// Where the batch has values the console does not know, and what they are.
    unknown: &'a [String],
    /// Who may approve it, when the profile's team server will hold it.
    held_by: Option<&'a [String]>,
}

/// Who may approve the batch when the profile's team server will hold it for a second person
/// (by the rule and thresholds it told at sign-in); None when it will be sent.
fn held_by<'a>(caller: &Caller<'a>, summary: &Summary) -> Option<&'a [String]> {
    let four_eyes = caller.permits.me()?.four_eyes.as_ref()?;
    let deletes = summary.delete_asset + summary.delete_product > 0;
    let assets = summary.asset_numbers as u64;
    four_eyes
        .thresholds
        .held(deletes, assets)
        .then_some(four_eyes.approvers.as_slice())
}

/// Where the batch goes, what it holds, what it deletes, and whether it is a repeat.
fn summary_ui(ui: &mut egui::Ui, lang: Lang, said: &Said<'_>) {
    let question = tr!(
        lang,
        "confirm-submit",
        profile = profile_name(lang, said.profile)
    );
    ui.label(warn_if_production(ui, question, said.profile));
    ui.label(tr!(
        lang,
        "summary-orders",
        n = said.orders,
        new = said.summary.new_buy,
        assets = said.summary.delete_asset,
        products = said.summary.delete_product
    ));
    ui.label(tr!(
        lang,
        "summary-counts",
        assets = said.summary.asset_numbers,
        packages = said.summary.packages,
        products = said.summary.products
    ));
    for d in said.summary.deletions.iter().take(20) {
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
                np = d.products.len(),
                assets = list_words(&d.assets),
                na = d.assets.len()
            )
        };
        ui.colored_label(ui.visuals().warn_fg_color, text);
    }
    if !said.summary.deletions.is_empty() {
        ui.label(t!(lang, "deletes-final"));
    }
    repeat_ui(ui, lang, said);
    if let Some(approvers) = said.held_by {
        held_beforehand_ui(ui, lang, said.profile, approvers);
    }
    if !said.unknown.is_empty() {
        let warn = ui.visuals().warn_fg_color;
        ui.colored_label(warn, tr!(lang, "confirm-unknown-values"));
        for line in said.unknown {
            ui.colored_label(warn, format!("  {line}"));
        }
    }
}

/// That the batch will wait for a second person, and who may approve it.
fn held_beforehand_ui(ui: &mut egui::Ui, lang: Lang, profile: &Profile, approvers: &[String]) {
    let profile = profile_name(lang, profile);
    ui.label(tr!(lang, "held-beforehand", profile = profile));
    crate::ui::kit::permits::approvers_ui(ui, lang, approvers);
}

/// Whether the batch was sent before, where, and what sending it again risks on this profile.
fn repeat_ui(ui: &mut egui::Ui, lang: Lang, said: &Said<'_>) {
    let profile = profile_name(lang, said.profile);
    if let Some(sent) = said.repeat
        && let (WriteState::Held, Some(request)) = (sent.state, &sent.request)
    {
        let id = sent.channel_order_id.as_str();
        let words = tr!(
            lang,
            "already-waiting",
            profile = profile,
            request = request.as_str(),
            id = id
        );
        ui.label(words);
    } else if let Some(sent) = said.repeat {
        let (id, state) = (
            sent.channel_order_id.as_str(),
            write_state_words(lang, sent.state),
        );
        if said.profile.recognises_repeats() {
            ui.label(tr!(
                lang,
                "repeat-warning",
                id = id,
                profile = profile,
                state = state
            ));
        } else {
            let words = tr!(
                lang,
                "repeat-risk",
                id = id,
                profile = profile,
                state = state
            );
            ui.colored_label(ui.visuals().error_fg_color, words);
        }
    } else if !said.elsewhere.is_empty() {
        let names: Vec<String> = said
            .elsewhere
            .iter()
            .map(|p| match p.as_str() {
                "" => t!(lang, "profile-not-recorded").to_owned(),
                p => p.to_owned(),
            })
            .collect();
        ui.label(tr!(
            lang,
            "sent-elsewhere",
            profiles = names.join(", "),
            profile = profile
        ));
    }
}

/// Each order in one line: what it does, for whom, on which assets.
fn orders_table_ui(ui: &mut egui::Ui, lang: Lang, batch: &Snapshot) {
    const SHOWN: usize = 100;
    let heads = [
        "sequence",
        "orderType",
        "licenseType",
        "customerName",
        "assetNos",
    ];
    egui::Grid::new("confirm_orders")
        .striped(true)
        .num_columns(heads.len())
        .show(ui, |ui| {
            for head in heads {
                ui.label(RichText::new(field_label(lang, head)).strong());
            }
            ui.end_row();
            for o in batch.orders().take(SHOWN) {
                let numbers: Vec<String> =
                    o.assets.iter().flat_map(|a| a.asset_nos.clone()).collect();
                let customer = o
                    .customer_name
                    .as_deref()
                    .or(o.customer_id.as_deref())
                    .or(o.crm_customer_id.as_deref())
                    .unwrap_or("—");
                ui.label(o.sequence.map_or_else(|| "—".to_owned(), |n| n.to_string()));
                ui.label(
                    o.order_type
                        .map_or_else(String::new, |v| order_type_short(lang, v)),
                );
                ui.label(
                    o.license_type
                        .map_or_else(String::new, |v| license_type_name(lang, v)),
                );
                ui.label(customer);
                ui.label(RichText::new(list_words(&numbers)).monospace());
                ui.end_row();
            }
        });
    let more = batch.len().saturating_sub(SHOWN);
    if more > 0 {
        ui.label(tr!(lang, "more-orders", n = more));
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
