//! Send later: batches and lock changes kept while their platform cannot be reached, in a
//! local SQLite file, sent in order (each to its own profile) when it answers again. An entry
//! is taken for sending by one conditional update, so that two programs of the same user
//! never both send it; one taken by a program that then died ends as its call did in the
//! ledger (back to waiting only when the ledger shows it never left), never sent again by
//! itself otherwise. A profile's queue stops at its first unknown outcome.

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::core::Call;
use wire::open::{Source, batch_to_value, open_object};

/// What a queued entry sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
enum Kept {
    /// The batch as JSON, every value as it was (also those the console does not know).
    Batch { batch: serde_json::Value },
    Lock {
        nums: Vec<String>,
        operator: Option<String>,
    },
    Unlock {
        nums: Vec<String>,
        operator: Option<String>,
    },
}

/// Where an entry stands.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum QueueState {
    Waiting,
    Sending,
    Done,
    Refused,
    /// Sent, no answer: the queue of its profile waits for the user.
    Unknown,
    /// Kept by a team server as a request for another person to approve: the queue is done
    /// with it (the team server sends it once approved).
    Held,
}

impl QueueState {
    fn name(self) -> &'static str {
        self.into()
    }

    /// A state this program does not know (a newer one wrote it) waits for the user.
    fn from_name(name: &str) -> Self {
        name.parse().unwrap_or(Self::Unknown)
    }
}

