//! A real platform on a loopback port with a real SQLite file in a temp dir, and a client.

use std::sync::atomic::{AtomicU64, Ordering};

use license_desk::platform::apps::AppCredentials;
use license_desk::platform::{Config, OwnQuota, Server, create_app, create_app_with_quota};
use reqwest::Method;
use serde_json::{Value, json};
use tempfile::TempDir;

pub struct Platform {
    pub server: Option<Server>,
    pub dir: TempDir,
    pub base: String,
    pub http: reqwest::Client,
    pub app: AppCredentials,
    pub token: String,
    config: Config,
}

/// A fresh nonce for every call of every test.
pub fn nonce() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "n-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl Reply {
    /// The `data` of a success envelope; panics with the body otherwise.
    #[track_caller]
    pub fn data(&self) -> &Value {
        assert_eq!(self.status, 200, "not a success: {}", self.body);
        assert_eq!(self.body["code"], json!(0), "not a success: {}", self.body);
        assert_eq!(self.body["message"], "success");
        &self.body["data"]
    }

    /// Asserts an HTTP 299 `13004` whose message is exactly `message`.
    #[track_caller]
    pub fn assert_13004(&self, message: &str) {
        assert_eq!(self.status, 299, "{}", self.body);
        assert_eq!(self.body["code"], json!("13004"), "{}", self.body);
        assert_eq!(self.body["message"], json!(message), "{}", self.body);
        assert!(self.body["cause"].is_string(), "{}", self.body);
        assert!(self.body.get("data").is_none(), "{}", self.body);
    }
}

impl Platform {
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let app = create_app(
            dir.path(),
            "tests",
            &["auth_order".to_owned(), "auth_activity".to_owned()],
        )
        .expect("app");
        Self::start_on(dir, app, adjust).await
    }

    /// A platform on a data dir that exists, calling as `app`.
    pub async fn start_on(
        dir: TempDir,
        app: AppCredentials,
        adjust: impl FnOnce(&mut Config),
    ) -> Self {
        let mut config = Config::new(dir.path(), "127.0.0.1:0".parse().expect("addr"));
        adjust(&mut config);
        let server = Server::start(config.clone())
            .await
            .expect("platform starts");
        let base = server.base_url();
        let http = reqwest::Client::new();
        let mut p = Self {
            server: Some(server),
            dir,
            base,
            http,
            app: app.clone(),
            token: String::new(),
            config,
        };
        p.token = p.token_for(&app).await;
        p
    }

    /// Stops the server and starts another on the same data dir (a new port).
    pub async fn restart(&mut self) {
        if let Some(server) = self.server.take() {
            server.shutdown().await;
        }
        let server = Server::start(self.config.clone()).await.expect("restarts");
        self.base = server.base_url();
        self.server = Some(server);
    }

    /// Registers another application on this platform's data dir.
    pub fn new_app(&self, scopes: &[&str]) -> AppCredentials {
        let scopes: Vec<String> = scopes.iter().map(|s| (*s).to_owned()).collect();
        create_app(self.dir.path(), "another", &scopes).expect("app")
    }

    /// Registers another application with its own quotas on asset numbers.
    pub fn new_app_with_quota(&self, scopes: &[&str], quota: OwnQuota) -> AppCredentials {
        let scopes: Vec<String> = scopes.iter().map(|s| (*s).to_owned()).collect();
        create_app_with_quota(self.dir.path(), "with quota", &scopes, quota).expect("app")
    }

    /// A POST with another application's token and a fresh nonce.
    pub async fn post_as(&self, token: &str, path: &str, body: Value) -> Reply {
        let n = nonce();
        self.raw(
            self.http
                .post(format!("{}{path}", self.base))
                .bearer_auth(token)
                .query(&[("g_nonce", n.as_str())])
                .json(&body),
        )
        .await
    }

    pub async fn token_for(&self, app: &AppCredentials) -> String {
        let r = self
            .http
            .post(format!("{}/v3/api/oauth2/token", self.base))
            .basic_auth(&app.app_key, Some(&app.app_secret))
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .expect("token request");
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.expect("token json");
        body["access_token"]
            .as_str()
            .expect("access_token")
            .to_owned()
    }

    /// The platform's own database file, for reading back what was written.
    pub fn db(&self) -> rusqlite::Connection {
        let conn =
            rusqlite::Connection::open(self.dir.path().join("platform.sqlite3")).expect("open db");
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .expect("busy timeout");
        conn
    }

    /// The platform's token and nonce database file.
    pub fn auth_db(&self) -> rusqlite::Connection {
        let conn =
            rusqlite::Connection::open(self.dir.path().join("auth.sqlite3")).expect("open auth db");
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .expect("busy timeout");
        conn
    }

    /// A count from the token and nonce database, e.g. `count_auth("tokens")`.
    pub fn count_auth(&self, table: &str) -> i64 {
        self.auth_db()
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .expect("count")
    }

    /// A count from the database, e.g. `count("assets")`.
    pub fn count(&self, table: &str) -> i64 {
        self.db()
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .expect("count")
    }

    /// A call with this platform's token, a fresh nonce, and a JSON body when given.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, &str)],
        body: Option<Value>,
    ) -> Reply {
        let n = nonce();
        let mut q: Vec<(&str, &str)> = vec![("g_nonce", n.as_str())];
        q.extend_from_slice(query);
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .query(&q);
        if let Some(body) = body {
            req = req.json(&body);
        }
        reply(req.send().await.expect("request")).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.call(Method::POST, path, &[], Some(body)).await
    }

    pub async fn get(&self, path: &str, query: &[(&str, &str)]) -> Reply {
        self.call(Method::GET, path, query, None).await
    }

    /// A batch order with this app's key.
    pub async fn batch(&self, body: Value) -> Reply {
        let key = self.app.app_key.clone();
        self.call(
            Method::POST,
            "/order/api/order/v1/licenseOrder/batchOrder",
            &[("appKey", key.as_str())],
            Some(body),
        )
        .await
    }

    /// Any request, as given: for malformed headers, bodies and query strings.
    pub async fn raw(&self, req: reqwest::RequestBuilder) -> Reply {
        reply(req.send().await.expect("request")).await
    }
}

