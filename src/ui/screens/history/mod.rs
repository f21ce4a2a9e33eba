//! History: the core's journal of calls as a table, one row per call with its attempts inside
//! and where its write stands, filtered by operation and code, with the redacted request and
//! answer of the selected call, and an export to CSV.

pub(crate) mod calls;
mod record;

use std::path::PathBuf;

use egui::{RichText, ScrollArea};

use self::calls::{CallRow, call_failed, explain_failure, group};
use crate::core::{
    Awaited, ExportFormat, JournalEntry, JournalFilter, Operation, Profile, WriteState, journal,
};
use crate::ui::Screen;
use crate::ui::kit::empty::empty_state_ui;
use crate::ui::kit::form::{busy_icon_button_ui, home_file, keyed_button_ui, name_of_profile};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::json_tree::json_tree_ui;
use crate::ui::kit::keys;
use crate::ui::kit::toasts::explain_code;
use crate::ui::outbox::Outbox;
use crate::ui::text::dates;
use crate::ui::text::i18n::{Label, Lang, label, labelled, noted, t, tr};
use crate::ui::text::labels::{operation_words, result_words, state_words};
use crate::ui::text::refusals::recognise;

/// Most rows fetched at once.
const ROWS: usize = 500;

#[derive(Default)]
pub struct HistoryScreen {
    entries: Vec<JournalEntry>,
    /// The entries grouped into calls, newest first.
    calls: Vec<CallRow>,
    filters: Filters,
    selected: Option<i64>,
    /// The selected row is scrolled into view at the next frame (its details take room).
    scroll_to_selected: bool,
    query: Awaited<Vec<JournalEntry>>,
    export: Export,
    loaded_once: bool,
    /// A team server's record, shown instead of this computer's journal on a team profile
    /// unless `journal` is chosen.
    record: record::TeamRecord,
    journal: bool,
}

/// Which calls are listed.
#[derive(Default)]
struct Filters {
    operation: Option<Operation>,
    code: String,
    failures_only: bool,
}

impl Filters {
    /// Whether any filter narrows the list.
    fn is_set(&self) -> bool {
        self.operation.is_some() || !self.code.trim().is_empty() || self.failures_only
    }
}

/// The listed calls written to a CSV file.
#[derive(Default)]
struct Export {
    path: String,
    call: Awaited<journal::requests::Exported>,
    /// How many were written, and where.
    done: Option<String>,
}

impl HistoryScreen {
    fn filter(&self, limit: usize) -> JournalFilter {
        JournalFilter {
            operation: self.filters.operation,
            code: Some(self.filters.code.trim().to_owned()).filter(|c| !c.is_empty()),
            failures_only: self.filters.failures_only,
            limit,
            ..JournalFilter::default()
        }
    }

    /// This computer's journal, unfiltered, with the entry `id` selected and in view (when it
    /// is among the newest rows listed).
    pub fn show_entry(&mut self, out: &Outbox<'_>, id: i64) {
        self.filters = Filters::default();
        self.journal = true;
        self.loaded_once = true;
        self.selected = Some(id);
        self.scroll_to_selected = true;
        self.refresh(out);
    }

    /// The screen was entered: what was done elsewhere meanwhile is read at the next frame
    /// (the journal and the team's record), the rows shown kept until then.
    pub fn entered(&mut self) {
        self.loaded_once = false;
        self.record.stale();
    }

