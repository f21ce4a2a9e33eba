//! Schema versions on PostgreSQL. The numbers are SQLite's: PostgreSQL starts at version 4
//! (the tables of SQLite's versions 1 to 4 in one file); each later version is written for both
//! stores together. The version is kept in `schema_version` (one row).

use deadpool_postgres::Object;

use crate::sql::StoreError;

/// Schema versions and their SQL, in order.
pub const MIGRATIONS: &[(i64, &str)] = &[
    (4, include_str!("schema4.sql")),
    (5, include_str!("schema5.sql")),
];

/// Held by the migrating transaction: instances starting at once migrate one after another.
const MIGRATIONS_LOCK: &str = "license-desk:migrations";

/// The newest version this release knows.
pub fn newest_version() -> i64 {
    MIGRATIONS.last().map_or(0, |(version, _)| *version)
}

/// Applies, in one transaction, the versions the database lacks. DDL is transactional in
/// PostgreSQL: a version that fails leaves the previous one whole.
pub(super) async fn migrate(
    client: &mut Object,
    migrations: &[(i64, &str)],
) -> Result<i64, StoreError> {
    let known = migrations.last().map_or(0, |(version, _)| *version);
    let tx = client.transaction().await?;
    tx.execute(
        "SELECT pg_advisory_xact_lock(hashtext($1))",
        &[&MIGRATIONS_LOCK],
    )
    .await?;
    let exists: bool = tx
        .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])
        .await?
        .try_get(0)?;
    let at: i64 = if exists {
        tx.query_one("SELECT max(version) FROM schema_version", &[])
            .await?
            .try_get::<_, Option<i64>>(0)?
            .unwrap_or(0)
    } else {
        0
    };
    if at > known {
        return Err(StoreError::Failure(format!(
            "the database is at version {at}; this release knows up to {known}"
        )));
    }
    let mut applied = false;
    for (version, sql) in migrations.iter().filter(|(version, _)| *version > at) {
        tx.batch_execute(sql).await.map_err(|e| {
            StoreError::Failure(format!("schema version {version} failed to apply: {e}"))
        })?;
        applied = true;
    }
    if applied {
        tx.execute("DELETE FROM schema_version", &[]).await?;
        tx.execute("INSERT INTO schema_version(version) VALUES ($1)", &[&known])
            .await?;
        tracing::info!(from = at, to = known, "PostgreSQL schema migrated");
    }
    tx.commit().await?;
    Ok(known)
}
