//! The database given as `--database postgresql://USER@HOST/DB`: its connection settings, and
//! a form to print and log that never holds the password. A password is better given in
//! `PGPASSWORD` (libpq's name, which operators know) than in the URL, where any user of the
//! machine sees it in the process list; one in the URL still wins, as with libpq.
//!
//! TLS is asked for with libpq's parameters: `sslmode` (`disable`, `prefer`, `require`, and
//! `verify-ca` / `verify-full`, which are `require` here since certificates are always
//! verified) and `sslrootcert` (the CA file to verify with instead of the system's CAs).
//! Without `sslmode` a database on another host is `require`: `prefer` would fall back to
//! clear text when a man in the middle refuses TLS. On loopback (or a Unix socket) it is
//! `prefer`, as libpq's default.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use percent_encoding::percent_decode_str;
use tokio_postgres::config::SslMode;

/// The environment variable read for the password when the URL has none.
pub const PASSWORD_VAR: &str = "PGPASSWORD";

#[derive(Clone)]
pub struct DatabaseUrl {
    config: tokio_postgres::Config,
    /// `sslrootcert`: the CA file the server's certificate is verified with, instead of the
    /// system's CAs.
    root_cert: Option<PathBuf>,
    shown: String,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UrlError {
    #[error("--database takes a PostgreSQL URL, postgresql://USER@HOST[:PORT]/DATABASE")]
    NotPostgres,
    #[error("--database: {0}")]
    Invalid(String),
    #[error(
        "--database: sslmode={0} is not supported: use disable, prefer, require, verify-ca or \
         verify-full"
    )]
    SslMode(String),
    #[error("--database: sslrootcert is empty: give the path of a CA file (PEM)")]
    EmptyRootCert,
}

impl DatabaseUrl {
    /// Reads `url`, taking the password from `env_password` when the URL has none.
    pub fn parse(url: &str, env_password: Option<String>) -> Result<DatabaseUrl, UrlError> {
        if !(url.starts_with("postgresql://") || url.starts_with("postgres://")) {
            return Err(UrlError::NotPostgres);
        }
        let tls = TlsParams::take(url)?;
        // The parser's message would quote nothing secret, but say it without the input.
        let mut config = tokio_postgres::Config::from_str(&tls.rest)
            .map_err(|e| UrlError::Invalid(e.to_string()))?;
        let mode = tls.mode.unwrap_or(match on_this_machine(&config) {
            true => SslMode::Prefer,
            false => SslMode::Require,
        });
        config.ssl_mode(mode);
        if config.get_password().is_none()
            && let Some(password) = env_password.filter(|p| !p.is_empty())
        {
            config.password(password);
        }
        let shown = shown(&config);
        Ok(DatabaseUrl {
            config,
            root_cert: tls.root_cert,
            shown,
        })
    }

    /// [`DatabaseUrl::parse`] with the password from `PGPASSWORD` when the URL has none.
    pub fn from_env(url: &str) -> Result<DatabaseUrl, UrlError> {
        Self::parse(url, std::env::var(PASSWORD_VAR).ok())
    }

    pub fn config(&self) -> &tokio_postgres::Config {
        &self.config
    }

    /// Gives the password read from a file (`--database-password-file`), unless the URL has
    /// one, which wins as it does over `PGPASSWORD`.
    pub fn with_password_if_missing(mut self, password: &str) -> DatabaseUrl {
        if self.config.get_password().is_none() && !password.is_empty() {
            self.config.password(password);
        }
        self
    }

    /// The URL's `sslrootcert`, if it names a file.
    pub fn root_cert(&self) -> Option<&Path> {
        self.root_cert.as_deref()
    }
}

/// The URL's TLS parameters, taken out of its query before tokio-postgres reads the rest: its
/// parser refuses `sslrootcert` and `sslmode=verify-ca|verify-full`.
struct TlsParams {
    /// The URL without them.
    rest: String,
    /// The last `sslmode`, as libpq (and tokio-postgres) take the last of a repeated parameter.
    mode: Option<SslMode>,
    root_cert: Option<PathBuf>,
}

impl TlsParams {
    fn take(url: &str) -> Result<TlsParams, UrlError> {
        let Some((base, query)) = url.split_once('?') else {
            return Ok(TlsParams {
                rest: url.to_owned(),
                mode: None,
                root_cert: None,
            });
        };
        let decode = |s: &str| {
            percent_decode_str(s)
                .decode_utf8()
                .map(|s| s.into_owned())
                .map_err(|e| UrlError::Invalid(format!("a query parameter is not UTF-8: {e}")))
        };
        let (mut mode, mut root_cert) = (None, None);
        let mut kept = Vec::new();
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match decode(key)?.as_str() {
                "sslmode" => {
                    mode = Some(match decode(value)?.as_str() {
                        "disable" => SslMode::Disable,
                        "prefer" => SslMode::Prefer,
                        // Certificates are verified under every mode (tls.rs), host name
                        // included: verify-ca and verify-full ask for nothing more.
                        "require" | "verify-ca" | "verify-full" => SslMode::Require,
                        other => return Err(UrlError::SslMode(other.to_owned())),
                    })
                }
                "sslrootcert" => {
                    root_cert = match decode(value)?.as_str() {
                        "" => return Err(UrlError::EmptyRootCert),
                        // libpq's word (PostgreSQL 16) for the system's CAs, the default here.
                        "system" => None,
                        path => Some(PathBuf::from(path)),
                    }
                }
                _ => kept.push(pair),
            }
        }
        let rest = if kept.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        Ok(TlsParams {
            rest,
            mode,
            root_cert,
        })
    }
}

