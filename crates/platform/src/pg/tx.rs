//! [`sql::Tx`] on a pooled PostgreSQL connection, used from a blocking thread: each statement
//! waits with `Handle::block_on` while the connection's task runs on the runtime.
//!
//! The transaction begins with its first statement, not before: in a REPEATABLE READ or
//! SERIALIZABLE transaction the snapshot is taken by the first statement, so a lock taken
//! inside the transaction is taken after the snapshot, and a transaction that waited for it
//! still sees the old data and fails to serialize. A write therefore takes the lock of all
//! writes for its session first and begins after it (a true wait: `PgStore::write`), and
//! [`sql::Tx::serialize_on`] is nothing more inside it. Elsewhere it locks for the session when
//! called before the first statement, else to the transaction's end.

use std::cell::{Cell, RefCell};
use std::pin::pin;

use deadpool_postgres::Client;
use futures_util::StreamExt;
use tokio::runtime::Handle;
use tokio_postgres::types::ToSql;

use super::params::Rewritten;
use crate::sql::{self, EachRow, StoreError, Value};

/// `BEGIN` of a write: serial in effect, as SQLite's single writer.
pub(super) const BEGIN_WRITE: &str = "BEGIN ISOLATION LEVEL SERIALIZABLE";
/// `BEGIN` of a read: one snapshot, never waits for writers.
pub(super) const BEGIN_READ: &str = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY";

const SESSION_LOCK: &str = "SELECT pg_advisory_lock(hashtext($1))";
const XACT_LOCK: &str = "SELECT pg_advisory_xact_lock(hashtext($1))";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    NotBegun,
    Open,
    /// A statement failed: PostgreSQL refuses every further statement and turns `COMMIT` into
    /// a rollback, so the transaction can only be rolled back.
    Failed,
}

pub(super) struct PgTx<'a> {
    client: &'a Client,
    handle: &'a Handle,
    rewritten: &'a Rewritten,
    begin: &'static str,
    state: Cell<State>,
    /// A statement lost a race (40001, 40P01): the whole transaction is to run again.
    lost_race: Cell<bool>,
    /// Keys to lock for the session before the transaction begins.
    lock_first: RefCell<Vec<String>>,
    /// Keys locked for the session (to unlock once the transaction has ended).
    held: RefCell<Vec<String>>,
}

/// How a transaction ended.
pub(super) struct Ended {
    /// The commit (or the transaction) lost a race: run it again.
    pub lost_race: bool,
    /// The connection is in a known state (no transaction open, no lock held).
    pub reusable: bool,
}

impl<'a> PgTx<'a> {
    pub(super) fn new(
        client: &'a Client,
        handle: &'a Handle,
        rewritten: &'a Rewritten,
        begin: &'static str,
        mut lock_first: Vec<String>,
    ) -> Self {
        // One order for every transaction that takes several, so that they wait in line.
        lock_first.sort();
        lock_first.dedup();
        Self {
            client,
            handle,
            rewritten,
            begin,
            state: Cell::new(State::NotBegun),
            lost_race: Cell::new(false),
            lock_first: RefCell::new(lock_first),
            held: RefCell::new(Vec::new()),
        }
    }

    /// Whether a statement failed since the transaction began (a rule that carried on after
    /// an error must not be committed).
    pub(super) fn failed(&self) -> bool {
        self.state.get() == State::Failed
    }

    /// Commits (`commit`) or rolls back, then lets go of the session locks.
    pub(super) fn end(self, commit: bool) -> Result<Ended, StoreError> {
        let outcome = match self.state.get() {
            State::NotBegun => Ok(()),
            State::Open if commit => self.batch("COMMIT"),
            State::Open | State::Failed => self.batch("ROLLBACK"),
        };
        let unlocked = if self.held.borrow().is_empty() {
            Ok(())
        } else {
            self.batch("SELECT pg_advisory_unlock_all()")
        };
        let ended = Ended {
            lost_race: self.lost_race.get(),
            reusable: unlocked.is_ok() && (outcome.is_ok() || commit),
        };
        match outcome.and(unlocked) {
            Err(e) if !ended.lost_race => Err(e),
            _ => Ok(ended),
        }
    }

    fn batch(&self, sql: &str) -> Result<(), StoreError> {
        let done = self.handle.block_on(self.client.batch_execute(sql));
        self.track(done)
    }

    /// Before the first statement: the locks to take first, then `BEGIN`.
    fn begin_once(&self) -> Result<(), StoreError> {
        if self.state.get() == State::NotBegun {
            for key in self.lock_first.take() {
                self.lock(&key)?;
            }
            self.batch(self.begin)?;
            self.state.set(State::Open);
        }
        Ok(())
    }

    /// Records a failed statement, as PostgreSQL does.
    fn track<T>(&self, result: Result<T, tokio_postgres::Error>) -> Result<T, StoreError> {
        result.map_err(|e| {
            let e = StoreError::Postgres(e);
            if e.is_retryable() {
                self.lost_race.set(true);
            }
            if self.state.get() == State::Open {
                self.state.set(State::Failed);
            }
            e
        })
    }

    fn run(&self, text: &str, params: &[Value<'_>]) -> Result<u64, StoreError> {
        let done = self.handle.block_on(async {
            let statement = self.client.prepare_cached(text).await?;
            self.client
                .execute_raw(&statement, params.iter().map(|p| p as &dyn ToSql))
                .await
        });
        self.track(done)
    }
}

impl sql::Tx for PgTx<'_> {
    fn execute(&self, sql: &'static str, params: &[Value<'_>]) -> Result<usize, StoreError> {
        self.begin_once()?;
        let changed = self.run(&self.rewritten.get(sql), params)?;
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    fn query_each(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        each: &mut EachRow<'_>,
    ) -> Result<(), StoreError> {
        self.begin_once()?;
        let text = self.rewritten.get(sql);
        let rows = self.handle.block_on(async {
            let statement = self.client.prepare_cached(&text).await?;
            self.client
                .query_raw(&statement, params.iter().map(|p| p as &dyn ToSql))
                .await
        });
        let mut rows = pin!(self.track(rows)?);
        // Rows arrive as the server sends them: a listing is never held whole. Stopping early
        // drops the rest, which the connection discards.
        while let Some(row) = self.handle.block_on(rows.next()) {
            if each(&self.track(row)?)?.is_break() {
                break;
            }
        }
        Ok(())
    }

    fn serialize_on(&self, key: &str) -> Result<(), StoreError> {
        // A write holds the lock of all writes from before its first statement (see
        // `PgStore::write`): nothing can run beside it to wait for.
        if self.begin == BEGIN_WRITE {
            return Ok(());
        }
        self.lock(key)
    }
}

impl PgTx<'_> {
    /// Waits for `key`'s advisory lock: for the session when the transaction has not begun
    /// (so its snapshot comes after the last holder's commit), else to the transaction's end.
    fn lock(&self, key: &str) -> Result<(), StoreError> {
        if self.held.borrow().iter().any(|k| k == key) {
            return Ok(());
        }
        if self.state.get() == State::NotBegun {
            // Before the snapshot: once this returns, the transaction sees what the last
            // holder committed.
            self.run(SESSION_LOCK, &[key.into()])?;
            self.held.borrow_mut().push(key.to_owned());
        } else {
            self.run(XACT_LOCK, &[key.into()])?;
        }
        Ok(())
    }
}
