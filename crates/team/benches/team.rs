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
//! 3. **The hop (issue 57).** The platform 20 ms away (10 ms each way through a delaying TCP
//!    proxy, `test_support::delay_proxy`), as a branch's platform is; the same users direct,
//!    through the team server, and through nginx in its place (Debian's package: `proxy_pass`
//!    to a keep-alive upstream; the floor, the cheapest hop there is), rounds alternating. What
//!    each hop adds at p50 and p99, and its throughput against direct. Without nginx on the
//!    machine its column says so (`apt-get install nginx-light`).
//!
//! `cargo bench --bench team -- 1` (or 2, 3) runs one part. The Markdown tables go to stdout.

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
use test_support::delay_proxy::DelayProxy;

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
    if runs("3") {
        runtime.block_on(hop());
    }
}

/// One round's figures.
struct Round {
    p50: Duration,
    p99: Duration,
    per_second: f64,
}

/// A platform, its application and token, and a team server in front of it (or of a
/// delaying proxy in front of it) with `USERS` people signed in.
struct Rig {
    platform: Server,
    /// Between the platform and everyone else, when it is far.
    far: Option<DelayProxy>,
    team: TeamServer,
    app_token: String,
    sessions: Vec<String>,
    http: reqwest::Client,
}

impl Rig {
    async fn start(dir: &std::path::Path, each_way: Option<Duration>) -> Rig {
        let scopes = ["auth_order".to_owned(), "auth_activity".to_owned()];
        let app = platform::create_app(&dir.join("p"), "bench", &scopes).expect("app");
        let config = Config::new(dir.join("p"), "127.0.0.1:0".parse().expect("addr"));
        let platform = Server::start(config).await.expect("platform");
        let far = match each_way {
            Some(delay) => Some(DelayProxy::start(address_of(&platform.base_url()), delay).await),
            None => None,
        };
        let upstream = far
            .as_ref()
            .map_or_else(|| platform.base_url(), DelayProxy::base_url);
        let team_dir = dir.join("t");
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
        let team = TeamServer::start(team_config(&upstream, &team_dir, &app))
            .await
            .expect("team");
        let http = reqwest::Client::new();
        let app_token = app_token(&http, &upstream, &app).await;
        let mut sessions = Vec::new();
        for i in 0..USERS {
            sessions.push(sign_in(&http, &team.base_url(), &format!("u{i}")).await);
        }
        Rig {
            platform,
            far,
            team,
            app_token,
            sessions,
            http,
        }
    }

    /// Where a console holding the secret calls: the platform, or its proxy when it is far.
    fn direct(&self) -> String {
        self.far
            .as_ref()
            .map_or_else(|| self.platform.base_url(), DelayProxy::base_url)
    }

    async fn stop(self) {
        self.team.shutdown().await;
        self.platform.shutdown().await;
    }
}

fn address_of(base: &str) -> std::net::SocketAddr {
    let host = base.strip_prefix("http://").expect("http");
    host.parse().expect("an address")
}

fn median(rounds: &[Round], f: fn(&Round) -> f64) -> f64 {
    let mut v: Vec<f64> = rounds.iter().map(f).collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn p50_ms(r: &Round) -> f64 {
    r.p50.as_secs_f64() * 1e3
}

fn p99_ms(r: &Round) -> f64 {
    r.p99.as_secs_f64() * 1e3
}

fn per_second(r: &Round) -> f64 {
    r.per_second
}

async fn overhead() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rig = Rig::start(dir.path(), None).await;
    let (mut direct, mut through) = (Vec::new(), Vec::new());
    let tokens = vec![rig.app_token.clone(); USERS];
    for round in 0..ROUNDS {
        eprintln!("round {round}: direct");
        direct.push(run(&rig.http, &rig.direct(), &tokens).await);
        eprintln!("round {round}: team server");
        through.push(run(&rig.http, &rig.team.base_url(), &rig.sessions).await);
    }
    for (name, f, target) in [
        ("p50 latency (ms)", p50_ms as fn(&Round) -> f64, "≤ 1.3×"),
        ("p99 latency (ms)", p99_ms, "≤ 1.3×"),
        ("throughput (calls/s)", per_second, "≥ 0.7×"),
    ] {
        let (d, t) = (median(&direct, f), median(&through, f));
        println!(
            "| {name}, {USERS} users, median of {ROUNDS} rounds | {d:.2} | {t:.2} | {:.2}× | {target} |",
            t / d
        );
    }
    rig.stop().await;
}

