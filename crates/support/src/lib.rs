//! What every part of the library leans on and none owns: the one clock, and files written
//! whole and private to the user.

#![warn(clippy::too_many_lines)]

pub mod clock;
pub mod private_files;
