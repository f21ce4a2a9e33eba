//! Access tokens and replay protection (`g_nonce`).

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::error::OpError;
use super::ids;
use super::sql::{self, StoreError};

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
    pub issued_at: i64,
    pub expires_at: i64,
}

/// Most verified tokens remembered; past that the memory starts over (real use has a few).
const VERIFIED_CAPACITY: usize = 4096;

/// How long a token found valid is trusted from memory before the store is asked again. Tokens
/// only expire (checked from memory too), but a change made outside the platform, such as a
/// token row deleted by hand to revoke it, takes effect within this time.
pub const TOKEN_RECHECK: Duration = Duration::from_secs(2);

/// Issues tokens; re-hands the same token while more than `reuse_margin_ms` of it remain.
pub struct Tokens {
    lifetime_ms: i64,
    reuse_margin_ms: i64,
    /// Tokens issued by this process, by app key: only hashes are stored, so a token can be
    /// handed out again only while the process that made it runs.
    recent: Mutex<HashMap<String, Issued>>,
    /// Tokens found valid, by hash: remembering them spares every call a read transaction.
    verified: Mutex<HashMap<Vec<u8>, Verified>>,
}

struct Verified {
    caller: Caller,
    expires_at: i64,
    /// When the store was last asked.
    checked_at: i64,
}

impl Tokens {
    pub fn new(lifetime_ms: i64, reuse_margin_ms: i64) -> Self {
        Self {
            lifetime_ms,
            reuse_margin_ms,
            recent: Mutex::new(HashMap::new()),
            verified: Mutex::new(HashMap::new()),
        }
    }

    /// The caller behind `token`: from memory when it was verified less than
    /// [`TOKEN_RECHECK`] ago and has not expired, otherwise looked up with `lookup` (a read of
    /// the store) and remembered.
    pub fn verify<E>(
        &self,
        token: &str,
        now: i64,
        lookup: impl FnOnce(&[u8]) -> Result<Option<(Caller, i64)>, E>,
    ) -> Result<Option<Caller>, E> {
        let hash = token_hash(token);
        if let Some(caller) = self.trusted(&hash, now) {
            return Ok(Some(caller));
        }
        let found = lookup(&hash)?;
        Ok(self.remember(hash, found, now))
    }

    /// The caller behind a token's hash, if it was verified less than [`TOKEN_RECHECK`] ago
    /// and has not expired.
    pub fn trusted(&self, hash: &[u8], now: i64) -> Option<Caller> {
        let known = lock(&self.verified);
        let known = known.get(hash)?;
        (known.expires_at > now && (0..recheck_ms()).contains(&(now - known.checked_at)))
            .then(|| known.caller.clone())
    }

    /// Remembers what the store said of a token's hash (its caller and expiry, or nothing)
    /// and answers its caller.
    pub fn remember(
        &self,
        hash: Vec<u8>,
        found: Option<(Caller, i64)>,
        now: i64,
    ) -> Option<Caller> {
        let Some((caller, expires_at)) = found else {
            lock(&self.verified).remove(&hash);
            return None;
        };
        let recheck_ms = recheck_ms();
        let mut verified = lock(&self.verified);
        if verified.len() >= VERIFIED_CAPACITY {
            verified.retain(|_, v| v.expires_at > now && now - v.checked_at < recheck_ms);
            if verified.len() >= VERIFIED_CAPACITY {
                verified.clear();
            }
        }
        verified.insert(
            hash,
            Verified {
                caller: caller.clone(),
                expires_at,
                checked_at: now,
            },
        );
        Some(caller)
    }

    /// A token for the app: the one it was last handed while enough of it remains and it was
    /// issued after `revoked_until` (the app's tokens revoked until then), else a new one.
    pub fn issue(
        &self,
        tx: &dyn sql::Tx,
        app_key: &str,
        revoked_until: Option<i64>,
        now: i64,
    ) -> Result<Issued, OpError> {
        let mut recent = lock(&self.recent);
        if let Some(prev) = recent.get(app_key)
            && prev.expires_at - now > self.reuse_margin_ms
            && revoked_until.is_none_or(|until| prev.issued_at > until)
            && still_stored(tx, prev, now)?
        {
            return Ok(prev.clone());
        }
        let issued = Issued {
            token: ids::random_token(32)?,
            // Never within the millisecond of a revocation, whose tokens it would share.
            issued_at: revoked_until.map_or(now, |until| now.max(until + 1)),
            expires_at: now + self.lifetime_ms,
        };
        tx.execute(
            "INSERT INTO tokens(token_hash, app_key, issued_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
            &[
                token_hash(&issued.token).as_slice().into(),
                app_key.into(),
                issued.issued_at.into(),
                issued.expires_at.into(),
            ],
        )?;
        recent.insert(app_key.to_owned(), issued.clone());
        Ok(issued)
    }
}

fn still_stored(tx: &dyn sql::Tx, issued: &Issued, now: i64) -> Result<bool, StoreError> {
    tx.query_opt(
        "SELECT 1 FROM tokens WHERE token_hash = ?1 AND expires_at > ?2",
        &[token_hash(&issued.token).as_slice().into(), now.into()],
        |_| Ok(()),
    )
    .map(|r| r.is_some())
}

