//! Load benchmark of the embedded platform (issue 3, "Load"): `cargo bench --bench load`, or
//! `cargo bench --bench load -- 1 5` for some scenarios only (6: small reads during the largest
//! allowed batch).
//!
//! Everything runs on this machine over 127.0.0.1: the platform (and the bare axum servers of
//! the small-call baselines) on its own multi-thread tokio runtime, the HTTP client on another.
//! Each scenario's baseline is measured in the same run, on the store the platform is on.
//!
//! On SQLite: raw SQLite with the platform's durability settings (WAL, synchronous=NORMAL,
//! foreign keys on) and schema, one repetition after each of the platform's (scenarios 1 to 4),
//! or a bare axum handler (no database) driven by the same client code in rounds alternating
//! with the platform's (scenario 5).
//!
//! On PostgreSQL (a throwaway cluster of the tests' `pg_cluster`, a fresh database per
//! scenario, when its server binaries are installed): the plainest fast client code, on
//! tokio-postgres with a statement cache, in a fresh database of its own with the platform's
//! PostgreSQL schema (`platform::pg::MIGRATIONS`), one repetition after each of the platform's:
//! 1. one transaction: the batch row, then its license orders, assets and products (the
//!    columns the SQLite baseline writes) with one multi-row `INSERT … SELECT … FROM UNNEST`
//!    statement per table;
//! 2. one transaction: `UPDATE assets … WHERE asset_num = ANY($1)` over the 10,000 numbers and
//!    their `lock_events` rows in one `INSERT … SELECT … FROM UNNEST`;
//! 3. the counter bumped as on SQLite, in one transaction;
//! 4. the listing's two SELECTs (its assets with their customer and license order, their
//!    products) in one REPEATABLE READ, READ ONLY transaction on the platform's own database
//!    (the same rows), serialized as on SQLite;
//! 5. a bare axum handler that runs, per call, one transaction on a pool of 16 connections:
//!    the nonce's row in `nonce_log`, `UPDATE assets … WHERE asset_num = $1 RETURNING …` and the
//!    `lock_events` row, then answers the fixed envelope; in rounds alternating with the
//!    platform's and with the bare handler's (no database), which is kept as a row of its own.
//!
//! A PostgreSQL row is followed by an informational row "PostgreSQL ÷ SQLite" whose baseline
//! is the same scenario on SQLite in this run (when both stores run), and after scenario 5 a
//! row measures two `serve` instances on one PostgreSQL database beside one, in alternating
//! rounds (5b); then rows 5c and 5d do so with PostgreSQL 2 ms away each way (a delaying TCP
//! proxy, `test_support::delay_proxy`) and 64 clients: one instance alone, and two beside it
//! (goal ≥ 1.8×: nothing serialises two instances that each wait for the database).
//! `--store=sqlite` or `--store=postgres` runs one store. Counts and durations are
//! fixed, so a run is bounded (about 40 s on two cores for SQLite, a few minutes for
//! PostgreSQL). The Markdown table goes to stdout, progress to stderr.
//!
//! Definitions: latency is one call's wall time as the client sees it (request sent, whole
//! answer read) or one baseline transaction's wall time; median and p99 are nearest-rank
//! percentiles of the repetitions (with 20 or 30 repetitions p99 is the slowest one); throughput
//! is the units handled divided by the summed time of the calls (they run one after another),
//! except for the concurrent small calls (scenario 5), where it is completed requests divided by
//! the wall time of the run. The first repetition of each scenario warms up and is not counted.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use platform::apps::AppCredentials;
use platform::pg::DatabaseUrl;
use platform::{Config, NumberQuota, OwnQuota, Server, create_app, create_app_in_database};
use reqwest::Method;
use rusqlite::{Connection, OpenFlags, TransactionBehavior, params};
use serde::Serialize;
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::runtime::Runtime;
use tokio_postgres::NoTls;

use test_support::delay_proxy::DelayProxy;
use test_support::pg_cluster;

/// The platform's schema (its migrations, in order, as `store.rs` applies them), for the raw
/// SQLite baselines. [`check_schema`] warns when the platform has gained a migration since.
const SCHEMA: [&str; 5] = [
    include_str!("../src/schema.sql"),
    include_str!("../src/schema2.sql"),
    include_str!("../src/schema3.sql"),
    include_str!("../src/schema4.sql"),
    include_str!("../src/schema5.sql"),
];

const BATCH_PATH: &str = "/order/api/order/v1/licenseOrder/batchOrder";
const LOCK_PATH: &str = "/order/api/order/v1/asset/lock";
const UNLOCK_PATH: &str = "/order/api/order/v1/asset/unlock";
const SHELLNUMS_PATH: &str = "/order/api/order/v1/shellnums";
const CREATE_PATH: &str = "/order/api/order/v1/enterprise/user/create";

/// Scenario 1: orders per batch, products per order, measured repetitions.
const BATCH_ORDERS: usize = 1000;
const BATCH_PRODUCTS: usize = 5;
const BATCH_REPS: usize = 30;
/// Scenario 2.
const LOCK_ASSETS: usize = 10_000;
const LOCK_REPS: usize = 20;
/// Scenario 3.
const SHELLNUMS_SIZE: usize = 1000;
const SHELLNUMS_REPS: usize = 500;
/// Scenario 4: assets of the enterprise, set up as batches of orders of several assets each.
const LIST_ASSETS: usize = 100_000;
const LIST_SETUP_ORDERS: usize = 1000;
const LIST_SETUP_ASSETS_PER_ORDER: usize = 10;
const LIST_REPS: usize = 10;
/// Scenario 5.
/// Scenario 6: the largest batch the limits allow (10,000 orders × 2 asset numbers × 5
/// products: 20,000 asset numbers, 100,000 product instances).
const BUSY_ORDERS: usize = 10_000;
const BUSY_REPS: usize = 3;
const QUERY_PATH: &str = "/order/api/order/v1/enterprise/user/query";

/// Scenarios 5c and 5d: PostgreSQL this far from the instances, each way (a database on
/// another host of the same data centre).
const POSTGRES_AWAY: Duration = Duration::from_millis(2);
/// Clients of scenarios 5c and 5d.
const FAR_CLIENTS: usize = 64;
const SMALL_CLIENTS: usize = 8;
const SMALL_WARMUP: Duration = Duration::from_millis(500);
/// The platform and the bare handler are measured in alternating rounds, so that a change of
/// the machine's speed (this shared machine drifts by 2x within minutes) hits both alike.
const SMALL_ROUNDS: u32 = 10;
const SMALL_ROUND: Duration = Duration::from_millis(500);

/// The fixed envelope of the bare axum baseline.
const BARE_REPLY: &str = r#"{"code":0,"message":"success","data":[{"assetNum":"x","status":1}]}"#;

fn main() {
    let started = Instant::now();
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("server")
        .enable_all()
        .build()
        .expect("server runtime");
    let client_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("client")
        .enable_all()
        .build()
        .expect("client runtime");
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |n: &str| only.is_empty() || only.iter().any(|o| o == n);

    let stores = stores();
    let scenarios: [(&str, Scenario); 6] = [
        ("1", batch_scenario),
        ("2", lock_scenario),
        ("3", shellnums_scenario),
        ("4", listing_scenario),
        ("5", small_calls_scenario),
        ("6", busy_writer_scenario),
    ];
    let mut rows = Vec::new();
    for (n, scenario) in scenarios.into_iter().filter(|(n, _)| wanted(n)) {
        let mut on_sqlite = None;
        for &store in &stores {
            // The scenario's row, then its informational ones, named in full (scenario 5 on
            // PostgreSQL: the platform beside the bare handler).
            let mut measured = scenario(&server_rt, &client_rt, store).into_iter();
            let mut row = measured.next().expect("a scenario's row");
            let title = row.scenario.clone();
            row.scenario = format!("{title}, {}", store.name());
            let (platform, unit) = (row.platform, row.unit);
            rows.push(row);
            match store {
                Store::Sqlite => on_sqlite = Some(platform),
                // Beside the same scenario on SQLite in this run: what the store costs.
                Store::Postgres => {
                    if let Some(sqlite) = on_sqlite {
                        rows.push(Row {
                            scenario: format!("{title}, PostgreSQL ÷ SQLite"),
                            unit,
                            platform,
                            baseline: Some(("the platform on SQLite, its row above", sqlite)),
                            target: Target::Informational,
                        });
                    }
                }
            }
            rows.extend(measured);
        }
        if n == "5" && stores.contains(&Store::Postgres) {
            rows.extend(two_instances_scenario(&server_rt, &client_rt, None));
            let far = Some(POSTGRES_AWAY);
            rows.extend(two_instances_scenario(&server_rt, &client_rt, far));
        }
    }
    print_table(&rows, started.elapsed());
}

/// A scenario's row, then any informational rows of the same measurement.
type Scenario = fn(&Runtime, &Runtime, Store) -> Vec<Row>;

