//! A customer's page (docs/customers.md "The customer page"): one enterprise of the active
//! profile, as its platform and this console know it. It opens from a link anywhere a
//! customer is shown, and from the top bar's search (`Ctrl+K`); the page kept from the last
//! read opens at once, with its profile and age, and *Refresh* reads it again.

mod actions;
mod parts;
pub(crate) mod search;

use std::collections::BTreeSet;
use std::sync::Arc;

use egui::RichText;

use crate::core::Awaited;
use crate::core::customer::{self, Opened, Page, WINDOWS};
use crate::core::renewals::ReadState;
use crate::ui::Screen;
use crate::ui::kit::empty::empty_state_ui;
use crate::ui::kit::form::{keyed_button_ui, name_of_profile};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::keys;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, t, tr};

pub(crate) use actions::PageAction;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Tab {
    #[default]
    Assets,
    Timeline,
    Customers,
}

pub(crate) struct CustomerScreen {
    /// The profile the page (or the one being read) is of.
    profile: Option<String>,
    /// What was asked for: an enterprise global id, or what the user typed.
    asked: Option<String>,
    page: Option<Arc<Page>>,
    reading: Awaited<Opened>,
    cached: Awaited<Option<Arc<Page>>>,
    /// No page was kept for what was asked: it is read at the next frame.
    read_next: bool,
    /// A name several enterprises fit: their global ids and names.
    choices: Vec<(String, String)>,
    tab: Tab,
    /// The window highlighted: 30, 90 or 365 days.
    days: i64,
    /// The assets' lines in order (license type headings and assets), and each asset's rows.
    lines: Vec<parts::Line>,
    rows: Vec<Vec<u32>>,
    /// Assets chosen for a renewal or a delete, by their place on the page.
    chosen: BTreeSet<usize>,
    export: Awaited<std::path::PathBuf>,
    exported: Option<String>,
}

impl Default for CustomerScreen {
    fn default() -> Self {
        Self {
            profile: None,
            asked: None,
            page: None,
            reading: Awaited::default(),
            cached: Awaited::default(),
            read_next: false,
            choices: Vec::new(),
            tab: Tab::default(),
            days: WINDOWS[0],
            lines: Vec::new(),
            rows: Vec::new(),
            chosen: BTreeSet::new(),
            export: Awaited::default(),
            exported: None,
        }
    }
}

