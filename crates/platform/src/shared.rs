//! State shared by every request: the store, the token issuer, and the platform's settings.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::activities::Activities;
use super::auth::Tokens;
use super::error::OpError;
use super::pg::{PgStore, StoreFailure};
use super::spent::Spent;
use super::sql;
use super::store::Store;

/// Where the platform keeps its data: chosen at start (`serve --database`).
pub enum Stores {
    Sqlite(Box<SqliteStores>),
    /// One database for the business data, the tokens and every used nonce (one `nonce_log`):
    /// no fingerprints in memory, which only a process that saw every spend could trust.
    Postgres(PgStore),
}

/// The SQLite files of a data directory.
pub struct SqliteStores {
    pub store: Store,
    /// Tokens and used nonces, apart from `store` (see `auth_store`).
    pub auth: Store,
    /// The nonces `store` has spent (calls that write), in memory: see `spent`.
    pub spent_by_writes: Spent,
    /// The nonces `auth` has spent (calls that only read).
    pub spent_by_reads: Spent,
}

impl Stores {
    /// Runs `f` in a write transaction of the business data (`FnMut`: PostgreSQL runs it again
    /// when it loses a race).
    pub async fn write<T, E>(
        &self,
        f: impl FnMut(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: StoreFailure + Send + 'static,
    {
        match self {
            Self::Sqlite(s) => s.store.write(f).await,
            Self::Postgres(pg) => pg.write(f).await,
        }
    }

    /// Runs `f` in a write transaction of the tokens and nonces: SQLite's second file, or on
    /// PostgreSQL a write like any other (writes there do not wait for each other).
    pub async fn write_auth<T, E>(
        &self,
        f: impl FnMut(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: StoreFailure + Send + 'static,
    {
        match self {
            Self::Sqlite(s) => s.auth.write(f).await,
            Self::Postgres(pg) => pg.write(f).await,
        }
    }

    /// Runs `f` in a read transaction of the business data (one snapshot), on a thread that
    /// may block (a `spawn_blocking` thread, never the runtime's own).
    pub fn read_here<T, E>(&self, f: impl FnOnce(&dyn sql::Tx) -> Result<T, E>) -> Result<T, E>
    where
        E: StoreFailure,
    {
        match self {
            Self::Sqlite(s) => s.store.read(f),
            Self::Postgres(pg) => pg.read_here(f),
        }
    }

    /// [`Stores::read_here`] for a read of many rows (an asset listing).
    pub fn read_large_here<T, E>(
        &self,
        f: impl FnOnce(&dyn sql::Tx) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: StoreFailure,
    {
        match self {
            Self::Sqlite(s) => s.store.read_large(f),
            Self::Postgres(pg) => pg.read_here(f),
        }
    }
}

pub struct Shared {
    pub stores: Stores,
    pub tokens: Tokens,
    /// First digit of asset numbers.
    pub region: u8,
    pub nonce_window_ms: i64,
    /// Woken when an async batch is stored, so the worker applies it at once.
    pub pending_batches: Notify,
    /// The activities in force; replaced whole when the file is read again.
    pub activities: RwLock<Arc<Activities>>,
    /// A request's body must have arrived within this.
    pub body_timeout: std::time::Duration,
    /// Failed token requests, by app key and by client address.
    pub token_failures: TokenFailures,
    /// Quotas on asset numbers for applications without their own.
    pub number_quota: super::quotas::NumberQuota,
    /// Claim attempts by identity, per minute.
    pub claims: serve::throttle::Throttle,
    /// Asset listings streaming, and those waiting for their turn.
    pub listings: Listings,
}

/// How many asset listings stream at once (`serve --max-listings`), and how long one more
/// waits for its turn before it is refused (`serve --listing-wait`). Each streaming listing
/// holds a reader connection and its read transaction, and some memory: the cap bounds both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingLimits {
    pub max_streaming: usize,
    pub wait: Duration,
}

impl Default for ListingLimits {
    fn default() -> Self {
        Self {
            max_streaming: 4,
            wait: Duration::from_secs(30),
        }
    }
}

/// What the asset listings are doing, for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListingCounts {
    pub streaming: usize,
    pub waiting: usize,
    /// Listings written out whole, and those cut off (client gone or stalled, storage error).
    pub completed: u64,
    pub cut_off: u64,
}

/// The turns of asset listings: a semaphore of `max_streaming` permits.
pub struct Listings {
    permits: Arc<Semaphore>,
    limits: ListingLimits,
    waiting: AtomicUsize,
    completed: AtomicU64,
    cut_off: AtomicU64,
}

impl Listings {
    pub fn new(limits: ListingLimits) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(limits.max_streaming)),
            limits,
            waiting: AtomicUsize::new(0),
            completed: AtomicU64::new(0),
            cut_off: AtomicU64::new(0),
        }
    }

