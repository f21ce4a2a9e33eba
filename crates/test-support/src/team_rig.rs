//! What the team server's tests share: a store of each kind, fresh for each test, and a real
//! platform (the embedded one, on SQLite in a temp dir) with a real team server in front of
//! it and one person of each built-in role signed in over HTTP.

use std::path::{Path, PathBuf};

use client::Secret;
use platform::pg::DatabaseUrl;
use platform::{Config, Server};
use serde_json::{Value, json};
use team::people::{self, Branch, NewPerson};
use team::server::{TeamConfig, TeamServer};
use team::sessions::SessionRules;
use team::upstream::UpstreamConfig;
use team::{Place, TeamStore};

use crate::fault_proxy::FaultProxy;
use crate::pg_cluster;

/// A fresh store on SQLite (in its temp dir, kept as long as the store) and, when PostgreSQL
/// is installed, one on a new PostgreSQL database: each test runs on both.
pub async fn stores() -> Vec<(&'static str, TeamStore, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = TeamStore::open(Place::Dir(&dir.path().join("team")), 1)
        .await
        .expect("SQLite store");
    let mut all = vec![("sqlite", sqlite, Some(dir))];
    if let Some(url) = pg_cluster::database().await {
        all.push(("postgres", postgres(&url).await, None));
    }
    all
}

/// Another instance's store on the same PostgreSQL database.
pub async fn postgres(url: &str) -> TeamStore {
    let url = DatabaseUrl::parse(url, None).expect("database URL");
    TeamStore::open(Place::Database(&url), 4)
        .await
        .expect("PostgreSQL store")
}
pub const PASSWORD: &str = "长城长城 correct horse";

pub struct Rig {
    /// None once stopped.
    pub platform: Option<Server>,
    pub platform_dir: PathBuf,
    pub team: TeamServer,
    pub base: String,
    pub http: reqwest::Client,
    pub app_secret: String,
    team_dir: PathBuf,
    database: Option<DatabaseUrl>,
    config: TeamConfig,
    /// Further instances, kept running until the rig is dropped.
    others: Vec<TeamServer>,
    _dir: tempfile::TempDir,
}

