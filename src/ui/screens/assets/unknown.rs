//! Lock changes that did not end as asked for: with their outcome unknown (the answer was
//! lost, so the listing is read again on the profile the locks went to, and what is shown is
//! the state the platform lists, not the state hoped for), or not sent at all (the platform
//! could not be reached: the change can be kept to send later).

use egui::RichText;

use super::AssetsScreen;
use crate::core::calls::requests as calls;
use crate::core::queue::{self, QueuedEntry};
use crate::core::wire::AssetList;
use crate::core::{Awaited, Call, Profile};
use crate::ui::kit::toasts::unsent_words;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, t, tr};

pub(super) struct UnknownLocks {
    pub lock: bool,
    pub nums: Vec<String>,
    pub profile: String,
    /// The listing is to be read again (on the next frame, which can send).
    pub reread: bool,
    /// Each number's lock state as listed after (None: not listed), once read.
    pub read: Option<Vec<Option<bool>>>,
}

/// A lock change that did not leave.
pub(super) struct UnsentLocks {
    pub profile: String,
    pub call: Call,
    pub queue: Awaited<Vec<QueuedEntry>>,
    pub kept: bool,
    /// The profile's team server said it sent nothing (the platform away from it).
    pub by_team: bool,
}

impl UnknownLocks {
    /// The state of its numbers in a fresh listing.
    pub fn read_from(&mut self, assets: &AssetList) {
        let state = |num: &String| {
            assets
                .iter()
                .find(|a| a.asset_num() == num)
                .map(|a| a.locked())
        };
        self.read = Some(self.nums.iter().map(state).collect());
    }
}

impl AssetsScreen {
    /// Takes the answer of keeping an unsent change to send later.
    pub(super) fn poll_unsent(&mut self, out: &Outbox<'_>) {
        let Some(unsent) = self.locks.unsent.as_mut() else {
            return;
        };
        if let Some(kept) = out.reply(&mut unsent.queue, label!("send-later")) {
            unsent.kept = kept.is_ok();
            if let Ok(entries) = kept {
                out.saw_queue(entries);
            }
        }
    }

    /// A change that could not be sent, and its Keep to send later; true when Dismiss was
    /// clicked.
    pub(super) fn unsent_locks_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
    ) -> bool {
        let Some(unsent) = &mut self.locks.unsent else {
            return false;
        };
        let mut dismissed = false;
        ui.horizontal_wrapped(|ui| {
            let words = unsent_words(lang, &unsent.profile, unsent.by_team);
            ui.colored_label(ui.visuals().warn_fg_color, words);
            if unsent.kept {
                ui.label(t!(lang, "kept-to-send-later"));
            } else {
                let busy = unsent.queue.is_waiting();
                let keep = t!(lang, "keep-to-send-later");
                if crate::ui::kit::form::busy_button_ui(ui, keep, busy) {
                    unsent.queue.start(out.ask(queue::Add {
                        profile: unsent.profile.clone(),
                        call: unsent.call.clone(),
                    }));
                }
            }
            dismissed = ui.button(t!(lang, "dismiss")).clicked();
        });
        dismissed
    }

    /// Reads the listing again where the locks went, if it is the one on screen.
    pub(super) fn reread_after_unknown(&mut self, out: &Outbox<'_>) {
        let Some(unknown) = &mut self.locks.unknown else {
            return;
        };
        if !std::mem::take(&mut unknown.reread) {
            return;
        }
        let Some(profile) = self
            .query
            .listed_on
            .clone()
            .filter(|p: &Profile| p.name == unknown.profile)
        else {
            return;
        };
        let extend_code = Some(self.query.extend_code.trim().to_owned()).filter(|c| !c.is_empty());
        self.query.call.start(out.ask(calls::Assets {
            profile: profile.name.clone(),
            enterprise_global_id: self.query.listed.clone(),
            extend_code,
        }));
    }

    /// What may have happened, and the state read since; true when Dismiss was clicked.
    pub(super) fn unknown_locks_ui(&self, ui: &mut egui::Ui, lang: Lang) -> bool {
        let Some(unknown) = &self.locks.unknown else {
            return false;
        };
        let n = unknown.nums.len();
        let profile = unknown.profile.as_str();
        let heading = if unknown.lock {
            tr!(lang, "locks-unknown-disable", n = n, profile = profile)
        } else {
            tr!(lang, "locks-unknown-enable", n = n, profile = profile)
        };
        let mut dismissed = false;
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(heading)
                    .strong()
                    .color(ui.visuals().warn_fg_color),
            );
            dismissed = ui.button(t!(lang, "dismiss")).clicked();
        });
        match &unknown.read {
            Some(read) => {
                let disabled = read.iter().filter(|s| **s == Some(true)).count();
                let enabled = read.iter().filter(|s| **s == Some(false)).count();
                let missing = read.iter().filter(|s| s.is_none()).count();
                ui.label(tr!(
                    lang,
                    "locks-read-after",
                    disabled = disabled,
                    enabled = enabled,
                    missing = missing
                ));
            }
            None if self.query.call.is_waiting() => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t!(lang, "reading-state"));
                });
            }
            None => {
                ui.label(t!(lang, "list-again-to-read"));
            }
        }
        dismissed
    }
}
