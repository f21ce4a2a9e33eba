//! How the server answers: in the platform's own envelopes (the order group's `code`,
//! `message`, `data`, `cause`; the activity group's `resultCode`, `resultMessage`), so that
//! the console's client, Postman and Apifox read a team server as they read a platform.
//!
//! A write whose answer was lost upstream is answered HTTP 504 with a body that is no
//! envelope (`{"outcome":"unknown",…}`): a client of the interface cannot take it for an
//! answer of the platform, and the console tells the person the outcome is unknown.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use client::ApiError;
use serde::Serialize;
use serde_json::json;
use wire::approval;
use wire::envelope::{self, OrderEnvelope};

use crate::error::TeamError;
use crate::permit::Refusal;
use crate::sessions::SessionError;

/// Why a call was not answered by the platform's success.
#[derive(Debug)]
pub enum Fail {
    /// No session, or one that ended (HTTP 401).
    Session(SessionError),
    /// A permission or a field the rules refuse.
    Refused(Refusal),
    /// The body is not the operation's shape; the field path first.
    BadBody(String),
    /// What the platform answered, or why it could not.
    Upstream(ApiError),
    /// The server's own data: a request that cannot be decided so, or its store failing.
    Team(TeamError),
}

impl std::fmt::Display for Fail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fail::Session(e) => e.fmt(f),
            Fail::Refused(r) => r.fmt(f),
            Fail::BadBody(m) => f.write_str(m),
            Fail::Upstream(e) => e.fmt(f),
            Fail::Team(e) => e.fmt(f),
        }
    }
}

impl From<TeamError> for Fail {
    fn from(e: TeamError) -> Self {
        Self::Team(e)
    }
}

impl From<SessionError> for Fail {
    fn from(e: SessionError) -> Self {
        Self::Session(e)
    }
}

impl From<Refusal> for Fail {
    fn from(e: Refusal) -> Self {
        Self::Refused(e)
    }
}

impl From<ApiError> for Fail {
    fn from(e: ApiError) -> Self {
        Self::Upstream(e)
    }
}

/// A sign-in not judged now: 429 (slowed) or 503 (busy), with `Retry-After` in seconds.
fn retry_later(e: &SessionError, seconds: u64) -> Response {
    let status = match e {
        SessionError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::TOO_MANY_REQUESTS,
    };
    let body =
        OrderEnvelope::<()>::failure(status.as_str(), e.to_string(), wire::team::SIGN_IN_CAUSE);
    (
        status,
        [(axum::http::header::RETRY_AFTER, seconds.to_string())],
        Json(body),
    )
        .into_response()
}

/// The order group's success.
pub fn order_ok<T: Serialize>(data: T) -> Response {
    Json(OrderEnvelope::success(data)).into_response()
}

/// The order group's success without data (operation 4).
pub fn order_done() -> Response {
    Json(OrderEnvelope::done()).into_response()
}

impl Fail {
    /// In the order group's envelope.
    pub fn order(self) -> Response {
        let business = status(envelope::BUSINESS_EXCEPTION_STATUS);
        let (status, code, message, cause) = match self {
            Fail::Session(SessionError::Team(e)) => return server_failure(&e.to_string()),
            Fail::Session(e @ (SessionError::Slowed(s) | SessionError::Busy(s))) => {
                return retry_later(&e, s);
            }
            Fail::Session(e @ SessionError::Directory(_)) => (
                business,
                envelope::SYSTEM,
                e.to_string(),
                "directory".to_owned(),
            ),
            Fail::Session(e @ (SessionError::Missing | SessionError::Ended)) => (
                StatusCode::UNAUTHORIZED,
                envelope::UNAUTHORIZED,
                e.to_string(),
                wire::team::SESSION_CAUSE.to_owned(),
            ),
            // A sign-in refused is not a session that ended: the console says it apart.
            Fail::Session(e) => (
                StatusCode::UNAUTHORIZED,
                envelope::UNAUTHORIZED,
                e.to_string(),
                wire::team::SIGN_IN_CAUSE.to_owned(),
            ),
            Fail::Refused(r @ (Refusal::Permission { .. } | Refusal::OtherBranch { .. })) => (
                StatusCode::FORBIDDEN,
                envelope::FORBIDDEN,
                r.to_string(),
                r.cause(),
            ),
            Fail::Refused(Refusal::Field(m)) | Fail::BadBody(m) => (
                business,
                envelope::VALIDATION,
                m,
                wire::team::OWN_REFUSAL_CAUSE.to_owned(),
            ),
            Fail::Upstream(e) => return upstream_order(e),
            Fail::Team(e) => return team_refusal(e),
        };
        (
            status,
            Json(OrderEnvelope::<()>::failure(code, message, cause)),
        )
            .into_response()
    }

