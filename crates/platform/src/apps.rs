//! Applications: the callers of the platform, each with an app key, a secret and scopes.

use serde::Serialize;

use super::error::OpError;
use super::ids;
use super::quotas::OwnQuota;
use super::sql::{self, StoreError};
use wire::scopes;

/// What `license-desk app create` prints; the secret is shown this once and stored hashed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppCredentials {
    pub app_key: String,
    pub app_secret: String,
}

/// Checks a comma-separated scope list: each of `auth_order`, `auth_activity`, at least one.
pub fn parse_scopes(list: &str) -> Result<Vec<String>, NotScopes> {
    let mut out: Vec<String> = Vec::new();
    for s in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if s != scopes::ORDER && s != scopes::ACTIVITY {
            return Err(NotScopes::Unknown(s.to_owned()));
        }
        if !out.iter().any(|o| o == s) {
            out.push(s.to_owned());
        }
    }
    if out.is_empty() {
        return Err(NotScopes::None);
    }
    Ok(out)
}

/// Why a list of scopes is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotScopes {
    #[error("unknown scope {0:?}: use {order} and/or {activity}", order = scopes::ORDER, activity = scopes::ACTIVITY)]
    Unknown(String),
    #[error("at least one scope is required")]
    None,
}

/// Registers an application with its own quotas (`None`: the platform's default).
pub fn create(
    tx: &dyn sql::Tx,
    name: &str,
    scopes: &[String],
    quota: OwnQuota,
    now: i64,
) -> Result<AppCredentials, OpError> {
    let app_key = format!("ak_{}", ids::random_token(12)?);
    let app_secret = ids::random_token(32)?;
    tx.execute(
        "INSERT INTO apps(app_key, name, secret_hash, scopes, created_at, \
         quota_numbers_per_minute, quota_numbers_per_day) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        &[
            (&app_key).into(),
            name.into(),
            secret_hash(&app_key, &app_secret).as_slice().into(),
            scopes.join(" ").as_str().into(),
            now.into(),
            quota.quota_numbers_per_minute.into(),
            quota.quota_numbers_per_day.into(),
        ],
    )?;
    Ok(AppCredentials {
        app_key,
        app_secret,
    })
}

/// An app whose secret was given right.
pub struct Authenticated {
    /// Space-separated.
    pub scopes: String,
    /// Tokens issued at or before this are refused.
    pub tokens_revoked_at: Option<i64>,
}

/// The app, when `secret` is its secret and it is not revoked.
pub fn authenticate(
    tx: &dyn sql::Tx,
    app_key: &str,
    secret: &str,
) -> Result<Option<Authenticated>, StoreError> {
    let row = tx.query_opt(
        "SELECT secret_hash, scopes, tokens_revoked_at FROM apps \
         WHERE app_key = ?1 AND revoked_at IS NULL",
        &[app_key.into()],
        |r| Ok((r.bytes(0)?, r.text(1)?, r.opt_i64(2)?)),
    )?;
    Ok(row.and_then(|(hash, scopes, tokens_revoked_at)| {
        (hash == secret_hash(app_key, secret)).then_some(Authenticated {
            scopes,
            tokens_revoked_at,
        })
    }))
}

/// The scopes a token issued at `issued_at` holds: none when its app is revoked or its tokens
/// were revoked since.
pub fn token_scopes(
    tx: &dyn sql::Tx,
    app_key: &str,
    issued_at: i64,
) -> Result<Option<String>, StoreError> {
    tx.query_opt(
        "SELECT scopes FROM apps WHERE app_key = ?1 AND revoked_at IS NULL \
         AND (tokens_revoked_at IS NULL OR tokens_revoked_at < ?2)",
        &[app_key.into(), issued_at.into()],
        |r| r.text(0),
    )
}

/// One application as `app list` prints it; never its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppSummary {
    pub app_key: String,
    pub name: String,
    pub scopes: String,
    /// Epoch milliseconds.
    pub created_at: i64,
    pub revoked_at: Option<i64>,
    pub tokens_revoked_at: Option<i64>,
    pub quota_numbers_per_minute: Option<i64>,
    pub quota_numbers_per_day: Option<i64>,
}

/// Every application, oldest first.
pub fn list(tx: &dyn sql::Tx) -> Result<Vec<AppSummary>, StoreError> {
    tx.query_vec(
        "SELECT app_key, name, scopes, created_at, revoked_at, tokens_revoked_at, \
         quota_numbers_per_minute, quota_numbers_per_day FROM apps ORDER BY created_at, app_key",
        &[],
        |r| {
            Ok(AppSummary {
                app_key: r.text(0)?,
                name: r.text(1)?,
                scopes: r.text(2)?,
                created_at: r.i64(3)?,
                revoked_at: r.opt_i64(4)?,
                tokens_revoked_at: r.opt_i64(5)?,
                quota_numbers_per_minute: r.opt_i64(6)?,
                quota_numbers_per_day: r.opt_i64(7)?,
            })
        },
    )
}

/// What a revocation or a rotation found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change<T> {
    Done(T),
    NoSuchApp,
    Revoked,
}

/// A new secret for the app: the old one stops at once, and the tokens issued with it end.
pub fn rotate(
    tx: &dyn sql::Tx,
    app_key: &str,
    now: i64,
) -> Result<Change<AppCredentials>, OpError> {
    if let Some(refused) = refusal(tx, app_key)? {
        return Ok(refused);
    }
    let app_secret = ids::random_token(32)?;
    tx.execute(
        "UPDATE apps SET secret_hash = ?2, tokens_revoked_at = ?3 WHERE app_key = ?1",
        &[
            app_key.into(),
            secret_hash(app_key, &app_secret).as_slice().into(),
            now.into(),
        ],
    )?;
    Ok(Change::Done(AppCredentials {
        app_key: app_key.to_owned(),
        app_secret,
    }))
}

/// Ends every token the app holds; its secret still gets new ones.
pub fn revoke_tokens(tx: &dyn sql::Tx, app_key: &str, now: i64) -> Result<Change<()>, StoreError> {
    if let Some(refused) = refusal(tx, app_key)? {
        return Ok(refused);
    }
    tx.execute(
        "UPDATE apps SET tokens_revoked_at = ?2 WHERE app_key = ?1",
        &[app_key.into(), now.into()],
    )?;
    Ok(Change::Done(()))
}

/// Revokes the app for good: no token for its secret, its tokens refused. Its batches and
/// orders stay, as the records they are.
pub fn revoke(tx: &dyn sql::Tx, app_key: &str, now: i64) -> Result<Change<()>, StoreError> {
    if let Some(refused) = refusal(tx, app_key)? {
        return Ok(refused);
    }
    tx.execute(
        "UPDATE apps SET revoked_at = ?2, tokens_revoked_at = ?2 WHERE app_key = ?1",
        &[app_key.into(), now.into()],
    )?;
    Ok(Change::Done(()))
}

/// Why the app cannot be changed: it does not exist, or is revoked.
fn refusal<T>(tx: &dyn sql::Tx, app_key: &str) -> Result<Option<Change<T>>, StoreError> {
    let revoked = tx.query_opt(
        "SELECT revoked_at FROM apps WHERE app_key = ?1",
        &[app_key.into()],
        |r| r.opt_i64(0),
    )?;
    Ok(match revoked {
        None => Some(Change::NoSuchApp),
        Some(Some(_)) => Some(Change::Revoked),
        Some(None) => None,
    })
}

fn secret_hash(app_key: &str, secret: &str) -> Vec<u8> {
    ids::hash(&[b"app-secret", app_key.as_bytes(), secret.as_bytes()])
}
