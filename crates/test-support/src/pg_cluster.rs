//! A throwaway PostgreSQL cluster for one run of a test binary, and a fresh database in it for
//! each test: `initdb` into a temp dir (as user `postgres` when the tests run as root, since
//! initdb refuses root), `pg_ctl start` on a free loopback port with the socket in the same dir,
//! stopped when the binary exits. A second cluster, with `ssl=on` and a server certificate of a
//! test CA, is started the first time a test asks for it ([`tls_database`]).
//!
//! The server binaries come from `pg_config --bindir` or `/usr/lib/postgresql/*/bin`. When there
//! are none, a test fails saying so, unless `LICENSE_DESK_PG=skip`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Set to `skip` to let the PostgreSQL tests pass without a server installed.
pub const SKIP_VARIABLE: &str = "LICENSE_DESK_PG";

struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    as_postgres: bool,
}

impl Cluster {
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = pg_command(&self.bin, self.as_postgres, "pg_ctl")
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "stop"])
            .output();
    }
}

/// The running clusters, taken and stopped at exit.
static CLUSTERS: Mutex<Vec<Cluster>> = Mutex::new(Vec::new());
/// The cluster's port, or why there is none (`None`: skipped).
static STARTED: OnceLock<Result<Option<u16>, String>> = OnceLock::new();
/// The same for the cluster with `ssl=on`, with its CA's certificate.
static STARTED_TLS: OnceLock<Result<Option<(u16, PathBuf)>, String>> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// The files of a server certificate, made by the test (tls_certs.rs) in the directory it is
/// given.
pub struct ServerCerts {
    /// The CA's certificate, for the client.
    pub ca: PathBuf,
    /// The server's certificate (and its chain).
    pub chain: PathBuf,
    pub key: PathBuf,
}

/// A new database in the cluster with `ssl=on`.
pub struct TlsDatabase {
    /// `postgresql://postgres@127.0.0.1:PORT/t_N`, no query: the test adds its `sslmode`.
    pub url: String,
    /// The CA that signed the server's certificate (for 127.0.0.1 and localhost).
    pub ca: PathBuf,
}

/// The URL of a new, empty database (`CREATE DATABASE t_<n>`), or `None` when PostgreSQL is not
/// installed and `LICENSE_DESK_PG=skip`. Panics with the reason when the cluster cannot start.
pub async fn database() -> Option<String> {
    let port = match STARTED.get_or_init(|| start(None)) {
        Ok(Some(port)) => *port,
        Ok(None) => {
            eprintln!("PostgreSQL is not installed and {SKIP_VARIABLE}=skip: test skipped");
            return None;
        }
        Err(why) => panic!("{why}"),
    };
    Some(create_database(port).await)
}

/// [`database`] in a cluster of its own that runs with `ssl=on`, its certificate made by
/// `certs` (called once per test binary). Plain connections are still allowed by the cluster:
/// the client's `sslmode` decides.
pub async fn tls_database(certs: fn(&Path) -> ServerCerts) -> Option<TlsDatabase> {
    let started = STARTED_TLS.get_or_init(|| {
        let mut ca = PathBuf::new();
        let port = start(Some(&mut |dir: &Path| {
            let made = certs(dir);
            ca = made.ca.clone();
            made
        }))?;
        Ok(port.map(|port| (port, ca)))
    });
    let (port, ca) = match started {
        Ok(Some(started)) => started.clone(),
        Ok(None) => {
            eprintln!("PostgreSQL is not installed and {SKIP_VARIABLE}=skip: test skipped");
            return None;
        }
        Err(why) => panic!("{why}"),
    };
    let url = create_database(port).await;
    Some(TlsDatabase { url, ca })
}

/// Creates `t_<n>` over a plain connection (the cluster's `host` lines take both kinds).
async fn create_database(port: u16) -> String {
    let name = format!("t_{}", DATABASES.fetch_add(1, Ordering::Relaxed));
    let (client, connection) = tokio_postgres::connect(
        &format!("host=127.0.0.1 port={port} user=postgres dbname=postgres"),
        tokio_postgres::NoTls,
    )
    .await
    .expect("connect to the test cluster");
    let driver = tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create a test database");
    drop(client);
    let _ = driver.await;
    format!("postgresql://postgres@127.0.0.1:{port}/{name}")
}

/// Whether PostgreSQL's server binaries are installed.
pub fn installed() -> bool {
    server_binaries().is_some()
}

