//! Renewals: what ends in the coming days across every enterprise of the active profile's
//! directory (docs/customers.md). The last read opens at once from the cache, saying how old it
//! is and which profile it is from; *Read again* lists every enterprise with a bar and Cancel.
//! A chart counts what ends per month; a click on a bar filters the table to it.

mod chart;
mod table;

use std::path::PathBuf;
use std::sync::Arc;

use egui::RichText;

use crate::core::progress::Progress;
use crate::core::renewals::{
    Filter, Grouping, Months, Read, ReadState, SortBy, Stop, Trouble, Window,
};
use crate::core::wire::BatchOrderRequest;
use crate::core::{Awaited, renewals};
use crate::ui::kit::form::{busy_icon_button_ui, home_file, keyed_button_ui, name_of_profile};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::keys;
use crate::ui::kit::theme;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, labelled, t, tr};
use crate::ui::text::labels::license_code_words;

/// The windows offered, in days.
const WINDOWS: [i64; 3] = [30, 90, 365];
const EXPORT_FILE: &str = "renewals.xlsx";
/// Start's summary: what ends within this many days.
const SOON_DAYS: i64 = 30;

/// What Renewals asks the window to do.
pub(crate) enum RenewalsAction {
    /// A renewal to open in the composer as a new draft, with its name.
    Compose(BatchOrderRequest, String),
    /// The page of this enterprise.
    Page(String),
}

pub(crate) struct RenewalsScreen {
    /// The profile the shown read (or the one being read) is of.
    profile: Option<String>,
    read: Option<Arc<Read>>,
    reading: Awaited<Arc<Read>>,
    progress: Option<Progress>,
    cached: Awaited<Option<Arc<Read>>>,
    days: i64,
    filter: Filter,
    /// A month of the chart clicked: its place (0, this month), instead of the window.
    month: Option<usize>,
    sort: (SortBy, bool),
    grouping: Grouping,
    /// The rows shown, in order; worked out again when something they depend on changes.
    view: Arc<Vec<u32>>,
    stale: bool,
    months: Option<Months>,
    /// Rows that end in the next `SOON_DAYS` days, for Start.
    due_soon: usize,
    /// Rows whose dates cannot be counted (reversed, past the year 9999).
    unreal: usize,
    /// The license types and branches of the read, for the filters' lists.
    types: Vec<String>,
    branches: Vec<String>,
    /// Rows chosen for a renewal, by their place in the read.
    chosen: std::collections::BTreeSet<u32>,
    export_path: String,
    export: Awaited<PathBuf>,
    exported: Option<String>,
}

impl Default for RenewalsScreen {
    fn default() -> Self {
        Self {
            profile: None,
            read: None,
            reading: Awaited::default(),
            progress: None,
            cached: Awaited::default(),
            days: 90,
            filter: Filter::default(),
            month: None,
            sort: (SortBy::End, true),
            grouping: Grouping::default(),
            view: Arc::default(),
            stale: true,
            months: None,
            due_soon: 0,
            unreal: 0,
            types: Vec::new(),
            branches: Vec::new(),
            chosen: Default::default(),
            export_path: String::new(),
            export: Awaited::default(),
            exported: None,
        }
    }
}

