//! Reading answers: the two groups' envelopes and the token endpoint's, into results that keep
//! the platform's words; and what of a body the journal keeps.

use reqwest::StatusCode;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::{ApiError, CachedToken, CallRecord, Operation, Secret};
use support::clock::now_ms;
use wire::activity::{BAD_PARAMETER, PROCESSING};
use wire::approval::{HELD_CAUSE, HELD_STATUS};
use wire::envelope::{BUSINESS_EXCEPTION_STATUS, Code};
use wire::{ActivityResponse, TokenError, TokenResponse};

/// Recorded bodies are cut here: a listing of 100,000 assets is not journal material.
const MAX_RECORDED_BODY: usize = 256 * 1024;

pub(super) fn recorded_body(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= MAX_RECORDED_BODY {
        return text.into_owned();
    }
    let mut end = MAX_RECORDED_BODY;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [cut: {} bytes in all]", &text[..end], bytes.len())
}

pub(super) fn success_code(op: Operation, body: Option<&[u8]>) -> String {
    if op == Operation::Claim {
        body.and_then(|b| serde_json::from_slice::<ActivityResponse>(b).ok())
            .map(|r| r.result_code)
            .unwrap_or_default()
    } else {
        "0".to_owned()
    }
}

fn unexpected(status: u16, bytes: &[u8], why: impl std::fmt::Display) -> ApiError {
    let excerpt: String = String::from_utf8_lossy(bytes).chars().take(300).collect();
    let detail = if excerpt.is_empty() {
        why.to_string()
    } else {
        format!("{why}: {excerpt}")
    };
    ApiError::Unexpected {
        http_status: status,
        detail,
    }
}

/// The order group's envelope with its `data` left as written.
#[derive(Deserialize)]
struct RawEnvelope<'a> {
    code: Code,
    message: String,
    #[serde(borrow, default)]
    data: Option<&'a RawValue>,
    #[serde(default)]
    cause: Option<String>,
}

fn envelope_failure(status: u16, env: RawEnvelope<'_>) -> ApiError {
    let code = match env.code {
        Code::Text(c) => c,
        Code::Number(n) => n.to_string(),
    };
    ApiError::Platform {
        http_status: status,
        code,
        message: env.message,
        cause: env.cause,
    }
}

/// The envelope's `data` is kept as its raw text and read into `T` only on a success, so that
/// a large answer is parsed once, straight into its type (never into a JSON tree first).
fn decode_order_envelope<T: DeserializeOwned>(
    status: u16,
    bytes: &[u8],
) -> Result<Option<T>, ApiError> {
    if status == StatusCode::OK.as_u16() {
        let env: RawEnvelope<'_> =
            serde_json::from_slice(bytes).map_err(|e| unexpected(status, bytes, e))?;
        if env.code != Code::Number(0) {
            return Err(envelope_failure(status, env));
        }
        return match env.data.map(RawValue::get) {
            None | Some("null") => Ok(None),
            Some(data) => serde_json::from_str(data)
                .map(Some)
                .map_err(|e| unexpected(status, bytes, e)),
        };
    }
    match serde_json::from_slice::<RawEnvelope<'_>>(bytes) {
        Ok(env) if status == BUSINESS_EXCEPTION_STATUS || status >= 400 => {
            Err(envelope_failure(status, env))
        }
        Ok(_) | Err(_) => Err(unexpected(status, bytes, "not the order group's envelope")),
    }
}

/// A team server's 202 is its own answer, never the platform's: a held call. From anything
/// else a 202 is no answer of the interface's (and a write's outcome stays unknown).
pub(super) fn held_by_team(session: bool, status: u16) -> bool {
    session && status == HELD_STATUS
}

pub(super) fn decode_order<T: DeserializeOwned>(status: u16, bytes: &[u8]) -> Result<T, ApiError> {
    decode_order_envelope::<T>(status, bytes)?
        .ok_or_else(|| unexpected(status, bytes, "a success without data"))
}

pub(super) fn decode_order_done(status: u16, bytes: &[u8]) -> Result<(), ApiError> {
    decode_order_envelope::<serde_json::Value>(status, bytes).map(|_| ())
}

/// A team server's answer that it keeps the call for another person to approve.
pub(super) fn held(status: u16, bytes: &[u8]) -> ApiError {
    let env: RawEnvelope<'_> = match serde_json::from_slice(bytes) {
        Ok(env) => env,
        Err(e) => return unexpected(status, bytes, e),
    };
    match env
        .cause
        .as_deref()
        .and_then(|c| c.strip_prefix(HELD_CAUSE))
    {
        Some(request_id) => ApiError::Held {
            request_id: request_id.to_owned(),
            message: env.message,
        },
        None => unexpected(status, bytes, "HTTP 202 without the request it was kept as"),
    }
}

pub(super) fn decode_activity(status: u16, bytes: &[u8]) -> Result<ActivityResponse, ApiError> {
    let resp: ActivityResponse =
        serde_json::from_slice(bytes).map_err(|e| unexpected(status, bytes, e))?;
    if status != StatusCode::OK.as_u16()
        || resp.result_code == BAD_PARAMETER
        || resp.result_code == PROCESSING
    {
        return Err(ApiError::Platform {
            http_status: status,
            code: resp.result_code,
            message: resp.result_message,
            cause: None,
        });
    }
    Ok(resp)
}

pub(super) fn decode_token(
    status: u16,
    bytes: &[u8],
    record: &mut CallRecord,
) -> Result<CachedToken, ApiError> {
    if status == StatusCode::OK.as_u16() {
        // A success that is not JSON may hold the token in another form: neither the error nor
        // the journal quotes it.
        record.response = Some("[not kept: a token answer that is not JSON]".to_owned());
        let mut value: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|_| unexpected(status, b"", "not a token answer (not JSON)"))?;
        let token: TokenResponse =
            serde_json::from_value(value.clone()).map_err(|e| unexpected(status, b"", e))?;
        if token.access_token.is_empty() {
            return Err(unexpected(status, b"", "no access_token"));
        }
        // The journal keeps the answer without the token itself.
        value["access_token"] = serde_json::Value::String("***".to_owned());
        record.response = Some(value.to_string());
        return Ok(CachedToken {
            token: Secret::new(token.access_token),
            expires_at_ms: now_ms() + token.expires_in.max(0) * 1000,
            scope: token.scope,
        });
    }
    record.response = Some(recorded_body(bytes));
    match serde_json::from_slice::<TokenError>(bytes) {
        Ok(e) if !e.error.is_empty() => Err(ApiError::Platform {
            http_status: status,
            code: e.error,
            message: e.error_description,
            cause: None,
        }),
        _ => Err(unexpected(status, bytes, "not a token answer")),
    }
}
