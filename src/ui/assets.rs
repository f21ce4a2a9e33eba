//! Assets: an enterprise's assets (operation 8) in a table that draws only the rows in view,
//! sortable, filtered, with chosen columns and rows that expand; locks disabled and enabled
//! (operations 6 and 7) from a row, from the selection or by pasted numbers, after a
//! confirmation, with a result per asset; the view exported to CSV.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use egui::{Color32, RichText};
use egui_extras::{Column, TableBuilder};

use super::form::{
    PRODUCTION_COLOUR, REMOTE_COLOUR, asset_numbers_from, busy_button_ui, csv_with_bom, home_file,
    local_date,
};
use super::i18n::{Lang, Text, t};
use crate::core::wire::{Asset, LicenseType, LockResult, LockStatus};
use crate::core::{Call, Command, Core, Event, Latest, Outcome, Profile};

/// Enterprises remembered for the picker.
const RECENT: usize = 8;
const ROW_HEIGHT: f32 = 22.0;
/// The view's export, in the home folder unless the user says otherwise.
const EXPORT_FILE: &str = "license-desk-assets.csv";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    Number,
    Type,
    Chip,
    Customer,
    State,
    Validity,
    Extensions,
    Products,
    Created,
    Updated,
}

impl Col {
    const ALL: [Col; 10] = [
        Col::Number,
        Col::Type,
        Col::Chip,
        Col::Customer,
        Col::State,
        Col::Validity,
        Col::Extensions,
        Col::Products,
        Col::Created,
        Col::Updated,
    ];

    fn title(self) -> Text {
        match self {
            Col::Number => Text::AssetNumber,
            Col::Type => Text::LicenseTypeCol,
            Col::Chip => Text::Chip,
            Col::Customer => Text::CustomerId,
            Col::State => Text::State,
            Col::Validity => Text::Validity,
            Col::Extensions => Text::ExtensionsCol,
            Col::Products => Text::ProductsCol,
            Col::Created => Text::Created2,
            Col::Updated => Text::UpdatedCol,
        }
    }

    fn width(self) -> f32 {
        match self {
            Col::Number => 130.0,
            Col::Type => 280.0,
            Col::Chip => 110.0,
            Col::Customer => 120.0,
            Col::State => 110.0,
            Col::Validity => 170.0,
            Col::Extensions => 140.0,
            Col::Products => 70.0,
            Col::Created | Col::Updated => 90.0,
        }
    }
}

/// A lock can be disabled and enabled: a re-issuable lock, or a lock with a validity window
/// (a large customer's), as the platform decides it.
pub fn lockable(a: &Asset) -> bool {
    LicenseType::parse(&a.license_type).is_some_and(|t| {
        t.is_reissuable_lock()
            || (t.is_usbkey() && (a.limit_start_time.is_some() || a.limit_end_time.is_some()))
    })
}

pub fn license_type_words(lang: Lang, code: &str) -> String {
    match LicenseType::parse(code) {
        Some(t) => super::composer::license_type_words(lang, t),
        None => code.to_owned(),
    }
}

fn chip_words(lang: Lang, chip: i32) -> String {
    match chip {
        1 => t(lang, Text::Chip4).to_owned(),
        2 => t(lang, Text::Chip5).to_owned(),
        0 => String::new(),
        other => other.to_string(),
    }
}

pub fn status_words(lang: Lang, status: LockStatus) -> &'static str {
    t(
        lang,
        match status {
            LockStatus::Success => Text::StatusSuccess,
            LockStatus::NotFound => Text::StatusNotFound,
            LockStatus::Failed => Text::StatusFailed,
            LockStatus::WrongType => Text::StatusWrongType,
        },
    )
}

struct LockAction {
    lock: bool,
    nums: Vec<String>,
}

struct LockOutcome {
    lock: bool,
    results: Vec<LockResult>,
}

