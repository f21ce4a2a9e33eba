//! Applications: the callers of the platform, each with an app key, a secret and scopes.

use serde::Serialize;

use super::error::OpError;
use super::ids;
use super::quotas::OwnQuota;
use super::sql::{self, StoreError};
use crate::wire::scopes;

/// What `license-desk app create` prints; the secret is shown this once and stored hashed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppCredentials {
    pub app_key: String,
    pub app_secret: String,
}

/// Checks a comma-separated scope list: each of `auth_order`, `auth_activity`, at least one.
pub fn parse_scopes(list: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for s in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if s != scopes::ORDER && s != scopes::ACTIVITY {
            return Err(format!(
                "unknown scope {s:?}: use {} and/or {}",
                scopes::ORDER,
                scopes::ACTIVITY
            ));
        }
        if !out.iter().any(|o| o == s) {
            out.push(s.to_owned());
        }
    }
    if out.is_empty() {
        return Err("at least one scope is required".to_owned());
    }
    Ok(out)
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

/// The app's space-separated scopes when `secret` is its secret.
pub fn authenticate(
    tx: &dyn sql::Tx,
    app_key: &str,
    secret: &str,
) -> Result<Option<String>, StoreError> {
    let row = tx.query_opt(
        "SELECT secret_hash, scopes FROM apps WHERE app_key = ?1",
        &[app_key.into()],
        |r| Ok((r.bytes(0)?, r.text(1)?)),
    )?;
    Ok(row.and_then(|(hash, scopes)| (hash == secret_hash(app_key, secret)).then_some(scopes)))
}

/// The app's space-separated scopes, if it exists.
pub fn scopes(tx: &dyn sql::Tx, app_key: &str) -> Result<Option<String>, StoreError> {
    tx.query_opt(
        "SELECT scopes FROM apps WHERE app_key = ?1",
        &[app_key.into()],
        |r| r.text(0),
    )
}

fn secret_hash(app_key: &str, secret: &str) -> Vec<u8> {
    ids::hash(&[b"app-secret", app_key.as_bytes(), secret.as_bytes()])
}
