//! Where a draft was sent: each profile with the channelOrderId it got and how it ended there,
//! and a batch whose outcome is unknown, with what may have happened and the user's choices:
//! check what the platform holds, mark it done or not done, or send it again.

use egui::RichText;
use serde::{Deserialize, Serialize};

use super::ComposerScreen;
use crate::core::calls::checks::CheckSent;
use crate::core::evidence::{Evidence, Found};
use crate::core::queue::{self, QueuedEntry};
use crate::core::wire::BatchOrderRequest;
use crate::core::{Awaited, LedgerEntry, Profile, WriteState, journal};
use crate::ui::kit::form::profile_name;
use crate::ui::kit::toasts::unsent_words;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, labelled, t, tr};
use crate::ui::text::labels::order_type_short;

/// One profile a draft was sent to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SentTo {
    pub profile: String,
    pub channel_order_id: String,
    /// Done, outcome unknown, or held for approval (a refusal or a write not sent is not
    /// recorded: the platform holds nothing of it).
    pub state: WriteState,
    /// The request a team server keeps it as, while held (`R-17`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
}

/// A batch sent whose answer never came.
pub(super) struct UnknownSent {
    pub profile: String,
    pub call_id: String,
    pub channel_order_id: String,
    /// The batch as it was sent, for the check.
    pub batch: BatchOrderRequest,
    /// The transport's words, verbatim.
    pub detail: String,
    pub check: Awaited<Box<Evidence>>,
    pub evidence: Option<Evidence>,
    pub resolve: Awaited<LedgerEntry>,
    /// The user's word asked for: done or not done.
    pub settling: bool,
    /// The user's word once recorded: done or not done.
    pub settled: Option<bool>,
}

/// A batch that did not leave: its platform could not be reached.
pub(super) struct UnsentBatch {
    pub profile: String,
    pub batch: BatchOrderRequest,
    /// Kept in the queue to send later.
    pub queue: Awaited<Vec<QueuedEntry>>,
    pub kept: bool,
    /// The profile's team server said it sent nothing (the platform away from it).
    pub by_team: bool,
}

/// What the user chose on the unknown outcome.
enum Choice {
    Check,
    Settle(bool),
    SendAgain,
}

impl ComposerScreen {
    /// Takes the answer of keeping an unsent batch to send later.
    pub(super) fn poll_unsent(&mut self, out: &Outbox<'_>) {
        let Some(unsent) = self.submit.unsent.as_mut() else {
            return;
        };
        if let Some(kept) = out.reply(&mut unsent.queue, label!("send-later")) {
            unsent.kept = kept.is_ok();
            if let Ok(entries) = kept {
                out.saw_queue(entries);
            }
        }
    }

