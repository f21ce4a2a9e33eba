//! Toasts: a failed call in a strip under the screen, with what it means in plain words beside
//! the platform's code and message verbatim. Errors stay until dismissed: they must be read. A
//! call a team server holds for approval is told there too, as news in a neutral colour.

use egui::RichText;

use crate::core::wire::{activity, envelope};
use crate::core::{ApiError, CoreError};
use crate::ui::text::i18n::{Label, Lang, label, t, tr};
use crate::ui::text::refusals::{Offer, recognise};

/// At most this many toasts are kept; older ones give way.
const MAX_TOASTS: usize = 4;

struct Toast {
    id: u64,
    action: Label,
    explanation: Label,
    /// The platform's code and message exactly as sent, or the error as the core tells it.
    verbatim: String,
    cause: Option<String>,
    /// The platform's code and message apart, to recognise the refusal.
    refusal: Option<(String, String)>,
    /// The request a team server keeps the call as: news, not a failure.
    held: Option<String>,
}

#[derive(Default)]
pub struct Toasts {
    items: Vec<Toast>,
    next_id: u64,
}

impl Toasts {
    /// `action` was done since: its earlier failures no longer stand.
    pub fn settled(&mut self, action: Label) {
        self.items.retain(|toast| toast.action != action);
    }

    /// A call's error; `team`: it went to a team profile, whose server is what was not reached
    /// when nothing was sent.
    pub fn error(&mut self, action: Label, error: &CoreError, team: bool) {
        let (verbatim, cause, refusal) = match error {
            CoreError::Api(ApiError::Platform {
                code,
                message,
                cause,
                ..
            }) => (
                format!("{code}: {message}"),
                cause.clone(),
                Some((code.clone(), message.clone())),
            ),
            other => (other.to_string(), None, None),
        };
        let held = match error {
            CoreError::Api(ApiError::Held { request_id, .. }) => Some(request_id.clone()),
            _ => None,
        };
        // The same request answered again is one piece of news.
        if held.is_some() {
            self.items.retain(|t| t.action != action || t.held != held);
        }
        self.next_id += 1;
        self.items.push(Toast {
            id: self.next_id,
            action,
            explanation: match error {
                CoreError::Api(ApiError::NotSent(_)) if team && !error_said_by_team(error) => {
                    label!("explain-team-unreachable")
                }
                _ => explain(error),
            },
            verbatim,
            cause,
            refusal,
            held,
        });
        if self.items.len() > MAX_TOASTS {
            self.items.remove(0);
        }
    }

    /// The toasts, in a strip under the screen (drawn before the central panel): the screen
    /// ends above them, so they never cover a field. What the user accepted of an offer in one,
    /// if anything.
    pub fn ui(&mut self, ui: &mut egui::Ui, lang: Lang) -> Option<Offer> {
        if self.items.is_empty() {
            return None;
        }
        let mut dismissed = None;
        let mut accepted = None;
        // The screen keeps most of a short window; more toasts than fit scroll.
        let most = (ui.available_height() * 0.35).max(120.0);
        egui::Panel::bottom("toasts")
            .resizable(false)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(most)
                    // The strip grows with its toasts up to `most` (else it keeps last frame's size).
                    .min_scrolled_height(most)
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for toast in &self.items {
                            let (gone, offer) = toast_ui(ui, lang, toast);
                            if gone {
                                dismissed = Some(toast.id);
                            }
                            if offer.is_some() {
                                accepted = offer;
                            }
                        }
                    });
            });
        if let Some(id) = dismissed {
            self.items.retain(|toast| toast.id != id);
        }
        accepted
    }
}

