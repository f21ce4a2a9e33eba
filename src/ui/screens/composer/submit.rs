//! Sending the batch: the submit button with the problems still to fix, and the platform's
//! result (the confirmation between them is `confirm.rs`).

use egui::RichText;

use super::ComposerScreen;
use super::node::NodeId;
use super::preview::Preview;
use super::sent::{UnknownSent, UnsentBatch};
use crate::core::wire::validate::{Problem, ProblemKind, UnknownKey};
use crate::core::wire::{BatchOrderRequest, BatchOrderResult};
use crate::core::{ApiError, Awaited, CoreError, Profile, WriteState};
use crate::ui::kit::form::{keyed_button_ui, name_of_profile};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::keys;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, t, tr};
use crate::ui::text::problems::{path_words, problem_words};

/// Problems listed at most; the count says how many there are in all.
const MAX_LISTED: usize = 500;

#[derive(Default)]
pub(super) struct Submit {
    pub(super) call: Awaited<Vec<BatchOrderResult>>,
    /// Why the person signed in may not send this batch (a team server's role), this frame.
    pub(super) refused: Option<String>,
    /// The batch being sent, with the profile it goes to.
    pub(super) submitting: Option<Sending>,
    pub(super) confirm: bool,
    /// Send was given the keyboard's focus once it could be pressed (Enter sends).
    pub(super) send_focused: bool,
    /// The production guard: the profile's name as the user typed it.
    pub(super) guard: String,
    /// What the batch's delete orders would remove, asked when the confirmation opens.
    pub(super) preview: Preview,
    /// The platform's answer, shown until the batch changes.
    submitted: Option<Submitted>,
    /// A batch sent whose answer never came, until the batch changes or it is settled.
    pub(super) unknown: Option<UnknownSent>,
    /// A batch that did not leave (its platform could not be reached), to send later.
    pub(super) unsent: Option<UnsentBatch>,
    /// A batch a team server keeps for a second person: the profile and the request's id.
    held: Option<(String, String)>,
}

pub(super) struct Sending {
    pub(super) profile: String,
    /// Whether the profile is declared to recognise a repeated channelOrderId.
    pub(super) recognised: bool,
    pub(super) batch: BatchOrderRequest,
}

impl Sending {
    fn channel_order_id(&self) -> String {
        self.batch.channel_order_id.clone().unwrap_or_default()
    }
}

struct Submitted {
    /// The profile that answered: the result is shown beside it only.
    profile: String,
    results: Vec<BatchOrderResult>,
    repeat: bool,
    /// Whether that profile's platform is declared to recognise a repeat.
    recognised: bool,
}

impl Submit {
    /// The batch changed or another opened: the result shown is not its own.
    /// The request the batch is held as was decided: the notice of it waiting goes.
    pub fn forget_held(&mut self, names: &[String]) {
        if self.held.as_ref().is_some_and(|(_, id)| names.contains(id)) {
            self.held = None;
        }
    }

    pub fn forget(&mut self) {
        self.submitted = None;
        self.unknown = None;
        self.unsent = None;
        self.held = None;
    }
}

impl ComposerScreen {
    /// Takes the platform's answer to the batch sent, and the delete preview's.
    pub(super) fn poll_submit(&mut self, out: &Outbox<'_>) {
        self.submit.preview.poll(out);
        let Some(answer) = out.reply(&mut self.submit.call, label!("submit-batch")) else {
            return;
        };
        let (Some(sending), Some(draft)) = (self.submit.submitting.take(), &mut self.draft) else {
            return;
        };
        let id = sending.channel_order_id();
        match answer {
            Ok(results) => {
                let repeat = draft.hints.sent_to(&sending.profile, &id).is_some();
                draft.hints.record(&sending.profile, &id, WriteState::Done);
                self.drafts.changed();
                self.submit.submitted = Some(Submitted {
                    recognised: sending.recognised,
                    profile: sending.profile,
                    results,
                    repeat,
                });
            }
            Err(CoreError::Api(ApiError::OutcomeUnknown {
                call_id, detail, ..
            })) => {
                draft
                    .hints
                    .record(&sending.profile, &id, WriteState::Unknown);
                self.drafts.changed();
                self.submit.unknown = Some(UnknownSent {
                    profile: sending.profile,
                    call_id,
                    channel_order_id: id,
                    batch: sending.batch,
                    detail,
                    check: Awaited::default(),
                    evidence: None,
                    resolve: Awaited::default(),
                    settling: false,
                    settled: None,
                });
            }
            Err(CoreError::Api(ApiError::Held { request_id, .. })) => {
                let request = Some(request_id.clone());
                let state = WriteState::Held;
                draft.hints.record_as(&sending.profile, &id, state, request);
                self.drafts.changed();
                self.submit.held = Some((sending.profile, request_id));
            }
            Err(CoreError::Api(e @ ApiError::NotSent(_))) => {
                self.submit.unsent = Some(UnsentBatch {
                    profile: sending.profile,
                    batch: sending.batch,
                    queue: Awaited::default(),
                    kept: false,
                    by_team: e.sent_nothing_said_by_team(),
                });
            }
            _ => {}
        }
    }

