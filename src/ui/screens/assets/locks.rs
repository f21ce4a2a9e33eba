//! Disabling and enabling locks: the confirmation, numbers typed or pasted, and the results per
//! asset, copied or exported.

use std::path::PathBuf;
use std::sync::Arc;

use egui::RichText;

use super::{AssetsScreen, EXPORT_FILE};
use crate::core::calls::requests as calls;
use crate::core::progress::{Progress, Stage};
use crate::core::wire::{LockResult, LockStatus};
use crate::core::{Producer, Profile, files};
use crate::ui::kit::button::{danger_button, primary_button};
use crate::ui::kit::form::{
    GUARDED_LOCKS, asset_numbers_from, csv_with_bom, dialog_body_ui, home_file, name_of_profile,
    production_guard_ui, profile_line_ui, profile_name,
};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::permits;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, label, t, tr};

/// The least width of each column of the results, so that the head and the rows line up.
const RESULT_COLUMN: f32 = 110.0;

pub fn status_words(lang: Lang, status: LockStatus) -> &'static str {
    (match status {
        LockStatus::Success => label!("status-success"),
        LockStatus::NotFound => label!("status-not-found"),
        LockStatus::Failed => label!("status-failed"),
        LockStatus::WrongType => label!("status-wrong-type"),
    })
    .text(lang)
}

pub(super) struct LockAction {
    pub(super) lock: bool,
    pub(super) nums: Vec<String>,
    /// Where it goes: the listing's profile for locks picked in the grid, the active one for
    /// typed numbers; the confirmation names it.
    pub(super) profile: Profile,
    /// Selected rows left out, and why.
    pub(super) skipped: Skipped,
    /// Who acts: the profile's operator, or the one typed in the confirmation.
    pub(super) operator: String,
    /// The production guard: the profile's name as the user typed it.
    pub(super) guard: String,
    /// The confirmation has been drawn: its button took the keyboard's focus then, if it could
    /// be pressed (never later: it would take the keys of an operator being typed).
    pub(super) shown: bool,
}

impl LockAction {
    pub(super) fn new(lock: bool, nums: Vec<String>, profile: Profile) -> Self {
        Self {
            lock,
            nums,
            operator: profile.operator_identity.trim().to_owned(),
            guard: String::new(),
            profile,
            skipped: Skipped::default(),
            shown: false,
        }
    }
}

/// Selected rows an action leaves out.
#[derive(Default)]
pub(super) struct Skipped {
    /// Rows that are not locks (cloud accounts, certificates…), and their types in words.
    pub(super) not_locks: usize,
    pub(super) types: Vec<String>,
    /// Locks already disabled (or enabled).
    pub(super) already: usize,
}

pub(super) struct LockOutcome {
    pub(super) lock: bool,
    /// Shared with their export, which runs on a core thread.
    pub(super) results: Arc<[LockResult]>,
    /// The profile the locks were changed on (it may no longer be the active one).
    pub(super) profile: String,
}

/// Per-asset results as CSV (UTF-8 with a byte-order mark, like the view's export), made on a
/// core thread: a call changes up to 10,000 locks.
pub(super) fn results_csv(lang: Lang, results: Arc<[LockResult]>) -> Producer {
    Producer::new(move |progress| {
        progress.start(Stage::Building, results.len() as u64);
        let header = [
            t!(lang, "asset-number"),
            t!(lang, "status-code"),
            t!(lang, "status-words"),
        ];
        let rows = results.iter().map(|r| {
            vec![
                r.asset_num.clone(),
                (r.status as u8).to_string(),
                status_words(lang, r.status).to_owned(),
            ]
        });
        let body = csv_with_bom(&header, rows);
        progress.check()?;
        Ok(body)
    })
}

/// What the user did in the results panel.
#[derive(Default)]
pub(super) struct ResultsAction {
    pub(super) close: bool,
    pub(super) export: bool,
}

/// The results as tab-separated lines: asset number, status code, status in words.
fn results_text(lang: Lang, outcome: &LockOutcome) -> String {
    let line = |r: &LockResult| {
        let words = status_words(lang, r.status);
        format!("{}\t{}\t{words}\n", r.asset_num, r.status as u8)
    };
    outcome.results.iter().map(line).collect()
}

