//! Settings: language and theme, and the profiles: add, edit, remove, switch, test a connection.
//! An app secret is typed into a password field and goes straight to the keyring (through the
//! core); the screen forgets it once it is saved.

use egui::RichText;

use crate::core::profiles;
use crate::core::team::TeamCommand;
use crate::core::wire::validate::{FieldPath, Problem, ProblemKind};
use crate::core::{
    CallLimits, Command, CoreState, Endpoint, Event, KeyringState, Latest, Outcome, Profile,
    Secret, now_ms,
};
use crate::ui::kit::ca_file::CaFileField;
use crate::ui::kit::form::{
    Field, PRODUCTION_COLOUR, SANDBOX_COLOUR, busy_button_ui, danger_button, field_ui,
    field_with_ui, grid_ui, submit_button_ui,
};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Label, Lang, label, noted, t, tr};

/// A profile as it is being typed.
#[derive(Default)]
struct ProfileForm {
    /// The name it had (None: a new profile).
    previous: Option<String>,
    sandbox: bool,
    /// A team server's profile: its address is `base_url`, the person `user`, and `secret`
    /// their password (a new profile signs in once saved).
    team: bool,
    user: String,
    name: String,
    base_url: String,
    token_url: String,
    app_key: String,
    /// Sent once to the keyring, then cleared. Empty when editing: the stored one is kept.
    secret: String,
    operator: String,
    production: bool,
    /// The profile keeps a catalog of its own.
    own_catalog: bool,
    repeats_recognised: bool,
    /// Time limits and retries.
    limits: CallLimits,
    insecure_http: bool,
    ca_file: CaFileField,
    problems: Vec<Problem>,
    call: Latest,
}

impl ProfileForm {
    fn for_profile(p: &Profile) -> Self {
        let (base_url, token_url, app_key, ca_file) = match &p.endpoint {
            Endpoint::Sandbox => Default::default(),
            Endpoint::Team { url, user, ca_file } => (
                url.clone(),
                String::new(),
                user.clone(),
                CaFileField::new(ca_file.as_ref()),
            ),
            Endpoint::Remote {
                base_url,
                token_url,
                app_key,
                ca_file,
            } => (
                base_url.clone(),
                token_url.clone(),
                app_key.clone(),
                CaFileField::new(ca_file.as_ref()),
            ),
        };
        Self {
            previous: Some(p.name.clone()),
            sandbox: p.is_sandbox(),
            team: p.is_team(),
            user: if p.is_team() {
                app_key.clone()
            } else {
                String::new()
            },
            name: p.name.clone(),
            base_url,
            token_url,
            app_key,
            operator: p.operator_identity.clone(),
            production: p.production,
            own_catalog: p.own_catalog,
            repeats_recognised: p.repeats_recognised,
            limits: p.limits,
            insecure_http: p.insecure_http,
            ca_file,
            ..Self::default()
        }
    }

    fn profile(&self) -> Profile {
        let endpoint = if self.sandbox {
            Endpoint::Sandbox
        } else if self.team {
            Endpoint::Team {
                url: profiles::base_url_of(&self.base_url),
                user: self.user.trim().to_owned(),
                ca_file: self.ca_file.path(),
            }
        } else {
            let base_url = profiles::base_url_of(&self.base_url);
            // Left empty, the token URL is the usual one under the base address.
            let token_url = profiles::token_url_of(Some(&self.token_url), &base_url);
            Endpoint::Remote {
                base_url,
                token_url,
                app_key: self.app_key.trim().to_owned(),
                ca_file: self.ca_file.path(),
            }
        };
        Profile {
            name: self.name.trim().to_owned(),
            endpoint,
            operator_identity: self.operator.trim().to_owned(),
            production: self.production && !self.sandbox,
            own_catalog: self.own_catalog,
            repeats_recognised: (self.repeats_recognised || self.sandbox) && !self.team,
            limits: self.limits,
            insecure_http: self.insecure_http && !self.sandbox,
        }
    }
}

