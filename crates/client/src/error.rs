//! What can go wrong with a call, keeping the platform's words verbatim.

use std::fmt;

/// A failed call. `Platform` keeps the platform's `code`, `message` and `cause` exactly as sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The platform answered with a failure: order group 13004/500 (HTTP 299), 401/403/404/405,
    /// activity group 1001/1002, or a token endpoint error.
    #[error("{code}: {message}")]
    Platform {
        http_status: u16,
        code: String,
        message: String,
        cause: Option<String>,
    },
    /// Nothing left the machine: no connection could be made (refused, DNS, a connect time-out);
    /// or a team server says it sent nothing.
    #[error("not sent: {0}")]
    NotSent(String),
    /// The connection broke after the request may have been written: reset, closed, an answer
    /// cut off.
    #[error("no answer from the platform: {0}")]
    Transport(String),
    /// The server's certificate was refused: signed by no CA the profile trusts, for another
    /// name, expired. The verifier's words.
    #[error("the server's certificate is not trusted: {0}")]
    Untrusted(String),
    /// The profile's CA file cannot be read or holds no usable certificate.
    #[error("cannot use the CA file {path}: {detail}")]
    CaFile { path: String, detail: String },
    /// No answer within the call's time limit.
    #[error("no answer within {0} s")]
    Timeout(u64),
    /// An answer that is not the interface's shape.
    #[error("unexpected answer (HTTP {http_status}): {detail}")]
    Unexpected { http_status: u16, detail: String },
    /// The profile is not usable as configured (bad URL, missing secret).
    #[error("{0}")]
    Config(String),
    /// A write whose ledger row could not be kept: it was not sent (a write leaves only once
    /// it is recorded).
    #[error("not sent: the call could not be recorded before sending it: {0}")]
    NotRecorded(String),
    /// A team server's call with no session (never signed in, or it ended): nothing was sent.
    #[error("not sent: no session with the team server ({0})")]
    SignedOut(String),
    /// A team server kept the call for another person to approve (HTTP 202, cause
    /// `request:R-17`): nothing reached the platform yet.
    #[error("{}", held_words(request_id, message))]
    Held { request_id: String, message: String },
    /// The user cancelled the call before its answer came.
    #[error("cancelled by the user")]
    Cancelled,
    /// A write that may have reached the platform, with no answer to say what it did: the
    /// ledger keeps it under `call_id` until the user resolves it.
    #[error("sent, outcome unknown: {what} (call {call_id}): {detail}")]
    OutcomeUnknown {
        call_id: String,
        operation: super::Operation,
        /// What the platform may have done, in plain words (`may have created 3 license orders`).
        what: String,
        detail: String,
    },
}

/// Whether a failed attempt can have reached the platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Provably not: nothing left the machine.
    No,
    /// It may have: the connection broke, or the answer was lost or not the interface's.
    Maybe,
    /// The platform answered (with a refusal).
    Answered,
}

impl ApiError {
    /// Whether the same call may succeed if sent again: a system exception or no answer.
    /// A validation failure (13004) never will.
    pub fn retry_makes_sense(&self) -> bool {
        match self {
            Self::Platform { code, .. } => code == "500" || code == "1002",
            Self::NotSent(_) | Self::Transport(_) | Self::Timeout(_) => true,
            Self::Unexpected { http_status, .. } => *http_status >= 500,
            Self::Config(_)
            | Self::NotRecorded(_)
            | Self::Untrusted(_)
            | Self::CaFile { .. }
            | Self::SignedOut(_)
            | Self::Held { .. } => false,
            Self::OutcomeUnknown { .. } | Self::Cancelled => false,
        }
    }

