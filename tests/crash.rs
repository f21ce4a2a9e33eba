//! Crash durability: a stream of batch orders and claims against `license-desk serve`, killed
//! with SIGKILL at random moments and restarted; every answered order and claim must be there,
//! and no batch may be half applied.
//!
//! `cargo test --test crash` runs 3 kills (CI). `scripts/crash-test.sh 25` runs the release
//! binary through 25 kills and prints the figures (`CRASH_KILLS`, `CRASH_BIN`, `CRASH_SEED`).
//! With `LICENSE_DESK_STORE=postgres` the platform keeps its data in a database of a throwaway
//! PostgreSQL cluster (`serve --database`), and the same is checked there.
#![cfg(unix)]

use test_support::pg_cluster;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Orders per batch, assets per order, products per asset.
const ORDERS: usize = 3;
const ASSETS: usize = 2;
const PRODUCTS: usize = 3;
const WRITERS: usize = 4;

fn bin() -> PathBuf {
    std::env::var_os("CRASH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_license-desk")))
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Where the platform keeps its data: a data directory, or a PostgreSQL database.
enum Place {
    Dir(PathBuf),
    Database(String),
}

impl Place {
    /// `--data DIR` or `--database URL`.
    fn args(&self) -> [&std::ffi::OsStr; 2] {
        match self {
            Self::Dir(dir) => ["--data".as_ref(), dir.as_os_str()],
            Self::Database(url) => ["--database".as_ref(), url.as_ref()],
        }
    }

    async fn open(&self) -> Db {
        match self {
            Self::Dir(dir) => {
                let db = rusqlite::Connection::open(dir.join("platform.sqlite3")).expect("db");
                db.busy_timeout(Duration::from_secs(5)).expect("timeout");
                Db::Sqlite(db)
            }
            Self::Database(url) => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .expect("connect");
                tokio::spawn(connection);
                Db::Postgres(client)
            }
        }
    }
}

/// The platform's store, read back.
enum Db {
    Sqlite(rusqlite::Connection),
    Postgres(tokio_postgres::Client),
}

impl Db {
    /// Rows of five columns: text, text and three counts.
    async fn rows5(&self, sql: &str) -> Vec<(String, String, i64, i64, i64)> {
        match self {
            Self::Sqlite(db) => {
                let mut stmt = db.prepare(sql).expect("prepare");
                stmt.query_map([], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })
                .expect("query")
                .collect::<Result<_, _>>()
                .expect("rows")
            }
            Self::Postgres(client) => client
                .query(sql, &[])
                .await
                .expect(sql)
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
                .collect(),
        }
    }

    /// A count, with one text parameter or none (`?1` on SQLite, `$1` on PostgreSQL).
    async fn count(&self, sql: &str, param: Option<&str>) -> i64 {
        match self {
            Self::Sqlite(db) => db
                .query_row(sql, rusqlite::params_from_iter(param), |r| r.get(0))
                .expect(sql),
            Self::Postgres(client) => {
                let sql = sql.replace("?1", "$1");
                match param {
                    Some(p) => client.query_one(&sql, &[&p]).await,
                    None => client.query_one(&sql, &[]).await,
                }
                .expect(&sql)
                .get(0)
            }
        }
    }
}

fn serve(place: &Place, activities: &Path) -> (Child, String) {
    let mut child = Command::new(bin())
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(place.args())
        .arg("--activities")
        .arg(activities)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("listening line");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected {line:?}"))
        .to_owned();
    (child, base)
}

struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
    app_key: String,
}

impl Client {
    async fn connect(base: String, app: &Value) -> Client {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .expect("client");
        let key = app["appKey"].as_str().expect("key").to_owned();
        let token: Value = http
            .post(format!("{base}/v3/api/oauth2/token"))
            .basic_auth(&key, app["appSecret"].as_str())
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .expect("token")
            .json()
            .await
            .expect("json");
        Client {
            http,
            base,
            token: token["access_token"].as_str().expect("token").to_owned(),
            app_key: key,
        }
    }

