//! The widgets of the node forms, for the interface's optional fields: text, whole numbers,
//! dates stored as epoch milliseconds, flags, choices, and lists typed one per line. Each row
//! is labelled in the UI's language (the interface's name on hover), shows the problems the
//! shared validation found for its field, and takes the focus when a problem is clicked.

use std::collections::HashMap;

use egui::{Response, RichText};

use super::node::NodeId;
use crate::core::wire::raw::{Raw, verbatim_text};
use crate::core::wire::validate::{Problem, ProblemKind, Seg};
use crate::ui::kit::date_field::date_field_ui;
use crate::ui::kit::form::normalize_mobile;
use crate::ui::text::dates::{self, day_ms, local_day};
use crate::ui::text::i18n::{Lang, lookup, noted, t, tr};
use crate::ui::text::labels::field_label;
use crate::ui::text::problems::{at_words, kind_words};
use jiff::civil::Date;
use serde_json::Value;

/// A problem of the node being edited: the field it is in, and what is wrong in words (with
/// the line, for an item of a list field).
pub struct FieldProblem {
    pub field: &'static str,
    pub words: String,
}

/// The problems of the node `selected`, each under its field.
pub fn field_problems(lang: Lang, problems: &[Problem], selected: &NodeId) -> Vec<FieldProblem> {
    problems
        .iter()
        .filter_map(|p| {
            let (node, rest) = NodeId::of_path(&p.path);
            let field = rest.first()?.name();
            (node == *selected).then(|| {
                let words = match rest {
                    [Seg::Field(_)] => kind_words(lang, &p.kind),
                    _ => at_words(lang, rest, &p.kind),
                };
                FieldProblem { field, words }
            })
        })
        .collect()
}

/// Fields that hold a mobile number, normalised as typed.
const MOBILE_FIELDS: [&str; 2] = ["adminCellNumber", "passwordMobile"];

pub struct FormCx<'a> {
    pub lang: Lang,
    pub problems: &'a [FieldProblem],
    /// The field a clicked problem asks to focus; taken by that field's row.
    pub focus: &'a mut Option<String>,
    /// The node's values that do not fit their field (read from a file, or typed), kept
    /// verbatim and shown as they are until the field is edited.
    pub held: &'a mut Raw,
    pub changed: bool,
    /// The node is in a delete order: a new purchase's fields are set apart.
    pub deletes: bool,
    /// The node is in a delete of whole assets: only their numbers are read.
    pub whole_assets: bool,
    /// The room each field's problems have taken in this node's form.
    pub room: &'a mut HashMap<String, f32>,
}

/// The room each field's problems took in the form of the node shown. A problem that goes
/// (the field was just typed in) leaves its room empty until another node is shown, so the
/// fields below do not move up under the pointer while one types.
#[derive(Default)]
pub struct ProblemRoom {
    node: Option<NodeId>,
    heights: HashMap<String, f32>,
}

impl ProblemRoom {
    /// The batch's structure changed (a node added, removed or moved, another draft): the
    /// node shown may be another under the same place in the tree.
    pub fn forget(&mut self) {
        self.node = None;
        self.heights.clear();
    }

    /// The room of `node`'s form; another node's is forgotten.
    pub fn of(&mut self, node: &NodeId) -> &mut HashMap<String, f32> {
        if self.node.as_ref() != Some(node) {
            self.node = Some(node.clone());
            self.heights.clear();
        }
        &mut self.heights
    }
}