/// One toast, in three short lines so that the screen keeps its room: its title with the
/// offer and Dismiss, what it means, and the platform's words. Whether it was dismissed, and the
/// offer taken (which dismisses it too).
fn toast_ui(ui: &mut egui::Ui, lang: Lang, toast: &Toast) -> (bool, Option<Offer>) {
    let mut dismissed = false;
    let mut accepted = None;
    let recognised = toast.refusal.as_ref().and_then(|(code, message)| {
        recognise(lang, toast.action, code, message, toast.cause.as_deref())
    });
    let (words, offer) = match recognised {
        Some(r) => (r.words, r.offer),
        None => (
            toast.explanation.text(lang).to_owned(),
            toast.held.clone().map(Offer::OpenRequest),
        ),
    };
    // A held call is news: drawn in the accent colour, never the error's.
    let colour = match toast.held {
        Some(_) => ui.visuals().selection.stroke.color,
        None => ui.visuals().error_fg_color,
    };
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.5, colour))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(RichText::new(title(lang, toast)).strong().color(colour));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    dismissed = ui.small_button(t!(lang, "dismiss")).clicked();
                    if let Some(offer) = offer
                        && ui.small_button(offer_words(lang, &offer)).clicked()
                    {
                        accepted = Some(offer);
                        dismissed = true;
                    }
                });
            });
            ui.label(words);
            verbatim_ui(ui, lang, toast);
        });
    ui.add_space(4.0);
    (dismissed, accepted)
}

/// The toast's title: its action, and whether it was refused, failed, or has no known outcome.
fn title(lang: Lang, toast: &Toast) -> String {
    let action = toast.action.text(lang);
    // Sent with no answer, or held for approval, is not a failure: the title says so.
    if let Some(id) = &toast.held {
        tr!(lang, "action-held", action = action, id = id.as_str())
    } else if toast.explanation == label!("explain-outcome-unknown") {
        tr!(lang, "action-unknown", action = action)
    } else if toast.refusal.is_some() {
        tr!(lang, "action-refused", action = action)
    } else {
        tr!(lang, "action-failed", action = action)
    }
}

/// The error as the platform (or the system) said it, word for word, under a caption that
/// says so: it is not translated.
fn verbatim_ui(ui: &mut egui::Ui, lang: Lang, toast: &Toast) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr!(lang, "verbatim-caption")).weak());
        ui.label(RichText::new(&toast.verbatim).monospace());
    });
    if let Some(cause) = &toast.cause {
        ui.label(RichText::new(cause).monospace().weak());
    }
}

fn offer_words(lang: Lang, offer: &Offer) -> String {
    match offer {
        Offer::GoToField(_) => tr!(lang, "go-to-field"),
        Offer::UpdateEnterprise => tr!(lang, "open-update-enterprise"),
        Offer::OpenRequest(id) => tr!(lang, "open-request", id = id.as_str()),
    }
}

/// A call that was not sent, said of its profile: the profile unreachable, or its team server
/// saying it could not send it on.
pub fn unsent_words(lang: Lang, profile: &str, by_team: bool) -> String {
    match by_team {
        true => tr!(lang, "unsent-by-team", profile = profile),
        false => tr!(lang, "unsent-call", profile = profile),
    }
}

fn error_said_by_team(error: &CoreError) -> bool {
    matches!(error, CoreError::Api(e) if e.sent_nothing_said_by_team())
}

