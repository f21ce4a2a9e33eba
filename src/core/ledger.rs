//! The ledger of writes, in the journal's file: every call that changes a platform, recorded
//! before it is sent and updated when it ends (done, refused, not sent, outcome unknown).
//!
//! Each process that sends holds a lock on a file of its own run (`runs/RUN.lock`) while it
//! lives. A write still in flight whose run's lock can be taken was sent by a process that
//! died (closed, killed, cut off): its outcome is unknown, and the next start says so. A run
//! still alive (the window while a script calls) keeps its writes in flight.

use std::fs::File;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use client::ledger::{self, Settling};
use client::{Operation, WriteState};
use db::sql::StoreError;

pub const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS writes (
    call_id TEXT PRIMARY KEY, profile TEXT NOT NULL, operation TEXT NOT NULL,
    run_id TEXT NOT NULL, channel_order_id TEXT, body_hash TEXT NOT NULL, items INTEGER NOT NULL,
    started_at INTEGER NOT NULL, ended_at INTEGER, state TEXT NOT NULL, code TEXT, detail TEXT,
    attempts INTEGER NOT NULL DEFAULT 0, resolved_by TEXT, resolved_at INTEGER,
    sending_at INTEGER);
 CREATE INDEX IF NOT EXISTS writes_state ON writes(state, started_at);";

/// One write as the ledger holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntry {
    pub call_id: String,
    pub profile: String,
    pub operation: Operation,
    pub channel_order_id: Option<String>,
    pub body_hash: String,
    pub items: i64,
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub state: WriteState,
    pub code: Option<String>,
    pub detail: Option<String>,
    pub attempts: u32,
    /// Who settled an unknown outcome by hand, and when.
    pub resolved_by: Option<String>,
    pub resolved_at: Option<i64>,
}

/// This process's run: its id, and the lock that says it is alive.
pub struct Run {
    pub id: String,
    _lock: File,
}

impl Run {
    /// Claims a new run in `dir/runs/`.
    pub fn claim(dir: &Path) -> std::io::Result<Run> {
        let runs = dir.join("runs");
        support::private_files::create_private_dir(&runs)?;
        let id = client::write::new_call_id(support::clock::now_ms());
        let path = lock_path(&runs, &id);
        let lock = File::create(&path)?;
        lock.try_lock().map_err(std::io::Error::other)?;
        Ok(Run { id, _lock: lock })
    }
}

fn lock_path(runs: &Path, run_id: &str) -> PathBuf {
    runs.join(format!("{run_id}.lock"))
}

/// Whether the run's process has ended: its lock can be taken (or its file is gone).
pub fn run_ended(runs: &Path, run_id: &str) -> bool {
    let path = lock_path(runs, run_id);
    let Ok(file) = File::options().write(true).open(&path) else {
        return true;
    };
    let ended = file.try_lock().is_ok();
    drop(file);
    if ended {
        // A lock file left behind is claimed again by the next run.
        let _ = std::fs::remove_file(&path);
    }
    ended
}

/// The console's ledger table: a write is made for a profile and sent by a run.
pub const TABLE: ledger::Table = client::ledger_table!("writes", "profile", "run_id");

/// Writes in flight whose process has ended become outcome unknown; answers how many.
pub fn settle_orphans(conn: &Connection, dir: &Path, me: &str) -> Result<usize, StoreError> {
    let runs = dir.join("runs");
    let mut settled = 0;
    for run in ledger::in_flight_owners(conn, &TABLE)? {
        if run != me && run_ended(&runs, &run) {
            let why = Settling {
                left: "the program ended while the call was being sent; no answer was read",
                not_left: NOT_LEFT,
            };
            settled += ledger::settle(conn, &TABLE, &run, why, support::clock::now_ms())?;
        }
    }
    Ok(settled)
}

/// What a write that never left says when its run ended.
const NOT_LEFT: &str = "the program ended before the call left (no request was written)";

/// This run's writes still in flight when it stops waiting for them: unknown.
pub fn settle_own(conn: &Connection, me: &str) -> Result<usize, StoreError> {
    let why = Settling {
        left: "the program stopped waiting for the answer",
        not_left: NOT_LEFT,
    };
    ledger::settle(conn, &TABLE, me, why, support::clock::now_ms())
}

/// The user settles an unknown outcome: done, or not done. Answers the entry as it is now, or
/// None when there is no such call or its outcome is known.
pub fn resolve(
    conn: &Connection,
    call_id: &str,
    done: bool,
    by: &str,
    at: i64,
) -> rusqlite::Result<Option<LedgerEntry>> {
    let state = if done {
        WriteState::Done
    } else {
        WriteState::NotSent
    };
    let changed = conn.execute(
        "UPDATE writes SET state = ?2, resolved_by = ?3, resolved_at = ?4 \
         WHERE call_id = ?1 AND state = 'unknown'",
        params![call_id, state.name(), by, at],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    get(conn, call_id)
}

const COLUMNS: &str = "call_id, profile, operation, channel_order_id, body_hash, items, \
    started_at, ended_at, state, code, detail, attempts, resolved_by, resolved_at";

/// The operation named in column `i` (a name no operation has is the row's error).
pub fn operation_at(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Operation> {
    r.get::<_, String>(i)?.parse().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<LedgerEntry> {
    let state: String = r.get(8)?;
    Ok(LedgerEntry {
        call_id: r.get(0)?,
        profile: r.get(1)?,
        operation: operation_at(r, 2)?,
        channel_order_id: r.get(3)?,
        body_hash: r.get(4)?,
        items: r.get(5)?,
        started_at: r.get(6)?,
        ended_at: r.get(7)?,
        // A state this build does not know is read as the one that promises least.
        state: WriteState::from_name(&state).unwrap_or(WriteState::Unknown),
        code: r.get(9)?,
        detail: r.get(10)?,
        attempts: r.get(11)?,
        resolved_by: r.get(12)?,
        resolved_at: r.get(13)?,
    })
}

pub fn get(conn: &Connection, call_id: &str) -> rusqlite::Result<Option<LedgerEntry>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM writes WHERE call_id = ?1"))?
        .query_row([call_id], entry)
        .optional()
}

/// The writes of a profile (or all), newest first; only those in `state` when given.
pub fn list(
    conn: &Connection,
    profile: Option<&str>,
    state: Option<WriteState>,
    limit: usize,
) -> rusqlite::Result<Vec<LedgerEntry>> {
    let limit = if limit == 0 { -1 } else { limit as i64 };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM writes WHERE (?1 IS NULL OR profile = ?1) \
         AND (?2 IS NULL OR state = ?2) ORDER BY started_at DESC, call_id DESC LIMIT ?3"
    ))?;
    let rows = stmt.query_map(params![profile, state.map(WriteState::name), limit], entry)?;
    rows.collect()
}
