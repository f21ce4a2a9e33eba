//! License Desk's library: the console (`ui`) and its core, the client of a platform, the
//! embedded platform, and the interface's types and rules (`wire`). Functions stay short
//! everywhere (`clippy.toml` sets the limit the lint below enforces).

#![warn(clippy::too_many_lines)]

pub mod core;
pub mod ui;

// Nothing of the crates under crates/ is re-exported: the window reaches a platform and the
// interface's types only through `core`, and the command line, the tests and the benches name
// the crates they use.