/// A panic while a lock was held leaves these maps sound: poisoning is ignored.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The app behind a token's hash and the token's expiry, if it exists and has not expired.
pub fn lookup(tx: &dyn sql::Tx, token_hash: &[u8], now: i64) -> Result<Option<Stored>, StoreError> {
    tx.query_opt(
        "SELECT app_key, issued_at, expires_at FROM tokens \
         WHERE token_hash = ?1 AND expires_at > ?2",
        &[token_hash.into(), now.into()],
        |r| {
            Ok(Stored {
                app_key: r.text(0)?,
                issued_at: r.i64(1)?,
                expires_at: r.i64(2)?,
            })
        },
    )
}

/// A token as the token store holds it.
pub struct Stored {
    pub app_key: String,
    pub issued_at: i64,
    pub expires_at: i64,
}

fn recheck_ms() -> i64 {
    i64::try_from(TOKEN_RECHECK.as_millis()).unwrap_or(i64::MAX)
}

/// What the store keeps of a token.
pub fn token_hash(token: &str) -> Vec<u8> {
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

/// Records `nonce` for `app_key` in the current generation; false when it was already used
/// in this generation or the one before. On PostgreSQL it must be the transaction's last
/// statement ([`sql::Tx::execute_last`]). On SQLite a read, then a one-row insert: an `INSERT …
/// SELECT` would cost a statement journal (a savepoint and a copy of each page it touches).
pub fn consume_nonce(tx: &dyn sql::Tx, app_key: &str, nonce: &str) -> Result<bool, StoreError> {
    if tx.dialect() == sql::Dialect::Postgres {
        // One statement, the transaction's last, sent with its COMMIT: a nonce spent before
        // (in this generation, or in the one before, whose row the statement then writes again)
        // fails on the primary key, which rolls the whole call back. Two spending the same
        // nonce at once: the second waits for the first's row, then fails.
        return match tx.execute_last(
            "/* PostgreSQL */ INSERT INTO nonce_log(generation, app_key, nonce) \
             SELECT CASE WHEN EXISTS(SELECT 1 FROM nonce_log \
                 WHERE generation = g.value - 1 AND app_key = ?1 AND nonce = ?2) \
             THEN g.value - 1 ELSE g.value END, ?1, ?2 \
             FROM counters g WHERE g.name = 'nonce_generation'",
            &[app_key.into(), nonce.into()],
        ) {
            Ok(inserted) => Ok(inserted == 1),
            Err(e) if e.is_spent_nonce() => Ok(false),
            Err(e) => Err(e),
        };
    }
    let (generation, seen_before) = tx.query_one(
        "SELECT g.value, EXISTS(SELECT 1 FROM nonce_log \
             WHERE generation = g.value - 1 AND app_key = ?1 AND nonce = ?2) \
         FROM counters g WHERE g.name = 'nonce_generation'",
        &[app_key.into(), nonce.into()],
        |r| Ok((r.i64(0)?, r.bool(1)?)),
    )?;
    if seen_before {
        return Ok(false);
    }
    let inserted = tx.execute(
        "INSERT INTO nonce_log(generation, app_key, nonce) VALUES (?1, ?2, ?3) \
         ON CONFLICT DO NOTHING",
        &[generation.into(), app_key.into(), nonce.into()],
    )?;
    Ok(inserted == 1)
}

/// Whether `nonce` was spent by `app_key` in this store's current generation or the one
/// before (the only ones kept). Two primary-key lookups.
pub fn nonce_seen(tx: &dyn sql::Tx, app_key: &str, nonce: &str) -> Result<bool, StoreError> {
    tx.query_one(
        "SELECT EXISTS(SELECT 1 FROM nonce_log WHERE generation IN \
             (SELECT value FROM counters WHERE name = 'nonce_generation' \
              UNION ALL SELECT value - 1 FROM counters WHERE name = 'nonce_generation') \
             AND app_key = ?1 AND nonce = ?2)",
        &[app_key.into(), nonce.into()],
        |r| r.bool(0),
    )
}

/// What [`prune`] did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pruned {
    /// A new generation started.
    pub rotated: bool,
    /// Rows of the generation dropped.
    pub rows: usize,
}

/// Starts a new generation of nonces once the current one is older than the window, and
/// drops the one before it: every nonce is remembered for at least the window (it spends the
/// rest of its generation and the whole next one), at most twice the window.
pub fn prune(tx: &dyn sql::Tx, now: i64, nonce_window_ms: i64) -> Result<Pruned, StoreError> {
    // Conditional, so that of several instances on one database one rotates per window.
    let due = tx.query_opt(
        "UPDATE counters SET value = ?1 \
         WHERE name = 'nonce_generation_started' AND value <= ?2 RETURNING value",
        &[now.into(), now.saturating_sub(nonce_window_ms).into()],
        |r| r.i64(0),
    )?;
    if due.is_none() {
        return Ok(Pruned::default());
    }
    let current = tx.query_one(
        "UPDATE counters SET value = value + 1 WHERE name = 'nonce_generation' \
         RETURNING value - 1",
        &[],
        |r| r.i64(0),
    )?;
    let rows = tx.execute(
        "DELETE FROM nonce_log WHERE generation < ?1",
        &[current.into()],
    )?;
    Ok(Pruned {
        rotated: true,
        rows,
    })
}

/// Forgets expired tokens; returns how many.
pub fn prune_tokens(tx: &dyn sql::Tx, now: i64) -> Result<usize, StoreError> {
    tx.execute("DELETE FROM tokens WHERE expires_at <= ?1", &[now.into()])
}
