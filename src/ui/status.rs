//! What the window says of the answers: the status bar (the last thing the user asked for, and
//! whether it was done, refused or failed; the active profile and where it is) and the toasts.

use egui::RichText;

use crate::core::wire::LockStatus;
use crate::core::{
    ApiError, CommandId, CoreError, CoreState, Endpoint, Operation, Outcome, SandboxState,
};
use crate::ui::kit::form::{name_of_profile, profile_name};
use crate::ui::kit::theme;
use crate::ui::kit::toasts::Toasts;
use crate::ui::text::i18n::{Label, Lang, label, labelled, lookup, t, tr};

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
}

impl Verdict {
    /// Calls can succeed as HTTP and still be refused: a claim's result code, each lock's
    /// status.
    pub fn of(result: &Result<Outcome, CoreError>) -> Self {
        match result {
            Err(error) => Self::of_error(error),
            Ok(Outcome::Claim(answer)) if answer.result_code != crate::wire::activity::CLAIMED => {
                Self::Refused {
                    code: answer.result_code.clone(),
                }
            }
            Ok(Outcome::Locks(results)) => {
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
            Ok(_) => Self::Done,
        }
    }

    /// How an action that failed went.
    pub fn of_error(error: &CoreError) -> Self {
        match error {
            CoreError::Api(ApiError::OutcomeUnknown { .. }) => Self::Unknown,
            CoreError::Api(ApiError::Cancelled) => Self::Cancelled,
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
    /// Platform calls sent and not yet answered, oldest first.
    in_flight: Vec<(CommandId, String, Operation)>,
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
    /// An action was answered: errors get a toast, and the status bar says the outcome.
    pub fn answered(&mut self, action: Label, result: &Result<Outcome, CoreError>) {
        self.told(action, Verdict::of(result), result.as_ref().err());
    }

    /// An action was answered with `verdict`; `error` is the error it failed with, if it did.
    pub fn told(&mut self, action: Label, verdict: Verdict, error: Option<&CoreError>) {
        if let Some(error) = error
            && !matches!(error, CoreError::Api(ApiError::Cancelled))
        {
            self.toasts.error(action, error);
        }
        if verdict == Verdict::Done && is_background(action) {
            return;
        }
        self.last = Some((action, verdict));
    }

    /// Calls sent this frame: shown, with their Cancel, until answered.
    pub fn sent(&mut self, calls: Vec<(CommandId, String, Operation)>) {
        self.in_flight.extend(calls);
    }

    /// Every answer that arrives, whoever waits for it.
    pub fn arrived(&mut self, id: CommandId) {
        self.in_flight.retain(|(sent, ..)| *sent != id);
    }

    /// The status bar; answers the call whose Cancel was clicked.
    pub fn ui(&self, ui: &mut egui::Ui, lang: Lang, state: &CoreState) -> Option<CommandId> {
        ui.horizontal(|ui| {
            let cancel = self.in_flight_ui(ui, lang);
            self.last_ui(ui, lang);
            ui.separator();
            profile_ui(ui, lang, state);
            cancel
        })
        .inner
    }

    /// The newest call still running, with its Cancel, and how many more there are.
    fn in_flight_ui(&self, ui: &mut egui::Ui, lang: Lang) -> Option<CommandId> {
        let (id, profile, operation) = self.in_flight.last()?;
        ui.spinner();
        let words = lookup(lang, &format!("operation-{}", operation.name())).unwrap_or_default();
        let mut text = tr!(
            lang,
            "in-flight",
            operation = words,
            profile = name_of_profile(lang, profile)
        );
        if self.in_flight.len() > 1 {
            text.push_str(&format!(" (+{})", self.in_flight.len() - 1));
        }
        ui.label(text);
        let clicked = ui.small_button(t!(lang, "cancel-call")).clicked();
        ui.separator();
        clicked.then_some(*id)
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