impl RenewalsScreen {
    /// Takes the replies that have come to this screen's requests. The last read kept comes
    /// quietly: none kept, or one that cannot be read, only means a read is to be made.
    pub(crate) fn poll(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(path)) = out.reply(&mut self.export, label!("renewals-export")) {
            self.exported = Some(path.display().to_string());
        }
        if let Some(Ok(Some(found))) = self.cached.take() {
            self.show(found);
        }
        if let Some(read) = out.reply(&mut self.reading, label!("renewals-read")) {
            self.progress = None;
            if let Ok(found) = read {
                self.show(found);
            }
        }
    }

    /// A read, shown: its rows counted for Start, its filters' choices, its months.
    fn show(&mut self, found: Arc<Read>) {
        {
            let now = jiff::Zoned::now();
            let soon = Window::days(now.date(), now.time_zone(), SOON_DAYS);
            self.due_soon = soon.map_or(0, |w| found.table.iter().filter(|r| w.holds(r)).count());
            self.unreal = found
                .table
                .iter()
                .filter(|r| matches!(r.trouble(), Some(Trouble::Reversed | Trouble::NoRealEnd)))
                .count();
            self.types = found.license_types();
            self.branches = found.branches();
            self.read = Some(found);
            self.chosen.clear();
            self.months = None;
            self.stale = true;
        }
    }

    /// Follows the active profile: another profile's rows are not this one's, so its own last
    /// read is asked for, if one is kept (Start shows its summary too).
    pub(crate) fn follow(&mut self, caller: &Caller<'_>) {
        let profile = &caller.profile.name;
        if self.profile.as_ref() == Some(profile) {
            return;
        }
        *self = Self {
            profile: Some(profile.clone()),
            days: self.days,
            ..Self::default()
        };
        let cached = renewals::Cached {
            profile: profile.clone(),
        };
        self.cached.start(caller.ask(cached));
    }

    /// What ends in the next 30 days by the last read, and when it was read, for Start.
    pub(crate) fn summary(&self) -> Option<(usize, i64)> {
        let read = self.read.as_ref()?;
        Some((self.due_soon, read.ended_at))
    }

    /// The screen; a renewal to open in the composer, or a customer's page to open.
    pub(crate) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        caller: &Caller<'_>,
        lang: Lang,
    ) -> Option<RenewalsAction> {
        self.follow(caller);
        ui.label(RichText::new(t!(lang, "renewals-help")).weak());
        self.read_bar_ui(ui, caller, lang);
        let read = self.read.clone()?;
        self.notes_ui(ui, &read, lang);
        ui.separator();
        self.filters_ui(ui, lang);
        self.refresh_view(&read);
        self.chart_ui(ui, &read, lang);
        self.export_ui(ui, caller.out, &read, lang);
        let renewal = self.renewal_ui(ui, &read, lang);
        let page = self.table_ui(ui, &read, lang);
        renewal
            .map(|(batch, name)| RenewalsAction::Compose(batch, name))
            .or(page.map(RenewalsAction::Page))
    }

    /// How many rows are chosen, and the renewal of them; a renewal when asked for.
    fn renewal_ui(
        &mut self,
        ui: &mut egui::Ui,
        read: &Read,
        lang: Lang,
    ) -> Option<(BatchOrderRequest, String)> {
        let mut composed = None;
        ui.horizontal_wrapped(|ui| {
            if ui.button(t!(lang, "renewals-choose-shown")).clicked() {
                self.chosen.extend(self.view.iter().copied());
            }
            if self.chosen.is_empty() {
                ui.label(RichText::new(t!(lang, "renewals-choose-help")).weak());
                return;
            }
            let n = self.chosen.len();
            ui.label(tr!(lang, "renewals-chosen", n = n));
            if ui.button(t!(lang, "renewals-compose")).clicked() {
                let rows: Vec<u32> = self.chosen.iter().copied().collect();
                let today = jiff::Zoned::now().date().strftime("%Y%m%d").to_string();
                let id = format!("RENEW-{today}-{}", crate::core::now_ms() % 100_000);
                composed = Some((crate::core::renewals::compose(read, &rows, &id), id));
            }
            if ui.button(t!(lang, "renewals-clear-chosen")).clicked() {
                self.chosen.clear();
            }
        });
        composed
    }

    /// The read's stamp, or what reading would do; the button, or the bar with Cancel.
    fn read_bar_ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            if let Some(progress) = &self.progress {
                reading_ui(ui, progress, lang);
                return;
            }
            let words = match self.read {
                Some(_) => t!(lang, "renewals-read-again"),
                None => t!(lang, "renewals-read"),
            };
            let busy = self.reading.is_waiting();
            if keyed_button_ui(ui, Icon::Refresh, words, busy, true, keys::REFRESH) {
                let progress = Progress::default();
                self.reading.start(caller.ask(renewals::ReadAll {
                    profile: caller.profile.name.clone(),
                    progress: progress.clone(),
                }));
                self.progress = Some(progress);
            }
            match &self.read {
                Some(read) => stamp_ui(ui, read, lang),
                None if !self.cached.is_waiting() => {
                    // Beside the Read button on its row: its next step is that button.
                    let muted = theme::palette(ui).muted;
                    ui.label(RichText::new(t!(lang, "renewals-none")).color(muted));
                }
                None => {}
            }
        });
    }

    /// Why the read is not whole, and what it could not date.
    fn notes_ui(&self, ui: &mut egui::Ui, read: &Read, lang: Lang) {
        let warn = ui.visuals().warn_fg_color;
        if read.enterprises.is_empty() {
            ui.colored_label(warn, t!(lang, "renewals-no-directory"));
        }
        match &read.stop {
            Some(Stop::NoAnswer { at, why }) => {
                let at = dates::local_time(*at, crate::core::now_ms());
                ui.colored_label(
                    warn,
                    tr!(lang, "renewals-stopped", at = at, why = why.as_str()),
                );
            }
            Some(Stop::Cancelled { at }) => {
                let at = dates::local_time(*at, crate::core::now_ms());
                ui.colored_label(warn, tr!(lang, "renewals-cancelled", at = at));
            }
            None => {}
        }
        let refused: Vec<_> = read
            .enterprises
            .iter()
            .filter_map(|e| match &e.state {
                ReadState::Refused { code, message } => Some((e, code, message)),
                _ => None,
            })
            .collect();
        if !refused.is_empty() {
            let n = refused.len();
            ui.collapsing(tr!(lang, "renewals-refused", n = n), |ui| {
                for (e, code, message) in refused {
                    let (code, message) = (code.as_str(), message.as_str());
                    let enterprise = e.global_id.as_str();
                    ui.label(tr!(
                        lang,
                        "renewals-refused-one",
                        enterprise = enterprise,
                        code = code,
                        message = message
                    ));
                }
            });
        }
        let undated: u32 = read.enterprises.iter().map(|e| e.undated).sum();
        if undated > 0 {
            ui.label(RichText::new(tr!(lang, "renewals-undated", n = undated)).weak());
        }
        let unreal = self.unreal;
        if unreal > 0 {
            ui.label(RichText::new(tr!(lang, "renewals-unreal", n = unreal)).weak());
        }
    }

    /// The window, the search, the license type and the branch; a clicked month.
    fn filters_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let before = (self.filter.clone(), self.month, self.days);
        ui.horizontal_wrapped(|ui| {
            ui.add(
                egui::Label::new(t!(lang, "renewals-within")).wrap_mode(egui::TextWrapMode::Extend),
            );
            for days in WINDOWS {
                let words = tr!(lang, "renewals-days", n = days);
                if ui
                    .selectable_label(self.days == days && self.month.is_none(), words)
                    .clicked()
                {
                    (self.days, self.month) = (days, None);
                }
            }
            ui.separator();
            let find = ui.add(
                egui::Label::new(t!(lang, "renewals-find")).wrap_mode(egui::TextWrapMode::Extend),
            );
            ui.add(
                egui::TextEdit::singleline(&mut self.filter.text)
                    .hint_text(t!(lang, "renewals-search"))
                    .desired_width(220.0),
            )
            .labelled_by(find.id);
            let names = (t!(lang, "license-type-col"), t!(lang, "renewals-any-type"));
            let words = |v: &str| license_code_words(lang, v);
            choice_ui(ui, names, &mut self.filter.license_type, &self.types, words);
            let names = (t!(lang, "branch"), t!(lang, "renewals-any-branch"));
            choice_ui(
                ui,
                names,
                &mut self.filter.branch,
                &self.branches,
                str::to_owned,
            );
            if let Some(m) = self.month {
                let month = self
                    .months
                    .as_ref()
                    .and_then(|ms| ms.firsts.get(m))
                    .map(|d| d.strftime("%Y-%m").to_string())
                    .unwrap_or_default();
                let chip = format!("{} ×", tr!(lang, "renewals-month", month = month));
                if ui
                    .button(chip)
                    .on_hover_text(t!(lang, "renewals-clear-month"))
                    .clicked()
                {
                    self.month = None;
                }
            }
        });
        if before != (self.filter.clone(), self.month, self.days) {
            self.stale = true;
        }
    }

    /// Works the shown rows out again when the read, the filter or the order changed.
    fn refresh_view(&mut self, read: &Read) {
        if self.months.is_none() {
            let now = jiff::Zoned::now();
            self.months = Months::of(read, now.date(), now.time_zone(), self.grouping);
        }
        if !self.stale {
            return;
        }
        let now = jiff::Zoned::now();
        self.filter.window = match self.month {
            Some(m) => self.months.as_ref().and_then(|ms| ms.window(m)),
            None => Window::days(now.date(), now.time_zone(), self.days),
        };
        let (by, up) = self.sort;
        self.view = Arc::new(self.filter.apply(read, &read.orders, by, up));
        self.stale = false;
    }

    fn export_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, read: &Arc<Read>, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            let all = read.table.len();
            let shown = self.view.len();
            ui.label(RichText::new(tr!(lang, "renewals-shown", shown = shown, all = all)).strong());
            ui.separator();
            if self.export_path.is_empty() {
                self.export_path = home_file(EXPORT_FILE);
            }
            let to = ui.label(t!(lang, "export-to"));
            ui.add(egui::TextEdit::singleline(&mut self.export_path).desired_width(280.0))
                .labelled_by(to.id)
                .on_hover_text(t!(lang, "renewals-export-help"));
            if busy_icon_button_ui(
                ui,
                Icon::Export,
                t!(lang, "renewals-export"),
                self.export.is_waiting(),
            ) {
                self.exported = None;
                self.export.start(out.ask(renewals::Export {
                    path: PathBuf::from(self.export_path.trim()),
                    read: Arc::clone(read),
                    rows: Arc::clone(&self.view),
                }));
            }
            if let Some(path) = &self.exported {
                ui.label(labelled(lang, t!(lang, "exported"), path));
            }
        });
    }
}

