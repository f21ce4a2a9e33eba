//! The window's frame: the top bar (active profile, keyring), the left navigation, the status
//! bar, and the screens (each says what it will do until it is built).

use egui::{Color32, RichText};

use super::activities::ActivitiesScreen;
use super::asset_numbers::AssetNumbersScreen;
use super::assets::AssetsScreen;
use super::caller::Caller;
use super::composer::ComposerScreen;
use super::customers::CustomersScreen;
use super::form::{PRODUCTION_COLOUR, REMOTE_COLOUR, SANDBOX_COLOUR, profile_name};
use super::history::HistoryScreen;
use super::i18n::{Text, t};
use super::settings::SettingsScreen;
use super::toasts::Toasts;
use super::{Prefs, Screen, fonts};
use crate::core::{Core, CoreState, Event, KeyringState, KeyringStore, SandboxState};

pub struct DeskApp {
    core: Core,
    pub prefs: Prefs,
    customers: CustomersScreen,
    composer: ComposerScreen,
    assets: AssetsScreen,
    activities: ActivitiesScreen,
    asset_numbers: AssetNumbersScreen,
    history: HistoryScreen,
    settings: SettingsScreen,
    toasts: Toasts,
    /// The last answered action, for the status bar.
    last: Option<(Text, bool)>,
    /// Logged once, for start-up measurements (`RUST_LOG=license_desk=info`).
    first_frame: bool,
}

impl DeskApp {
    pub fn new(core: Core, prefs: Prefs, ctx: &egui::Context) -> Self {
        fonts::install(ctx);
        let waker = ctx.clone();
        core.set_repaint(move || waker.request_repaint());
        ctx.set_theme(if prefs.dark {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        Self {
            core,
            prefs,
            customers: CustomersScreen::default(),
            composer: ComposerScreen::default(),
            assets: AssetsScreen::default(),
            activities: ActivitiesScreen::default(),
            asset_numbers: AssetNumbersScreen::default(),
            history: HistoryScreen::default(),
            settings: SettingsScreen::default(),
            toasts: Toasts::default(),
            last: None,
            first_frame: true,
        }
    }

    /// The core the window drives (tests send it commands directly).
    pub fn core(&self) -> &Core {
        &self.core
    }

    fn t(&self, text: Text) -> &'static str {
        t(self.prefs.lang, text)
    }

    /// The whole window, one frame.
    pub fn root_ui(&mut self, ui: &mut egui::Ui) {
        // Answers are applied at the start of the frame, each to the screen that waits for it;
        // a late answer to a command a screen no longer waits for is dropped.
        while let Some(mut event) = self.core.try_recv() {
            self.apply(&mut event);
        }
        let state = self.core.state();
        egui::Panel::top("top_bar").show(ui, |ui| self.top_bar_ui(ui, &state));
        egui::Panel::bottom("status_bar").show(ui, |ui| self.status_bar_ui(ui, &state));
        egui::Panel::left("navigation")
            .resizable(false)
            .exact_size(170.0)
            .show(ui, |ui| self.navigation_ui(ui));
        egui::CentralPanel::default().show(ui, |ui| self.screen_ui(ui, &state));
        self.toasts.ui(ui.ctx(), self.prefs.lang);
        if std::mem::take(&mut self.first_frame) {
            tracing::info!("first frame");
        }
    }

    /// Gives an answer to the screen that waits for it. Its error is handled here, once: a
    /// toast with the platform's words and the status bar; the screen keeps what was typed.
    fn apply(&mut self, event: &mut Event) {
        let action = self
            .customers
            .apply(event)
            .or_else(|| self.composer.apply(event, &self.core))
            .or_else(|| self.assets.apply(event))
            .or_else(|| self.activities.apply(event))
            .or_else(|| self.asset_numbers.apply(event))
            .or_else(|| self.settings.apply(event))
            .or_else(|| self.history.apply(event));
        let Some(action) = action else {
            return;
        };
        if let Err(error) = &event.result {
            self.toasts.error(action, error);
        }
        self.last = Some((action, event.result.is_ok()));
    }

    fn top_bar_ui(&mut self, ui: &mut egui::Ui, state: &CoreState) {
        ui.horizontal(|ui| {
            ui.heading(self.t(Text::AppName));
            ui.separator();
            let profile = state.profiles.active();
            let (colour, badge) = if profile.is_sandbox() {
                (SANDBOX_COLOUR, self.t(Text::Sandbox))
            } else if profile.production {
                (PRODUCTION_COLOUR, self.t(Text::Production))
            } else {
                (REMOTE_COLOUR, "")
            };
            ui.label(format!("{}:", self.t(Text::Profile)));
            ui.label(
                RichText::new(profile_name(self.prefs.lang, profile))
                    .strong()
                    .color(Color32::WHITE)
                    .background_color(colour),
            );
            if !badge.is_empty() && !profile.is_sandbox() {
                ui.label(RichText::new(badge).strong().color(colour));
            }
            ui.separator();
            let keyring = match &state.keyring {
                None => RichText::new(self.t(Text::KeyringChecking)),
                Some(KeyringState::Available { store }) => RichText::new(format!(
                    "{}: {}",
                    self.t(Text::KeyringOk),
                    self.t(keyring_name(*store))
                )),
                Some(KeyringState::MemoryOnly { .. }) => {
                    RichText::new(self.t(Text::KeyringMemory)).color(PRODUCTION_COLOUR)
                }
            };
            let response = ui.label(keyring);
            if let Some(KeyringState::MemoryOnly { reason }) = &state.keyring {
                response.on_hover_text(reason);
            }
        });
    }

    fn status_bar_ui(&mut self, ui: &mut egui::Ui, state: &CoreState) {
        ui.horizontal(|ui| {
            let sandbox = match &state.sandbox {
                SandboxState::Starting => self.t(Text::SandboxStarting).to_owned(),
                SandboxState::Ready { base_url } => {
                    format!("{} · {base_url}", self.t(Text::SandboxReady))
                }
                SandboxState::Failed(why) => format!("{}: {why}", self.t(Text::SandboxFailed)),
            };
            match self.last {
                None => {
                    ui.label(self.t(Text::Ready));
                }
                Some((action, true)) => {
                    ui.label(format!("{} · {}", self.t(action), self.t(Text::Done)));
                }
                Some((action, false)) => {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        format!("{} · {}", self.t(action), self.t(Text::Failed)),
                    );
                }
            }
            ui.separator();
            ui.label(sandbox);
        });
    }

