//! Drafts survive `kill -9`: a child process runs the console's core (real SQLite files, the
//! keyring's mock store) and saves one draft in a loop, each version a different batch of a
//! different size; it is killed with SIGKILL while saving, after a random number of saves.
//! The stored draft must then be whole: the store opens, the body parses as a batch, and it is
//! exactly one of the versions written, no older than the last save the core answered.
//!
//! `cargo test --test draft_kill` runs 3 kills; `DRAFT_KILLS=20 cargo test --release --test
//! draft_kill -- --nocapture` runs 20 (`DRAFT_KILL_SEED` repeats a run). The child is this same
//! test binary, started on its ignored test `draft_saver_child`.
#![cfg(unix)]

use test_support::desk;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use license_desk::core::drafts::{self, Drafts};
use license_desk::core::files::parse_order_file;
use license_desk::core::{Core, KeyringChoice};
use serde_json::{Value, json};

/// Where the child keeps its data; set only for the child.
const CHILD_DIR: &str = "DRAFT_KILL_CHILD_DIR";
/// The round the child writes versions for.
const CHILD_ROUND: &str = "DRAFT_KILL_CHILD_ROUND";
/// The child says each answered save on its own line: `saved N`.
const SAVED: &str = "saved ";
/// A bound for any one step (the child starting, a save), so that a stuck child fails the
/// test instead of hanging it; the test never waits for a fixed time.
const STEP: Duration = Duration::from_secs(60);

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Version `n` of the draft in `round`: 1 to 40 orders, so that versions differ in size (from
/// about 1 KB to 60 KB, many database pages) and a torn write could not pass for a whole one.
fn version(round: u64, n: u64) -> String {
    let orders: Vec<Value> = (0..1 + (n * 7) % 40)
        .map(|o| {
            let products: Vec<Value> = (0..5)
                .map(|p| json!({"productUri": format!("gms:{p}"), "limitConcurrent": n + p}))
                .collect();
            json!({"sequence": o + 1, "channelCustomerId": "KILL-1", "licenseType": "softkey",
                   "orderType": "new_buy",
                   "assets": [{"assetNos": [format!("8{:09}", n * 100 + o)], "products": products}]})
        })
        .collect();
    json!({"channelCode": "KILL", "channelOrderId": format!("KILL-{round}-{n}"),
           "syncMode": "sync", "orderList": orders})
    .to_string()
}

/// Which version a stored body claims to be, read from its channelOrderId.
fn version_of(round: u64, body: &Value) -> Option<u64> {
    body["channelOrderId"]
        .as_str()?
        .strip_prefix(&format!("KILL-{round}-"))?
        .parse()
        .ok()
}

fn start_core(dir: &Path) -> Core {
    desk::start_core(dir, KeyringChoice::Store(desk::mock_store()))
}

/// The child: saves versions 1, 2, 3, … of the one draft until it is killed.
#[test]
#[ignore = "the child of drafts_survive_sigkill_while_saving; started by it"]
fn draft_saver_child() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let round: u64 = env_or(CHILD_ROUND, 0);
    let core = start_core(Path::new(&dir));
    let listed = core.run(drafts::List, STEP).expect("list");
    let id = match listed.first() {
        Some(latest) => latest.id,
        None => {
            let new = drafts::NewFromBatch {
                name: "kill".into(),
                batch: Box::default(),
            };
            core.run(new, STEP).expect("create")
        }
    };
    for n in 1.. {
        let saved = core.run(
            drafts::Save {
                id,
                body: version(round, n),
                hints: "{}".into(),
            },
            STEP,
        );
        assert!(saved.is_ok(), "save {n}: {saved:?}");
        // stdout is line-buffered: the parent sees each answered save at once.
        println!("{SAVED}{n}");
    }
}

/// The child, killed however the round ends (a failed round must not leave it saving).
struct Saver(Child);

impl Saver {
    /// SIGKILL, and the child reaped.
    fn kill(&mut self) {
        self.0.kill().expect("SIGKILL");
        self.0.wait().expect("reaped");
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// Starts the child for `round`; its `saved N` lines arrive on the receiver.
fn spawn_child(dir: &Path, round: u64) -> (Saver, mpsc::Receiver<u64>) {
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--ignored", "--exact", "draft_saver_child", "--nocapture"])
        .env(CHILD_DIR, dir)
        .env(CHILD_ROUND, round.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the child starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(n) = line.strip_prefix(SAVED).and_then(|n| n.parse().ok())
                && tx.send(n).is_err()
            {
                return;
            }
        }
    });
    (Saver(child), rx)
}

/// One round: the child saves until its `kill_after`-th answered save, is killed while saving
/// the next ones, and the stored draft is checked.
/// Answers the last save answered and the version found.
fn round(dir: &Path, round: u64, kill_after: u64) -> (u64, u64) {
    let (mut child, saves) = spawn_child(dir, round);
    loop {
        let n = saves
            .recv_timeout(STEP)
            .unwrap_or_else(|e| panic!("round {round}: no save answered ({e})"));
        if n >= kill_after {
            break;
        }
    }
    child.kill();
    // Every save the child saw answered before it died; the last one is the newest that must
    // be there.
    let answered = saves.iter().last().unwrap_or(kill_after);
    (answered, check_stored(dir, round, answered))
}

/// The stored draft is whole and is version `answered` or the one being saved after it.
fn check_stored(dir: &Path, round: u64, answered: u64) -> u64 {
    let path = dir.join("data/drafts.sqlite3");
    let db = rusqlite::Connection::open(&path).expect("the store opens");
    let integrity: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity check");
    assert_eq!(integrity, "ok");
    let drafts = Drafts::open(&path).expect("drafts open");
    let list = drafts.list().expect("list");
    assert_eq!(list.len(), 1, "one draft");
    let stored = drafts.load(list[0].id).expect("load").expect("the draft");
    parse_order_file(stored.body.as_bytes()).expect("the composer opens it");
    let body: Value = serde_json::from_str(&stored.body).expect("whole JSON");
    let n = version_of(round, &body)
        .unwrap_or_else(|| panic!("round {round}: not a version of this round: {body}"));
    assert_eq!(
        stored.body,
        version(round, n),
        "version {n} is not as written"
    );
    assert!(
        (answered..=answered + 1).contains(&n),
        "round {round}: version {n} stored, {answered} was the last answered"
    );
    n
}

#[test]
fn drafts_survive_sigkill_while_saving() {
    let kills: u64 = env_or("DRAFT_KILLS", 3);
    let seed: u64 = env_or("DRAFT_KILL_SEED", fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);
    let dir = tempfile::tempdir().expect("dir");
    let started = Instant::now();
    let mut in_flight = 0;
    for r in 0..kills {
        let kill_after = rng.u64(1..=60);
        let (answered, stored) = round(dir.path(), r, kill_after);
        // The save in flight was committed whole before the kill landed.
        in_flight += u64::from(stored > answered);
    }
    println!(
        "draft kill test: seed {seed}, {kills} SIGKILLs while saving, the stored draft whole \
         each time (in {in_flight} of them the save in flight was committed), {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
