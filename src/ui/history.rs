//! History: the core's journal of calls as a table, filtered by operation and code, with the
//! redacted request and answer of the selected call, and an export to CSV.

use std::path::PathBuf;

use egui::{RichText, ScrollArea};

use super::dates;
use super::form::{busy_button_ui, home_file};
use super::i18n::{Lang, Text, t};
use super::outbox::Outbox;
use crate::core::{
    Command, Event, ExportFormat, JournalEntry, JournalFilter, Latest, Operation, Outcome,
};

/// Most rows fetched at once.
const ROWS: usize = 500;

#[derive(Default)]
pub struct HistoryScreen {
    entries: Vec<JournalEntry>,
    operation: Option<Operation>,
    code: String,
    selected: Option<i64>,
    export_path: String,
    query: Latest,
    export: Latest,
    exported: Option<String>,
    loaded_once: bool,
}

impl HistoryScreen {
    fn filter(&self, limit: usize) -> JournalFilter {
        JournalFilter {
            operation: self.operation.map(|o| o.name().to_owned()),
            code: Some(self.code.trim().to_owned()).filter(|c| !c.is_empty()),
            limit,
            ..JournalFilter::default()
        }
    }

    pub fn refresh(&mut self, out: &Outbox<'_>) {
        self.query
            .start(out.send(Command::QueryJournal(self.filter(ROWS))));
    }

    /// Takes the answer if it is for this screen, and names the action it answers.
    pub fn apply(&mut self, event: &Event) -> Option<Text> {
        if self.query.accept(event) {
            if let Ok(Outcome::Journal(entries)) = &event.result {
                self.entries = entries.clone();
            }
            return Some(Text::LoadHistory);
        }
        if self.export.accept(event) {
            self.exported = match &event.result {
                Ok(Outcome::Exported { path, count }) => {
                    Some(format!("{count} → {}", path.display()))
                }
                _ => None,
            };
            return Some(Text::ExportCsv);
        }
        None
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        if !self.loaded_once {
            self.loaded_once = true;
            self.refresh(out);
        }
        let mut changed = false;
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::Operation));
            let shown = self.operation.map_or_else(
                || t(lang, Text::AllOperations).to_owned(),
                |o| o.name().to_owned(),
            );
            egui::ComboBox::from_id_salt("history_operation")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    changed |= ui
                        .selectable_value(&mut self.operation, None, t(lang, Text::AllOperations))
                        .changed();
                    for op in Operation::ALL {
                        changed |= ui
                            .selectable_value(&mut self.operation, Some(op), op.name())
                            .changed();
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label(t(lang, Text::CodeFilter));
            changed |= ui
                .add(egui::TextEdit::singleline(&mut self.code).desired_width(70.0))
                .labelled_by(label.id)
                .lost_focus();
            if ui.button(t(lang, Text::Refresh)).clicked() {
                changed = true;
            }
            if self.query.is_waiting() {
                ui.spinner();
            }
        });
        if changed {
            self.refresh(out);
        }
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::ExportTo));
            if self.export_path.is_empty() {
                self.export_path = home_file("license-desk-history.csv");
            }
            ui.add(egui::TextEdit::singleline(&mut self.export_path).desired_width(320.0))
                .labelled_by(label.id);
            if busy_button_ui(ui, t(lang, Text::ExportCsv), self.export.is_waiting()) {
                self.export.start(out.send(Command::ExportJournal {
                    filter: self.filter(0),
                    path: PathBuf::from(self.export_path.trim()),
                    format: ExportFormat::Csv,
                }));
            }
            if let Some(done) = &self.exported {
                ui.label(format!("{}: {done}", t(lang, Text::Exported)));
            }
        });
        ui.separator();
        if self.entries.is_empty() {
            ui.label(if self.query.is_waiting() {
                t(lang, Text::Loading)
            } else {
                t(lang, Text::NoEntries)
            });
            return;
        }
        let detail_height = if self.selected.is_some() { 220.0 } else { 0.0 };
        ScrollArea::vertical()
            .id_salt("history_rows")
            .max_height((ui.available_height() - detail_height).max(120.0))
            .show(ui, |ui| self.table_ui(ui, lang));
        if let Some(entry) = self
            .selected
            .and_then(|id| self.entries.iter().find(|e| e.id == id))
        {
            ui.separator();
            detail_ui(ui, entry, lang);
        }
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        egui::Grid::new("history_table")
            .striped(true)
            .num_columns(7)
            .show(ui, |ui| {
                // Local time, with its zone in the heading.
                ui.label(
                    RichText::new(format!("{} ({})", t(lang, Text::Time), dates::zone_label()))
                        .strong(),
                );
                for head in [
                    Text::Operation,
                    Text::Http,
                    Text::Code,
                    Text::DurationMs,
                    Text::Attempt,
                    Text::Profile,
                ] {
                    ui.label(RichText::new(t(lang, head)).strong());
                }
                ui.end_row();
                let now = crate::core::now_ms();
                for e in &self.entries {
                    let selected = self.selected == Some(e.id);
                    ui.label(dates::local_time(e.at, now));
                    if ui.selectable_label(selected, &e.operation).clicked() {
                        self.selected = if selected { None } else { Some(e.id) };
                    }
                    ui.label(
                        e.http_status
                            .map_or_else(|| "—".to_owned(), |s| s.to_string()),
                    );
                    ui.label(e.code.clone().unwrap_or_else(|| "—".to_owned()));
                    ui.label(e.duration_ms.to_string());
                    ui.label(e.attempt.to_string());
                    ui.label(RichText::new(&e.profile).weak());
                    ui.end_row();
                }
            });
    }
}

fn detail_ui(ui: &mut egui::Ui, e: &JournalEntry, lang: Lang) {
    ui.label(
        RichText::new(format!(
            "{} {}  {}",
            e.method,
            e.path,
            e.nonce.as_deref().unwrap_or("")
        ))
        .monospace(),
    );
    if let Some(error) = &e.error {
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
    ui.columns(2, |cols| {
        for (col, title, body) in [
            (0, Text::Request, &e.request),
            (1, Text::Response, &e.response),
        ] {
            cols[col].label(RichText::new(t(lang, title)).strong());
            let mut text = pretty(body.as_deref().unwrap_or(""));
            ScrollArea::vertical()
                .id_salt(("history_detail", col))
                .max_height(180.0)
                .show(&mut cols[col], |ui| {
                    ui.add(
                        egui::TextEdit::multiline(&mut text)
                            .code_editor()
                            .interactive(false)
                            .desired_width(f32::INFINITY),
                    )
                    .on_hover_text(t(lang, title));
                });
        }
    });
}

/// JSON bodies indented; anything else as it is.
fn pretty(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_else(|_| body.to_owned())
}
