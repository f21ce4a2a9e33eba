//! The selected request: who filed it and what it does (a delete's preview first), what
//! became of it, and for an approver the decision: approve with one click, or reject with a
//! reason the requester reads.

use egui::RichText;

use super::state_ui;
use crate::core::calls::checks::PreviewDeletes;
use crate::core::team::{self, Decision, Permission, Request, RequestState};
use crate::core::wire::preview::DeletePreview;
use crate::core::wire::{BatchOrderRequest, approval};
use crate::core::{Awaited, CoreError};
use crate::ui::kit::button::danger_button;
use crate::ui::kit::delete_preview::found_ui;
use crate::ui::kit::form::busy_icon_button_ui;
use crate::ui::kit::icon::Icon;
use crate::ui::kit::permits::{permitted_ui, role_name};
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, labelled, t, tr};

#[derive(Default)]
pub(super) struct Decider {
    decide: Awaited<Box<Request>>,
    /// A waiting delete's preview read again now, for the request it was read for: what the
    /// platform holds may have changed since it was filed.
    fresh: Awaited<Box<DeletePreview>>,
    fresh_for: Option<i64>,
    found: Option<Result<Box<DeletePreview>, CoreError>>,
    /// The reason typed, for the request it was typed for.
    reason: String,
    reason_for: Option<i64>,
}

impl Decider {
    /// The request as decided, once the decision is answered.
    pub(super) fn poll(&mut self, out: &Outbox<'_>) -> Option<Box<Request>> {
        if let Some(found) = out.reply(&mut self.fresh, label!("preview-deletes")) {
            self.found = Some(found);
        }
        let decided = out
            .reply(&mut self.decide, label!("approvals-decide"))?
            .ok()?;
        self.reason.clear();
        Some(decided)
    }