/// `postgresql://user@host:port/db`, without the password.
/// Whether every host is this machine: loopback, `localhost` or a Unix socket.
fn on_this_machine(config: &tokio_postgres::Config) -> bool {
    config.get_hosts().iter().all(|host| match host {
        tokio_postgres::config::Host::Tcp(name) => {
            let name = name.trim_start_matches('[').trim_end_matches(']');
            name.eq_ignore_ascii_case("localhost")
                || name
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        #[cfg(unix)]
        tokio_postgres::config::Host::Unix(_) => true,
    })
}

fn shown(config: &tokio_postgres::Config) -> String {
    let user = config
        .get_user()
        .map(|u| format!("{u}@"))
        .unwrap_or_default();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let host = match host {
                tokio_postgres::config::Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
            };
            match config.get_ports().get(i).or(config.get_ports().first()) {
                Some(port) => format!("{host}:{port}"),
                None => host,
            }
        })
        .collect();
    let db = config.get_dbname().unwrap_or_default();
    format!("postgresql://{user}{}/{db}", hosts.join(","))
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

/// Debug shows the same as Display: the derived form would print the password.
impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatabaseUrl({})", self.shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_is_kept_for_connecting_and_never_shown() {
        let url = DatabaseUrl::parse("postgresql://desk:s3cret@db.example:5433/license", None)
            .expect("a URL");
        assert_eq!(url.to_string(), "postgresql://desk@db.example:5433/license");
        assert_eq!(url.config().get_password(), Some(&b"s3cret"[..]));
        assert!(!format!("{url:?}").contains("s3cret"));
    }

    #[test]
    fn the_password_comes_from_the_environment_unless_the_url_has_one() {
        let from_env =
            DatabaseUrl::parse("postgres://desk@db/license", Some("env-pw".into())).expect("a URL");
        assert_eq!(from_env.config().get_password(), Some(&b"env-pw"[..]));
        assert_eq!(from_env.to_string(), "postgresql://desk@db:5432/license");
        let own = DatabaseUrl::parse("postgres://desk:own@db/license", Some("env-pw".into()))
            .expect("a URL");
        assert_eq!(own.config().get_password(), Some(&b"own"[..]));
    }

    #[test]
    fn tls_parameters_are_read_as_libpq_names_them() {
        let url = |s: &str| DatabaseUrl::parse(s, None);
        let plain = url("postgresql://desk@db/license").expect("a URL");
        assert_eq!(
            plain.config().get_ssl_mode(),
            SslMode::Require,
            "another host: TLS required"
        );
        assert_eq!(plain.root_cert(), None);
        for local in [
            "postgresql://desk@localhost/license",
            "postgresql://desk@127.0.0.1:5433/license",
            "postgresql://desk@[::1]/license",
        ] {
            let local = url(local).expect("a URL");
            assert_eq!(local.config().get_ssl_mode(), SslMode::Prefer, "{local}");
        }
        let asked = url("postgresql://desk@db/license?sslmode=prefer").expect("a URL");
        assert_eq!(asked.config().get_ssl_mode(), SslMode::Prefer, "as asked");
        for (mode, expected) in [
            ("disable", SslMode::Disable),
            ("prefer", SslMode::Prefer),
            ("require", SslMode::Require),
            ("verify-ca", SslMode::Require),
            ("verify-full", SslMode::Require),
        ] {
            let parsed = url(&format!("postgresql://desk@db/license?sslmode={mode}"));
            assert_eq!(parsed.expect("a URL").config().get_ssl_mode(), expected);
        }
        let with_ca = url(
            "postgresql://desk@db/license?application_name=x&sslrootcert=%2Fetc%2Fdesk%2Fca.pem\
             &sslmode=verify-full&connect_timeout=3",
        )
        .expect("a URL");
        assert_eq!(with_ca.root_cert(), Some(Path::new("/etc/desk/ca.pem")));
        assert_eq!(with_ca.config().get_ssl_mode(), SslMode::Require);
        assert_eq!(with_ca.config().get_application_name(), Some("x"));
        assert_eq!(
            with_ca.config().get_connect_timeout(),
            Some(&std::time::Duration::from_secs(3))
        );
        assert_eq!(with_ca.to_string(), "postgresql://desk@db:5432/license");
        let system = url("postgresql://desk@db/license?sslrootcert=system").expect("a URL");
        assert_eq!(system.root_cert(), None);
        assert_eq!(
            url("postgresql://desk@db/license?sslmode=allow").err(),
            Some(UrlError::SslMode("allow".into()))
        );
        assert_eq!(
            url("postgresql://desk@db/license?sslrootcert=").err(),
            Some(UrlError::EmptyRootCert)
        );
    }

    #[test]
    fn anything_but_a_postgresql_url_is_refused_in_words() {
        assert_eq!(
            DatabaseUrl::parse("/var/lib/license-desk", None).err(),
            Some(UrlError::NotPostgres)
        );
        assert!(matches!(
            DatabaseUrl::parse("postgresql://desk@db:notaport/x", None),
            Err(UrlError::Invalid(_))
        ));
    }
}
