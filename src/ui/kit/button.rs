//! The three kinds of button: the one primary action of a screen or dialog (filled), the
//! secondary ones (egui's outlined default), and what destroys (red). A destructive button is
//! never a confirmation's default: Enter never presses it. The main actions carry an icon
//! before their words.

use egui::RichText;

use crate::ui::kit::icon::Icon;
use crate::ui::kit::theme;

/// The screen's or dialog's main action, filled in the primary colour.
pub fn primary_button(ui: &egui::Ui, icon: Icon, text: impl Into<String>) -> egui::Button<'static> {
    let p = theme::palette(ui);
    let words = RichText::new(text.into()).color(p.on_primary);
    egui::Button::image_and_text(icon.image().tint(p.on_primary), words).fill(p.primary)
}

/// What cannot be taken back lightly (disable locks, delete, remove): white on red.
pub fn danger_button(ui: &egui::Ui, icon: Icon, text: impl Into<String>) -> egui::Button<'static> {
    let p = theme::palette(ui);
    let words = RichText::new(text.into()).color(p.on_danger);
    egui::Button::image_and_text(icon.image().tint(p.on_danger), words).fill(p.danger)
}

/// A secondary action with its icon: outlined, the icon in the words' colour (hover and
/// disabled included).
pub fn secondary_button(icon: Icon, text: impl Into<String>) -> egui::Button<'static> {
    egui::Button::image_and_text(icon.image(), text.into()).image_tint_follows_text_color(true)
}