    /// In the activity group's shape.
    pub fn activity(self) -> Response {
        let (status, code, message) = match self {
            Fail::Session(SessionError::Team(e)) => return server_failure(&e.to_string()),
            Fail::Session(e) => (StatusCode::UNAUTHORIZED, "401".to_owned(), e.to_string()),
            Fail::Refused(r @ (Refusal::Permission { .. } | Refusal::OtherBranch { .. })) => {
                (StatusCode::FORBIDDEN, "403".to_owned(), r.to_string())
            }
            Fail::Refused(Refusal::Field(m)) | Fail::BadBody(m) => {
                (StatusCode::OK, wire::activity::BAD_PARAMETER.to_owned(), m)
            }
            Fail::Upstream(ApiError::Platform {
                http_status: 200,
                code,
                message,
                ..
            }) => (StatusCode::OK, code, message),
            Fail::Upstream(e @ ApiError::OutcomeUnknown { .. }) => return unknown(&e),
            Fail::Team(e) => return server_failure(&e.to_string()),
            Fail::Upstream(e) => (
                StatusCode::OK,
                wire::activity::PROCESSING.to_owned(),
                not_answered(&e),
            ),
        };
        let body = json!({ "resultCode": code, "resultMessage": message });
        (status, Json(body)).into_response()
    }
}

/// A call kept for another person to approve: HTTP 202, which no platform answers.
pub fn held(id: i64) -> Response {
    let name = approval::name(id);
    let body = OrderEnvelope {
        code: wire::Code::Text(approval::HELD_STATUS.to_string()),
        message: format!(
            "held for approval as {name}: another person with the permission approve must \
             approve it before it is sent to the platform; nothing is sent yet"
        ),
        data: Some(approval::Held {
            request_id: name.clone(),
        }),
        cause: Some(format!("{}{name}", approval::HELD_CAUSE)),
    };
    (StatusCode::ACCEPTED, Json(body)).into_response()
}