/// The stores to measure: `--store=sqlite` or `--store=postgres` for one, both by default. PostgreSQL's
/// server binaries must be installed for it (`.ci/run` installs them); without them only
/// SQLite is measured, and the run says so.
fn stores() -> Vec<Store> {
    let arg = std::env::args().find_map(|a| a.strip_prefix("--store=").map(str::to_owned));
    match arg.as_deref() {
        Some("sqlite") => vec![Store::Sqlite],
        Some("postgres") => vec![Store::Postgres],
        _ if pg_cluster::installed() => vec![Store::Sqlite, Store::Postgres],
        _ => {
            eprintln!("NOTE: PostgreSQL is not installed: SQLite only");
            vec![Store::Sqlite]
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Measurements and the table

#[derive(Debug, Clone, Copy)]
struct Measured {
    median: Duration,
    p99: Duration,
    /// Units per second.
    throughput: f64,
    count: usize,
}

impl Measured {
    /// Calls made one after another, each handling `units`.
    fn sequential(mut samples: Vec<Duration>, units: usize) -> Self {
        let total: Duration = samples.iter().sum();
        let count = samples.len();
        samples.sort_unstable();
        Self {
            median: percentile(&samples, 50.0),
            p99: percentile(&samples, 99.0),
            throughput: (units * count) as f64 / total.as_secs_f64(),
            count,
        }
    }

    /// Concurrent calls of one unit each over `wall` time.
    fn concurrent(mut samples: Vec<Duration>, wall: Duration) -> Self {
        let count = samples.len();
        samples.sort_unstable();
        Self {
            median: percentile(&samples, 50.0),
            p99: percentile(&samples, 99.0),
            throughput: count as f64 / wall.as_secs_f64(),
            count,
        }
    }
}

/// Nearest-rank percentile of sorted samples.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let n = sorted.len();
    assert!(n > 0, "no samples");
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    /// Platform median at most this many times the baseline's.
    MedianWithin(f64),
    /// Platform throughput at least this fraction of the baseline's.
    ThroughputAtLeast(f64),
    /// No target: for information.
    Informational,
}

struct Row {
    scenario: String,
    unit: &'static str,
    platform: Measured,
    /// What the platform is measured beside, in the same run (none: nothing comparable, e.g.
    /// the raw SQLite listing when the platform's rows are in PostgreSQL).
    baseline: Option<(&'static str, Measured)>,
    target: Target,
}

impl Row {
    fn median_ratio(&self) -> Option<f64> {
        let (_, base) = self.baseline?;
        Some(self.platform.median.as_secs_f64() / base.median.as_secs_f64())
    }

    fn throughput_ratio(&self) -> Option<f64> {
        let (_, base) = self.baseline?;
        Some(self.platform.throughput / base.throughput)
    }

    fn verdict(&self) -> String {
        match (self.target, self.median_ratio(), self.throughput_ratio()) {
            (Target::MedianWithin(x), Some(ratio), _) => {
                let met = ratio <= x;
                format!("≤ {x}× median: {}", if met { "met" } else { "MISSED" })
            }
            (Target::ThroughputAtLeast(x), _, Some(ratio)) => {
                let met = ratio >= x;
                format!("≥ {x}× throughput: {}", if met { "met" } else { "MISSED" })
            }
            _ => "—".to_owned(),
        }
    }
}

fn print_table(rows: &[Row], total: Duration) {
    println!();
    println!(
        "Load benchmark, {} cores, all traffic on 127.0.0.1; whole run {:.1} s",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        total.as_secs_f64()
    );
    println!();
    println!(
        "| scenario | platform median | platform p99 | platform throughput | baseline (same run) | baseline median | baseline p99 | baseline throughput | ratio median (platform ÷ baseline) | ratio throughput (platform ÷ baseline) | target |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let ratio = |r: Option<f64>| r.map_or("—".to_owned(), |r| format!("{r:.2}×"));
    for r in rows {
        let baseline = match r.baseline {
            Some((name, b)) => format!(
                "{name} (n={}) | {} | {} | {}",
                b.count,
                fmt_dur(b.median),
                fmt_dur(b.p99),
                fmt_rate(b.throughput, r.unit)
            ),
            None => "— | — | — | —".to_owned(),
        };
        println!(
            "| {} (n={}) | {} | {} | {} | {baseline} | {} | {} | {} |",
            r.scenario,
            r.platform.count,
            fmt_dur(r.platform.median),
            fmt_dur(r.platform.p99),
            fmt_rate(r.platform.throughput, r.unit),
            ratio(r.median_ratio()),
            ratio(r.throughput_ratio()),
            r.verdict()
        );
    }
}

fn fmt_dur(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

fn fmt_rate(r: f64, unit: &str) -> String {
    if r >= 1e6 {
        format!("{:.2} M {unit}/s", r / 1e6)
    } else if r >= 1e4 {
        format!("{:.1} k {unit}/s", r / 1e3)
    } else {
        format!("{r:.0} {unit}/s")
    }
}

// ---------------------------------------------------------------------------------------------
// The platform and its client

/// A fresh nonce for every call.
fn nonce() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    format!("load-{}", N.fetch_add(1, Ordering::Relaxed))
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A platform on a loopback port with its data in a temp dir, served by `server_rt`.
struct Platform {
    server: Option<Server>,
    second: Option<Server>,
    dir: TempDir,
    database: Option<DatabaseUrl>,
    client: Client,
    /// Between the instances and PostgreSQL, when it is far (scenarios 5c and 5d).
    _far: Option<DelayProxy>,
}

/// Where the platform keeps its data in a run of a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Store {
    Sqlite,
    Postgres,
}

impl Store {
    fn name(self) -> &'static str {
        match self {
            Self::Sqlite => "SQLite",
            Self::Postgres => "PostgreSQL",
        }
    }
}

fn start_server(server_rt: &Runtime, dir: &Path, database: Option<DatabaseUrl>) -> Server {
    let mut config = Config::new(dir, "127.0.0.1:0".parse().expect("addr"));
    config.database = database;
    // Scenario 3 takes 500,000 asset numbers in seconds: far past any person's quota.
    config.number_quota = NumberQuota {
        per_minute: u32::MAX,
        per_day: u32::MAX,
    };
    server_rt
        .block_on(Server::start(config))
        .expect("platform starts")
}

/// A client of `server` with a token of `app`.
fn client_of(client_rt: &Runtime, server: &Server, app: &AppCredentials) -> Client {
    let http = http_client();
    let base = server.base_url();
    let token = client_rt.block_on(async {
        let r = http
            .post(format!("{base}/v3/api/oauth2/token"))
            .basic_auth(&app.app_key, Some(&app.app_secret))
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .expect("token request");
        assert_eq!(r.status(), 200, "token");
        let body: Value = r.json().await.expect("token json");
        body["access_token"]
            .as_str()
            .expect("access_token")
            .to_owned()
    });
    Client {
        http,
        base,
        token,
        app_key: app.app_key.clone(),
    }
}

#[derive(Clone)]
struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
    app_key: String,
}

impl Platform {
    fn start(server_rt: &Runtime, client_rt: &Runtime, store: Store) -> Self {
        Self::start_far(server_rt, client_rt, store, None)
    }

    /// As [`Platform::start`], with PostgreSQL `far` away each way (through a delaying proxy).
    fn start_far(
        server_rt: &Runtime,
        client_rt: &Runtime,
        store: Store,
        far: Option<Duration>,
    ) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut proxy = None;
        let database = match store {
            Store::Sqlite => None,
            Store::Postgres => {
                let mut url = server_rt
                    .block_on(pg_cluster::database())
                    .expect("PostgreSQL installed (checked in main)");
                if let Some(each_way) = far {
                    let (url_far, delaying) = server_rt.block_on(through_delay(&url, each_way));
                    (url, proxy) = (url_far, Some(delaying));
                }
                Some(DatabaseUrl::parse(&url, None).expect("the test cluster's URL"))
            }
        };
        let server = start_server(server_rt, dir.path(), database.clone());
        let scopes = ["auth_order".to_owned()];
        let app = match &database {
            None => create_app(dir.path(), "load", &scopes).expect("app"),
            Some(db) => server_rt
                .block_on(create_app_in_database(
                    db,
                    "load",
                    &scopes,
                    OwnQuota::default(),
                ))
                .expect("app"),
        };
        let client = client_of(client_rt, &server, &app);
        Self {
            server: Some(server),
            second: None,
            dir,
            database,
            client,
            _far: proxy,
        }
    }

    /// Another `serve` on this platform's PostgreSQL database (scenario 5, two instances).
    fn second_instance(&mut self, server_rt: &Runtime) -> String {
        let database = self
            .database
            .clone()
            .expect("two instances need PostgreSQL");
        let server = start_server(server_rt, self.dir.path(), Some(database));
        let base = server.base_url();
        self.second = Some(server);
        base
    }

    fn db_path(&self) -> std::path::PathBuf {
        self.dir.path().join("platform.sqlite3")
    }

    fn stop(mut self, server_rt: &Runtime) {
        // Idle keep-alive connections go with the client, so the graceful shutdown is quick.
        self.client.http = http_client();
        for server in [self.server.take(), self.second.take()]
            .into_iter()
            .flatten()
        {
            server_rt.block_on(server.shutdown());
        }
    }
}

fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .expect("http client")
}

impl Client {
    /// One call with the token, a fresh nonce, extra query pairs and a JSON body: the status
    /// and the whole answer.
    async fn call(
        &self,
        method: Method,
        path: &str,
        extra: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> (u16, Vec<u8>) {
        let n = nonce();
        let mut query: Vec<(&str, &str)> = vec![("g_nonce", n.as_str())];
        query.extend_from_slice(extra);
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .query(&query);
        if let Some(body) = body {
            req = req
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body);
        }
        let r = req.send().await.expect("request");
        let status = r.status().as_u16();
        let bytes = r.bytes().await.expect("answer");
        (status, bytes.to_vec())
    }

    async fn post(&self, path: &str, body: Vec<u8>) -> (u16, Vec<u8>) {
        self.call(Method::POST, path, &[], Some(body)).await
    }

    async fn batch(&self, body: Vec<u8>) -> (u16, Vec<u8>) {
        let key = self.app_key.clone();
        self.call(
            Method::POST,
            BATCH_PATH,
            &[("appKey", key.as_str())],
            Some(body),
        )
        .await
    }
}

