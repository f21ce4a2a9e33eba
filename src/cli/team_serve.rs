//! `team serve`: the team server between a branch network's consoles and one platform
//! (docs/team.md). The platform's app secret comes from a file only its user may read, or
//! from an environment variable; it is never an argument, never logged.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use license_desk::core::Secret;
use serve::ConnectionLimits;
use team::ldap::LdapConfig;
use team::mail::MailConfig;
use team::server::{self, TeamConfig, TeamServer};
use team::sessions::SessionRules;
use team::upstream::UpstreamConfig;

use crate::cli::output::Failure;
use crate::cli::secret_input;
use crate::cli::team_data::Data;

/// The variable that may hold the platform's app secret instead of --secret-file.
pub const SECRET_VAR: &str = "LICENSE_DESK_TEAM_APP_SECRET";

#[derive(Args)]
pub(crate) struct TeamServeArgs {
    #[command(flatten)]
    data: Data,
    /// Connections to --database open at most.
    #[arg(long, value_name = "N", default_value_t = server::DEFAULT_DATABASE_POOL)]
    database_pool: usize,
    /// Address to listen on; port 0 picks a free port. Plain HTTP only on loopback, unless
    /// --tls-cert/--tls-key or --insecure-http.
    #[arg(long, default_value = "127.0.0.1:8620")]
    listen: SocketAddr,
    /// The platform's base URL, e.g. https://platform.example.com.
    #[arg(long, value_name = "URL")]
    upstream_url: String,
    /// The platform's token endpoint [default: the base URL's /v3/api/oauth2/token].
    #[arg(long, value_name = "URL")]
    upstream_token_url: Option<String>,
    /// A CA (PEM) trusted for the platform besides the system's.
    #[arg(long, value_name = "FILE")]
    upstream_ca_file: Option<PathBuf>,
    /// Allow plain http:// to a platform on another machine (the secret crosses in clear).
    #[arg(long)]
    upstream_insecure_http: bool,
    /// The application key the server calls the platform as.
    #[arg(long, value_name = "KEY")]
    app_key: String,
    /// A file holding the app secret (one line), readable by its user only; else the
    /// variable LICENSE_DESK_TEAM_APP_SECRET.
    #[arg(long, value_name = "FILE")]
    secret_file: Option<PathBuf>,
    /// Serve HTTPS with this certificate chain (PEM). Needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Allow plain HTTP on an address other than loopback (logged at start).
    #[arg(long)]
    insecure_http: bool,
    /// Minutes a session may stay idle.
    #[arg(long, value_name = "MINUTES", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=24 * 60))]
    session_idle: u64,
    /// Hours a session lasts at most.
    #[arg(long, value_name = "HOURS", default_value_t = 12,
          value_parser = clap::value_parser!(u64).range(1..=24 * 30))]
    session_hours: u64,
    /// Days the audit log keeps an entry; older ones are dropped from its start (the chain
    /// still proves what is left). 0 keeps every entry.
    #[arg(long, value_name = "DAYS", default_value_t = 0)]
    audit_retention_days: u64,
    /// An LDAP or Active Directory server people may sign in through: ldap://HOST:389 or
    /// ldaps://HOST:636.
    #[arg(long, value_name = "URL", requires_all = ["ldap_user_dn", "ldap_group_base"])]
    ldap_url: Option<String>,
    /// A person's DN, {user} standing for their sign-in name, e.g.
    /// uid={user},ou=people,dc=example,dc=com (AD: CN={user},OU=Staff,DC=corp,DC=example).
    #[arg(long, value_name = "TEMPLATE", requires = "ldap_url")]
    ldap_user_dn: Option<String>,
    /// Where the person's groups are searched (groups whose member or uniqueMember is them).
    #[arg(long, value_name = "DN", requires = "ldap_url")]
    ldap_group_base: Option<String>,
    /// A group and the role its members get, GROUP_DN=ROLE; repeat for more. The role with the
    /// most permissions among a person's groups wins; with none given, directory people must
    /// be added with `team user add NAME --ldap` and keep their role there.
    #[arg(long, value_name = "GROUP_DN=ROLE", value_parser = parse_ldap_role, requires = "ldap_url")]
    ldap_role: Vec<(String, String)>,
    /// StartTLS on an ldap:// URL.
    #[arg(long, requires = "ldap_url")]
    ldap_starttls: bool,
    /// Allow plain ldap:// without StartTLS to a host other than loopback (directory
    /// passwords cross the network in clear; logged at start).
    #[arg(long, requires = "ldap_url")]
    insecure_ldap: bool,
    /// The attribute holding an entry's stable id, by which a directory person is known
    /// whatever spelling of their name they type: entryUUID (OpenLDAP, 389-DS), objectGUID
    /// (Active Directory).
    #[arg(long, value_name = "ATTRIBUTE", default_value = team::ldap::DEFAULT_ID_ATTRIBUTE, requires = "ldap_url")]
    ldap_id_attribute: String,
    /// A reverse proxy (address or CIDR) whose X-Forwarded-For names the client; repeat for
    /// more. Without it X-Forwarded-For is ignored and the TCP peer is the client.
    #[arg(long, value_name = "CIDR", value_parser = parse_cidr)]
    trusted_proxy: Vec<ipnet::IpNet>,
    #[command(flatten)]
    mail: MailArgs,
}