    /// A turn to stream a listing, held until the permit is dropped; refused (500) when none
    /// is free within the wait.
    pub async fn turn(&self) -> Result<OwnedSemaphorePermit, OpError> {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        // Counted down also when the client leaves while waiting (this future is dropped).
        let _waiting = Decrement(&self.waiting);
        let permit = Arc::clone(&self.permits).acquire_owned();
        match tokio::time::timeout(self.limits.wait, permit).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(_)) => Err(OpError::Internal("the listing turns are closed".to_owned())),
            Err(_) => {
                let n = self.limits.max_streaming;
                Err(OpError::Busy(format!(
                    "the platform is busy with {n} asset listing{} and this one waited {} s for \
                     its turn; retry in a moment",
                    if n == 1 { "" } else { "s" },
                    self.limits.wait.as_secs_f64()
                )))
            }
        }
    }

    /// Counts a listing that ended, whole or not.
    pub fn ended(&self, whole: bool) {
        let counter = if whole {
            &self.completed
        } else {
            &self.cut_off
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn counts(&self) -> ListingCounts {
        ListingCounts {
            streaming: (self.limits.max_streaming).saturating_sub(self.permits.available_permits()),
            waiting: self.waiting.load(Ordering::Relaxed),
            completed: self.completed.load(Ordering::Relaxed),
            cut_off: self.cut_off.load(Ordering::Relaxed),
        }
    }
}

struct Decrement<'a>(&'a AtomicUsize);

impl Drop for Decrement<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Token requests with a wrong key or secret: past 10 a minute for an app key from one
/// address, or 30 from one address, wrong secrets are answered slowly and refused; a right one
/// is always let through, so that nobody can lock the rightful owner out.
pub struct TokenFailures {
    pub by_app_address: serve::throttle::Throttle,
    pub by_address: serve::throttle::Throttle,
}

impl Default for TokenFailures {
    fn default() -> Self {
        let minute = std::time::Duration::from_secs(60);
        Self {
            by_app_address: serve::throttle::Throttle::new(10, minute),
            by_address: serve::throttle::Throttle::new(30, minute),
        }
    }
}

pub type AppState = Arc<Shared>;

impl Shared {
    pub fn activities(&self) -> Arc<Activities> {
        Arc::clone(
            &self
                .activities
                .read()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }

    pub fn set_activities(&self, activities: Activities) {
        *self
            .activities
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Arc::new(activities);
    }

    /// Runs `f` in a write transaction on the store's writer thread (`FnMut`: see
    /// [`Store::write`]).
    pub async fn write<T: Send + 'static>(
        self: &Arc<Self>,
        mut f: impl FnMut(&dyn sql::Tx, &Shared) -> Result<T, OpError> + Send + 'static,
    ) -> Result<T, OpError> {
        let me = Arc::clone(self);
        self.stores.write(move |tx| f(tx, &me)).await
    }

    /// Runs `f` in a write transaction of the token and nonce store.
    pub async fn write_auth<T: Send + 'static>(
        self: &Arc<Self>,
        mut f: impl FnMut(&dyn sql::Tx, &Shared) -> Result<T, OpError> + Send + 'static,
    ) -> Result<T, OpError> {
        let me = Arc::clone(self);
        self.stores.write_auth(move |tx| f(tx, &me)).await
    }

    /// Runs `f` in a read transaction off the async threads.
    pub async fn read<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&dyn sql::Tx, &Shared) -> Result<T, OpError> + Send + 'static,
    ) -> Result<T, OpError> {
        let me = Arc::clone(self);
        tokio::task::spawn_blocking(move || me.stores.read_here(|tx| f(tx, &me)))
            .await
            .map_err(|e| OpError::Internal(format!("storage task failed: {e}")))?
    }
}