    /// The submit button, and how many problems stand before it.
    fn submit_bar_ui(&mut self, ui: &mut egui::Ui, lang: Lang, profile: &Profile) {
        let blocking = self
            .check
            .problems
            .iter()
            .filter(|p| !sendable_anyway(p, profile))
            .count();
        ui.horizontal(|ui| {
            let ready = blocking == 0;
            let busy = self.submit.call.is_waiting();
            let refused = self.submit.refused.as_deref();
            ui.add_enabled_ui(ready, |ui| {
                let button = |ui: &mut egui::Ui| {
                    keyed_button_ui(
                        ui,
                        Icon::Send,
                        t!(lang, "submit-batch"),
                        busy,
                        true,
                        keys::SUBMIT,
                    )
                };
                if crate::ui::kit::permits::permitted_ui(ui, refused, button) {
                    self.submit.confirm = true;
                }
            });
            if self.check.problems.is_empty() {
                ui.label(t!(lang, "no-problems"));
            } else if ready {
                let n = self.check.problems.len();
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    tr!(lang, "unknown-values-count", n = n),
                );
            } else {
                // Things still to fill in, not errors: a new draft starts with some.
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    tr!(lang, "problems-count", n = blocking),
                );
            }
        });
    }

    pub(super) fn bottom_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &Profile,
    ) -> f32 {
        let top = ui.min_rect().top();
        self.submit_bar_ui(ui, lang, profile);
        // What is below the bar scrolls, so that none of it is cut off when the panel is short
        // (a short window, or a toast under the screen). Another draft opens at its top.
        let draft = self.draft.as_ref().and_then(|d| d.id);
        let bar = ui.min_rect().bottom() - top;
        let list = egui::ScrollArea::vertical()
            .id_salt(("composer_bottom", draft))
            .auto_shrink([false, true])
            .show(ui, |ui| self.under_bar_ui(ui, out, lang, profile));
        bar + ui.spacing().item_spacing.y + list.content_size.y
    }

    /// Under the submit bar: the answer, or a batch sent with no answer, or the problems.
    fn under_bar_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, profile: &Profile) {
        if self
            .submit
            .submitted
            .as_ref()
            .is_some_and(|s| s.profile != profile.name)
        {
            // Another profile is active: that answer is not this profile's.
            self.submit.submitted = None;
        }
        if let Some(s) = &self.submit.submitted {
            submitted_ui(ui, lang, s);
            return;
        }
        if let Some((on, id)) = &self.submit.held {
            // News, not a warning: the request waits for its approver.
            ui.label(tr!(
                lang,
                "batch-held",
                id = id.as_str(),
                profile = on.as_str()
            ));
        }
        if self.unknown_ui(ui, out, lang, profile) || self.unsent_ui(ui, out, lang, profile) {
            return;
        }
        let mut clicked = None;
        for p in self.check.problems.iter().take(MAX_LISTED) {
            let words =
                unknown_value_words(lang, p, profile).unwrap_or_else(|| problem_words(lang, p));
            let text = RichText::new(words).color(ui.visuals().warn_fg_color);
            let place = self.check.place_words(lang, p);
            // Where it is in the file first; a long problem wraps onto the next line.
            ui.horizontal_wrapped(|ui| {
                if let Some(place) = place {
                    // The interface's path on hover, to find the value in the file; not on the
                    // message, where a tooltip would cover the next problem.
                    let path = tr!(lang, "problem-path-hover", path = p.path.to_string());
                    ui.label(RichText::new(place).weak()).on_hover_text(path);
                }
                let row = ui.selectable_label(false, text);
                if std::mem::take(&mut self.check.focus_list) {
                    row.request_focus();
                }
                if row.clicked() {
                    clicked = Some(p.path.clone());
                }
            });
        }
        if self.check.problems.len() > MAX_LISTED {
            ui.label(tr!(
                lang,
                "more-problems",
                n = self.check.problems.len().saturating_sub(MAX_LISTED)
            ));
        }
        unknown_keys_ui(ui, lang, &self.check.unknown_keys);
        if let Some(path) = clicked {
            let (node, rest) = NodeId::of_path(&path);
            self.tree.reveal(&node);
            self.tree.select(node);
            self.check.focus_field = rest.first().map(|seg| seg.name().to_owned());
        }
    }
}

