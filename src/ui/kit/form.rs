//! Form pieces shared by the screens: labelled fields in a two-column grid, the problems the
//! shared validation found shown under their field in words, and buttons that show a spinner
//! while their call runs.

use std::path::PathBuf;

use egui::{KeyboardShortcut, Response, RichText};

use crate::core::wire::validate::{Problem, mobile_from};
use crate::core::{Profile, SANDBOX};
use crate::ui::kit::button::{primary_button, secondary_button};
use crate::ui::kit::card::card_ui;
use crate::ui::kit::icon::Icon;
use crate::ui::kit::pill::{Tone, pill_ui};
use crate::ui::kit::{keys, theme};
use crate::ui::text::i18n::{Label, Lang, t, tr};
use crate::ui::text::problems::kind_words;

/// One field of a form: its label, the interface's name for it (problems name fields by it),
/// and whether the platform requires it.
pub struct Field<'a> {
    pub label: &'a str,
    pub path: &'a str,
    pub required: bool,
}

/// A form's rows, on a card: `field_ui` inside `grid_ui`.
pub fn grid_ui(ui: &mut egui::Ui, id: &str, add_rows: impl FnOnce(&mut egui::Ui)) {
    card_ui(ui, None, |ui| {
        egui::Grid::new(id)
            .num_columns(2)
            .spacing([theme::space::M, 6.0])
            .min_col_width(150.0)
            .show(ui, add_rows);
    });
}

/// A labelled single-line field (the text edit's accessible name is the label), with a mark
/// when it is required and the problems of its path under it.
pub fn field_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    field: &Field<'_>,
    value: &mut String,
    problems: &[Problem],
) -> Response {
    field_with_ui(ui, lang, field, problems, |ui| {
        ui.add(egui::TextEdit::singleline(value).desired_width(300.0))
    })
}

/// Label fields, one row each: (label, the interface's name for it, required, value).
pub fn text_fields_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    rows: Vec<(Label, &str, bool, &mut String)>,
    problems: &[Problem],
) {
    for (label, path, required, value) in rows {
        let field = Field {
            label: label.text(lang),
            path,
            required,
        };
        field_ui(ui, lang, &field, value, problems);
    }
}

/// Like `field_ui`, with the widget drawn by `add` (a password field, a checkbox…).
pub fn field_with_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    field: &Field<'_>,
    problems: &[Problem],
    add: impl FnOnce(&mut egui::Ui) -> Response,
) -> Response {
    let label = ui
        .horizontal(|ui| {
            let label = ui.label(field.label);
            if field.required {
                ui.label(RichText::new("*").color(ui.visuals().error_fg_color))
                    .on_hover_text(t!(lang, "required-mark"));
            }
            label
        })
        .inner;
    let response = ui
        .vertical(|ui| {
            let response = add(ui).labelled_by(label.id);
            note_enter(ui, &response);
            for problem in problems.iter().filter(|p| p.path.is_field(field.path)) {
                problem_line_ui(ui, &kind_words(lang, &problem.kind));
            }
            response
        })
        .inner;
    ui.end_row();
    response
}

/// A problem in words, in the danger colour after its mark (the words are a label of their own,
/// so a screen reader reads them without the mark).
pub fn problem_line_ui(ui: &mut egui::Ui, words: &str) {
    let danger = theme::palette(ui).danger_text;
    ui.horizontal_wrapped(|ui| {
        pill_ui(ui, "!", Tone::Danger);
        ui.colored_label(danger, words);
    });
}

/// A button that is disabled, with a spinner beside it, while its call runs. Clicked only
/// when idle.
pub fn busy_button_ui(ui: &mut egui::Ui, label: &str, busy: bool) -> bool {
    busy_ui(ui, egui::Button::new(label), busy)
}

/// `busy_button_ui` with an icon before its words, for a screen's main secondary actions
/// (export, import, approve).
pub fn busy_icon_button_ui(ui: &mut egui::Ui, icon: Icon, label: &str, busy: bool) -> bool {
    busy_ui(ui, secondary_button(icon, label), busy)
}