impl FormCx<'_> {
    /// What `field` holds verbatim, as text.
    fn held_text(&self, field: &str) -> Option<String> {
        self.held.get(field).map(|(value, _)| verbatim_text(value))
    }

    /// The field was edited: what it held verbatim is replaced by what was entered.
    fn edited(&mut self, field: &str) {
        self.held.remove(field);
    }

    /// One labelled row of the form's grid.
    pub fn row(
        &mut self,
        ui: &mut egui::Ui,
        field: &str,
        required: bool,
        add: impl FnOnce(&mut egui::Ui) -> Response,
    ) {
        let label = ui
            .horizontal(|ui| {
                let label = ui.label(field_label(self.lang, field)).on_hover_text(field);
                if required {
                    ui.label(RichText::new("*").color(ui.visuals().error_fg_color))
                        .on_hover_text(t!(self.lang, "required-mark"));
                }
                label
            })
            .inner;
        ui.vertical(|ui| {
            let response = add(ui).labelled_by(label.id);
            self.changed |= response.changed();
            if self.focus.as_deref() == Some(field) {
                *self.focus = None;
                response.request_focus();
                response.scroll_to_me(Some(egui::Align::Center));
            }
            let top = ui.min_rect().bottom();
            for p in self.problems.iter().filter(|p| p.field == field) {
                ui.colored_label(ui.visuals().error_fg_color, &p.words);
            }
            let used = ui.min_rect().bottom() - top;
            // Looked up before inserting: no key is allocated for a field already seen.
            if !self.room.contains_key(field) {
                self.room.insert(field.to_owned(), 0.0);
            }
            let Some(kept) = self.room.get_mut(field) else {
                return;
            };
            if used < *kept {
                // The cursor is already an item's spacing past the last widget.
                ui.add_space(*kept - used - ui.spacing().item_spacing.y);
            } else {
                *kept = used;
            }
        });
        ui.end_row();
    }

    pub fn text(
        &mut self,
        ui: &mut egui::Ui,
        field: &str,
        required: bool,
        value: &mut Option<String>,
    ) {
        let hint = lookup(self.lang, &format!("hint-{field}")).unwrap_or("");
        let mut text = self
            .held_text(field)
            .unwrap_or_else(|| value.clone().unwrap_or_default());
        let mut changed = false;
        self.row(ui, field, required, |ui| {
            let edit = egui::TextEdit::singleline(&mut text)
                .hint_text(hint)
                .desired_width(ui.available_width().clamp(120.0, 280.0));
            let response = ui.add(edit);
            changed = response.changed();
            response
        });
        if changed {
            self.edited(field);
            if MOBILE_FIELDS.contains(&field) {
                normalize_mobile(&mut text);
            }
            *value = Some(text).filter(|s| !s.is_empty());
        }
    }

    /// A whole number; what cannot be one stays in the field as typed and is a problem of the
    /// batch (listed, counted in the tree, blocking submit) until corrected.
    pub fn number<N>(
        &mut self,
        ui: &mut egui::Ui,
        field: &'static str,
        required: bool,
        value: &mut Option<N>,
    ) where
        N: Copy + ToString + std::str::FromStr,
    {
        let mut text = self
            .held_text(field)
            .unwrap_or_else(|| value.map(|v| v.to_string()).unwrap_or_default());
        let mut changed = false;
        self.row(ui, field, required, |ui| {
            let response = ui.add(egui::TextEdit::singleline(&mut text).desired_width(140.0));
            changed = response.changed();
            response
        });
        if !changed {
            return;
        }
        let typed = text.trim();
        if typed.is_empty() {
            *value = None;
            self.edited(field);
        } else if let Ok(n) = typed.parse::<N>() {
            *value = Some(n);
            self.edited(field);
        } else {
            *value = None;
            let text = Value::String(text);
            self.held.insert(field, text, ProblemKind::NotAWholeNumber);
        }
    }

    /// A date, stored as epoch milliseconds of local time: the start of the day, or its last
    /// millisecond for an end date (valid *until* that day). Typed (`2027-11-23`) or picked;
    /// ticked, it starts on today, or a year on for an end date; an end date less than a month
    /// away is pointed out.
    pub fn date(
        &mut self,
        ui: &mut egui::Ui,
        field: &'static str,
        end_of_day: bool,
        value: &mut Option<i64>,
    ) {
        let lang = self.lang;
        let typed = self.held_text(field);
        let mut edit = None;
        self.row(ui, field, false, |ui| {
            ui.horizontal(|ui| {
                let cx = DateCx {
                    lang,
                    field,
                    end_of_day,
                };
                date_row_ui(ui, &cx, *value, typed, &mut edit)
            })
            .inner
        });
        match edit {
            None => {}
            Some(DateEdit::Clear) => {
                *value = None;
                self.edited(field);
            }
            Some(DateEdit::Day(day)) => {
                *value = day_ms(day, end_of_day);
                self.edited(field);
            }
            Some(DateEdit::Typed(text)) => match text.trim().parse::<Date>() {
                Ok(day) => {
                    *value = day_ms(day, end_of_day);
                    self.edited(field);
                }
                Err(_) => {
                    *value = None;
                    let text = Value::String(text);
                    self.held.insert(field, text, ProblemKind::NotADate);
                }
            },
        }
    }

    /// A flag sent only when on (off leaves the platform's default, false).
    pub fn flag(&mut self, ui: &mut egui::Ui, field: &str, value: &mut Option<bool>) {
        let mut changed = false;
        self.row(ui, field, false, |ui| {
            let mut on = value.unwrap_or(false);
            let response = ui.checkbox(&mut on, "");
            if response.changed() {
                changed = true;
                *value = on.then_some(true);
            }
            response
        });
        if changed {
            self.edited(field);
        }
    }

    /// `0 = no, 1 = yes` integers (trial).
    pub fn zero_one(&mut self, ui: &mut egui::Ui, field: &str, value: &mut Option<i32>) {
        let mut changed = false;
        self.row(ui, field, false, |ui| {
            let mut on = *value == Some(1);
            let response = ui.checkbox(&mut on, "");
            if response.changed() {
                changed = true;
                *value = on.then_some(1);
            }
            response
        });
        if changed {
            self.edited(field);
        }
    }

    /// A choice among the interface's values, shown in words; "not set" leaves it out. The
    /// list names each value's code beside its words, the field its words alone (the code on
    /// hover), so the field keeps one line and the width of the others.
    pub fn choice<T: Copy + PartialEq>(
        &mut self,
        ui: &mut egui::Ui,
        field: &str,
        required: bool,
        value: &mut Option<T>,
        all: &[(T, &str)],
        name: impl Fn(T) -> String,
    ) {
        let lang = self.lang;
        let held = self.held_text(field);
        let mut picked = false;
        self.row(ui, field, required, |ui| {
            let code = value.and_then(|v| all.iter().find(|(c, _)| *c == v).map(|(_, s)| *s));
            let shown = match (&held, *value) {
                (Some(text), _) => text.clone(),
                (None, v) => v.map_or_else(|| t!(lang, "not-set").to_owned(), &name),
            };
            let mut changed = false;
            let mut response = egui::ComboBox::from_id_salt(("choice", field))
                .selected_text(shown)
                .width(ui.available_width().clamp(120.0, 280.0))
                .truncate()
                .show_ui(ui, |ui| {
                    changed |= ui
                        .selectable_value(value, None, t!(lang, "not-set"))
                        .changed();
                    for (v, code) in all {
                        let words = noted(lang, &name(*v), code);
                        changed |= ui.selectable_value(value, Some(*v), words).changed();
                    }
                })
                .response;
            if let (Some(code), None) = (code, &held) {
                response = response.on_hover_text(code);
            }
            if changed {
                picked = true;
                response.mark_changed();
            }
            response
        });
        if picked {
            self.edited(field);
        }
    }

    /// A list typed one per line, or pasted as a column or with commas: `parse` splits it.
    pub fn lines(
        &mut self,
        ui: &mut egui::Ui,
        field: &str,
        required: bool,
        value: &mut Vec<String>,
        hint: &str,
        parse: impl Fn(&str) -> Vec<String>,
    ) {
        let held = self.held_text(field);
        let mut changed = false;
        self.row(ui, field, required, |ui| {
            let id = ui.scope_id().with(("lines", field));
            let shown = held.unwrap_or_else(|| value.join("\n"));
            let mut buffer: (String, String) = ui
                .data(|d| d.get_temp(id))
                .filter(|(_, last): &(String, String)| *last == shown)
                .unwrap_or_else(|| (shown.clone(), shown.clone()));
            let response = ui.add(
                egui::TextEdit::multiline(&mut buffer.0)
                    .hint_text(hint)
                    .desired_rows(4)
                    .desired_width(ui.available_width().clamp(120.0, 280.0)),
            );
            if response.changed() {
                changed = true;
                *value = parse(&buffer.0);
                buffer.1 = value.join("\n");
            }
            ui.data_mut(|d| d.insert_temp(id, buffer));
            response
        });
        if changed {
            self.edited(field);
        }
    }
}

