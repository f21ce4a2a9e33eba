//! Settings: language and theme, and the profiles: add, edit, remove, switch, test a connection
//! (the form itself is `profile_form`). An app secret is typed into a password field and goes
//! straight to the keyring (through the core); the screen forgets it once it is saved.

mod moving;
mod profile_form;

use egui::RichText;

use self::profile_form::{ProfileForm, profile_form_ui};
use crate::core::profiles::requests::{self, Connected};
use crate::core::team::{self, Me};
use crate::core::{Awaited, CoreState, Endpoint, KeyringState, Profiles, Secret, now_ms};
use crate::ui::kit::button::danger_button;
use crate::ui::kit::card::section_ui;
use crate::ui::kit::form::{busy_button_ui, name_of_profile};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::theme::{self, ThemeChoice};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, noted, t, tr};

/// A tested connection, said under the buttons.
struct Tested {
    profile: String,
    scope: String,
    hours_left: i64,
}

#[derive(Default)]
pub struct SettingsScreen {
    selected: Option<String>,
    form: Option<ProfileForm>,
    confirm_remove: Option<String>,
    remove: Awaited<Profiles>,
    activate: Awaited<Profiles>,
    test: Awaited<Connected>,
    testing: Option<String>,
    connected: Option<Tested>,
    /// A new team profile's first sign-in, sent on the next frame.
    sign_in: Option<(String, Secret)>,
    signing_in: Awaited<Me>,
    /// A new team profile's form while its first sign-in is answered: refused, the profile
    /// is removed and the form comes back as typed (but the password).
    first_sign_in: Option<ProfileForm>,
    /// *Move to another computer…*, and what a start restored.
    moving: moving::Moving,
}

impl SettingsScreen {
    /// Where the window keeps its state: a backup carries it.
    pub fn set_window_dir(&mut self, dir: Option<std::path::PathBuf>) {
        self.moving.window_dir = dir;
    }

    /// What this start restored (Settings → *Move to another computer…* on the last run).
    pub fn restored(
        &mut self,
        result: Result<crate::core::backup::Restored, crate::core::backup::BackupError>,
    ) {
        self.moving.restored(result);
    }

    /// *Restart now* was clicked (a restore waits for the next start).
    pub fn take_restart(&mut self) -> bool {
        self.moving.take_restart()
    }

