//! Assets: an enterprise's assets (operation 8) in a table that draws only the rows in view,
//! sortable, filtered, with chosen columns and rows that expand; locks disabled and enabled
//! (operations 6 and 7) from a row, from the selection or by pasted numbers, after a
//! confirmation, with a result per asset; the view exported to CSV.

mod export;
mod index;
mod locks;
pub(crate) mod table;
mod unknown;

use crate::core::team::Permission;
use crate::ui::kit::permits::permitted_ui;
use crate::ui::outbox::Caller;
use std::collections::HashSet;
use std::sync::Arc;

use egui::RichText;

use self::export::Export;
use self::index::ListingIndex;
use self::locks::{LockAction, LockOutcome, ResultsAction, Skipped, results_csv, results_ui};
use self::table::Col;
use crate::core::calls::requests as calls;
use crate::core::request::Finished;
use crate::core::wire::{AssetList, AssetRef, LicenseType, LockResult, LockStatus};
use crate::core::{ApiError, Awaited, Call, CoreError, Profile};
use crate::ui::kit::empty::empty_state_ui;
use crate::ui::kit::form::{keyed_button_ui, name_of_profile};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::keys;
use crate::ui::outbox::Outbox;
use crate::ui::status::Verdict;
use crate::ui::text::i18n::{Lang, label, t, tr};

/// Enterprises remembered for the picker.
const RECENT: usize = 8;
const ROW_HEIGHT: f32 = 22.0;
/// The view's export, in the home folder unless the user says otherwise.
const EXPORT_FILE: &str = "license-desk-assets.csv";

pub use crate::ui::kit::lock_change::LeftOut;

/// A lock can be disabled and enabled: the platform's own rule (`wire::asset::lockable`).
pub fn lockable(a: AssetRef<'_>) -> bool {
    let window = a.limit_start_time().is_some() || a.limit_end_time().is_some();
    crate::core::wire::asset::lockable(a.license_type(), window)
}

/// An asset for a lock change: its number when it takes the change, else counted in `skipped`
/// with why (not lockable, with its type in words; or already so).
fn sort_out<'a>(lang: Lang, lock: bool, a: AssetRef<'a>, skipped: &mut Skipped) -> Option<&'a str> {
    if !lockable(a) {
        skipped.not_locks += 1;
        let words = match LicenseType::parse(a.license_type()) {
            Some(t) => crate::ui::text::labels::license_type_name(lang, t),
            None => a.license_type().to_owned(),
        };
        if !skipped.types.contains(&words) {
            skipped.types.push(words);
        }
        None
    } else if a.locked() == lock {
        skipped.already += 1;
        None
    } else {
        Some(a.asset_num())
    }
}

#[derive(Default)]
pub struct AssetsScreen {
    query: Query,
    /// Shared with an export that runs while the grid is shown.
    assets: Arc<AssetList>,
    index: ListingIndex,
    grid: Grid,
    selection: Selection,
    locks: Locks,
    export: Export,
}

/// The listing asked for, and the profile it was asked of.
#[derive(Default)]
struct Query {
    enterprise: String,
    extend_code: String,
    call: Awaited<AssetList>,
    /// The profile the listing was asked of (and so every lock picked in it goes to).
    listed_on: Option<Profile>,
    /// A listing dropped because another profile became active: its profile's name.
    dropped_from: Option<String>,
    /// The last listing was answered (an empty one means the enterprise has no assets).
    listed_ok: bool,
    /// The enterprise the listing on screen is of.
    listed: String,
    /// An enterprise the platform listed, to be put first among the recent ones.
    remember: Option<String>,
}

/// What the grid shows of the listing: filtered, sorted, with the chosen columns.
struct Grid {
    filter: String,
    /// Indices into `assets`, filtered and sorted.
    view: Vec<usize>,
    dirty: bool,
    sort: Option<(Col, bool)>,
    shown: Vec<Col>,
    expanded: HashSet<usize>,
    /// Each column's natural width, measured once per listing and language.
    fits: Option<(Lang, Vec<table::Fit>)>,
}

