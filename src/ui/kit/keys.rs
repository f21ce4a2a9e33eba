//! The console's keyboard shortcuts, said once: the screens take them from here, the tooltips
//! name them in the platform's way (Ctrl on Windows and Linux), and the manual's shortcuts page
//! lists the same.

use egui::{Key, KeyboardShortcut, Modifiers};

/// Submit the form shown (never a confirmation: those are answered by their own buttons).
pub const SUBMIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Enter);
/// Read again what the screen shows.
pub const REFRESH: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F5);
/// Save the composer's draft now (it is saved as one types anyway).
pub const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
/// Skip the top bar and the navigation: the focus to the screen's content (the composer's
/// tree), as `F6` moves between the panes of Windows programs.
pub const CONTENT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F6);

/// Whether `shortcut` was pressed this frame, taken so that nothing else acts on it. Nothing
/// is taken while a dialog is open over the screen: its own buttons answer it.
pub fn pressed(ui: &egui::Ui, shortcut: KeyboardShortcut) -> bool {
    if ui.ctx().memory(|m| m.top_modal_layer().is_some()) && !in_modal(ui) {
        return false;
    }
    ui.input_mut(|i| i.consume_shortcut(&shortcut))
}

fn in_modal(ui: &egui::Ui) -> bool {
    ui.ctx()
        .memory(|m| m.top_modal_layer())
        .is_some_and(|layer| layer == ui.layer_id())
}

/// `words` with the shortcut that does the same, for a tooltip: "Refresh (F5)", "Submit
/// (Ctrl+Enter)"; named in words, as on Windows and Linux.
pub fn with_shortcut(words: &str, shortcut: KeyboardShortcut) -> String {
    let mac = cfg!(target_os = "macos");
    format!(
        "{words} ({})",
        shortcut.format(&egui::ModifierNames::NAMES, mac)
    )
}
