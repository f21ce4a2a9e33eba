//! [`sql::Tx`] on a pooled PostgreSQL connection, used from a blocking thread: each statement
//! waits with `Handle::block_on` while the connection's task runs on the runtime.
//!
//! The transaction's `BEGIN` is sent with its first statement, in the same round trip
//! (tokio-postgres pipelines requests polled together), and not at all when the rule runs
//! none. A write is READ COMMITTED: every statement sees what was committed before it began,
//! so [`sql::Tx::serialize_on`] (an advisory lock held to the transaction's end) can be taken
//! at any point, and the statements after it see what the last holder committed.

use std::cell::{Cell, RefCell};
use std::pin::pin;

use deadpool_postgres::Client;
use futures_util::StreamExt;
use tokio::runtime::Handle;
use tokio_postgres::types::ToSql;

use super::params::Rewritten;
use crate::sql::{self, EachRow, StoreError, Value};

/// `BEGIN` of a write: each statement sees what was committed before it; a rule that reads,
/// decides, then writes takes the key of what it decides on first (`serialize_on`).
pub(super) const BEGIN_WRITE: &str = "BEGIN ISOLATION LEVEL READ COMMITTED";
/// `BEGIN` of a read: one snapshot, never waits for writers.
pub(super) const BEGIN_READ: &str = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY";

const XACT_LOCK: &str = "SELECT pg_advisory_xact_lock(hashtext($1))";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    NotBegun,
    Open,
    /// A statement failed: PostgreSQL refuses every further statement and turns `COMMIT` into
    /// a rollback, so the transaction can only be rolled back.
    Failed,
    /// Ended by its last statement ([`sql::Tx::execute_last`]): committed, or (the statement
    /// failed) rolled back.
    Committed,
    RolledBack,
}

pub(super) struct PgTx<'a> {
    client: &'a Client,
    handle: &'a Handle,
    rewritten: &'a Rewritten,
    begin: &'static str,
    state: Cell<State>,
    /// A statement lost a race (a deadlock, a serialization failure, or a row inserted by
    /// another transaction since this one looked): the whole transaction is to run again.
    lost_race: Cell<bool>,
    /// Keys locked in this transaction (each is taken once).
    held: RefCell<Vec<String>>,
}

/// How a transaction ended.
pub(super) struct Ended {
    /// The commit (or the transaction) lost a race: run it again.
    pub lost_race: bool,
    /// The connection is in a known state (no transaction open).
    pub reusable: bool,
}

impl<'a> PgTx<'a> {
    pub(super) fn new(
        client: &'a Client,
        handle: &'a Handle,
        rewritten: &'a Rewritten,
        begin: &'static str,
    ) -> Self {
        Self {
            client,
            handle,
            rewritten,
            begin,
            state: Cell::new(State::NotBegun),
            lost_race: Cell::new(false),
            held: RefCell::new(Vec::new()),
        }
    }

    /// Whether a statement failed since the transaction began (a rule that carried on after
    /// an error must not be committed).
    pub(super) fn failed(&self) -> bool {
        matches!(self.state.get(), State::Failed | State::RolledBack)
    }

    /// Commits (`commit`) or rolls back; the transaction's locks end with it.
    pub(super) fn end(self, commit: bool) -> Result<Ended, StoreError> {
        let outcome = match self.state.get() {
            State::NotBegun | State::RolledBack => Ok(()),
            State::Committed if commit => Ok(()),
            State::Committed => Err(StoreError::Failure(
                "the operation failed after its last statement was committed".to_owned(),
            )),
            State::Open if commit => self.batch("COMMIT"),
            State::Open | State::Failed => self.batch("ROLLBACK"),
        };
        let ended = Ended {
            lost_race: self.lost_race.get(),
            reusable: outcome.is_ok() || commit,
        };
        match outcome {
            Err(e) if !ended.lost_race => Err(e),
            _ => Ok(ended),
        }
    }

