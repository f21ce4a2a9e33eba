//! A stored draft that cannot be read: shown read-only with the reason, kept as stored (never
//! saved over), and exported as is, byte for byte, so that nothing typed is lost.

use egui::RichText;

use super::ComposerScreen;
use crate::ui::kit::form::busy_button_ui;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, tr};

impl ComposerScreen {
    pub(super) fn unreadable_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        let Some(unreadable) = self.draft.as_ref().and_then(|d| d.unreadable.as_ref()) else {
            return;
        };
        let reason = tr!(
            lang,
            "draft-unreadable-reason",
            line = unreadable.line,
            column = unreadable.column,
            what = unreadable.what.as_str()
        );
        let size = unreadable.stored.len();
        ui.label(
            RichText::new(tr!(lang, "draft-unreadable"))
                .strong()
                .color(ui.visuals().warn_fg_color),
        );
        ui.label(reason);
        ui.label(tr!(lang, "draft-unreadable-kept", bytes = size));
        let busy = self.export_busy();
        if busy_button_ui(ui, &tr!(lang, "export-as-is"), busy) {
            self.export_as_is(out, lang);
        }
    }
}