pub struct AssetsScreen {
    enterprise: String,
    extend_code: String,
    list_call: Latest,
    /// The last listing was answered (an empty one means the enterprise has no assets).
    listed_ok: bool,
    assets: Vec<Asset>,
    by_num: HashMap<String, usize>,
    /// Lower-case text of each asset the filter searches: number, type, customer, extensions.
    haystacks: Vec<String>,
    filter: String,
    /// Indices into `assets`, filtered and sorted.
    view: Vec<usize>,
    view_dirty: bool,
    sort: Option<(Col, bool)>,
    shown: Vec<Col>,
    expanded: HashSet<usize>,
    selected: HashSet<usize>,
    /// Cached `selection_counts`.
    counts: Option<(usize, usize)>,
    /// Position in `view` of the last plain or ctrl click, for shift-click ranges.
    anchor: Option<usize>,
    confirm: Option<LockAction>,
    lock_call: Latest,
    pending: Option<LockAction>,
    outcome: Option<LockOutcome>,
    by_numbers: Option<String>,
    export_path: String,
    export_call: Latest,
    exported: Option<String>,
}

impl Default for AssetsScreen {
    fn default() -> Self {
        Self {
            enterprise: String::new(),
            extend_code: String::new(),
            list_call: Latest::default(),
            listed_ok: false,
            assets: Vec::new(),
            by_num: HashMap::new(),
            haystacks: Vec::new(),
            filter: String::new(),
            view: Vec::new(),
            view_dirty: false,
            sort: None,
            // All but the dates, which the column chooser adds.
            shown: Col::ALL[..8].to_vec(),
            expanded: HashSet::new(),
            selected: HashSet::new(),
            counts: None,
            anchor: None,
            confirm: None,
            lock_call: Latest::default(),
            pending: None,
            outcome: None,
            by_numbers: None,
            export_path: String::new(),
            export_call: Latest::default(),
            exported: None,
        }
    }
}

impl AssetsScreen {
    /// Takes the answer if it is for this screen, and names the action it answers.
    pub fn apply(&mut self, event: &mut Event) -> Option<Text> {
        if self.list_call.accept(event) {
            self.listed_ok = false;
            if let Ok(Outcome::Assets(assets)) = &mut event.result {
                self.set_assets(std::mem::take(assets));
                self.listed_ok = true;
            }
            return Some(Text::ListAssets);
        }
        if self.lock_call.accept(event) {
            let action = self.pending.take();
            if let (Ok(Outcome::Locks(results)), Some(action)) = (&event.result, action) {
                for r in results {
                    if r.status == LockStatus::Success
                        && let Some(&i) = self.by_num.get(&r.asset_num)
                    {
                        self.assets[i].locked = action.lock;
                    }
                }
                self.view_dirty = true;
                self.outcome = Some(LockOutcome {
                    lock: action.lock,
                    results: results.clone(),
                });
            }
            return Some(Text::LockUnlock);
        }
        if self.export_call.accept(event) {
            if let Ok(Outcome::Written { path }) = &event.result {
                self.exported = Some(path.display().to_string());
            }
            return Some(Text::ExportCsv);
        }
        None
    }

    /// A new listing replaces the old one (selection and expansions belonged to it).
    pub fn set_assets(&mut self, assets: Vec<Asset>) {
        // The type's words in both languages are searched too: a user types "re-issuable" or
        // "可重发", not the code.
        self.haystacks = assets
            .iter()
            .map(|a| {
                let mut text = format!(
                    "{} {} {} {} {}",
                    a.asset_num,
                    a.license_type,
                    a.customer_id,
                    license_type_words(Lang::En, &a.license_type),
                    license_type_words(Lang::Zh, &a.license_type)
                );
                for e in &a.asset_extends {
                    text.push(' ');
                    text.push_str(&e.extend_code);
                    text.push(' ');
                    text.push_str(&e.extend_value);
                }
                text.to_lowercase()
            })
            .collect();
        self.by_num = assets
            .iter()
            .enumerate()
            .map(|(i, a)| (a.asset_num.clone(), i))
            .collect();
        self.assets = assets;
        self.selected.clear();
        self.counts = None;
        self.expanded.clear();
        self.anchor = None;
        self.view_dirty = true;
    }