    fn batch(&self, sql: &str) -> Result<(), StoreError> {
        let done = self.handle.block_on(self.client.batch_execute(sql));
        self.track(done)
    }

    /// `BEGIN`, if the transaction has not begun, sent with `statement` and answered in the
    /// same round trip; then `statement`'s own answer.
    async fn begun<T>(
        &self,
        statement: impl std::future::Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, tokio_postgres::Error> {
        if self.state.get() != State::NotBegun {
            return statement.await;
        }
        self.state.set(State::Open);
        let (begun, done) =
            futures_util::future::join(self.client.batch_execute(self.begin), statement).await;
        begun.and(done)
    }

    /// Records a failed statement, as PostgreSQL does.
    fn track<T>(&self, result: Result<T, tokio_postgres::Error>) -> Result<T, StoreError> {
        result.map_err(|e| {
            let e = StoreError::Postgres(e);
            if e.is_lost_race() {
                self.lost_race.set(true);
            }
            if self.state.get() == State::Open {
                self.state.set(State::Failed);
            }
            e
        })
    }

    /// Refuses a statement after the one that ended the transaction.
    fn still_open(&self) -> Result<(), StoreError> {
        match self.state.get() {
            State::Committed | State::RolledBack => Err(StoreError::Failure(
                "a statement after the transaction's last one".to_owned(),
            )),
            _ => Ok(()),
        }
    }

    fn run(&self, text: &str, params: &[Value<'_>]) -> Result<u64, StoreError> {
        self.still_open()?;
        let done = self.handle.block_on(async {
            let statement = self.client.prepare_cached(text).await?;
            self.begun(
                self.client
                    .execute_raw(&statement, params.iter().map(|p| p as &dyn ToSql)),
            )
            .await
        });
        self.track(done)
    }
}

impl sql::Tx for PgTx<'_> {
    fn execute(&self, sql: &'static str, params: &[Value<'_>]) -> Result<usize, StoreError> {
        let changed = self.run(&self.rewritten.get(sql), params)?;
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    fn query_each(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        each: &mut EachRow<'_>,
    ) -> Result<(), StoreError> {
        self.still_open()?;
        let text = self.rewritten.get(sql);
        let rows = self.handle.block_on(async {
            let statement = self.client.prepare_cached(&text).await?;
            self.begun(
                self.client
                    .query_raw(&statement, params.iter().map(|p| p as &dyn ToSql)),
            )
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

    fn dialect(&self) -> sql::Dialect {
        sql::Dialect::Postgres
    }

    fn execute_last(&self, sql: &'static str, params: &[Value<'_>]) -> Result<usize, StoreError> {
        if self.begin != BEGIN_WRITE {
            return self.execute(sql, params);
        }
        self.still_open()?;
        let text = self.rewritten.get(sql);
        let (ran, committed) = self.handle.block_on(async {
            let statement = match self.client.prepare_cached(&text).await {
                Ok(statement) => statement,
                Err(e) => return (Err(e), Ok(())),
            };
            let run = self
                .client
                .execute_raw(&statement, params.iter().map(|p| p as &dyn ToSql));
            // Sent together: BEGIN (if not yet), the statement, COMMIT. A failed statement
            // turns the COMMIT into a rollback.
            futures_util::future::join(self.begun(run), self.client.batch_execute("COMMIT")).await
        });
        let ran = self.track(ran);
        let committed = self.track(committed);
        let ended = if ran.is_ok() && committed.is_ok() {
            State::Committed
        } else {
            State::RolledBack
        };
        self.state.set(ended);
        let changed = ran?;
        committed?;
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    fn serialize_on(&self, key: &str) -> Result<(), StoreError> {
        if self.held.borrow().iter().any(|k| k == key) {
            return Ok(());
        }
        self.run(XACT_LOCK, &[key.into()])?;
        self.held.borrow_mut().push(key.to_owned());
        Ok(())
    }
}