/// The `data` of a success envelope; panics with (the start of) the answer otherwise.
#[track_caller]
fn data_of(status: u16, bytes: &[u8]) -> Value {
    let mut body: Value = serde_json::from_slice(bytes).unwrap_or_else(|_| {
        panic!(
            "HTTP {status}, not JSON: {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(500)])
        )
    });
    if status != 200 || body["code"] != json!(0) {
        let text = body.to_string();
        panic!(
            "not a success: HTTP {status} {}",
            &text[..text.len().min(500)]
        );
    }
    body["data"].take()
}

/// A new_buy order of the given assets (one asset entry) with the given product URIs.
fn new_buy(sequence: usize, customer: &str, assets: &[String], products: &[String]) -> Value {
    let products: Vec<Value> = products
        .iter()
        .map(|uri| json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": 1}))
        .collect();
    json!({
        "sequence": sequence,
        "channelCustomerId": customer,
        "customerName": "压测客户",
        "licenseType": "normal_recover_usbkey",
        "orderType": "new_buy",
        "assets": [{"assetNos": assets, "products": products}]
    })
}

fn batch_body(channel_order_id: &str, orders: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "channelCode": "CRM",
        "channelOrderId": channel_order_id,
        "syncMode": "sync",
        "orderList": orders
    }))
    .expect("json")
}

fn lock_body(nums: &[String]) -> Vec<u8> {
    serde_json::to_vec(&json!({"assetNums": nums, "operatorIdentity": "load@example.com"}))
        .expect("json")
}

fn product_uris(n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("gms:{}", 1000 + k)).collect()
}

/// Creates `count` re-issuable locks for `customer` with one product each, `per_batch` orders
/// of `per_order` assets per batch. Not measured.
fn create_assets(
    client_rt: &Runtime,
    client: &Client,
    customer: &str,
    nums: &[String],
    per_batch: usize,
    per_order: usize,
    tag: &str,
) {
    let products = product_uris(1);
    client_rt.block_on(async {
        for (b, chunk) in nums.chunks(per_batch * per_order).enumerate() {
            let orders = chunk
                .chunks(per_order)
                .enumerate()
                .map(|(i, assets)| new_buy(i + 1, customer, assets, &products))
                .collect();
            let (status, bytes) = client
                .batch(batch_body(&format!("{tag}-setup-{b}"), orders))
                .await;
            data_of(status, &bytes);
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Raw SQLite baselines

/// A fresh database file with the platform's durability settings and schema.
fn fresh_db(dir: &Path) -> Connection {
    let conn = open_like_platform(&dir.join("baseline.sqlite3"), false);
    for sql in SCHEMA {
        conn.execute_batch(sql).expect("schema");
    }
    conn
}

/// Warns when the baseline's schema is not the platform's (a migration was added since).
fn check_schema(baseline: &Connection, platform_db: &Path) {
    let platform = open_like_platform(platform_db, true);
    let schema = |c: &Connection| -> Vec<(String, String)> {
        let mut stmt = c
            .prepare(
                "SELECT name, ifnull(sql, '') FROM sqlite_master \
                 WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            .expect("sqlite_master");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("sqlite_master")
            .collect::<Result<_, _>>()
            .expect("sqlite_master")
    };
    if schema(baseline) != schema(&platform) {
        eprintln!("    NOTE: the baseline's schema differs from the platform's database");
    }
}

/// A product of scenario 1's orders, as the baseline stores it.
struct RawProduct {
    uri: String,
    name: String,
    /// The product entry as JSON, as the platform keeps it.
    entry: String,
}

/// A connection with the platform's settings (crates/platform/src/store.rs).
fn open_like_platform(path: &Path, read_only: bool) -> Connection {
    let flags = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
    };
    let conn = Connection::open_with_flags(path, flags).expect("open");
    conn.busy_timeout(Duration::from_secs(5)).expect("busy");
    if !read_only {
        conn.pragma_update(None, "journal_mode", "WAL")
            .expect("wal");
    }
    conn.pragma_update(None, "synchronous", "NORMAL")
        .expect("synchronous");
    conn.pragma_update(None, "foreign_keys", "ON")
        .expect("foreign keys");
    conn.set_prepared_statement_cache_capacity(64);
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .expect("journal_mode");
    assert_eq!(mode, "wal");
    conn
}

/// One customer for the baseline's rows to belong to; returns its row id.
fn raw_customer(conn: &Connection) -> i64 {
    conn.execute(
        "INSERT INTO customers(customer_id, channel_code, channel_customer_id, customer_name, \
         created_at, updated_at) VALUES ('CU0000000001', 'CRM', 'BENCH', '压测客户', ?1, ?1)",
        [now_ms()],
    )
    .expect("customer");
    conn.last_insert_rowid()
}

/// Rows per id kind, like the platform's counters but in memory.
#[derive(Default)]
struct Ids {
    license_orders: u64,
    assets: u64,
}

/// The batch row's response: `orders` license orders numbered from `first_lo`.
fn batch_response(orders: usize, first_lo: u64) -> String {
    let mut response = String::with_capacity(orders * 80);
    response.push('[');
    for i in 0..orders {
        if i > 0 {
            response.push(',');
        }
        let _ = write!(
            response,
            r#"{{"sequence":{},"licenseOrderId":"LO{:010}","customerId":"CU0000000001"}}"#,
            i + 1,
            first_lo + i as u64
        );
    }
    response.push(']');
    response
}

/// Scenario 1's baseline: the batch row, its license orders, assets and products, in one
/// transaction.
fn raw_batch(
    conn: &mut Connection,
    channel_order_id: &str,
    nums: &[String],
    products: &[RawProduct],
    customer: i64,
    ids: &mut Ids,
) -> rusqlite::Result<()> {
    let now = now_ms();
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let response = batch_response(nums.len(), ids.license_orders + 1);
    tx.prepare_cached(
        "INSERT INTO batches(channel_code, channel_order_id, app_key, body_hash, sync_mode, \
         state, request, response, created_at, applied_at) \
         VALUES ('CRM', ?1, 'ak_load', ?2, 'sync', 'applied', NULL, ?3, ?4, ?4)",
    )?
    .execute(params![
        channel_order_id,
        [7u8; 32].as_slice(),
        response,
        now
    ])?;
    let batch = tx.last_insert_rowid();
    {
        let mut order_stmt = tx.prepare_cached(
            "INSERT INTO license_orders(license_order_id, batch_id, sequence, customer_id, \
             order_type, license_type, src_license_order_id, created_at) \
             VALUES (?1, ?2, ?3, ?4, 'new_buy', 'normal_recover_usbkey', NULL, ?5)",
        )?;
        let mut asset_stmt = tx.prepare_cached(
            "INSERT INTO assets(asset_id, asset_num, license_type, customer_id, license_order_id, \
             key_shell_number, key_chip_type, borrowed_usb_key, limit_start, limit_end, \
             created_at, updated_at) \
             VALUES (?1, ?2, 'normal_recover_usbkey', ?3, ?4, ?2, 2, 0, NULL, NULL, ?5, ?5)",
        )?;
        let mut product_stmt = tx.prepare_cached(
            "INSERT INTO products(asset_id, license_order_id, merchandise_id, product_uri, \
             limit_start, limit_end, limit_concurrent, entry, created_at, product_name) \
             VALUES (?1, ?2, NULL, ?3, NULL, NULL, 1, ?4, ?5, ?6)",
        )?;
        for (i, num) in nums.iter().enumerate() {
            ids.license_orders += 1;
            order_stmt.execute(params![
                format!("LO{:010}", ids.license_orders),
                batch,
                (i + 1) as i64,
                customer,
                now
            ])?;
            let order = tx.last_insert_rowid();
            ids.assets += 1;
            asset_stmt.execute(params![
                format!("AS{:010}", ids.assets),
                num,
                customer,
                order,
                now
            ])?;
            let asset = tx.last_insert_rowid();
            for p in products {
                product_stmt.execute(params![asset, order, p.uri, p.entry, now, p.name])?;
            }
        }
    }
    tx.commit()
}

/// Assets for the lock baseline (setup, not measured).
fn raw_assets(conn: &mut Connection, nums: &[String], customer: i64) {
    let now = now_ms();
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .expect("tx");
    {
        let mut stmt = tx
            .prepare(
                "INSERT INTO assets(asset_id, asset_num, license_type, customer_id, \
                 key_shell_number, key_chip_type, created_at, updated_at) \
                 VALUES (?1, ?2, 'normal_recover_usbkey', ?3, ?2, 2, ?4, ?4)",
            )
            .expect("insert asset");
        for (i, num) in nums.iter().enumerate() {
            stmt.execute(params![format!("AS{:010}", i + 1), num, customer, now])
                .expect("asset");
        }
    }
    tx.commit().expect("commit");
}

/// Scenario 2's baseline: `UPDATE` of the same rows by asset number, one transaction.
fn raw_lock(conn: &mut Connection, nums: &[String], locked: bool) -> rusqlite::Result<()> {
    let now = now_ms();
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut stmt = tx.prepare_cached(
            "UPDATE assets SET locked = ?2, updated_at = ?3 WHERE asset_num = ?1",
        )?;
        for num in nums {
            let n = stmt.execute(params![num, locked, now])?;
            debug_assert_eq!(n, 1);
        }
    }
    tx.commit()
}

/// Scenario 3's baseline: the counter row updated in a transaction, then the numbers.
fn raw_shellnums(conn: &mut Connection, size: i64) -> rusqlite::Result<Vec<String>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.prepare_cached(
        "INSERT INTO counters(name, value) VALUES ('shellnum', 0) ON CONFLICT(name) DO NOTHING",
    )?
    .execute([])?;
    let last: i64 = tx
        .prepare_cached(
            "UPDATE counters SET value = value + ?1 WHERE name = 'shellnum' \
             AND value + ?1 <= 999999999 RETURNING value",
        )?
        .query_row([size], |r| r.get(0))?;
    tx.commit()?;
    Ok((last - size + 1..=last)
        .map(|n| format!("8{n:09}"))
        .collect())
}

/// An asset as the listing serializes it (2.3 of the interface; `wire::Asset`'s fields).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListedAsset {
    id: String,
    license_type: String,
    asset_num: String,
    grantable: bool,
    customer_id: String,
    key_shell_number: String,
    key_chip_type: i64,
    locked: bool,
    freezing: bool,
    create_time: i64,
    update_time: i64,
    limit_start_time: Option<i64>,
    limit_end_time: Option<i64>,
    assign_status: ListedAssign,
    asset_limits: Option<Value>,
    asset_extends: Vec<Value>,
    borrowed_usb_key: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    license_order_id: Option<String>,
    products: Vec<ListedProduct>,
}

/// A product of a listed asset (`wire::AssetProduct`'s fields).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListedProduct {
    product_uri: String,
    product_name: Option<String>,
    limit_start_date: Option<i64>,
    limit_end_date: Option<i64>,
    limit_concurrent: Option<i64>,
    license_order_id: Option<String>,
    activity_id: Option<String>,
    sub_activity_id: Option<String>,
    awaiting_activation: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListedAssign {
    id: String,
    assign_status: String,
    assign_member_id: String,
    create_time: String,
    update_time: Option<String>,
}

#[derive(Serialize)]
struct Envelope<T> {
    code: i32,
    message: &'static str,
    data: T,
}

/// Scenario 4's baseline: the listing's SELECTs (its assets, and since `1a28be1` their
/// products) on the platform's own file, and the answer serialized. Extension attributes are
/// left out: the listed assets have none.
fn raw_listing(conn: &mut Connection, enterprise_global_id: &str) -> rusqlite::Result<Vec<u8>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
    let enterprise: i64 = tx
        .prepare_cached("SELECT id FROM enterprises WHERE global_id = ?1")?
        .query_row([enterprise_global_id], |r| r.get(0))?;
    let mut products: HashMap<i64, Vec<ListedProduct>> = HashMap::new();
    {
        let mut stmt = tx.prepare_cached(
            "SELECT p.asset_id, p.product_uri, p.product_name, p.limit_start, p.limit_end, \
             p.limit_concurrent, lo.license_order_id, cl.activity_id, cl.unit_id, \
             p.awaiting_activation \
             FROM products p JOIN assets a ON a.id = p.asset_id \
             JOIN customers c ON c.id = a.customer_id \
             LEFT JOIN license_orders lo ON lo.id = p.license_order_id \
             LEFT JOIN claims cl ON cl.id = p.claim_id \
             WHERE c.enterprise_id = ?1 ORDER BY p.id",
        )?;
        let mut rows = stmt.query([enterprise])?;
        while let Some(r) = rows.next()? {
            products.entry(r.get(0)?).or_default().push(ListedProduct {
                product_uri: r.get(1)?,
                product_name: r.get(2)?,
                limit_start_date: r.get(3)?,
                limit_end_date: r.get(4)?,
                limit_concurrent: r.get(5)?,
                license_order_id: r.get(6)?,
                activity_id: r.get(7)?,
                sub_activity_id: r.get(8)?,
                awaiting_activation: r.get(9)?,
            });
        }
    }
    let mut out = Vec::new();
    {
        let mut stmt = tx.prepare_cached(
            "SELECT a.id, a.asset_id, a.license_type, a.asset_num, a.grantable, c.customer_id, \
             a.key_shell_number, a.key_chip_type, a.locked, a.freezing, a.created_at, a.updated_at, \
             a.limit_start, a.limit_end, a.assign_status, a.assign_member_id, a.borrowed_usb_key, \
             lo.license_order_id \
             FROM assets a JOIN customers c ON c.id = a.customer_id \
             LEFT JOIN license_orders lo ON lo.id = a.license_order_id \
             WHERE c.enterprise_id = ?1 ORDER BY a.id",
        )?;
        let mut rows = stmt.query([enterprise])?;
        while let Some(r) = rows.next()? {
            let row: i64 = r.get(0)?;
            let id: String = r.get(1)?;
            let created: i64 = r.get(10)?;
            out.push(ListedAsset {
                assign_status: ListedAssign {
                    id: id.clone(),
                    assign_status: r.get(14)?,
                    assign_member_id: r.get(15)?,
                    create_time: created.to_string(),
                    update_time: None,
                },
                id,
                license_type: r.get(2)?,
                asset_num: r.get(3)?,
                grantable: r.get(4)?,
                customer_id: r.get(5)?,
                key_shell_number: r.get(6)?,
                key_chip_type: r.get(7)?,
                locked: r.get(8)?,
                freezing: r.get(9)?,
                create_time: created,
                update_time: r.get(11)?,
                limit_start_time: r.get(12)?,
                limit_end_time: r.get(13)?,
                asset_limits: None,
                asset_extends: Vec::new(),
                borrowed_usb_key: r.get(16)?,
                license_order_id: r.get(17)?,
                products: products.remove(&row).unwrap_or_default(),
            });
        }
    }
    tx.commit()?;
    let json = serde_json::to_vec(&Envelope {
        code: 0,
        message: "success",
        data: out,
    })
    .expect("json");
    Ok(json)
}