/// One entry, as the queue screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueuedEntry {
    pub id: i64,
    pub profile: String,
    /// The operation kept (`batch_order`, `lock`, `unlock`).
    pub operation: crate::core::Operation,
    /// Orders of a batch, or numbers of a lock change.
    pub items: usize,
    /// A batch's channelOrderId.
    pub channel_order_id: Option<String>,
    pub created_at: i64,
    pub state: QueueState,
    /// Why it stands so: the platform's words, or what was not reached.
    pub detail: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("send later: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("send later: {0}")]
    Open(#[from] crate::core::local_db::OpenError),
    #[error("send later: only batches, locks and unlocks wait to be sent")]
    NotQueueable,
    #[error("send later: an entry cannot be read: {0}")]
    Json(#[from] serde_json::Error),
    /// This program's run could not be claimed, so nothing is sent from the queue.
    #[error("send later: {0}")]
    Run(std::io::Error),
    #[error("send later: no run to send as")]
    NoRun,
}

/// Version 1: the queue as releases before versions were counted made it.
fn adopt(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS queued (
            id INTEGER PRIMARY KEY, profile TEXT NOT NULL, operation TEXT NOT NULL,
            call TEXT NOT NULL, items INTEGER NOT NULL, channel_order_id TEXT,
            created_at INTEGER NOT NULL, state TEXT NOT NULL, detail TEXT, owner TEXT,
            call_id TEXT);",
    )
}

pub struct Queue {
    conn: Mutex<Connection>,
}

impl Queue {
    /// Opens the queue.
    pub fn open(path: &Path) -> Result<Queue, QueueError> {
        let mut conn = crate::core::local_db::open(path)?;
        crate::core::local_db::migrate(&mut conn, adopt, &[])?;
        Ok(Queue {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Entries being sent by a program that is no longer running (`alive` says which are),
    /// with the ledger's id of their call: their fate is the ledger's.
    pub fn orphans(&self, alive: impl Fn(&str) -> bool) -> Result<Vec<(i64, String)>, QueueError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT id, owner, call_id FROM queued WHERE state = 'sending'")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get(2)?,
            ))
        })?;
        let mut orphans = Vec::new();
        for row in rows {
            let (id, owner, call_id): (i64, Option<String>, Option<String>) = row?;
            if !owner.as_deref().is_some_and(&alive) {
                orphans.push((id, call_id.unwrap_or_default()));
            }
        }
        Ok(orphans)
    }

    /// Keeps a call to send later to `profile`.
    pub fn add(&self, profile: &str, call: &Call, now: i64) -> Result<i64, QueueError> {
        let (kept, items, channel_order_id) = match call {
            Call::BatchOrder(b) => (
                Kept::Batch {
                    batch: batch_to_value(b),
                },
                b.order_list.len(),
                b.channel_order_id.clone(),
            ),
            Call::Lock { nums, operator } => (
                Kept::Lock {
                    nums: nums.clone(),
                    operator: operator.clone(),
                },
                nums.len(),
                None,
            ),
            Call::Unlock { nums, operator } => (
                Kept::Unlock {
                    nums: nums.clone(),
                    operator: operator.clone(),
                },
                nums.len(),
                None,
            ),
            _ => return Err(QueueError::NotQueueable),
        };
        let conn = self.conn();
        conn.execute(
            "INSERT INTO queued(profile, operation, call, items, channel_order_id, created_at, state) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'waiting')",
            params![
                profile,
                call.operation().name(),
                serde_json::to_string(&kept)?,
                items as i64,
                channel_order_id,
                now
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// Every entry, oldest first.
    pub fn list(&self) -> Result<Vec<QueuedEntry>, QueueError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, profile, operation, items, channel_order_id, created_at, state, detail \
             FROM queued ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(QueuedEntry {
                id: r.get(0)?,
                profile: r.get(1)?,
                operation: crate::core::ledger::operation_at(r, 2)?,
                items: r.get::<_, i64>(3)?.try_into().unwrap_or_default(),
                channel_order_id: r.get(4)?,
                created_at: r.get(5)?,
                state: QueueState::from_name(&r.get::<_, String>(6)?),
                detail: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Removes an entry that is not being sent.
    pub fn remove(&self, id: i64) -> Result<(), QueueError> {
        self.conn().execute(
            "DELETE FROM queued WHERE id = ?1 AND state != 'sending'",
            [id],
        )?;
        Ok(())
    }

    /// The profiles whose queue can go on: entries waiting, none unknown or being sent.
    pub fn ready_profiles(&self) -> Result<Vec<String>, QueueError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT DISTINCT profile FROM queued q WHERE state = 'waiting' AND NOT EXISTS \
             (SELECT 1 FROM queued o WHERE o.profile = q.profile AND o.state IN ('unknown', 'sending'))",
        )?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Takes the profile's oldest waiting entry for sending (None when there is none, or
    /// another program took it first), with its call; `call_id` is the ledger's id it goes by.
    pub fn take_next(
        &self,
        profile: &str,
        owner: &str,
        call_id: &str,
    ) -> Result<Option<(i64, Call)>, QueueError> {
        let conn = self.conn();
        let next: Option<(i64, String)> = conn
            .query_row(
                "SELECT id, call FROM queued WHERE profile = ?1 AND state = 'waiting' \
                 ORDER BY id LIMIT 1",
                [profile],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some((id, text)) = next else {
            return Ok(None);
        };
        let taken = conn.execute(
            "UPDATE queued SET state = 'sending', owner = ?2, call_id = ?3 \
             WHERE id = ?1 AND state = 'waiting'",
            params![id, owner, call_id],
        )?;
        if taken == 0 {
            return Ok(None);
        }
        let call = match serde_json::from_str::<Kept>(&text)? {
            Kept::Batch { batch } => {
                let obj = match batch {
                    serde_json::Value::Object(obj) => obj,
                    _ => serde_json::Map::new(),
                };
                Call::BatchOrder(open_object(obj, Source::Json))
            }
            Kept::Lock { nums, operator } => Call::Lock { nums, operator },
            Kept::Unlock { nums, operator } => Call::Unlock { nums, operator },
        };
        Ok(Some((id, call)))
    }

    /// How a sent entry ended (back to waiting when nothing left the machine).
    pub fn ended(
        &self,
        id: i64,
        state: QueueState,
        detail: Option<&str>,
    ) -> Result<(), QueueError> {
        self.conn().execute(
            "UPDATE queued SET state = ?2, detail = ?3, owner = NULL WHERE id = ?1",
            params![id, state.name(), detail],
        )?;
        Ok(())
    }
}

/// The queue in `data_dir`, and this program's run.
pub(in crate::core) fn open_with_run(
    data_dir: &Path,
) -> (
    Result<std::sync::Arc<Queue>, std::sync::Arc<QueueError>>,
    Option<crate::core::ledger::Run>,
) {
    let opened = Queue::open(&data_dir.join("queue.sqlite3"));
    match (opened, crate::core::ledger::Run::claim(data_dir)) {
        (Ok(queue), Ok(run)) => (Ok(std::sync::Arc::new(queue)), Some(run)),
        (Err(e), _) => {
            tracing::error!(error = %e, "the queue to send later cannot be opened");
            (Err(std::sync::Arc::new(e)), None)
        }
        (Ok(_), Err(e)) => (Err(std::sync::Arc::new(QueueError::Run(e))), None),
    }
}
