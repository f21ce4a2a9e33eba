//! The order group's response envelope: `code` is the integer 0 on success and a string on
//! failure; `data` is absent for the update operation; `cause` is present on failures.

use serde::{Deserialize, Serialize};

/// Parameter validation failure (HTTP 299).
pub const VALIDATION: &str = "13004";
/// Network or system exception, retry suggested (HTTP 299).
pub const SYSTEM: &str = "500";
/// Missing, unknown or expired token (HTTP 401). The platform's choice, see docs/platform.md.
pub const UNAUTHORIZED: &str = "401";
/// The token's application lacks the group's scope (HTTP 403).
pub const FORBIDDEN: &str = "403";
/// No such operation (HTTP 404).
pub const NOT_FOUND: &str = "404";
/// The operation exists with another method (HTTP 405).
pub const METHOD_NOT_ALLOWED: &str = "405";

/// HTTP status of an order-group business exception.
pub const BUSINESS_EXCEPTION_STATUS: u16 = 299;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum Code {
    /// An integer code: 0 is success.
    Number(i64),
    /// A string code: a failure such as "13004".
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct OrderEnvelope<T> {
    pub code: Code,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<T>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
}

impl<T> OrderEnvelope<T> {
    pub fn success(data: T) -> Self {
        Self {
            code: Code::Number(0),
            message: "success".to_owned(),
            data: Some(data),
            cause: None,
        }
    }

    pub fn failure(code: &str, message: impl Into<String>, cause: impl Into<String>) -> Self {
        Self {
            code: Code::Text(code.to_owned()),
            message: message.into(),
            data: None,
            cause: Some(cause.into()),
        }
    }

    pub fn is_success(&self) -> bool {
        self.code == Code::Number(0)
    }
}

/// The answer of the update operation: success without `data`.
pub type OrderDone = OrderEnvelope<()>;

impl OrderEnvelope<()> {
    /// Success without a `data` field, as the update operation answers.
    pub fn done() -> Self {
        Self {
            code: Code::Number(0),
            message: "success".to_owned(),
            data: None,
            cause: None,
        }
    }
}