pub async fn reply(r: reqwest::Response) -> Reply {
    let status = r.status().as_u16();
    let text = r.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Reply { status, body }
}

/// A new_buy order of one asset with the given products (URIs).
pub fn new_buy(
    sequence: i32,
    channel_customer_id: &str,
    license_type: &str,
    asset: &str,
    products: &[&str],
) -> Value {
    let products: Vec<Value> = products
        .iter()
        .map(|uri| json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": 1}))
        .collect();
    json!({
        "sequence": sequence,
        "channelCustomerId": channel_customer_id,
        "customerName": "上海测试客户",
        "licenseType": license_type,
        "orderType": "new_buy",
        "assets": [{"assetNos": [asset], "products": products}]
    })
}

/// A batch with the given orders.
pub fn batch_of(channel_order_id: &str, orders: Vec<Value>) -> Value {
    json!({
        "channelCode": "CRM",
        "channelOrderId": channel_order_id,
        "syncMode": "sync",
        "orderList": orders
    })
}

/// Asserts that `message` is exactly `{prefix}{time}, in {n} s`: `time` a whole second in UTC
/// (`2026-11-23T10:16:00Z`) between `resets` (earliest, latest; epoch ms, rounded up to whole
/// seconds), and `n` the whole seconds to it from a moment within `sent` (before the request,
/// after its answer).
#[track_caller]
pub fn assert_resets(message: &str, prefix: &str, resets: (i64, i64), sent: (i64, i64)) {
    let rest = message
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{message:?} does not start with {prefix:?}"));
    let (time, seconds) = rest
        .split_once(", in ")
        .unwrap_or_else(|| panic!("no \", in N s\" in {message:?}"));
    let at: jiff::Timestamp = time.parse().expect("a time");
    assert_eq!(at.to_string(), time, "UTC in whole seconds: {message:?}");
    let at = at.as_millisecond();
    let whole = |ms: i64| ms + (1000 - ms.rem_euclid(1000)) % 1000;
    assert!(
        whole(resets.0) <= at && at <= whole(resets.1),
        "resets at {time}, not within {resets:?}: {message:?}"
    );
    let n: i64 = seconds
        .strip_suffix(" s")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no whole seconds in {message:?}"));
    let from = |now: i64| (at - now + 999).div_euclid(1000).max(1);
    assert!(
        from(sent.1) <= n && n <= from(sent.0),
        "{n} s is not the time to {time} from within {sent:?}: {message:?}"
    );
}

/// Returns at once when at least `margin_s` seconds of the current clock minute remain;
/// otherwise waits until the next minute has begun, so that a test's calls fall in one
/// minute (and one UTC day) of the platform's quotas.
pub async fn within_one_minute(margin_s: i64) {
    let minute = 60_000;
    let start = license_desk::clock::now_ms();
    if minute - start.rem_euclid(minute) >= margin_s * 1000 {
        return;
    }
    let next = start - start.rem_euclid(minute) + minute;
    while license_desk::clock::now_ms() < next {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The end of the clock minute that `ms` falls in.
pub fn minute_end(ms: i64) -> i64 {
    ms - ms.rem_euclid(60_000) + 60_000
}

/// The end of the UTC day that `ms` falls in.
pub fn day_end(ms: i64) -> i64 {
    let day = 24 * 3600 * 1000;
    ms - ms.rem_euclid(day) + day
}