impl Default for Grid {
    fn default() -> Self {
        Self {
            filter: String::new(),
            view: Vec::new(),
            dirty: false,
            sort: None,
            // All but the dates, which the column chooser adds.
            shown: Col::ALL[..8].to_vec(),
            expanded: HashSet::new(),
            fits: None,
        }
    }
}

/// The rows picked in the grid.
#[derive(Default)]
struct Selection {
    /// Indices into `assets`.
    set: HashSet<usize>,
    /// Cached `selection_counts`.
    counts: Option<(usize, usize)>,
    /// Position in the view of the last plain or ctrl click, for shift-click ranges.
    anchor: Option<usize>,
}

/// Disabling and enabling: the confirmation asked, the call, its results.
#[derive(Default)]
struct Locks {
    confirm: Option<LockAction>,
    call: Awaited<Vec<LockResult>>,
    pending: Option<LockAction>,
    outcome: Option<LockOutcome>,
    /// Locks sent with no answer: what may have happened, and the state read since.
    unknown: Option<unknown::UnknownLocks>,
    /// A change whose platform could not be reached, to keep for later.
    unsent: Option<unknown::UnsentLocks>,
    /// The numbers typed in the by-numbers dialog, while it is open.
    by_numbers: Option<String>,
    /// Why the person signed in may not change locks (a team server's role), this frame.
    refused: Option<String>,
}

impl AssetsScreen {
    /// The listing's answer: shown, read for locks whose outcome is unknown, and its
    /// enterprise remembered.
    fn poll_listing(&mut self, out: &Outbox<'_>) {
        let Some(answer) = out.reply(&mut self.query.call, label!("list-assets")) else {
            return;
        };
        self.query.listed_ok = false;
        if let Ok(assets) = answer {
            if let Some(unknown) = &mut self.locks.unknown
                && unknown.read.is_none()
                && self.query.listed_on.as_ref().map(|p| &p.name) == Some(&unknown.profile)
            {
                unknown.read_from(&assets);
            }
            self.set_assets(assets);
            self.query.listed_ok = true;
            self.query.remember = Some(self.query.listed.clone());
        }
    }

    /// The locks' answer: the badges follow, or what may have happened, or a change to keep
    /// for later.
    fn poll_locks(&mut self, out: &Outbox<'_>) {
        let said = match &self.locks.pending {
            Some(a) if a.lock => label!("disable"),
            Some(_) => label!("enable"),
            None => label!("lock-unlock"),
        };
        let Some(answer) = out.reply_judged(&mut self.locks.call, said, |r| Verdict::of_locks(r))
        else {
            return;
        };
        let Some(action) = self.locks.pending.take() else {
            return;
        };
        match answer {
            Ok(results) => self.locks_done(action, &results),
            Err(CoreError::Api(e @ ApiError::NotSent(_))) => {
                let (nums, operator) = (action.nums, Some(action.operator));
                self.locks.unsent = Some(unknown::UnsentLocks {
                    profile: action.profile.name,
                    call: if action.lock {
                        Call::Lock { nums, operator }
                    } else {
                        Call::Unlock { nums, operator }
                    },
                    queue: Awaited::default(),
                    kept: false,
                    by_team: e.sent_nothing_said_by_team(),
                });
            }
            Err(CoreError::Api(ApiError::OutcomeUnknown { .. })) => {
                self.locks.unknown = Some(unknown::UnknownLocks {
                    lock: action.lock,
                    nums: action.nums,
                    profile: action.profile.name,
                    reread: true,
                    read: None,
                });
            }
            Err(_) => {}
        }
    }

