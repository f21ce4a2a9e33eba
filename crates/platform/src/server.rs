//! Starting and stopping the platform, and its background work (async batches, pruning).

use std::fs::File;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::activities::Activities;
use super::apps::{self, AppCredentials};
use super::auth::{self, Tokens};
use super::auth_store;
use super::error::OpError;
use super::pg::{DatabaseUrl, PgStore};
use super::quotas::{self, NumberQuota, OwnQuota, QuotaChange};
use super::rules::orders;
use super::shared::{
    AppState, ListingCounts, ListingLimits, Listings, Shared, SqliteStores, Stores,
};
use super::spent::{self, Spent};
use super::sql::{self, StoreError};
use serve::TlsFiles;
use serve::listen::{self, ConnectionLimits};
use serve::throttle::Throttle;
use support::clock::now_ms;
use support::private_files::{create_or_check_data_dir, ensure_private_file};

/// The platform's region: the first digit of the asset numbers it hands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Region {
    /// 8
    #[default]
    Domestic,
    /// 6
    Singapore,
}

impl Region {
    pub fn digit(self) -> u8 {
        match self {
            Self::Domestic => 8,
            Self::Singapore => 6,
        }
    }

    pub fn from_digit(d: u8) -> Option<Self> {
        match d {
            8 => Some(Self::Domestic),
            6 => Some(Self::Singapore),
            _ => None,
        }
    }
}

/// Connections to PostgreSQL one instance opens at most, unless told.
pub const DEFAULT_DATABASE_POOL: usize = 16;

#[derive(Debug, Clone)]
pub struct Config {
    pub data_dir: PathBuf,
    pub listen: SocketAddr,
    pub region: Region,
    /// How long a used `g_nonce` is remembered at least (at most twice as long: see `auth::prune`).
    pub nonce_window: Duration,
    pub token_lifetime: Duration,
    /// The same token is handed out again while more than this remains of it.
    pub token_reuse_margin: Duration,
    /// The activities file (`serve --activities`); none means no activity exists.
    pub activities: Option<PathBuf>,
    pub connections: ConnectionLimits,
    /// Quotas on asset numbers for applications without their own.
    pub number_quota: NumberQuota,
    /// Claims one identity may make a minute (counted in memory, per process).
    pub claims_per_identity_per_minute: u32,
    pub listings: ListingLimits,
    /// Serve over TLS with this certificate and key (`serve --tls-cert/--tls-key`).
    pub tls: Option<TlsFiles>,
    /// Keep everything in this PostgreSQL database instead of the data directory's SQLite
    /// files (`serve --database`); several instances may share it.
    pub database: Option<DatabaseUrl>,
    /// Connections to `database` open at most (`serve --database-pool`).
    pub database_pool: usize,
    /// The Sandbox's proof of itself (see `proof`); None for `serve`.
    pub proof: Option<String>,
}