    fn rebuild_view(&mut self) {
        self.view_dirty = false;
        self.counts = None;
        let needle = self.filter.trim().to_lowercase();
        self.view = (0..self.assets.len())
            .filter(|&i| needle.is_empty() || self.haystacks[i].contains(&needle))
            .collect();
        if let Some((col, ascending)) = self.sort {
            let assets = &self.assets;
            self.view.sort_by(|&a, &b| {
                let (a, b) = (&assets[a], &assets[b]);
                let order = match col {
                    Col::Number => a.asset_num.cmp(&b.asset_num),
                    Col::Type => a.license_type.cmp(&b.license_type),
                    Col::Chip => a.key_chip_type.cmp(&b.key_chip_type),
                    Col::Customer => a.customer_id.cmp(&b.customer_id),
                    Col::State => (a.locked, a.freezing).cmp(&(b.locked, b.freezing)),
                    Col::Validity => a.limit_end_time.cmp(&b.limit_end_time),
                    Col::Extensions => a.asset_extends.len().cmp(&b.asset_extends.len()),
                    Col::Products => a.products.len().cmp(&b.products.len()),
                    Col::Created => a.create_time.cmp(&b.create_time),
                    Col::Updated => a.update_time.cmp(&b.update_time),
                };
                if ascending { order } else { order.reverse() }
            });
        }
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        core: &Core,
        lang: Lang,
        recent: &mut Vec<String>,
        profile: &Profile,
    ) {
        self.query_bar_ui(ui, core, lang, recent);
        if self.view_dirty {
            self.rebuild_view();
        }
        self.view_bar_ui(ui, core, lang);
        ui.separator();
        if let Some(outcome) = &self.outcome {
            let mut action = ResultsAction::default();
            results_ui(ui, lang, outcome, &mut action);
            if action.export {
                let body = results_csv(lang, outcome);
                self.export_results(core, body);
            }
            if action.close {
                self.outcome = None;
            }
            ui.separator();
        }
        if self.assets.is_empty() {
            if self.list_call.is_waiting() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t(lang, Text::Loading));
                });
            } else if self.listed_ok {
                ui.label(t(lang, Text::NoAssets));
            } else {
                ui.label(RichText::new(t(lang, Text::AssetsStart)).weak());
            }
        } else {
            // Wide column sets scroll sideways rather than being cut.
            egui::ScrollArea::horizontal()
                .id_salt("assets_table_wide")
                .show(ui, |ui| self.table_ui(ui, lang));
        }
        self.confirm_ui(ui.ctx(), core, lang, profile);
        self.by_numbers_ui(ui.ctx(), lang);
    }

    fn query_bar_ui(
        &mut self,
        ui: &mut egui::Ui,
        core: &Core,
        lang: Lang,
        recent: &mut Vec<String>,
    ) {
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::EnterpriseGlobalId));
            let field = ui
                .add(egui::TextEdit::singleline(&mut self.enterprise).desired_width(150.0))
                .labelled_by(label.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.menu_button(t(lang, Text::Recent), |ui| {
                if recent.is_empty() {
                    ui.label(t(lang, Text::NoneYet));
                }
                for e in recent.iter() {
                    if ui.button(e).clicked() {
                        self.enterprise = e.clone();
                        ui.close();
                    }
                }
            });
            let label = ui.label(t(lang, Text::ExtendCode));
            ui.add(egui::TextEdit::singleline(&mut self.extend_code).desired_width(90.0))
                .labelled_by(label.id);
            let clicked =
                busy_button_ui(ui, t(lang, Text::ListAssets), self.list_call.is_waiting());
            if (clicked || enter) && !self.enterprise.trim().is_empty() {
                let enterprise = self.enterprise.trim().to_owned();
                recent.retain(|e| *e != enterprise);
                recent.insert(0, enterprise.clone());
                recent.truncate(RECENT);
                self.outcome = None;
                let extend_code =
                    Some(self.extend_code.trim().to_owned()).filter(|c| !c.is_empty());
                self.list_call.start(core.send(Command::Call(Call::Assets {
                    enterprise_global_id: enterprise,
                    extend_code,
                })));
            }
            if ui.button(t(lang, Text::LockByNumbers)).clicked() {
                self.by_numbers = Some(String::new());
            }
        });
    }

    fn view_bar_ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang) {
        if self.assets.is_empty() {
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::Filter));
            if ui
                .add(
                    egui::TextEdit::singleline(&mut self.filter)
                        .hint_text(t(lang, Text::FilterHint))
                        .desired_width(220.0),
                )
                .labelled_by(label.id)
                .changed()
            {
                self.view_dirty = true;
            }
            ui.label(
                t(lang, Text::AssetsShown)
                    .replace("{n}", &self.view.len().to_string())
                    .replace("{total}", &self.assets.len().to_string()),
            );
            ui.menu_button(t(lang, Text::Columns), |ui| {
                for col in Col::ALL.into_iter().skip(1) {
                    let mut on = self.shown.contains(&col);
                    if ui.checkbox(&mut on, t(lang, col.title())).changed() {
                        if on {
                            self.shown.push(col);
                            self.shown
                                .sort_by_key(|c| Col::ALL.iter().position(|x| x == c));
                        } else {
                            self.shown.retain(|c| *c != col);
                        }
                    }
                }
            });
            let label = ui.label(t(lang, Text::ExportTo));
            if self.export_path.is_empty() {
                self.export_path = home_file(EXPORT_FILE);
            }
            ui.add(egui::TextEdit::singleline(&mut self.export_path).desired_width(200.0))
                .labelled_by(label.id);
            if busy_button_ui(ui, t(lang, Text::ExportCsv), self.export_call.is_waiting()) {
                let body = self.view_csv(lang);
                self.exported = None;
                self.export_call.start(core.send(Command::WriteFile {
                    path: PathBuf::from(self.export_path.trim()),
                    body,
                }));
            }
            if let Some(path) = &self.exported {
                ui.label(format!("{}: {path}", t(lang, Text::Exported)));
            }
        });
        ui.horizontal(|ui| {
            let (count, locks) = self.selection_counts();
            ui.label(
                t(lang, Text::SelectedCount)
                    .replace("{n}", &count.to_string())
                    .replace("{locks}", &locks.to_string()),
            );
            if ui.button(t(lang, Text::SelectAllFiltered)).clicked() {
                self.selected = self.view.iter().copied().collect();
                self.counts = None;
            }
            if ui.button(t(lang, Text::ClearSelection)).clicked() {
                self.selected.clear();
                self.counts = None;
            }
            let busy = self.lock_call.is_waiting();
            ui.add_enabled_ui(count > 0 && !busy, |ui| {
                for (text, lock) in [(Text::DisableSelected, true), (Text::EnableSelected, false)] {
                    if ui.button(t(lang, text)).clicked() {
                        let nums = self
                            .selected_assets()
                            .map(|a| a.asset_num.clone())
                            .collect();
                        self.confirm = Some(LockAction { lock, nums });
                    }
                }
            });
            if busy {
                ui.spinner();
            }
        });
    }

    /// How many shown assets are selected, and how many of them are locks; counted once per
    /// change, not per frame (a selection can hold 100,000 rows).
    fn selection_counts(&mut self) -> (usize, usize) {
        if let Some(counts) = self.counts {
            return counts;
        }
        let counts = (
            self.selected_assets().count(),
            self.selected_assets().filter(|a| lockable(a)).count(),
        );
        self.counts = Some(counts);
        counts
    }

    fn selected_assets(&self) -> impl Iterator<Item = &Asset> {
        self.view
            .iter()
            .filter(|i| self.selected.contains(i))
            .map(|&i| &self.assets[i])
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let shown = self.shown.clone();
        let mut sort_by = None;
        let mut clicked: Option<(usize, egui::Modifiers)> = None;
        let mut toggle = None;
        let mut lock_one: Option<LockAction> = None;
        let busy = self.lock_call.is_waiting();
        let text_height = ui.text_style_height(&egui::TextStyle::Body);
        // Rows have one height unless some are expanded: then each row's height is listed.
        let heights: Option<Vec<f32>> = (!self.expanded.is_empty()).then(|| {
            self.view
                .iter()
                .map(|i| {
                    if self.expanded.contains(i) {
                        let a = &self.assets[*i];
                        ROW_HEIGHT
                            + (3 + a.asset_extends.len() + a.products.len()) as f32
                                * (text_height + 4.0)
                    } else {
                        ROW_HEIGHT
                    }
                })
                .collect()
        });
        let rows = self.view.len();
        // A click anywhere on a row selects it, text included.
        ui.style_mut().interaction.selectable_labels = false;
        let mut table = TableBuilder::new(ui)
            .id_salt("assets_table")
            .striped(true)
            .resizable(true)
            .sense(egui::Sense::click())
            .cell_layout(egui::Layout::left_to_right(egui::Align::Min))
            .column(Column::exact(24.0))
            .column(Column::exact(78.0));
        for col in &shown {
            // The number column carries an expanded row's details, which run on to the right.
            let column = Column::initial(col.width())
                .at_least(40.0)
                .clip(*col != Col::Number);
            table = table.column(column);
        }
        table
            .header(24.0, |mut header| {
                header.col(|_| {});
                header.col(|ui| {
                    ui.label(RichText::new(t(lang, Text::Action)).strong());
                });
                for col in &shown {
                    header.col(|ui| {
                        let arrow = match self.sort {
                            Some((c, true)) if c == *col => " ^",
                            Some((c, false)) if c == *col => " v",
                            _ => "",
                        };
                        let title = format!("{}{arrow}", t(lang, col.title()));
                        if ui
                            .add(egui::Button::new(RichText::new(title).strong()).frame(false))
                            .on_hover_text(t(lang, Text::SortHint))
                            .clicked()
                        {
                            sort_by = Some(*col);
                        }
                    });
                }
            })
            .body(|body| {
                let add_row = |mut row: egui_extras::TableRow<'_, '_>| {
                    let pos = row.index();
                    let Some(&i) = self.view.get(pos) else {
                        return;
                    };
                    let a = &self.assets[i];
                    let expanded = self.expanded.contains(&i);
                    row.set_selected(self.selected.contains(&i));
                    row.col(|ui| {
                        let sign = if expanded { "-" } else { "+" };
                        if ui
                            .small_button(sign)
                            .on_hover_text(t(lang, Text::ExpandCollapse))
                            .clicked()
                        {
                            toggle = Some(i);
                        }
                    });
                    row.col(|ui| {
                        if lockable(a) {
                            let (text, lock) = if a.locked {
                                (Text::Enable, false)
                            } else {
                                (Text::Disable, true)
                            };
                            if ui
                                .add_enabled(!busy, egui::Button::new(t(lang, text)).small())
                                .clicked()
                            {
                                lock_one = Some(LockAction {
                                    lock,
                                    nums: vec![a.asset_num.clone()],
                                });
                            }
                        }
                    });
                    for col in &shown {
                        row.col(|ui| {
                            if *col == Col::Number && expanded {
                                ui.vertical(|ui| {
                                    ui.label(RichText::new(&a.asset_num).monospace());
                                    details_ui(ui, lang, a);
                                });
                            } else {
                                cell_ui(ui, lang, a, *col);
                            }
                        });
                    }
                    if row.response().clicked() {
                        clicked = Some((pos, row.response().ctx.input(|i| i.modifiers)));
                    }
                };
                match heights {
                    Some(heights) => body.heterogeneous_rows(heights.into_iter(), add_row),
                    None => body.rows(ROW_HEIGHT, rows, add_row),
                }
            });
        if let Some(col) = sort_by {
            self.sort = match self.sort {
                Some((c, true)) if c == col => Some((col, false)),
                _ => Some((col, true)),
            };
            self.view_dirty = true;
        }
        if let Some(i) = toggle
            && !self.expanded.remove(&i)
        {
            self.expanded.insert(i);
        }
        if let Some(action) = lock_one {
            self.confirm = Some(action);
        }
        if let Some((pos, modifiers)) = clicked {
            self.click_row(pos, modifiers);
        }
    }

    /// Click selects one row; ctrl (cmd) adds or removes one; shift selects a range.
    fn click_row(&mut self, pos: usize, modifiers: egui::Modifiers) {
        let Some(&i) = self.view.get(pos) else {
            return;
        };
        self.counts = None;
        if modifiers.shift
            && let Some(anchor) = self.anchor
        {
            let (from, to) = (anchor.min(pos), anchor.max(pos));
            if !modifiers.command {
                self.selected.clear();
            }
            self.selected.extend(self.view[from..=to].iter().copied());
            return;
        }
        if modifiers.command {
            if !self.selected.remove(&i) {
                self.selected.insert(i);
            }
        } else {
            self.selected.clear();
            self.selected.insert(i);
        }
        self.anchor = Some(pos);
    }

    fn confirm_ui(&mut self, ctx: &egui::Context, core: &Core, lang: Lang, profile: &Profile) {
        let Some(action) = &self.confirm else {
            return;
        };
        let mut decided = None;
        let modal = egui::Modal::new(egui::Id::unique("confirm_lock")).show(ctx, |ui| {
            ui.set_max_width(460.0);
            let (question, undo) = if action.lock {
                (Text::ConfirmDisable, Text::UndoDisable)
            } else {
                (Text::ConfirmEnable, Text::UndoEnable)
            };
            ui.label(
                RichText::new(t(lang, question).replace("{n}", &action.nums.len().to_string()))
                    .strong(),
            );
            ui.label(t(lang, undo));
            super::form::profile_line_ui(ui, lang, profile);
            ui.label(t(lang, Text::OperatorIs).replace("{operator}", &profile.operator_identity));
            let listed: Vec<&str> = action.nums.iter().take(10).map(String::as_str).collect();
            let more = action.nums.len().saturating_sub(listed.len());
            let mut text = listed.join(", ");
            if more > 0 {
                text.push_str(&format!(" (+{more})"));
            }
            ui.label(RichText::new(text).monospace().weak());
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                let go = if action.lock {
                    Text::DoDisable
                } else {
                    Text::DoEnable
                };
                let go = t(lang, go).replace("{n}", &action.nums.len().to_string());
                if ui.button(go).clicked() {
                    decided = Some(true);
                }
                if ui.button(t(lang, Text::Cancel)).clicked() {
                    decided = Some(false);
                }
            });
        });
        if modal.should_close() && decided.is_none() {
            decided = Some(false);
        }
        match decided {
            Some(true) => {
                if let Some(action) = self.confirm.take() {
                    let call = if action.lock {
                        Call::Lock(action.nums.clone())
                    } else {
                        Call::Unlock(action.nums.clone())
                    };
                    self.outcome = None;
                    self.lock_call.start(core.send(Command::Call(call)));
                    self.pending = Some(action);
                }
            }
            Some(false) => self.confirm = None,
            None => {}
        }
    }

    fn by_numbers_ui(&mut self, ctx: &egui::Context, lang: Lang) {
        let Some(text) = &mut self.by_numbers else {
            return;
        };
        let mut action = None;
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("lock_by_numbers")).show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.label(RichText::new(t(lang, Text::LockByNumbers)).strong());
            let label = ui.label(t(lang, Text::LockNumbersHelp));
            ui.add(
                egui::TextEdit::multiline(text)
                    .desired_rows(6)
                    .desired_width(400.0),
            )
            .labelled_by(label.id);
            let nums = asset_numbers_from(text);
            ui.label(t(lang, Text::NumbersCount).replace("{n}", &nums.len().to_string()));
            ui.horizontal(|ui| {
                ui.add_enabled_ui(!nums.is_empty(), |ui| {
                    if ui.button(t(lang, Text::DisableListed)).clicked() {
                        action = Some(LockAction {
                            lock: true,
                            nums: nums.clone(),
                        });
                    }
                    if ui.button(t(lang, Text::EnableListed)).clicked() {
                        action = Some(LockAction {
                            lock: false,
                            nums: nums.clone(),
                        });
                    }
                });
                if ui.button(t(lang, Text::Cancel)).clicked() {
                    close = true;
                }
            });
        });
        if let Some(action) = action {
            // The same confirmation as from the grid.
            self.confirm = Some(action);
            close = true;
        }
        if close || modal.should_close() {
            self.by_numbers = None;
        }
    }

    /// Results go beside the view's export: `assets.csv` → `assets-results.csv`.
    fn export_results(&mut self, core: &Core, body: String) {
        if self.export_path.is_empty() {
            self.export_path = home_file(EXPORT_FILE);
        }
        let view = PathBuf::from(self.export_path.trim());
        let stem = view.file_stem().map_or_else(
            || "license-desk".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let path = view.with_file_name(format!("{stem}-results.csv"));
        self.exported = None;
        self.export_call
            .start(core.send(Command::WriteFile { path, body }));
    }

    /// The view as shown (filtered, sorted, chosen columns) as CSV that spreadsheet software
    /// opens with its Chinese intact: UTF-8 with a byte-order mark.
    fn view_csv(&self, lang: Lang) -> String {
        let header: Vec<&str> = self.shown.iter().map(|c| t(lang, c.title())).collect();
        let rows = self.view.iter().map(|&i| {
            let a = &self.assets[i];
            self.shown
                .iter()
                .map(|c| cell_text(lang, a, *c))
                .collect::<Vec<_>>()
        });
        csv_with_bom(&header, rows)
    }
}

