//! License Desk's library: the console (`ui`) and its core, the client of a platform, the
//! embedded platform, and the interface's types and rules (`wire`). Functions stay short
//! everywhere (`clippy.toml` sets the limit the lint below enforces).

#![warn(clippy::too_many_lines)]

pub mod core;
pub mod ui;

// The crates under crates/, named here as before so `crate::wire::…` reads the same everywhere.
pub use client;
pub use platform;
pub use support;
pub use team;
pub use wire;
