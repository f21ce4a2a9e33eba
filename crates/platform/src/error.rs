//! Why an operation failed, as the order group reports it: 13004 for anything the caller can
//! fix (with the field path), 500 for the platform's own failures.

use std::fmt::Display;

use super::sql::StoreError;
use wire::envelope::{SYSTEM, VALIDATION};
use wire::refusal::Refusal;
use wire::validate::Problem;

/// Problems listed in full in `cause`; the rest are counted. A hundred keeps the answer of a
/// batch with thousands of problems small while a person fixing a file by hand sees them all.
const PROBLEMS_IN_CAUSE: usize = 100;

#[derive(Debug, thiserror::Error)]
pub enum OpError {
    /// 13004: `message` is `path: rule`.
    #[error("{message}")]
    Invalid { message: String, cause: String },
    /// 500: the database failed; the transaction was rolled back.
    #[error("storage error: {0}")]
    Storage(#[from] StoreError),
    /// 500: anything else unexpected.
    #[error("internal error: {0}")]
    Internal(String),
    /// 500: the platform has too much of this work in hand; `0` says what and to retry.
    #[error("{0}")]
    Busy(String),
}

impl OpError {
    /// The request breaks a rule of the interface.
    pub fn invalid(path: impl Display, rule: impl Display) -> Self {
        Self::Invalid {
            message: format!("{path}: {rule}"),
            cause: "parameter validation failed".to_owned(),
        }
    }

    /// The request is well formed but the platform's state refuses it.
    pub fn refused(path: impl Display, rule: impl Display) -> Self {
        Self::Invalid {
            message: format!("{path}: {rule}"),
            cause: "refused by a business rule; nothing was written".to_owned(),
        }
    }

    /// The platform's state refuses the request for `refusal`, which the cause carries as a
    /// type; `advice` follows its words in the message (what to do about it).
    pub fn refusal(path: impl Display, refusal: Refusal, advice: &str) -> Self {
        Self::Invalid {
            message: format!("{path}: {refusal}{advice}"),
            cause: refusal.cause(),
        }
    }

    /// Ok when there is no problem; otherwise the first in `message`, all in `cause`.
    pub fn check(problems: Vec<Problem>) -> Result<(), OpError> {
        let Some(first) = problems.first() else {
            return Ok(());
        };
        let mut cause = format!(
            "parameter validation failed, {} problem{}: ",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        );
        let listed: Vec<String> = problems
            .iter()
            .take(PROBLEMS_IN_CAUSE)
            .map(Problem::to_string)
            .collect();
        cause.push_str(&listed.join("; "));
        if problems.len() > PROBLEMS_IN_CAUSE {
            cause.push_str(&format!(
                "; and {} more",
                problems.len() - PROBLEMS_IN_CAUSE
            ));
        }
        Err(Self::Invalid {
            message: first.to_string(),
            cause,
        })
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::Invalid { .. } => VALIDATION,
            Self::Storage(_) | Self::Internal(_) | Self::Busy(_) => SYSTEM,
        }
    }
}

impl From<getrandom::Error> for OpError {
    fn from(e: getrandom::Error) -> Self {
        Self::Internal(format!("no randomness: {e}"))
    }
}

impl From<serde_json::Error> for OpError {
    fn from(e: serde_json::Error) -> Self {
        Self::Internal(format!("stored JSON unreadable: {e}"))
    }
}
