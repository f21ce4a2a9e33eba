//! Cards and section headings: a form's fields, a summary or a result grouped on the card
//! colour with a border, under a heading in the type scale's section size.

use egui::{RichText, Stroke};

use crate::ui::kit::theme::{self, radius, space};

/// A section's heading inside a screen.
pub fn section_ui(ui: &mut egui::Ui, text: &str) -> egui::Response {
    ui.label(RichText::new(text).size(theme::size::SECTION).strong())
}

/// A card around what `add` draws, under `heading` when there is one.
pub fn card_ui<R>(
    ui: &mut egui::Ui,
    heading: Option<&str>,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let p = theme::palette(ui);
    egui::Frame::new()
        .fill(p.card)
        .stroke(Stroke::new(1.0, p.border))
        .corner_radius(radius::CARD)
        .inner_margin(space::M)
        .show(ui, |ui| {
            if let Some(heading) = heading {
                section_ui(ui, heading);
                ui.add_space(space::S);
            }
            add(ui)
        })
        .inner
}

/// A number in a table's cell, right-aligned so that its digits line up down the column.
pub fn number_ui(ui: &mut egui::Ui, text: RichText) {
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        ui.label(text);
    });
}
