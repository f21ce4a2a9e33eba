//! A team server's session in the window (docs/team.md, "The console"): who is signed in and
//! their role in the top bar, and the sign-in dialog. The dialog opens by itself when the
//! active profile's session is found missing or ended, over whatever the person was doing,
//! which stays as it was.

use std::collections::HashSet;

use egui::RichText;

use crate::core::team::{self, Me, Session};
use crate::core::{Awaited, CoreState, Endpoint, Secret};
use crate::ui::kit::card::section_ui;
use crate::ui::kit::form::{profile_name, submit_button_ui};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::permits::role_name;
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, t, tr};

#[derive(Default)]
pub struct SessionBar {
    dialog: Option<SignIn>,
    /// Profiles whose person was asked for (`Me`) in this window: once each.
    asked: HashSet<String>,
    me: Awaited<Me>,
    sign_out: Awaited<()>,
    /// The active profile's session as last drawn: the dialog opens when it becomes signed out.
    seen: Option<(String, Session)>,
}

struct SignIn {
    profile: String,
    user: String,
    password: String,
    call: Awaited<Me>,
    /// The password field has had the keyboard focus once (so the person types at once).
    focused: bool,
}

impl SessionBar {
    /// Takes the replies that have come (the quiet "who am I" asked at start is not said:
    /// what it finds shows in the top bar).
    pub fn poll(&mut self, out: &Outbox<'_>) {
        // What it finds is in the core's state; an ended session shows as signed out there.
        self.me.take();
        out.reply(&mut self.sign_out, label!("team-sign-out"));
        let Some(dialog) = self.dialog.as_mut() else {
            return;
        };
        match out.reply(&mut dialog.call, label!("sign-in-button")) {
            Some(Ok(_)) => self.dialog = None,
            // Typed again; the refusal is said by the toast beside the dialog.
            Some(Err(_)) => {
                dialog.password.clear();
                dialog.focused = false;
            }
            None => {}
        }
    }

    /// Asks once who is signed in to the active team profile, and opens the dialog when its
    /// session is found ended.
    pub fn tick(&mut self, out: &Outbox<'_>, state: &CoreState) {
        let profile = state.profiles.active();
        let Endpoint::Team { user, .. } = &profile.endpoint else {
            return;
        };
        let session = state.sessions.get(&profile.name);
        if session.is_none() && self.asked.insert(profile.name.clone()) {
            self.me.start(out.ask(team::WhoAmI {
                profile: profile.name.clone(),
            }));
        }
        let now = session.map(|s| (profile.name.clone(), s.clone()));
        if now != self.seen {
            if matches!(&now, Some((_, Session::SignedOut))) && self.dialog.is_none() {
                self.open(&profile.name, user);
            }
            self.seen = now;
        }
    }

    fn open(&mut self, profile: &str, user: &str) {
        self.dialog = Some(SignIn {
            profile: profile.to_owned(),
            user: user.to_owned(),
            password: String::new(),
            call: Awaited::default(),
            focused: false,
        });
    }

    /// The person and role of the active team profile, or the way to sign in.
    pub fn top_bar_ui(
        &mut self,
        ui: &mut egui::Ui,
        out: &Outbox<'_>,
        lang: Lang,
        state: &CoreState,
    ) {
        let profile = state.profiles.active();
        let Endpoint::Team { user, .. } = &profile.endpoint else {
            return;
        };
        ui.separator();
        match state.sessions.get(&profile.name).and_then(Session::me) {
            Some(me) => {
                let shown = match me.person.display_name.trim() {
                    "" => me.person.name.as_str(),
                    display => display,
                };
                let role = role_name(lang, &me.person.role);
                ui.label(
                    RichText::new(tr!(lang, "team-signed-in", person = shown, role = role))
                        .strong(),
                );
                if ui.small_button(t!(lang, "team-sign-out")).clicked() {
                    self.sign_out.start(out.ask(team::SignOut {
                        profile: profile.name.clone(),
                    }));
                }
            }
            None => {
                ui.label(RichText::new(t!(lang, "team-signed-out")).weak());
                if ui.button(t!(lang, "team-sign-in")).clicked() {
                    self.open(&profile.name, user);
                }
            }
        }
    }

    /// The sign-in dialog, while it is open.
    pub fn dialog_ui(
        &mut self,
        ctx: &egui::Context,
        out: &Outbox<'_>,
        lang: Lang,
        state: &CoreState,
    ) {
        let Some(dialog) = &mut self.dialog else {
            return;
        };
        let Some(profile) = state.profiles.get(&dialog.profile) else {
            self.dialog = None;
            return;
        };
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("team_sign_in")).show(ctx, |ui| {
            ui.set_max_width(420.0);
            let title = tr!(lang, "sign-in-title", profile = profile_name(lang, profile));
            section_ui(ui, &title);
            ui.label(tr!(lang, "sign-in-help", user = dialog.user.as_str()));
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                let label = ui.label(t!(lang, "team-password"));
                let field = egui::TextEdit::singleline(&mut dialog.password)
                    .password(true)
                    .desired_width(240.0);
                let field = ui.add(field).labelled_by(label.id);
                if !std::mem::replace(&mut dialog.focused, true) {
                    field.request_focus();
                }
                crate::ui::kit::form::note_enter(ui, &field);
            });
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                let busy = dialog.call.is_waiting();
                if submit_button_ui(ui, Icon::SignIn, t!(lang, "sign-in-button"), busy)
                    && !dialog.password.is_empty()
                {
                    dialog.call.start(out.ask(team::SignIn {
                        profile: dialog.profile.clone(),
                        password: Secret::new(std::mem::take(&mut dialog.password)),
                    }));
                }
                if ui.button(t!(lang, "cancel")).clicked() {
                    close = true;
                }
            });
        });
        if close || modal.should_close() {
            self.dialog = None;
        }
    }
}