/// Per-asset results as CSV (UTF-8 with a byte-order mark, like the view's export).
fn results_csv(lang: Lang, outcome: &LockOutcome) -> String {
    let header = [
        t(lang, Text::AssetNumber),
        t(lang, Text::StatusCode),
        t(lang, Text::StatusWords),
    ];
    let rows = outcome.results.iter().map(|r| {
        vec![
            r.asset_num.clone(),
            (r.status as u8).to_string(),
            status_words(lang, r.status).to_owned(),
        ]
    });
    csv_with_bom(&header, rows)
}

fn cell_text(lang: Lang, a: &Asset, col: Col) -> String {
    match col {
        Col::Number => a.asset_num.clone(),
        Col::Type => license_type_words(lang, &a.license_type),
        Col::Chip => chip_words(lang, a.key_chip_type),
        Col::Customer => a.customer_id.clone(),
        Col::State => {
            let mut words = Vec::new();
            if a.locked {
                words.push(t(lang, Text::Disabled));
            }
            if a.freezing {
                words.push(t(lang, Text::Frozen));
            }
            words.join(" ")
        }
        Col::Validity => match (a.limit_start_time, a.limit_end_time) {
            (None, None) => String::new(),
            (start, end) => format!(
                "{} – {}",
                start.map(local_date).unwrap_or_default(),
                end.map(local_date).unwrap_or_default()
            ),
        },
        Col::Extensions => a
            .asset_extends
            .iter()
            .map(|e| format!("{}={}", e.extend_code, e.extend_value))
            .collect::<Vec<_>>()
            .join(" "),
        Col::Products => a.products.len().to_string(),
        Col::Created => local_date(a.create_time),
        Col::Updated => local_date(a.update_time),
    }
}