/// An answer: HTTP status and JSON body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl Rig {
    /// The team server on SQLite (`database` None) or on a PostgreSQL database.
    pub async fn start(database: Option<&str>) -> Rig {
        Self::start_with(database, false, None, |_| {}).await.0
    }

    /// [`Rig::start`] on SQLite with the server's configuration adjusted.
    pub async fn start_adjusted(adjust: impl FnOnce(&mut TeamConfig)) -> Rig {
        Self::start_with(None, false, None, adjust).await.0
    }

    /// [`Rig::start`] serving HTTPS with `tls`; its client trusts `ca` (PEM).
    pub async fn start_tls(tls: serve::TlsFiles, ca: &std::path::Path) -> Rig {
        let mut rig = Self::start_with(None, false, Some(tls), |_| {}).await.0;
        let pem = std::fs::read(ca).expect("CA file");
        let ca = reqwest::Certificate::from_pem(&pem).expect("a CA");
        rig.http = reqwest::Client::builder()
            .tls_certs_merge([ca])
            .build()
            .expect("client");
        rig
    }

    /// [`Rig::start`] with the platform behind a fault-injecting proxy. The proxy owns a
    /// runtime: drop it with [`drop_proxy`].
    pub async fn start_proxied(database: Option<&str>) -> (Rig, FaultProxy) {
        let (rig, proxy) = Self::start_with(database, true, None, |_| {}).await;
        (rig, proxy.expect("a proxy"))
    }

    async fn start_with(
        database: Option<&str>,
        proxied: bool,
        tls: Option<serve::TlsFiles>,
        adjust: impl FnOnce(&mut TeamConfig),
    ) -> (Rig, Option<FaultProxy>) {
        let dir = tempfile::tempdir().expect("temp dir");
        let platform_dir = dir.path().join("platform");
        let scopes = ["auth_order".to_owned(), "auth_activity".to_owned()];
        let app = platform::create_app(&platform_dir, "team server", &scopes).expect("app");
        let config = Config::new(&platform_dir, "127.0.0.1:0".parse().expect("addr"));
        let platform = Server::start(config).await.expect("platform starts");
        let proxy = match proxied {
            true => {
                let base = platform.base_url();
                let proxy = tokio::task::spawn_blocking(move || FaultProxy::start(&base));
                Some(proxy.await.expect("the proxy starts"))
            }
            false => None,
        };
        let upstream = proxy
            .as_ref()
            .map_or_else(|| platform.base_url(), |p| p.base.clone());
        let team_dir = dir.path().join("team");
        let database = database.map(|url| DatabaseUrl::parse(url, None).expect("url"));
        let place = match &database {
            Some(url) => Place::Database(url),
            None => Place::Dir(&team_dir),
        };
        let store = TeamStore::open(place, 2).await.expect("team store");
        add_people(&store).await;
        drop(store);
        let mut config = TeamConfig {
            listen: "127.0.0.1:0".parse().expect("addr"),
            data_dir: team_dir.clone(),
            database: database.clone(),
            database_pool: 4,
            upstream: UpstreamConfig {
                base_url: upstream,
                token_url: None,
                app_key: app.app_key.clone(),
                app_secret: Secret::new(app.app_secret.clone()),
                ca_file: None,
                insecure_http: false,
            },
            tls,
            insecure_http: false,
            sessions: SessionRules::default(),
            connections: Default::default(),
            audit_retention: None,
            ldap: None,
            trusted_proxies: Vec::new(),
            seal: None,
            mail: None,
            releases: Some(team_dir.join("releases")),
        };
        adjust(&mut config);
        let team = TeamServer::start(config.clone())
            .await
            .expect("team server starts");
        let base = team.base_url();
        let rig = Rig {
            platform: Some(platform),
            platform_dir,
            team,
            base,
            http: reqwest::Client::new(),
            app_secret: app.app_secret,
            team_dir,
            database,
            config,
            others: Vec::new(),
            _dir: dir,
        };
        (rig, proxy)
    }

    /// Another instance of the same server (on PostgreSQL, the same database), on a port of
    /// its own: its address.
    pub async fn second_instance(&mut self) -> String {
        let server = TeamServer::start(self.config.clone())
            .await
            .expect("a second instance starts");
        let base = server.base_url();
        self.others.push(server);
        base
    }

    /// The team server's store, opened beside the server.
    pub async fn team_store(&self) -> TeamStore {
        let place = match &self.database {
            Some(url) => Place::Database(url),
            None => Place::Dir(&self.team_dir),
        };
        TeamStore::open(place, 1).await.expect("team store")
    }

    /// The forwarded writes' ledger once none is in flight: (person, operation, state).
    pub async fn settled_writes(&self) -> Vec<(String, String, String)> {
        let store = self.team_store().await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let rows = store
                .read(|tx| {
                    let mut rows = Vec::new();
                    tx.query_each(
                        "SELECT person, operation, state FROM team_writes ORDER BY started_at",
                        &[],
                        &mut |row| {
                            rows.push((row.text(0)?, row.text(1)?, row.text(2)?));
                            Ok(std::ops::ControlFlow::Continue(()))
                        },
                    )?;
                    Ok::<_, team::TeamError>(rows)
                })
                .await
                .expect("ledger");
            if rows.iter().all(|(_, _, state)| state != "in_flight") {
                return rows;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "still in flight: {rows:?}"
            );
            tokio::task::yield_now().await;
        }
    }

    /// Stops the platform: its port then refuses connections.
    pub async fn stop_platform(&mut self) {
        if let Some(platform) = self.platform.take() {
            platform.shutdown().await;
        }
    }

    /// Reads request `id` (`R-1`) as `token`'s person sees it, and approves it with the body's
    /// hash shown.
    pub async fn approve_shown(&self, token: &str, id: &str) -> Reply {
        let path = format!("/team/v1/requests/{id}");
        let shown = self.send("GET", &path, Some(token), None).await;
        let hash = shown.body["data"]["bodyHash"].clone();
        let approve = json!({ "bodyHash": hash });
        self.send(
            "POST",
            &format!("{path}/approve"),
            Some(token),
            Some(approve),
        )
        .await
    }

    /// Signs `name` in and answers the session's token.
    /// The team server's data directory (its releases under `releases/`).
    pub fn team_dir(&self) -> &Path {
        &self.team_dir
    }

    pub async fn sign_in(&self, name: &str) -> String {
        self.sign_in_with(name, PASSWORD).await
    }

    /// The sign-in's answer, whatever it is.
    pub async fn try_sign_in(&self, name: &str, password: &str) -> Reply {
        let form = json!({"name": name, "password": password});
        self.send("POST", "/team/v1/session", None, Some(form))
            .await
    }

    /// Signs `name` in with `password` and answers the session's token.
    pub async fn sign_in_with(&self, name: &str, password: &str) -> String {
        let reply = self.try_sign_in(name, password).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        reply.body["data"]["token"]
            .as_str()
            .expect("token")
            .to_owned()
    }

    pub async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        self.send_to(&self.base, method, path, token, body).await
    }

    /// [`Rig::send`] to the instance at `base`.
    pub async fn send_to(
        &self,
        base: &str,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let sep = if path.contains('?') { '&' } else { '?' };
        let url = format!("{base}{path}{sep}g_nonce={}", nonce());
        let mut req = self.http.request(method, url);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        let resp = req.send().await.expect("the team server answers");
        let status = resp.status().as_u16();
        let bytes = resp.bytes().await.expect("body");
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply { status, body }
    }

    /// Rows of the platform's own SQLite file, read directly.
    pub fn platform_rows(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        let conn = rusqlite::Connection::open(self.platform_dir.join("platform.sqlite3"))
            .expect("platform db");
        let mut stmt = conn.prepare(sql).expect(sql);
        let n = stmt.column_count();
        stmt.query_map([], |row| {
            (0..n)
                .map(|i| row.get::<_, Option<String>>(i))
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .expect(sql)
        .collect::<rusqlite::Result<_>>()
        .expect(sql)
    }
}

/// Drops a proxy (and its runtime) off the async threads, where a runtime may not be dropped.
pub async fn drop_proxy(proxy: FaultProxy) {
    tokio::task::spawn_blocking(move || drop(proxy))
        .await
        .expect("the proxy stops");
}

fn nonce() -> String {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).expect("random");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// admin (no branch), viewer, staff and approver of branch SH01 上海.
async fn add_people(store: &TeamStore) {
    let shanghai = || Branch {
        code: "SH01".to_owned(),
        name: "上海".to_owned(),
    };
    let person = |name: &str, role: &str, branch: Option<Branch>| NewPerson {
        name: name.to_owned(),
        display_name: None,
        role: role.to_owned(),
        branch,
        password: Some(PASSWORD.to_owned()),
        email: None,
    };
    people::init(store, person("admin", "admin", None))
        .await
        .expect("init");
    for (name, role) in [
        ("viewer", "viewer"),
        ("staff", "staff"),
        ("approver", "approver"),
    ] {
        people::add(store, person(name, role, Some(shanghai())))
            .await
            .expect("add");
    }
    let beijing = Branch {
        code: "BJ01".to_owned(),
        name: "北京".to_owned(),
    };
    for (name, role) in [("bj-staff", "staff"), ("bj-admin", "admin")] {
        people::add(store, person(name, role, Some(beijing.clone())))
            .await
            .expect("add");
    }
}
