//! Where the team server keeps its data: a SQLite file in a data directory by default, or a
//! PostgreSQL database (`--database`), through the platform's store layer. Several instances
//! on one PostgreSQL database act as one server.

use std::path::Path;
use std::sync::Arc;

use db::pg::{DatabaseUrl, PgStore, Schema, StoreFailure};
use db::sql::{self, StoreError};
use db::sqlite::Store;

/// File name of the team server's database inside its data directory.
pub const DB_FILE: &str = "team.sqlite3";

/// Schema versions on SQLite, in order (`PRAGMA user_version` counts them).
const SQLITE_VERSIONS: &[&str] = &[
    include_str!("schema.sql"),
    include_str!("schema2.sql"),
    include_str!("schema3.sql"),
    include_str!("schema4.sql"),
    include_str!("schema5.sql"),
    include_str!("schema6.sql"),
    include_str!("schema7.sql"),
    include_str!("schema8.sql"),
    include_str!("schema9.sql"),
    include_str!("schema10.sql"),
    include_str!("schema11.sql"),
    include_str!("schema12.sql"),
    include_str!("schema13.sql"),
];

/// The same versions on PostgreSQL (the SQL both share), with a version table apart from the
/// platform's, so that the team server may share a database with an embedded platform.
const PG_SCHEMA: Schema = Schema {
    versions: &[
        (1, include_str!("schema.sql")),
        (2, include_str!("schema2.sql")),
        (3, include_str!("schema3.sql")),
        (4, include_str!("schema4.sql")),
        (5, include_str!("schema5.sql")),
        (6, include_str!("schema6.sql")),
        (7, include_str!("schema7.sql")),
        (8, include_str!("schema8.sql")),
        (9, include_str!("schema9.sql")),
        (10, include_str!("schema10.sql")),
        (11, include_str!("schema11.sql")),
        (12, include_str!("schema12.sql")),
        (13, include_str!("schema13.sql")),
    ],
    version_table: "team_schema_version",
    lock: "license-desk:team-migrations",
    create_version_table: Some("CREATE TABLE team_schema_version (version BIGINT NOT NULL)"),
};

/// Where the data is, as the command line gives it.
pub enum Place<'a> {
    Dir(&'a Path),
    Database(&'a DatabaseUrl),
}

/// An open store, cheap to clone.
#[derive(Clone)]
pub enum TeamStore {
    Sqlite(Arc<Store>),
    Postgres(PgStore),
}

impl TeamStore {
    /// Opens (creating if needed) the store and brings its schema up to date. A data
    /// directory is created private to the user.
    pub async fn open(place: Place<'_>, connections: usize) -> Result<TeamStore, StoreError> {
        match place {
            Place::Dir(dir) => {
                support::private_files::create_or_check_data_dir(dir).map_err(|e| {
                    StoreError::Failure(format!("cannot use {}: {e}", dir.display()))
                })?;
                // Every commit synced before it is answered: the audit log must outlive a
                // power cut (PostgreSQL's commits are durable by default).
                let store = Store::open_durable(dir.join(DB_FILE), SQLITE_VERSIONS)?;
                Ok(TeamStore::Sqlite(Arc::new(store)))
            }
            Place::Database(url) => Ok(TeamStore::Postgres(
                PgStore::connect_schema(url, connections, &PG_SCHEMA).await?,
            )),
        }
    }

    /// Runs `f` in a write transaction, committed if it succeeds (`FnMut`: PostgreSQL runs it
    /// again when it loses a race to another instance).
    pub async fn write<T, E>(
        &self,
        f: impl FnMut(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: StoreFailure + Send + 'static,
    {
        match self {
            Self::Sqlite(s) => s.write(f).await,
            Self::Postgres(pg) => pg.write(f).await,
        }
    }

    /// Runs `f` in a read transaction (one snapshot), off the runtime's threads.
    pub async fn read<T, E>(
        &self,
        f: impl FnOnce(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: StoreFailure + Send + 'static,
    {
        match self {
            Self::Sqlite(s) => {
                let s = s.clone();
                tokio::task::spawn_blocking(move || s.read(f))
                    .await
                    .unwrap_or_else(|e| {
                        Err(E::from(StoreError::Failure(format!("a read failed: {e}"))))
                    })
            }
            Self::Postgres(pg) => pg.read(f).await,
        }
    }
}
