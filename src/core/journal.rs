//! The journal: every call of every profile, in a local SQLite file, with secrets redacted.
//! Queryable by time, operation and code; exportable to CSV and JSON.

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use rusqlite::Connection;
use serde::Serialize;

use crate::client::CallRecord;

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
    pub operation: String,
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
}

impl JournalEntry {
    /// The call failed (no answer, an error status) or was refused (a code other than the
    /// order group's `0` and the activity group's `0000`). The query's `failures_only` says
    /// the same in SQL.
    pub fn failed(&self) -> bool {
        self.error.is_some()
            || self
                .code
                .as_deref()
                .is_some_and(|c| c != "0" && c != "0000")
    }
}

/// Which entries: all conditions that are set must hold. Newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JournalFilter {
    pub since_ms: Option<i64>,
    pub until_ms: Option<i64>,
    pub operation: Option<String>,
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
    Csv(#[from] csv::Error),
    #[error("journal export: {0}")]
    Json(#[from] serde_json::Error),
}

pub struct Journal {
    conn: Mutex<Connection>,
}

impl Journal {
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        if let Some(dir) = path.parent() {
            crate::private_files::create_private_dir(dir)?;
        }
        crate::private_files::ensure_private_file(path)?;
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS calls (
                id INTEGER PRIMARY KEY, at INTEGER NOT NULL, profile TEXT NOT NULL,
                operation TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, nonce TEXT,
                http_status INTEGER, code TEXT, duration_ms INTEGER NOT NULL, attempt INTEGER NOT NULL,
                request TEXT, response TEXT, error TEXT);
             CREATE INDEX IF NOT EXISTS calls_at ON calls(at);
             CREATE INDEX IF NOT EXISTS calls_operation ON calls(operation, at);",
        )?;
        Ok(Journal {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn record(&self, profile: &str, r: &CallRecord) -> Result<(), JournalError> {
        self.conn()
            .prepare_cached(
                "INSERT INTO calls(at, profile, operation, method, path, nonce, http_status, code, \
                 duration_ms, attempt, request, response, error) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(rusqlite::params![
                r.started_at_ms,
                profile,
                r.operation.name(),
                r.method,
                r.path,
                r.nonce,
                r.http_status,
                r.code,
                i64::try_from(r.duration.as_millis()).unwrap_or(i64::MAX),
                r.attempt,
                r.request.as_deref().map(redact),
                r.response.as_deref().map(redact),
                r.error,
            ])?;
        Ok(())
    }

    pub fn query(&self, f: &JournalFilter) -> Result<Vec<JournalEntry>, JournalError> {
        let limit = if f.limit == 0 { -1 } else { f.limit as i64 };
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT id, at, profile, operation, method, path, nonce, http_status, code, duration_ms, \
             attempt, request, response, error FROM calls \
             WHERE (?1 IS NULL OR at >= ?1) AND (?2 IS NULL OR at <= ?2) \
             AND (?3 IS NULL OR operation = ?3) AND (?4 IS NULL OR code = ?4) \
             AND (?5 IS NULL OR profile = ?5) \
             AND (?7 = 0 OR error IS NOT NULL OR (code IS NOT NULL AND code NOT IN ('0', '0000'))) \
             ORDER BY id DESC LIMIT ?6",
        )?;
        let rows = stmt.query_map(
            rusqlite::params![
                f.since_ms,
                f.until_ms,
                f.operation,
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
                    operation: r.get(3)?,
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
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes the entries as CSV (bodies included); returns how many.
    pub fn export_csv(
        &self,
        f: &JournalFilter,
        out: impl std::io::Write,
    ) -> Result<usize, JournalError> {
        let entries = self.query(f)?;
        let mut w = csv::Writer::from_writer(out);
        for e in &entries {
            w.serialize(e)?;
        }
        w.flush()?;
        Ok(entries.len())
    }

    /// Writes the entries to `path` as CSV or JSON, whole or not at all (a failed export leaves
    /// the file that was there as it was); returns how many.
    pub fn export_file(
        &self,
        f: &JournalFilter,
        path: &Path,
        format: super::ExportFormat,
    ) -> Result<usize, JournalError> {
        let mut bytes = Vec::new();
        let count = match format {
            super::ExportFormat::Csv => self.export_csv(f, &mut bytes)?,
            super::ExportFormat::Json => self.export_json(f, &mut bytes)?,
        };
        crate::private_files::write_atomic(path, &bytes)?;
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