/// The server refusing a request's decision, or its own store failing.
fn team_refusal(e: TeamError) -> Response {
    use crate::releases::ReleaseError;
    use approval::causes;
    let conflict = (StatusCode::CONFLICT, "409");
    let ((status, code), cause) = match &e {
        TeamError::NoSuchRequest(_) => (
            (StatusCode::NOT_FOUND, envelope::NOT_FOUND),
            causes::NOT_FOUND,
        ),
        TeamError::NoSuchDraft(_) => ((StatusCode::NOT_FOUND, envelope::NOT_FOUND), "no_draft"),
        TeamError::OwnRequest(_) => ((StatusCode::FORBIDDEN, envelope::FORBIDDEN), causes::OWN),
        TeamError::RequestChanged(_) => (conflict, causes::CHANGED),
        TeamError::RequesterDisabled(..) => (conflict, causes::REQUESTER_DISABLED),
        TeamError::RequesterLacks { .. } => (conflict, causes::REQUESTER_LACKS),
        TeamError::OtherBranch { .. } => (
            (StatusCode::FORBIDDEN, envelope::FORBIDDEN),
            causes::OTHER_BRANCH,
        ),
        TeamError::AlreadyDecided { .. } => (conflict, causes::DECIDED),
        TeamError::FiledOtherwise(_) => (conflict, causes::FILED_OTHERWISE),
        TeamError::ClaimTaken(_) => (conflict, causes::CLAIM_TAKEN),
        TeamError::Release(
            ReleaseError::NoKey
            | ReleaseError::NoSuchRelease { .. }
            | ReleaseError::NoneFor(_)
            | ReleaseError::NotDistributed,
        ) => ((StatusCode::NOT_FOUND, envelope::NOT_FOUND), "no_release"),
        TeamError::Invalid(_)
        | TeamError::NoBranch
        | TeamError::Release(ReleaseError::Version(_)) => (
            (
                status(envelope::BUSINESS_EXCEPTION_STATUS),
                envelope::VALIDATION,
            ),
            wire::team::OWN_REFUSAL_CAUSE,
        ),
        _ => return server_failure(&e.to_string()),
    };
    let body = OrderEnvelope::<()>::failure(code, e.to_string(), cause);
    (status, Json(body)).into_response()
}

/// The platform's own failure, passed on; its 401 or 403 is about the server's application,
/// not the person's session, so it is said as the server's failure.
fn upstream_order(e: ApiError) -> Response {
    match e {
        ApiError::Platform {
            http_status,
            code,
            message,
            cause,
        } if http_status != 401 && http_status != 403 => {
            let body = OrderEnvelope::<()> {
                code: wire::Code::Text(code),
                message,
                data: None,
                cause,
            };
            (status(http_status), Json(body)).into_response()
        }
        e @ ApiError::OutcomeUnknown { .. } => unknown(&e),
        e => {
            // Nothing sent is said so, in a cause the console reads: it may send it again.
            let cause = match e.reach() {
                client::Reach::No => wire::team::NOT_SENT_CAUSE,
                _ => e.kind(),
            };
            let body = OrderEnvelope::<()>::failure(envelope::SYSTEM, not_answered(&e), cause);
            (status(envelope::BUSINESS_EXCEPTION_STATUS), Json(body)).into_response()
        }
    }
}

/// Why the platform's answer is not passed on, in words.
fn not_answered(e: &ApiError) -> String {
    match e {
        ApiError::Platform { .. } => format!(
            "the platform refused the team server's application ({e}): tell the server's \
             administrator"
        ),
        e if e.reach() == client::Reach::No => {
            let why = e.to_string();
            let why = why.strip_prefix("not sent: ").unwrap_or(&why).to_owned();
            format!("not sent: {why}; nothing was done")
        }
        _ => format!("the team server's call to the platform failed: {e}"),
    }
}

/// HTTP 504 with a body that is no envelope: sent, outcome unknown.
pub(super) fn unknown(e: &ApiError) -> Response {
    let (call_id, what, detail) = match e {
        ApiError::OutcomeUnknown {
            call_id,
            what,
            detail,
            ..
        } => (call_id.as_str(), what.as_str(), detail.as_str()),
        _ => ("", "", ""),
    };
    let body = json!({
        "outcome": "unknown",
        "callId": call_id,
        "message": format!(
            "sent to the platform, outcome unknown: {what}, and no answer came back; it will \
             not be sent again by itself. Check what the platform holds before sending it again"
        ),
        "detail": detail,
    });
    (StatusCode::GATEWAY_TIMEOUT, Json(body)).into_response()
}

/// The server's own store failed.
fn server_failure(message: &str) -> Response {
    tracing::error!(error = message, "the team server's store failed");
    let body = OrderEnvelope::<()>::failure(
        envelope::SYSTEM,
        format!("the team server failed: {message}"),
        wire::team::OWN_FAILURE_CAUSE,
    );
    (status(envelope::BUSINESS_EXCEPTION_STATUS), Json(body)).into_response()
}

fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_GATEWAY)
}
