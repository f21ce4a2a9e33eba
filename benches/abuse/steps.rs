//! The six findings, one step each: the figure before the fix (quoted from issue 19, measured
//! on this machine before the fixes) and the figure now, and whether the limit held.

use std::path::Path;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};
use tokio::runtime::Runtime;

use crate::client::{
    CLAIM_PATH, Client, ORDER, batch_body, http_client, new_buy, nonce, numbers, product_uris,
    timed, token_request,
};
use crate::connections;
use crate::report::{before, fmt_dur, heading, held, now};
use crate::server::{Server, has_flag, mib, mode};

/// A step: the binary under test, and the runtime its client calls run on.
type Step = fn(&Path, &Runtime);

pub fn run(bin: &Path, only: &[String]) {
    let started = Instant::now();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("client runtime");
    println!(
        "Abuse replay (issue 19): {}; {} cores; all traffic on 127.0.0.1",
        bin.display(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let wanted = |n: &str| only.is_empty() || only.iter().any(|o| o == n);
    let steps: [(&str, Step); 6] = [
        ("1", one_call_stalls_every_other),
        ("2", connections::step),
        ("3", listings_in_memory),
        ("4", numbers_drained),
        ("5", nothing_throttled),
        ("6", input),
    ];
    for (n, step) in steps {
        if wanted(n) {
            let t = Instant::now();
            step(bin, &rt);
            eprintln!("[{n}] took {:.1} s", t.elapsed().as_secs_f64());
        }
    }
    println!();
    println!("whole run: {:.1} s", started.elapsed().as_secs_f64());
}

/// `median / max (n=…)` of some latencies.
fn median_max(samples: &[Duration]) -> String {
    let mut s = samples.to_vec();
    s.sort_unstable();
    match (s.get(s.len() / 2), s.last()) {
        (Some(median), Some(max)) => {
            format!("{} / {} (n={})", fmt_dur(*median), fmt_dur(*max), s.len())
        }
        _ => "no samples".to_owned(),
    }
}

fn start(bin: &Path, flags: &[&str]) -> Server {
    Server::start(bin, flags, None).unwrap_or_else(|log| panic!("serve did not start: {log}"))
}

// ---------------------------------------------------------------------------------------------
// 1. One call stalls every other

const HUGE_NUMBERS: usize = 1_000_000;
/// The largest batch the limits allow: 10,000 orders × 2 asset numbers × 5 products.
const BUSY_ORDERS: usize = 10_000;
const BUSY_RUNS: usize = 2;
/// Rounds of the other client's three calls with nothing else running.
const ALONE_ROUNDS: usize = 30;
const REPLAYED_NONCE: &str = "abuse-replayed";

/// Another client's three kinds of call: a read, a token request, a refused replay.
const KINDS: [&str; 3] = [
    "customer query (a read)",
    "token request",
    "replayed nonce (refused)",
];

fn one_call_stalls_every_other(bin: &Path, rt: &Runtime) {
    heading(1, "One call stalls every other");
    before(
        "a batch with 1,000,000 assetNos in one asset was accepted and held the single writer \
         15.4 s; meanwhile every authenticated call (reads, token requests, refused replays) \
         waited ~15 s",
    );
    let server = start(bin, &[]);
    let (writer, other) = rt.block_on(async {
        let writer = Client::new(&server, &server.app("writer", "auth_order")).await;
        let other = Client::new(&server, &server.app("other", "auth_order")).await;
        (writer, other)
    });
    let huge = vec![new_buy(
        1,
        "ABUSE-W",
        &numbers(7, 0, HUGE_NUMBERS),
        &product_uris(1),
    )];
    let huge = batch_body("ABUSE-HUGE", huge);
    let size = huge.len() as f64 / 1e6;
    let (took, answer) = rt.block_on(timed(writer.batch(huge)));
    let refused = answer.code() == "13004";
    now(
        true,
        &format!(
            "the same batch ({HUGE_NUMBERS} asset numbers in one asset, {size:.1} MB) answered \
             in {}: {}",
            fmt_dur(took),
            answer.code_message()
        ),
    );
    let busy = busy_writer(rt, &writer, &other);
    let shortest = busy.batches.iter().min().copied().unwrap_or_default();
    let longest_call = busy
        .during
        .iter()
        .flatten()
        .max()
        .copied()
        .unwrap_or_default();
    now(
        false,
        &format!(
            "the largest batch allowed ({BUSY_ORDERS} orders × 2 asset numbers × 5 products: \
             20,000 numbers, 100,000 grants) took {}; another client's calls meanwhile, \
             median / max, against alone:",
            busy.batches
                .iter()
                .map(|d| fmt_dur(*d))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    for (k, kind) in KINDS.iter().enumerate() {
        now(
            false,
            &format!(
                "  {kind:<26} during {}; alone {}",
                median_max(&busy.during[k]),
                median_max(&busy.alone[k])
            ),
        );
    }
    if let Some(odd) = &busy.unexpected {
        now(false, &format!("  an unexpected answer: {odd}"));
    }
    let ok = refused && longest_call < shortest / 2 && busy.unexpected.is_none();
    held(
        ok,
        &format!(
            "the oversized batch is refused (13004); the slowest call during the largest \
             allowed batch took {} against {} for the batch (limit: under half of it)",
            fmt_dur(longest_call),
            fmt_dur(shortest)
        ),
    );
}

struct Busy {
    batches: Vec<Duration>,
    during: [Vec<Duration>; 3],
    alone: [Vec<Duration>; 3],
    unexpected: Option<String>,
}

/// The other client's three calls in turn while each largest allowed batch runs, then the
/// same calls alone.
fn busy_writer(rt: &Runtime, writer: &Client, other: &Client) -> Busy {
    let uris = product_uris(5);
    let mut busy = Busy {
        batches: Vec::new(),
        during: Default::default(),
        alone: Default::default(),
        unexpected: None,
    };
    rt.block_on(async {
        // The replayed nonce is spent once first.
        other
            .call_with(Method::GET, &query_path(), REPLAYED_NONCE, &QUERY, None)
            .await;
        for run in 0..BUSY_RUNS {
            let orders = (0..BUSY_ORDERS)
                .map(|i| {
                    let assets = numbers(6, (run * BUSY_ORDERS + i) * 2, 2);
                    new_buy(i + 1, "ABUSE-W", &assets, &uris)
                })
                .collect();
            let body = batch_body(&format!("ABUSE-BUSY-{run}"), orders);
            let w = writer.clone();
            let batch = tokio::spawn(async move { timed(w.batch(body)).await });
            while !batch.is_finished() {
                small_calls(other, &mut busy.during, &mut busy.unexpected).await;
            }
            let (took, answer) = batch.await.expect("the batch task");
            if !answer.is_success() {
                busy.unexpected = Some(format!("the largest allowed batch: {}", answer.brief()));
            }
            busy.batches.push(took);
        }
        for _ in 0..ALONE_ROUNDS {
            small_calls(other, &mut busy.alone, &mut busy.unexpected).await;
        }
    });
    busy
}

const QUERY: [(&str, &str); 2] = [
    ("channelCode", "CRM"),
    ("channelCustomerId", "ABUSE-NOBODY"),
];

fn query_path() -> String {
    format!("{ORDER}/enterprise/user/query")
}

/// One of each of the other client's calls, timed; an answer other than the expected one is
/// kept for the report.
async fn small_calls(other: &Client, into: &mut [Vec<Duration>; 3], odd: &mut Option<String>) {
    let path = query_path();
    let (t, a) = timed(other.call(Method::GET, &path, &QUERY)).await;
    into[0].push(t);
    if !a.is_success() {
        *odd = Some(format!("{}: {}", KINDS[0], a.brief()));
    }
    let (t, a) = timed(token_request(
        &other.http,
        &other.base,
        &other.app.key,
        &other.app.secret,
    ))
    .await;
    into[1].push(t);
    if a.status != 200 {
        *odd = Some(format!("{}: {}", KINDS[1], a.brief()));
    }
    let replay = other.call_with(Method::GET, &path, REPLAYED_NONCE, &QUERY, None);
    let (t, a) = timed(replay).await;
    into[2].push(t);
    if a.code() != "13004" {
        *odd = Some(format!("{}: {}", KINDS[2], a.brief()));
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Listings built whole in memory

const LIST_ASSETS: usize = 100_000;
const LIST_ORDERS_PER_BATCH: usize = 1000;
const LIST_ASSETS_PER_ORDER: usize = 10;
const LISTINGS: usize = 6;

fn listings_in_memory(bin: &Path, rt: &Runtime) {
    heading(3, "Listings built whole in memory");
    before(
        "six concurrent listings of a 100,000-asset enterprise took the server from 305 MiB to \
         1.5 GiB; ~950 MiB was kept afterwards",
    );
    let streamed = has_flag(bin, &["serve"], "--max-listings");
    let server = start(bin, &[]);
    let client = rt.block_on(Client::new(&server, &server.app("lister", "auth_order")));
    let setup = Instant::now();
    let path = rt.block_on(enterprise_of(&client, LIST_ASSETS));
    eprintln!("    setup {:.1} s", setup.elapsed().as_secs_f64());
    let (_, one) = rt.block_on(listing(client.clone(), path.clone()));
    std::thread::sleep(Duration::from_secs(1));
    let idle = server.rss_kib();
    server.reset_peak();
    let (wall, sizes) = rt.block_on(async {
        let tasks: Vec<_> = (0..LISTINGS)
            .map(|_| tokio::spawn(listing(client.clone(), path.clone())))
            .collect();
        let t = Instant::now();
        let mut sizes = Vec::new();
        for task in tasks {
            sizes.push(task.await.expect("listing task").1);
        }
        (t.elapsed(), sizes)
    });
    let peak = server.status_kib("VmHWM");
    std::thread::sleep(Duration::from_secs(2));
    let after = server.rss_kib();
    let whole = sizes.iter().all(|s| *s == one);
    now(
        true,
        &format!(
            "this build: serve --max-listings {}; serve run with its defaults",
            if streamed { "present" } else { "absent" }
        ),
    );
    now(
        false,
        &format!(
            "{LISTINGS} concurrent listings of {LIST_ASSETS} assets ({:.1} MB each{}), done in \
             {}: RSS {} idle (one listing done), {} at the peak, {} 2 s after",
            one as f64 / 1e6,
            if whole { "" } else { ", NOT all whole" },
            fmt_dur(wall),
            mib(idle),
            mib(peak),
            mib(after)
        ),
    );
    let growth_kib = peak.saturating_sub(idle);
    held(
        whole && growth_kib * 1024 < one as u64,
        &format!(
            "the peak grew {} over idle, against {:.0} MiB for one answer (limit: less than one \
             answer, which a listing built whole needs at least)",
            mib(growth_kib),
            one as f64 / 1048576.0
        ),
    );
}

/// An enterprise holding `assets` re-issuable locks with one product each (as
/// `cargo bench --bench load -- 4` sets it up); the path of its listing.
async fn enterprise_of(client: &Client, assets: usize) -> String {
    let crm = "CRM-LIST";
    let egid = client.enterprise(crm).await;
    let nums = numbers(4, 0, assets);
    let products = product_uris(1);
    let per_batch = LIST_ORDERS_PER_BATCH * LIST_ASSETS_PER_ORDER;
    for (b, chunk) in nums.chunks(per_batch).enumerate() {
        let orders = chunk
            .chunks(LIST_ASSETS_PER_ORDER)
            .enumerate()
            .map(|(i, assets)| new_buy(i + 1, crm, assets, &products))
            .collect();
        let answer = client.batch(batch_body(&format!("LIST-{b}"), orders)).await;
        assert!(answer.is_success(), "setup batch: {}", answer.brief());
    }
    format!("{ORDER}/asset/{egid}/list")
}

/// One listing read as it arrives, never held whole here: its time and size in bytes.
async fn listing(client: Client, path: String) -> (Duration, usize) {
    let t = Instant::now();
    let mut r = client
        .http
        .get(format!("{}{path}", client.base))
        .bearer_auth(&client.token)
        .query(&[("g_nonce", nonce())])
        .send()
        .await
        .expect("listing");
    assert_eq!(r.status(), 200, "listing");
    let mut size = 0;
    while let Some(chunk) = r.chunk().await.expect("listing chunk") {
        size += chunk.len();
    }
    (t.elapsed(), size)
}

// ---------------------------------------------------------------------------------------------
// 4. The asset-number space drained by one app

const NUMBERS_PER_CALL: usize = 1000;
const DRAIN_CALLS: usize = 5000;
const DRAIN_TIME: Duration = Duration::from_secs(10);

fn numbers_drained(bin: &Path, rt: &Runtime) {
    heading(4, "The asset-number space drained by one app");
    before("one app took 2.5 million numbers per second via operation 9 (shellnums); no quota");
    let quotas = has_flag(bin, &["app", "create"], "--quota-numbers-per-minute");
    let server = start(bin, &[]);
    let client = rt.block_on(Client::new(&server, &server.app("drain", "auth_order")));
    let body = json!({ "size": NUMBERS_PER_CALL });
    let path = format!("{ORDER}/shellnums");
    let started = Instant::now();
    let (mut calls, mut got, mut refusal) = (0, 0, None);
    rt.block_on(async {
        while calls < DRAIN_CALLS && started.elapsed() < DRAIN_TIME {
            let answer = client.post(&path, &body).await;
            calls += 1;
            if !answer.is_success() {
                refusal = Some(answer);
                break;
            }
            got += answer.json()["data"].as_array().map_or(0, Vec::len);
        }
    });
    let took = started.elapsed();
    now(
        true,
        &format!(
            "this build: app create --quota-numbers-per-minute {}; serve and app create run \
             with their defaults",
            if quotas { "present" } else { "absent" }
        ),
    );
    now(
        false,
        &format!(
            "one app took {got} numbers in {calls} calls of size {NUMBERS_PER_CALL} over {} \
             ({:.2} million numbers/s; bounds: {DRAIN_CALLS} calls or {} s)",
            fmt_dur(took),
            got as f64 / took.as_secs_f64() / 1e6,
            DRAIN_TIME.as_secs()
        ),
    );
    match &refusal {
        Some(answer) => now(false, &format!("then refused: {}", answer.brief())),
        None => now(false, "never refused within the bounds"),
    }
    held(
        refusal.is_some(),
        &match &refusal {
            Some(_) => format!("a refusal came after {got} numbers"),
            None => "no quota stopped the loop".to_owned(),
        },
    );
}

// ---------------------------------------------------------------------------------------------
// 5. Nothing throttled; data files 0644

const MOST_ATTEMPTS: usize = 100;
const MOST_CLAIMS: usize = 200;
const CLAIM_IDENTITY: &str = "13800138000";

fn nothing_throttled(bin: &Path, rt: &Runtime) {
    heading(5, "Nothing throttled; data files 0644");
    before(
        "failed token requests and claims were never refused or slowed; the data files were \
         created 0644 (readable by every user)",
    );
    let (key_ok, modes_ok) = failed_tokens_per_key(bin, rt);
    let address_ok = failed_tokens_per_address(bin, rt);
    let claims_ok = claims_per_identity(bin, rt);
    held(
        key_ok && address_ok && modes_ok && claims_ok,
        &format!(
            "failed token requests per app key: {}; per address: {}; private files: {}; \
             claims per identity: {}",
            yes_no(key_ok),
            yes_no(address_ok),
            yes_no(modes_ok),
            yes_no(claims_ok)
        ),
    );
}

fn yes_no(ok: bool) -> &'static str {
    if ok { "held" } else { "NOT held" }
}

/// Wrong secrets for one app key until the first 429, then the right secret, which must get
/// its token (the throttle never locks the owner out); and the modes of the data directory.
/// Whether each held.
fn failed_tokens_per_key(bin: &Path, rt: &Runtime) -> (bool, bool) {
    let server = start(bin, &[]);
    let app = server.app("guessed", "auth_order");
    let http = http_client();
    let (count, answer, right) = rt.block_on(async {
        let mut last = None;
        let mut count = 0;
        for i in 1..=MOST_ATTEMPTS {
            count = i;
            let a = token_request(&http, &server.base, &app.key, "a-wrong-secret").await;
            let stop = a.status == 429;
            last = Some(a);
            if stop {
                break;
            }
        }
        let right = token_request(&http, &server.base, &app.key, &app.secret).await;
        (count, last.expect("at least one attempt"), right)
    });
    let throttled = answer.status == 429;
    now(
        true,
        &if throttled {
            format!(
                "wrong secrets for one app key: attempt {count} answered {}",
                answer.brief()
            )
        } else {
            format!(
                "wrong secrets for one app key: no 429 within {count} attempts (the last: {})",
                answer.brief()
            )
        },
    );
    now(
        false,
        &format!("  then the right secret: {}", right.brief()),
    );
    let modes_ok = print_modes(&server.data);
    (throttled && count <= 11 && right.status == 200, modes_ok)
}

/// Unknown app keys from one address until the first 429.
fn failed_tokens_per_address(bin: &Path, rt: &Runtime) -> bool {
    let server = start(bin, &[]);
    let http = http_client();
    let (count, answer) = rt.block_on(async {
        let mut last = None;
        let mut count = 0;
        for i in 1..=MOST_ATTEMPTS {
            count = i;
            let key = format!("ak_unknown{i:06}");
            let a = token_request(&http, &server.base, &key, "a-wrong-secret").await;
            let stop = a.status == 429;
            last = Some(a);
            if stop {
                break;
            }
        }
        (count, last.expect("at least one attempt"))
    });
    let throttled = answer.status == 429;
    now(
        false,
        &if throttled {
            format!(
                "unknown app keys from one address (fresh server): attempt {count} answered {}",
                answer.brief()
            )
        } else {
            format!("unknown app keys from one address: no 429 within {count} attempts")
        },
    );
    throttled && count <= 31
}

/// The modes of the data directory and of each file in it; whether they are private.
fn print_modes(data: &Path) -> bool {
    let mut files: Vec<_> = std::fs::read_dir(data)
        .expect("data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let dir_mode = mode(data);
    let listed: Vec<String> = files
        .iter()
        .map(|f| {
            let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
            format!("{} {}", name.unwrap_or_default(), mode(f))
        })
        .collect();
    now(
        false,
        &format!(
            "modes after start and the token requests: data directory {dir_mode}; {}",
            listed.join(", ")
        ),
    );
    dir_mode == "0700" && !files.is_empty() && files.iter().all(|f| mode(f) == "0600")
}

/// Claims by one identity of a unit that allows a million per identity, until the first
/// refusal; whether one came within the bound.
fn claims_per_identity(bin: &Path, rt: &Runtime) -> bool {
    let files = tempfile::tempdir().expect("temp dir");
    let activities = files.path().join("activities.json");
    std::fs::write(&activities, activities_file().to_string()).expect("activities file");
    let path = activities.to_string_lossy().into_owned();
    let throttled_build = has_flag(bin, &["serve"], "--claims-per-minute");
    let server = start(bin, &["--activities", &path]);
    let client = rt.block_on(Client::new(
        &server,
        &server.app("claimer", "auth_activity"),
    ));
    let body = json!({"identity": CLAIM_IDENTITY, "activityLabel": "abuse",
                      "source": "crm.example.com", "branch": "北京分公司"});
    let (claimed, refusal) = rt.block_on(async {
        for i in 0..MOST_CLAIMS {
            let a = client.post(CLAIM_PATH, &body).await;
            if !a.is_success() {
                return (i, Some(a));
            }
        }
        (MOST_CLAIMS, None)
    });
    now(
        false,
        &format!(
            "claims by one identity (a unit allowing 1,000,000 per identity; this build: serve \
             --claims-per-minute {}): {}",
            if throttled_build { "present" } else { "absent" },
            match &refusal {
                Some(a) => format!("{claimed} claimed, then {}", a.brief()),
                None => format!("no limit found within {MOST_CLAIMS} attempts (all claimed)"),
            }
        ),
    );
    refusal.is_some_and(|a| a.code() != "1002")
}

/// One open activity whose unit lets an identity claim a million times, without stock.
fn activities_file() -> Value {
    const DAY: i64 = 24 * 3600 * 1000;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    json!({"activities": [{
        "id": "A1", "label": "abuse", "name": "滥用测试活动",
        "startTime": now - DAY, "endTime": now + DAY,
        "units": [{"id": "U1", "name": "无限单元", "maxClaimsPerIdentity": 1_000_000,
                   "products": [{"productUri": "gms:1001", "validDays": 1, "activateType": "0"}]}]
    }]})
}

// ---------------------------------------------------------------------------------------------
// 6. Input

fn input(bin: &Path, rt: &Runtime) {
    heading(6, "Input");
    before(
        "whitespace around ids was trimmed but not documented; control characters (NUL, ESC) \
         in ids, a 10,000-character enterprise id and a Content-Encoding: gzip body were not \
         refused",
    );
    let server = start(bin, &[]);
    let client = rt.block_on(Client::new(&server, &server.app("input", "auth_order")));
    let create = format!("{ORDER}/enterprise/user/create");
    let made = |crm: &str| json!({"crmCustomerId": crm, "customerName": "输入测试有限公司"});
    let (trimmed, found, refusals) = rt.block_on(async {
        let trimmed = client.post(&create, &made(" CRM-TRIM ")).await;
        let query = [("channelCode", "CRM"), ("channelCustomerId", "CRM-TRIM")];
        let found = client.call(Method::GET, &query_path(), &query).await;
        let long = "E".repeat(10_000);
        let refusals = [
            (
                "crmCustomerId with NUL",
                client.post(&create, &made("CRM\u{0}1")).await,
            ),
            (
                "crmCustomerId with ESC",
                client.post(&create, &made("CRM\u{1b}[31m")).await,
            ),
            (
                "a 10,000-character enterprise id (operation 8's path)",
                client
                    .call(Method::GET, &format!("{ORDER}/asset/{long}/list"), &[])
                    .await,
            ),
            ("Content-Encoding: gzip", gzip_body(&client).await),
        ];
        (trimmed, found, refusals)
    });
    let stored = found.json()["data"][0]["channelCustomerId"].clone();
    now(
        true,
        &format!(
            "crmCustomerId \" CRM-TRIM \": {}; the customer is found as {stored}",
            trimmed.code_message()
        ),
    );
    for (what, answer) in &refusals {
        now(false, &format!("{what}: {}", answer.code_message()));
    }
    let ok = trimmed.is_success()
        && stored == json!("CRM-TRIM")
        && refusals.iter().all(|(_, a)| a.code() == "13004");
    held(
        ok,
        "the spaces are trimmed (as documented) and the other four are refused with 13004 \
         naming the field",
    );
}

/// Operation 9 with a gzip header as its body, declared `Content-Encoding: gzip`.
async fn gzip_body(client: &Client) -> crate::client::Answer {
    let r = client
        .http
        .post(format!("{}{ORDER}/shellnums", client.base))
        .bearer_auth(&client.token)
        .query(&[("g_nonce", nonce())])
        .header("Content-Type", "application/json")
        .header("Content-Encoding", "gzip")
        .body(vec![0x1f, 0x8b, 0x08, 0x00])
        .send()
        .await
        .expect("request");
    crate::client::Answer::read(r).await
}
