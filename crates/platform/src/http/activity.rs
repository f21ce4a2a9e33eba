//! The activity group: always HTTP 200 but for 401/403; the outcome is in `resultCode`.

use std::time::Instant;

use axum::Json;
use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::admit::{Admission, JsonBody, Refusal, admit, json_body};
use super::closing::close_connection;
use super::described::{ACTIVITY_CODES, ActivityRefusals, Nonce};
use crate::activities::{self, ClaimInput};
use crate::error::OpError;
use crate::quotas;
use crate::shared::{AppState, Shared};
use support::clock::now_ms;
use wire::activity::{BAD_PARAMETER, FILTERED, NO_ACTIVITY, PROCESSING};
use wire::envelope::{FORBIDDEN, UNAUTHORIZED};
use wire::{ActivityResponse, ClaimRequest, paths, scopes, validate};

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

/// An admitted claim: token with `auth_activity`, nonce well formed (spent with the claim),
/// and the body as read.
pub struct ClaimCall {
    admission: Admission,
    body: JsonBody<ClaimRequest>,
}

impl FromRequest<AppState> for ClaimCall {
    type Rejection = ActivityFailure;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        let admission = admit(state, &parts, scopes::ACTIVITY)
            .await
            .map_err(ActivityFailure::before_body)?;
        let body = json_body(&parts.headers, body, state.body_timeout).await;
        Ok(Self { admission, body })
    }
}

/// `POST /activity/services/activity`
#[utoipa::path(
    post, path = paths::ACTIVITY, tag = "activity", operation_id = "claim",
    summary = "Claim the products of an activity for a participant",
    params(Nonce), security(("bearer" = [])),
    request_body(content = ClaimRequest, example = json!({
        "identity": "13800138000", "activityLabel": "spring-2026", "source": "www.example.com",
        "branch": "上海分公司"
    })),
    responses((status = 200, description = ACTIVITY_CODES, body = ActivityResponse),
              ActivityRefusals)
)]
pub async fn claim(
    State(s): State<AppState>,
    call: ClaimCall,
) -> Result<Json<ActivityResponse>, ActivityFailure> {
    let unread = call.body.unread;
    let body = call
        .body
        .value
        .and_then(|b| OpError::check(validate::claim(&b)).map(|()| b));
    let throttled = body.as_ref().ok().and_then(|b| too_many_claims(&s, b));
    let answer = call
        .admission
        .run(&s, body, move |tx, shared, caller, body| {
            // Answered inside the write all the same, so that the nonce is spent.
            if let Some(message) = &throttled {
                return Ok(ActivityResponse::failure(FILTERED, message.clone()));
            }
            let field = |v: &Option<String>| v.as_deref().unwrap_or_default().trim().to_owned();
            let label = field(&body.activity_label);
            let Some(activity) = shared.activities().get(&label).cloned() else {
                return Ok(ActivityResponse::failure(
                    NO_ACTIVITY,
                    format!(
                        "activityLabel: no activity is labelled {label:?}; the administrator must create it"
                    ),
                ));
            };
            let (identity, source, branch) =
                (field(&body.identity), field(&body.source), field(&body.branch));
            activities::claim(
                tx,
                &activity,
                &ClaimInput {
                    identity: &identity,
                    source: &source,
                    branch: &branch,
                    app_key: &caller.app_key,
                },
                now_ms(),
            )
        })
        .await
        .map_err(|e| ActivityFailure {
            refusal: Refusal::Op(e),
            close: unread,
        })?;
    Ok(Json(answer))
}

/// Counts the claim against its identity's minute; past the allowance, why it is refused.
/// Identities are compared without regard to case, as e-mail addresses are counted.
fn too_many_claims(s: &Shared, body: &ClaimRequest) -> Option<String> {
    let identity = body.identity.as_deref().unwrap_or_default().trim();
    let wait = s.claims.attempt(&identity.to_lowercase(), Instant::now())?;
    let now = now_ms();
    let resets = now.saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX));
    Some(format!(
        "identity: too many claims by this identity, at most {} a minute; the count resets at {}",
        s.claims.allowance(),
        quotas::resets_at(resets, now)
    ))
}
