//! The embedded platform: the system `platform-interface.md` describes, on axum and SQLite.
//! [`Server::start`] runs it on a loopback or any other address; `license-desk serve` runs it
//! headless. Decisions taken where the interface is silent are in `docs/platform.md`.

#![warn(clippy::too_many_lines)]

pub mod activities;
pub mod apps;
pub mod auth;
pub mod auth_store;
pub mod error;
mod http;
pub mod ids;
pub mod pg;
pub mod proof;
pub mod quotas;
pub mod rules;
mod server;
mod shared;
mod spent;
// The store layer, a crate of its own, named here as before.
pub use db::sql;
pub mod store;

pub use http::openapi::{DOCUMENT_PATH as OPENAPI_PATH, document_json as openapi_json};
pub use quotas::{NumberQuota, OwnQuota, QuotaChange};
pub use server::{
    ActivitiesFileError, Config, DEFAULT_DATABASE_POOL, Region, Server, StartError,
    change_app_quota, change_app_quota_in_database, create_app, create_app_in_database,
    create_app_with_quota, write_apps, write_apps_in_database,
};
pub use shared::{ListingCounts, ListingLimits};