/// `busy_button_ui` that `key` presses too, and says so on hover: F5 on a screen's
/// *Refresh*, for example.
pub fn keyed_button_ui(
    ui: &mut egui::Ui,
    icon: Icon,
    label: &str,
    busy: bool,
    primary: bool,
    key: KeyboardShortcut,
) -> bool {
    let button = if primary {
        primary_button(ui, icon, label)
    } else {
        secondary_button(icon, label)
    };
    let hover = keys::with_shortcut(label, key);
    let clicked = busy_hover_ui(ui, button, busy, Some(&hover));
    clicked || (!busy && ui.is_enabled() && keys::pressed(ui, key))
}

fn busy_ui(ui: &mut egui::Ui, button: egui::Button<'_>, busy: bool) -> bool {
    busy_hover_ui(ui, button, busy, None)
}

fn busy_hover_ui(
    ui: &mut egui::Ui,
    button: egui::Button<'_>,
    busy: bool,
    hover: Option<&str>,
) -> bool {
    let add = |ui: &mut egui::Ui| {
        let mut response = ui.add_enabled(!busy, button);
        if let Some(hover) = hover {
            response = response.on_hover_text(hover);
        }
        if busy {
            ui.spinner();
        }
        response.clicked()
    };
    // In a row already, the button is one of its widgets: a wrapping row moves it to the next
    // line whole when it does not fit, which a nested row would not.
    if ui.layout().is_horizontal() {
        add(ui)
    } else {
        ui.horizontal(add).inner
    }
}

/// The form's submit button, its main action: clicked, Ctrl+Enter, or Enter pressed in one of
/// the form's fields (drawn before it, in the same frame). Disabled with a spinner while its
/// call runs.
pub fn submit_button_ui(ui: &mut egui::Ui, icon: Icon, label: &str, busy: bool) -> bool {
    let entered = take_enter(ui);
    // Enter in a field does not press a button drawn disabled (a role without the permission).
    keyed_button_ui(ui, icon, label, busy, true, keys::SUBMIT)
        || (entered && !busy && ui.is_enabled())
}

fn enter_id() -> egui::Id {
    egui::Id::unique("form_field_entered")
}

/// Remembers, for this frame, that Enter left a field of the form.
pub fn note_enter(ui: &egui::Ui, response: &Response) {
    if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let frame = ui.ctx().cumulative_frame_nr();
        ui.data_mut(|d| d.insert_temp(enter_id(), frame));
    }
}

fn take_enter(ui: &egui::Ui) -> bool {
    let frame = ui.ctx().cumulative_frame_nr();
    ui.data_mut(|d| d.remove_temp::<u64>(enter_id()))
        .is_some_and(|at| at == frame)
}

/// A mobile number typed or pasted with spaces, dashes or the country code becomes the
/// platform's 11 digits as soon as it is one.
pub fn normalize_mobile(value: &mut String) {
    if let Some(mobile) = mobile_from(value)
        && mobile != *value
    {
        *value = mobile;
    }
}

/// What was typed, as the interface wants it: trimmed, absent when blank.
pub fn typed(value: &str) -> Option<String> {
    Some(value.trim().to_owned()).filter(|v| !v.is_empty())
}

/// Asset numbers from pasted text: a column from a spreadsheet, a list with commas or
/// semicolons, or one per line, all the same; blanks are skipped.
pub fn asset_numbers_from(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '，' | '；' | '、'))
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A profile's name as the window shows it: the Sandbox in the UI's language.
pub fn profile_name(lang: Lang, profile: &Profile) -> &str {
    name_of_profile(lang, &profile.name)
}

/// A profile's name as shown: the Sandbox's in the UI's language, any other as its user named
/// it.
pub fn name_of_profile(lang: Lang, name: &str) -> &str {
    if name == SANDBOX {
        t!(lang, "sandbox")
    } else {
        name
    }
}