impl ProfileForm {
    /// What is wrong with the profile as typed; a new remote profile needs its secret, a new
    /// team profile the person's password.
    fn check(&self) -> Vec<Problem> {
        let mut problems = self.profile().problems();
        if self.previous.is_none() && self.secret.is_empty() && !self.sandbox {
            let field = if self.team { "password" } else { "appSecret" };
            problems.push(Problem::new(FieldPath::field(field), ProblemKind::Required));
        }
        problems
    }
}

struct Connected {
    profile: String,
    scope: String,
    hours_left: i64,
}

#[derive(Default)]
pub struct SettingsScreen {
    selected: Option<String>,
    form: Option<ProfileForm>,
    confirm_remove: Option<String>,
    remove: Latest,
    activate: Latest,
    test: Latest,
    testing: Option<String>,
    connected: Option<Connected>,
    /// A new team profile's first sign-in, sent on the next frame.
    sign_in: Option<(String, Secret)>,
    signing_in: Latest,
}

impl SettingsScreen {
    /// Takes the answer if it is for this screen, and names the action it answers.
    pub fn apply(&mut self, event: &Event) -> Option<Label> {
        if let Some(form) = &mut self.form
            && form.ca_file.apply(event)
        {
            return Some(label!("browse"));
        }
        if let Some(form) = &mut self.form
            && form.call.accept(event)
        {
            if event.result.is_ok() {
                // Saved: the secret is in the keyring now, not here; a team profile's person
                // signs in with the password typed, which only the session outlives.
                let name = form.profile().name;
                if form.team && !form.secret.is_empty() {
                    let password = Secret::new(std::mem::take(&mut form.secret));
                    self.sign_in = Some((name.clone(), password));
                }
                self.selected = Some(name);
                self.form = None;
            }
            return Some(label!("save-profile"));
        }
        if self.signing_in.accept(event) {
            return Some(label!("sign-in-button"));
        }
        if self.remove.accept(event) {
            if event.result.is_ok() {
                self.selected = None;
            }
            return Some(label!("remove-profile"));
        }
        if self.activate.accept(event) {
            return Some(label!("use-profile"));
        }
        if self.test.accept(event) {
            let profile = self.testing.take().unwrap_or_default();
            self.connected = match &event.result {
                Ok(Outcome::Connected {
                    scope,
                    expires_at_ms,
                }) => Some(Connected {
                    profile,
                    scope: scope.clone(),
                    hours_left: (expires_at_ms - now_ms()).max(0) / 3_600_000,
                }),
                _ => None,
            };
            return Some(label!("test-connection"));
        }
        None
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
            let command = TeamCommand::SignIn { profile, password };
            self.signing_in.start(out.send(Command::Team(command)));
        }
        appearance_ui(ui, prefs);
        ui.add_space(10.0);
        ui.label(RichText::new(t!(lang, "profiles")).strong().size(16.0));
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
        self.confirm_remove_ui(ui.ctx(), out, lang);
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
                        (Endpoint::Remote { .. }, true) => {
                            (label!("kind-production"), Some(PRODUCTION_COLOUR))
                        }
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
                    self.activate.start(out.send(Command::ActivateProfile {
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
                self.test.start(out.send(Command::TestConnection {
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
                    profile = c.profile.as_str(),
                    scope = c.scope.as_str(),
                    hours = c.hours_left
                ))
                .color(SANDBOX_COLOUR),
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
                if ui.add(danger_button(t!(lang, "confirm-remove"))).clicked() {
                    self.remove
                        .start(out.send(Command::RemoveProfile { name: name.clone() }));
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
        let before = prefs.dark;
        ui.selectable_value(&mut prefs.dark, false, t!(lang, "light"));
        ui.selectable_value(&mut prefs.dark, true, t!(lang, "dark"));
        if before != prefs.dark {
            ui.ctx().set_theme(if prefs.dark {
                egui::Theme::Dark
            } else {
                egui::Theme::Light
            });
        }
    });
}

/// The add/edit form; true when the user cancels it.
fn profile_form_ui(
    ui: &mut egui::Ui,
    out: &Outbox<'_>,
    lang: Lang,
    form: &mut ProfileForm,
) -> bool {
    let title = if form.previous.is_some() {
        label!("edit-profile")
    } else {
        label!("add-profile")
    };
    ui.label(RichText::new(title.text(lang)).strong());
    if !form.problems.is_empty() {
        form.problems = form.check();
    }
    let problems = form.problems.clone();
    grid_ui(ui, "profile_form", |ui| {
        if form.sandbox {
            ui.label(t!(lang, "profile-name"));
            ui.label(t!(lang, "sandbox"));
            ui.end_row();
        } else {
            // Chosen once, when the profile is added: an address and a person are not an
            // address and an app key.
            if form.previous.is_none() {
                kind_ui(ui, lang, form);
            }
            if form.team {
                team_fields_ui(ui, lang, form, &problems);
            } else {
                remote_fields_ui(ui, lang, form, &problems);
            }
            form.ca_file.row_ui(ui, out, lang, &problems);
        }
        if !form.team {
            // A team server names the person signed in as the operator of their lock changes.
            let operator = field(lang, label!("operator-identity"), "operatorIdentity", false);
            field_ui(ui, lang, &operator, &mut form.operator, &problems);
        }
        if !form.sandbox {
            let production = field(lang, label!("production-platform"), "production", false);
            field_with_ui(ui, lang, &production, &problems, |ui| {
                ui.checkbox(&mut form.production, t!(lang, "production-help"))
            });
            ui.label(tr!(lang, "profile-limits"));
            limits_ui(ui, lang, &mut form.limits);
            ui.end_row();
            if !form.team {
                repeats_ui(ui, lang, form);
            }
        }
        ui.label(tr!(lang, "catalog"));
        ui.checkbox(&mut form.own_catalog, tr!(lang, "profile-own-catalog"))
            .on_hover_text(tr!(lang, "profile-own-catalog-help"));
        ui.end_row();
    });
    if !form.sandbox && form.profile().plain_http_remote() {
        // Refused unless allowed here: the secret and the tokens would cross the network in
        // clear (a platform behind a proxy on this machine is plain HTTP on loopback, allowed).
        ui.colored_label(
            ui.visuals().warn_fg_color,
            t!(lang, "production-without-tls"),
        );
        ui.checkbox(&mut form.insecure_http, tr!(lang, "profile-insecure-http"));
    }
    ui.add_space(6.0);
    form_buttons_ui(ui, out, lang, form)
}

fn field(lang: Lang, label: Label, path: &str, required: bool) -> Field<'_> {
    Field {
        label: label.text(lang),
        path,
        required,
    }
}

/// Whether the new profile's calls go to a platform or through a team server.
fn kind_ui(ui: &mut egui::Ui, lang: Lang, form: &mut ProfileForm) {
    ui.label(t!(lang, "kind"));
    ui.horizontal(|ui| {
        ui.selectable_value(&mut form.team, false, t!(lang, "kind-remote"));
        ui.selectable_value(&mut form.team, true, t!(lang, "kind-team"));
    });
    ui.end_row();
}

/// Whether a batch whose answer was lost may be sent again by itself.
fn repeats_ui(ui: &mut egui::Ui, lang: Lang, form: &mut ProfileForm) {
    ui.label(tr!(lang, "profile-repeats"));
    ui.vertical(|ui| {
        ui.checkbox(
            &mut form.repeats_recognised,
            tr!(lang, "profile-repeats-check"),
        );
        ui.label(egui::RichText::new(tr!(lang, "profile-repeats-help")).weak());
    });
    ui.end_row();
}

/// Where the team server is and who signs in; the password of a new profile, asked once.
fn team_fields_ui(ui: &mut egui::Ui, lang: Lang, form: &mut ProfileForm, problems: &[Problem]) {
    let name = field(lang, label!("profile-name"), "name", true);
    field_ui(ui, lang, &name, &mut form.name, problems);
    let url = field(lang, label!("team-url"), "url", true);
    field_ui(ui, lang, &url, &mut form.base_url, problems);
    let user = field(lang, label!("team-user"), "user", true);
    field_ui(ui, lang, &user, &mut form.user, problems);
    if form.previous.is_some() {
        return;
    }
    let password = field(lang, label!("team-password"), "password", true);
    field_with_ui(ui, lang, &password, problems, |ui| {
        ui.vertical(|ui| {
            let edit = egui::TextEdit::singleline(&mut form.secret)
                .password(true)
                .desired_width(300.0);
            let response = ui.add(edit);
            ui.label(RichText::new(t!(lang, "team-password-help")).weak());
            response
        })
        .inner
    });
}

/// Where a remote platform is and the app's credentials.
fn remote_fields_ui(ui: &mut egui::Ui, lang: Lang, form: &mut ProfileForm, problems: &[Problem]) {
    let name = field(lang, label!("profile-name"), "name", true);
    field_ui(ui, lang, &name, &mut form.name, problems);
    let base_url = field(lang, label!("base-url"), "baseUrl", true);
    field_ui(ui, lang, &base_url, &mut form.base_url, problems);
    let token_url = field(lang, label!("token-url"), "tokenUrl", false);
    field_with_ui(ui, lang, &token_url, problems, |ui| {
        ui.add(
            egui::TextEdit::singleline(&mut form.token_url)
                .hint_text(profiles::usual_token_url("{base}"))
                .desired_width(300.0),
        )
    });
    let app_key = field(lang, label!("app-key"), "appKey", true);
    field_ui(ui, lang, &app_key, &mut form.app_key, problems);
    let hint = if form.previous.is_some() {
        t!(lang, "secret-keep-hint")
    } else {
        ""
    };
    let secret = field(
        lang,
        label!("app-secret"),
        "appSecret",
        form.previous.is_none(),
    );
    field_with_ui(ui, lang, &secret, problems, |ui| {
        ui.add(
            egui::TextEdit::singleline(&mut form.secret)
                .password(true)
                .hint_text(hint)
                .desired_width(300.0),
        )
    });
}

/// The profile's time limits and retries, each a number with its label.
fn limits_ui(ui: &mut egui::Ui, lang: Lang, limits: &mut CallLimits) {
    ui.horizontal_wrapped(|ui| {
        let rows: [(&str, &mut u32, u32, u32); 4] = [
            ("limit-connect", &mut limits.connect_secs, 1, 300),
            ("limit-attempt", &mut limits.attempt_secs, 1, 3600),
            (
                "limit-batch-attempt",
                &mut limits.batch_attempt_secs,
                1,
                3600,
            ),
            ("limit-retries", &mut limits.retries, 0, 10),
        ];
        for (id, value, low, high) in rows {
            let label = ui.label(crate::ui::text::i18n::lookup(lang, id).unwrap_or(id));
            ui.add(egui::DragValue::new(value).range(low..=high))
                .labelled_by(label.id);
        }
    });
}

/// Save and Cancel; true when cancelled.
fn form_buttons_ui(
    ui: &mut egui::Ui,
    out: &Outbox<'_>,
    lang: Lang,
    form: &mut ProfileForm,
) -> bool {
    let mut cancelled = false;
    ui.horizontal(|ui| {
        if submit_button_ui(ui, t!(lang, "save"), form.call.is_waiting()) {
            let profile = form.profile();
            form.problems = form.check();
            if form.problems.is_empty() {
                // Kept in the form until the save succeeds, so a refusal loses nothing.
                // A team profile's password is no app secret: it signs in once saved.
                let secret =
                    Some(Secret::new(form.secret.clone())).filter(|s| !s.is_empty() && !form.team);
                form.call.start(out.send(Command::SaveProfile {
                    previous: form.previous.clone(),
                    profile,
                    app_secret: secret,
                }));
            }
        }
        if ui.button(t!(lang, "cancel")).clicked() {
            cancelled = true;
        }
    });
    cancelled
}