impl Config {
    /// Defaults of DESIGN.md: tokens live 7 days and are re-handed while 12 hours remain;
    /// nonces are remembered at least 24 hours; domestic region.
    pub fn new(data_dir: impl Into<PathBuf>, listen: SocketAddr) -> Self {
        Self {
            data_dir: data_dir.into(),
            listen,
            region: Region::default(),
            nonce_window: Duration::from_secs(24 * 3600),
            token_lifetime: Duration::from_secs(7 * 24 * 3600),
            token_reuse_margin: Duration::from_secs(12 * 3600),
            activities: None,
            connections: ConnectionLimits::default(),
            number_quota: NumberQuota::default(),
            claims_per_identity_per_minute: 30,
            listings: ListingLimits::default(),
            tls: None,
            database: None,
            database_pool: DEFAULT_DATABASE_POOL,
            proof: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot use the data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "another platform already runs on the data directory {0} (stop it, or give another --data)"
    )]
    DataDirInUse(PathBuf),
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    /// `url` is the URL without its password.
    #[error("cannot use the database {url}: {source}")]
    Database {
        url: String,
        source: Box<StoreError>,
    },
    #[error(transparent)]
    Activities(#[from] ActivitiesFileError),
    #[error(transparent)]
    Serve(#[from] serve::StartError),
}

/// A running platform. Dropping it without [`Server::shutdown`] stops it abruptly.
pub struct Server {
    addr: SocketAddr,
    tls: bool,
    shared: AppState,
    activities_file: Option<PathBuf>,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    /// The data directory's lock; none on PostgreSQL, which several instances share.
    _lock: Option<File>,
}

impl Server {
    /// Opens the data directory (exclusively), binds, and starts answering.
    pub async fn start(config: Config) -> Result<Server, StartError> {
        let activities = match &config.activities {
            Some(path) => read_activities(path)?,
            None => Activities::default(),
        };
        // A certificate that cannot be used stops the start before anything is opened.
        let tls = serve::acceptor(config.tls.as_ref())?;
        let (stores, lock) = match &config.database {
            Some(url) => {
                let pg = crate::pg::connect_to(url, config.database_pool)
                    .await
                    .map_err(|source| StartError::Database {
                        url: url.to_string(),
                        source: Box::new(source),
                    })?;
                (Stores::Postgres(pg), None)
            }
            None => {
                let lock = lock_data_dir(&config.data_dir)?;
                (
                    Stores::Sqlite(Box::new(open_sqlite(&config.data_dir)?)),
                    Some(lock),
                )
            }
        };
        let (listener, addr) = serve::bind(config.listen).await?;
        let shared: AppState = Arc::new(Shared {
            stores,
            tokens: Tokens::new(
                millis(config.token_lifetime),
                millis(config.token_reuse_margin),
            ),
            region: config.region.digit(),
            nonce_window_ms: millis(config.nonce_window),
            pending_batches: tokio::sync::Notify::new(),
            activities: RwLock::new(Arc::new(activities)),
            body_timeout: config.connections.body_timeout,
            token_failures: super::shared::TokenFailures::default(),
            number_quota: config.number_quota,
            claims: Throttle::new(
                config.claims_per_identity_per_minute,
                Duration::from_secs(60),
            ),
            listings: Listings::new(config.listings),
        });
        let (stop, stopped) = watch::channel(false);
        let app = super::http::router(Arc::clone(&shared), config.proof.clone());
        let secure = tls.is_some();
        let http = tokio::spawn(listen::serve(
            listener,
            app,
            config.connections,
            tls,
            stopped.clone(),
        ));
        let worker = tokio::spawn(batch_worker(Arc::clone(&shared), stopped.clone()));
        let pruner = tokio::spawn(pruner(Arc::clone(&shared), stopped));
        Ok(Server {
            addr,
            tls: secure,
            shared,
            activities_file: config.activities,
            stop,
            tasks: vec![http, worker, pruner],
            _lock: lock,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The asset listings streaming and waiting now, and how many have ended.
    pub fn listings(&self) -> ListingCounts {
        self.shared.listings.counts()
    }

    /// `http://HOST:PORT`, or `https://HOST:PORT` over TLS.
    pub fn base_url(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// Reads the activities file again (on SIGHUP). A bad file is refused and the activities
    /// in force stay; returns how many activities are now in force.
    pub fn reload_activities(&self) -> Result<usize, ActivitiesFileError> {
        let Some(path) = &self.activities_file else {
            return Ok(0);
        };
        let activities = read_activities(path)?;
        let n = activities.len();
        self.shared.set_activities(activities);
        Ok(n)
    }

    /// Stops accepting, lets requests in flight finish, and waits for the background work.
    pub async fn shutdown(self) {
        // Every receiver may have ended already.
        let _ = self.stop.send(true);
        for task in self.tasks {
            // A task that panicked has said so in the log; the others are still awaited.
            let _ = task.await;
        }
    }
}

/// The data directory's two SQLite files, and the fingerprints of the nonces they spent.
fn open_sqlite(data_dir: &Path) -> Result<SqliteStores, StoreError> {
    let store = crate::store::open(data_dir)?;
    let auth = auth_store::open(data_dir)?;
    let spent_by_writes = Spent::new(store.read(|tx| spent::logged(tx))?);
    let spent_by_reads = Spent::new(auth.read(|tx| spent::logged(tx))?);
    Ok(SqliteStores {
        store,
        auth,
        spent_by_writes,
        spent_by_reads,
    })
}

/// Why the activities file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ActivitiesFileError {
    #[error("cannot read the activities file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the activities file {} is not valid: {source}", path.display())]
    Invalid {
        path: PathBuf,
        source: super::activities::NotActivities,
    },
}

fn read_activities(path: &Path) -> Result<Activities, ActivitiesFileError> {
    let text = std::fs::read(path).map_err(|source| ActivitiesFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    Activities::parse(&text).map_err(|source| ActivitiesFileError::Invalid {
        path: path.to_owned(),
        source,
    })
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn lock_data_dir(dir: &Path) -> Result<File, StartError> {
    create_or_check_data_dir(dir).map_err(|source| StartError::DataDir {
        path: dir.to_owned(),
        source,
    })?;
    let path = dir.join("platform.lock");
    let file = ensure_private_file(&path)
        .and_then(|()| File::options().write(true).open(&path))
        .map_err(|source| StartError::DataDir {
            path: path.clone(),
            source,
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StartError::DataDirInUse(dir.to_owned())),
        Err(std::fs::TryLockError::Error(source)) => Err(StartError::DataDir { path, source }),
    }
}

/// Registers an application in a data directory; works while a server runs on it.
pub fn create_app(
    data_dir: &Path,
    name: &str,
    scopes: &[String],
) -> Result<AppCredentials, OpError> {
    create_app_with_quota(data_dir, name, scopes, OwnQuota::default())
}

/// Registers an application with its own quotas on asset numbers.
pub fn create_app_with_quota(
    data_dir: &Path,
    name: &str,
    scopes: &[String],
    quota: OwnQuota,
) -> Result<AppCredentials, OpError> {
    create_or_check_data_dir(data_dir)
        .map_err(|e| OpError::Internal(format!("cannot use {}: {e}", data_dir.display())))?;
    let store = crate::store::open(data_dir)?;
    let (name, scopes) = (name.to_owned(), scopes.to_vec());
    store.write_blocking(move |tx| apps::create(tx, &name, &scopes, quota, now_ms()))
}

/// [`create_app_with_quota`] in a PostgreSQL database; works while servers run on it.
pub async fn create_app_in_database(
    database: &DatabaseUrl,
    name: &str,
    scopes: &[String],
    quota: OwnQuota,
) -> Result<AppCredentials, OpError> {
    let store = connect(database).await?;
    let (name, scopes) = (name.to_owned(), scopes.to_vec());
    store
        .write(move |tx| apps::create(tx, &name, &scopes, quota, now_ms()))
        .await
}

/// [`change_app_quota`] in a PostgreSQL database.
pub async fn change_app_quota_in_database(
    database: &DatabaseUrl,
    app_key: &str,
    change: QuotaChange,
) -> Result<Option<OwnQuota>, OpError> {
    let store = connect(database).await?;
    let app_key = app_key.to_owned();
    store
        .write(move |tx| change_quota(tx, &app_key, change))
        .await
}

/// Runs `f` as one write on the data directory's platform, which must exist: the `app`
/// commands that change an application (rotate, revoke). Works while a server runs on it.
pub fn write_apps<T: Send + 'static>(
    data_dir: &Path,
    f: impl FnMut(&dyn sql::Tx) -> Result<T, OpError> + Send + 'static,
) -> Result<T, OpError> {
    if !data_dir.join(super::store::DB_FILE).exists() {
        return Err(OpError::Internal(format!(
            "{} holds no platform",
            data_dir.display()
        )));
    }
    crate::store::open(data_dir)?.write_blocking(f)
}

/// [`write_apps`] in a PostgreSQL database.
pub async fn write_apps_in_database<T: Send + 'static>(
    database: &DatabaseUrl,
    f: impl FnMut(&dyn sql::Tx) -> Result<T, OpError> + Send + 'static,
) -> Result<T, OpError> {
    connect(database).await?.write(f).await
}

/// One connection is enough for a command.
async fn connect(database: &DatabaseUrl) -> Result<PgStore, OpError> {
    crate::pg::connect_to(database, 1).await.map_err(|e| {
        OpError::Storage(StoreError::Failure(format!(
            "cannot use the database {database}: {e}"
        )))
    })
}

fn change_quota(
    tx: &dyn sql::Tx,
    app_key: &str,
    change: QuotaChange,
) -> Result<Option<OwnQuota>, OpError> {
    let Some(own) = quotas::own_quota(tx, app_key)? else {
        return Ok(None);
    };
    let own = change.apply(own);
    quotas::set_own_quota(tx, app_key, own)?;
    Ok(Some(own))
}

/// Changes an application's own quotas and answers them as they now are; `None` when the
/// data directory holds no such application. Works while a server runs on it: the next call
/// of the application is judged by the new quotas.
pub fn change_app_quota(
    data_dir: &Path,
    app_key: &str,
    change: QuotaChange,
) -> Result<Option<OwnQuota>, OpError> {
    let store = crate::store::open(data_dir)?;
    let app_key = app_key.to_owned();
    store.write_blocking(move |tx| change_quota(tx, &app_key, change))
}

/// How often a worker on PostgreSQL looks for async batches stored by another instance (its
/// own wake it at once).
const PENDING_POLL: Duration = Duration::from_secs(2);

/// Applies stored async batches, one at a time, oldest first. On PostgreSQL one instance at a
/// time applies (the one holding the applier's lock for its transaction); the batch's state
/// changes in the transaction that applies it, so it is applied once.
async fn batch_worker(shared: AppState, mut stopped: watch::Receiver<bool>) {
    let shared_db = matches!(shared.stores, Stores::Postgres(_));
    let idle = if shared_db {
        PENDING_POLL
    } else {
        Duration::from_secs(30)
    };
    loop {
        let applied = shared
            .write(move |tx, _| {
                // The batches' lock first, so that the snapshot sees every batch accepted.
                tx.serialize_on(orders::BATCHES)?;
                if shared_db && !applier_lock(tx)? {
                    return Ok(None);
                }
                orders::apply_next_pending(tx, now_ms())
            })
            .await;
        let wait = match applied {
            Ok(Some(_)) => continue,
            Ok(None) => idle,
            Err(e) => {
                tracing::error!(error = %e, "applying an async batch failed; retrying");
                Duration::from_secs(1)
            }
        };
        tokio::select! {
            _ = shared.pending_batches.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = stopped.wait_for(|s| *s) => return,
        }
    }
}

/// PostgreSQL only: whether this transaction is the one applier of async batches across the
/// instances (held to its end). One that is not leaves the work to the one that is.
fn applier_lock(tx: &dyn sql::Tx) -> Result<bool, StoreError> {
    tx.query_one(
        "SELECT pg_try_advisory_xact_lock(hashtext('license-desk:batch-applier'))",
        &[],
        |r| r.bool(0),
    )
}

/// Forgets old nonces (of both stores) and expired tokens every minute.
async fn pruner(shared: AppState, mut stopped: watch::Receiver<bool>) {
    loop {
        let pruned = match &shared.stores {
            Stores::Sqlite(stores) => prune_sqlite(&shared, stores).await,
            Stores::Postgres(_) => prune_postgres(&shared).await,
        };
        match pruned {
            Ok(n) if n > 0 => tracing::debug!(rows = n, "pruned nonces and tokens"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "pruning nonces and tokens failed"),
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(60)) => {}
            _ = stopped.wait_for(|s| *s) => return,
        }
    }
}

async fn prune_sqlite(shared: &AppState, stores: &SqliteStores) -> Result<usize, OpError> {
    let window = shared.nonce_window_ms;
    // The nonces in memory forget a generation once the store has (see `spent`).
    let business = shared
        .write(move |tx, _| Ok(auth::prune(tx, now_ms(), window)?))
        .await
        .map(|pruned| {
            if pruned.rotated {
                stores.spent_by_writes.rotate();
            }
            pruned.rows
        });
    let admission = shared
        .write_auth(move |tx, _| {
            let now = now_ms();
            let pruned = auth::prune(tx, now, window)?;
            Ok((pruned, auth::prune_tokens(tx, now)?))
        })
        .await
        .map(|(pruned, tokens)| {
            if pruned.rotated {
                stores.spent_by_reads.rotate();
            }
            pruned.rows + tokens
        });
    business.and_then(|n| Ok(n + admission?))
}

/// One nonce log and the tokens, in one database.
async fn prune_postgres(shared: &AppState) -> Result<usize, OpError> {
    let window = shared.nonce_window_ms;
    shared
        .write(move |tx, _| {
            let now = now_ms();
            let pruned = auth::prune(tx, now, window)?;
            Ok(pruned.rows + auth::prune_tokens(tx, now)?)
        })
        .await
}
