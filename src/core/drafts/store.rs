//! The drafts' store: a SQLite file of its own, its log copied in after writes on a thread.

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;

use crate::core::CoreError;

/// A draft: the batch as JSON (it may not be valid yet) and the composer's UI hints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Draft {
    pub id: i64,
    pub name: String,
    /// The batch's JSON; empty when what is stored is not UTF-8 (then in `body_bytes`).
    pub body: String,
    /// What is stored, byte for byte, when it is not UTF-8 text (something else wrote it):
    /// kept so that it can be exported as it is.
    #[serde(skip)]
    pub body_bytes: Option<Vec<u8>>,
    pub hints: String,
    pub updated_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftSummary {
    pub id: i64,
    pub name: String,
    /// The composer's hints (small JSON: what the list shows of a draft besides its name).
    pub hints: String,
    pub updated_at: i64,
}

/// Version 1: the drafts as releases before versions were counted made them.
fn adopt(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS drafts (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, body TEXT NOT NULL,
            hints TEXT NOT NULL DEFAULT '{}', updated_at INTEGER NOT NULL);",
    )
}

pub struct Drafts {
    conn: Mutex<Connection>,
    /// Wakes the thread that copies the log into the database after writes; None when it did
    /// not start (SQLite then checkpoints as each write commits).
    checkpoints: Option<mpsc::Sender<()>>,
}

/// Writes that pause this long are checkpointed: a burst of saves (typing) once.
const CHECKPOINT_AFTER: Duration = Duration::from_millis(500);

impl Drafts {
    pub fn open(path: &Path) -> Result<Drafts, DraftsError> {
        if let Some(dir) = path.parent() {
            // A failure shows as the database's own when it opens.
            let _ = support::private_files::create_private_dir(dir);
        }
        if let Err(e) = support::private_files::ensure_private_file(path) {
            tracing::warn!(error = %e, path = %path.display(), "could not be made private");
        }
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Every keystroke is saved; a draft must survive a power loss too.
        conn.pragma_update(None, "synchronous", "FULL")?;
        db::sqlite::migrate_adopting(&mut conn, adopt, &[])?;
        let checkpoints = checkpointer(path);
        if checkpoints.is_some() {
            // A 10,000-order draft (5 MB) fills the log past SQLite's 1,000 pages at once: the
            // write that did so would copy it all into the database (and sync it twice) before
            // answering. That copy is made on the checkpointer's thread instead.
            conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        }
        Ok(Drafts {
            conn: Mutex::new(conn),
            checkpoints,
        })
    }

    /// A write committed: the log is copied into the database once writes pause.
    fn written(&self) {
        if let Some(wake) = &self.checkpoints {
            // The checkpoint thread has ended only with the store: nothing is left to copy.
            let _ = wake.send(());
        }
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn create(&self, name: &str, body: &str, hints: &str, now: i64) -> rusqlite::Result<i64> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO drafts(name, body, hints, updated_at) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![name, body, hints, now],
        )?;
        let id = conn.last_insert_rowid();
        drop(conn);
        self.written();
        Ok(id)
    }

    /// Saves the draft's content; false if it no longer exists.
    pub fn save(&self, id: i64, body: &str, hints: &str, now: i64) -> rusqlite::Result<bool> {
        let n = self.conn().execute(
            "UPDATE drafts SET body = ?2, hints = ?3, updated_at = ?4 WHERE id = ?1",
            rusqlite::params![id, body, hints, now],
        )?;
        self.written();
        Ok(n == 1)
    }

    /// The words the list shows of a draft, stored without its batch or a new time (the batch
    /// is as it was).
    pub fn set_hints(&self, id: i64, hints: &str) -> rusqlite::Result<bool> {
        let n = self.conn().execute(
            "UPDATE drafts SET hints = ?2 WHERE id = ?1",
            rusqlite::params![id, hints],
        )?;
        self.written();
        Ok(n == 1)
    }

    pub fn rename(&self, id: i64, name: &str, now: i64) -> rusqlite::Result<bool> {
        let n = self.conn().execute(
            "UPDATE drafts SET name = ?2, updated_at = ?3 WHERE id = ?1",
            rusqlite::params![id, name, now],
        )?;
        self.written();
        Ok(n == 1)
    }

    pub fn delete(&self, id: i64) -> rusqlite::Result<bool> {
        let n = self
            .conn()
            .execute("DELETE FROM drafts WHERE id = ?1", [id])?;
        self.written();
        Ok(n == 1)
    }

    pub fn load(&self, id: i64) -> rusqlite::Result<Option<Draft>> {
        self.conn()
            .query_row(
                "SELECT id, name, body, hints, updated_at FROM drafts WHERE id = ?1",
                [id],
                |r| {
                    let (body, body_bytes) = match std::str::from_utf8(stored_bytes(r, 2)?) {
                        Ok(text) => (text.to_owned(), None),
                        Err(_) => (String::new(), Some(stored_bytes(r, 2)?.to_vec())),
                    };
                    Ok(Draft {
                        id: r.get(0)?,
                        name: lenient_text(r, 1)?,
                        body,
                        body_bytes,
                        hints: lenient_text(r, 3)?,
                        updated_at: r.get(4)?,
                    })
                },
            )
            .optional()
    }

    /// Newest first.
    pub fn list(&self) -> rusqlite::Result<Vec<DraftSummary>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, name, hints, updated_at FROM drafts ORDER BY updated_at DESC, id DESC",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(DraftSummary {
                id: r.get(0)?,
                name: lenient_text(r, 1)?,
                hints: lenient_text(r, 2)?,
                updated_at: r.get(3)?,
            })
        })?;
        rows.collect()
    }
}