    /// The kind of failure, as the journal keeps it (`not_sent`, `broken`, `timeout`, …): what
    /// the window explains an entry by.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Platform { .. } => "platform",
            Self::NotSent(_) => "not_sent",
            Self::Transport(_) => "broken",
            Self::Untrusted(_) => "untrusted",
            Self::CaFile { .. } => "ca_file",
            Self::Timeout(_) => "timeout",
            Self::Unexpected { .. } => "unexpected",
            Self::Config(_) => "config",
            Self::NotRecorded(_) => "not_recorded",
            Self::SignedOut(_) => "signed_out",
            Self::Held { .. } => "held",
            Self::OutcomeUnknown { .. } => "outcome_unknown",
            Self::Cancelled => "cancelled",
        }
    }

    /// Whether the attempt that failed so can have reached the platform.
    pub fn reach(&self) -> Reach {
        match self {
            Self::NotSent(_)
            | Self::Untrusted(_)
            | Self::CaFile { .. }
            | Self::Config(_)
            | Self::NotRecorded(_)
            | Self::SignedOut(_)
            | Self::Held { .. } => Reach::No,
            Self::Platform { .. } => Reach::Answered,
            Self::Transport(_)
            | Self::Timeout(_)
            | Self::Unexpected { .. }
            | Self::OutcomeUnknown { .. }
            | Self::Cancelled => Reach::Maybe,
        }
    }

    /// A team server's session is missing or ended: the person must sign in again. (A
    /// platform's own 401 carries no such cause.)
    pub fn session_ended(&self) -> bool {
        match self {
            Self::SignedOut(_) => true,
            Self::Platform {
                http_status: 401,
                cause,
                ..
            } => cause.as_deref() == Some(wire::team::SESSION_CAUSE),
            _ => false,
        }
    }

    /// A team server refused to sign the person in, or asked them to try again later (429
    /// after too many attempts, 503 while busy).
    pub fn sign_in_refused(&self) -> bool {
        matches!(self, Self::Platform { http_status: 401 | 429 | 503, cause: Some(c), .. } if c == wire::team::SIGN_IN_CAUSE)
    }

    /// The permission a team server refused the call for, if that is why.
    pub fn missing_permission(&self) -> Option<wire::team::Permission> {
        match self {
            Self::Platform {
                http_status: 403,
                cause: Some(cause),
                ..
            } => wire::team::Permission::from_cause(cause),
            _ => None,
        }
    }

    /// A "not sent" a team server said (the platform behind it could not be reached, or the
    /// call could not be recorded first), not this machine's own.
    pub fn sent_nothing_said_by_team(&self) -> bool {
        matches!(self, Self::NotSent(why) if why.starts_with(super::team::TEAM_SAYS))
    }

    /// The branch holding what a team server refused the call for, if that is why.
    pub fn other_branch(&self) -> Option<&str> {
        match self {
            Self::Platform {
                http_status: 403,
                cause: Some(cause),
                ..
            } => cause.strip_prefix(wire::team::BRANCH_CAUSE),
            _ => None,
        }
    }

    /// A team server's own answer (its refusal or its failure), not the platform's: whether
    /// it failed on its side (`Some(true)`) or refused (`Some(false)`); `None` for anything
    /// else.
    pub fn team_failed(&self) -> Option<bool> {
        match self {
            Self::Platform {
                cause: Some(cause), ..
            } if wire::team::is_own_cause(cause) => Some(cause == wire::team::OWN_FAILURE_CAUSE),
            _ => None,
        }
    }

    /// The platform's code, if it answered with one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Self::Platform { code, .. } => Some(code),
            _ => None,
        }
    }

    /// A failure of sending a request or reading its answer. The URL is dropped first: its
    /// query holds the call's `g_nonce` and a batch's `appKey`.
    pub(crate) fn transport(e: reqwest::Error, timeout_secs: u64) -> Self {
        let e = e.without_url();
        if let Some(why) = super::trust::untrusted_cause(&e) {
            Self::Untrusted(why)
        } else if e.is_connect() {
            // No connection, so no request: a connect time-out is one too.
            Self::NotSent(format!("the platform could not be reached: {}", chain(&e)))
        } else if e.is_timeout() {
            Self::Timeout(timeout_secs)
        } else {
            Self::Transport(chain(&e))
        }
    }

    /// An answer whose status line came and whose body did not: the platform was reached.
    pub(crate) fn cut(e: reqwest::Error, status: u16, timeout_secs: u64) -> Self {
        let e = e.without_url();
        if e.is_timeout() {
            Self::Timeout(timeout_secs)
        } else {
            Self::Transport(format!(
                "the answer (HTTP {status}) was cut off: {}",
                chain(&e)
            ))
        }
    }
}

fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

/// A secret (app secret, token): never printed by `Debug` or `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Self {
        Self(s.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// A held call in words: the server's own when they name the request already (a team server
/// of ours says "held for approval as R-17: …"), else the request named before them.
fn held_words(request_id: &str, message: &str) -> String {
    match message.contains(request_id) {
        true => message.to_owned(),
        false => format!("held for approval as {request_id}: {message}"),
    }
}
