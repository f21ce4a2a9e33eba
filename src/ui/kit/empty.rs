//! Empty states: what a screen or a list shows while it has nothing, in words that say what to
//! do next, with the button that does it when there is one.

use egui::RichText;

use crate::ui::kit::button::secondary_button;
use crate::ui::kit::icon::Icon;
use crate::ui::kit::theme::{self, space};

/// The words, muted, and under them the next step's button: whether it was clicked.
pub fn empty_state_ui(ui: &mut egui::Ui, words: &str, next: Option<(Icon, &str)>) -> bool {
    let muted = theme::palette(ui).muted;
    let mut clicked = false;
    ui.add_space(space::L);
    ui.vertical_centered(|ui| {
        ui.label(RichText::new(words).color(muted));
        if let Some((icon, label)) = next {
            ui.add_space(space::S);
            clicked = ui.add(secondary_button(icon, label)).clicked();
        }
    });
    ui.add_space(space::L);
    clicked
}
