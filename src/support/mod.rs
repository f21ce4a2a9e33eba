//! What every part of the library leans on and none owns: the one clock, and files written
//! whole and private to the user.

pub mod clock;
pub mod private_files;