    /// The moving dialog, and what a start restored, over any screen.
    /// `calls_running`: *Restart now* waits for them to end.
    pub fn moving_ui(
        &mut self,
        ctx: &egui::Context,
        out: &Outbox<'_>,
        lang: Lang,
        calls_running: bool,
    ) {
        self.moving.ui(ctx, out, lang, calls_running);
    }

    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        self.moving.poll(out);
        if let Some(form) = &mut self.form {
            form.ca_file.poll(out);
        }
        self.saved(out);
        if let Some(Ok(_)) = out.reply(&mut self.remove, label!("remove-profile")) {
            self.selected = None;
        }
        out.reply(&mut self.activate, label!("use-profile"));
        if let Some(reply) = out.reply(&mut self.test, label!("test-connection")) {
            let profile = self.testing.take().unwrap_or_default();
            self.connected = reply.ok().map(|c| Tested {
                profile,
                scope: c.scope,
                hours_left: (c.expires_at_ms - now_ms()).max(0) / 3_600_000,
            });
        }
        let signed = out.reply(&mut self.signing_in, label!("sign-in-button"));
        match (signed, self.first_sign_in.take()) {
            (Some(Err(_)), Some(mut form)) => {
                // A typing mistake to redo, not a profile to keep that cannot sign in.
                let name = form.profile().name;
                self.remove.start(out.ask(requests::Remove { name }));
                form.not_kept = true;
                form.call = Awaited::default();
                self.form = Some(form);
                self.selected = None;
            }
            (None, waiting) => self.first_sign_in = waiting,
            (Some(Ok(_)), _) | (Some(Err(_)), None) => {}
        }
    }

    /// The form's save answered: saved, the secret is in the keyring now, not here; a team
    /// profile's person signs in with the password typed, which only the session outlives.
    fn saved(&mut self, out: &Outbox<'_>) {
        let Some(form) = &mut self.form else {
            return;
        };
        let Some(Ok(_)) = out.reply(&mut form.call, label!("save-profile")) else {
            return;
        };
        let name = form.profile().name;
        if form.team && !form.secret.is_empty() {
            let password = Secret::new(std::mem::take(&mut form.secret));
            self.sign_in = Some((name.clone(), password));
        }
        self.selected = Some(name);
        let form = self.form.take();
        if let Some(form) = form.filter(|f| f.team && f.previous.is_none()) {
            self.first_sign_in = Some(form);
        }
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        state: &CoreState,
        prefs: &mut crate::ui::Prefs,
    ) {
        let lang = prefs.lang;
        if let Some((profile, password)) = self.sign_in.take() {
            self.signing_in
                .start(out.ask(team::SignIn { profile, password }));
        }
        // A narrow window (900×600) with several profiles and the form open scrolls to the
        // form's Save and Cancel.
        egui::ScrollArea::vertical()
            .id_salt("settings")
            .auto_shrink([false, false])
            .show(ui, |ui| self.settings_ui(ui, out, state, prefs));
        self.confirm_remove_ui(ui.ctx(), out, lang);
    }

    fn settings_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        state: &CoreState,
        prefs: &mut crate::ui::Prefs,
    ) {
        let lang = prefs.lang;
        appearance_ui(ui, prefs);
        if ui.button(t!(lang, "move-open")).clicked() {
            self.moving.open();
        }
        ui.add_space(10.0);
        section_ui(ui, t!(lang, "profiles"));
        ui.label(t!(lang, "profiles-help"));
        if let Some(KeyringState::MemoryOnly { .. }) = &state.keyring {
            // The line above says where secrets go when there is a keyring; here there is none.
            ui.colored_label(ui.visuals().warn_fg_color, t!(lang, "keyring-memory-help"));
        }
        ui.add_space(4.0);
        self.profiles_table_ui(ui, state, lang);
        ui.add_space(6.0);
        self.actions_ui(ui, out, state, lang);
        if let Some(form) = &mut self.form {
            ui.separator();
            if profile_form_ui(ui, out, lang, form) {
                self.form = None;
            }
        }
    }

    fn profiles_table_ui(&mut self, ui: &mut egui::Ui, state: &CoreState, lang: Lang) {
        egui::Grid::new("profiles")
            .striped(true)
            .num_columns(5)
            .spacing([16.0, 4.0])
            .show(ui, |ui| {
                for head in [
                    label!("profile"),
                    label!("kind"),
                    label!("platform-address"),
                    label!("operator"),
                    label!("in-use"),
                ] {
                    ui.label(RichText::new(head.text(lang)).strong());
                }
                ui.end_row();
                for p in &state.profiles.profiles {
                    let selected = self.selected.as_deref() == Some(&p.name);
                    // The built-in profile under its own name is said in the UI's language.
                    let shown = match (p.is_sandbox(), p.name == crate::core::SANDBOX) {
                        (true, true) => t!(lang, "sandbox").to_owned(),
                        (true, false) => noted(lang, t!(lang, "sandbox"), &p.name),
                        (false, _) => p.name.clone(),
                    };
                    if ui.selectable_label(selected, shown).clicked() {
                        self.selected = Some(p.name.clone());
                    }
                    let (kind, colour) = match (&p.endpoint, p.production) {
                        (Endpoint::Sandbox, _) => (label!("kind-sandbox"), None),
                        (Endpoint::Remote { .. }, true) => (
                            label!("kind-production"),
                            Some(theme::palette(ui).danger_text),
                        ),
                        (Endpoint::Remote { .. }, false) => (label!("kind-remote"), None),
                        (Endpoint::Team { .. }, _) => (label!("kind-team"), None),
                    };
                    let kind = RichText::new(kind.text(lang));
                    ui.label(match colour {
                        Some(c) => kind.color(c).strong(),
                        None => kind,
                    });
                    ui.label(match &p.endpoint {
                        Endpoint::Sandbox => t!(lang, "built-in").to_owned(),
                        Endpoint::Remote { base_url, .. } => base_url.clone(),
                        Endpoint::Team { url, user, .. } => format!("{user} @ {url}"),
                    });
                    ui.label(&p.operator_identity);
                    if state.profiles.active == p.name {
                        ui.label(RichText::new(t!(lang, "active")).strong());
                    } else {
                        ui.label("");
                    }
                    ui.end_row();
                }
            });
    }

    fn actions_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, state: &CoreState, lang: Lang) {
        let chosen = self
            .selected
            .as_deref()
            .and_then(|name| state.profiles.get(name))
            .cloned();
        ui.horizontal(|ui| {
            if ui.button(t!(lang, "add-profile")).clicked() {
                // The operator defaults to who is signed in to this computer.
                self.form = Some(ProfileForm {
                    operator: ["USER", "USERNAME"]
                        .iter()
                        .find_map(|v| std::env::var(v).ok())
                        .unwrap_or_default(),
                    ..ProfileForm::default()
                });
            }
            let Some(p) = chosen else {
                ui.label(RichText::new(t!(lang, "select-profile")).weak());
                return;
            };
            let active = state.profiles.active == p.name;
            let busy = self.activate.is_waiting();
            ui.add_enabled_ui(!active, |ui| {
                if busy_button_ui(ui, t!(lang, "use-profile"), busy) {
                    self.activate.start(out.ask(requests::Activate {
                        name: p.name.clone(),
                    }));
                }
            });
            if ui.button(t!(lang, "edit-profile")).clicked() {
                self.form = Some(ProfileForm::for_profile(&p));
            }
            if busy_button_ui(ui, t!(lang, "test-connection"), self.test.is_waiting()) {
                self.connected = None;
                self.testing = Some(p.name.clone());
                self.test.start(out.ask(requests::TestConnection {
                    profile: p.name.clone(),
                }));
            }
            ui.add_enabled_ui(!p.is_sandbox(), |ui| {
                if busy_button_ui(ui, t!(lang, "remove-profile"), self.remove.is_waiting()) {
                    self.confirm_remove = Some(p.name.clone());
                }
            });
        });
        if let Some(c) = &self.connected {
            ui.label(
                RichText::new(tr!(
                    lang,
                    "connected-with",
                    profile = name_of_profile(lang, &c.profile),
                    scope = c.scope.as_str(),
                    hours = c.hours_left
                ))
                .color(theme::palette(ui).success_text),
            );
        }
    }

    fn confirm_remove_ui(&mut self, ctx: &egui::Context, out: &Outbox<'_>, lang: Lang) {
        let Some(name) = self.confirm_remove.clone() else {
            return;
        };
        let modal = egui::Modal::new(egui::Id::unique("confirm_remove")).show(ctx, |ui| {
            ui.set_max_width(380.0);
            ui.label(
                RichText::new(tr!(lang, "remove-profile-question", name = name.as_str())).strong(),
            );
            ui.label(t!(lang, "remove-profile-warning"));
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui
                    .add(danger_button(ui, Icon::Delete, t!(lang, "confirm-remove")))
                    .clicked()
                {
                    self.remove
                        .start(out.ask(requests::Remove { name: name.clone() }));
                    self.confirm_remove = None;
                }
                if ui.button(t!(lang, "cancel")).clicked() {
                    self.confirm_remove = None;
                }
            });
        });
        if modal.should_close() {
            self.confirm_remove = None;
        }
    }
}

fn appearance_ui(ui: &mut egui::Ui, prefs: &mut crate::ui::Prefs) {
    let lang = prefs.lang;
    ui.horizontal(|ui| {
        ui.label(t!(lang, "language"));
        for choice in [Lang::Zh, Lang::En] {
            ui.selectable_value(&mut prefs.lang, choice, choice.name());
        }
    });
    ui.horizontal(|ui| {
        ui.label(t!(lang, "theme"));
        let before = prefs.theme;
        ui.selectable_value(
            &mut prefs.theme,
            ThemeChoice::System,
            t!(lang, "theme-system"),
        );
        ui.selectable_value(&mut prefs.theme, ThemeChoice::Light, t!(lang, "light"));
        ui.selectable_value(&mut prefs.theme, ThemeChoice::Dark, t!(lang, "dark"));
        if before != prefs.theme {
            theme::choose(ui.ctx(), prefs.theme);
        }
    });
    let notify = t!(lang, "desktop-notifications");
    ui.checkbox(&mut prefs.desktop_notifications, notify);
}
