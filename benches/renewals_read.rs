//! Renewals' read of a national directory (issue 38): 1,000 enterprises holding 1,000,000
//! assets in all, on the embedded platform (`license-desk serve`, a child process) over
//! loopback. Beside it, in the same run and alternately, the baseline: a plain listing loop,
//! the same 1,000 calls four at a time, each answer parsed with serde_json and dropped. Also:
//! the longest time the progress stood still, and how long Cancel takes.
//!
//! `cargo bench --bench renewals_read` (seeding takes a few minutes; `RENEWALS_ENTERPRISES`
//! and `RENEWALS_PER_ENTERPRISE` make it smaller).

#[allow(dead_code)]
#[path = "abuse/client.rs"]
mod client;
#[allow(dead_code)]
#[path = "abuse/server.rs"]
mod server;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use client::{Client, ORDER, nonce};
use futures::StreamExt;
use license_desk::core::catalog::store::Import;
use license_desk::core::profiles::usual_token_url;
use license_desk::core::progress::Progress;
use license_desk::core::{
    CatalogCommand, Command, Core, CoreOptions, Endpoint, FileDialogChoice, KeyringChoice, Outcome,
    Profile, RenewalsCommand, Secret, now_ms,
};
use serde_json::{Value, json};
use server::Server;

/// The listings at once, in both loops: the platform's `--max-listings`.
const CONCURRENCY: usize = 4;
const ROUNDS: usize = 3;
const PROFILE: &str = "National";
const DAY: i64 = 86_400_000;

fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let enterprises = count("RENEWALS_ENTERPRISES", 1_000);
    let per = count("RENEWALS_PER_ENTERPRISE", 1_000);
    let bin = Path::new(env!("CARGO_BIN_EXE_license-desk"));
    let server = Server::start(bin, &[], None).expect("serve starts");
    let app = server.app("renewals", "auth_order");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let http = runtime.block_on(Client::new(&server, &app));
    let started = Instant::now();
    let ids = runtime.block_on(seed(&http, enterprises, per));
    eprintln!(
        "seeded {enterprises} enterprises × {per} assets in {:.0} s",
        started.elapsed().as_secs_f64()
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let core = console(dir.path(), &server, &app, &ids);
    let mut plain = Vec::new();
    let mut ours = Vec::new();
    let mut still = Duration::ZERO;
    let mut rows = 0;
    for _ in 0..ROUNDS {
        plain.push(runtime.block_on(plain_loop(&http, &ids)));
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

/// The enterprises, each bound to a customer of its own and holding `per` assets whose one
/// product ends somewhere in the next 12 months.
async fn seed(http: &Client, enterprises: usize, per: usize) -> Vec<String> {
    let ids: Vec<String> = futures::stream::iter(0..enterprises)
        .map(|i| async move {
            let answer = http
                .post(
                    &format!("{ORDER}/enterprise/user/bind"),
                    &json!({"channelCode": "SHOP", "channelCustomerId": format!("N-{i:04}"),
                        "customerName": format!("全国客户 {i}"),
                        "enterpriseName": format!("全国企业 {i}")}),
                )
                .await;
            answer.json()["data"]["enterpriseGlobalId"]
                .as_str()
                .expect("an enterprise")
                .to_owned()
        })
        .buffered(8)
        .collect()
        .await;
    let now = now_ms();
    // Ten enterprises' orders a batch.
    for (b, chunk) in (0..enterprises).collect::<Vec<_>>().chunks(10).enumerate() {
        let orders: Vec<Value> = chunk
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let nums: Vec<String> = (0..per).map(|j| format!("9{:09}", i * per + j)).collect();
                let end = now + ((i * 7 + 3) % 365) as i64 * DAY;
                json!({"sequence": k + 1, "channelCustomerId": format!("N-{i:04}"),
                    "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                    "assets": [{"assetNos": nums, "products": [
                        {"productUri": "gms:1001", "limitEndDate": end}]}]})
            })
            .collect();
        let body = json!({"channelCode": "SHOP", "channelOrderId": format!("NATIONAL-{b}"),
            "syncMode": "sync", "orderList": orders});
        let answer = http.batch(serde_json::to_vec(&body).expect("json")).await;
        assert!(answer.is_success(), "batch {b}: {}", answer.brief());
    }
    ids
}

/// A console whose profile reaches the server, with the enterprises in its directory.
fn console(dir: &Path, server: &Server, app: &server::App, ids: &[String]) -> Core {
    let core = Core::start(CoreOptions {
        config_dir: dir.join("config"),
        data_dir: dir.join("data"),
        keyring: KeyringChoice::Store(keyring_core::mock::Store::new().expect("mock keyring")),
        file_dialog: FileDialogChoice::InWindow,
    })
    .expect("core");
    let profile = Profile {
        name: PROFILE.to_owned(),
        endpoint: Endpoint::Remote {
            base_url: server.base.clone(),
            token_url: usual_token_url(&server.base),
            app_key: app.key.clone(),
            ca_file: None,
        },
        operator_identity: "bench".to_owned(),
        production: false,
        own_catalog: false,
        repeats_recognised: false,
        limits: Default::default(),
        insecure_http: false,
    };
    run(
        &core,
        Command::SaveProfile {
            previous: None,
            profile,
            app_secret: Some(Secret::new(app.secret.clone())),
        },
    );
    let customers: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            json!({"enterpriseGlobalId": id, "enterpriseName": format!("全国企业 {i}"),
            "branchName": format!("分公司 {}", i % 30)})
        })
        .collect();
    let path = dir.join("directory.json");
    let file = json!({"products": [], "packages": [], "customers": customers});
    std::fs::write(&path, file.to_string()).expect("directory file");
    run(
        &core,
        Command::Catalog(CatalogCommand::Import {
            path,
            profile: PROFILE.to_owned(),
            import: Import {
                apply: true,
                overwrite: true,
            },
        }),
    );
    core
}

fn run(core: &Core, command: Command) -> Outcome {
    core.run(command, Duration::from_secs(1800))
        .expect("the command succeeds")
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
        Command::Renewals(RenewalsCommand::Read {
            profile: PROFILE.to_owned(),
            progress,
        }),
    );
    let took = started.elapsed().as_secs_f64();
    watching.store(false, Ordering::Relaxed);
    let longest = watcher.join().expect("the watcher");
    let Outcome::Renewals(Some(read)) = outcome else {
        panic!("not a read");
    };
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
        Command::Renewals(RenewalsCommand::Read {
            profile: PROFILE.to_owned(),
            progress,
        }),
    );
    let answered = Instant::now();
    answered - canceller.join().expect("the canceller")
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}
