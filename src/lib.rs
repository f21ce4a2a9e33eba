//! License Desk's library: the console (`ui`) and its core, the client of a platform, the
//! embedded platform, and the interface's types and rules (`wire`). Functions stay short
//! everywhere (`clippy.toml` sets the limit the lint below enforces).

#![warn(clippy::too_many_lines)]

pub mod core;
pub mod ui;

/// mimalloc, not the system's allocator: the import's threads each allocate a batch's tens of
/// thousands of small values, and glibc's per-thread arenas grew and trimmed themselves at
/// every import (a 10,000-order file dropped: 71–90 ms with glibc's, 42–57 ms with this, in
/// alternating runs of `cargo bench --bench composer`). Declared here, so that the program,
/// its tests and its benches all run on it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Nothing of the crates under crates/ is re-exported: the window reaches a platform and the
// interface's types only through `core`, and the command line, the tests and the benches name
// the crates they use.