/// Part 3: the team server's hop as a hop. The platform 20 ms away (10 ms each way through
/// a delaying proxy); the same users direct, through the team server, and through nginx in
/// its place (the floor: the cheapest hop there is), rounds alternating. What each hop adds
/// to a call at p50 and p99, and its throughput against direct.
async fn hop() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rig = Rig::start(dir.path(), Some(Duration::from_millis(10))).await;
    let far = rig.far.as_ref().expect("far");
    let nginx = Nginx::start(&dir.path().join("nginx"), far.addr);
    let tokens = vec![rig.app_token.clone(); USERS];
    let (mut direct, mut through, mut floor) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        eprintln!("round {round}: direct, team server, nginx; the platform 20 ms away");
        direct.push(warm_run(&rig.http, &rig.direct(), &tokens).await);
        through.push(warm_run(&rig.http, &rig.team.base_url(), &rig.sessions).await);
        if let Some(nginx) = &nginx {
            floor.push(warm_run(&rig.http, &nginx.base_url(), &tokens).await);
        }
    }
    println!();
    println!(
        "| a platform 20 ms away, {USERS} users, median of {ROUNDS} rounds | direct | team server | nginx | the team server's goal |"
    );
    println!("|---|---|---|---|---|");
    let nginx_of = |f: fn(&Round) -> f64, d: f64| {
        if floor.is_empty() {
            "no nginx here".to_owned()
        } else {
            let n = median(&floor, f);
            format!("{n:.2} ({:+.2})", n - d)
        }
    };
    for (name, f, goal) in [
        (
            "p50 (ms), and what the hop adds",
            p50_ms as fn(&Round) -> f64,
            "adds ≤ 3 ms",
        ),
        ("p99 (ms), and what the hop adds", p99_ms, "adds ≤ 10 ms"),
    ] {
        let (d, t) = (median(&direct, f), median(&through, f));
        println!(
            "| {name} | {d:.2} | {t:.2} ({:+.2}) | {} | {goal} |",
            t - d,
            nginx_of(f, d)
        );
    }
    let d = median(&direct, per_second);
    let t = median(&through, per_second);
    let n = if floor.is_empty() {
        "no nginx here".to_owned()
    } else {
        let n = median(&floor, per_second);
        format!("{n:.1} ({:.2}×)", n / d)
    };
    println!(
        "| throughput (calls/s), and against direct | {d:.1} | {t:.1} ({:.2}×) | {n} | ≥ 0.9× |",
        t / d
    );
    drop(nginx);
    rig.stop().await;
}

/// nginx (Debian's package) in the team server's place: `proxy_pass` to a keep-alive
/// upstream, in the foreground, stopped when dropped. None when there is no nginx.
struct Nginx {
    port: u16,
    child: std::process::Child,
    binary: &'static str,
    dir: std::path::PathBuf,
}

impl Nginx {
    fn start(dir: &std::path::Path, upstream: std::net::SocketAddr) -> Option<Nginx> {
        let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())?;
        std::fs::create_dir_all(dir).expect("nginx dir");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let d = dir.display();
        let conf = format!(
            "daemon off; worker_processes auto; pid {d}/nginx.pid; error_log {d}/error.log;
             events {{ worker_connections 4096; }}
             http {{
               access_log off;
               client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;
               fastcgi_temp_path {d}/fastcgi; uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;
               upstream platform {{ server {upstream}; keepalive 64; }}
               server {{
                 listen 127.0.0.1:{port};
                 location / {{
                   proxy_pass http://platform;
                   proxy_http_version 1.1;
                   proxy_set_header Connection \"\";
                   proxy_set_header Host $http_host;
                 }}
               }}
             }}"
        );
        std::fs::write(dir.join("nginx.conf"), conf).expect("nginx.conf");
        let child = std::process::Command::new(binary)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "nginx did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Nginx {
            port,
            child,
            binary,
            dir: dir.to_owned(),
        })
    }

    fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Nginx {
    /// `nginx -s stop` ends its workers too (a killed master leaves them running).
    fn drop(&mut self) {
        let stopped = std::process::Command::new(self.binary)
            .arg("-p")
            .arg(&self.dir)
            .arg("-c")
            .arg(self.dir.join("nginx.conf"))
            .args(["-s", "stop"])
            .stderr(std::process::Stdio::null())
            .status();
        if !stopped.is_ok_and(|s| s.success()) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
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
    upstream: &str,
    dir: &std::path::Path,
    app: &platform::apps::AppCredentials,
) -> TeamConfig {
    TeamConfig {
        listen: "127.0.0.1:0".parse().expect("addr"),
        data_dir: dir.to_owned(),
        database: None,
        database_pool: 16,
        upstream: UpstreamConfig {
            base_url: upstream.to_owned(),
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
        releases: None,
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

/// [`run`] after one call of each user, not counted: each hop's connections to the platform
/// are open, as they are while a branch works. Between its rounds a hop idles for two
/// others' (seconds), and the team server's client lets a connection go after 5 idle seconds
/// (`client`: before the platform may close it), so without this some rounds would time its
/// reconnections instead: one round trip to the platform more for each user's first call.
async fn warm_run(http: &reqwest::Client, base: &str, tokens: &[String]) -> Round {
    let warming = tokens.iter().enumerate().map(|(user, token)| {
        let (http, base, token) = (http.clone(), base.to_owned(), token.clone());
        tokio::spawn(async move { call(&http, &base, &token, user, CALLS_PER_USER, false).await })
    });
    for warmed in futures::future::join_all(warming).await {
        warmed.expect("a user");
    }
    run(http, base, tokens).await
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
        let started = Instant::now();
        call(http, base, token, user, i, i % 5 == 4).await;
        times.push(started.elapsed());
    }
    times
}

/// One user's call number `i`: a write (one asset number) or a read (a customer).
async fn call(http: &reqwest::Client, base: &str, token: &str, user: usize, i: usize, write: bool) {
    let nonce = format!("{user}-{i}-{}", support::clock::now_ms());
    let request = if write {
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