fn cell_ui(ui: &mut egui::Ui, lang: Lang, a: &Asset, col: Col) {
    match col {
        Col::Number => {
            ui.label(RichText::new(&a.asset_num).monospace());
        }
        Col::State => {
            if a.locked {
                badge_ui(ui, t(lang, Text::Disabled), PRODUCTION_COLOUR);
            }
            if a.freezing {
                badge_ui(ui, t(lang, Text::Frozen), REMOTE_COLOUR);
            }
        }
        other => {
            ui.label(cell_text(lang, a, other));
        }
    }
}

fn badge_ui(ui: &mut egui::Ui, text: &str, colour: Color32) {
    ui.label(
        RichText::new(text)
            .small()
            .strong()
            .color(Color32::WHITE)
            .background_color(colour),
    );
}

/// An expanded row: extensions, assignment, products, each on one line that runs on across
/// the row.
fn details_ui(ui: &mut egui::Ui, lang: Lang, a: &Asset) {
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    let weak = |s: String| RichText::new(s).weak();
    ui.label(weak(format!(
        "{}: {} · {} {}",
        t(lang, Text::Assignment),
        if a.assign_status.assign_status.is_empty() {
            "—"
        } else {
            &a.assign_status.assign_status
        },
        t(lang, Text::Member),
        if a.assign_status.assign_member_id.is_empty() {
            "—"
        } else {
            &a.assign_status.assign_member_id
        }
    )));
    for e in &a.asset_extends {
        ui.label(weak(format!(
            "{} {}={}",
            t(lang, Text::Extension),
            e.extend_code,
            e.extend_value
        )));
    }
    ui.label(weak(format!("{}:", t(lang, Text::ProductsCol))));
    for p in &a.products {
        let validity = match (p.limit_start_date, p.limit_end_date) {
            (None, None) => String::new(),
            (s, e) => format!(
                " {} – {}",
                s.map(local_date).unwrap_or_default(),
                e.map(local_date).unwrap_or_default()
            ),
        };
        let awaiting = if p.awaiting_activation {
            format!(" · {}", t(lang, Text::AwaitingActivation))
        } else {
            String::new()
        };
        ui.label(weak(format!(
            "  {} {}{validity}{awaiting}",
            p.product_uri,
            p.product_name.as_deref().unwrap_or("")
        )));
    }
}

