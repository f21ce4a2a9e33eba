//! What the business rules need of a store's transaction, so that one set of rules serves
//! SQLite and PostgreSQL (`docs/postgres.md`): statements with `?N` parameters in the SQL both
//! dialects share, values bound from [`Value`], and rows read through [`Row`].
//!
//! A rule takes `&dyn Tx`: a request's closure is one piece of code for either store, and
//! closures cannot be generic. The cost is a virtual call per statement and per column read.

pub mod pg_failure;
mod sqlite;

use std::ops::ControlFlow;

/// A value bound to a statement's parameter. A flag is a SQLite integer 0/1 and a PostgreSQL
/// `boolean`: SQL that tests one (`AND is_default`, `NOT ?2`) reads the same in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    Null,
    Int(i64),
    Bool(bool),
    Text(&'a str),
    Bytes(&'a [u8]),
    /// A list, for a set-based statement of [`Dialect::Postgres`] (`= ANY(?1)`,
    /// `unnest(?1)`); SQLite has no lists and refuses it.
    Texts(&'a [String]),
    Ints(&'a [i64]),
    OptTexts(&'a [Option<String>]),
    OptInts(&'a [Option<i64>]),
    Bools(&'a [bool]),
}

/// Which SQL a store speaks beyond the subset both share: for the few statements written
/// twice, set-based on PostgreSQL (one round trip for many rows) and row by row on SQLite
/// (in process, where a statement costs microseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl From<i64> for Value<'_> {
    fn from(n: i64) -> Self {
        Self::Int(n)
    }
}

impl From<i32> for Value<'_> {
    fn from(n: i32) -> Self {
        Self::Int(i64::from(n))
    }
}

impl From<u32> for Value<'_> {
    fn from(n: u32) -> Self {
        Self::Int(i64::from(n))
    }
}

impl From<bool> for Value<'_> {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(s: &'a str) -> Self {
        Self::Text(s)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(s: &'a String) -> Self {
        Self::Text(s)
    }
}

impl<'a> From<&'a [u8]> for Value<'a> {
    fn from(b: &'a [u8]) -> Self {
        Self::Bytes(b)
    }
}

impl<'a> From<&'a [String]> for Value<'a> {
    fn from(s: &'a [String]) -> Self {
        Self::Texts(s)
    }
}

impl<'a> From<&'a [i64]> for Value<'a> {
    fn from(n: &'a [i64]) -> Self {
        Self::Ints(n)
    }
}

impl<'a> From<&'a [Option<String>]> for Value<'a> {
    fn from(s: &'a [Option<String>]) -> Self {
        Self::OptTexts(s)
    }
}

impl<'a> From<&'a [Option<i64>]> for Value<'a> {
    fn from(n: &'a [Option<i64>]) -> Self {
        Self::OptInts(n)
    }
}

impl<'a> From<&'a [bool]> for Value<'a> {
    fn from(b: &'a [bool]) -> Self {
        Self::Bools(b)
    }
}

impl<'a, T: Into<Value<'a>>> From<Option<T>> for Value<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Self::Null, Into::into)
    }
}

/// One row of a result, read by column index.
pub trait Row {
    fn i64(&self, i: usize) -> Result<i64, StoreError>;
    fn opt_i64(&self, i: usize) -> Result<Option<i64>, StoreError>;
    fn text(&self, i: usize) -> Result<String, StoreError>;
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError>;
    fn bytes(&self, i: usize) -> Result<Vec<u8>, StoreError>;
    /// A flag stored as 0/1, or a boolean expression (`x IS NOT NULL`, `EXISTS (…)`).
    fn bool(&self, i: usize) -> Result<bool, StoreError>;
}

/// Called with each row of a result: continue to the next row, or break.
pub type EachRow<'a> = dyn FnMut(&dyn Row) -> Result<ControlFlow<()>, StoreError> + 'a;

/// A store's open transaction. Statements are `&'static str` so that a store can cache their
/// prepared form by text.
pub trait Tx {
    /// Runs a statement; returns how many rows it changed.
    fn execute(&self, sql: &'static str, params: &[Value<'_>]) -> Result<usize, StoreError>;

    /// Calls `each` with every row of the result until it breaks or fails.
    fn query_each(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        each: &mut EachRow<'_>,
    ) -> Result<(), StoreError>;

    /// Makes the rest of the transaction wait for any other transaction serialized on `key`,
    /// and see what it committed: a rule that reads, decides, then writes calls it first with
    /// the key of what it decides on (the batches, a claim's activity, a counter). On
    /// PostgreSQL an advisory lock held to the end of the transaction (writes are READ
    /// COMMITTED there: docs/postgres.md); nothing on SQLite, where every write transaction
    /// already runs alone.
    fn serialize_on(&self, _key: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// The store's SQL beyond the shared subset.
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    /// The write transaction's last statement: nothing may follow it, and the operation must
    /// end (successfully, if it succeeds) right after. On PostgreSQL it is sent with `COMMIT`,
    /// in one round trip, and if it fails the transaction is rolled back; elsewhere it is
    /// [`Tx::execute`].
    fn execute_last(&self, sql: &'static str, params: &[Value<'_>]) -> Result<usize, StoreError> {
        self.execute(sql, params)
    }
}

