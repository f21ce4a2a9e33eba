//! The team server's cost (issue 36, "Figures"): `cargo bench --bench team`.
//!
//! 1. **Overhead.** The embedded platform (SQLite, release build) and a team server in front
//!    of it (SQLite, its audit log written and synced per commit), both on one multi-thread
//!    runtime over 127.0.0.1. 50 simulated users, each a loop of calls one after another: four
//!    reads (operation 3) to one write (operation 9, one asset number). The same calls go
//!    direct to the platform (the users share the application's token, as consoles holding the
//!    secret would) and through the team server (each user with a session of their own), in
//!    rounds alternating direct / team, three of each. Latency is a call's wall time as the
//!    client sees it; p50 and p99 are nearest-rank percentiles over a round's calls; throughput
//!    is completed calls over the round's wall time. Ratios are team ÷ direct.
//! 2. **A large audit log.** 1,000,000 entries appended in one transaction, then
//!    `audit::verify` timed, a person's last 100 entries (`audit::last_of`) timed, and this
//!    process's resident memory before and after (Linux `/proc/self/status`).
//!
//! `cargo bench --bench team -- 1` or `-- 2` runs one part. The Markdown table goes to stdout.

use std::time::{Duration, Instant};

use client::Secret;
use platform::{Config, Server};
use serde_json::{Value, json};
use team::audit::{self, Record};
use team::people::{self, NewPerson};
use team::server::{TeamConfig, TeamServer};
use team::sessions::SessionRules;
use team::upstream::UpstreamConfig;
use team::{Place, TeamStore};

const USERS: usize = 50;
const CALLS_PER_USER: usize = 60;
const ROUNDS: usize = 3;
const PASSWORD: &str = "a bench password";

fn main() {
    let parts: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let runs = |n: &str| parts.is_empty() || parts.iter().any(|p| p == n);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    println!("| measure | direct | through the team server | ratio | target |");
    println!("|---|---|---|---|---|");
    if runs("1") {
        runtime.block_on(overhead());
    }
    if runs("2") {
        runtime.block_on(large_audit());
    }
}

/// One round's figures.
struct Round {
    p50: Duration,
    p99: Duration,
    per_second: f64,
}

async fn overhead() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scopes = ["auth_order".to_owned(), "auth_activity".to_owned()];
    let app = platform::create_app(&dir.path().join("p"), "bench", &scopes).expect("app");
    let config = Config::new(dir.path().join("p"), "127.0.0.1:0".parse().expect("addr"));
    let platform = Server::start(config).await.expect("platform");
    let team_dir = dir.path().join("t");
    let store = TeamStore::open(Place::Dir(&team_dir), 1)
        .await
        .expect("store");
    people::init(&store, person("admin")).await.expect("init");
    for i in 0..USERS {
        people::add(&store, person(&format!("u{i}")))
            .await
            .expect("add");
    }
    drop(store);
    let team = TeamServer::start(team_config(&platform, &team_dir, &app))
        .await
        .expect("team");
    let http = reqwest::Client::new();
    let app_token = app_token(&http, &platform.base_url(), &app).await;
    let mut sessions = Vec::new();
    for i in 0..USERS {
        sessions.push(sign_in(&http, &team.base_url(), &format!("u{i}")).await);
    }
    let (mut direct, mut through) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        eprintln!("round {round}: direct");
        direct.push(run(&http, &platform.base_url(), &vec![app_token.clone(); USERS]).await);
        eprintln!("round {round}: team server");
        through.push(run(&http, &team.base_url(), &sessions).await);
    }
    let median = |rounds: &[Round], f: fn(&Round) -> f64| {
        let mut v: Vec<f64> = rounds.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (name, f, target) in [
        (
            "p50 latency (ms)",
            (|r: &Round| r.p50.as_secs_f64() * 1e3) as fn(&Round) -> f64,
            "≤ 1.3×",
        ),
        (
            "p99 latency (ms)",
            |r: &Round| r.p99.as_secs_f64() * 1e3,
            "≤ 1.3×",
        ),
        ("throughput (calls/s)", |r: &Round| r.per_second, "≥ 0.7×"),
    ] {
        let (d, t) = (median(&direct, f), median(&through, f));
        println!(
            "| {name}, {USERS} users, median of {ROUNDS} rounds | {d:.2} | {t:.2} | {:.2}× | {target} |",
            t / d
        );
    }
    team.shutdown().await;
    platform.shutdown().await;
}

fn person(name: &str) -> NewPerson {
    NewPerson {
        name: name.to_owned(),
        display_name: None,
        role: if name == "admin" { "admin" } else { "approver" }.to_owned(),
        branch: Some(people::Branch {
            code: "B1".to_owned(),
            name: "总部".to_owned(),
        })
        .filter(|_| name != "admin"),
        password: Some(PASSWORD.to_owned()),
        email: None,
    }
}

