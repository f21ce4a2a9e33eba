//! The database given as `--database postgresql://USER@HOST/DB`: its connection settings, and
//! a form to print and log that never holds the password. A password is better given in
//! `PGPASSWORD` (libpq's name, which operators know) than in the URL, where any user of the
//! machine sees it in the process list; one in the URL still wins, as with libpq.

use std::fmt;
use std::str::FromStr;

/// The environment variable read for the password when the URL has none.
pub const PASSWORD_VAR: &str = "PGPASSWORD";

#[derive(Clone)]
pub struct DatabaseUrl {
    config: tokio_postgres::Config,
    shown: String,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UrlError {
    #[error("--database takes a PostgreSQL URL, postgresql://USER@HOST[:PORT]/DATABASE")]
    NotPostgres,
    #[error("--database: {0}")]
    Invalid(String),
}

impl DatabaseUrl {
    /// Reads `url`, taking the password from `env_password` when the URL has none.
    pub fn parse(url: &str, env_password: Option<String>) -> Result<DatabaseUrl, UrlError> {
        if !(url.starts_with("postgresql://") || url.starts_with("postgres://")) {
            return Err(UrlError::NotPostgres);
        }
        // The parser's message would quote nothing secret, but say it without the input.
        let mut config =
            tokio_postgres::Config::from_str(url).map_err(|e| UrlError::Invalid(e.to_string()))?;
        if config.get_password().is_none()
            && let Some(password) = env_password.filter(|p| !p.is_empty())
        {
            config.password(password);
        }
        let shown = shown(&config);
        Ok(DatabaseUrl { config, shown })
    }

    /// [`DatabaseUrl::parse`] with the password from `PGPASSWORD` when the URL has none.
    pub fn from_env(url: &str) -> Result<DatabaseUrl, UrlError> {
        Self::parse(url, std::env::var(PASSWORD_VAR).ok())
    }

    pub fn config(&self) -> &tokio_postgres::Config {
        &self.config
    }
}

/// `postgresql://user@host:port/db`, without the password.
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
