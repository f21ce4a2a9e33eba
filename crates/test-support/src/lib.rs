//! What the tests and benches of every package share, as a crate of its own rather than files
//! each test binary includes by path: real parts only (a platform on loopback, a team server,
//! a PostgreSQL cluster, a fault-injecting proxy, a delaying one, the console's core and window).

// The benches read a server's memory from `/proc`.
#[cfg(target_os = "linux")]
pub mod bench;
pub mod delay_proxy;
pub mod fault_proxy;
pub mod minisign_tool;
pub mod pg_cluster;
pub mod served;
pub mod slapd;
pub mod smtp;
pub mod tls_certs;

#[cfg(feature = "platform")]
pub mod platform_rig;

#[cfg(feature = "team")]
pub mod team_rig;

#[cfg(feature = "desk")]
pub mod desk;
#[cfg(feature = "desk")]
pub mod remote;
#[cfg(feature = "desk")]
pub mod team_remote;
#[cfg(feature = "desk")]
pub mod window;
