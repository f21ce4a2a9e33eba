//! `POST /v3/api/oauth2/token`: client credentials with HTTP Basic auth (RFC 6749 4.4).

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::described::TokenForm;
use crate::apps;
use crate::error::OpError;
use crate::shared::AppState;
use support::clock::now_ms;
use wire::{TokenError, TokenResponse, paths};

/// The form body is one short line.
const MAX_FORM: usize = 4096;

/// How long a throttled wrong secret waits for its answer: a guesser's connections are each
/// held this long per guess.
const PENALTY: Duration = Duration::from_secs(1);

/// Client credentials: HTTP Basic with the app key and secret, and a form body.
#[utoipa::path(
    post, path = paths::TOKEN, tag = "token", operation_id = "token",
    summary = "An application access token (client credentials)",
    security(("basic" = [])),
    request_body(content = TokenForm, content_type = "application/x-www-form-urlencoded",
                 example = json!({"grant_type": "client_credentials"})),
    responses(
        (status = 200, description = "The token; the same one while more than 12 hours remain",
         body = TokenResponse),
        (status = 400, description = "invalid_request or unsupported_grant_type", body = TokenError),
        (status = 401, description = "invalid_client: no Basic credentials, or wrong ones",
         body = TokenError),
        (status = 429, description = "too_many_attempts: a wrong secret after too many failures \
         for the key from this address, or from this address; the right secret is never refused",
         body = TokenError),
        (status = 500, description = "server_error", body = TokenError)
    )
)]
pub async fn issue(State(s): State<AppState>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let Some((app_key, secret)) = basic(&parts.headers) else {
        return invalid_client("HTTP Basic authentication with the app key and secret is required");
    };
    super::NamedApp::note(&parts, &app_key);
    let address = super::client_address(&parts);
    let read = tokio::time::timeout(s.body_timeout, axum::body::to_bytes(body, MAX_FORM));
    let Ok(Ok(form)) = read.await else {
        return error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "the form body is too large or did not arrive in time",
        );
    };
    if let Some(refused) = refuse_grant(&form) {
        return refused;
    }
    let key = app_key.clone();
    match issue_token(&s, app_key, secret).await {
        Ok(Some(token)) => {
            let mut response = Json(token).into_response();
            // RFC 6749 5.1: token responses must not be cached.
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                header::HeaderValue::from_static("no-store"),
            );
            response
        }
        Ok(None) => wrong_secret(&s, &key, &address).await,
        Err(e) => {
            tracing::error!(error = %e, "issuing a token failed");
            server_error(&e)
        }
    }
}

/// A wrong key or secret, counted for the app key from this address and for the address. Past
/// the allowance the answer comes after [`PENALTY`] and says when to try again; the right
/// secret is never held up by it.
async fn wrong_secret(s: &AppState, app_key: &str, address: &str) -> Response {
    let now = Instant::now();
    let failures = &s.token_failures;
    let by_key = format!("{app_key} {address}");
    // Judged before this failure is counted: the allowance's last failure is still a 401.
    let wait = [
        failures.by_app_address.wait(&by_key, now),
        failures.by_address.wait(address, now),
    ];
    failures.by_app_address.failed(&by_key, now);
    failures.by_address.failed(address, now);
    match wait.into_iter().flatten().max() {
        Some(wait) => {
            tracing::warn!(
                address,
                app_key,
                "token request throttled: too many wrong secrets"
            );
            tokio::time::sleep(PENALTY).await;
            slow_down(wait)
        }
        None => {
            tracing::warn!(
                address,
                app_key,
                "token request refused: unknown app key or wrong secret"
            );
            invalid_client("unknown app key or wrong secret")
        }
    }
}

/// The refusal of a form that does not ask for client credentials.
fn refuse_grant(form: &[u8]) -> Option<Response> {
    let grant: Option<String> = form_urlencoded::parse(form)
        .find(|(k, _)| k == "grant_type")
        .map(|(_, v)| v.into_owned());
    match grant.as_deref() {
        Some("client_credentials") => None,
        None => Some(error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "grant_type=client_credentials is required in the form body",
        )),
        Some(other) => Some(error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            &format!("only client_credentials is supported, not {other:?}"),
        )),
    }
}

/// A token for the app when `secret` is its secret: the app is checked in the main store, the
/// token written to the token store, so that a token is issued during a long batch too.
async fn issue_token(
    s: &AppState,
    app_key: String,
    secret: String,
) -> Result<Option<TokenResponse>, OpError> {
    let check = (app_key.clone(), secret);
    let app = s
        .read(move |tx, _| Ok(apps::authenticate(tx, &check.0, &check.1)?))
        .await?;
    let Some(app) = app else {
        return Ok(None);
    };
    let scopes = app.scopes;
    s.write_auth(move |tx, shared| {
        let now = now_ms();
        let issued = shared
            .tokens
            .issue(tx, &app_key, app.tokens_revoked_at, now)?;
        Ok(Some(TokenResponse {
            access_token: issued.token,
            token_type: "bearer".to_owned(),
            expires_in: (issued.expires_at - now) / 1000,
            scope: scopes.clone(),
        }))
    })
    .await
}

fn basic(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (key, secret) = decoded.split_once(':')?;
    Some((key.to_owned(), secret.to_owned()))
}

/// Too many failures for the app key or the address: a wrong secret is refused until the
/// minute has passed.
fn slow_down(wait: Duration) -> Response {
    let seconds = wait.as_secs() + 1;
    let mut response = error(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_attempts",
        &format!(
            "wrong secret, and too many failed attempts for this app key or from this address; try again in {seconds} s"
        ),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
    response
}

fn invalid_client(description: &str) -> Response {
    let mut response = error(StatusCode::UNAUTHORIZED, "invalid_client", description);
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        header::HeaderValue::from_static("Basic realm=\"license-desk\""),
    );
    response
}

fn server_error(e: &OpError) -> Response {
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "server_error",
        &e.to_string(),
    )
}

/// Refusals may come before the form is read: each closes the connection.
fn error(status: StatusCode, error: &str, description: &str) -> Response {
    let body = TokenError {
        error: error.to_owned(),
        error_description: description.to_owned(),
    };
    let mut response = (status, Json(body)).into_response();
    super::closing::close_connection(&mut response);
    response
}