pub(super) fn results_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    outcome: &LockOutcome,
    action: &mut ResultsAction,
) {
    let ok = outcome
        .results
        .iter()
        .filter(|r| r.status == LockStatus::Success)
        .count();
    ui.horizontal(|ui| {
        let n = outcome.results.len();
        let title = match (outcome.lock, ok == n) {
            (true, true) => tr!(lang, "disable-results-all", ok = ok, n = n),
            (true, false) => tr!(lang, "disable-results", ok = ok, n = n),
            (false, true) => tr!(lang, "enable-results-all", ok = ok, n = n),
            (false, false) => tr!(lang, "enable-results", ok = ok, n = n),
        };
        ui.label(RichText::new(title).strong());
        let profile = name_of_profile(lang, &outcome.profile);
        ui.label(tr!(lang, "on-profile", profile = profile));
        if ui.button(t!(lang, "copy-results")).clicked() {
            ui.ctx().copy_text(results_text(lang, outcome));
        }
        if ui.button(t!(lang, "export-results")).clicked() {
            action.export = true;
        }
        if ui.button(t!(lang, "dismiss")).clicked() {
            action.close = true;
        }
    });
    // Columns of one width above and in the list, which draws only the rows in view.
    let grid = |id: &str| {
        egui::Grid::new(id)
            .striped(true)
            .num_columns(3)
            .min_col_width(RESULT_COLUMN)
            .spacing([24.0, 4.0])
    };
    grid("lock_results_head").show(ui, |ui| {
        for head in [
            label!("asset-number"),
            label!("status-code"),
            label!("status-words"),
        ] {
            ui.label(RichText::new(head.text(lang)).strong());
        }
        ui.end_row();
    });
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical()
        .id_salt("lock_results")
        .max_height(120.0)
        .show_rows(ui, row_height, outcome.results.len(), |ui, rows| {
            grid("lock_results_grid").show(ui, |ui| {
                for r in &outcome.results[rows] {
                    ui.label(RichText::new(&r.asset_num).monospace());
                    ui.label((r.status as u8).to_string());
                    let words = status_words(lang, r.status);
                    if r.status == LockStatus::Success {
                        ui.label(words);
                    } else {
                        ui.colored_label(ui.visuals().error_fg_color, words);
                    }
                    ui.end_row();
                }
            });
        });
}

impl AssetsScreen {
    pub(super) fn confirm_ui(&mut self, ctx: &egui::Context, caller: &Caller<'_>, lang: Lang) {
        let out = caller.out;
        let Some(action) = &mut self.locks.confirm else {
            return;
        };
        let held_by = permits::locks_held_by(caller.permits, action.nums.len());
        // A team server records the person signed in as the operator, whatever is typed.
        let signed_in = caller.permits.me().filter(|_| caller.profile.is_team());
        if let Some(me) = signed_in {
            action.operator.clone_from(&me.person.name);
        }
        let team = signed_in.is_some();
        let mut decided = None;
        let modal = egui::Modal::new(egui::Id::unique("confirm_lock")).show(ctx, |ui| {
            ui.set_width(460.0);
            dialog_body_ui(ui, 190.0, |ui| {
                confirm_lock_body_ui(ui, lang, action, team, held_by);
            });
            // Many locks at once on production wait for the profile's name.
            let many = action.nums.len() > GUARDED_LOCKS;
            let passed = production_guard_ui(ui, lang, &action.profile, many, &mut action.guard);
            ui.add_space(8.0);
            // The same buttons in the same places whatever the dialog says above them.
            ui.horizontal(|ui| {
                let n = action.nums.len();
                let go = if held_by.is_some() {
                    primary_button(ui, Icon::Send, t!(lang, "send-for-approval"))
                } else if action.lock {
                    danger_button(ui, Icon::Lock, tr!(lang, "do-disable", n = n))
                } else {
                    primary_button(ui, Icon::Unlock, tr!(lang, "do-enable", n = n))
                };
                let ready = n > 0 && !action.operator.trim().is_empty() && passed;
                let go = ui.add_enabled(ready, go);
                if ready && !std::mem::replace(&mut action.shown, true) {
                    go.request_focus();
                }
                action.shown = true;
                if go.clicked() {
                    decided = Some(true);
                }
                if ui.button(t!(lang, "cancel")).clicked() {
                    decided = Some(false);
                }
            });
        });
        if modal.should_close() && decided.is_none() {
            decided = Some(false);
        }
        match decided {
            Some(true) => {
                if let Some(action) = self.locks.confirm.take() {
                    let profile = action.profile.name.clone();
                    let (nums, operator) = (action.nums.clone(), Some(action.operator.clone()));
                    let pending = if action.lock {
                        out.ask(calls::Lock {
                            profile,
                            nums,
                            operator,
                        })
                    } else {
                        out.ask(calls::Unlock {
                            profile,
                            nums,
                            operator,
                        })
                    };
                    self.locks.outcome = None;
                    self.locks.unsent = None;
                    self.locks.unknown = None;
                    self.locks.call.start(pending);
                    self.locks.pending = Some(action);
                }
            }
            Some(false) => self.locks.confirm = None,
            None => {}
        }
    }