    pub fn refresh(&mut self, out: &Outbox<'_>) {
        self.query
            .start(out.ask(journal::requests::Query(self.filter(ROWS))));
    }

    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        self.record.poll(out);
        if let Some(Ok(entries)) = out.reply(&mut self.query, label!("load-history")) {
            self.listed(entries);
        }
        if let Some(reply) = out.reply(&mut self.export.call, label!("export-csv")) {
            self.export.done = reply
                .ok()
                .map(|e| format!("{} → {}", e.count, e.path.display()));
        }
    }

    /// The journal's entries read: grouped into calls, and narrowed to failures if asked.
    fn listed(&mut self, entries: Vec<JournalEntry>) {
        self.entries = entries;
        self.calls = group(&self.entries);
        if self.filters.failures_only {
            // An attempt failed, yet its write was done in the end: not a failure.
            let entries = &self.entries;
            self.calls.retain(|c| call_failed(&entries[c.newest()]));
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, profile: &Profile) {
        if profile.is_team() {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.journal, false, t!(lang, "history-team-record"));
                ui.selectable_value(&mut self.journal, true, t!(lang, "history-this-computer"));
            });
            if !self.journal {
                self.record.ui(ui, out, lang, profile);
                return;
            }
        }
        self.journal_ui(ui, out, lang, &profile.name);
    }

    /// This computer's journal of calls.
    fn journal_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, active: &str) {
        if !self.loaded_once {
            self.loaded_once = true;
            self.refresh(out);
        }
        if self.filters_ui(ui, lang) {
            self.refresh(out);
        }
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(t!(lang, "export-to"));
            if self.export.path.is_empty() {
                self.export.path = home_file("license-desk-history.csv");
            }
            ui.add(egui::TextEdit::singleline(&mut self.export.path).desired_width(320.0))
                .labelled_by(label.id);
            if busy_icon_button_ui(
                ui,
                Icon::Export,
                t!(lang, "export-csv"),
                self.export.call.is_waiting(),
            ) {
                self.export.call.start(out.ask(journal::requests::Export {
                    filter: self.filter(0),
                    path: PathBuf::from(self.export.path.trim()),
                    format: ExportFormat::Csv,
                }));
            }
            if let Some(done) = &self.export.done {
                ui.label(labelled(lang, t!(lang, "exported"), done));
            }
        });
        ui.separator();
        if self.entries.is_empty() {
            if self.query.is_waiting() {
                ui.label(t!(lang, "loading"));
            } else if self.filters.is_set() {
                // Calls there may be; none that the filter lets through.
                empty_state_ui(ui, t!(lang, "history-none-match"), None);
            } else if empty_state_ui(
                ui,
                t!(lang, "history-empty"),
                Some((Icon::Go, t!(lang, "empty-open-start"))),
            ) {
                out.go_to(Screen::Start);
            }
            return;
        }
        let detail_height = if self.selected.is_some() { 220.0 } else { 0.0 };
        ScrollArea::vertical()
            .id_salt("history_rows")
            .max_height((ui.available_height() - detail_height).max(120.0))
            .show(ui, |ui| self.table_ui(ui, lang));
        let selected = self.selected.and_then(|id| {
            self.calls
                .iter()
                .find(|c| self.entries[c.newest()].id == id)
        });
        if let Some(call) = selected {
            ui.separator();
            let attempts: Vec<&JournalEntry> =
                call.attempts.iter().map(|&i| &self.entries[i]).collect();
            let newest = attempts.first().copied();
            // A page is the active profile's: another profile's call offers none.
            if let Some((id, global)) = newest
                .filter(|e| e.profile == active)
                .and_then(customer_named)
            {
                let link = ui.button(t!(lang, "assets-open-page")).on_hover_text(tr!(
                    lang,
                    "history-open-page",
                    id = id.as_str()
                ));
                if link.clicked() {
                    out.open_page(&id, global);
                }
            }
            detail_ui(ui, &attempts, lang);
        }
    }

    /// Operation, code and failures only, applied as they change; true when one did.
    fn filters_ui(&mut self, ui: &mut egui::Ui, lang: Lang) -> bool {
        let mut changed = false;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(t!(lang, "operation"));
            let shown = self.filters.operation.map_or_else(
                || t!(lang, "all-operations").to_owned(),
                |o| operation_words(lang, o.name()).to_owned(),
            );
            egui::ComboBox::from_id_salt("history_operation")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    let all = t!(lang, "all-operations");
                    changed |= ui
                        .selectable_value(&mut self.filters.operation, None, all)
                        .changed();
                    for &op in Operation::ALL {
                        let words = operation_words(lang, op.name());
                        changed |= ui
                            .selectable_value(&mut self.filters.operation, Some(op), words)
                            .changed();
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label(t!(lang, "code-filter"));
            changed |= ui
                .add(egui::TextEdit::singleline(&mut self.filters.code).desired_width(70.0))
                .labelled_by(label.id)
                .changed();
            changed |= ui
                .checkbox(&mut self.filters.failures_only, t!(lang, "failures-only"))
                .changed();
            let busy = self.query.is_waiting();
            changed |= keyed_button_ui(
                ui,
                Icon::Refresh,
                t!(lang, "refresh"),
                busy,
                false,
                keys::REFRESH,
            );
        });
        changed
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        egui::Grid::new("history_table")
            .striped(true)
            .num_columns(8)
            .show(ui, |ui| {
                // Local time, with its zone in the heading.
                ui.label(
                    RichText::new(noted(lang, t!(lang, "time"), &dates::zone_label())).strong(),
                );
                for head in [
                    label!("operation"),
                    label!("write-state"),
                    label!("http"),
                    label!("code"),
                    label!("duration-ms"),
                    label!("attempt"),
                    label!("profile"),
                ] {
                    ui.label(RichText::new(head.text(lang)).strong());
                }
                ui.end_row();
                let now = crate::core::now_ms();
                for call in &self.calls {
                    let e = &self.entries[call.newest()];
                    let failed = call_failed(e);
                    let selected = self.selected == Some(e.id);
                    ui.label(dates::local_time(e.at, now));
                    let mut words = RichText::new(operation_words(lang, e.operation.name()));
                    if failed {
                        words = words.color(ui.visuals().error_fg_color);
                    }
                    let row = ui.selectable_label(selected, words);
                    if row.clicked() {
                        self.selected = if selected { None } else { Some(e.id) };
                        self.scroll_to_selected = true;
                    } else if selected && std::mem::take(&mut self.scroll_to_selected) {
                        row.scroll_to_me(None);
                    }
                    state_ui(ui, lang, e.state);
                    ui.label(
                        e.http_status
                            .map_or_else(|| "—".to_owned(), |s| s.to_string()),
                    );
                    code_ui(ui, lang, e, failed);
                    ui.label(e.duration_ms.to_string());
                    ui.label(call.attempts.len().to_string());
                    let profile = name_of_profile(lang, &e.profile);
                    ui.label(RichText::new(profile).weak());
                    ui.end_row();
                }
            });
    }
}

