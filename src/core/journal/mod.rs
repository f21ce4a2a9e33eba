//! The journal: every call of every profile, in a local SQLite file, with secrets redacted.
//! Queryable by time, operation and code; exportable to CSV and JSON.

pub mod requests;

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use rusqlite::Connection;
use serde::Serialize;

use super::ledger::{self, LedgerEntry, Run, TABLE};
use client::{CallRecord, WriteBegun, WriteEnded, WriteState};

/// JSON keys whose values are secrets wherever they appear in a body.
const SECRET_KEYS: [&str; 8] = [
    "access_token",
    "appSecret",
    "app_secret",
    "client_secret",
    "password",
    "passwords",
    "secret",
    "token",
];

/// Replaces the values of secret keys in a JSON body with `***`; other text is kept as is.
pub fn redact(body: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(body) else {
        return body.to_owned();
    };
    fn walk(v: &mut serde_json::Value) -> bool {
        let mut changed = false;
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if SECRET_KEYS.iter().any(|s| s.eq_ignore_ascii_case(k)) && !v.is_null() {
                        *v = serde_json::Value::String("***".to_owned());
                        changed = true;
                    } else {
                        changed |= walk(v);
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    changed |= walk(item);
                }
            }
            _ => {}
        }
        changed
    }
    if walk(&mut value) {
        value.to_string()
    } else {
        body.to_owned()
    }
}

/// One recorded attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntry {
    pub id: i64,
    /// Epoch milliseconds.
    pub at: i64,
    pub profile: String,
    pub operation: crate::core::Operation,
    pub method: String,
    pub path: String,
    pub nonce: Option<String>,
    pub http_status: Option<u16>,
    pub code: Option<String>,
    pub duration_ms: i64,
    pub attempt: u32,
    pub request: Option<String>,
    pub response: Option<String>,
    pub error: Option<String>,
    /// The attempts of one call share it (None in entries from before the ledger).
    pub call_id: Option<String>,
    /// Refusals inside an answered success (a lock's statuses, a claim's code).
    pub refusal: Option<String>,
    /// Where the write this attempt belongs to stands (None for reads and older entries).
    pub state: Option<WriteState>,
    /// The kind of the attempt's failure (`not_sent`, `broken`, `timeout`, `platform`, …).
    pub failure: Option<String>,
}

impl JournalEntry {
    /// The columns of the CSV export, as the JSON export names the fields.
    pub const CSV_HEADER: [&'static str; 18] = [
        "id",
        "at",
        "profile",
        "operation",
        "method",
        "path",
        "nonce",
        "httpStatus",
        "code",
        "durationMs",
        "attempt",
        "request",
        "response",
        "error",
        "callId",
        "refusal",
        "state",
        "failure",
    ];

    /// The entry as the CSV export's cells, in `CSV_HEADER`'s order (empty for none).
    pub fn csv_row(&self) -> Vec<String> {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        vec![
            self.id.to_string(),
            self.at.to_string(),
            self.profile.clone(),
            self.operation.name().to_owned(),
            self.method.clone(),
            self.path.clone(),
            text(&self.nonce),
            self.http_status.map(|s| s.to_string()).unwrap_or_default(),
            text(&self.code),
            self.duration_ms.to_string(),
            self.attempt.to_string(),
            text(&self.request),
            text(&self.response),
            text(&self.error),
            text(&self.call_id),
            text(&self.refusal),
            self.state.map(|s| s.name().to_owned()).unwrap_or_default(),
            text(&self.failure),
        ]
    }

    /// The attempt failed (no answer, an error status), was refused (a code other than the
    /// order group's `0` and the activity group's `0000`, or some items refused), or belongs
    /// to a write that did not end done. A write held for approval did not fail: it waits.
    /// The query's `failures_only` says the same in SQL.
    pub fn failed(&self) -> bool {
        if self.state == Some(WriteState::Held) {
            return false;
        }
        self.error.is_some()
            || self.refusal.is_some()
            || self
                .code
                .as_deref()
                .is_some_and(|c| c != "0" && c != "0000")
            || self.state.is_some_and(|s| {
                matches!(
                    s,
                    WriteState::Refused | WriteState::Unknown | WriteState::NotSent
                )
            })
    }
}