/// Mail to approvers when a request waits for them: off unless --mail-server is given.
#[derive(Args)]
struct MailArgs {
    /// An SMTP server approvers are mailed through, HOST or HOST:PORT [port: 587]; STARTTLS
    /// is required. Approvers are mailed at the address `team user edit --email` gave them.
    #[arg(long, value_name = "HOST[:PORT]", requires = "mail_from")]
    mail_server: Option<String>,
    /// The sender of those mails, e.g. "License Desk <desk@example.com>".
    #[arg(long, value_name = "ADDRESS", requires = "mail_server")]
    mail_from: Option<String>,
    /// Sign in on the mail server as this user; the password is the variable
    /// LICENSE_DESK_MAIL_PASSWORD.
    #[arg(long, value_name = "USER", requires = "mail_server")]
    mail_user: Option<String>,
    /// A CA (PEM) trusted for the mail server besides the system's.
    #[arg(long, value_name = "FILE", requires = "mail_server")]
    mail_ca_file: Option<PathBuf>,
}

/// The variable that holds the mail server's password for --mail-user.
pub const MAIL_PASSWORD_VAR: &str = "LICENSE_DESK_MAIL_PASSWORD";

impl MailArgs {
    fn config(self) -> Result<Option<MailConfig>, Failure> {
        let (Some(server), Some(from)) = (self.mail_server, self.mail_from) else {
            return Ok(None);
        };
        let (host, port) = match server.rsplit_once(':') {
            Some((host, port)) => match port.parse::<u16>() {
                Ok(port) => (host.to_owned(), port),
                Err(_) => {
                    return Err(format!("--mail-server {server:?}: {port:?} is not a port").into());
                }
            },
            None => (server, team::mail::DEFAULT_PORT),
        };
        let password = std::env::var(MAIL_PASSWORD_VAR)
            .ok()
            .filter(|p| !p.is_empty())
            .map(Secret::new);
        Ok(Some(MailConfig {
            server: host,
            port,
            from,
            user: self.mail_user,
            password,
            ca_file: self.mail_ca_file,
        }))
    }
}

/// `10.0.0.0/8`, or one address (`10.0.0.5` is `10.0.0.5/32`).
fn parse_cidr(s: &str) -> Result<ipnet::IpNet, String> {
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{s:?} is not an address or CIDR (10.0.0.0/8)"))
}

/// `GROUP_DN=ROLE`: the role after the last `=` (a DN has `=` of its own).
fn parse_ldap_role(s: &str) -> Result<(String, String), String> {
    match s.rsplit_once('=') {
        Some((group, role)) if !group.trim().is_empty() && !role.trim().is_empty() => {
            Ok((group.trim().to_owned(), role.trim().to_lowercase()))
        }
        _ => Err(format!("{s:?} is not GROUP_DN=ROLE")),
    }
}

pub(crate) fn serve(args: TeamServeArgs) -> Result<(), Failure> {
    let secret = app_secret(args.secret_file.as_deref())?;
    let seal = args.data.seal_places();
    let releases = args.data.releases_dir();
    let (data_dir, database) = args.data.parts()?;
    let upstream_url = args.upstream_url.clone();
    let config = TeamConfig {
        listen: args.listen,
        data_dir: data_dir.unwrap_or_default(),
        database,
        database_pool: args.database_pool.max(1),
        upstream: UpstreamConfig {
            base_url: args.upstream_url,
            token_url: args.upstream_token_url,
            app_key: args.app_key,
            app_secret: secret,
            ca_file: args.upstream_ca_file,
            insecure_http: args.upstream_insecure_http,
        },
        tls: args
            .tls_cert
            .zip(args.tls_key)
            .map(|(cert, key)| serve::TlsFiles { cert, key }),
        insecure_http: args.insecure_http,
        sessions: SessionRules {
            idle: Duration::from_secs(args.session_idle * 60),
            absolute: Duration::from_secs(args.session_hours * 3600),
            ..SessionRules::default()
        },
        connections: ConnectionLimits::default(),
        ldap: args.ldap_url.map(|url| LdapConfig {
            url,
            user_dn: args.ldap_user_dn.unwrap_or_default(),
            group_base: args.ldap_group_base.unwrap_or_default(),
            roles: args.ldap_role,
            starttls: args.ldap_starttls,
            insecure: args.insecure_ldap,
            id_attribute: args.ldap_id_attribute,
            timeout: Duration::from_secs(10),
        }),
        trusted_proxies: args.trusted_proxy,
        seal: Some(seal),
        mail: args.mail.config()?,
        releases,
        audit_retention: (args.audit_retention_days > 0)
            .then(|| Duration::from_secs(args.audit_retention_days * 24 * 3600)),
    };
    crate::cli::serve::command_runtime()?.block_on(async move {
        let server = TeamServer::start(config).await?;
        tracing::info!(upstream = %upstream_url, "team server started");
        // The one line on stdout: scripts wait for it to know the server answers.
        let mut out = std::io::stdout();
        // With stdout closed the server still runs; its log says it started.
        let _ = writeln!(out, "listening on {}", server.base_url()).and_then(|()| out.flush());
        wait_for_stop().await;
        tracing::info!("stopping");
        server.shutdown().await;
        Ok(())
    })
}

/// The platform's app secret: from the file (refused if others may read it) or the variable.
fn app_secret(file: Option<&Path>) -> Result<Secret, Failure> {
    let Some(file) = file else {
        return std::env::var(SECRET_VAR)
            .ok()
            .filter(|s| !s.trim().is_empty())
            .map(|s| Secret::new(s.trim()))
            .ok_or_else(|| format!("give --secret-file FILE or set {SECRET_VAR}").into());
    };
    secret_input::private_to_user(file)?;
    Ok(secret_input::from_file(file)?)
}

/// Waits for Ctrl-C or SIGTERM.
async fn wait_for_stop() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    // Without a Ctrl-C handler, the server runs until it is killed.
    let _ = tokio::signal::ctrl_c().await;
}