// ---------------------------------------------------------------------------------------------
// Raw PostgreSQL baselines

/// A connection of the PostgreSQL baselines: tokio-postgres with a statement cache (as
/// rusqlite's `prepare_cached`), its connection task on the current runtime.
type PgConn = deadpool_postgres::ClientWrapper;

/// The app key and operator the baselines write into `nonce_log` and `lock_events`.
const RAW_APP_KEY: &str = "ak_load";
const RAW_OPERATOR: &str = "load@example.com";

async fn pg_connect(config: &tokio_postgres::Config) -> PgConn {
    let (client, connection) = config
        .connect(NoTls)
        .await
        .expect("connect to the test cluster");
    let task = tokio::spawn(async move {
        let _ = connection.await;
    });
    PgConn::new(client, task)
}

/// A fresh database of the test cluster with the platform's PostgreSQL schema (its schema
/// versions, in order, as `pg::migrate` applies them): its connection settings.
async fn fresh_pg_db() -> tokio_postgres::Config {
    let url = pg_cluster::database()
        .await
        .expect("PostgreSQL installed (checked in main)");
    let config: tokio_postgres::Config = url.parse().expect("the test cluster's URL");
    let conn = pg_connect(&config).await;
    for (_, sql) in platform::pg::MIGRATIONS {
        conn.batch_execute(sql).await.expect("schema");
    }
    config
}

/// One customer for a PostgreSQL baseline's rows to belong to; returns its row id.
async fn pg_customer(conn: &PgConn) -> i64 {
    conn.query_one(
        "INSERT INTO customers(customer_id, channel_code, channel_customer_id, customer_name, \
         created_at, updated_at) \
         VALUES ('CU0000000001', 'CRM', 'BENCH', '压测客户', $1, $1) RETURNING id",
        &[&now_ms()],
    )
    .await
    .expect("customer")
    .get(0)
}

/// A connection to a fresh baseline database with one customer (its row id), on `rt`.
fn fresh_pg(rt: &Runtime) -> (PgConn, i64) {
    rt.block_on(async {
        let conn = pg_connect(&fresh_pg_db().await).await;
        let customer = pg_customer(&conn).await;
        (conn, customer)
    })
}

/// A PostgreSQL baseline's wall time, run on `rt`.
fn pg_timed<T>(
    rt: &Runtime,
    f: impl Future<Output = Result<T, tokio_postgres::Error>>,
) -> (Duration, T) {
    rt.block_on(async {
        let t = Instant::now();
        let out = f.await.expect("PostgreSQL baseline");
        (t.elapsed(), out)
    })
}

