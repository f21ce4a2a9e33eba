//! What every part of the library leans on and none owns: the one clock, files written whole
//! and private to the user, and releases' signatures.

#![warn(clippy::too_many_lines)]

pub mod clock;
pub mod digest;
pub mod private_files;
pub mod release_sig;

/// mimalloc, not the system's allocator: the import's threads each allocate a batch's tens of
/// thousands of small values, and glibc's per-thread arenas grew and trimmed themselves at
/// every import (a 10,000-order file dropped: 71–90 ms with glibc's, 42–57 ms with this, in
/// alternating runs of `cargo bench --bench composer`). Declared here, in the crate every
/// other leans on, so that the program, the platform and team server it serves, and every
/// test and bench run on it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