    pub(super) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        caller: &Caller<'_>,
        lang: Lang,
        r: &Request,
        gist: &str,
    ) {
        if self.reason_for != Some(r.id) {
            self.reason_for = Some(r.id);
            self.reason.clear();
        }
        self.read_again(caller, r);
        egui::ScrollArea::vertical()
            .id_salt("approval_detail")
            .show(ui, |ui| {
                about_ui(ui, lang, r, gist);
                if r.state.open() {
                    self.decision_ui(ui, caller, lang, r);
                } else {
                    outcome_ui(ui, lang, r);
                }
                if let Some(preview) = &r.preview {
                    ui.add_space(6.0);
                    ui.label(RichText::new(t!(lang, "request-preview")).strong());
                    self.preview_ui(ui, lang, r, preview);
                }
                ui.add_space(6.0);
                ui.collapsing(t!(lang, "request-body"), |ui| {
                    let body = serde_json::to_string_pretty(&r.body).unwrap_or_default();
                    ui.label(RichText::new(body).monospace());
                });
            });
    }

    /// A waiting delete's preview is read again once it is shown, so that the approver
    /// approves what the platform holds now.
    fn read_again(&mut self, caller: &Caller<'_>, r: &Request) {
        if r.state != RequestState::Pending || r.preview.is_none() || self.fresh_for == Some(r.id) {
            return;
        }
        self.fresh_for = Some(r.id);
        self.found = None;
        let Ok(batch) = serde_json::from_value::<BatchOrderRequest>(r.body.clone()) else {
            return;
        };
        self.fresh.start(caller.ask(PreviewDeletes {
            profile: caller.profile.name.clone(),
            batch: Box::new(batch),
        }));
    }

    /// Whether the approval may go as far as the preview is concerned: read again (or could
    /// not be, which is said).
    fn preview_read(&self, r: &Request) -> bool {
        r.preview.is_none() || self.fresh_for != Some(r.id) || self.found.is_some()
    }

    /// The preview as filed, or what the platform holds now when that changed.
    fn preview_ui(&self, ui: &mut egui::Ui, lang: Lang, r: &Request, filed: &DeletePreview) {
        let now = match (&self.found, r.state == RequestState::Pending) {
            (Some(found), true) if self.fresh_for == Some(r.id) => found,
            (None, true) if self.fresh_for == Some(r.id) => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t!(lang, "request-preview-reading"));
                });
                return found_ui(ui, lang, filed);
            }
            _ => return found_ui(ui, lang, filed),
        };
        match now {
            Ok(now) if **now == *filed => found_ui(ui, lang, filed),
            Ok(now) => {
                let warn = ui.visuals().warn_fg_color;
                ui.colored_label(warn, t!(lang, "request-preview-changed"));
                found_ui(ui, lang, now);
            }
            Err(e) => {
                let why = tr!(lang, "request-preview-unread", reason = e.to_string());
                ui.colored_label(ui.visuals().warn_fg_color, why);
                found_ui(ui, lang, filed);
            }
        }
    }

    fn decision_ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang, r: &Request) {
        let me = caller.permits.me().map(|me| me.person.name.as_str());
        if me == Some(r.requester.as_str()) {
            ui.label(RichText::new(t!(lang, "request-own")).weak());
            return;
        }
        let lacking = caller.lacking(lang, Permission::Approve);
        let busy = self.decide.is_waiting();
        let read = self.preview_read(r);
        let mut decision = None;
        permitted_ui(ui, lacking.as_deref(), |ui| {
            ui.horizontal(|ui| {
                // What it removes is read again first: the approval is of what the platform
                // holds now.
                let approve = |ui: &mut egui::Ui| {
                    busy_icon_button_ui(ui, Icon::Approve, t!(lang, "approve"), busy)
                };
                if ui.add_enabled_ui(read, approve).inner {
                    decision = Some(Decision::Approve {
                        body_hash: r.body_hash.clone(),
                    });
                }
            });
            ui.horizontal(|ui| {
                let label = ui.label(t!(lang, "reject-reason"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.reason)
                        .desired_width(280.0)
                        .hint_text(t!(lang, "reject-reason-hint")),
                )
                .labelled_by(label.id);
                let can = !busy && !self.reason.trim().is_empty();
                if ui
                    .add_enabled(can, danger_button(ui, Icon::Reject, t!(lang, "reject")))
                    .clicked()
                {
                    decision = Some(Decision::Reject {
                        reason: self.reason.trim().to_owned(),
                    });
                }
            });
        });
        if let Some(decision) = decision {
            self.decide.start(caller.ask(team::Decide {
                profile: caller.profile.name.clone(),
                id: r.id,
                decision,
            }));
        }
    }
}

/// Who filed it, when, and where it stands.
fn about_ui(ui: &mut egui::Ui, lang: Lang, r: &Request, gist: &str) {
    let now_ms = crate::core::now_ms();
    let title = format!("{} · {gist}", approval::name(r.id));
    ui.label(RichText::new(title).strong());
    let role = role_name(lang, &r.role);
    let who = match &r.branch {
        Some(branch) => format!("{} ({role}, {branch})", r.requester),
        None => format!("{} ({role})", r.requester),
    };
    ui.label(labelled(lang, t!(lang, "request-requester"), &who));
    let filed = dates::local_time(r.created_at, now_ms);
    ui.label(labelled(lang, t!(lang, "request-time"), &filed));
    ui.horizontal(|ui| {
        ui.label(labelled(lang, t!(lang, "request-state"), ""));
        state_ui(ui, lang, r.state);
    });
}

/// Who decided, why, and what the platform said.
fn outcome_ui(ui: &mut egui::Ui, lang: Lang, r: &Request) {
    if let Some(by) = &r.decided_by {
        ui.label(tr!(lang, "request-decided-by", who = by.as_str()));
    }
    if let Some(reason) = &r.reason {
        ui.label(labelled(lang, t!(lang, "reject-reason"), reason));
    }
    if let Some(message) = &r.message {
        let words = match &r.code {
            Some(code) => format!("{code}: {message}"),
            None => message.clone(),
        };
        ui.colored_label(ui.visuals().error_fg_color, words);
    }
}