/// Scenario 1's baseline on PostgreSQL: the batch row, its license orders, assets and products
/// (one asset per order, as the batch's), one multi-row statement per table, in one
/// transaction.
async fn pg_batch(
    conn: &mut PgConn,
    channel_order_id: &str,
    nums: &[String],
    products: &[RawProduct],
    customer: i64,
    ids: &mut Ids,
) -> Result<(), tokio_postgres::Error> {
    let now = now_ms();
    let response = batch_response(nums.len(), ids.license_orders + 1);
    let tx = conn.transaction().await?;
    let stmt = tx
        .prepare_cached(
            "INSERT INTO batches(channel_code, channel_order_id, app_key, body_hash, sync_mode, \
             state, request, response, created_at, applied_at) \
             VALUES ('CRM', $1, $2, $3, 'sync', 'applied', NULL, $4, $5, $5) RETURNING id",
        )
        .await?;
    let batch: i64 = tx
        .query_one(
            &stmt,
            &[
                &channel_order_id,
                &RAW_APP_KEY,
                &[7u8; 32].as_slice(),
                &response,
                &now,
            ],
        )
        .await?
        .try_get(0)?;
    let mut order_ids = Vec::with_capacity(nums.len());
    let mut asset_ids = Vec::with_capacity(nums.len());
    for _ in nums {
        ids.license_orders += 1;
        order_ids.push(format!("LO{:010}", ids.license_orders));
        ids.assets += 1;
        asset_ids.push(format!("AS{:010}", ids.assets));
    }
    let sequences: Vec<i64> = (1..=nums.len() as i64).collect();
    let stmt = tx
        .prepare_cached(
            "INSERT INTO license_orders(license_order_id, batch_id, sequence, customer_id, \
             order_type, license_type, src_license_order_id, created_at) \
             SELECT lo, $3, seq, $4, 'new_buy', 'normal_recover_usbkey', NULL, $5 \
             FROM UNNEST($1::text[], $2::bigint[]) AS t(lo, seq) RETURNING id, sequence",
        )
        .await?;
    // The orders' row ids in sequence order (RETURNING's order is not promised).
    let mut orders = vec![0i64; nums.len()];
    for r in tx
        .query(&stmt, &[&order_ids, &sequences, &batch, &customer, &now])
        .await?
    {
        let sequence: i64 = r.try_get(1)?;
        orders[(sequence - 1) as usize] = r.try_get(0)?;
    }
    let stmt = tx
        .prepare_cached(
            "INSERT INTO assets(asset_id, asset_num, license_type, customer_id, license_order_id, \
             key_shell_number, key_chip_type, borrowed_usb_key, limit_start, limit_end, \
             created_at, updated_at) \
             SELECT aid, num, 'normal_recover_usbkey', $4, lo, num, 2, false, NULL, NULL, $5, $5 \
             FROM UNNEST($1::text[], $2::text[], $3::bigint[]) AS t(aid, num, lo) \
             RETURNING id, license_order_id",
        )
        .await?;
    let assets = tx
        .query(&stmt, &[&asset_ids, &nums, &orders, &customer, &now])
        .await?;
    let rows = assets.len() * products.len();
    let (mut p_asset, mut p_order) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
    let (mut p_uri, mut p_entry, mut p_name) = (
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
        Vec::with_capacity(rows),
    );
    for r in &assets {
        let (asset, order): (i64, i64) = (r.try_get(0)?, r.try_get(1)?);
        for p in products {
            p_asset.push(asset);
            p_order.push(order);
            p_uri.push(p.uri.as_str());
            p_entry.push(p.entry.as_str());
            p_name.push(p.name.as_str());
        }
    }
    let stmt = tx
        .prepare_cached(
            "INSERT INTO products(asset_id, license_order_id, merchandise_id, product_uri, \
             limit_start, limit_end, limit_concurrent, entry, created_at, product_name) \
             SELECT a, lo, NULL, uri, NULL, NULL, 1, entry, $6, name \
             FROM UNNEST($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[]) \
             AS t(a, lo, uri, entry, name)",
        )
        .await?;
    tx.execute(
        &stmt,
        &[&p_asset, &p_order, &p_uri, &p_entry, &p_name, &now],
    )
    .await?;
    tx.commit().await
}

/// Assets for the PostgreSQL lock baselines (setup, not measured), numbered from `AS0000000001`.
async fn pg_assets(conn: &PgConn, nums: &[String], customer: i64) {
    let asset_ids: Vec<String> = (1..=nums.len()).map(|i| format!("AS{i:010}")).collect();
    conn.execute(
        "INSERT INTO assets(asset_id, asset_num, license_type, customer_id, key_shell_number, \
         key_chip_type, created_at, updated_at) \
         SELECT aid, num, 'normal_recover_usbkey', $3, num, 2, $4, $4 \
         FROM UNNEST($1::text[], $2::text[]) AS t(aid, num)",
        &[&asset_ids, &nums, &customer, &now_ms()],
    )
    .await
    .expect("assets");
}

/// Scenario 2's baseline on PostgreSQL: one `UPDATE` of the rows by asset number and their
/// `lock_events` rows, in one transaction.
async fn pg_lock(
    conn: &mut PgConn,
    nums: &[String],
    locked: bool,
) -> Result<(), tokio_postgres::Error> {
    let now = now_ms();
    let tx = conn.transaction().await?;
    let stmt = tx
        .prepare_cached("UPDATE assets SET locked = $2, updated_at = $3 WHERE asset_num = ANY($1)")
        .await?;
    let n = tx.execute(&stmt, &[&nums, &locked, &now]).await?;
    assert_eq!(n, nums.len() as u64, "assets updated");
    let stmt = tx
        .prepare_cached(
            "INSERT INTO lock_events(asset_num, locked, operator, app_key, at) \
             SELECT num, $2, $3, $4, $5 FROM UNNEST($1::text[]) AS t(num)",
        )
        .await?;
    tx.execute(&stmt, &[&nums, &locked, &RAW_OPERATOR, &RAW_APP_KEY, &now])
        .await?;
    tx.commit().await
}

/// Scenario 3's baseline on PostgreSQL: the counter row updated in a transaction, then the
/// numbers.
async fn pg_shellnums(conn: &mut PgConn, size: i64) -> Result<Vec<String>, tokio_postgres::Error> {
    let tx = conn.transaction().await?;
    let stmt = tx
        .prepare_cached(
            "INSERT INTO counters(name, value) VALUES ('shellnum', 0) \
             ON CONFLICT(name) DO NOTHING",
        )
        .await?;
    tx.execute(&stmt, &[]).await?;
    let stmt = tx
        .prepare_cached(
            "UPDATE counters SET value = value + $1 WHERE name = 'shellnum' \
             AND value + $1 <= 999999999 RETURNING value",
        )
        .await?;
    let last: i64 = tx.query_one(&stmt, &[&size]).await?.try_get(0)?;
    tx.commit().await?;
    Ok((last - size + 1..=last)
        .map(|n| format!("8{n:09}"))
        .collect())
}

/// Scenario 4's baseline on PostgreSQL: [`raw_listing`]'s two SELECTs in one snapshot, and
/// the answer serialized the same way.
async fn pg_listing(
    conn: &mut PgConn,
    enterprise_global_id: &str,
) -> Result<Vec<u8>, tokio_postgres::Error> {
    let tx = conn
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?;
    let stmt = tx
        .prepare_cached("SELECT id FROM enterprises WHERE global_id = $1")
        .await?;
    let enterprise: i64 = tx
        .query_one(&stmt, &[&enterprise_global_id])
        .await?
        .try_get(0)?;
    let mut products: HashMap<i64, Vec<ListedProduct>> = HashMap::new();
    let stmt = tx
        .prepare_cached(
            "SELECT p.asset_id, p.product_uri, p.product_name, p.limit_start, p.limit_end, \
             p.limit_concurrent, lo.license_order_id, cl.activity_id, cl.unit_id, \
             p.awaiting_activation \
             FROM products p JOIN assets a ON a.id = p.asset_id \
             JOIN customers c ON c.id = a.customer_id \
             LEFT JOIN license_orders lo ON lo.id = p.license_order_id \
             LEFT JOIN claims cl ON cl.id = p.claim_id \
             WHERE c.enterprise_id = $1 ORDER BY p.id",
        )
        .await?;
    for r in tx.query(&stmt, &[&enterprise]).await? {
        products
            .entry(r.try_get(0)?)
            .or_default()
            .push(ListedProduct {
                product_uri: r.try_get(1)?,
                product_name: r.try_get(2)?,
                limit_start_date: r.try_get(3)?,
                limit_end_date: r.try_get(4)?,
                limit_concurrent: r.try_get(5)?,
                license_order_id: r.try_get(6)?,
                activity_id: r.try_get(7)?,
                sub_activity_id: r.try_get(8)?,
                awaiting_activation: r.try_get(9)?,
            });
    }
    let stmt = tx
        .prepare_cached(
            "SELECT a.id, a.asset_id, a.license_type, a.asset_num, a.grantable, c.customer_id, \
             a.key_shell_number, a.key_chip_type, a.locked, a.freezing, a.created_at, a.updated_at, \
             a.limit_start, a.limit_end, a.assign_status, a.assign_member_id, a.borrowed_usb_key, \
             lo.license_order_id \
             FROM assets a JOIN customers c ON c.id = a.customer_id \
             LEFT JOIN license_orders lo ON lo.id = a.license_order_id \
             WHERE c.enterprise_id = $1 ORDER BY a.id",
        )
        .await?;
    let rows = tx.query(&stmt, &[&enterprise]).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let row: i64 = r.try_get(0)?;
        let id: String = r.try_get(1)?;
        let created: i64 = r.try_get(10)?;
        out.push(ListedAsset {
            assign_status: ListedAssign {
                id: id.clone(),
                assign_status: r.try_get(14)?,
                assign_member_id: r.try_get(15)?,
                create_time: created.to_string(),
                update_time: None,
            },
            id,
            license_type: r.try_get(2)?,
            asset_num: r.try_get(3)?,
            grantable: r.try_get(4)?,
            customer_id: r.try_get(5)?,
            key_shell_number: r.try_get(6)?,
            key_chip_type: r.try_get(7)?,
            locked: r.try_get(8)?,
            freezing: r.try_get(9)?,
            create_time: created,
            update_time: r.try_get(11)?,
            limit_start_time: r.try_get(12)?,
            limit_end_time: r.try_get(13)?,
            asset_limits: None,
            asset_extends: Vec::new(),
            borrowed_usb_key: r.try_get(16)?,
            license_order_id: r.try_get(17)?,
            products: products.remove(&row).unwrap_or_default(),
        });
    }
    tx.commit().await?;
    let json = serde_json::to_vec(&Envelope {
        code: 0,
        message: "success",
        data: out,
    })
    .expect("json");
    Ok(json)
}

/// The body of a lock or unlock call, as scenario 5's PostgreSQL handler reads it.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct LockCall {
    asset_nums: Vec<String>,
    operator_identity: String,
}

