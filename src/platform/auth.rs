//! Access tokens and replay protection (`g_nonce`).

use std::collections::HashMap;
use std::sync::Mutex;

use rusqlite::{OptionalExtension, Transaction};

use super::error::OpError;
use super::ids;

/// The application a valid token speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub app_key: String,
    /// Space-separated, as stored.
    pub scopes: String,
}

impl Caller {
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.split(' ').any(|s| s == scope)
    }
}

/// A token handed out: the clear text exists only here and in the caller's hands.
#[derive(Debug, Clone)]
pub struct Issued {
    pub token: String,
    pub expires_at: i64,
}

/// Issues tokens; re-hands the same token while more than `reuse_margin_ms` of it remain.
pub struct Tokens {
    lifetime_ms: i64,
    reuse_margin_ms: i64,
    /// Tokens issued by this process, by app key: only hashes are stored, so a token can be
    /// handed out again only while the process that made it runs.
    recent: Mutex<HashMap<String, Issued>>,
}

impl Tokens {
    pub fn new(lifetime_ms: i64, reuse_margin_ms: i64) -> Self {
        Self {
            lifetime_ms,
            reuse_margin_ms,
            recent: Mutex::new(HashMap::new()),
        }
    }

    pub fn issue(&self, tx: &Transaction<'_>, app_key: &str, now: i64) -> Result<Issued, OpError> {
        let mut recent = self
            .recent
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(prev) = recent.get(app_key)
            && prev.expires_at - now > self.reuse_margin_ms
            && still_stored(tx, prev, now)?
        {
            return Ok(prev.clone());
        }
        let issued = Issued {
            token: ids::random_token(32)?,
            expires_at: now + self.lifetime_ms,
        };
        tx.prepare_cached(
            "INSERT INTO tokens(token_hash, app_key, issued_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(rusqlite::params![
            token_hash(&issued.token),
            app_key,
            now,
            issued.expires_at
        ])?;
        recent.insert(app_key.to_owned(), issued.clone());
        Ok(issued)
    }
}

fn still_stored(tx: &Transaction<'_>, issued: &Issued, now: i64) -> rusqlite::Result<bool> {
    tx.prepare_cached("SELECT 1 FROM tokens WHERE token_hash = ?1 AND expires_at > ?2")?
        .query_row(
            rusqlite::params![token_hash(&issued.token), now],
            |_| Ok(()),
        )
        .optional()
        .map(|r| r.is_some())
}

/// The caller behind a token, if the token exists and has not expired.
pub fn verify(tx: &Transaction<'_>, token: &str, now: i64) -> rusqlite::Result<Option<Caller>> {
    tx.prepare_cached(
        "SELECT t.app_key, a.scopes FROM tokens t JOIN apps a ON a.app_key = t.app_key \
         WHERE t.token_hash = ?1 AND t.expires_at > ?2",
    )?
    .query_row(rusqlite::params![token_hash(token), now], |r| {
        Ok(Caller {
            app_key: r.get(0)?,
            scopes: r.get(1)?,
        })
    })
    .optional()
}

fn token_hash(token: &str) -> Vec<u8> {
    ids::hash(&[b"token", token.as_bytes()])
}

/// Why a `g_nonce` is refused, if it is malformed: 1 to 128 visible ASCII characters.
pub fn nonce_problem(nonce: &str) -> Option<&'static str> {
    if nonce.is_empty() {
        Some("required on every call")
    } else if nonce.len() > 128 {
        Some("at most 128 characters")
    } else if !nonce.bytes().all(|b| b.is_ascii_graphic()) {
        Some("only visible ASCII characters (no spaces)")
    } else {
        None
    }
}

/// Records `nonce` for `app_key`; false when it was already used.
pub fn consume_nonce(
    tx: &Transaction<'_>,
    app_key: &str,
    nonce: &str,
    now: i64,
) -> rusqlite::Result<bool> {
    let inserted = tx
        .prepare_cached(
            "INSERT INTO nonces(app_key, nonce, seen_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        )?
        .execute(rusqlite::params![app_key, nonce, now])?;
    Ok(inserted == 1)
}

/// Forgets nonces older than the window and expired tokens. Returns how many rows went.
pub fn prune(tx: &Transaction<'_>, now: i64, nonce_window_ms: i64) -> rusqlite::Result<usize> {
    let nonces = tx.execute(
        "DELETE FROM nonces WHERE seen_at < ?1",
        [now - nonce_window_ms],
    )?;
    let tokens = tx.execute("DELETE FROM tokens WHERE expires_at <= ?1", [now])?;
    Ok(nonces + tokens)
}
