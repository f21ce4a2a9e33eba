//! What the console's benches share: `license-desk serve` as a child process and an HTTP
//! client of it.

pub mod client;
#[cfg(feature = "desk")]
pub mod renewals_seed;
pub mod server;