/// Where a write stands, in words (an unknown outcome in the warning colour); — for a read.
fn state_ui(ui: &mut egui::Ui, lang: Lang, state: Option<WriteState>) {
    let words = state_words(lang, state).unwrap_or("—");
    match state {
        Some(WriteState::Unknown | WriteState::InFlight) => {
            ui.colored_label(ui.visuals().warn_fg_color, words)
        }
        Some(WriteState::Refused | WriteState::NotSent) => {
            ui.colored_label(ui.visuals().error_fg_color, words)
        }
        _ => ui.label(words),
    };
}

/// The call's outcome: success in words, or the code (a refusal inside the answer, or "no
/// answer") marked as a failure.
fn code_ui(ui: &mut egui::Ui, lang: Lang, e: &JournalEntry, failed: bool) {
    if e.state == Some(WriteState::Held) {
        // Nothing reached the platform: no code of its own to show.
        ui.label("—");
        return;
    }
    if !failed {
        ui.label(t!(lang, "call-ok"));
        return;
    }
    let code = match (&e.code, &e.refusal) {
        (_, Some(refusal)) => refusal.clone(),
        (Some(code), None) => code.clone(),
        (None, None) => t!(lang, "no-answer").to_owned(),
    };
    ui.colored_label(ui.visuals().error_fg_color, format!("× {code}"));
}

/// The customer a call names: an enterprise global id (true) in its request (a batch's first
/// order's) or its answer, else a channel customer id for the directory to place (false).
fn customer_named(e: &JournalEntry) -> Option<(String, bool)> {
    let named = |body: &Option<String>, paths: &[&str]| -> Option<String> {
        let v: serde_json::Value = serde_json::from_str(body.as_deref()?).ok()?;
        paths
            .iter()
            .filter_map(|p| v.pointer(p)?.as_str())
            .find(|id| !id.is_empty())
            .map(str::to_owned)
    };
    named(
        &e.request,
        &["/enterpriseGlobalId", "/orderList/0/enterpriseGlobalId"],
    )
    .or_else(|| {
        named(
            &e.response,
            &[
                "/data/enterpriseGlobalId",
                "/data/customer/enterpriseGlobalId",
                "/data/0/enterpriseGlobalId",
            ],
        )
    })
    .map(|id| (id, true))
    .or_else(|| {
        let paths = ["/channelCustomerId", "/orderList/0/channelCustomerId"];
        named(&e.request, &paths).map(|id| (id, false))
    })
}