    /// A batch that could not be sent, and its Send later; true when it is shown.
    pub(super) fn unsent_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &Profile,
    ) -> bool {
        let Some(unsent) = &mut self.submit.unsent else {
            return false;
        };
        if unsent.profile != profile.name {
            self.submit.unsent = None;
            return false;
        }
        let words = unsent_words(lang, profile_name(lang, profile), unsent.by_team);
        ui.colored_label(ui.visuals().warn_fg_color, words);
        if unsent.kept {
            ui.label(t!(lang, "kept-to-send-later"));
        } else {
            let busy = unsent.queue.is_waiting();
            if crate::ui::kit::form::busy_button_ui(ui, t!(lang, "keep-to-send-later"), busy) {
                unsent.queue.start(out.ask(queue::Add {
                    profile: unsent.profile.clone(),
                    call: crate::core::Call::BatchOrder(unsent.batch.clone()),
                }));
            }
        }
        true
    }

    /// Takes what the check found, and the answer of the user's settlement of an unknown
    /// outcome: the draft's hints follow it.
    pub(super) fn poll_unknown(&mut self, out: &Outbox<'_>) {
        let Some(unknown) = self.submit.unknown.as_mut() else {
            return;
        };
        if let Some(Ok(found)) = out.reply(&mut unknown.check, label!("check-sent")) {
            unknown.evidence = Some(*found);
        }
        let action = if unknown.settling {
            label!("mark-done")
        } else {
            label!("mark-not-done")
        };
        let Some(Ok(entry)) = out.reply(&mut unknown.resolve, action) else {
            return;
        };
        let done = entry.state == WriteState::Done;
        unknown.settled = Some(done);
        let Some(draft) = &mut self.draft else {
            return;
        };
        let (profile, id) = (&unknown.profile, &unknown.channel_order_id);
        if done {
            draft.hints.record(profile, id, WriteState::Done);
        } else {
            // Nothing was made there: sending it is a first send again.
            draft
                .hints
                .sent
                .retain(|s| !(&s.profile == profile && &s.channel_order_id == id));
        }
        self.drafts.changed();
    }

    /// The unknown outcome, its choices and what the check found; true when it is shown.
    pub(super) fn unknown_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &Profile,
    ) -> bool {
        let Some(unknown) = &mut self.submit.unknown else {
            return false;
        };
        if unknown.profile != profile.name {
            // Shown only beside the profile it belongs to; History keeps it.
            self.submit.unknown = None;
            return false;
        }
        let warn = ui.visuals().warn_fg_color;
        let n = unknown.batch.order_list.len();
        let heading = tr!(
            lang,
            "unknown-batch",
            n = n,
            profile = profile_name(lang, profile)
        );
        ui.label(RichText::new(heading).strong().color(warn));
        ui.label(t!(lang, "explain-outcome-unknown"));
        ui.label(RichText::new(tr!(lang, "verbatim-caption")).weak());
        ui.label(RichText::new(&unknown.detail).monospace().weak());
        let choice = match unknown.settled {
            Some(done) => {
                let words = if done {
                    label!("marked-done")
                } else {
                    label!("marked-not-done")
                };
                ui.label(words.text(lang));
                None
            }
            None => choices_ui(ui, lang, unknown),
        };
        if let Some(evidence) = &unknown.evidence {
            evidence_ui(ui, lang, evidence);
        }
        match choice {
            Some(Choice::Check) => unknown.check.start(out.ask(CheckSent {
                profile: unknown.profile.clone(),
                batch: Box::new(unknown.batch.clone()),
            })),
            Some(Choice::Settle(done)) => {
                unknown.settling = done;
                unknown.resolve.start(out.ask(journal::requests::Resolve {
                    call_id: unknown.call_id.clone(),
                    done,
                    by: profile.operator_identity.clone(),
                }));
            }
            Some(Choice::SendAgain) => self.submit.confirm = true,
            None => {}
        }
        true
    }
}

fn choices_ui(ui: &mut egui::Ui, lang: Lang, unknown: &UnknownSent) -> Option<Choice> {
    let mut choice = None;
    ui.horizontal_wrapped(|ui| {
        let checking = unknown.check.is_waiting();
        if crate::ui::kit::form::busy_button_ui(ui, t!(lang, "check-sent"), checking) {
            choice = Some(Choice::Check);
        }
        let settling = unknown.resolve.is_waiting();
        ui.add_enabled_ui(!settling, |ui| {
            if ui.button(t!(lang, "mark-done")).clicked() {
                choice = Some(Choice::Settle(true));
            }
            if ui.button(t!(lang, "mark-not-done")).clicked() {
                choice = Some(Choice::Settle(false));
            }
        });
        if ui.button(t!(lang, "send-again")).clicked() {
            choice = Some(Choice::SendAgain);
        }
    });
    choice
}

/// Each asset of the batch as the platform lists it, and a line that counts them.
fn evidence_ui(ui: &mut egui::Ui, lang: Lang, evidence: &Evidence) {
    let (asked, not, unreadable) = evidence.counts();
    ui.label(
        RichText::new(tr!(
            lang,
            "evidence-counts",
            asked = asked,
            not = not,
            unreadable = unreadable
        ))
        .strong(),
    );
    egui::ScrollArea::vertical()
        .id_salt("evidence")
        .max_height(120.0)
        .show(ui, |ui| {
            for a in &evidence.assets {
                let what = a
                    .order_type
                    .map(|k| order_type_short(lang, k))
                    .unwrap_or_default();
                let found = match &a.found {
                    Found::Listed { products } if products.is_empty() => {
                        t!(lang, "evidence-listed").to_owned()
                    }
                    Found::Listed { products } => {
                        labelled(lang, t!(lang, "evidence-listed"), &products.join(", "))
                    }
                    Found::NotListed => t!(lang, "evidence-not-listed").to_owned(),
                    Found::Unreadable(why) => labelled(lang, t!(lang, "evidence-unreadable"), why),
                };
                let mark = match a.as_asked() {
                    Some(true) => "=",
                    Some(false) => "×",
                    None => "?",
                };
                ui.label(format!(
                    "{mark} #{} {what} {}: {found}",
                    a.sequence, a.asset_num
                ));
            }
        });
}