/// What an error means for the user, and what to do about it.
pub fn explain(error: &CoreError) -> Label {
    match error {
        CoreError::Api(e) if e.session_ended() => label!("explain-signed-out"),
        CoreError::Api(e) if e.sign_in_refused() => label!("explain-sign-in"),
        CoreError::Api(e) if e.missing_permission().is_some() => label!("explain-permission"),
        CoreError::Api(e) if e.other_branch().is_some() => label!("explain-other-branch"),
        CoreError::Api(ApiError::SignedOut(_)) => label!("explain-signed-out"),
        CoreError::Api(e) if e.team_failed() == Some(true) => label!("explain-team-failed"),
        CoreError::Api(e) if e.team_failed() == Some(false) => label!("explain-team-refused"),
        CoreError::Api(ApiError::Platform { code, .. }) => explain_code(code),
        CoreError::Api(e) if e.sent_nothing_said_by_team() => label!("explain-team-not-sent"),
        CoreError::Api(ApiError::NotSent(_)) => label!("explain-unreachable"),
        CoreError::Api(ApiError::Transport(_)) => label!("explain-broken"),
        CoreError::Api(ApiError::OutcomeUnknown { .. }) => label!("explain-outcome-unknown"),
        CoreError::Api(ApiError::Cancelled) => label!("explain-cancelled"),
        CoreError::Api(ApiError::Held { .. }) => label!("explain-held"),
        CoreError::Api(ApiError::Timeout(_)) | CoreError::GaveUp(_) => label!("explain-timeout"),
        CoreError::Api(ApiError::Unexpected { .. }) => label!("explain-unexpected"),
        CoreError::Api(ApiError::Untrusted(_)) => label!("explain-untrusted"),
        CoreError::Api(ApiError::CaFile { .. }) => label!("explain-ca-file"),
        CoreError::Profiles(e) if e.is_file() => label!("explain-storage"),
        CoreError::Api(ApiError::Config(_)) | CoreError::Profiles(_) => label!("explain-profile"),
        CoreError::NoSecret(_) => label!("explain-no-secret"),
        CoreError::Drafts(_)
        | CoreError::Catalog(_)
        | CoreError::Queue(_)
        | CoreError::Journal(_)
        | CoreError::Cache(_)
        | CoreError::Api(ApiError::NotRecorded(_)) => label!("explain-storage"),
        CoreError::File(_) => label!("explain-file"),
        CoreError::Sandbox(_) => label!("explain-sandbox"),
        CoreError::Stopped | CoreError::Threads(_) | CoreError::Task(_) => {
            label!("explain-stopped")
        }
        CoreError::Customer(_) => label!("explain-customer"),
        CoreError::Desktop(_) => label!("explain-desktop"),
        CoreError::Update(_) => label!("explain-update"),
        CoreError::Backup(_) => label!("explain-backup"),
    }
}

/// What a platform's code means for the user.
pub fn explain_code(code: &str) -> Label {
    match code {
        envelope::VALIDATION | activity::BAD_PARAMETER => label!("explain-invalid"),
        envelope::UNAUTHORIZED => label!("explain-unauthorized"),
        envelope::FORBIDDEN => label!("explain-forbidden"),
        envelope::NOT_FOUND | envelope::METHOD_NOT_ALLOWED => label!("explain-not-found"),
        envelope::SYSTEM | activity::PROCESSING => label!("explain-platform-failed"),
        _ => label!("explain-refused"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(cause: &str) -> CoreError {
        CoreError::Api(ApiError::Platform {
            http_status: 403,
            code: "403".to_owned(),
            message: "refused".to_owned(),
            cause: Some(cause.to_owned()),
        })
    }

    #[test]
    fn a_team_server_s_refusals_are_said_apart() {
        let said = |cause| explain(&refused(cause)).text(Lang::En);
        assert!(said("permission:locks").starts_with("Your role on the team server"));
        assert!(said("branch:上海").starts_with("This customer, enterprise or lock belongs"));
        assert!(said("refused by the team server").starts_with("The team server refused this"));
        assert!(said("claim_taken").starts_with("The team server refused this"));
        assert!(said("team server").starts_with("The team server failed on its side"));
        let team_said = CoreError::Api(ApiError::NotSent(
            "the team server says: the platform could not be reached: refused".to_owned(),
        ));
        let here = CoreError::Api(ApiError::NotSent("refused".to_owned()));
        assert!(
            explain(&team_said)
                .text(Lang::En)
                .starts_with("The team server")
        );
        assert!(
            explain(&here)
                .text(Lang::En)
                .starts_with("The platform could not be reached")
        );
    }
}
