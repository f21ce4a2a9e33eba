//! The start page: where the console's calls go (the active profile and its state), what the
//! Sandbox holds, with one click to each, and what to try first.

use egui::RichText;

use crate::core::sandbox::demo;
use crate::core::{CoreState, Endpoint, SandboxState};
use crate::ui::kit::form::{PRODUCTION_COLOUR, profile_name};
use crate::ui::text::i18n::{Lang, Text, labelled, t, tr};

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
}

pub fn start_ui(ui: &mut egui::Ui, lang: Lang, state: &CoreState) -> Option<StartAction> {
    let mut action = None;
    egui::ScrollArea::vertical()
        .id_salt("start")
        .show(ui, |ui| {
            profile_card_ui(ui, lang, state, &mut action);
            ui.add_space(12.0);
            if state.profiles.active().is_sandbox() {
                demo_ui(ui, lang, &mut action);
            } else {
                ui.label(t(lang, Text::StartRemoteHelp));
                if ui.button(t(lang, Text::Settings)).clicked() {
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
    egui::Frame::group(ui.style()).show(ui, |ui| {
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
                ui.label(t(lang, Text::StartSandboxHelp));
                let text = match &state.sandbox {
                    SandboxState::Starting => t(lang, Text::SandboxStarting).to_owned(),
                    SandboxState::Ready { base_url } => {
                        format!("{} · {base_url}", t(lang, Text::SandboxReady))
                    }
                    SandboxState::Failed(why) => labelled(lang, t(lang, Text::SandboxFailed), why),
                };
                ui.label(RichText::new(text).weak());
            }
            Endpoint::Remote { base_url, .. } => {
                let mut text = RichText::new(base_url).monospace();
                if profile.production {
                    ui.colored_label(PRODUCTION_COLOUR, t(lang, Text::StartProductionHelp));
                    text = text.color(PRODUCTION_COLOUR);
                }
                ui.label(text);
            }
        }
        if ui.link(t(lang, Text::StartOtherProfiles)).clicked() {
            *action = Some(StartAction::Settings);
        }
    });
}

/// The demo data, a line each, with the click that shows it.
fn demo_ui(ui: &mut egui::Ui, lang: Lang, action: &mut Option<StartAction>) {
    ui.label(
        RichText::new(t(lang, Text::StartDemoTitle))
            .strong()
            .size(16.0),
    );
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
            Text::StartQueryIt,
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
            Text::StartListThem,
            StartAction::ListDemoAssets,
        ),
        (
            tr!(lang, "start-demo-order"),
            Text::StartCompose,
            StartAction::Compose,
        ),
        (
            tr!(
                lang,
                "start-demo-activity",
                label = demo::ACTIVITY,
                mobile = demo::MOBILE
            ),
            Text::StartClaim,
            StartAction::FillDemoClaim,
        ),
    ];
    // The button first, then the words wrapped beside it: a long sentence never pushes a
    // button out of the window.
    for (n, (words, button, what)) in steps.into_iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{}.", n + 1)).strong());
            if ui.button(t(lang, button)).clicked() {
                *action = Some(what);
            }
            ui.add(egui::Label::new(words).wrap());
        });
        ui.add_space(6.0);
    }
}