    fn navigation_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(6.0);
        for screen in Screen::ALL {
            let label = self.t(screen_title(screen));
            if ui
                .selectable_label(self.prefs.screen == screen, label)
                .clicked()
            {
                self.prefs.screen = screen;
            }
        }
    }

    fn screen_ui(&mut self, ui: &mut egui::Ui, state: &CoreState) {
        let screen = self.prefs.screen;
        let lang = self.prefs.lang;
        ui.heading(self.t(screen_title(screen)));
        ui.add_space(8.0);
        // Calls go to the profile active now; what a screen shows keeps the profile it came from.
        let profile = state.profiles.active();
        let caller = Caller {
            core: &self.core,
            profile,
        };
        match screen {
            Screen::Customers => self.customers.ui(ui, &caller, lang),
            Screen::Orders => self.composer.ui(ui, &self.core, lang, profile),
            Screen::Assets => self.assets.ui(
                ui,
                &self.core,
                lang,
                &mut self.prefs.recent_enterprises,
                profile,
            ),
            Screen::Activities => self.activities.ui(ui, &caller, lang, &mut self.prefs.claim),
            Screen::AssetNumbers => {
                if let Some(nums) = self.asset_numbers.ui(ui, &caller, lang) {
                    // Screens do not call each other: the window hands the numbers over.
                    self.composer.receive_numbers(nums);
                    self.prefs.screen = Screen::Orders;
                }
            }
            Screen::History => self.history.ui(ui, &self.core, lang),
            Screen::Settings => self.settings.ui(ui, &self.core, state, &mut self.prefs),
        }
    }
}

fn keyring_name(store: KeyringStore) -> Text {
    match store {
        KeyringStore::SecretService => Text::KeyringSecretService,
        KeyringStore::KernelKeyutils => Text::KeyringKeyutils,
        KeyringStore::WindowsCredentialManager => Text::KeyringWindows,
        KeyringStore::MacosKeychain => Text::KeyringMacos,
        KeyringStore::Given => Text::KeyringGiven,
    }
}

fn screen_title(screen: Screen) -> Text {
    match screen {
        Screen::Customers => Text::Customers,
        Screen::Orders => Text::Orders,
        Screen::Assets => Text::Assets,
        Screen::Activities => Text::Activities,
        Screen::AssetNumbers => Text::AssetNumbers,
        Screen::History => Text::History,
        Screen::Settings => Text::Settings,
    }
}

impl eframe::App for DeskApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.root_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.prefs);
    }
}
