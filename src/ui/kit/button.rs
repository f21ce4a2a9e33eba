//! The three kinds of button: the one primary action of a screen or dialog (filled), the
//! secondary ones (egui's outlined default), and what destroys (red). A destructive button is
//! never a confirmation's default: Enter never presses it.

use egui::RichText;

use crate::ui::kit::theme;

/// The screen's or dialog's main action, filled in the primary colour.
pub fn primary_button(ui: &egui::Ui, text: impl Into<String>) -> egui::Button<'static> {
    let p = theme::palette(ui);
    egui::Button::new(RichText::new(text.into()).color(p.on_primary)).fill(p.primary)
}

/// What cannot be taken back lightly (disable locks, delete, remove): white on red.
pub fn danger_button(ui: &egui::Ui, text: impl Into<String>) -> egui::Button<'static> {
    let p = theme::palette(ui);
    egui::Button::new(RichText::new(text.into()).color(p.on_danger)).fill(p.danger)
}