/// Starts a cluster; with `certs`, one with `ssl=on` and the certificate `certs` writes.
fn start(certs: Option<&mut dyn FnMut(&Path) -> ServerCerts>) -> Result<Option<u16>, String> {
    let Some(bin) = server_binaries() else {
        if std::env::var(SKIP_VARIABLE).is_ok_and(|v| v == "skip") {
            return Ok(None);
        }
        return Err(format!(
            "PostgreSQL's server binaries (initdb, pg_ctl) were found neither by `pg_config --bindir` \
             nor in /usr/lib/postgresql/*/bin: install PostgreSQL (apt install postgresql), or set \
             {SKIP_VARIABLE}=skip to skip the PostgreSQL tests"
        ));
    };
    let as_postgres = is_root();
    let dir = tempfile::Builder::new()
        .prefix("license-desk-pg")
        .tempdir()
        .map_err(|e| format!("temp dir: {e}"))?;
    if as_postgres {
        give_to_postgres(dir.path())?;
    }
    let cluster = Cluster {
        dir,
        bin,
        as_postgres,
    };
    run(pg_command(&cluster.bin, as_postgres, "initdb")
        .arg("-D")
        .arg(cluster.data())
        .args([
            "--auth=trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ]))?;
    let ssl = match certs {
        Some(certs) => ssl_options(&cluster, certs)?,
        None => String::new(),
    };
    let port = start_on_a_free_port(&cluster, &ssl)?;
    CLUSTERS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(cluster);
    stop_at_exit();
    Ok(Some(port))
}

/// Writes the server's certificate into the cluster's dir, readable by the server and its key
/// private to it (PostgreSQL refuses a key others can read), and the options that use them.
fn ssl_options(
    cluster: &Cluster,
    certs: &mut dyn FnMut(&Path) -> ServerCerts,
) -> Result<String, String> {
    let dir = cluster.dir.path().join("tls");
    std::fs::create_dir(&dir).map_err(|e| format!("mkdir {}: {e}", dir.display()))?;
    let made = certs(&dir);
    set_mode(&made.key, 0o600)?;
    if cluster.as_postgres {
        for path in [&dir, &made.chain, &made.key] {
            give_to_postgres(path)?;
        }
    }
    Ok(format!(
        " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
        made.chain.display(),
        made.key.display()
    ))
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("chmod {}: {e}", path.display()))
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: u32) -> Result<(), String> {
    Ok(())
}

/// A port free a moment ago may be taken by the time the server binds it: a few tries.
fn start_on_a_free_port(cluster: &Cluster, extra_options: &str) -> Result<u16, String> {
    let mut last = String::new();
    for _ in 0..5 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=300 \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off{extra_options}",
            cluster.dir.path().display()
        );
        let started = run(pg_command(&cluster.bin, cluster.as_postgres, "pg_ctl")
            .arg("-D")
            .arg(cluster.data())
            .arg("-l")
            .arg(cluster.dir.path().join("server.log"))
            .args(["-w", "-t", "60", "-o", &options, "start"]));
        match started {
            Ok(()) => return Ok(port),
            Err(e) => last = e,
        }
    }
    let log = std::fs::read_to_string(cluster.dir.path().join("server.log")).unwrap_or_default();
    Err(format!("the test cluster did not start: {last}\n{log}"))
}

fn server_binaries() -> Option<PathBuf> {
    let from_pg_config = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let mut installed: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .collect();
    // The newest major version first.
    installed.sort_by_key(|p| {
        std::cmp::Reverse(
            p.parent()
                .and_then(Path::file_name)
                .and_then(|n| n.to_str()?.parse::<u32>().ok()),
        )
    });
    from_pg_config
        .into_iter()
        .chain(installed)
        .find(|bin| bin.join("initdb").is_file() && bin.join("pg_ctl").is_file())
}

/// `bin/program`, run as `postgres` when the tests run as root.
fn pg_command(bin: &Path, as_postgres: bool, program: &str) -> Command {
    if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn run(command: &mut Command) -> Result<(), String> {
    let out: Output = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{command:?}: {}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[cfg(unix)]
fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

#[cfg(not(unix))]
fn is_root() -> bool {
    false
}

/// The temp dir belongs to root with mode 0700: the server, run as `postgres`, needs it (and
/// the files of its certificate).
#[cfg(unix)]
fn give_to_postgres(dir: &Path) -> Result<(), String> {
    let id = |flag: &str| -> Result<u32, String> {
        let out = Command::new("id")
            .args([flag, "postgres"])
            .output()
            .map_err(|e| format!("id {flag} postgres: {e}"))?;
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .map_err(|_| "the tests run as root and there is no user postgres".to_owned())
    };
    std::os::unix::fs::chown(dir, Some(id("-u")?), Some(id("-g")?))
        .map_err(|e| format!("chown {}: {e}", dir.display()))
}

#[cfg(not(unix))]
fn give_to_postgres(_: &Path) -> Result<(), String> {
    Ok(())
}

/// Registers the stop once, for every cluster started.
#[cfg(unix)]
fn stop_at_exit() {
    extern "C" fn stop() {
        let clusters =
            std::mem::take(&mut *CLUSTERS.lock().unwrap_or_else(PoisonError::into_inner));
        drop(clusters);
    }
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    // SAFETY: `stop` is an `extern "C" fn()` that does not unwind (Drop ignores every error).
    REGISTERED.call_once(|| unsafe {
        libc::atexit(stop);
    });
}

#[cfg(not(unix))]
fn stop_at_exit() {}
