//! A running team server: its store opened, the platform's client built, and the HTTP face
//! served (over TLS when given a certificate) as `serve` serves the platform.

use std::net::SocketAddr;
use std::sync::Arc;

use db::pg::DatabaseUrl;
use serve::TlsFiles;
use serve::listen::{self, ConnectionLimits};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::checkpointer::Checkpointer;
use crate::http::{self, Team};
use crate::instances;
use crate::mail::Mailer;
use crate::seal::{AuditKey, SealPlaces};
use crate::sessions::{SessionRules, Sessions};
use crate::store::{Place, TeamStore};
use crate::upstream::{self, UpstreamConfig};

/// Database connections an instance keeps open at most on PostgreSQL.
pub const DEFAULT_DATABASE_POOL: usize = 16;

#[derive(Debug, Clone)]
pub struct TeamConfig {
    pub listen: SocketAddr,
    /// The data directory (SQLite), unless `database` is given.
    pub data_dir: std::path::PathBuf,
    pub database: Option<DatabaseUrl>,
    pub database_pool: usize,
    pub upstream: UpstreamConfig,
    pub tls: Option<TlsFiles>,
    /// Plain HTTP on an address other than loopback (people's passwords and sessions would
    /// cross the network in clear): refused unless this is set.
    pub insecure_http: bool,
    pub sessions: SessionRules,
    pub connections: ConnectionLimits,
    /// Audit entries older than this are dropped (the chain's start moves with them); none:
    /// kept for ever.
    pub audit_retention: Option<std::time::Duration>,
    /// The LDAP directory people may sign in through, if any.
    pub ldap: Option<crate::ldap::LdapConfig>,
    /// Reverse proxies whose `X-Forwarded-For` names the client (for the sign-in limits);
    /// connections from them are not capped per address either.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Where the record's key and checkpoints are; by default beside the SQLite store, and
    /// none on PostgreSQL unless given (then entries carry no MAC, and that is logged).
    pub seal: Option<SealPlaces>,
    /// Where approvers are mailed from when a request waits for them; none: not mailed.
    pub mail: Option<crate::mail::MailConfig>,
    /// The folder of the releases it distributes (`releases/` of the data directory by
    /// default); none: it distributes none.
    pub releases: Option<std::path::PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(
        "plain HTTP on {0}, which is not loopback: passwords and sessions would cross the \
         network in clear. Give --tls-cert and --tls-key, or --insecure-http to accept it"
    )]
    ClearOnNetwork(SocketAddr),
    #[error(transparent)]
    Ldap(#[from] crate::ldap::LdapError),
    #[error(transparent)]
    Seal(#[from] crate::TeamError),
    #[error("cannot open the team server's data: {0}")]
    Store(#[from] db::sql::StoreError),
    #[error("the platform cannot be used as given: {0}")]
    Upstream(#[from] client::ApiError),
    #[error(transparent)]
    Serve(#[from] serve::StartError),
    #[error(transparent)]
    Mail(#[from] crate::mail::MailError),
}

/// A running team server. Dropping it without [`TeamServer::shutdown`] stops it abruptly.
pub struct TeamServer {
    addr: SocketAddr,
    tls: bool,
    stop: watch::Sender<bool>,
    /// The consoles' waits for changes, answered at the stop.
    events: crate::events::Events,
    tasks: Vec<JoinHandle<()>>,
    /// The store and the last checkpoint's writer, for the checkpoint at the stop.
    store: TeamStore,
    checkpoints: Checkpointer,
}

/// Refuses people's passwords in clear on the network (HTTP, or a directory over plain
/// LDAP), unless asked for.
fn checked_transport(config: &TeamConfig) -> Result<(), StartError> {
    let clear_on_network = config.tls.is_none() && !config.listen.ip().is_loopback();
    if clear_on_network && !config.insecure_http {
        return Err(StartError::ClearOnNetwork(config.listen));
    }
    if clear_on_network {
        tracing::warn!(listen = %config.listen, "--insecure-http: plain HTTP on the network");
    }
    if let Some(ldap) = &config.ldap {
        ldap.check()?;
    }
    Ok(())
}

/// Where the record's seal is, and its key (made there if missing, sealing what comes next).
async fn sealing(
    config: &TeamConfig,
    store: &TeamStore,
) -> Result<(SealPlaces, Option<AuditKey>), StartError> {
    let seal = config
        .seal
        .clone()
        .unwrap_or_else(|| match &config.database {
            None => SealPlaces::in_dir(&config.data_dir),
            Some(_) => SealPlaces::default(),
        });
    let key = match seal.key.as_deref() {
        Some(path) => Some(AuditKey::load_or_create(
            path,
            crate::audit::chain_end_now(store).await?,
        )?),
        None => None,
    };
    if key.is_none() {
        tracing::warn!("no --audit-key-file: the audit log's entries carry no MAC");
    }
    Ok((seal, key))
}

impl TeamServer {
    pub async fn start(config: TeamConfig) -> Result<TeamServer, StartError> {
        checked_transport(&config)?;
        let tls = serve::acceptor(config.tls.as_ref())?;
        let place = match &config.database {
            Some(url) => Place::Database(url),
            None => Place::Dir(&config.data_dir),
        };
        let store = TeamStore::open(place, config.database_pool).await?;
        let (seal, key) = sealing(&config, &store).await?;
        let instance = instances::new_id()?;
        instances::beat(&store, &instance, key.as_ref()).await?;
        let upstream = upstream::client(
            config.upstream.clone(),
            store.clone(),
            instance.clone(),
            key.clone(),
        )?;
        let mut team = Team::new(
            store.clone(),
            Sessions::with_directory(store.clone(), config.sessions, config.ldap.clone()),
            upstream,
            key.clone(),
            instance.clone(),
        );
        team.trusted_proxies = config.trusted_proxies.clone();
        team.mail = config.mail.as_ref().map(Mailer::new).transpose()?;
        team.releases = config.releases.clone().map(crate::releases::Shelf::new);
        let events = team.events.clone();
        let team = Arc::new(team);
        let (listener, addr) = serve::bind(config.listen).await?;
        let (stop, stopped) = watch::channel(false);
        let secure = tls.is_some();
        // A trusted proxy carries many clients: not capped per address.
        let mut connections = config.connections.clone();
        connections
            .uncapped
            .extend(config.trusted_proxies.iter().copied());
        let http = tokio::spawn(listen::serve(
            listener,
            http::router(team),
            connections,
            tls,
            stopped.clone(),
        ));
        let beats = tokio::spawn(instances::keep_beating(
            store.clone(),
            instance,
            config.audit_retention,
            Checkpointer::new(key.clone(), seal.checkpoints.clone()),
            key.clone(),
            stopped,
        ));
        Ok(TeamServer {
            addr,
            tls: secure,
            stop,
            tasks: vec![http, beats],
            events,
            store,
            checkpoints: Checkpointer::new(key, seal.checkpoints),
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://` or `https://` and the address, as consoles reach it.
    pub fn base_url(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// Stops accepting, lets requests in flight finish, and writes the record's checkpoint.
    pub async fn shutdown(mut self) {
        // Consoles waiting for changes are answered now, not when their waits are out.
        self.events.stop();
        // Every receiver may have ended already.
        let _ = self.stop.send(true);
        for task in std::mem::take(&mut self.tasks) {
            // A task that panicked has said so in the log; the others are still awaited.
            let _ = task.await;
        }
        if let Err(e) = self.checkpoints.beat(&self.store).await {
            tracing::error!(error = %e, "cannot write the audit log's checkpoint at the stop");
        }
    }
}
