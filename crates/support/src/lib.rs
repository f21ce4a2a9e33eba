//! What every part of the library leans on and none owns: the one clock, files written whole
//! and private to the user, and releases' signatures.

#![warn(clippy::too_many_lines)]

pub mod clock;
pub mod private_files;
pub mod release_sig;
