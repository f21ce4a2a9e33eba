//! The start page: where the console's calls go (the active profile and its state), what the
//! Sandbox holds, with one click to each, and what to try first.

use egui::RichText;

use crate::core::sandbox::demo;
use crate::core::{CoreState, Endpoint, SandboxState};
use crate::ui::kit::card::{card_ui, section_ui};
use crate::ui::kit::form::profile_name;
use crate::ui::kit::theme;
use crate::ui::text::i18n::{Lang, label, labelled, t, tr};

/// What the user asked of the start page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartAction {
    /// Customers › Query, for the demo customer, sent.
    QueryDemoCustomer,
    /// Assets, the demo enterprise listed.
    ListDemoAssets,
    /// Orders, on the draft there.
    Compose,
    /// Activities, the demo claim filled in (not sent: a claim is a write).
    FillDemoClaim,
    Settings,
    /// Renewals, on the profile's last read.
    Renewals,
}

/// The start page; `renewals` is what ends in the next 30 days by the profile's last read,
/// and when it was read.
pub fn start_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    state: &CoreState,
    renewals: Option<(usize, i64)>,
) -> Option<StartAction> {
    let mut action = None;
    egui::ScrollArea::vertical()
        .id_salt("start")
        .show(ui, |ui| {
            profile_card_ui(ui, lang, state, &mut action);
            ui.add_space(8.0);
            renewals_ui(ui, lang, renewals, &mut action);
            ui.add_space(12.0);
            if state.profiles.active().is_sandbox() {
                demo_ui(ui, lang, &mut action);
            } else if state.profiles.active().is_team() {
                ui.label(t!(lang, "start-team-next"));
            } else {
                ui.label(t!(lang, "start-remote-help"));
                if ui.button(t!(lang, "settings")).clicked() {
                    action = Some(StartAction::Settings);
                }
            }
        });
    action
}

fn profile_card_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    state: &CoreState,
    action: &mut Option<StartAction>,
) {
    let profile = state.profiles.active();
    card_ui(ui, None, |ui| {
        ui.set_width(ui.available_width().min(720.0));
        ui.label(
            RichText::new(tr!(
                lang,
                "start-working-on",
                profile = profile_name(lang, profile)
            ))
            .strong(),
        );
        match &profile.endpoint {
            Endpoint::Sandbox => {
                ui.label(t!(lang, "start-sandbox-help"));
                let text = match &state.sandbox {
                    SandboxState::Starting => t!(lang, "sandbox-starting").to_owned(),
                    SandboxState::Ready { base_url } => {
                        format!("{} · {base_url}", t!(lang, "sandbox-ready"))
                    }
                    SandboxState::Failed(why) => labelled(lang, t!(lang, "sandbox-failed"), why),
                };
                ui.label(RichText::new(text).weak());
            }
            Endpoint::Remote { base_url, .. } => {
                let mut text = RichText::new(base_url).monospace();
                if profile.production {
                    let danger = theme::palette(ui).danger_text;
                    ui.colored_label(danger, t!(lang, "start-production-help"));
                    text = text.color(danger);
                }
                ui.label(text);
            }
            Endpoint::Team { url, .. } => {
                ui.label(t!(lang, "start-team-help"));
                ui.label(RichText::new(url).monospace());
            }
        }
        if ui.link(t!(lang, "start-other-profiles")).clicked() {
            *action = Some(StartAction::Settings);
        }
    });
}

/// What ends soon across the directory, by the last read; the button to Renewals.
fn renewals_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    renewals: Option<(usize, i64)>,
    action: &mut Option<StartAction>,
) {
    ui.horizontal_wrapped(|ui| {
        if ui.button(t!(lang, "start-renewals-open")).clicked() {
            *action = Some(StartAction::Renewals);
        }
        let words = match renewals {
            Some((n, at)) => {
                let at = crate::ui::text::dates::local_time(at, crate::core::now_ms());
                tr!(lang, "start-renewals", n = n, at = at)
            }
            None => t!(lang, "start-renewals-none").to_owned(),
        };
        ui.label(words);
    });
}

/// The demo data, a line each, with the click that shows it.
fn demo_ui(ui: &mut egui::Ui, lang: Lang, action: &mut Option<StartAction>) {
    section_ui(ui, t!(lang, "start-demo-title"));
    ui.add_space(4.0);
    let steps = [
        (
            tr!(
                lang,
                "start-demo-customer",
                channel = demo::CHANNEL_CODE,
                customer = demo::CHANNEL_CUSTOMER,
                enterprise = demo::ENTERPRISE
            ),
            label!("start-query-it"),
            StartAction::QueryDemoCustomer,
        ),
        (
            tr!(
                lang,
                "start-demo-assets",
                id = demo::GLOBAL_ID,
                first = demo::FIRST_LOCK,
                last = demo::LAST_LOCK
            ),
            label!("start-list-them"),
            StartAction::ListDemoAssets,
        ),
        (
            tr!(lang, "start-demo-order"),
            label!("start-compose"),
            StartAction::Compose,
        ),
        (
            tr!(
                lang,
                "start-demo-activity",
                label = demo::ACTIVITY,
                mobile = demo::MOBILE
            ),
            label!("start-claim"),
            StartAction::FillDemoClaim,
        ),
    ];
    // The button first, then the words wrapped beside it: a long sentence never pushes a
    // button out of the window.
    for (n, (words, button, what)) in steps.into_iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{}.", n + 1)).strong());
            if ui.button(button.text(lang)).clicked() {
                *action = Some(what);
            }
            ui.add(egui::Label::new(words).wrap());
        });
        ui.add_space(6.0);
    }
}
