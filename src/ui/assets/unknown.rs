//! Locks changed with their outcome unknown: the answer was lost, so the listing is read again
//! on the profile the locks went to, and what is shown is the state the platform lists, not the
//! state hoped for.

use egui::RichText;

use super::AssetsScreen;
use crate::core::wire::AssetList;
use crate::core::{Call, Profile};
use crate::ui::i18n::{Lang, Text, t, tr};
use crate::ui::outbox::Outbox;

pub(super) struct UnknownLocks {
    pub lock: bool,
    pub nums: Vec<String>,
    pub profile: String,
    /// The listing is to be read again (on the next frame, which can send).
    pub reread: bool,
    /// Each number's lock state as listed after (None: not listed), once read.
    pub read: Option<Vec<Option<bool>>>,
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
        let call = Call::Assets {
            enterprise_global_id: self.query.listed.clone(),
            extend_code,
        };
        self.query.call.start(out.call_on(&profile, call));
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
            dismissed = ui.button(t(lang, Text::Dismiss)).clicked();
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
                    ui.label(t(lang, Text::ReadingState));
                });
            }
            None => {
                ui.label(t(lang, Text::ListAgainToRead));
            }
        }
        dismissed
    }
}
