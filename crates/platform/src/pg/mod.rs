//! The platform's tables on PostgreSQL (`docs/postgres.md`): its schema versions, and the
//! store connected with them. The store itself is `db::pg`. The numbers are SQLite's:
//! PostgreSQL starts at version 4 (the tables of SQLite's versions 1 to 4 in one file); each
//! later version is written for both stores together. The version is kept in `schema_version`
//! (one row).

pub use db::pg::{
    DatabaseUrl, MAX_ATTEMPTS, PASSWORD_VAR, PgStore, Schema, StoreFailure, UrlError, dollar_params,
};

use crate::error::OpError;
use crate::sql::StoreError;

/// Schema versions and their SQL, in order.
pub const MIGRATIONS: &[(i64, &str)] = &[
    (4, include_str!("schema4.sql")),
    (5, include_str!("schema5.sql")),
];

/// The platform's tables.
pub const PLATFORM: Schema = Schema {
    versions: MIGRATIONS,
    version_table: "schema_version",
    lock: "license-desk:migrations",
    create_version_table: None,
};

/// The newest version this release knows.
pub fn newest_version() -> i64 {
    MIGRATIONS.last().map_or(0, |(version, _)| *version)
}

/// The platform's store on the database at `url`, brought up to date.
pub async fn connect(url: &str, connections: usize) -> Result<PgStore, StoreError> {
    PgStore::connect(url, connections, &PLATFORM).await
}

/// [`connect`] to a database read from the command line.
pub async fn connect_to(db: &DatabaseUrl, connections: usize) -> Result<PgStore, StoreError> {
    PgStore::connect_schema(db, connections, &PLATFORM).await
}

impl StoreFailure for OpError {
    fn store_error(&self) -> Option<&StoreError> {
        match self {
            OpError::Storage(e) => Some(e),
            _ => None,
        }
    }
}
