//! What the team server's tests share: a store of each kind, fresh for each test.

#![allow(dead_code)]

#[path = "../../../platform/tests/support/pg_cluster.rs"]
pub mod pg_cluster;

use platform::pg::DatabaseUrl;
use team::{Place, TeamStore};

/// A fresh store on SQLite (in its temp dir, kept as long as the store) and, when PostgreSQL
/// is installed, one on a new PostgreSQL database: each test runs on both.
pub async fn stores() -> Vec<(&'static str, TeamStore, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = TeamStore::open(Place::Dir(&dir.path().join("team")), 1)
        .await
        .expect("SQLite store");
    let mut all = vec![("sqlite", sqlite, Some(dir))];
    if let Some(url) = pg_cluster::database().await {
        all.push(("postgres", postgres(&url).await, None));
    }
    all
}

/// Another instance's store on the same PostgreSQL database.
pub async fn postgres(url: &str) -> TeamStore {
    let url = DatabaseUrl::parse(url, None).expect("database URL");
    TeamStore::open(Place::Database(&url), 4)
        .await
        .expect("PostgreSQL store")
}

#[path = "../../../../tests/support/fault_proxy.rs"]
pub mod fault_proxy;
pub mod rig;
pub mod slapd;
#[path = "../../../platform/tests/support/tls_certs.rs"]
pub mod tls_certs;