/// What the user did in the results panel.
#[derive(Default)]
struct ResultsAction {
    close: bool,
    export: bool,
}

fn results_ui(ui: &mut egui::Ui, lang: Lang, outcome: &LockOutcome, action: &mut ResultsAction) {
    let ok = outcome
        .results
        .iter()
        .filter(|r| r.status == LockStatus::Success)
        .count();
    ui.horizontal(|ui| {
        let title = if outcome.lock {
            Text::DisableResults
        } else {
            Text::EnableResults
        };
        ui.label(
            RichText::new(
                t(lang, title)
                    .replace("{ok}", &ok.to_string())
                    .replace("{n}", &outcome.results.len().to_string()),
            )
            .strong(),
        );
        if ui.button(t(lang, Text::CopyResults)).clicked() {
            let text: String = outcome
                .results
                .iter()
                .map(|r| {
                    format!(
                        "{}\t{}\t{}\n",
                        r.asset_num,
                        r.status as u8,
                        status_words(lang, r.status)
                    )
                })
                .collect();
            ui.ctx().copy_text(text);
        }
        if ui.button(t(lang, Text::ExportResults)).clicked() {
            action.export = true;
        }
        if ui.button(t(lang, Text::Dismiss)).clicked() {
            action.close = true;
        }
    });
    egui::ScrollArea::vertical()
        .id_salt("lock_results")
        .max_height(120.0)
        .show(ui, |ui| {
            egui::Grid::new("lock_results_grid")
                .striped(true)
                .num_columns(3)
                .show(ui, |ui| {
                    for r in &outcome.results {
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
