//! Admission of a call, before any business logic: the bearer token (401), the group's scope
//! (403), the `g_nonce` (format, then single use), and the body (size, type, JSON shape).

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use serde::de::DeserializeOwned;

use crate::platform::auth::{self, Caller};
use crate::platform::error::OpError;
use crate::platform::ids::now_ms;
use crate::platform::shared::AppState;
use crate::wire::parse;

/// Largest request body: a batch of 10,000 orders with a few products each fits.
pub const MAX_BODY: usize = 16 * 1024 * 1024;

/// Why a call is not admitted or not carried out.
#[derive(Debug)]
pub enum Refusal {
    /// 401: no token, or an unknown or expired one.
    Unauthorized(String),
    /// 403: the token's application lacks the group's scope.
    Forbidden(String),
    /// 13004 / 500 (order group), 1001 / 1002 (activity group).
    Op(OpError),
}

impl From<OpError> for Refusal {
    fn from(e: OpError) -> Self {
        Self::Op(e)
    }
}

/// The query string's pairs, decoded.
#[derive(Debug, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    fn parse(raw: Option<&str>) -> Self {
        Self(
            form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
                .into_owned()
                .collect(),
        )
    }

    /// The parameter's value; a parameter given twice is refused rather than guessed.
    pub fn get(&self, name: &str) -> Result<Option<&str>, OpError> {
        let mut found = self.0.iter().filter(|(k, _)| k == name);
        let first = found.next();
        if found.next().is_some() {
            return Err(OpError::invalid(name, "given more than once"));
        }
        Ok(first.map(|(_, v)| v.as_str()))
    }
}

/// Checks the token and scope, then spends the nonce: one write transaction.
pub async fn admit(
    state: &AppState,
    parts: &Parts,
    scope: &'static str,
) -> Result<(Caller, Query), Refusal> {
    let token = bearer(&parts.headers)?;
    let query = Query::parse(parts.uri.query());
    // Judged only after the token and scope: auth failures come first.
    let nonce = query
        .get("g_nonce")
        .map(|n| n.unwrap_or_default().to_owned());
    let caller = state
        .write(move |tx, _| {
            let now = now_ms();
            let Some(caller) = auth::verify(tx, &token, now)? else {
                return Ok(Err(Refusal::Unauthorized(
                    "Authorization: the token is unknown or has expired; get a new one from /v3/api/oauth2/token".to_owned(),
                )));
            };
            if !caller.has_scope(scope) {
                return Ok(Err(Refusal::Forbidden(format!(
                    "the application {} does not hold the scope {scope}",
                    caller.app_key
                ))));
            }
            let nonce = match nonce {
                Ok(nonce) => nonce,
                Err(e) => return Ok(Err(Refusal::Op(e))),
            };
            if let Some(why) = auth::nonce_problem(&nonce) {
                return Ok(Err(Refusal::Op(OpError::invalid("g_nonce", why))));
            }
            if !auth::consume_nonce(tx, &caller.app_key, &nonce, now)? {
                return Ok(Err(Refusal::Op(OpError::invalid(
                    "g_nonce",
                    "already used by this application; send a fresh nonce with every call",
                ))));
            }
            Ok(Ok(caller))
        })
        .await??;
    Ok((caller, query))
}

fn bearer(headers: &HeaderMap) -> Result<String, Refusal> {
    let missing = || {
        Refusal::Unauthorized(
            "Authorization: a header \"Bearer <APP_ACCESS_TOKEN>\" is required".to_owned(),
        )
    };
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(missing)?;
    let (scheme, token) = value.trim().split_once(' ').ok_or_else(missing)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(missing());
    }
    Ok(token.to_owned())
}

/// Reads and parses a JSON body, naming the field path of any error.
pub async fn json_body<T: DeserializeOwned>(headers: &HeaderMap, body: Body) -> Result<T, OpError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let media = content_type.split(';').next().unwrap_or_default().trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return Err(OpError::invalid(
            "Content-Type",
            format!("must be application/json, not {content_type:?}"),
        ));
    }
    let too_large = || {
        OpError::invalid(
            "body",
            format!("larger than the limit of {} MiB", MAX_BODY >> 20),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let bytes = axum::body::to_bytes(body, MAX_BODY)
        .await
        .map_err(|_| too_large())?;
    // serde reads a struct from an array by position; the interface's bodies are objects.
    if bytes.trim_ascii_start().first() == Some(&b'[') {
        return Err(OpError::invalid(
            "body",
            "must be a JSON object, not an array",
        ));
    }
    parse::json(&bytes).map_err(|e| {
        let path = if e.path.is_empty() {
            "body".to_owned()
        } else {
            e.path
        };
        OpError::invalid(path, e.message)
    })
}