impl dyn Tx + '_ {
    /// The first row, mapped, if there is one.
    pub fn query_opt<T>(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        map: impl FnOnce(&dyn Row) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let mut map = Some(map);
        let mut found = None;
        self.query_each(sql, params, &mut |row| {
            if let Some(map) = map.take() {
                found = Some(map(row)?);
            }
            Ok(ControlFlow::Break(()))
        })?;
        Ok(found)
    }

    /// The first row, mapped; no row is a failure of the store (the statement always answers).
    pub fn query_one<T>(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        map: impl FnOnce(&dyn Row) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.query_opt(sql, params, map)?
            .ok_or(StoreError::NoRow(sql))
    }

    /// Every row, mapped.
    pub fn query_vec<T>(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        mut map: impl FnMut(&dyn Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let mut all = Vec::new();
        self.query_each(sql, params, &mut |row| {
            all.push(map(row)?);
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(all)
    }
}

/// A failure of the store itself (answered 500 / 1002, the transaction rolled back).
/// The primary key of `nonce_log` on PostgreSQL (`pg/schema4.sql`, named by default).
const NONCE_LOG_KEY: &str = "nonce_log_pkey";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("a statement that always answers a row answered none: {0}")]
    NoRow(&'static str),
    #[error("a stored number is out of range: {0}")]
    OutOfRange(i64),
    #[error("{}", with_cause(.0))]
    Postgres(#[from] tokio_postgres::Error),
    #[error("no database connection: {}", pool_cause(.0))]
    Pool(#[from] deadpool_postgres::PoolError),
    /// A database a newer release migrated: this one would misread it, so it opens nothing.
    #[error(
        "the database is at schema version {at}; this release knows up to {known}: run the newer release, or restore a backup taken before it ran"
    )]
    NewerSchema { at: i64, known: i64 },
    /// The store itself failed outside any statement (a panic, a schema version that failed
    /// to apply).
    #[error("{0}")]
    Failure(String),
}

impl StoreError {
    /// A PostgreSQL transaction that lost a race (serialization failure 40001, deadlock
    /// 40P01): running it again from the start is safe and expected to succeed.
    pub fn is_retryable(&self) -> bool {
        use tokio_postgres::error::SqlState;
        self.sql_state().is_some_and(|s| {
            *s == SqlState::T_R_SERIALIZATION_FAILURE || *s == SqlState::T_R_DEADLOCK_DETECTED
        })
    }

    /// Whether a transaction that failed so lost a race and should run again: beside
    /// [`StoreError::is_retryable`], a row inserted (unique key) or removed (foreign key) by a
    /// transaction that committed after this one looked. Run again, it sees that row.
    pub fn is_lost_race(&self) -> bool {
        use tokio_postgres::error::SqlState;
        self.is_retryable()
            || (self.sql_state().is_some_and(|s| {
                *s == SqlState::UNIQUE_VIOLATION || *s == SqlState::FOREIGN_KEY_VIOLATION
            }) && !self.is_spent_nonce())
    }

    /// PostgreSQL refused a nonce's row: the nonce was spent before (an answer, not a race).
    pub fn is_spent_nonce(&self) -> bool {
        match self {
            Self::Postgres(e) => e
                .as_db_error()
                .is_some_and(|db| db.constraint() == Some(NONCE_LOG_KEY)),
            _ => false,
        }
    }

    /// A unique or primary key constraint refused a row (PostgreSQL 23505, SQLite's
    /// UNIQUE / PRIMARYKEY constraint).
    pub fn is_unique_violation(&self) -> bool {
        match self {
            Self::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                    | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            ),
            _ => self
                .sql_state()
                .is_some_and(|s| *s == tokio_postgres::error::SqlState::UNIQUE_VIOLATION),
        }
    }

    fn sql_state(&self) -> Option<&tokio_postgres::error::SqlState> {
        match self {
            Self::Postgres(e) => e.code(),
            _ => None,
        }
    }
}

/// tokio-postgres says only what kind of error it is ("db error"); the server's message, or
/// why a value could not be bound, is its cause.
fn with_cause(e: &tokio_postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// An error and every cause under it ("error connecting to server: Connection refused").
/// Why no connection was had: the server's own words when it refused one (a wrong password, an
/// unknown database), what failed in TLS (a certificate not trusted), else the chain of causes.
fn pool_cause(e: &deadpool_postgres::PoolError) -> String {
    match e {
        deadpool_postgres::PoolError::Backend(e) => match e.as_db_error() {
            Some(db) => db.message().to_owned(),
            None => pg_failure::tls_failure(e).unwrap_or_else(|| with_cause(e)),
        },
        e => with_causes(e),
    }
}

fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.ends_with(&more) {
            text = format!("{text}: {more}");
        }
        cause = c.source();
    }
    text
}

/// A stored count that must fit a `u32` (limits, quotas).
pub fn opt_u32(v: Option<i64>) -> Result<Option<u32>, StoreError> {
    v.map(|n| u32::try_from(n).map_err(|_| StoreError::OutOfRange(n)))
        .transpose()
}
