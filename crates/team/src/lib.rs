//! The team server (`docs/team.md`): it stands between a branch network's consoles and one
//! platform, so that people sign in as themselves, their roles are enforced on every call, and
//! the platform's secret stays on the server. This crate holds its data (people, roles) on
//! SQLite or PostgreSQL through the platform's store layer.

#![warn(clippy::too_many_lines)]

pub mod appender;
pub mod audit;
pub mod checkers;
pub mod checkpointer;
pub mod custom_roles;
pub mod error;
pub mod events;
pub mod filing;
pub mod gate;
pub mod handover;
pub mod holdings;
pub mod http;
pub mod identity;
pub mod instances;
pub mod knowledge;
pub mod ldap;
pub mod lookups;
pub mod mail;
pub mod password;
pub mod people;
pub mod permit;
pub mod releases;
pub mod requests;
pub mod roles;
pub mod seal;
pub mod server;
pub mod sessions;
pub mod settings;
pub mod store;
pub mod upstream;

pub use error::TeamError;
pub use store::{Place, TeamStore};
