//! License Desk's library: the console (`ui`) and its core, the client of a platform, the
//! embedded platform, and the interface's types and rules (`wire`). Functions stay short
//! everywhere (`clippy.toml` sets the limit the lint below enforces).

#![warn(clippy::too_many_lines)]

pub mod client;
pub mod core;
pub mod platform;
pub mod support;
pub mod ui;
pub mod wire;
