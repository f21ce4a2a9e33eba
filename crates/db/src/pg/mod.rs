//! A store on PostgreSQL (`docs/postgres.md`): the same rules as on SQLite, run through
//! [`sql::Tx`](crate::sql::Tx) on a pooled tokio-postgres connection.
//!
//! The rules are synchronous, the client is async: a transaction runs on a blocking thread
//! (`spawn_blocking`) and waits for each statement with `Handle::block_on`, while the
//! connection's own task runs on the runtime. Writes are SERIALIZABLE and run again when they
//! lose a race; reads are REPEATABLE READ, READ ONLY (one snapshot, as SQLite's readers).

mod migrate;
mod params;
mod store;
mod tls;
mod tx;
mod url;
mod value;

pub use migrate::Schema;
pub use params::dollar_params;
pub use store::{MAX_ATTEMPTS, PgStore, StoreFailure};
pub use url::{DatabaseUrl, PASSWORD_VAR, UrlError};
