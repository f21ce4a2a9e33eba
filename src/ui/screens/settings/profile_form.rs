//! The Settings screen's profile form: a profile as it is typed (a platform's address and app
//! key and secret, or a team server's address and person and the password once), checked
//! and saved through the core.

use egui::RichText;

use crate::core::profiles;
use crate::core::wire::validate::{FieldPath, Problem, ProblemKind};
use crate::core::{Awaited, CallLimits, Endpoint, Profile, Profiles, Secret};
use crate::ui::kit::ca_file::CaFileField;
use crate::ui::kit::form::{Field, field_ui, field_with_ui, grid_ui, submit_button_ui};
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Label, Lang, label, t, tr};

/// A profile as it is being typed.
#[derive(Default)]
pub(super) struct ProfileForm {
    /// The name it had (None: a new profile).
    pub(super) previous: Option<String>,
    pub(super) sandbox: bool,
    /// A team server's profile: its address is `base_url`, the person `user`, and `secret`
    /// their password (a new profile signs in once saved).
    pub(super) team: bool,
    pub(super) user: String,
    pub(super) name: String,
    pub(super) base_url: String,
    pub(super) token_url: String,
    pub(super) app_key: String,
    /// Sent once to the keyring, then cleared. Empty when editing: the stored one is kept.
    pub(super) secret: String,
    pub(super) operator: String,
    pub(super) production: bool,
    /// The profile keeps a catalog of its own.
    pub(super) own_catalog: bool,
    pub(super) repeats_recognised: bool,
    /// Time limits and retries.
    pub(super) limits: CallLimits,
    pub(super) insecure_http: bool,
    pub(super) ca_file: CaFileField,
    pub(super) problems: Vec<Problem>,
    pub(super) call: Awaited<Profiles>,
    /// A new team profile whose first sign-in was refused: it was not kept, and this says so.
    pub(super) not_kept: bool,
}

impl ProfileForm {
    pub(super) fn for_profile(p: &Profile) -> Self {
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

    pub(super) fn profile(&self) -> Profile {
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
    pub(super) fn check(&self) -> Vec<Problem> {
        let mut problems = self.profile().problems();
        if self.previous.is_none() && self.secret.is_empty() && !self.sandbox {
            let field = if self.team { "password" } else { "appSecret" };
            problems.push(Problem::new(FieldPath::field(field), ProblemKind::Required));
        }
        problems
    }
}

/// The add/edit form; true when the user cancels it.
pub(super) fn profile_form_ui(
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
    if form.not_kept {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            t!(lang, "team-profile-not-kept"),
        );
    }
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
    ui.add_space(6.0);
    let done = form_buttons_ui(ui, out, lang, form);
    // Under the buttons, so that its coming as an address is typed moves nothing above.
    if !form.sandbox && form.profile().plain_http_remote() {
        // Refused unless allowed here: the secret and the tokens would cross the network in
        // clear (a platform behind a proxy on this machine is plain HTTP on loopback, allowed).
        ui.colored_label(
            ui.visuals().warn_fg_color,
            t!(lang, "production-without-tls"),
        );
        ui.checkbox(&mut form.insecure_http, tr!(lang, "profile-insecure-http"));
    }
    done
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
        let rows: [(Label, &mut u32, u32, u32); 4] = [
            (label!("limit-connect"), &mut limits.connect_secs, 1, 300),
            (label!("limit-attempt"), &mut limits.attempt_secs, 1, 3600),
            (
                label!("limit-batch-attempt"),
                &mut limits.batch_attempt_secs,
                1,
                3600,
            ),
            (label!("limit-retries"), &mut limits.retries, 0, 10),
        ];
        for (id, value, low, high) in rows {
            let label = ui.label(id.text(lang));
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
        if submit_button_ui(ui, Icon::Save, t!(lang, "save"), form.call.is_waiting()) {
            let profile = form.profile();
            form.problems = form.check();
            if form.problems.is_empty() {
                // Kept in the form until the save succeeds, so a refusal loses nothing.
                // A team profile's password is no app secret: it signs in once saved.
                let secret =
                    Some(Secret::new(form.secret.clone())).filter(|s| !s.is_empty() && !form.team);
                form.call.start(out.ask(profiles::requests::Save {
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