impl CustomerScreen {
    /// Takes the replies that have come to this screen's requests. The page kept comes
    /// quietly: none kept only means it is read.
    pub(crate) fn poll(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(path)) = out.reply(&mut self.export, label!("page-export")) {
            self.exported = Some(path.display().to_string());
        }
        match self.cached.take() {
            Some(Ok(Some(page))) => self.show(page),
            Some(Ok(None)) => self.read_next = true,
            _ => {}
        }
        match out.reply(&mut self.reading, label!("page-refresh")) {
            Some(Ok(Opened::Page(page))) => self.show(page),
            Some(Ok(Opened::Choices(choices))) => self.choices = choices,
            _ => {}
        }
    }

    /// Opens the page of `id` on the profile: an enterprise global id opens the page kept at
    /// once (read from the platform when none is); anything else is resolved by the directory
    /// and read.
    pub(crate) fn open(&mut self, out: &Outbox<'_>, profile: &str, id: &str, global: bool) {
        // The page open stays until the one asked for comes: one the directory cannot place
        // (said in a toast) leaves it as it was.
        let kept = (self.profile.as_deref() == Some(profile)).then(|| {
            let lines = std::mem::take(&mut self.lines);
            (self.page.take(), lines, std::mem::take(&mut self.rows))
        });
        let keep_days = self.days;
        *self = Self {
            profile: Some(profile.to_owned()),
            asked: Some(id.to_owned()),
            days: keep_days,
            ..Self::default()
        };
        if let Some((page, lines, rows)) = kept {
            (self.page, self.lines, self.rows) = (page, lines, rows);
        }
        if global {
            self.cached.start(out.ask(customer::Cached {
                profile: profile.to_owned(),
                global_id: id.to_owned(),
            }));
        } else {
            self.read(out);
        }
    }

    fn read(&mut self, out: &Outbox<'_>) {
        let (Some(profile), Some(id)) = (&self.profile, &self.asked) else {
            return;
        };
        self.choices.clear();
        self.reading.start(out.ask(customer::ReadPage {
            profile: profile.clone(),
            id: id.clone(),
        }));
    }

    fn show(&mut self, page: Arc<Page>) {
        self.asked = Some(page.global_id.clone());
        self.choices.clear();
        (self.lines, self.rows) = parts::lines_of(&page);
        self.chosen.clear();
        self.page = Some(page);
    }

    /// The screen; what it asks the window to do (a batch for the composer, a screen).
    pub(crate) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        caller: &Caller<'_>,
        lang: Lang,
    ) -> Option<PageAction> {
        // A page is its profile's: another profile active shows none of it.
        if self.profile.as_deref() != Some(caller.profile.name.as_str()) {
            *self = Self {
                days: self.days,
                ..Self::default()
            };
        }
        if std::mem::take(&mut self.read_next) {
            self.read(caller.out);
        }
        if !self.choices.is_empty() {
            return self.choices_ui(ui, caller, lang);
        }
        let Some(page) = self.page.clone() else {
            self.empty_ui(ui, caller.out, lang);
            return None;
        };
        self.header_ui(ui, caller, &page, lang);
        let action = self.actions_ui(ui, caller, &page, lang);
        ui.separator();
        self.tabs_ui(ui, &page, lang);
        match self.tab {
            Tab::Assets => self.assets_ui(ui, &page, lang),
            Tab::Timeline => return action.or_else(|| parts::timeline_ui(ui, &page, lang)),
            Tab::Customers => parts::customers_ui(ui, &page, lang),
        }
        action
    }

    fn empty_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        if self.reading.is_waiting() || self.cached.is_waiting() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!(lang, "page-reading"));
            });
        } else {
            let next = Some((Icon::Search, t!(lang, "page-open-customers")));
            if empty_state_ui(ui, t!(lang, "page-none"), next) {
                out.go_to(Screen::Customers);
            }
        }
    }

    fn choices_ui(
        &mut self,
        ui: &mut egui::Ui,
        caller: &Caller<'_>,
        lang: Lang,
    ) -> Option<PageAction> {
        let asked = self.asked.clone().unwrap_or_default();
        ui.label(tr!(lang, "page-choices", id = asked));
        let mut picked = None;
        for (id, name) in &self.choices {
            if ui.link(format!("{name}  ({id})")).clicked() {
                picked = Some(id.clone());
            }
        }
        if let Some(id) = picked {
            self.open(caller.out, &caller.profile.name, &id, true);
        }
        None
    }

    /// The enterprise, its ids, the profile and time of the read, Refresh; a platform that did
    /// not answer; what ends soon.
    fn header_ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, page: &Page, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            let name = page.name().unwrap_or(t!(lang, "page-no-name"));
            ui.label(RichText::new(name).text_style(egui::TextStyle::Heading));
            parts::copyable_ui(ui, lang, &page.global_id);
            if let Some(branch) = page
                .holdings
                .enterprises
                .first()
                .and_then(|e| e.branch.as_deref())
            {
                ui.label(RichText::new(branch).weak());
            }
        });
        ui.horizontal_wrapped(|ui| {
            let now = crate::core::now_ms();
            let profile = name_of_profile(lang, &page.profile);
            let at = dates::local_time(page.read_at, now);
            ui.label(tr!(lang, "page-read-at", profile = profile, at = at));
            let busy = self.reading.is_waiting();
            if keyed_button_ui(
                ui,
                Icon::Refresh,
                t!(lang, "page-refresh"),
                busy,
                false,
                keys::REFRESH,
            ) {
                self.read(caller.out);
            }
        });
        let warn = ui.visuals().warn_fg_color;
        if let Some(why) = &page.unreachable {
            let at = dates::local_time(page.read_at, crate::core::now_ms());
            ui.colored_label(
                warn,
                tr!(lang, "page-unreachable", why = why.as_str(), at = at),
            );
        }
        if let ReadState::Refused { code, message } = page.listing_state() {
            let (code, message) = (code.as_str(), message.as_str());
            let words = tr!(lang, "page-listing-refused", code = code, message = message);
            ui.colored_label(warn, words);
        }
        if let ReadState::Refused { code, message } = &page.customers_state {
            let (code, message) = (code.as_str(), message.as_str());
            let words = tr!(
                lang,
                "page-customers-refused",
                code = code,
                message = message
            );
            ui.colored_label(warn, words);
        }
        self.ends_ui(ui, page, lang);
    }

    /// How many products end within 30, 90 and 365 days; a click highlights that window.
    fn ends_ui(&mut self, ui: &mut egui::Ui, page: &Page, lang: Lang) {
        let today = dates::today();
        let tz = jiff::tz::TimeZone::system();
        let counts = page.ends_within(today, &tz);
        ui.horizontal_wrapped(|ui| {
            for (days, n) in WINDOWS.into_iter().zip(counts) {
                let words = tr!(lang, "page-ends", days = days, n = n);
                if ui.selectable_label(self.days == days, words).clicked() {
                    self.days = days;
                }
            }
        });
    }

    fn tabs_ui(&mut self, ui: &mut egui::Ui, page: &Page, lang: Lang) {
        ui.horizontal(|ui| {
            let assets = page.assets.len();
            let events = page.timeline.len();
            let customers = page.customers.len();
            for (tab, words) in [
                (Tab::Assets, tr!(lang, "page-tab-assets", n = assets)),
                (Tab::Timeline, tr!(lang, "page-tab-timeline", n = events)),
                (
                    Tab::Customers,
                    tr!(lang, "page-tab-customers", n = customers),
                ),
            ] {
                ui.selectable_value(&mut self.tab, tab, words);
            }
        });
        ui.add_space(4.0);
    }
}
