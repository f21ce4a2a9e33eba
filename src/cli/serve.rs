//! `serve`: the embedded platform headless, on its data directory or a PostgreSQL database;
//! and what the `app` commands share with it (the data directory, the database URL).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use platform::pg::UrlError;
use platform::{self, Config, ListingLimits, Region, Server};
use serve::ConnectionLimits;

use crate::cli::output::Failure;

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8610")]
    listen: SocketAddr,
    /// Data directory [default: the OS data directory, e.g. ~/.local/share/license-desk/platform]
    #[arg(long)]
    data: Option<PathBuf>,
    /// Keep the platform in this PostgreSQL database instead of a data directory:
    /// postgresql://USER@HOST[:PORT]/DATABASE, the password in PGPASSWORD. Several instances
    /// may serve one database.
    #[arg(long, value_name = "URL", value_parser = parse_database, conflicts_with = "data")]
    database: Option<platform::pg::DatabaseUrl>,
    /// Connections to --database open at most.
    #[arg(long, value_name = "N", default_value_t = platform::DEFAULT_DATABASE_POOL,
          value_parser = parse_pool, requires = "database")]
    database_pool: usize,
    /// First digit of the asset numbers handed out: 8 domestic, 6 Singapore.
    #[arg(long, default_value_t = 8, value_parser = parse_region)]
    region: u8,
    /// Activity definitions (JSON); re-read on SIGHUP. A bad file is refused at start.
    #[arg(long, value_name = "FILE")]
    activities: Option<PathBuf>,
    /// How long a used g_nonce is remembered at least, in seconds (at most twice as long).
    #[arg(long, default_value_t = 24 * 3600)]
    nonce_window: u64,
    /// Lifetime of an access token, in seconds.
    #[arg(long, default_value_t = 7 * 24 * 3600)]
    token_lifetime: u64,
    /// Connections open at once; one more is answered 503 and closed. At most the open-file
    /// limit (raised to its hard limit at start) less a margin for the database.
    #[arg(long, default_value_t = 1024)]
    max_connections: usize,
    /// Seconds a request's head may take, counted from when the connection opens or answered
    /// its previous request (so also how long an idle connection is kept).
    #[arg(long, default_value_t = 10.0)]
    header_timeout: f64,
    /// Seconds a request's body may take once its head has arrived.
    #[arg(long, default_value_t = 30.0)]
    body_timeout: f64,
    /// Asset numbers an application may take in a clock minute, unless it has its own quota
    /// (app create / app quota).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    quota_numbers_per_minute: u32,
    /// Asset numbers an application may take in a UTC day, unless it has its own quota.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    quota_numbers_per_day: u32,
    /// Claims one identity may make a minute (counted in memory, by this process).
    #[arg(long, value_name = "N", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(1..))]
    claims_per_minute: u32,
    /// Asset listings (operation 8) streaming at once; each holds a database reader. One more
    /// waits for a turn.
    #[arg(long, default_value_t = 4)]
    max_listings: usize,
    /// Seconds a listing waits for a turn before it is refused (500, "busy"; retry).
    #[arg(long, default_value_t = 30.0)]
    listing_wait: f64,
    /// Serve HTTPS with this certificate chain (PEM: the server's certificate first, then any
    /// intermediates). Needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// For tests only: apply every batch, also one whose channelOrderId was seen, as a
    /// production platform that promises nothing about repeats may. Never for real use.
    #[arg(long, hide = true)]
    test_forget_repeats: bool,
}

fn parse_region(s: &str) -> Result<u8, String> {
    s.parse::<u8>()
        .ok()
        .filter(|d| Region::from_digit(*d).is_some())
        .ok_or_else(|| format!("{s:?}: the region is 8 (domestic) or 6 (Singapore)"))
}

pub(crate) fn default_data_dir() -> Result<PathBuf, Failure> {
    directories::ProjectDirs::from("", "", "license-desk")
        .map(|d| d.data_local_dir().join("platform"))
        .ok_or_else(|| "no OS data directory is known for this user; give --data DIR".into())
}

/// `--database URL`: the password from the URL or `PGPASSWORD`.
pub(crate) fn parse_database(url: &str) -> Result<platform::pg::DatabaseUrl, UrlError> {
    platform::pg::DatabaseUrl::from_env(url)
}

/// `--database-pool N`: 1 to 1000.
fn parse_pool(n: &str) -> Result<usize, String> {
    n.parse::<usize>()
        .ok()
        .filter(|n| (1..=1000).contains(n))
        .ok_or_else(|| format!("must be a whole number from 1 to 1000, not {n:?}"))
}

/// A runtime for a command that talks to PostgreSQL.
pub(crate) fn command_runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Runtime::new().map_err(|e| format!("cannot start tokio: {e}").into())
}