/// The profile and time of the read, and how old it is.
fn stamp_ui(ui: &mut egui::Ui, read: &Read, lang: Lang) {
    let now = crate::core::now_ms();
    let (done, all) = read.read_count();
    let profile = name_of_profile(lang, &read.profile);
    let at = dates::local_time(read.ended_at, now);
    let stamp = tr!(
        lang,
        "renewals-read-at",
        profile = profile,
        at = at,
        done = done,
        all = all
    );
    ui.label(stamp);
    ui.label(RichText::new(format!("({})", dates::age(lang, now - read.ended_at))).weak());
}

/// The read under way: its bar and Cancel.
fn reading_ui(ui: &mut egui::Ui, progress: &Progress, lang: Lang) {
    let seen = progress.snapshot();
    let (done, all) = (seen.done, seen.total);
    let words = tr!(lang, "renewals-reading", done = done, all = all);
    ui.add(
        egui::ProgressBar::new(seen.fraction().unwrap_or(0.0))
            .desired_width(320.0)
            .text(words),
    );
    if progress.is_cancelled() {
        ui.label(t!(lang, "import-cancelling"));
    } else if ui.button(t!(lang, "cancel")).clicked() {
        progress.cancel();
    }
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(100));
}

/// A drop-down of the values found, or any, after its name.
fn choice_ui(
    ui: &mut egui::Ui,
    (name, any): (&str, &str),
    chosen: &mut Option<String>,
    values: &[String],
    words: impl Fn(&str) -> String,
) {
    let label = ui.add(egui::Label::new(name).wrap_mode(egui::TextWrapMode::Extend));
    let shown = chosen.as_deref().map_or_else(|| any.to_owned(), &words);
    egui::ComboBox::from_id_salt(name)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, None, any);
            for v in values {
                ui.selectable_value(chosen, Some(v.clone()), words(v));
            }
        })
        .response
        .labelled_by(label.id);
}