/// Keys of no field of the interface, as warnings: they do not block a send.
fn unknown_keys_ui(ui: &mut egui::Ui, lang: Lang, keys: &[UnknownKey]) {
    for u in keys.iter().take(MAX_LISTED) {
        let at = if u.at.0.is_empty() {
            u.key.clone()
        } else {
            format!("{} › {}", path_words(lang, &u.at.0), u.key)
        };
        let words = tr!(lang, "unknown-key", at = at);
        ui.label(RichText::new(words).color(ui.visuals().warn_fg_color));
    }
    if keys.len() > MAX_LISTED {
        let n = keys.len().saturating_sub(MAX_LISTED);
        ui.label(tr!(lang, "more-unknown-keys", n = n));
    }
}

/// A value of `orderType` or `licenseType` the interface does not list: a remote platform may
/// know it (public client code sends `renew_license`), so there it can be sent after a
/// confirmation that names it; the Sandbox implements only the listed values.
pub(super) fn unknown_choice(p: &Problem) -> Option<&str> {
    let field = p.path.0.last()?.name();
    match &p.kind {
        ProblemKind::UnknownValue { value } if matches!(field, "orderType" | "licenseType") => {
            Some(value)
        }
        _ => None,
    }
}

fn sendable_anyway(p: &Problem, profile: &Profile) -> bool {
    !profile.is_sandbox() && unknown_choice(p).is_some()
}

/// An unknown order or license type in the words of where it would go.
fn unknown_value_words(lang: Lang, p: &Problem, profile: &Profile) -> Option<String> {
    let value = unknown_choice(p)?;
    let key = if profile.is_sandbox() {
        tr!(lang, "sandbox-unknown-value", value = value)
    } else {
        tr!(lang, "remote-unknown-value", value = value)
    };
    Some(tr!(
        lang,
        "problem-at",
        path = path_words(lang, &p.path.0),
        problem = key
    ))
}

fn submitted_ui(ui: &mut egui::Ui, lang: Lang, s: &Submitted) {
    let n = s.results.len();
    // The Sandbox by its name in the UI's language, as the confirmation named it.
    let profile = name_of_profile(lang, &s.profile);
    let text = match (s.repeat, s.recognised) {
        (true, true) => tr!(lang, "submitted-again", n = n, profile = profile),
        (true, false) => tr!(
            lang,
            "submitted-again-unrecognised",
            n = n,
            profile = profile
        ),
        (false, _) => tr!(lang, "submitted-new", n = n, profile = profile),
    };
    ui.label(RichText::new(text).strong());
    egui::ScrollArea::vertical()
        .id_salt("results")
        .show(ui, |ui| {
            egui::Grid::new("submit_results")
                .striped(true)
                .spacing([24.0, 4.0])
                .num_columns(3)
                .show(ui, |ui| {
                    for head in [
                        label!("sequence"),
                        label!("license-order-id"),
                        label!("customer-id"),
                    ] {
                        ui.label(RichText::new(head.text(lang)).strong());
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