pub(crate) fn serve(args: ServeArgs) -> Result<(), Failure> {
    if args.test_forget_repeats {
        tracing::warn!("--test-forget-repeats: a repeated channelOrderId is applied again");
        platform::rules::orders::forget_repeats();
    }
    crate::cli::logging::init("info");
    let connections = connection_limits(&args)?;
    let listings = listing_limits(&args)?;
    // On PostgreSQL no data directory is used (nor created).
    let data = match &args.database {
        Some(_) => PathBuf::new(),
        None => args.data.map_or_else(default_data_dir, Ok)?,
    };
    let mut config = Config::new(&data, args.listen);
    config.database = args.database;
    config.database_pool = args.database_pool;
    config.region = Region::from_digit(args.region).unwrap_or_default();
    config.nonce_window = Duration::from_secs(args.nonce_window);
    config.token_lifetime = Duration::from_secs(args.token_lifetime);
    config.token_reuse_margin = config.token_reuse_margin.min(config.token_lifetime / 2);
    config.connections = connections;
    config.listings = listings;
    config.activities = args.activities;
    config.number_quota = platform::NumberQuota {
        per_minute: args.quota_numbers_per_minute,
        per_day: args.quota_numbers_per_day,
    };
    config.claims_per_identity_per_minute = args.claims_per_minute;
    config.tls = args
        .tls_cert
        .zip(args.tls_key)
        .map(|(cert, key)| serve::TlsFiles { cert, key });

    command_runtime()?.block_on(async move {
        let database = config.database.clone();
        let server = Server::start(config).await?;
        match database {
            // Shown without its password.
            Some(url) => tracing::info!(database = %url, "platform started"),
            None => tracing::info!(data = %data.display(), "platform started"),
        }
        // The one line on stdout: scripts wait for it to know the platform answers.
        let mut out = std::io::stdout();
        // With stdout closed the server still runs; its log says it started.
        let _ = writeln!(out, "listening on {}", server.base_url()).and_then(|()| out.flush());
        run_until_stopped(&server).await;
        tracing::info!("stopping");
        server.shutdown().await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// The connection limits asked for, within what the process may open.
fn connection_limits(args: &ServeArgs) -> Result<ConnectionLimits, Failure> {
    let seconds = |name: &str, v: f64| {
        Duration::try_from_secs_f64(v)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| format!("--{name} must be a positive number of seconds, not {v}"))
    };
    // Files the database, the log and the listener keep open besides the connections.
    const OWN_FILES: u64 = 64;
    let files = open_file_limit();
    let most = usize::try_from(files.saturating_sub(OWN_FILES)).unwrap_or(usize::MAX);
    if args.max_connections == 0 || args.max_connections > most {
        return Err(format!(
            "--max-connections must be between 1 and {most} (the open-file limit {files} less {OWN_FILES}), not {}",
            args.max_connections
        )
        .into());
    }
    Ok(ConnectionLimits {
        max_connections: args.max_connections,
        header_timeout: seconds("header-timeout", args.header_timeout)?,
        body_timeout: seconds("body-timeout", args.body_timeout)?,
        ..ConnectionLimits::default()
    })
}

/// The listing limits asked for.
fn listing_limits(args: &ServeArgs) -> Result<ListingLimits, Failure> {
    if args.max_listings == 0 {
        return Err("--max-listings must be at least 1".into());
    }
    let wait = Duration::try_from_secs_f64(args.listing_wait)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            format!(
                "--listing-wait must be a positive number of seconds, not {}",
                args.listing_wait
            )
        })?;
    Ok(ListingLimits {
        max_streaming: args.max_listings,
        wait,
    })
}

/// Raises the soft limit on open files to the hard one (systems start servers at 1024 or
/// less) and answers the limit now in force.
#[cfg(unix)]
fn open_file_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    }
}

/// Windows has no such per-process limit on sockets.
#[cfg(not(unix))]
fn open_file_limit() -> u64 {
    u64::MAX
}

/// Waits for Ctrl-C or SIGTERM; on SIGHUP reads the activities file again.
async fn run_until_stopped(server: &Server) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut hup)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            tracing::warn!("cannot listen for SIGTERM/SIGHUP; stop with Ctrl-C");
            // Without a Ctrl-C handler either, the server runs until it is killed.
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        loop {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => return,
                _ = term.recv() => return,
                _ = hup.recv() => match server.reload_activities() {
                    Ok(n) => tracing::info!(activities = n, "activities file read again"),
                    Err(e) => tracing::error!(error = %e, "kept the activities in force"),
                },
            }
        }
    }
    #[cfg(not(unix))]
    {
        // Only Unix reloads the activities file (on SIGHUP).
        let _ = server;
        // Without a Ctrl-C handler either, the server runs until it is killed.
        let _ = tokio::signal::ctrl_c().await;
    }
}