fn team_config(
    platform: &Server,
    dir: &std::path::Path,
    app: &platform::apps::AppCredentials,
) -> TeamConfig {
    TeamConfig {
        listen: "127.0.0.1:0".parse().expect("addr"),
        data_dir: dir.to_owned(),
        database: None,
        database_pool: 16,
        upstream: UpstreamConfig {
            base_url: platform.base_url(),
            token_url: None,
            app_key: app.app_key.clone(),
            app_secret: Secret::new(app.app_secret.clone()),
            ca_file: None,
            insecure_http: false,
        },
        tls: None,
        insecure_http: false,
        sessions: SessionRules::default(),
        connections: Default::default(),
        audit_retention: None,
        ldap: None,
        trusted_proxies: Vec::new(),
        seal: None,
        mail: None,
    }
}

async fn app_token(
    http: &reqwest::Client,
    base: &str,
    app: &platform::apps::AppCredentials,
) -> String {
    let answer: Value = http
        .post(format!("{base}/v3/api/oauth2/token"))
        .basic_auth(&app.app_key, Some(&app.app_secret))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("json");
    answer["access_token"].as_str().expect("a token").to_owned()
}

async fn sign_in(http: &reqwest::Client, base: &str, name: &str) -> String {
    let answer: Value = http
        .post(format!("{base}/team/v1/session"))
        .json(&json!({"name": name, "password": PASSWORD}))
        .send()
        .await
        .expect("sign-in")
        .json()
        .await
        .expect("json");
    answer["data"]["token"]
        .as_str()
        .expect("a session")
        .to_owned()
}

/// Every user's loop at once; each call's latency, and the round's throughput.
async fn run(http: &reqwest::Client, base: &str, tokens: &[String]) -> Round {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (user, token) in tokens.iter().enumerate() {
        let (http, base, token) = (http.clone(), base.to_owned(), token.clone());
        tasks.push(tokio::spawn(async move {
            user_loop(&http, &base, &token, user).await
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("a user"));
    }
    let wall = started.elapsed();
    all.sort();
    let at = |p: f64| all[((all.len() as f64 * p).ceil() as usize).clamp(1, all.len()) - 1];
    Round {
        p50: at(0.50),
        p99: at(0.99),
        per_second: all.len() as f64 / wall.as_secs_f64(),
    }
}

async fn user_loop(http: &reqwest::Client, base: &str, token: &str, user: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(CALLS_PER_USER);
    for i in 0..CALLS_PER_USER {
        let nonce = format!("{user}-{i}-{}", support::clock::now_ms());
        let started = Instant::now();
        let request = if i % 5 == 4 {
            http.post(format!(
                "{base}/order/api/order/v1/shellnums?g_nonce={nonce}"
            ))
            .json(&json!({"size": 1}))
        } else {
            http.get(format!(
                "{base}/order/api/order/v1/enterprise/user/query?g_nonce={nonce}&channelCode=CRM&channelCustomerId=C-{user}"
            ))
        };
        let answer = request.bearer_auth(token).send().await.expect("answered");
        let status = answer.status();
        let _ = answer.bytes().await.expect("body");
        assert!(status.is_success() || status.as_u16() == 299, "{status}");
        times.push(started.elapsed());
    }
    times
}

async fn large_audit() {
    const ENTRIES: i64 = 1_000_000;
    let dir = tempfile::tempdir().expect("temp dir");
    let store = TeamStore::open(Place::Dir(dir.path()), 1)
        .await
        .expect("store");
    let before = rss_kib();
    let started = Instant::now();
    store
        .write(|tx| {
            let mut prev = audit::ZERO.to_owned();
            for seq in 1..=ENTRIES {
                let record = Record {
                    person: format!("u{}", seq % 50),
                    role: "staff".to_owned(),
                    operation: "shellnums".to_owned(),
                    request: Some(r#"{"size":1}"#.to_owned()),
                    outcome: "done".to_owned(),
                    answer: Some(format!(r#"["8{seq:09}"]"#)),
                    ..Record::default()
                };
                let hash = audit::hash_of(&prev, seq, seq, &record);
                tx.execute(
                    "INSERT INTO audit(seq, at, person, role, operation, request, outcome, \
                         answer, prev_hash, hash) VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                    &[
                        seq.into(),
                        (&record.person).into(),
                        (&record.role).into(),
                        (&record.operation).into(),
                        record.request.as_deref().into(),
                        (&record.outcome).into(),
                        record.answer.as_deref().into(),
                        (&prev).into(),
                        (&hash).into(),
                    ],
                )?;
                prev = hash;
            }
            Ok::<_, team::TeamError>(())
        })
        .await
        .expect("filled");
    eprintln!(
        "filled {ENTRIES} entries in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let verified = audit::verify(&store).await.expect("verify");
    let verify = started.elapsed();
    assert_eq!(verified, audit::Verified::Whole(ENTRIES as u64));
    let started = Instant::now();
    let last = audit::last_of(&store, "u7", 100).await.expect("last 100");
    let last_ms = started.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(last.len(), 100);
    let after = rss_kib();
    println!(
        "| `audit verify`, {ENTRIES} entries (s) | — | {:.2} | — | — |",
        verify.as_secs_f64()
    );
    println!("| a person's last 100 entries, of {ENTRIES} (ms) | — | {last_ms:.2} | — | < 50 ms |");
    println!(
        "| resident memory before / after filling and verifying (MiB) | — | {:.0} / {:.0} | — | — |",
        before / 1024.0,
        after / 1024.0
    );
}

/// This process's resident memory, KiB (0 where /proc is not).
fn rss_kib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).map(str::to_owned))
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0)
}