/// Scenario 5's PostgreSQL baseline: per call, one transaction on a pooled connection with the
/// statements of a lock call (the nonce spent, the asset updated, its event written), then the
/// bare handler's fixed envelope.
async fn pg_lock_handler(
    pool: deadpool_postgres::Pool,
    locked: bool,
    uri: axum::http::Uri,
    body: LockCall,
) -> Result<([(axum::http::HeaderName, &'static str); 1], &'static str), (StatusCode, String)> {
    let failed = |e: &dyn std::fmt::Display| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    let nonce = form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "g_nonce")
        .map(|(_, v)| v.into_owned())
        .ok_or((StatusCode::BAD_REQUEST, "no g_nonce".to_owned()))?;
    let num = body
        .asset_nums
        .first()
        .ok_or((StatusCode::BAD_REQUEST, "no asset".to_owned()))?;
    let now = now_ms();
    let mut conn = pool.get().await.map_err(|e| failed(&e))?;
    let tx = conn.transaction().await.map_err(|e| failed(&e))?;
    let run = async {
        // The current generation of a fresh database (schema4.sql).
        let stmt = tx
            .prepare_cached("INSERT INTO nonce_log(generation, app_key, nonce) VALUES (1, $1, $2)")
            .await?;
        tx.execute(&stmt, &[&RAW_APP_KEY, &nonce]).await?;
        let stmt = tx
            .prepare_cached(
                "UPDATE assets SET locked = $2, updated_at = $3 WHERE asset_num = $1 \
                 RETURNING id, license_type",
            )
            .await?;
        let updated = tx.query_opt(&stmt, &[num, &locked, &now]).await?;
        let stmt = tx
            .prepare_cached(
                "INSERT INTO lock_events(asset_num, locked, operator, app_key, at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .await?;
        tx.execute(
            &stmt,
            &[num, &locked, &body.operator_identity, &RAW_APP_KEY, &now],
        )
        .await?;
        Ok::<_, tokio_postgres::Error>(updated.is_some())
    };
    match run.await {
        Ok(true) => {}
        Ok(false) => return Err((StatusCode::NOT_FOUND, format!("no asset {num}"))),
        Err(e) => return Err(failed(&e)),
    }
    tx.commit().await.map_err(|e| failed(&e))?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        BARE_REPLY,
    ))
}

// ---------------------------------------------------------------------------------------------
// Scenarios

/// Where a scenario's raw baseline runs, on the platform's store.
enum RawDb {
    Sqlite {
        conn: Connection,
        /// The temp dir of its file when the baseline made it (dropped after the connection).
        _dir: Option<TempDir>,
    },
    Postgres(PgConn),
}

impl RawDb {
    /// A fresh database with the platform's schema and one customer (its row id).
    fn fresh(client_rt: &Runtime, store: Store) -> (RawDb, i64) {
        match store {
            Store::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let conn = fresh_db(dir.path());
                let customer = raw_customer(&conn);
                (
                    RawDb::Sqlite {
                        conn,
                        _dir: Some(dir),
                    },
                    customer,
                )
            }
            Store::Postgres => {
                let (conn, customer) = fresh_pg(client_rt);
                (RawDb::Postgres(conn), customer)
            }
        }
    }
}

/// 1. A batch of 1000 orders (sync), five products each, one asset per order.
fn batch_scenario(server_rt: &Runtime, client_rt: &Runtime, store: Store) -> Vec<Row> {
    eprintln!("[1] batch of {BATCH_ORDERS} orders x {BATCH_PRODUCTS} products, {BATCH_REPS} reps");
    let p = Platform::start(server_rt, client_rt, store);
    let (mut raw, customer) = RawDb::fresh(client_rt, store);
    if let RawDb::Sqlite { conn, .. } = &raw {
        check_schema(conn, &p.db_path());
    }
    let uris = product_uris(BATCH_PRODUCTS);
    let products: Vec<RawProduct> = uris
        .iter()
        .map(|uri| RawProduct {
            uri: uri.clone(),
            name: format!("产品 {uri}"),
            entry: json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": 1})
                .to_string(),
        })
        .collect();
    let mut ids = Ids::default();
    let mut samples = Vec::new();
    let mut base = Vec::new();
    // Repetition 0 warms both up (and creates the platform's customer).
    for rep in 0..=BATCH_REPS {
        // New asset numbers and a new channelOrderId every time.
        let nums: Vec<String> = (0..BATCH_ORDERS)
            .map(|i| format!("1{:09}", rep * BATCH_ORDERS + i))
            .collect();
        let channel_order_id = format!("LOAD-BATCH-{rep}");
        let orders = nums
            .chunks(1)
            .enumerate()
            .map(|(i, asset)| new_buy(i + 1, "LOAD-C1", asset, &uris))
            .collect();
        let body = batch_body(&channel_order_id, orders);
        let (took, status, bytes) = client_rt.block_on(timed(p.client.batch(body)));
        let data = data_of(status, &bytes);
        assert_eq!(data.as_array().map(Vec::len), Some(BATCH_ORDERS));

        let raw_took = match &mut raw {
            RawDb::Sqlite { conn, .. } => {
                let t = Instant::now();
                raw_batch(
                    conn,
                    &channel_order_id,
                    &nums,
                    &products,
                    customer,
                    &mut ids,
                )
                .expect("raw batch");
                t.elapsed()
            }
            RawDb::Postgres(conn) => {
                let batch = pg_batch(
                    conn,
                    &channel_order_id,
                    &nums,
                    &products,
                    customer,
                    &mut ids,
                );
                pg_timed(client_rt, batch).0
            }
        };
        if rep > 0 {
            samples.push(took);
            base.push(raw_took);
        }
    }
    p.stop(server_rt);
    drop(raw);
    let baseline = match store {
        Store::Sqlite => "raw SQLite INSERTs (batch, orders, assets, products), 1 tx",
        Store::Postgres => {
            "raw PostgreSQL: batch row + INSERT … SELECT FROM UNNEST per table (orders, assets, products), 1 tx"
        }
    };
    vec![Row {
        scenario: format!(
            "1. batch order, {BATCH_ORDERS} orders × {BATCH_PRODUCTS} products, sync"
        ),
        unit: "orders",
        platform: Measured::sequential(samples, BATCH_ORDERS),
        baseline: Some((baseline, Measured::sequential(base, BATCH_ORDERS))),
        target: Target::MedianWithin(3.0),
    }]
}

/// A call's wall time with its answer.
async fn timed(call: impl Future<Output = (u16, Vec<u8>)>) -> (Duration, u16, Vec<u8>) {
    let t = Instant::now();
    let (status, bytes) = call.await;
    (t.elapsed(), status, bytes)
}

/// 2. Locking (then unlocking, alternately) 10,000 assets in one call.
fn lock_scenario(server_rt: &Runtime, client_rt: &Runtime, store: Store) -> Vec<Row> {
    eprintln!("[2] lock/unlock {LOCK_ASSETS} assets per call, {LOCK_REPS} reps");
    let p = Platform::start(server_rt, client_rt, store);
    let nums: Vec<String> = (0..LOCK_ASSETS).map(|i| format!("2{i:09}")).collect();
    let setup = Instant::now();
    create_assets(client_rt, &p.client, "LOAD-L", &nums, 5000, 1, "LOCK");
    let (mut raw, customer) = RawDb::fresh(client_rt, store);
    match &mut raw {
        RawDb::Sqlite { conn, .. } => raw_assets(conn, &nums, customer),
        RawDb::Postgres(conn) => client_rt.block_on(pg_assets(conn, &nums, customer)),
    }
    eprintln!("    setup {:.1} s", setup.elapsed().as_secs_f64());
    let body = lock_body(&nums);
    let mut samples = Vec::new();
    let mut base = Vec::new();
    for rep in 0..=LOCK_REPS {
        // Even repetitions lock, odd ones unlock: every call changes every asset.
        let locking = rep % 2 == 0;
        let path = if locking { LOCK_PATH } else { UNLOCK_PATH };
        let (took, status, bytes) = client_rt.block_on(timed(p.client.post(path, body.clone())));
        let data = data_of(status, &bytes);
        let results = data.as_array().expect("results");
        assert_eq!(results.len(), LOCK_ASSETS);
        assert!(results.iter().all(|r| r["status"] == json!(1)));

        let raw_took = match &mut raw {
            RawDb::Sqlite { conn, .. } => {
                let t = Instant::now();
                raw_lock(conn, &nums, locking).expect("raw lock");
                t.elapsed()
            }
            RawDb::Postgres(conn) => pg_timed(client_rt, pg_lock(conn, &nums, locking)).0,
        };
        if rep > 0 {
            samples.push(took);
            base.push(raw_took);
        }
    }
    p.stop(server_rt);
    drop(raw);
    let (baseline, target) = match store {
        Store::Sqlite => (
            "raw SQLite UPDATE by asset_num, 1 tx",
            Target::Informational,
        ),
        Store::Postgres => (
            "raw PostgreSQL UPDATE … WHERE asset_num = ANY($1) + lock_events INSERT … SELECT FROM UNNEST, 1 tx",
            Target::MedianWithin(3.0),
        ),
    };
    vec![Row {
        scenario: format!("2. lock/unlock {LOCK_ASSETS} assets in one call"),
        unit: "assets",
        platform: Measured::sequential(samples, LOCK_ASSETS),
        baseline: Some((baseline, Measured::sequential(base, LOCK_ASSETS))),
        target,
    }]
}

