//! What the window says of the answers: the status bar (the last thing the user asked for, and
//! whether it was done, refused or failed; the active profile and where it is) and the toasts.

use egui::RichText;

use crate::core::wire::{ActivityResponse, LockResult, LockStatus};
use crate::core::{ApiError, CoreError, CoreState, Endpoint, RequestId, RunningCall, SandboxState};
use crate::ui::kit::form::{name_of_profile, profile_name};
use crate::ui::kit::theme;
use crate::ui::kit::toasts::Toasts;
use crate::ui::text::i18n::{Label, Lang, label, labelled, t, tr};
use crate::ui::text::labels::operation_label;

/// How an answered action went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Done,
    /// Answered, and refused: the platform's result code says why.
    Refused {
        code: String,
    },
    /// Some of the items were done.
    Partly {
        done: usize,
        of: usize,
    },
    Failed,
    /// Sent, and no answer says what the platform did.
    Unknown,
    /// The user stopped it before it changed anything.
    Cancelled,
    /// A team server keeps it for another person to approve, as this request.
    Held {
        request: String,
    },
}

impl Verdict {
    /// A claim answered can still be refused: its result code says.
    pub fn of_claim(answer: &ActivityResponse) -> Self {
        if answer.result_code == crate::core::wire::activity::CLAIMED {
            return Self::Done;
        }
        Self::Refused {
            code: answer.result_code.clone(),
        }
    }

    /// Locks answered can each be refused: their statuses say.
    pub fn of_locks(results: &[LockResult]) -> Self {
        let of = results.len();
        let done = results
            .iter()
            .filter(|r| r.status == LockStatus::Success)
            .count();
        match done {
            _ if done == of => Self::Done,
            0 => Self::Refused {
                code: String::new(),
            },
            _ => Self::Partly { done, of },
        }
    }

    /// How an action that failed went.
    pub fn of_error(error: &CoreError) -> Self {
        match error {
            CoreError::Api(ApiError::OutcomeUnknown { .. }) => Self::Unknown,
            CoreError::Api(ApiError::Cancelled) => Self::Cancelled,
            CoreError::Api(ApiError::Held { request_id, .. }) => Self::Held {
                request: request_id.clone(),
            },
            // The platform answered no: a refusal, called so everywhere (the toast, History).
            CoreError::Api(ApiError::Platform { code, .. }) => Self::Refused { code: code.clone() },
            _ => Self::Failed,
        }
    }
}

#[derive(Default)]
pub struct Status {
    pub toasts: Toasts,
    /// The last action the user asked for, and how it went.
    last: Option<(Label, Verdict)>,
}

/// Work the console does on its own (saving a draft as you type, listing drafts): said only
/// when it fails, so that it never pushes the user's own result out of the status bar.
fn is_background(action: Label) -> bool {
    [
        label!("save-draft"),
        label!("load-drafts"),
        label!("check-batch"),
        label!("load-history"),
        label!("load-queue"),
        label!("load-catalog"),
        label!("preview-deletes"),
    ]
    .contains(&action)
}

impl Status {
    /// An action was answered with `verdict`; `error` is the error it failed with, if it did.
    /// What became of a call; `team`: it went to a team profile.
    pub fn told(&mut self, action: Label, verdict: Verdict, error: Option<&CoreError>, team: bool) {
        if let Some(error) = error
            && !matches!(error, CoreError::Api(ApiError::Cancelled))
        {
            self.toasts.error(action, error, team);
        }
        if verdict == Verdict::Done {
            self.toasts.settled(action);
            if is_background(action) {
                return;
            }
        }
        self.last = Some((action, verdict));
    }

    /// The status bar; answers the call whose Cancel was clicked.
    pub fn ui(&self, ui: &mut egui::Ui, lang: Lang, state: &CoreState) -> Option<RequestId> {
        ui.horizontal(|ui| {
            let cancel = in_flight_ui(ui, lang, &state.calls);
            self.last_ui(ui, lang);
            ui.separator();
            profile_ui(ui, lang, state);
            cancel
        })
        .inner
    }

    fn last_ui(&self, ui: &mut egui::Ui, lang: Lang) {
        let Some((action, verdict)) = &self.last else {
            ui.label(t!(lang, "ready"));
            return;
        };
        let action = (*action).text(lang);
        let (words, bad) = match verdict {
            Verdict::Done => (t!(lang, "done").to_owned(), false),
            Verdict::Refused { code } if code.is_empty() => (t!(lang, "refused").to_owned(), true),
            Verdict::Refused { code } => (tr!(lang, "refused-code", code = code.as_str()), true),
            Verdict::Partly { done, of } => {
                let (done, of) = (*done, *of);
                (tr!(lang, "partly-done", done = done, of = of), true)
            }
            Verdict::Failed => (t!(lang, "failed").to_owned(), true),
            Verdict::Unknown => (t!(lang, "write-state-unknown").to_owned(), true),
            Verdict::Cancelled => (tr!(lang, "cancelled"), false),
            Verdict::Held { request } => (tr!(lang, "held-as", id = request.as_str()), false),
        };
        let text = format!("{action} · {words}");
        if bad {
            ui.colored_label(ui.visuals().error_fg_color, text);
        } else {
            ui.label(text);
        }
    }
}

/// The active profile, and where its calls go.
fn profile_ui(ui: &mut egui::Ui, lang: Lang, state: &CoreState) {
    let profile = state.profiles.active();
    match &profile.endpoint {
        Endpoint::Sandbox => {
            let text = match &state.sandbox {
                SandboxState::Starting => t!(lang, "sandbox-starting").to_owned(),
                SandboxState::Ready { base_url } => {
                    format!("{} · {base_url}", t!(lang, "sandbox-ready"))
                }
                SandboxState::Failed(why) => labelled(lang, t!(lang, "sandbox-failed"), why),
            };
            ui.label(text);
        }
        Endpoint::Remote { base_url: url, .. } | Endpoint::Team { url, .. } => {
            let text = format!("{} · {url}", profile_name(lang, profile));
            // The top bar says PRODUCTION; here its colour is enough.
            if profile.production {
                ui.label(RichText::new(text).color(theme::palette(ui).danger_text));
            } else {
                ui.label(text);
            }
        }
    }
}

/// The newest call still running, with its Cancel, and how many more there are.
fn in_flight_ui(ui: &mut egui::Ui, lang: Lang, calls: &[RunningCall]) -> Option<RequestId> {
    let call = calls.last()?;
    ui.spinner();
    let words = operation_label(lang, call.operation);
    let mut text = tr!(
        lang,
        "in-flight",
        operation = words,
        profile = name_of_profile(lang, &call.profile)
    );
    if calls.len() > 1 {
        text.push_str(&format!(" (+{})", calls.len() - 1));
    }
    ui.label(text);
    let clicked = ui.small_button(t!(lang, "cancel-call")).clicked();
    ui.separator();
    clicked.then_some(call.id)
}