    /// Locks answered: the badges follow only on a listing of the profile the locks changed
    /// on (the same numbers may name other assets on another platform).
    fn locks_done(&mut self, action: LockAction, results: &[LockResult]) {
        let same_profile = self
            .query
            .listed_on
            .as_ref()
            .is_some_and(|p| p.name == action.profile.name);
        for r in results.iter().filter(|_| same_profile) {
            if r.status == LockStatus::Success
                && let Some(i) = self.index.position(&self.assets, &r.asset_num)
            {
                Arc::make_mut(&mut self.assets).set_locked(i, action.lock);
            }
        }
        self.grid.dirty = true;
        self.locks.outcome = Some(LockOutcome {
            lock: action.lock,
            results: results.into(),
            profile: action.profile.name,
        });
    }

    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        self.poll_listing(out);
        self.poll_locks(out);
        self.poll_unsent(out);
        if let Some(reply) = out.reply_finished(&mut self.export.call, label!("export-csv")) {
            self.export.progress = None;
            if let Ok(Finished::Done(path)) = reply {
                self.export.done = Some(path.display().to_string());
            }
        }
    }

    /// A new listing replaces the old one (selection and expansions belonged to it).
    pub fn set_assets(&mut self, assets: AssetList) {
        let was = self.assets.len();
        self.index = ListingIndex::new(&assets);
        self.assets = Arc::new(assets);
        if was >= crate::core::memory::BIG_LISTING {
            crate::core::memory::give_back_soon();
        }
        self.selection.set.clear();
        self.selection.counts = None;
        self.grid.expanded.clear();
        self.grid.fits = None;
        self.selection.anchor = None;
        self.grid.dirty = true;
    }

    fn rebuild_view(&mut self) {
        self.grid.dirty = false;
        self.selection.counts = None;
        let needle = self.grid.filter.trim().to_lowercase();
        // One searcher for every row: 100,000 rows are searched on each key typed.
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        self.grid.view = (0..self.assets.len())
            .filter(|&i| needle.is_empty() || self.index.matches(i, &finder))
            .collect();
        if let Some((col, ascending)) = self.grid.sort {
            let assets = &self.assets;
            self.grid.view.sort_by(|&a, &b| {
                let (a, b) = (assets.get(a), assets.get(b));
                let order = match col {
                    Col::Number => a.asset_num().cmp(b.asset_num()),
                    Col::Type => a.license_type().cmp(b.license_type()),
                    Col::Chip => a.key_chip_type().cmp(&b.key_chip_type()),
                    Col::Customer => a.customer_id().cmp(b.customer_id()),
                    Col::State => (a.locked(), a.freezing()).cmp(&(b.locked(), b.freezing())),
                    Col::Validity => a.limit_end_time().cmp(&b.limit_end_time()),
                    Col::Extensions => a.extends().len().cmp(&b.extends().len()),
                    Col::Products => a.product_count().cmp(&b.product_count()),
                    Col::Created => a.create_time().cmp(&b.create_time()),
                    Col::Updated => a.update_time().cmp(&b.update_time()),
                };
                if ascending { order } else { order.reverse() }
            });
        }
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        caller: &Caller<'_>,
        lang: Lang,
        recent: &mut Vec<String>,
    ) {
        let (out, profile) = (caller.out, caller.profile);
        if let Some(enterprise) = self.query.remember.take() {
            recent.retain(|e| *e != enterprise);
            recent.insert(0, enterprise);
            recent.truncate(RECENT);
        }
        self.locks.refused = caller.lacking(lang, Permission::Locks);
        self.follow_profile(profile);
        self.query_bar_ui(ui, out, lang, recent, profile);
        // Under the bar, so that its coming and going never moves the fields.
        if let Some(name) = &self.query.dropped_from {
            let profile = name_of_profile(lang, name);
            ui.label(RichText::new(tr!(lang, "listing-dropped", profile = profile)).weak());
        }
        let typed = self.query.enterprise.trim();
        if !self.assets.is_empty() && !typed.is_empty() && typed != self.query.listed {
            let listed = self.query.listed.as_str();
            let text = tr!(lang, "listing-of-another", listed = listed);
            ui.colored_label(ui.visuals().warn_fg_color, text);
        }
        if self.grid.dirty {
            self.rebuild_view();
        }
        self.view_bar_ui(ui, out, lang);
        ui.separator();
        self.reread_after_unknown(out);
        // Below the grid, in a panel of their own: a result that comes must not push the rows
        // down under the pointer, where a second click would land on another lock.
        let notes = self.locks.unknown.is_some()
            || self.locks.unsent.is_some()
            || self.locks.outcome.is_some();
        if notes {
            egui::Panel::bottom("lock_notes")
                .resizable(false)
                .show(ui, |ui| self.lock_notes_ui(ui, out, lang));
        }
        if self.assets.is_empty() {
            if self.query.call.is_waiting() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t!(lang, "loading"));
                });
            } else if self.query.listed_ok {
                ui.label(t!(lang, "no-assets"));
            } else {
                self.start_ui(ui, out, lang, recent, profile);
            }
        } else {
            // Columns fit the window; only one too narrow for their least widths scrolls
            // sideways rather than cutting them.
            let width = ui.available_width();
            egui::ScrollArea::horizontal()
                .id_salt("assets_table_wide")
                .show(ui, |ui| self.table_ui(ui, lang, width));
        }
        self.confirm_ui(ui.ctx(), caller, lang);
        self.by_numbers_ui(ui.ctx(), lang, profile);
    }

    /// What became of the last lock change: unknown, unsent, or each asset's status.
    fn lock_notes_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        if self.unknown_locks_ui(ui, lang) {
            self.locks.unknown = None;
        }
        if self.unsent_locks_ui(ui, out, lang) {
            self.locks.unsent = None;
        }
        if let Some(outcome) = &self.locks.outcome {
            let mut action = ResultsAction::default();
            results_ui(ui, lang, outcome, &mut action);
            if action.export {
                let produce = results_csv(lang, Arc::clone(&outcome.results));
                self.export_results(out, produce);
            }
            if action.close {
                self.locks.outcome = None;
            }
        }
    }

    /// What is shown belongs to the profile it was listed on: when another profile becomes
    /// active, the listing, its selection and a pending confirmation go, so that nothing on
    /// screen can be mistaken for (or acted on as) the new profile's. The last lock results stay:
    /// they name their profile.
    fn follow_profile(&mut self, active: &Profile) {
        let Some(listed) = &self.query.listed_on else {
            return;
        };
        if listed.name == active.name {
            return;
        }
        self.query.dropped_from = Some(listed.name.clone());
        self.query.listed_on = None;
        self.query.call = Awaited::default();
        self.query.listed_ok = false;
        self.set_assets(AssetList::default());
        self.locks.confirm = None;
        self.grid.filter.clear();
    }

    /// The listing goes, and with it its selection and what it held in memory; the lock
    /// results stay (they name their profile).
    fn close_listing(&mut self) {
        self.set_assets(AssetList::default());
        self.query.listed_ok = false;
        self.query.listed.clear();
        self.locks.confirm = None;
        self.grid.filter.clear();
    }

    /// Lists the enterprise typed, on `profile`; remembered among the recent ones once the
    /// platform lists it (one it refuses is not offered again).
    pub fn list(&mut self, out: &Outbox<'_>, profile: &Profile) {
        let enterprise = self.query.enterprise.trim().to_owned();
        if enterprise.is_empty() {
            return;
        }
        self.locks.outcome = None;
        let extend_code = Some(self.query.extend_code.trim().to_owned()).filter(|c| !c.is_empty());
        self.query.call.start(out.ask(calls::Assets {
            profile: profile.name.clone(),
            enterprise_global_id: enterprise,
            extend_code,
        }));
        self.query.listed = self.query.enterprise.trim().to_owned();
        self.query.listed_on = Some(profile.clone());
        self.query.dropped_from = None;
    }

    /// Before any listing: what to type, and the last enterprise listed one click away.
    fn start_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        recent: &[String],
        profile: &Profile,
    ) {
        let last = recent.first().cloned();
        let words = last
            .as_deref()
            .map(|e| tr!(lang, "assets-list-recent", enterprise = e));
        let next = words.as_deref().map(|w| (Icon::List, w));
        // The demo enterprise is the Sandbox's: named only there.
        let start = match profile.is_sandbox() {
            true => t!(lang, "assets-start"),
            false => t!(lang, "assets-start-remote"),
        };
        if empty_state_ui(ui, start, next)
            && let Some(enterprise) = last
        {
            self.list_enterprise(out, profile, &enterprise);
        }
    }

    /// Lists `enterprise` (the start page's demo enterprise).
    pub fn list_enterprise(&mut self, out: &Outbox<'_>, profile: &Profile, enterprise: &str) {
        self.query.enterprise = enterprise.to_owned();
        self.query.extend_code.clear();
        self.list(out, profile);
    }

    fn query_bar_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        recent: &[String],
        profile: &Profile,
    ) {
        ui.horizontal_wrapped(|ui| {
            // A button that does not fit goes to the next line whole, never in a narrow column.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            let label = ui.label(t!(lang, "enterprise-global-id"));
            let field = ui
                .add(egui::TextEdit::singleline(&mut self.query.enterprise).desired_width(150.0))
                .labelled_by(label.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.menu_button(t!(lang, "recent"), |ui| {
                if recent.is_empty() {
                    ui.label(t!(lang, "none-yet"));
                }
                for e in recent.iter() {
                    if ui.button(e).clicked() {
                        self.query.enterprise = e.clone();
                        ui.close();
                    }
                }
            });
            let label = ui.label(t!(lang, "extend-code"));
            ui.add(egui::TextEdit::singleline(&mut self.query.extend_code).desired_width(90.0))
                .labelled_by(label.id);
            let busy = self.query.call.is_waiting();
            let clicked = keyed_button_ui(
                ui,
                Icon::List,
                t!(lang, "list-assets"),
                busy,
                true,
                keys::REFRESH,
            );
            if clicked || enter {
                self.list(out, profile);
            }
            let refused = self.locks.refused.as_deref();
            if permitted_ui(ui, refused, |ui| {
                ui.button(t!(lang, "lock-by-numbers")).clicked()
            }) {
                self.locks.by_numbers = Some(String::new());
            }
            if !self.assets.is_empty() && ui.button(tr!(lang, "close-listing")).clicked() {
                self.close_listing();
            }
            let listed = self.query.listed.as_str();
            if self.query.listed_ok && !listed.is_empty() {
                let page = ui
                    .button(t!(lang, "assets-open-page"))
                    .on_hover_text(t!(lang, "customers-open-page"));
                if page.clicked() {
                    out.open_page(listed, true);
                }
            }
        });
    }

    fn view_bar_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        if self.assets.is_empty() {
            return;
        }
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(t!(lang, "filter"));
            if ui
                .add(
                    egui::TextEdit::singleline(&mut self.grid.filter)
                        .hint_text(t!(lang, "filter-hint"))
                        .desired_width(220.0),
                )
                .labelled_by(label.id)
                .changed()
            {
                self.grid.dirty = true;
            }
            ui.label(tr!(
                lang,
                "assets-shown",
                n = self.grid.view.len(),
                total = self.assets.len()
            ));
            ui.menu_button(t!(lang, "columns"), |ui| {
                for col in Col::ALL.into_iter().skip(1) {
                    let mut on = self.grid.shown.contains(&col);
                    if ui.checkbox(&mut on, col.title().text(lang)).changed() {
                        if on {
                            self.grid.shown.push(col);
                            self.grid
                                .shown
                                .sort_by_key(|c| Col::ALL.iter().position(|x| x == c));
                        } else {
                            self.grid.shown.retain(|c| *c != col);
                        }
                    }
                }
            });
        });
        self.export_bar_ui(ui, out, lang);
        self.selection_bar_ui(ui, lang);
    }

    /// The selection's count and what can be done to it.
    fn selection_bar_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            let (count, locks) = self.selection_counts();
            ui.label(tr!(lang, "selected-count", n = count, locks = locks));
            if ui.button(t!(lang, "select-all-filtered")).clicked() {
                self.selection.set = self.grid.view.iter().copied().collect();
                self.selection.counts = None;
            }
            if ui.button(t!(lang, "clear-selection")).clicked() {
                self.selection.set.clear();
                self.selection.counts = None;
            }
            let busy = self.locks.call.is_waiting();
            let refused = self.locks.refused.clone();
            ui.add_enabled_ui(count > 0 && !busy, |ui| {
                for (text, lock) in [
                    (label!("disable-selected"), true),
                    (label!("enable-selected"), false),
                ] {
                    let button = |ui: &mut egui::Ui| ui.button(text.text(lang)).clicked();
                    if permitted_ui(ui, refused.as_deref(), button) {
                        self.ask_lock_selected(lang, lock);
                    }
                }
            });
            if busy {
                ui.spinner();
            }
        });
    }

    /// The confirmation for the selected rows that can take the action: locks, not already in
    /// the state asked for. The others are counted, with why, and never sent.
    fn ask_lock_selected(&mut self, lang: Lang, lock: bool) {
        let Some(profile) = self.query.listed_on.clone() else {
            return;
        };
        let mut nums = Vec::new();
        let mut skipped = Skipped::default();
        for a in self.selected_assets() {
            if let Some(num) = sort_out(lang, lock, a, &mut skipped) {
                nums.push(num.to_owned());
            }
        }
        self.locks.confirm = Some(LockAction {
            skipped,
            ..LockAction::new(lock, nums, profile)
        });
    }

    /// Typed numbers for a lock change: those the listing shows as not lockable, or already
    /// so, are left out as from the grid; the others (the listing may not hold them) go.
    fn sort_out_typed(&self, lang: Lang, lock: bool, typed: Vec<String>) -> (Vec<String>, Skipped) {
        let wanted: std::collections::HashSet<&str> = typed.iter().map(String::as_str).collect();
        let known: std::collections::HashMap<&str, AssetRef<'_>> = (0..self.assets.len())
            .map(|i| self.assets.get(i))
            .filter(|a| wanted.contains(a.asset_num()))
            .map(|a| (a.asset_num(), a))
            .collect();
        let mut skipped = Skipped::default();
        let nums = typed
            .iter()
            .filter(|num| match known.get(num.as_str()) {
                Some(&a) => sort_out(lang, lock, a, &mut skipped).is_some(),
                None => true,
            })
            .cloned()
            .collect();
        (nums, skipped)
    }

    /// The confirmation of a lock change asked elsewhere (a customer's page): `nums` to change
    /// on `profile`, with what was left out and why; the same dialog as for selected rows.
    pub fn confirm_lock(&mut self, lock: bool, nums: Vec<String>, left: LeftOut, profile: Profile) {
        self.locks.confirm = Some(LockAction {
            skipped: Skipped {
                not_locks: left.not_locks,
                types: left.types,
                already: left.already,
            },
            ..LockAction::new(lock, nums, profile)
        });
    }

    /// How many shown assets are selected, and how many of them are locks; counted once per
    /// change, not per frame (a selection can hold 100,000 rows).
    fn selection_counts(&mut self) -> (usize, usize) {
        if let Some(counts) = self.selection.counts {
            return counts;
        }
        let counts = (
            self.selected_assets().count(),
            self.selected_assets().filter(|a| lockable(*a)).count(),
        );
        self.selection.counts = Some(counts);
        counts
    }

    fn selected_assets(&self) -> impl Iterator<Item = AssetRef<'_>> {
        self.grid
            .view
            .iter()
            .filter(|i| self.selection.set.contains(i))
            .map(|&i| self.assets.get(i))
    }
}