    pub(super) fn by_numbers_ui(&mut self, ctx: &egui::Context, lang: Lang, profile: &Profile) {
        let Some(text) = &mut self.locks.by_numbers else {
            return;
        };
        let mut action = None;
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("lock_by_numbers")).show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.label(RichText::new(t!(lang, "lock-by-numbers")).strong());
            let label = ui.label(t!(lang, "lock-numbers-help"));
            ui.add(
                egui::TextEdit::multiline(text)
                    .desired_rows(6)
                    .desired_width(400.0),
            )
            .labelled_by(label.id);
            let nums = asset_numbers_from(text);
            ui.label(tr!(lang, "numbers-count", n = nums.len()));
            ui.horizontal(|ui| {
                ui.add_enabled_ui(!nums.is_empty(), |ui| {
                    if ui.button(t!(lang, "disable-listed")).clicked() {
                        action = Some(LockAction::new(true, nums.clone(), profile.clone()));
                    }
                    if ui.button(t!(lang, "enable-listed")).clicked() {
                        action = Some(LockAction::new(false, nums.clone(), profile.clone()));
                    }
                });
                if ui.button(t!(lang, "cancel")).clicked() {
                    close = true;
                }
            });
        });
        if let Some(action) = action {
            // The same confirmation as from the grid, with what the listing knows left out.
            let (nums, skipped) = self.sort_out_typed(lang, action.lock, action.nums);
            self.locks.confirm = Some(LockAction {
                nums,
                skipped,
                ..action
            });
            close = true;
        }
        if close || modal.should_close() {
            self.locks.by_numbers = None;
        }
    }

    /// Results go beside the view's export: `assets.csv` → `assets-results.csv`.
    pub(super) fn export_results(&mut self, out: &Outbox<'_>, produce: Producer) {
        if self.export.path.is_empty() {
            self.export.path = home_file(EXPORT_FILE);
        }
        let view = PathBuf::from(self.export.path.trim());
        let stem = view.file_stem().map_or_else(
            || "license-desk".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let path = view.with_file_name(format!("{stem}-results.csv"));
        let progress = Progress::default();
        self.export.done = None;
        self.export.call.start(out.ask(files::WriteProduced {
            path,
            produce,
            progress: progress.clone(),
        }));
        self.export.progress = Some(progress);
    }
}

/// That the change will wait for a second person, and who may approve it.
fn held_beforehand_ui(ui: &mut egui::Ui, lang: Lang, action: &LockAction, approvers: &[String]) {
    let profile = profile_name(lang, &action.profile);
    let n = action.nums.len();
    ui.label(tr!(lang, "held-beforehand-locks", profile = profile, n = n));
    permits::approvers_ui(ui, lang, approvers);
}

/// What the confirmation says: the question, that it waits for approval (and who gives it)
/// when it will, what is left out and why, where it goes, who does it, the numbers.
fn confirm_lock_body_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    action: &mut LockAction,
    team: bool,
    held_by: Option<&[String]>,
) {
    let n = action.nums.len();
    let (question, undo) = match (action.lock, n) {
        (true, 0) => (t!(lang, "nothing-to-disable").to_owned(), None),
        (false, 0) => (t!(lang, "nothing-to-enable").to_owned(), None),
        (true, _) => (
            tr!(lang, "confirm-disable", n = n),
            Some(label!("undo-disable")),
        ),
        (false, _) => (
            tr!(lang, "confirm-enable", n = n),
            Some(label!("undo-enable")),
        ),
    };
    ui.label(RichText::new(question).strong());
    if let Some(approvers) = held_by {
        held_beforehand_ui(ui, lang, action, approvers);
    }
    skipped_ui(ui, lang, action);
    if let Some(undo) = undo {
        ui.label(undo.text(lang));
    }
    profile_line_ui(ui, lang, &action.profile);
    operator_ui(ui, lang, action, team);
    let listed: Vec<&str> = action.nums.iter().take(10).map(String::as_str).collect();
    let more = action.nums.len().saturating_sub(listed.len());
    let mut text = listed.join(", ");
    if more > 0 {
        text.push_str(&format!(" (+{more})"));
    }
    ui.label(RichText::new(text).monospace().weak());
}

fn skipped_ui(ui: &mut egui::Ui, lang: Lang, action: &LockAction) {
    let skipped = &action.skipped;
    let colour = ui.visuals().warn_fg_color;
    if skipped.not_locks > 0 {
        let n = skipped.not_locks;
        let types = skipped.types.join(", ");
        ui.colored_label(
            colour,
            tr!(lang, "skipped-not-locks", n = n, types = types.as_str()),
        );
    }
    if skipped.already > 0 {
        let n = skipped.already;
        let text = if action.lock {
            tr!(lang, "skipped-already-disabled", n = n)
        } else {
            tr!(lang, "skipped-already-enabled", n = n)
        };
        ui.colored_label(colour, text);
    }
}

/// Who acts: the profile's operator, or (when the profile has none) a required field, since
/// the platform records who disabled a lock.
fn operator_ui(ui: &mut egui::Ui, lang: Lang, action: &mut LockAction, team: bool) {
    if team {
        let operator = action.operator.as_str();
        ui.label(tr!(lang, "operator-is-person", operator = operator));
        return;
    }
    let profile = &action.profile;
    if !profile.operator_identity.trim().is_empty() {
        let operator = profile.operator_identity.as_str();
        ui.label(tr!(lang, "operator-is", operator = operator));
        return;
    }
    ui.horizontal(|ui| {
        let label = ui.label(t!(lang, "operator-identity"));
        ui.add(egui::TextEdit::singleline(&mut action.operator).desired_width(220.0))
            .labelled_by(label.id);
    });
    if action.operator.trim().is_empty() {
        ui.colored_label(ui.visuals().error_fg_color, t!(lang, "operator-needed"));
    }
}
