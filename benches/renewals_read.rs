//! Renewals' read of a national directory (issue 38): 1,000 enterprises holding 1,000,000
//! assets in all, on the embedded platform (`license-desk serve`, a child process) over
//! loopback. Beside it, in the same run and alternately, the baseline: a plain listing loop,
//! the same 1,000 calls four at a time, each answer parsed with serde_json and dropped. Also:
//! the longest time the progress stood still, and how long Cancel takes.
//!
//! `cargo bench --bench renewals_read` (seeding takes a few minutes; `RENEWALS_ENTERPRISES`
//! and `RENEWALS_PER_ENTERPRISE` make it smaller).

use test_support::bench::client;
use test_support::bench::renewals_seed;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use client::{Client, ORDER, nonce};
use futures::StreamExt;
use license_desk::core::Core;
use license_desk::core::progress::Progress;
use license_desk::core::renewals;
use renewals_seed::{National, PROFILE, run};
use serde_json::Value;

/// The listings at once, in both loops: the platform's `--max-listings`.
const CONCURRENCY: usize = 4;
const ROUNDS: usize = 3;

fn main() {
    let national = National::start();
    let (enterprises, per) = (national.enterprises, national.per);
    let (runtime, http, ids) = (&national.runtime, &national.http, &national.ids);
    let dir = tempfile::tempdir().expect("temp dir");
    let core = national.console(dir.path());
    let mut plain = Vec::new();
    let mut ours = Vec::new();
    let mut still = Duration::ZERO;
    let mut rows = 0;
    for _ in 0..ROUNDS {
        plain.push(runtime.block_on(plain_loop(http, ids)));
        let (took, gap, n) = renewals_read(&core);
        ours.push(took);
        still = still.max(gap);
        rows = n;
    }
    let cancel = cancel_half_way(&core);
    let (plain, ours) = (median(&mut plain), median(&mut ours));
    println!(
        "| {enterprises} enterprises, {} assets, {rows} rows | plain listing loop | renewals read | ratio |",
        enterprises * per
    );
    println!("|---|---|---|---|");
    println!(
        "| time (median of {ROUNDS}) | {plain:.2} s | {ours:.2} s | {:.2}× |",
        ours / plain
    );
    println!(
        "| progress standing still, longest | | {:.0} ms | |",
        still.as_secs_f64() * 1000.0
    );
    println!(
        "| Cancel at half-way, until the answer | | {:.0} ms | |",
        cancel.as_secs_f64() * 1000.0
    );
}

/// The baseline: each enterprise listed, four at a time, its answer parsed and dropped.
async fn plain_loop(http: &Client, ids: &[String]) -> f64 {
    let started = Instant::now();
    let mut listings = futures::stream::iter(ids)
        .map(|id| async move {
            let answer = http
                .call_with(
                    reqwest::Method::GET,
                    &format!("{ORDER}/asset/{id}/list"),
                    &nonce(),
                    &[],
                    None,
                )
                .await;
            let parsed: Value = serde_json::from_slice(&answer.body).expect("JSON");
            assert!(parsed["data"].is_array(), "a listing");
        })
        .buffer_unordered(CONCURRENCY);
    while listings.next().await.is_some() {}
    started.elapsed().as_secs_f64()
}

/// The renewals read: its time, the longest the progress stood still, and its rows.
fn renewals_read(core: &Core) -> (f64, Duration, usize) {
    let progress = Progress::default();
    let watching = Arc::new(AtomicBool::new(true));
    let watcher = {
        let (progress, watching) = (progress.clone(), Arc::clone(&watching));
        std::thread::spawn(move || {
            let (mut last, mut since, mut longest) = (0, Instant::now(), Duration::ZERO);
            while watching.load(Ordering::Relaxed) {
                let done = progress.snapshot().done;
                if done != last {
                    longest = longest.max(since.elapsed());
                    (last, since) = (done, Instant::now());
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            longest
        })
    };
    let started = Instant::now();
    let outcome = run(
        core,
        renewals::ReadAll {
            profile: PROFILE.to_owned(),
            progress,
        },
    );
    let took = started.elapsed().as_secs_f64();
    watching.store(false, Ordering::Relaxed);
    let longest = watcher.join().expect("the watcher");
    let read = outcome;
    assert_eq!(read.stop, None, "the read stopped");
    (took, longest, read.table.len())
}

/// Cancel once half the enterprises are read: the time until the read answers.
fn cancel_half_way(core: &Core) -> Duration {
    let progress = Progress::default();
    let canceller = {
        let progress = progress.clone();
        std::thread::spawn(move || {
            while progress.snapshot().total == 0
                || progress.snapshot().done < progress.snapshot().total / 2
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            progress.cancel();
            Instant::now()
        })
    };
    run(
        core,
        renewals::ReadAll {
            profile: PROFILE.to_owned(),
            progress,
        },
    );
    let answered = Instant::now();
    answered - canceller.join().expect("the canceller")
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}