    /// The answer's JSON, or `None` when the call got no answer (the server died).
    async fn post(&self, path: &str, nonce: &str, body: &Value) -> Option<Value> {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .query(&[("g_nonce", nonce), ("appKey", self.app_key.as_str())])
            .bearer_auth(&self.token)
            .json(body)
            .send()
            .await
            .ok()?;
        r.json().await.ok()
    }
}

fn batch(id: &str, seed: u64, asset_base: u64) -> Value {
    let orders: Vec<Value> = (0..ORDERS)
        .map(|o| {
            let assets: Vec<Value> = (0..ASSETS)
                .map(|a| {
                    let num = format!("{:010}", asset_base + (o * ASSETS + a) as u64);
                    let products: Vec<Value> = (0..PRODUCTS)
                        .map(|p| json!({"productUri": format!("gms:{p}"), "limitConcurrent": 1}))
                        .collect();
                    json!({"assetNos": [num], "products": products})
                })
                .collect();
            json!({"sequence": o, "channelCustomerId": "CRASH-1", "licenseType": "normal_recover_usbkey",
                   "orderType": "new_buy", "assets": assets})
        })
        .collect();
    let mode = if seed.is_multiple_of(4) {
        "async"
    } else {
        "sync"
    };
    json!({"channelCode": "CRM", "channelOrderId": id, "syncMode": mode, "orderList": orders})
}

fn claim_body(identity: &str) -> Value {
    json!({"identity": identity, "activityLabel": "crash", "source": "s", "branch": "b"})
}

#[derive(Default)]
struct Ledger {
    /// Answered batches: channelOrderId → results.
    batches: BTreeMap<String, Value>,
    /// Batches sent without an answer: channelOrderId → body.
    unanswered: BTreeMap<String, Value>,
    /// Answered claims: identity → resultCode.
    claims: BTreeMap<String, String>,
}

/// One writer: batches and claims in turn until the server dies or `stop`.
async fn writer(
    client: Arc<Client>,
    ledger: Arc<Mutex<Ledger>>,
    round: u64,
    w: u64,
    stop: Arc<AtomicBool>,
) {
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let id = format!("R{round}-W{w}-{n}");
        let asset_base = 1_000_000_000 + ((round * 10 + w) * 100_000 + n) * 10;
        let body = batch(&id, n + w, asset_base);
        match client
            .post(
                "/order/api/order/v1/licenseOrder/batchOrder",
                &format!("b-{id}"),
                &body,
            )
            .await
        {
            Some(answer) => {
                assert_eq!(answer["code"], 0, "{answer}");
                ledger
                    .lock()
                    .expect("lock")
                    .batches
                    .insert(id.clone(), answer["data"].clone());
            }
            None => {
                ledger
                    .lock()
                    .expect("lock")
                    .unanswered
                    .insert(id.clone(), body);
                return;
            }
        }
        let identity = format!("1{:010}", (round * 10 + w) * 100_000 + n);
        match client
            .post(
                "/activity/services/activity",
                &format!("c-{id}"),
                &claim_body(&identity),
            )
            .await
        {
            Some(answer) => {
                let code = answer["resultCode"].as_str().unwrap_or_default().to_owned();
                assert_eq!(code, "0000", "{answer}");
                ledger.lock().expect("lock").claims.insert(identity, code);
            }
            None => return,
        }
        n += 1;
    }
}

