//! [`PgStore`]: a pool of connections to one PostgreSQL database, and the two ways a rule runs
//! on it, [`PgStore::write`] and [`PgStore::read`].

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio::runtime::Handle;
use tokio_postgres::NoTls;
use tokio_postgres::config::SslMode;

use super::migrate::{self, Schema};
use super::params::Rewritten;
use super::tls;
use super::tx::{BEGIN_READ, BEGIN_WRITE, PgTx};
use super::url::DatabaseUrl;
use crate::sql::{self, StoreError};

/// Runs of a write transaction that lost a race before its last error is answered.
pub const MAX_ATTEMPTS: u32 = 10;

/// How long a transaction waits for a free connection before it is answered "busy".
const POOL_WAIT: Duration = Duration::from_secs(30);
/// How long opening a connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// What the store needs to know of a rule's error: the store's own failure inside it, if any,
/// to tell a lost race (run again) from an answer (a refusal, or a real failure).
pub trait StoreFailure: From<StoreError> {
    fn store_error(&self) -> Option<&StoreError>;
}

impl StoreFailure for StoreError {
    fn store_error(&self) -> Option<&StoreError> {
        Some(self)
    }
}

/// One PostgreSQL database, brought to the newest schema when connected.
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    rewritten: Arc<Rewritten>,
}

/// One run of a transaction's closure, and how it ended.
struct Attempt<T, E> {
    result: Result<T, E>,
    /// Run it again (it lost a race and nothing of it was committed).
    again: bool,
}

impl PgStore {
    /// Connects to `url` (`postgresql://user@host/db`, as libpq's), with at most `connections`
    /// open at once, and applies the versions of `schema` the database lacks. A database newer
    /// than this release is refused. TLS as the URL's `sslmode` asks (`prefer` by default), the
    /// server's certificate always verified (tls.rs).
    pub async fn connect(
        url: &str,
        connections: usize,
        schema: &Schema,
    ) -> Result<PgStore, StoreError> {
        let db = DatabaseUrl::parse(url, None).map_err(|e| StoreError::Failure(e.to_string()))?;
        Self::connect_schema(&db, connections, schema).await
    }

    /// [`PgStore::connect`] to a database read from the command line.
    pub async fn connect_schema(
        db: &DatabaseUrl,
        connections: usize,
        schema: &Schema,
    ) -> Result<PgStore, StoreError> {
        let mut config = db.config().clone();
        config.application_name("license-desk");
        config.connect_timeout(CONNECT_TIMEOUT);
        let manager_config = ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        };
        let manager = match config.get_ssl_mode() {
            // No connector at all: `disable` never reads a CA, not even the system's.
            SslMode::Disable => Manager::from_config(config, NoTls, manager_config),
            mode => {
                let tls = tls::connector(db.root_cert(), mode != SslMode::Prefer)
                    .map_err(|e| StoreError::Failure(e.to_string()))?;
                Manager::from_config(config, tls, manager_config)
            }
        };
        let pool = Pool::builder(manager)
            .max_size(connections.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(POOL_WAIT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Failure(format!("cannot make the connection pool: {e}")))?;
        let mut client = pool.get().await?;
        migrate::migrate(&mut client, schema).await?;
        Ok(PgStore {
            pool,
            rewritten: Arc::default(),
        })
    }