/// Which entries: all conditions that are set must hold. Newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JournalFilter {
    pub since_ms: Option<i64>,
    pub until_ms: Option<i64>,
    pub operation: Option<crate::core::Operation>,
    pub code: Option<String>,
    pub profile: Option<String>,
    /// Only the calls that failed or were refused ([`JournalEntry::failed`]).
    pub failures_only: bool,
    /// At most this many (0: no limit).
    pub limit: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("journal: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("journal export: {0}")]
    Io(#[from] std::io::Error),
    #[error("journal export: {0}")]
    Json(#[from] serde_json::Error),
    #[error("journal: {0}")]
    Open(#[from] super::local_db::OpenError),
    #[error("no call {0:?} whose outcome is unknown: only an unknown outcome is settled by hand")]
    NotUnknown(String),
    #[error("journal: {0}")]
    Store(#[from] db::sql::StoreError),
    /// The write was settled before it left (the program is stopping): it is not sent.
    #[error("the call {0} was settled before it left (the program is stopping)")]
    Settled(String),
    #[error("the journal has stopped")]
    Stopped,
    #[error("cannot write {}: {source}", path.display())]
    Export {
        path: std::path::PathBuf,
        source: Box<JournalError>,
    },
}

pub struct Journal {
    conn: Mutex<Connection>,
    run: Run,
}

/// The `failure` of a write's journal row between its beginning and its first attempt.
const BEGUN: &str = "begun";

/// The `error` of that row: should the program end before an answer, it stays so (and the
/// ledger says what became of the call).
const NOT_ANSWERED: &str =
    "no answer recorded: the call was on its way, or the program ended first";

impl Journal {
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        // A write is recorded before it is sent: that record must outlive a power cut too.
        let mut conn = super::local_db::open(path)?;
        super::local_db::migrate(&mut conn, adopt, LATER)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let run = Run::claim(dir)?;
        let settled = ledger::settle_orphans(&conn, dir, &run.id)?;
        if settled > 0 {
            tracing::warn!(
                settled,
                "writes left in flight by an ended run: outcome unknown"
            );
        }
        Ok(Journal {
            conn: Mutex::new(conn),
            run,
        })
    }

    /// The writes this run still has in flight, as it stops: outcome unknown.
    pub fn settle_in_flight(&self) -> Result<usize, JournalError> {
        Ok(ledger::settle_own(&self.conn(), &self.run.id)?)
    }

    /// Records a write before it is sent: in the ledger, and as the call's row of the journal
    /// (its first attempt's record fills it in), so that a program killed before any answer
    /// leaves the call in `call history` too.
    pub fn begin_write(&self, profile: &str, w: &WriteBegun) -> Result<(), JournalError> {
        let conn = self.conn();
        client::ledger::begin(&*conn, &TABLE, profile, &self.run.id, w)?;
        conn.prepare_cached(
            "INSERT INTO calls(at, profile, operation, method, path, duration_ms, attempt, error, \
             call_id, failure) VALUES (?1, ?2, ?3, 'POST', '', 0, 0, ?4, ?5, ?6)",
        )?
        .execute(rusqlite::params![
            w.started_at_ms,
            profile,
            w.operation.name(),
            NOT_ANSWERED,
            w.call_id,
            BEGUN,
        ])?;
        Ok(())
    }

    /// Marks a write as leaving, before its first request is written.
    pub fn write_sending(&self, call_id: &str) -> Result<(), JournalError> {
        let at = support::clock::now_ms();
        match client::ledger::sending(&*self.conn(), &TABLE, call_id, &self.run.id, at)? {
            true => Ok(()),
            false => Err(JournalError::Settled(call_id.to_owned())),
        }
    }

    pub fn end_write(&self, w: &WriteEnded) -> Result<(), JournalError> {
        Ok(client::ledger::end(&*self.conn(), &TABLE, w)?)
    }

    /// Settles an unknown outcome by the user's word; None when it was not unknown.
    pub fn resolve_write(
        &self,
        call_id: &str,
        done: bool,
        by: &str,
    ) -> Result<Option<LedgerEntry>, JournalError> {
        let at = support::clock::now_ms();
        Ok(ledger::resolve(&self.conn(), call_id, done, by, at)?)
    }

    pub fn write(&self, call_id: &str) -> Result<Option<LedgerEntry>, JournalError> {
        Ok(ledger::get(&self.conn(), call_id)?)
    }

    /// The ledger's writes, newest first.
    pub fn writes(
        &self,
        profile: Option<&str>,
        state: Option<WriteState>,
        limit: usize,
    ) -> Result<Vec<LedgerEntry>, JournalError> {
        Ok(ledger::list(&self.conn(), profile, state, limit)?)
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records an attempt; a write's first replaces the row its beginning left.
    pub fn record(&self, profile: &str, r: &CallRecord) -> Result<(), JournalError> {
        let conn = self.conn();
        let (request, response) = (
            r.request.as_deref().map(redact),
            r.response.as_deref().map(redact),
        );
        let duration = i64::try_from(r.duration.as_millis()).unwrap_or(i64::MAX);
        let params = rusqlite::params![
            r.started_at_ms,
            profile,
            r.operation.name(),
            r.method,
            r.path,
            r.nonce,
            r.http_status,
            r.code,
            duration,
            r.attempt,
            request,
            response,
            r.error,
            r.call_id,
            r.refusal,
            r.failure,
        ];
        if let (Some(call_id), 1) = (&r.call_id, r.attempt) {
            // The attempt takes the begun row's place, at the end of the journal, as a call's
            // row always was (after its token's).
            conn.prepare_cached("DELETE FROM calls WHERE call_id = ?1 AND failure = ?2")?
                .execute(rusqlite::params![call_id, BEGUN])?;
        }
        conn.prepare_cached(
            "INSERT INTO calls(at, profile, operation, method, path, nonce, http_status, code, \
             duration_ms, attempt, request, response, error, call_id, refusal, failure) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        )?
        .execute(params)?;
        Ok(())
    }

    pub fn query(&self, f: &JournalFilter) -> Result<Vec<JournalEntry>, JournalError> {
        let limit = if f.limit == 0 { -1 } else { f.limit as i64 };
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT c.id, c.at, c.profile, c.operation, c.method, c.path, c.nonce, c.http_status, \
             c.code, c.duration_ms, c.attempt, c.request, c.response, c.error, c.call_id, \
             c.refusal, w.state, c.failure FROM calls c LEFT JOIN writes w ON w.call_id = c.call_id \
             WHERE (?1 IS NULL OR c.at >= ?1) AND (?2 IS NULL OR c.at <= ?2) \
             AND (?3 IS NULL OR c.operation = ?3) AND (?4 IS NULL OR c.code = ?4) \
             AND (?5 IS NULL OR c.profile = ?5) \
             AND (?7 = 0 OR (COALESCE(w.state, '') <> 'held' \
                  AND (c.error IS NOT NULL OR c.refusal IS NOT NULL \
                  OR (c.code IS NOT NULL AND c.code NOT IN ('0', '0000')) \
                  OR w.state IN ('refused', 'unknown', 'not_sent')))) \
             ORDER BY c.id DESC LIMIT ?6",
        )?;
        let rows = stmt.query_map(
            rusqlite::params![
                f.since_ms,
                f.until_ms,
                f.operation.map(crate::core::Operation::name),
                f.code,
                f.profile,
                limit,
                f.failures_only
            ],
            |r| {
                Ok(JournalEntry {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    profile: r.get(2)?,
                    operation: crate::core::ledger::operation_at(r, 3)?,
                    method: r.get(4)?,
                    path: r.get(5)?,
                    nonce: r.get(6)?,
                    http_status: r.get(7)?,
                    code: r.get(8)?,
                    duration_ms: r.get(9)?,
                    attempt: r.get(10)?,
                    request: r.get(11)?,
                    response: r.get(12)?,
                    error: r.get(13)?,
                    call_id: r.get(14)?,
                    refusal: r.get(15)?,
                    state: r
                        .get::<_, Option<String>>(16)?
                        .map(|s| WriteState::from_name(&s).unwrap_or(WriteState::Unknown)),
                    failure: r.get(17)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes the entries as CSV (bodies included), through the program's one CSV writer (no
    /// cell a spreadsheet would run as a formula); returns how many.
    pub fn export_csv(
        &self,
        f: &JournalFilter,
        mut out: impl std::io::Write,
    ) -> Result<usize, JournalError> {
        let entries = self.query(f)?;
        let text = super::csv_out::csv_text(
            &JournalEntry::CSV_HEADER,
            entries.iter().map(JournalEntry::csv_row),
            false,
        );
        out.write_all(text.as_bytes())?;
        Ok(entries.len())
    }

    /// Writes the entries to `path` as CSV or JSON, whole or not at all (a failed export leaves
    /// the file that was there as it was); returns how many.
    pub fn export_file(
        &self,
        f: &JournalFilter,
        path: &Path,
        format: crate::core::ExportFormat,
    ) -> Result<usize, JournalError> {
        let mut bytes = Vec::new();
        let count = match format {
            crate::core::ExportFormat::Csv => self.export_csv(f, &mut bytes)?,
            crate::core::ExportFormat::Json => self.export_json(f, &mut bytes)?,
        };
        support::private_files::write_atomic(path, &bytes)?;
        Ok(count)
    }

    /// Writes the entries as one JSON array; returns how many.
    pub fn export_json(
        &self,
        f: &JournalFilter,
        out: impl std::io::Write,
    ) -> Result<usize, JournalError> {
        let entries = self.query(f)?;
        serde_json::to_writer_pretty(out, &entries)?;
        Ok(entries.len())
    }
}

/// Adds a column to `calls` that journals written before it lack.
/// The journal's versions after the first (none yet).
const LATER: &[&str] = &[];

/// Version 1: the journal as every release before versions were counted left it, whichever
/// of its columns it had by then.
fn adopt(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS calls (
            id INTEGER PRIMARY KEY, at INTEGER NOT NULL, profile TEXT NOT NULL,
            operation TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, nonce TEXT,
            http_status INTEGER, code TEXT, duration_ms INTEGER NOT NULL, attempt INTEGER NOT NULL,
            request TEXT, response TEXT, error TEXT);
         CREATE INDEX IF NOT EXISTS calls_at ON calls(at);
         CREATE INDEX IF NOT EXISTS calls_operation ON calls(operation, at);",
    )?;
    conn.execute_batch(ledger::SCHEMA)?;
    add_column_to(conn, "writes", "sending_at", "INTEGER")?;
    add_column(conn, "call_id", "TEXT")?;
    add_column(conn, "refusal", "TEXT")?;
    add_column(conn, "failure", "TEXT")?;
    conn.execute_batch("CREATE INDEX IF NOT EXISTS calls_call ON calls(call_id);")
}

fn add_column(conn: &Connection, name: &str, kind: &str) -> rusqlite::Result<()> {
    add_column_to(conn, "calls", name, kind)
}

fn add_column_to(conn: &Connection, table: &str, name: &str, kind: &str) -> rusqlite::Result<()> {
    let exists = conn
        .prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")?
        .exists([table, name])?;
    if !exists {
        conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {name} {kind}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::JournalEntry;

    /// A journal kept before versions were counted (its first columns only) is adopted and
    /// gains the later ones, its rows kept; one a newer release migrated opens nothing.
    #[test]
    fn an_old_journal_is_adopted_and_a_newer_one_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("journal.sqlite3");
        let old = rusqlite::Connection::open(&path).expect("old");
        old.execute_batch(
            "CREATE TABLE calls (
                id INTEGER PRIMARY KEY, at INTEGER NOT NULL, profile TEXT NOT NULL,
                operation TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, nonce TEXT,
                http_status INTEGER, code TEXT, duration_ms INTEGER NOT NULL,
                attempt INTEGER NOT NULL, request TEXT, response TEXT, error TEXT);
             INSERT INTO calls(at, profile, operation, method, path, duration_ms, attempt)
                 VALUES (1, 'Sandbox', 'lock', 'POST', '/x', 2, 1);",
        )
        .expect("an old journal");
        drop(old);
        let journal = super::Journal::open(&path).expect("adopted");
        let kept: (String, Option<String>) = journal
            .conn()
            .query_row("SELECT profile, call_id FROM calls", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .expect("the old row, with the new column");
        assert_eq!(kept, ("Sandbox".to_owned(), None));
        journal
            .conn()
            .pragma_update(None, "user_version", 9)
            .expect("as a newer release would");
        drop(journal);
        let refused = super::Journal::open(&path).err().map(|e| e.to_string());
        assert_eq!(
            refused.as_deref(),
            Some(
                "journal: the database is at schema version 9; this release knows up to 1: \
                 run the newer release, or restore a backup taken before it ran"
            )
        );
    }

    #[test]
    fn the_csv_columns_are_the_json_fields() {
        let entry = JournalEntry {
            id: 1,
            at: 2,
            profile: "p".into(),
            operation: crate::core::Operation::Lock,
            method: "POST".into(),
            path: "/".into(),
            nonce: None,
            http_status: None,
            code: None,
            duration_ms: 3,
            attempt: 1,
            request: None,
            response: None,
            error: None,
            call_id: None,
            refusal: None,
            state: None,
            failure: None,
        };
        let json = serde_json::to_value(&entry).expect("json");
        let keys: Vec<&str> = json
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        let mut header = JournalEntry::CSV_HEADER.to_vec();
        let mut keys = keys;
        header.sort_unstable();
        keys.sort_unstable();
        assert_eq!(keys, header);
        assert_eq!(entry.csv_row().len(), JournalEntry::CSV_HEADER.len());
    }
}
