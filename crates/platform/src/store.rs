//! The platform's SQLite database: its file, its schema versions, and the counters and ids
//! its rules take. The store itself (one writer thread, readers, checkpoints, migrations) is
//! `db::sqlite::Store`, which the team server uses for its own file too.

use std::path::Path;

pub use db::sqlite::{Store, open_connection};

use crate::sql::{self, StoreError};

/// File name of the database inside a data directory.
pub const DB_FILE: &str = "platform.sqlite3";

/// Schema versions, applied in order; `PRAGMA user_version` records how many ran.
const MIGRATIONS: &[&str] = &[
    include_str!("schema.sql"),
    include_str!("schema2.sql"),
    include_str!("schema3.sql"),
    include_str!("schema4.sql"),
    include_str!("schema5.sql"),
];

/// Opens (creating if needed) the platform's database in `data_dir`, brought up to date.
pub fn open(data_dir: &Path) -> Result<Store, StoreError> {
    Store::open_file(data_dir.join(DB_FILE), MIGRATIONS)
}

/// Adds `by` to the counter `name` and returns the new value, if it stays within `max`.
pub fn bump_counter(
    tx: &dyn sql::Tx,
    name: &str,
    by: i64,
    max: i64,
) -> Result<Option<i64>, StoreError> {
    tx.execute(
        "INSERT INTO counters(name, value) VALUES (?1, 0) ON CONFLICT(name) DO NOTHING",
        &[name.into()],
    )?;
    tx.query_opt(
        "UPDATE counters SET value = value + ?2 WHERE name = ?1 AND value + ?2 <= ?3 RETURNING value",
        &[name.into(), by.into(), max.into()],
        |r| r.i64(0),
    )
}

/// The next id of a kind, e.g. `CU0000000001` for prefix `CU`: one upsert. (`counters.value`:
/// PostgreSQL refuses an unqualified column of the target in `DO UPDATE` as ambiguous.)
pub fn next_id(tx: &dyn sql::Tx, prefix: &str) -> Result<String, StoreError> {
    let n = tx.query_one(
        "INSERT INTO counters(name, value) VALUES (?1, 1) \
         ON CONFLICT(name) DO UPDATE SET value = counters.value + 1 RETURNING value",
        &[prefix.into()],
        |r| r.i64(0),
    )?;
    Ok(format!("{prefix}{n:010}"))
}

/// Ids of one kind handed out from blocks reserved in one counter update each, for work that
/// makes many (a batch of 1000 orders); the unused rest of a block is a gap, never reused.
pub struct IdPool {
    prefix: &'static str,
    next: i64,
    end: i64,
    block: i64,
}

impl IdPool {
    const BLOCK: i64 = 64;
    const LARGEST_BLOCK: i64 = 65_536;

    pub fn new(prefix: &'static str) -> Self {
        Self {
            prefix,
            next: 0,
            end: 0,
            block: Self::BLOCK,
        }
    }

    /// A pool for work that will take about `expected` ids: one block of that many (at least
    /// [`IdPool::BLOCK`], at most [`IdPool::LARGEST_BLOCK`]) per counter update.
    pub fn sized(prefix: &'static str, expected: usize) -> Self {
        let block = i64::try_from(expected)
            .unwrap_or(Self::LARGEST_BLOCK)
            .clamp(Self::BLOCK, Self::LARGEST_BLOCK);
        Self {
            block,
            ..Self::new(prefix)
        }
    }

    pub fn take(&mut self, tx: &dyn sql::Tx) -> Result<String, StoreError> {
        if self.next == self.end {
            let last = bump_counter(tx, self.prefix, self.block, i64::MAX - self.block)?
                .unwrap_or_default();
            self.next = last - self.block + 1;
            self.end = last + 1;
        }
        let n = self.next;
        self.next += 1;
        Ok(format!("{}{n:010}", self.prefix))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    /// A database of schema 2 (nonces with a time index) opens as schema 3 with its used
    /// nonces still refused.
    #[test]
    fn nonces_used_before_the_upgrade_stay_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        {
            let conn = Connection::open(dir.path().join(DB_FILE)).expect("create");
            conn.execute_batch(MIGRATIONS[0]).expect("schema 1");
            conn.execute_batch(MIGRATIONS[1]).expect("schema 2");
            conn.pragma_update(None, "user_version", 2)
                .expect("version");
            conn.execute(
                "INSERT INTO nonces(app_key, nonce, seen_at) VALUES ('ak_old', 'n-1', 1)",
                [],
            )
            .expect("nonce");
        }
        let store = open(dir.path()).expect("open and migrate");
        let (old, fresh) = store
            .write_blocking(|tx| {
                Ok::<_, StoreError>((
                    crate::auth::consume_nonce(tx, "ak_old", "n-1")?,
                    crate::auth::consume_nonce(tx, "ak_old", "n-2")?,
                ))
            })
            .expect("spend");
        assert!(!old, "a nonce used before the upgrade is refused");
        assert!(fresh, "a new nonce is accepted");
        let version: i64 = store
            .read(|tx| tx.query_one("PRAGMA user_version", &[], |r| r.i64(0)))
            .expect("version");
        assert_eq!(version, MIGRATIONS.len() as i64);
    }
}