/// 3. Asset numbers, 1000 per call.
fn shellnums_scenario(server_rt: &Runtime, client_rt: &Runtime, store: Store) -> Vec<Row> {
    const WARMUP: usize = 20;
    eprintln!("[3] shellnums size {SHELLNUMS_SIZE}, {SHELLNUMS_REPS} reps");
    let p = Platform::start(server_rt, client_rt, store);
    let (mut raw, _) = RawDb::fresh(client_rt, store);
    let body = serde_json::to_vec(&json!({ "size": SHELLNUMS_SIZE })).expect("json");
    let mut samples = Vec::new();
    let mut base = Vec::new();
    for rep in 0..WARMUP + SHELLNUMS_REPS {
        let (took, status, bytes) =
            client_rt.block_on(timed(p.client.post(SHELLNUMS_PATH, body.clone())));
        let data = data_of(status, &bytes);
        assert_eq!(data.as_array().map(Vec::len), Some(SHELLNUMS_SIZE));

        let (raw_took, nums) = match &mut raw {
            RawDb::Sqlite { conn, .. } => {
                let t = Instant::now();
                let nums = raw_shellnums(conn, SHELLNUMS_SIZE as i64).expect("raw shellnums");
                (t.elapsed(), nums)
            }
            RawDb::Postgres(conn) => pg_timed(client_rt, pg_shellnums(conn, SHELLNUMS_SIZE as i64)),
        };
        assert_eq!(nums.len(), SHELLNUMS_SIZE);
        assert_eq!(data[SHELLNUMS_SIZE - 1], json!(nums[SHELLNUMS_SIZE - 1]));
        if rep >= WARMUP {
            samples.push(took);
            base.push(raw_took);
        }
    }
    p.stop(server_rt);
    drop(raw);
    let baseline = match store {
        Store::Sqlite => "raw SQLite counter UPDATE, 1 tx + format 1000 strings",
        Store::Postgres => "raw PostgreSQL counter UPDATE, 1 tx + format 1000 strings",
    };
    vec![Row {
        scenario: format!("3. shellnums, size {SHELLNUMS_SIZE}"),
        unit: "numbers",
        platform: Measured::sequential(samples, SHELLNUMS_SIZE),
        baseline: Some((baseline, Measured::sequential(base, SHELLNUMS_SIZE))),
        target: Target::Informational,
    }]
}

/// 4. The asset listing of an enterprise with 100,000 assets.
fn listing_scenario(server_rt: &Runtime, client_rt: &Runtime, store: Store) -> Vec<Row> {
    eprintln!("[4] asset listing of {LIST_ASSETS} assets, {LIST_REPS} reps");
    let p = Platform::start(server_rt, client_rt, store);
    let crm = "CRM-LOAD";
    let setup = Instant::now();
    let egid = client_rt.block_on(async {
        let body = serde_json::to_vec(&json!({"crmCustomerId": crm, "customerName": "压测企业"}))
            .expect("json");
        let (status, bytes) = p.client.post(CREATE_PATH, body).await;
        data_of(status, &bytes)["enterpriseGlobalId"]
            .as_str()
            .expect("enterpriseGlobalId")
            .to_owned()
    });
    let nums: Vec<String> = (0..LIST_ASSETS).map(|i| format!("4{i:09}")).collect();
    create_assets(
        client_rt,
        &p.client,
        crm,
        &nums,
        LIST_SETUP_ORDERS,
        LIST_SETUP_ASSETS_PER_ORDER,
        "LIST",
    );
    eprintln!("    setup {:.1} s", setup.elapsed().as_secs_f64());
    let path = format!("/order/api/order/v1/asset/{egid}/list");
    // The baseline reads the platform's own database (the same rows) while the platform idles.
    let mut raw = match &p.database {
        None => RawDb::Sqlite {
            conn: open_like_platform(&p.db_path(), true),
            _dir: None,
        },
        Some(db) => RawDb::Postgres(client_rt.block_on(pg_connect(db.config()))),
    };
    let mut samples = Vec::new();
    let mut base = Vec::new();
    for rep in 0..=LIST_REPS {
        let (took, status, answer) =
            client_rt.block_on(timed(p.client.call(Method::GET, &path, &[], None)));
        assert_eq!(status, 200);
        if rep == 0 {
            let data = data_of(status, &answer);
            assert_eq!(data.as_array().map(Vec::len), Some(LIST_ASSETS));
        } else {
            samples.push(took);
        }
        let (raw_took, json) = match &mut raw {
            RawDb::Sqlite { conn, .. } => {
                let t = Instant::now();
                let json = raw_listing(conn, &egid).expect("raw listing");
                (t.elapsed(), json)
            }
            RawDb::Postgres(conn) => pg_timed(client_rt, pg_listing(conn, &egid)),
        };
        if rep == 0 {
            compare_listing(&json, &answer);
        } else {
            base.push(raw_took);
        }
    }
    drop(raw);
    p.stop(server_rt);
    let (baseline, target) = match store {
        Store::Sqlite => (
            "raw SQLite SELECTs (assets, their products) + serde_json",
            Target::Informational,
        ),
        Store::Postgres => (
            "raw PostgreSQL SELECTs (assets, their products), 1 read-only tx + serde_json",
            Target::MedianWithin(1.5),
        ),
    };
    vec![Row {
        scenario: format!("4. asset listing, {LIST_ASSETS} assets"),
        unit: "assets",
        platform: Measured::sequential(samples, LIST_ASSETS),
        baseline: Some((baseline, Measured::sequential(base, LIST_ASSETS))),
        target,
    }]
}

/// Whether the baseline produced the platform's answer byte for byte.
fn compare_listing(raw: &[u8], answer: &[u8]) {
    if raw == answer {
        eprintln!(
            "    baseline JSON is byte-identical to the platform's answer ({:.1} MB)",
            raw.len() as f64 / 1e6
        );
        return;
    }
    let at = raw
        .iter()
        .zip(answer)
        .position(|(a, b)| a != b)
        .unwrap_or(raw.len().min(answer.len()));
    let around = |b: &[u8]| {
        String::from_utf8_lossy(&b[at.saturating_sub(200)..(at + 200).min(b.len())]).into_owned()
    };
    eprintln!(
        "    NOTE: the baseline's JSON ({} bytes) differs from the platform's answer ({} bytes) \
         at byte {at}:\n    baseline: …{}…\n    platform: …{}…",
        raw.len(),
        answer.len(),
        around(raw),
        around(answer)
    );
}

/// Scenario 5: one asset per lock call from 8 concurrent clients, against a bare axum
/// handler (and on PostgreSQL, one that runs the call's statements), in alternating rounds.
fn small_calls_scenario(server_rt: &Runtime, client_rt: &Runtime, store: Store) -> Vec<Row> {
    eprintln!(
        "[5] {SMALL_CLIENTS} concurrent clients, one asset per lock/unlock call, {SMALL_ROUNDS} \
         alternating rounds of {} ms each",
        SMALL_ROUND.as_millis()
    );
    let nums: Vec<String> = (0..SMALL_CLIENTS).map(|i| format!("5{i:09}")).collect();
    // The baselines on their own loopback ports, beside the platform.
    let bare = serve_baseline(
        server_rt,
        Router::new()
            .route(LOCK_PATH, post(bare_handler))
            .route(UNLOCK_PATH, post(bare_handler)),
    );
    let with_pg = (store == Store::Postgres).then(|| {
        let pool = server_rt.block_on(async {
            let config = fresh_pg_db().await;
            let conn = pg_connect(&config).await;
            pg_assets(&conn, &nums, pg_customer(&conn).await).await;
            let manager = deadpool_postgres::Manager::from_config(
                config,
                NoTls,
                deadpool_postgres::ManagerConfig {
                    recycling_method: deadpool_postgres::RecyclingMethod::Fast,
                },
            );
            deadpool_postgres::Pool::builder(manager)
                .max_size(16)
                .runtime(deadpool_postgres::Runtime::Tokio1)
                .build()
                .expect("pool")
        });
        let lock = {
            let pool = pool.clone();
            move |uri: axum::http::Uri, axum::Json(body): axum::Json<LockCall>| {
                pg_lock_handler(pool.clone(), true, uri, body)
            }
        };
        let unlock = move |uri: axum::http::Uri, axum::Json(body): axum::Json<LockCall>| {
            pg_lock_handler(pool.clone(), false, uri, body)
        };
        serve_baseline(
            server_rt,
            Router::new()
                .route(LOCK_PATH, post(lock))
                .route(UNLOCK_PATH, post(unlock)),
        )
    });
    let p = Platform::start(server_rt, client_rt, store);
    create_assets(
        client_rt,
        &p.client,
        "LOAD-S",
        &nums,
        SMALL_CLIENTS,
        1,
        "SMALL",
    );
    let (bare_measured, pg_measured, platform) = client_rt.block_on(async {
        let bare_clients = own_connections(&bare.client, SMALL_CLIENTS);
        let pg_clients = with_pg
            .as_ref()
            .map(|pg| own_connections(&pg.client, SMALL_CLIENTS));
        let platform_clients = own_connections(&p.client, SMALL_CLIENTS);
        let _ = run_clients(&bare_clients, &nums, SMALL_WARMUP).await;
        if let Some(pg_clients) = &pg_clients {
            let _ = run_clients(pg_clients, &nums, SMALL_WARMUP).await;
        }
        let _ = run_clients(&platform_clients, &nums, SMALL_WARMUP).await;
        let (mut bare, mut pg, mut platform) =
            (Rounds::default(), Rounds::default(), Rounds::default());
        for _ in 0..SMALL_ROUNDS {
            bare.add(run_clients(&bare_clients, &nums, SMALL_ROUND).await);
            if let Some(pg_clients) = &pg_clients {
                pg.add(run_clients(pg_clients, &nums, SMALL_ROUND).await);
            }
            platform.add(run_clients(&platform_clients, &nums, SMALL_ROUND).await);
        }
        let pg = pg_clients.is_some().then(|| pg.measured());
        (bare.measured(), pg, platform.measured())
    });
    bare.stop(server_rt);
    if let Some(pg) = with_pg {
        pg.stop(server_rt);
    }
    p.stop(server_rt);
    let scenario =
        format!("5. small calls: lock/unlock 1 asset, {SMALL_CLIENTS} concurrent clients");
    let bare_name = "bare axum handler (Json body → fixed envelope, no database), same client, alternating rounds";
    match pg_measured {
        None => vec![Row {
            scenario,
            unit: "req",
            platform,
            baseline: Some((bare_name, bare_measured)),
            target: Target::ThroughputAtLeast(0.5),
        }],
        Some(pg) => vec![
            Row {
                scenario: scenario.clone(),
                unit: "req",
                platform,
                baseline: Some((
                    "axum handler, per call 1 PostgreSQL tx (nonce_log INSERT, UPDATE assets … RETURNING, lock_events INSERT; pool of 16) → fixed envelope, same client, alternating rounds",
                    pg,
                )),
                target: Target::ThroughputAtLeast(0.5),
            },
            Row {
                scenario: format!("{scenario}, PostgreSQL, beside no database"),
                unit: "req",
                platform,
                baseline: Some((bare_name, bare_measured)),
                target: Target::Informational,
            },
        ],
    }
}

