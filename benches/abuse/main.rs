//! Replays issue 19's six findings against the release binary and prints, for each, the figure
//! measured before the fixes beside the figure now: `scripts/abuse.sh` (which builds the binary
//! and passes its path in `ABUSE_BIN`); `scripts/abuse.sh 2 5` runs some steps only.
//!
//! Every step starts its own `license-desk serve --listen 127.0.0.1:0` in a temp data directory
//! (so in-memory counts such as failed token requests start afresh), as a child process whose
//! memory is read from `/proc`. Counts and durations are bounded (about two minutes on two
//! cores), all traffic stays on 127.0.0.1, and at most about 260 connections are open at once.
//! The report goes to stdout, progress to stderr. Linux only (`/proc`, `ulimit`).

#[cfg(target_os = "linux")]
use test_support::bench::client;
#[cfg(target_os = "linux")]
mod connections;
#[cfg(target_os = "linux")]
mod report;
#[cfg(target_os = "linux")]
use test_support::bench::server;
#[cfg(target_os = "linux")]
mod steps;

#[cfg(target_os = "linux")]
fn main() {
    let bin = std::env::var_os("ABUSE_BIN")
        .map(std::path::PathBuf::from)
        .expect("ABUSE_BIN: the path of the license-desk binary (scripts/abuse.sh sets it)");
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    steps::run(&bin, &only);
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("the abuse replay reads /proc and runs `ulimit`: Linux only");
}