/// `text` strong, and in the danger colour when it concerns a production profile.
pub fn warn_if_production(ui: &egui::Ui, text: String, profile: &Profile) -> RichText {
    let text = RichText::new(text).strong();
    if profile.production {
        text.color(theme::palette(ui).danger_text)
    } else {
        text
    }
}

/// Under an answer: the profile it came from, in the warning colour once another is active.
pub fn answered_on_ui(ui: &mut egui::Ui, lang: Lang, on: &str, active: &Profile) {
    if on == active.name {
        let on = name_of_profile(lang, on);
        ui.label(RichText::new(tr!(lang, "on-profile", profile = on)).weak());
    } else {
        let text = tr!(
            lang,
            "answered-on-other-profile",
            profile = name_of_profile(lang, on),
            active = profile_name(lang, active)
        );
        ui.colored_label(ui.visuals().warn_fg_color, text);
    }
}

/// Which profile a confirmation acts on; a production one in the warning colour.
pub fn profile_line_ui(ui: &mut egui::Ui, lang: Lang, profile: &Profile) {
    let line = tr!(lang, "on-profile", profile = profile_name(lang, profile));
    ui.label(warn_if_production(ui, line, profile));
}

/// Where an export goes unless the user says otherwise: the home folder.
pub fn home_file(name: &str) -> String {
    directories::UserDirs::new()
        .map(|d| d.home_dir().join(name))
        .unwrap_or_else(|| PathBuf::from(name))
        .display()
        .to_string()
}

/// CSV that spreadsheet software opens with its Chinese intact (UTF-8 with a byte-order mark),
/// and with no cell it would run as a formula (`core::csv_out`).
pub fn csv_with_bom<R, F>(header: &[&str], rows: R) -> String
where
    R: IntoIterator<Item = Vec<F>>,
    F: AsRef<str>,
{
    crate::core::csv_out::csv_text(header, rows, true)
}

/// A confirmation's body, of one height whatever it says (it scrolls when long), so that the
/// buttons below it are where they were the last time the dialog was open.
pub fn dialog_body_ui(ui: &mut egui::Ui, height: f32, add: impl FnOnce(&mut egui::Ui)) {
    egui::ScrollArea::vertical()
        .id_salt("dialog_body")
        .min_scrolled_height(height)
        .max_height(height)
        .auto_shrink([false, false])
        .show(ui, add);
}

/// More locks than this at once, on a production profile, ask for the profile's name typed.
pub const GUARDED_LOCKS: usize = 10;

/// The production guard of a destructive action: the profile's name must be typed to go on.
/// True when it is (always true off production, where nothing is asked).
pub fn production_guard_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    profile: &Profile,
    guarded: bool,
    typed: &mut String,
) -> bool {
    if !profile.production || !guarded {
        return true;
    }
    ui.add_space(6.0);
    let words = tr!(lang, "guard-type-name", name = profile.name.as_str());
    let label = ui.label(RichText::new(words).color(theme::palette(ui).danger_text));
    // Its own id, not one counted from the widgets above it: an answer that adds a line above
    // (the batch's check, the delete preview) must not move focus or typing to another widget.
    let field = egui::TextEdit::singleline(typed)
        .id_salt("production_guard")
        .desired_width(260.0);
    ui.add(field).labelled_by(label.id);
    typed.trim() == profile.name
}

#[cfg(test)]
mod tests {
    use super::asset_numbers_from;

    #[test]
    fn pasted_columns_and_lists_give_the_same_numbers() {
        let want = ["8000000001", "8000000002", "8000000003"];
        assert_eq!(
            asset_numbers_from("8000000001\r\n8000000002\n\n8000000003\n"),
            want
        );
        assert_eq!(
            asset_numbers_from("8000000001, 8000000002;8000000003"),
            want
        );
        assert_eq!(
            asset_numbers_from("8000000001\t8000000002，8000000003"),
            want
        );
    }
}
