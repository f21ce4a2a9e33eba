//! The delete preview in the submit confirmation: what each delete order would remove, as the
//! profile's asset listings and the platform's own rule say, and what an administrator must
//! know before sending it. Until it is known the batch is not sent; when it cannot be known,
//! sending takes one more click; when the platform would refuse it, it is not sent.

use crate::core::calls::checks::PreviewDeletes;
use crate::core::snapshot::Snapshot;
use crate::core::wire::preview::DeletePreview;
use crate::core::{Awaited, CoreError};
use crate::ui::kit::delete_preview::found_ui;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, tr};

#[derive(Default)]
pub(super) struct Preview {
    call: Awaited<Box<DeletePreview>>,
    /// The profile it was asked of: a preview is shown only for the profile it is about.
    profile: Option<String>,
    found: Option<Result<Box<DeletePreview>, CoreError>>,
    /// The user chose to send without knowing the effect.
    accept_unknown: bool,
}

impl Preview {
    /// Asks for the batch's preview on `profile`, once per confirmation.
    pub fn ask(&mut self, out: &Outbox<'_>, profile: &str, batch: &Snapshot) {
        if self.profile.as_deref() == Some(profile) {
            return;
        }
        self.forget();
        self.profile = Some(profile.to_owned());
        self.call.start(out.ask(PreviewDeletes {
            profile: profile.to_owned(),
            batch: Box::new(batch.to_batch(None)),
        }));
    }

    /// The confirmation closed: the next one asks again (the assets may have changed).
    pub fn forget(&mut self) {
        *self = Self::default();
    }

    /// Takes the preview when it has come, or why it could not be had.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        if let Some(found) = out.reply(&mut self.call, label!("preview-deletes")) {
            self.found = Some(found);
        }
    }

    /// Draws the preview; answers whether the batch may be sent as far as it is concerned.
    pub fn ui(&mut self, ui: &mut egui::Ui, lang: Lang) -> bool {
        let unknown = match &self.found {
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(tr!(lang, "preview-working"));
                });
                return false;
            }
            Some(Err(reason)) => {
                let warn = ui.visuals().warn_fg_color;
                let reason = reason.to_string();
                ui.colored_label(warn, tr!(lang, "preview-failed", reason = reason.as_str()));
                true
            }
            Some(Ok(found)) => {
                found_ui(ui, lang, found);
                if found.refused() {
                    // Sent, it would only be refused: Send waits for the draft to change.
                    let warn = ui.visuals().warn_fg_color;
                    ui.colored_label(warn, tr!(lang, "preview-refused-send-off"));
                    return false;
                }
                found.unknown()
            }
        };
        !unknown || self.unknown_ui(ui, lang)
    }

    fn unknown_ui(&mut self, ui: &mut egui::Ui, lang: Lang) -> bool {
        // Its own id, not one counted from the lines above it, which answers may add: a click
        // must reach the tick it was aimed at.
        ui.push_id("preview_unknown_ack", |ui| {
            ui.checkbox(&mut self.accept_unknown, tr!(lang, "preview-unknown-ack"));
        });
        self.accept_unknown
    }
}