/// A text column's stored bytes (a blob's too: something other than this console may have
/// written the database).
fn stored_bytes<'r>(r: &'r rusqlite::Row<'_>, column: usize) -> rusqlite::Result<&'r [u8]> {
    match r.get_ref(column)? {
        ValueRef::Text(bytes) | ValueRef::Blob(bytes) => Ok(bytes),
        other => Err(rusqlite::Error::InvalidColumnType(
            column,
            String::new(),
            other.data_type(),
        )),
    }
}

/// The thread that checkpoints the drafts' log, on a connection of its own, once writes pause
/// (and once more when the drafts are closed); None when it cannot start.
fn checkpointer(path: &Path) -> Option<mpsc::Sender<()>> {
    let conn = Connection::open(path).ok()?;
    conn.busy_timeout(Duration::from_secs(5)).ok()?;
    let (wake, woken) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("license-desk-drafts-checkpoint".to_owned())
        .spawn(move || {
            while woken.recv().is_ok() {
                while woken.recv_timeout(CHECKPOINT_AFTER).is_ok() {}
                // PASSIVE: never waits for, nor holds up, a save.
                if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                    tracing::warn!(error = %e, "the drafts' log was not checkpointed");
                }
            }
        })
        .ok()?;
    Some(wake)
}

/// A name or hints as text even when damaged, so that one bad row never hides every draft;
/// bytes that are not UTF-8 read as `?` (the bundled fonts have no U+FFFD to show).
fn lenient_text(r: &rusqlite::Row<'_>, column: usize) -> rusqlite::Result<String> {
    let bytes = stored_bytes(r, column)?;
    Ok(match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).replace('\u{FFFD}', "?"),
    })
}

/// Runs `f` on the drafts' store, off the async threads.
pub(in crate::core) async fn in_store<T: Send + 'static>(
    drafts: &Arc<Drafts>,
    f: impl FnOnce(&Drafts) -> rusqlite::Result<T> + Send + 'static,
) -> Result<T, CoreError> {
    let drafts = Arc::clone(drafts);
    Ok(tokio::task::spawn_blocking(move || f(&drafts))
        .await?
        .map_err(DraftsError::Db)?)
}

/// Why a draft could not be read or kept.
#[derive(Debug, thiserror::Error)]
pub enum DraftsError {
    #[error("drafts: {0}")]
    Db(#[from] rusqlite::Error),
    /// Drafts a newer release migrated, or a version that failed to apply.
    #[error("drafts: {0}")]
    Schema(#[from] db::sql::StoreError),
    #[error("no draft {0}")]
    NoDraft(i64),
    /// Saved over a draft another window deleted meanwhile.
    #[error("the draft {0} no longer exists; save it as a new draft")]
    Gone(i64),
    /// The thread that stored it ended without an answer.
    #[error("the draft was not stored")]
    NotStored,
    #[error("the draft as JSON: {0}")]
    Json(#[from] serde_json::Error),
}