    /// Runs `f` in a READ COMMITTED transaction, committed if `f` succeeds. Writes run side by
    /// side, on this instance and others: a rule that reads, decides, then writes takes its
    /// key first (`serialize_on`), and a row changes under conditions in its own statement
    /// (`UPDATE … WHERE … RETURNING`). A run that still loses a race (a deadlock, or a row
    /// inserted by another transaction since it looked) is rolled back and run again, up to
    /// [`MAX_ATTEMPTS`] times after a short random pause; so `f` must write nothing outside the
    /// transaction.
    pub async fn write<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnMut(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: StoreFailure + Send + 'static,
    {
        let mut f = f;
        let mut attempt = 1;
        loop {
            let (back, ran) = self
                .on_blocking_thread(BEGIN_WRITE, move |tx| {
                    let result = f(tx);
                    (f, result)
                })
                .await?;
            f = back;
            if !ran.again || attempt == MAX_ATTEMPTS {
                if ran.again {
                    tracing::warn!(attempts = attempt, "a write lost every race; answered busy");
                }
                return ran.result;
            }
            tokio::time::sleep(backoff(attempt)).await;
            attempt += 1;
        }
    }

    /// Runs `f` in a REPEATABLE READ, READ ONLY transaction: one snapshot of the database.
    pub async fn read<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: StoreFailure + Send + 'static,
    {
        let ((), ran) = self
            .on_blocking_thread(BEGIN_READ, move |tx| ((), f(tx)))
            .await?;
        ran.result
    }

    /// [`PgStore::read`] on the calling thread, which must be one that may block (a
    /// `spawn_blocking` thread of the runtime): for a read that borrows (an asset listing
    /// streamed to its answer).
    pub fn read_here<T, E>(&self, f: impl FnOnce(&dyn sql::Tx) -> Result<T, E>) -> Result<T, E>
    where
        E: StoreFailure,
    {
        let handle = Handle::current();
        let client = handle.block_on(self.pool.get()).map_err(StoreError::from)?;
        let ((), ran) = run_once(client, &handle, &self.rewritten, BEGIN_READ, |tx| {
            ((), f(tx))
        });
        ran.result
    }

    /// Runs `f` once on a pooled connection, on a blocking thread; `f` hands back what it
    /// owns (the write's closure, for the next run) beside its result.
    async fn on_blocking_thread<T, E, K>(
        &self,
        begin: &'static str,
        f: impl FnOnce(&dyn sql::Tx) -> (K, Result<T, E>) + Send + 'static,
    ) -> Result<(K, Attempt<T, E>), E>
    where
        T: Send + 'static,
        E: StoreFailure + Send + 'static,
        K: Send + 'static,
    {
        let client = self.pool.get().await.map_err(StoreError::from)?;
        let rewritten = self.rewritten.clone();
        let handle = Handle::current();
        tokio::task::spawn_blocking(move || run_once(client, &handle, &rewritten, begin, f))
            .await
            .map_err(|e| {
                E::from(StoreError::Failure(format!(
                    "a transaction's thread failed: {e}"
                )))
            })
    }
}

/// Runs `f` in a transaction (which begins with its first statement), then commits or rolls
/// back.
fn run_once<T, E, K>(
    client: Object,
    handle: &Handle,
    rewritten: &Rewritten,
    begin: &'static str,
    f: impl FnOnce(&dyn sql::Tx) -> (K, Result<T, E>),
) -> (K, Attempt<T, E>)
where
    E: StoreFailure,
{
    let tx = PgTx::new(&client, handle, rewritten, begin);
    let (kept, result) = match catch_unwind(AssertUnwindSafe(|| f(&tx))) {
        Ok(ran) => ran,
        Err(panic) => {
            tracing::error!("a PostgreSQL transaction panicked; it is rolled back");
            // The panic goes on: a failed rollback ends with the connection dropped next.
            let _ = tx.end(false);
            drop(Object::take(client));
            std::panic::resume_unwind(panic);
        }
    };
    let result = match result {
        Ok(_) if tx.failed() => Err(E::from(StoreError::Failure(
            "a statement failed and the operation carried on; nothing was written".to_owned(),
        ))),
        result => result,
    };
    let (result, again, reusable) = match tx.end(result.is_ok()) {
        Ok(ended) => (result, ended.lost_race, ended.reusable),
        // A failed rollback after the operation's own error: that error is the answer.
        Err(e) => (result.and(Err(E::from(e))), false, false),
    };
    if !reusable {
        // Its state is unknown (a transaction may be left open): closed, not pooled.
        drop(Object::take(client));
    }
    (kept, Attempt { result, again })
}

/// A random pause of up to 2, 4, 8 … 100 ms before run `attempt + 1`, so that two
/// transactions that collided do not collide again in step.
fn backoff(attempt: u32) -> Duration {
    let ceiling_ms = (1u64 << attempt.min(6)).saturating_mul(2).min(100);
    let random = getrandom::u64().unwrap_or(0);
    Duration::from_micros(random % (ceiling_ms * 1000) + 500)
}