/// What a failed call's outcome means, in the UI's language.
fn explain_entry(e: &JournalEntry) -> Option<Label> {
    if !call_failed(e) {
        return None;
    }
    if e.state == Some(WriteState::Unknown) {
        return Some(label!("explain-outcome-unknown"));
    }
    Some(match e.code.as_deref() {
        Some(code) if e.operation == Operation::Claim => result_words(code),
        _ if e.refusal.is_some() => label!("explain-refused-in-answer"),
        Some(code) => explain_code(code),
        None => explain_failure(e.failure.as_deref()),
    })
}

/// A refusal the console recognises, in the same words as the toast that reported it.
fn recognised_words(lang: Lang, e: &JournalEntry) -> Option<String> {
    let code = e.code.as_deref()?;
    let message = e.error.as_deref()?.strip_prefix(code)?.strip_prefix(": ")?;
    // The answer's envelope, as journaled, carries the cause.
    let answer: serde_json::Value = serde_json::from_str(e.response.as_deref()?).ok()?;
    let cause = answer.get("cause").and_then(serde_json::Value::as_str);
    recognise(lang, label!("history"), code, message, cause).map(|r| r.words)
}

/// The selected call: why it failed, its earlier attempts, and its newest attempt whole.
fn detail_ui(ui: &mut egui::Ui, attempts: &[&JournalEntry], lang: Lang) {
    let e = attempts[0];
    let why = explain_entry(e)
        .map(|why| recognised_words(lang, e).unwrap_or_else(|| why.text(lang).to_owned()));
    if let Some(why) = why {
        ui.colored_label(ui.visuals().error_fg_color, why);
    }
    if let Some(refusal) = &e.refusal {
        ui.label(labelled(lang, t!(lang, "refused-in-answer"), refusal));
    }
    for earlier in attempts[1..].iter().rev() {
        let outcome = earlier
            .error
            .clone()
            .or_else(|| earlier.code.clone())
            .unwrap_or_default();
        let line = tr!(
            lang,
            "history-attempt",
            n = earlier.attempt,
            http = earlier
                .http_status
                .map_or_else(|| "—".to_owned(), |s| s.to_string())
        );
        ui.label(RichText::new(format!("{line}  {outcome}")).weak());
    }
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
        ui.label(RichText::new(tr!(lang, "verbatim-caption")).weak());
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
    bodies_ui(ui, e, lang);
}

/// The request and the answer side by side: as trees, or as the raw text one click away.
fn bodies_ui(ui: &mut egui::Ui, e: &JournalEntry, lang: Lang) {
    let raw_id = egui::Id::unique("history_raw_json");
    let mut raw = ui.data(|d| d.get_temp::<bool>(raw_id).unwrap_or(false));
    if ui
        .checkbox(&mut raw, t!(lang, "history-raw-json"))
        .changed()
    {
        ui.data_mut(|d| d.insert_temp(raw_id, raw));
    }
    ui.columns(2, |cols| {
        for (col, title, body) in [
            (0, label!("request"), &e.request),
            (1, label!("response"), &e.response),
        ] {
            cols[col].label(RichText::new(title.text(lang)).strong());
            let body = body.as_deref().unwrap_or("");
            ScrollArea::vertical()
                .id_salt(("history_detail", col))
                .max_height(180.0)
                .show(&mut cols[col], |ui| match serde_json::from_str(body) {
                    Ok(value) if !raw => json_tree_ui(ui, ("history_tree", col), &value),
                    _ => raw_body_ui(ui, body, title.text(lang)),
                });
        }
    });
}

fn raw_body_ui(ui: &mut egui::Ui, body: &str, title: &str) {
    let mut text = pretty(body);
    ui.add(
        egui::TextEdit::multiline(&mut text)
            .code_editor()
            .interactive(false)
            .desired_width(f32::INFINITY),
    )
    .on_hover_text(title);
}

/// JSON bodies indented; anything else as it is.
fn pretty(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_else(|_| body.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_has_words_in_both_languages() {
        for &op in Operation::ALL {
            for lang in [Lang::En, Lang::Zh] {
                assert_ne!(
                    operation_words(lang, op.name()),
                    op.name(),
                    "{op:?} {lang:?}"
                );
            }
        }
    }
}
