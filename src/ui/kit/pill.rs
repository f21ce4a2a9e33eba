//! Status as a pill: a short word on a coloured ground (a disabled lock, a refusal, the
//! Sandbox), the same shape on every screen.

use egui::RichText;

use crate::ui::kit::theme;

/// What a pill says about its row, which gives its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Disabled, refused, production.
    Danger,
    /// Frozen, remote, informative.
    Info,
    /// The Sandbox, done.
    Calm,
}

/// A pill's room left and right of its words.
pub const SIDE: i8 = 6;

pub fn pill_ui(ui: &mut egui::Ui, text: &str, tone: Tone) -> egui::Response {
    let p = theme::palette(ui);
    let fill = match tone {
        Tone::Danger => p.danger,
        Tone::Info => p.remote,
        Tone::Calm => p.sandbox,
    };
    egui::Frame::new()
        .fill(fill)
        .corner_radius(theme::radius::CONTROL)
        .inner_margin(egui::Margin::symmetric(SIDE, 0))
        .show(ui, |ui| {
            ui.label(RichText::new(text).strong().color(p.on_mark));
        })
        .response
}
