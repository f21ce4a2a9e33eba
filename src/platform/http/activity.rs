//! The activity group: always HTTP 200 but for 401/403; the outcome is in `resultCode`.

use axum::Json;
use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::admit::{Refusal, admit, json_body};
use super::order::close_connection;
use crate::platform::activities::{self, ClaimInput};
use crate::platform::auth::Caller;
use crate::platform::error::OpError;
use crate::platform::ids::now_ms;
use crate::platform::shared::AppState;
use crate::wire::activity::{BAD_PARAMETER, NO_ACTIVITY, PROCESSING};
use crate::wire::envelope::{FORBIDDEN, UNAUTHORIZED};
use crate::wire::{ActivityResponse, ClaimRequest, scopes, validate};

/// A refused activity call, in the group's envelope; `close` as for the order group.
pub struct ActivityFailure {
    refusal: Refusal,
    close: bool,
}

impl ActivityFailure {
    fn before_body(refusal: impl Into<Refusal>) -> Self {
        Self {
            refusal: refusal.into(),
            close: true,
        }
    }
}

impl From<OpError> for ActivityFailure {
    fn from(e: OpError) -> Self {
        Self {
            refusal: Refusal::Op(e),
            close: false,
        }
    }
}

impl IntoResponse for ActivityFailure {
    fn into_response(self) -> Response {
        let (status, body) = match self.refusal {
            Refusal::Unauthorized(m) => (
                StatusCode::UNAUTHORIZED,
                ActivityResponse::failure(UNAUTHORIZED, m),
            ),
            Refusal::Forbidden(m) => (
                StatusCode::FORBIDDEN,
                ActivityResponse::failure(FORBIDDEN, m),
            ),
            Refusal::Op(OpError::Invalid { message, .. }) => {
                tracing::debug!(%message, "claim refused");
                (
                    StatusCode::OK,
                    ActivityResponse::failure(BAD_PARAMETER, message),
                )
            }
            Refusal::Op(other) => {
                tracing::error!(error = %other, "claim failed");
                (
                    StatusCode::OK,
                    ActivityResponse::failure(
                        PROCESSING,
                        format!("processing exception, nothing was claimed; retry: {other}"),
                    ),
                )
            }
        };
        let mut response = (status, Json(body)).into_response();
        if self.close {
            close_connection(&mut response);
        }
        response
    }
}

/// An admitted claim: token with `auth_activity`, fresh nonce, JSON body.
pub struct ClaimCall {
    caller: Caller,
    body: ClaimRequest,
}

impl FromRequest<AppState> for ClaimCall {
    type Rejection = ActivityFailure;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        let (caller, _) = admit(state, &parts, scopes::ACTIVITY)
            .await
            .map_err(ActivityFailure::before_body)?;
        let body = json_body(&parts.headers, body)
            .await
            .map_err(ActivityFailure::before_body)?;
        Ok(Self { caller, body })
    }
}

/// `POST /activity/services/activity`
pub async fn claim(
    State(s): State<AppState>,
    call: ClaimCall,
) -> Result<Json<ActivityResponse>, ActivityFailure> {
    OpError::check(validate::claim(&call.body))?;
    let label = call
        .body
        .activity_label
        .as_deref()
        .unwrap_or_default()
        .trim();
    let Some(activity) = s.activities().get(label).cloned() else {
        return Ok(Json(ActivityResponse::failure(
            NO_ACTIVITY,
            format!(
                "activityLabel: no activity is labelled {label:?}; the administrator must create it"
            ),
        )));
    };
    let app_key = call.caller.app_key;
    let body = call.body;
    let answer = s
        .write(move |tx, _| {
            let field = |v: &Option<String>| v.as_deref().unwrap_or_default().trim().to_owned();
            let (identity, source, branch) = (
                field(&body.identity),
                field(&body.source),
                field(&body.branch),
            );
            activities::claim(
                tx,
                &activity,
                &ClaimInput {
                    identity: &identity,
                    source: &source,
                    branch: &branch,
                    app_key: &app_key,
                },
                now_ms(),
            )
        })
        .await?;
    Ok(Json(answer))
}