/// What a date row changed.
enum DateEdit {
    Clear,
    Day(Date),
    Typed(String),
}

struct DateCx {
    lang: Lang,
    field: &'static str,
    end_of_day: bool,
}

/// The checkbox, the typed date, the calendar and the note on a short validity.
fn date_row_ui(
    ui: &mut egui::Ui,
    cx: &DateCx,
    value: Option<i64>,
    typed: Option<String>,
    edit: &mut Option<DateEdit>,
) -> Response {
    let was_set = value.is_some() || typed.is_some();
    let mut set = was_set;
    let mut response = ui.checkbox(&mut set, "");
    if set != was_set {
        *edit = Some(if set {
            DateEdit::Day(default_day(cx.end_of_day))
        } else {
            DateEdit::Clear
        });
        response.mark_changed();
    }
    if !set {
        ui.label(RichText::new(t!(cx.lang, "not-set")).weak());
        return response;
    }
    let shown = value.and_then(local_day);
    let mut text = typed.unwrap_or_else(|| shown.map(|d| d.to_string()).unwrap_or_default());
    let typing = ui.add(
        egui::TextEdit::singleline(&mut text)
            .hint_text("2027-11-23")
            .desired_width(90.0),
    );
    let name = tr!(
        cx.lang,
        "date-typed",
        field = field_label(cx.lang, cx.field)
    );
    typing.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, &name));
    if typing.changed() {
        *edit = Some(DateEdit::Typed(text));
        response.mark_changed();
    }
    let mut day = shown.unwrap_or_else(|| default_day(cx.end_of_day));
    if date_field_ui(ui, cx.lang, cx.field, &mut day).changed() {
        *edit = Some(DateEdit::Day(day));
        response.mark_changed();
    }
    if cx.end_of_day
        && let Some(day) = shown
    {
        short_validity_ui(ui, cx.lang, day);
    }
    response
}

/// A newly ticked date: today to start, a year on to end (a day-long license is rarely meant).
fn default_day(end_of_day: bool) -> Date {
    let today = dates::today();
    if end_of_day {
        today.checked_add(jiff::ToSpan::years(1)).unwrap_or(today)
    } else {
        today
    }
}

/// An end date less than a month away, or past, said beside the field: wrapped in the room
/// left, never cut at the window's edge.
fn short_validity_ui(ui: &mut egui::Ui, lang: Lang, end: Date) {
    let days = (end - dates::today()).get_days();
    let words = if days < 0 {
        tr!(lang, "date-past")
    } else if days < 31 {
        let days = i64::from(days) + 1;
        tr!(lang, "date-short-validity", days = days)
    } else {
        return;
    };
    let warn = ui.visuals().warn_fg_color;
    ui.add(egui::Label::new(RichText::new(words).color(warn)).wrap());
}