/// Waits until no async batch is pending (the restarted server applies them first).
async fn wait_applied(db: &Db) {
    let start = Instant::now();
    loop {
        let pending = db
            .count("SELECT count(*) FROM batches WHERE state = 'pending'", None)
            .await;
        if pending == 0 {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{pending} batches still pending"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn verify(db: &Db, ledger: &Ledger) {
    if let Db::Sqlite(db) = db {
        let integrity: String = db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .expect("check");
        assert_eq!(integrity, "ok");
    }
    // No batch half applied: each applied batch holds all of its orders, assets and products.
    let rows = db
        .rows5(
            "SELECT b.channel_order_id, b.state, \
             (SELECT count(*) FROM license_orders lo WHERE lo.batch_id = b.id), \
             (SELECT count(*) FROM assets a JOIN license_orders lo ON lo.id = a.license_order_id WHERE lo.batch_id = b.id), \
             (SELECT count(*) FROM products p JOIN license_orders lo ON lo.id = p.license_order_id WHERE lo.batch_id = b.id) \
             FROM batches b",
        )
        .await;
    let mut stored = BTreeMap::new();
    for (id, state, orders, assets, products) in rows {
        assert_eq!(state, "applied", "{id}");
        assert_eq!(
            (orders, assets, products),
            (
                ORDERS as i64,
                (ORDERS * ASSETS) as i64,
                (ORDERS * ASSETS * PRODUCTS) as i64
            ),
            "batch {id} is half applied"
        );
        stored.insert(id, ());
    }
    for id in ledger.batches.keys() {
        assert!(stored.contains_key(id), "answered batch {id} is lost");
    }
    for identity in ledger.claims.keys() {
        let n = db
            .count(
                "SELECT count(*) FROM claims WHERE identity = ?1",
                Some(identity),
            )
            .await;
        assert_eq!(n, 1, "answered claim of {identity} is lost or doubled");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answered_writes_survive_sigkill() {
    let kills: u64 = env_or("CRASH_KILLS", 3);
    let seed: u64 = env_or("CRASH_SEED", 0x5eed);
    let mut rng = fastrand::Rng::with_seed(seed);
    let dir = tempfile::tempdir().expect("dir");
    let place = match std::env::var("LICENSE_DESK_STORE").as_deref() {
        Ok("postgres") => Place::Database(
            pg_cluster::database()
                .await
                .expect("LICENSE_DESK_STORE=postgres needs PostgreSQL installed"),
        ),
        _ => Place::Dir(dir.path().join("data")),
    };
    let activities = dir.path().join("activities.json");
    std::fs::write(
        &activities,
        json!({"activities": [{"id": "C", "label": "crash", "name": "崩溃测试", "startTime": 0, "endTime": 4_000_000_000_000i64,
            "units": [{"id": "U", "name": "单元", "maxClaimsPerIdentity": 1,
                       "products": [{"productUri": "gms:c", "validDays": 1, "activateType": "0"}]}]}]})
        .to_string(),
    )
    .expect("write");
    let out = Command::new(bin())
        .args([
            "app",
            "create",
            "--name",
            "crash",
            "--scopes",
            "auth_order,auth_activity",
        ])
        .args(place.args())
        .output()
        .expect("app create");
    let app: Value = serde_json::from_slice(&out.stdout).expect("credentials");

    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let started = Instant::now();
    for round in 0..kills {
        let (mut child, base) = serve(&place, &activities);
        let client = Arc::new(Client::connect(base, &app).await);
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = (0..WRITERS as u64)
            .map(|w| {
                tokio::spawn(writer(
                    Arc::clone(&client),
                    Arc::clone(&ledger),
                    round,
                    w,
                    Arc::clone(&stop),
                ))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(rng.u64(150..900))).await;
        child.kill().expect("SIGKILL");
        child.wait().expect("reaped");
        stop.store(true, Ordering::Relaxed);
        for w in writers {
            w.await.expect("writer");
        }
    }

    // Restart, let pending async batches apply, re-send what got no answer, check everything.
    let (mut child, base) = serve(&place, &activities);
    let client = Client::connect(base, &app).await;
    let db = place.open().await;
    wait_applied(&db).await;
    let unanswered = std::mem::take(&mut ledger.lock().expect("lock").unanswered);
    for (id, body) in &unanswered {
        let answer = client
            .post(
                "/order/api/order/v1/licenseOrder/batchOrder",
                &format!("again-{id}"),
                body,
            )
            .await
            .expect("answered after restart");
        assert_eq!(answer["code"], 0, "re-sending {id}: {answer}");
        ledger
            .lock()
            .expect("lock")
            .batches
            .insert(id.clone(), answer["data"].clone());
    }
    wait_applied(&db).await;
    let ledger = std::mem::take(&mut *ledger.lock().expect("lock"));
    verify(&db, &ledger).await;
    child.kill().expect("kill");
    child.wait().expect("reaped");
    println!(
        "crash test: seed {seed}, {kills} SIGKILLs, {} batches and {} claims answered and found, {} batches re-sent after a kill, {:.1} s",
        ledger.batches.len(),
        ledger.claims.len(),
        unanswered.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(ledger.batches.len() as u64 >= kills, "the workload ran");
}
