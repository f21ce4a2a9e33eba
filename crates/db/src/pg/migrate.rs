//! Schema versions on PostgreSQL: each program's tables (the platform's, the team server's)
//! are a [`Schema`] of their own, with their own version table, so that both may share one
//! database.

use deadpool_postgres::Object;

use crate::sql::StoreError;

/// A set of tables brought up to date together.
pub struct Schema {
    /// Versions and their SQL, in order.
    pub versions: &'static [(i64, &'static str)],
    /// The one-row table that records the version reached; its SQL is the first version's.
    pub version_table: &'static str,
    /// Held by the migrating transaction: instances starting at once migrate one after another.
    pub lock: &'static str,
    /// Makes the version table when it is missing, for a schema whose first version does not
    /// (so that one file of SQL serves SQLite and PostgreSQL alike).
    pub create_version_table: Option<&'static str>,
}

/// Applies, in one transaction, the versions the database lacks. DDL is transactional in
/// PostgreSQL: a version that fails leaves the previous one whole.
pub(crate) async fn migrate(client: &mut Object, schema: &Schema) -> Result<i64, StoreError> {
    let migrations = schema.versions;
    let table = schema.version_table;
    let known = migrations.last().map_or(0, |(version, _)| *version);
    let tx = client.transaction().await?;
    tx.execute(
        "SELECT pg_advisory_xact_lock(hashtext($1))",
        &[&schema.lock],
    )
    .await?;
    let exists: bool = tx
        .query_one("SELECT to_regclass($1) IS NOT NULL", &[&table])
        .await?
        .try_get(0)?;
    if let (false, Some(ddl)) = (exists, schema.create_version_table) {
        tx.batch_execute(ddl).await?;
    }
    let at: i64 = if exists {
        tx.query_one(&format!("SELECT max(version) FROM {table}"), &[])
            .await?
            .try_get::<_, Option<i64>>(0)?
            .unwrap_or(0)
    } else {
        0
    };
    if at > known {
        return Err(StoreError::NewerSchema { at, known });
    }
    let mut applied = false;
    for (version, sql) in migrations.iter().filter(|(version, _)| *version > at) {
        tx.batch_execute(sql).await.map_err(|e| {
            StoreError::Failure(format!("schema version {version} failed to apply: {e}"))
        })?;
        applied = true;
    }
    if applied {
        tx.execute(&format!("DELETE FROM {table}"), &[]).await?;
        tx.execute(
            &format!("INSERT INTO {table}(version) VALUES ($1)"),
            &[&known],
        )
        .await?;
        tracing::info!(from = at, to = known, "PostgreSQL schema migrated");
    }
    tx.commit().await?;
    Ok(known)
}
