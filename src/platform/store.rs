//! SQLite storage: one writer connection behind a mutex (SQLite has one writer anyway) and a
//! small pool of readers, so that long listings never wait for writes. WAL journal.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

/// File name of the database inside a data directory.
pub const DB_FILE: &str = "platform.sqlite3";

/// Schema versions, applied in order; `PRAGMA user_version` records how many ran.
const MIGRATIONS: &[&str] = &[include_str!("schema.sql"), include_str!("schema2.sql")];

/// How long a statement waits for another process's lock (e.g. `app create` beside `serve`).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Readers kept open; more may be opened under load and are closed after use.
const POOLED_READERS: usize = 4;

pub struct Store {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Vec<Connection>>,
}

impl Store {
    /// Opens (creating if needed) the database in `data_dir` and brings its schema up to date.
    pub fn open(data_dir: &Path) -> rusqlite::Result<Store> {
        let path = data_dir.join(DB_FILE);
        let mut writer = open_connection(&path)?;
        migrate(&mut writer)?;
        Ok(Store {
            path,
            writer: Mutex::new(writer),
            readers: Mutex::new(Vec::new()),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in an immediate transaction, committed if `f` succeeds and rolled back if not.
    pub fn write<T, E>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let mut conn = lock(&self.writer);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs `f` on a reader connection inside one read transaction (a consistent snapshot).
    pub fn read<T, E>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let pooled = lock(&self.readers).pop();
        let mut conn = match pooled {
            Some(conn) => conn,
            None => open_connection(&self.path)?,
        };
        let value = {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
            f(&tx)
        };
        let mut readers = lock(&self.readers);
        if readers.len() < POOLED_READERS {
            readers.push(conn);
        }
        value
    }
}

/// A panic while the lock was held drops its transaction (rolled back), so the connection is
/// still sound: poisoning is ignored.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn open_connection(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // WAL + NORMAL: a committed transaction survives a crash of the process; a power loss
    // may roll back the last transactions before a checkpoint, never corrupt the file.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.set_prepared_statement_cache_capacity(64);
    Ok(conn)
}

fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let done: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let done = usize::try_from(done).unwrap_or_default();
    for sql in MIGRATIONS.iter().skip(done) {
        tx.execute_batch(sql)?;
    }
    if done < MIGRATIONS.len() {
        tx.pragma_update(None, "user_version", MIGRATIONS.len() as i64)?;
    }
    tx.commit()
}

/// Adds `by` to the counter `name` and returns the new value, if it stays within `max`.
pub fn bump_counter(
    tx: &Transaction<'_>,
    name: &str,
    by: i64,
    max: i64,
) -> rusqlite::Result<Option<i64>> {
    tx.execute(
        "INSERT INTO counters(name, value) VALUES (?1, 0) ON CONFLICT(name) DO NOTHING",
        [name],
    )?;
    let mut stmt = tx.prepare_cached(
        "UPDATE counters SET value = value + ?2 WHERE name = ?1 AND value + ?2 <= ?3 RETURNING value",
    )?;
    let mut rows = stmt.query(rusqlite::params![name, by, max])?;
    match rows.next()? {
        Some(row) => Ok(Some(row.get(0)?)),
        None => Ok(None),
    }
}

/// The next id of a kind, e.g. `CU0000000001` for prefix `CU`.
pub fn next_id(tx: &Transaction<'_>, prefix: &str) -> rusqlite::Result<String> {
    let n = bump_counter(tx, prefix, 1, i64::MAX - 1)?.unwrap_or_default();
    Ok(format!("{prefix}{n:010}"))
}
