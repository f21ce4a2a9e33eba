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
    /// No answer: connection refused or reset, DNS, TLS.
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
}

impl ApiError {
    /// Whether the same call may succeed if sent again: a system exception or no answer.
    /// A validation failure (13004) never will.
    pub fn retry_makes_sense(&self) -> bool {
        match self {
            Self::Platform { code, .. } => code == "500" || code == "1002",
            Self::Transport(_) | Self::Timeout(_) => true,
            Self::Unexpected { http_status, .. } => *http_status >= 500,
            Self::Config(_) | Self::Untrusted(_) | Self::CaFile { .. } => false,
        }
    }

    /// The platform's code, if it answered with one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Self::Platform { code, .. } => Some(code),
            _ => None,
        }
    }

    pub(crate) fn transport(e: &reqwest::Error, timeout_secs: u64) -> Self {
        if e.is_timeout() {
            Self::Timeout(timeout_secs)
        } else if let Some(why) = super::trust::untrusted_cause(e) {
            Self::Untrusted(why)
        } else {
            // The chain names the cause (refused, reset) without the URL's query string.
            Self::Transport(chain(e))
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
