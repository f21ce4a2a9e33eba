//! Where the team server's data is, as every `team` command is given it, and opening it.

use std::path::PathBuf;

use clap::Args;
use platform::pg::DatabaseUrl;
use team::audit;
use team::seal::{AuditKey, SealPlaces};
use team::{Place, TeamError, TeamStore};

use crate::cli::output::Failure;
use crate::cli::serve::parse_database;

/// Where the team server's data is: one of the two is needed; and where its record's seal is.
#[derive(Args)]
pub(crate) struct Data {
    /// The team server's data directory (its SQLite file, team.sqlite3).
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "database",
        conflicts_with = "database"
    )]
    data: Option<PathBuf>,
    /// Its PostgreSQL database instead (postgresql://user@host/db; the password from the URL
    /// or PGPASSWORD). It may be the platform's: the tables do not meet.
    #[arg(long, value_name = "URL", value_parser = parse_database)]
    database: Option<DatabaseUrl>,
    /// The database's password, from a file only its user may read (kept out of the process
    /// list and the environment); a password in the URL wins.
    #[arg(long, value_name = "FILE", requires = "database")]
    database_password_file: Option<PathBuf>,
    /// The audit log's key (64 hex digits, made if missing), kept off the database: each
    /// entry's MAC and the checkpoints' signatures [default: DIR/audit.key with --data].
    #[arg(long, value_name = "FILE")]
    audit_key_file: Option<PathBuf>,
    /// Where the audit log's signed checkpoints are appended [default:
    /// DIR/audit-checkpoints.jsonl with --data; with --database, only the log].
    #[arg(long, value_name = "FILE")]
    audit_checkpoints: Option<PathBuf>,
    /// The folder of the releases it distributes, shared by every instance [default:
    /// DIR/releases with --data; with --database, none is distributed].
    #[arg(long, value_name = "DIR")]
    releases: Option<PathBuf>,
}

impl Data {
    /// The data directory or the database, as given (with the password file's password).
    pub(crate) fn parts(self) -> Result<(Option<PathBuf>, Option<DatabaseUrl>), Failure> {
        let database = self.database()?;
        Ok((self.data, database))
    }

    fn database(&self) -> Result<Option<DatabaseUrl>, Failure> {
        let (Some(url), Some(file)) = (&self.database, &self.database_password_file) else {
            return Ok(self.database.clone());
        };
        crate::cli::secret_input::private_to_user(file)?;
        let password = crate::cli::secret_input::from_file(file)?;
        Ok(Some(
            url.clone().with_password_if_missing(password.expose()),
        ))
    }

    /// The releases' folder, if there is one.
    pub(crate) fn releases_dir(&self) -> Option<PathBuf> {
        self.releases
            .clone()
            .or_else(|| Some(self.data.as_deref()?.join("releases")))
    }

    /// The releases kept there.
    pub(crate) fn releases(&self) -> Option<team::releases::Shelf> {
        self.releases_dir().map(team::releases::Shelf::new)
    }

    /// Where the record's key and checkpoints are.
    pub(crate) fn seal_places(&self) -> SealPlaces {
        let beside = self
            .data
            .as_deref()
            .map(SealPlaces::in_dir)
            .unwrap_or_default();
        SealPlaces {
            key: self.audit_key_file.clone().or(beside.key),
            checkpoints: self.audit_checkpoints.clone().or(beside.checkpoints),
        }
    }

    /// The record's key, made if its file is missing (sealing the entries after the record's
    /// end now); none without a place for it.
    pub(crate) async fn audit_key(&self, store: &TeamStore) -> Result<Option<AuditKey>, Failure> {
        let failed = |e: TeamError| Failure::failed(e.to_string());
        let Some(path) = self.seal_places().key else {
            return Ok(None);
        };
        let end = audit::chain_end_now(store).await.map_err(failed)?;
        AuditKey::load_or_create(&path, end)
            .map(Some)
            .map_err(failed)
    }
}

/// [`open`] for a command that changes something (and so writes the record): refused before
/// anything changes when the record is sealed and this command has no key to seal its entry
/// with (`--database` without `--audit-key-file`), which would read as tampering.
pub(crate) async fn open_to_change(data: &Data) -> Result<TeamStore, Failure> {
    let store = open(data).await?;
    if data.seal_places().key.is_none() {
        let sealed = audit::any_sealed(&store)
            .await
            .map_err(|e| Failure::failed(e.to_string()))?;
        if sealed {
            return Err(Failure::failed(
                "the audit log is sealed with a key this command was not given: give \
                 --audit-key-file FILE (the server's), so that this change's entry carries its MAC",
            ));
        }
    }
    Ok(store)
}

pub(crate) async fn open(data: &Data) -> Result<TeamStore, Failure> {
    let database = data.database()?;
    let place = match (&data.data, &database) {
        (_, Some(url)) => Place::Database(url),
        (Some(dir), None) => Place::Dir(dir),
        // clap's group requires one of the two.
        (None, None) => return Err(Failure::failed("give --data DIR or --database URL")),
    };
    TeamStore::open(place, 2)
        .await
        .map_err(|e| Failure::failed(format!("cannot open the team server's data: {e}")))
}