/// An axum server of a baseline on a loopback port of `server_rt`, with a client of it.
struct Baseline {
    client: Client,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

fn serve_baseline(server_rt: &Runtime, app: Router) -> Baseline {
    let (base, stop, task) = server_rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = stopped.await;
                })
                .await
                .expect("baseline server");
        });
        (format!("http://{addr}"), stop, task)
    });
    Baseline {
        client: Client {
            http: http_client(),
            base,
            token: "bare-token".to_owned(),
            app_key: String::new(),
        },
        stop,
        task,
    }
}

impl Baseline {
    fn stop(self, server_rt: &Runtime) {
        // Idle keep-alive connections go with the client, so the graceful shutdown is quick.
        drop(self.client);
        let _ = self.stop.send(());
        server_rt.block_on(async {
            let _ = self.task.await;
        });
    }
}

/// Scenario 5 on two instances of the platform on one PostgreSQL database, half the clients on
/// each, beside all of them on one instance, in alternating rounds (5b); with PostgreSQL `far`
/// away, one instance alone (5c) and the two beside it (5d): only with a latency to the
/// database does an instance wait, and only then does a second show whether anything
/// serialises them.
fn two_instances_scenario(
    server_rt: &Runtime,
    client_rt: &Runtime,
    far: Option<Duration>,
) -> Vec<Row> {
    let away = far.map_or_else(String::new, |d| {
        format!(", {} ms to PostgreSQL", d.as_millis())
    });
    eprintln!("[5b/5d] the same on two instances on one PostgreSQL database, beside one{away}");
    // Near, the small calls' clients; far, enough to keep one instance's pool of 16 busy (a
    // call holds a connection for the ~5 round trips of its transaction), or else the
    // clients, not the instances, are what is measured.
    let clients = if far.is_some() {
        FAR_CLIENTS
    } else {
        SMALL_CLIENTS
    };
    let mut p = Platform::start_far(server_rt, client_rt, Store::Postgres, far);
    let second_base = p.second_instance(server_rt);
    let nums: Vec<String> = (0..clients).map(|i| format!("5{i:09}")).collect();
    create_assets(client_rt, &p.client, "LOAD-S", &nums, clients, 1, "SMALL");
    let (one, two) = client_rt.block_on(async {
        let one_clients = own_connections(&p.client, clients);
        let mut two_clients = own_connections(&p.client, clients);
        // The token is the platform's, so either instance accepts it.
        for client in two_clients.iter_mut().skip(1).step_by(2) {
            client.base.clone_from(&second_base);
        }
        let _ = run_clients(&one_clients, &nums, SMALL_WARMUP).await;
        let _ = run_clients(&two_clients, &nums, SMALL_WARMUP).await;
        let (mut one, mut two) = (Rounds::default(), Rounds::default());
        for _ in 0..SMALL_ROUNDS {
            one.add(run_clients(&one_clients, &nums, SMALL_ROUND).await);
            two.add(run_clients(&two_clients, &nums, SMALL_ROUND).await);
        }
        (one.measured(), two.measured())
    });
    p.stop(server_rt);
    let (label, letter) = if far.is_some() {
        ("5d", "5c")
    } else {
        ("5b", "")
    };
    let mut rows = Vec::new();
    if far.is_some() {
        rows.push(Row {
            scenario: format!("{letter}. small calls, {clients} clients, one instance{away}"),
            unit: "req",
            platform: one,
            baseline: None,
            target: Target::Informational,
        });
    }
    rows.push(Row {
        scenario: format!(
            "{label}. small calls, {clients} clients on two instances, one PostgreSQL database{away}"
        ),
        unit: "req",
        platform: two,
        baseline: Some(("the same clients on one instance, alternating rounds", one)),
        // Nothing serialises two instances once each waits for the database (issue 57).
        target: if far.is_some() {
            Target::ThroughputAtLeast(1.8)
        } else {
            Target::Informational
        },
    });
    rows
}

/// A URL of the same database through a proxy that delays each way by `each_way`.
async fn through_delay(url: &str, each_way: Duration) -> (String, DelayProxy) {
    let (head, rest) = url.split_once("@127.0.0.1:").expect("a loopback cluster");
    let (port, tail) = rest.split_once('/').expect("a database");
    let upstream = format!("127.0.0.1:{port}").parse().expect("an address");
    let proxy = DelayProxy::start(upstream, each_way).await;
    (format!("{head}@{}/{tail}", proxy.addr), proxy)
}

/// Latencies and wall time added up over rounds.
#[derive(Default)]
struct Rounds {
    latencies: Vec<Duration>,
    wall: Duration,
}

impl Rounds {
    fn add(&mut self, (latencies, wall): (Vec<Duration>, Duration)) {
        self.latencies.extend(latencies);
        self.wall += wall;
    }

    fn measured(self) -> Measured {
        Measured::concurrent(self.latencies, self.wall)
    }
}

/// `n` copies of `client`, each with its own connection pool (so its own connection).
fn own_connections(client: &Client, n: usize) -> Vec<Client> {
    (0..n)
        .map(|_| Client {
            http: http_client(),
            ..client.clone()
        })
        .collect()
}

async fn bare_handler(
    axum::Json(_body): axum::Json<Value>,
) -> ([(axum::http::HeaderName, &'static str); 1], &'static str) {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        BARE_REPLY,
    )
}

/// One task per client and asset, toggling it with lock and unlock calls until `duration`
/// has passed; every latency, and the wall time.
async fn run_clients(
    clients: &[Client],
    assets: &[String],
    duration: Duration,
) -> (Vec<Duration>, Duration) {
    let started = Instant::now();
    let deadline = started + duration;
    let tasks: Vec<_> = clients
        .iter()
        .zip(assets)
        .map(|(client, asset)| {
            let client = client.clone();
            let body = lock_body(std::slice::from_ref(asset));
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut locking = true;
                while Instant::now() < deadline {
                    let path = if locking { LOCK_PATH } else { UNLOCK_PATH };
                    locking = !locking;
                    let b = body.clone();
                    let t = Instant::now();
                    let (status, bytes) = client.post(path, b).await;
                    latencies.push(t.elapsed());
                    if status != 200 || !bytes.starts_with(br#"{"code":0,"#) {
                        panic!(
                            "HTTP {status}: {}",
                            String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
                        );
                    }
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in futures::future::join_all(tasks).await {
        all.extend(t.expect("client task"));
    }
    (all, started.elapsed())
}

/// Scenario 6: another client's small read (a customer query: a read, and its nonce spent)
/// while the largest batch the limits allow is applied, beside the same read alone.
fn busy_writer_scenario(server_rt: &Runtime, client_rt: &Runtime, store: Store) -> Vec<Row> {
    eprintln!("[6] small reads during the largest allowed batch, {BUSY_REPS} reps");
    let p = Platform::start(server_rt, client_rt, store);
    let uris = product_uris(5);
    let query = [("channelCode", "CRM"), ("channelCustomerId", "LOAD-NOBODY")];
    let read = |c: Client| async move {
        let (took, status, _) = timed(c.call(Method::GET, QUERY_PATH, &query, None)).await;
        assert_eq!(status, 200, "query");
        took
    };
    let (mut during, mut alone, mut batches) = (Vec::new(), Vec::new(), Vec::new());
    for rep in 0..=BUSY_REPS {
        let orders: Vec<Value> = (0..BUSY_ORDERS)
            .map(|i| {
                let n = (rep * BUSY_ORDERS + i) * 2;
                let assets = [format!("6{n:09}"), format!("6{:09}", n + 1)];
                new_buy(i + 1, "LOAD-BUSY", &assets, &uris)
            })
            .collect();
        let body = batch_body(&format!("LOAD-BUSY-{rep}"), orders);
        let client = p.client.clone();
        let (took, reads) = client_rt.block_on(async {
            let batch = tokio::spawn(async move { timed(client.batch(body)).await });
            let mut reads = Vec::new();
            while !batch.is_finished() {
                reads.push(read(p.client.clone()).await);
            }
            let (took, status, bytes) = batch.await.expect("the batch task");
            assert_eq!(
                data_of(status, &bytes).as_array().map(Vec::len),
                Some(BUSY_ORDERS)
            );
            (took, reads)
        });
        let quiet: Vec<Duration> = client_rt.block_on(async {
            let mut quiet = Vec::new();
            for _ in 0..reads.len().max(20) {
                quiet.push(read(p.client.clone()).await);
            }
            quiet
        });
        if rep > 0 {
            batches.push(took);
            during.extend(reads);
            alone.extend(quiet);
        }
    }
    p.stop(server_rt);
    batches.sort_unstable();
    let longest = batches.last().copied().unwrap_or_default();
    vec![Row {
        scenario: format!(
            "6. small read (customer query) while the largest allowed batch runs ({BUSY_ORDERS} orders × 2 asset numbers × 5 products; the batch took at most {})",
            fmt_dur(longest)
        ),
        unit: "reads",
        platform: Measured::sequential(during, 1),
        baseline: Some((
            "the same read with nothing else running",
            Measured::sequential(alone, 1),
        )),
        target: Target::Informational,
    }]
}
