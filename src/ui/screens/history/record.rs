//! History on a team server's profile: the server's audit log, as far as the person may see
//! it (their own calls; everyone's for an administrator), newest first, with the request and
//! answer of the selected entry. Read again on demand; it knows the profile it came from.
//! What the server noted for the console to word (a listing's size, a sign-in refused) is in
//! the window's language; a held call says what became of its request since (the person's
//! own requests are read beside the record).

use std::collections::HashMap;

use egui::{RichText, ScrollArea};

use super::operation_words;
use crate::core::team::{self, AuditEntry, AuditQuery, Request, RequestQuery};
use crate::core::wire::approval;
use crate::core::wire::team::RecordNote;
use crate::core::{Awaited, Profile};
use crate::ui::kit::form::keyed_button_ui;
use crate::ui::kit::icon::Icon;
use crate::ui::kit::keys;
use crate::ui::outbox::Outbox;
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, labelled, lookup, t, tr};
use crate::ui::text::labels::request_state_words;

/// Entries read at once: the server's own default page.
const PAGE: u32 = AuditQuery::DEFAULT_LIMIT;

#[derive(Default)]
pub(super) struct TeamRecord {
    /// The profile the entries were read from.
    profile: Option<String>,
    entries: Vec<AuditEntry>,
    query: Awaited<Vec<AuditEntry>>,
    /// The selected entry's `seq`.
    selected: Option<i64>,
    /// The person's own requests, by id: what became of each call held.
    fates: HashMap<i64, Request>,
    requests: Awaited<Vec<Request>>,
    /// Read again at the next frame, the rows kept until then.
    stale: bool,
}

impl TeamRecord {
    pub(super) fn stale(&mut self) {
        self.stale = true;
    }

    pub(super) fn refresh(&mut self, out: &Outbox<'_>, profile: &Profile) {
        self.profile = Some(profile.name.clone());
        self.selected = None;
        self.query.start(out.ask(team::ReadAudit {
            profile: profile.name.clone(),
            query: AuditQuery {
                limit: Some(PAGE),
                ..AuditQuery::default()
            },
        }));
        self.requests.start(out.ask(team::ListRequests {
            profile: profile.name.clone(),
            query: RequestQuery {
                mine: true,
                state: None,
                limit: Some(PAGE),
                before: None,
            },
        }));
    }

    pub(super) fn poll(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(entries)) = out.reply(&mut self.query, label!("history-team-record")) {
            self.entries = entries;
        }
        // The record says what was held; without the requests it still says that much.
        if let Some(Ok(requests)) = self.requests.take() {
            self.fates = requests.into_iter().map(|r| (r.id, r)).collect();
        }
    }

    pub(super) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &Profile,
    ) {
        if self.profile.as_deref() != Some(&profile.name) {
            // Another profile's record is not this one's: read this one's.
            self.entries.clear();
            self.refresh(out, profile);
        } else if std::mem::take(&mut self.stale) {
            self.refresh(out, profile);
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(t!(lang, "record-help")).weak());
            let busy = self.query.is_waiting();
            if keyed_button_ui(
                ui,
                Icon::Refresh,
                t!(lang, "refresh"),
                busy,
                false,
                keys::REFRESH,
            ) {
                self.refresh(out, profile);
            }
        });
        ui.separator();
        if self.entries.is_empty() {
            ui.label(match self.query.is_waiting() {
                true => t!(lang, "loading"),
                false => t!(lang, "no-entries"),
            });
            return;
        }
        let detail_height = if self.selected.is_some() { 200.0 } else { 0.0 };
        ScrollArea::vertical()
            .id_salt("record_rows")
            .max_height((ui.available_height() - detail_height).max(120.0))
            .show(ui, |ui| self.table_ui(ui, lang));
        let selected = self.selected;
        if let Some(e) = self.entries.iter().find(|e| Some(e.seq) == selected) {
            ui.separator();
            detail_ui(ui, lang, e);
        }
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let now_ms = crate::core::now_ms();
        egui::Grid::new("record_table")
            .striped(true)
            .num_columns(5)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                for head in [
                    label!("record-time"),
                    label!("record-person"),
                    label!("record-operation"),
                    label!("record-outcome"),
                    label!("record-message"),
                ] {
                    ui.label(RichText::new(head.text(lang)).strong());
                }
                ui.end_row();
                for e in &self.entries {
                    let chosen = self.selected == Some(e.seq);
                    if ui
                        .selectable_label(chosen, dates::local_time(e.at, now_ms))
                        .clicked()
                    {
                        self.selected = (!chosen).then_some(e.seq);
                    }
                    ui.label(&e.person);
                    ui.label(operation_words(lang, &e.operation));
                    outcome_ui(ui, lang, e);
                    let words = message_words(lang, e, &self.fates);
                    ui.add(egui::Label::new(words).truncate());
                    ui.end_row();
                }
            });
    }
}

/// The outcome in words, in the danger colour unless it was done, is held for approval or is
/// still being sent.
fn outcome_ui(ui: &mut egui::Ui, lang: Lang, e: &AuditEntry) {
    let words = lookup(lang, &format!("record-outcome-{}", e.outcome)).unwrap_or(&e.outcome);
    let words = match &e.code {
        Some(code) if e.outcome != "done" => format!("{words} · {code}"),
        _ => words.to_owned(),
    };
    if matches!(e.outcome.as_str(), "done" | "ok" | "held" | "begun") {
        ui.label(words);
    } else {
        ui.colored_label(ui.visuals().error_fg_color, words);
    }
}

/// The entry's message in the window's language where the server noted it (a held call's
/// answer names the request, and what became of it is said beside), as the server wrote it
/// otherwise.
fn message_words(lang: Lang, e: &AuditEntry, fates: &HashMap<i64, Request>) -> String {
    let held = (e.outcome == "held")
        .then_some(e.answer.as_deref())
        .flatten()
        .and_then(|a| serde_json::from_str::<approval::Held>(a).ok());
    if let Some(h) = held {
        let words = tr!(lang, "held-as", id = h.request_id.as_str());
        let fate = approval::parse_name(&h.request_id)
            .and_then(|id| fates.get(&id))
            .filter(|r| r.state != team::RequestState::Pending);
        return match fate {
            Some(r) => {
                let state = request_state_words(lang, r.state);
                tr!(lang, "record-fate", held = words, state = state)
            }
            None => words,
        };
    }
    RecordNote::of_answer(e.answer.as_deref())
        .and_then(|note| note_words(lang, &note))
        .unwrap_or_else(|| e.message.clone().unwrap_or_default())
}

/// What the server noted, in words; None for a note of a kind this console does not know.
fn note_words(lang: Lang, note: &RecordNote) -> Option<String> {
    Some(match note {
        &RecordNote::Listed { assets } => tr!(lang, "record-listed", n = assets),
        &RecordNote::Shared { last } => tr!(lang, "record-shared", last = last),
        RecordNote::SignInRefused { why, retry_seconds } => {
            sign_in_refused_words(lang, why, retry_seconds.unwrap_or(0))?
        }
    })
}

/// Why a sign-in was refused, by the kind the server names.
fn sign_in_refused_words(lang: Lang, why: &str, seconds: u64) -> Option<String> {
    Some(match why {
        "wrong_name_or_password" => tr!(lang, "record-sign-in-wrong_name_or_password"),
        "disabled" => tr!(lang, "record-sign-in-disabled"),
        "no_directory" => tr!(lang, "record-sign-in-no_directory"),
        "directory" => tr!(lang, "record-sign-in-directory"),
        "no_group" => tr!(lang, "record-sign-in-no_group"),
        "not_added" => tr!(lang, "record-sign-in-not_added"),
        "no_branch" => tr!(lang, "record-sign-in-no_branch"),
        "slowed" => tr!(lang, "record-sign-in-slowed", seconds = seconds),
        "busy" => tr!(lang, "record-sign-in-busy", seconds = seconds),
        "other_directory_person" => tr!(lang, "record-sign-in-other_directory_person"),
        _ => return None,
    })
}

/// The selected entry: who, from which branch, and the request and answer as recorded.
fn detail_ui(ui: &mut egui::Ui, lang: Lang, e: &AuditEntry) {
    let who = match &e.branch {
        Some(branch) => format!("{} ({}, {branch})", e.person, e.role),
        None => format!("{} ({})", e.person, e.role),
    };
    ui.label(labelled(lang, t!(lang, "record-person"), &who));
    if let Some(id) = &e.call_id {
        ui.label(labelled(lang, t!(lang, "record-call"), id));
    }
    ScrollArea::vertical()
        .id_salt("record_detail")
        .show(ui, |ui| {
            let bodies = [
                (label!("record-request"), &e.request),
                (label!("record-answer"), &e.answer),
            ];
            for (head, body) in bodies {
                if let Some(body) = body {
                    ui.label(RichText::new(head.text(lang)).strong());
                    ui.label(RichText::new(body).monospace());
                }
            }
        });
}
