//! A real platform on a loopback port with a real SQLite file in a temp dir, or a real
//! PostgreSQL database of its own (`LICENSE_DESK_STORE=postgres`), and a client.

use std::sync::atomic::{AtomicU64, Ordering};

use platform::apps::AppCredentials;
use platform::pg::DatabaseUrl;
use platform::sql::StoreError;
use platform::{
    Config, OwnQuota, Server, create_app, create_app_in_database, create_app_with_quota,
};
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

/// The store the suite runs on: `LICENSE_DESK_STORE=sqlite|postgres` (default sqlite).
pub fn on_postgres() -> bool {
    match std::env::var("LICENSE_DESK_STORE").as_deref() {
        Ok("postgres") => true,
        Ok("sqlite") | Err(_) => false,
        Ok(other) => panic!("LICENSE_DESK_STORE is sqlite or postgres, not {other:?}"),
    }
}

/// True (and says why) when the suite runs on PostgreSQL and the test is about SQLite alone.
pub fn sqlite_only(why: &str) -> bool {
    if on_postgres() {
        eprintln!("skipped on PostgreSQL: {why}");
    }
    on_postgres()
}

/// A fresh database of the test cluster, on PostgreSQL; none on SQLite.
pub async fn fresh_database() -> Option<DatabaseUrl> {
    if !on_postgres() {
        return None;
    }
    let url = crate::pg_cluster::database()
        .await
        .expect("LICENSE_DESK_STORE=postgres needs PostgreSQL installed");
    Some(DatabaseUrl::parse(&url, None).expect("the test cluster's URL"))
}

/// Runs `work` to its end on a runtime of its own on another thread, so that a synchronous
/// helper may wait for PostgreSQL from inside a test's runtime.
pub fn on_own_runtime<T: Send>(work: impl std::future::Future<Output = T> + Send) -> T {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime")
                    .block_on(work)
            })
            .join()
            .expect("helper thread")
    })
}

/// An application registered in the data dir or the database.
async fn register(
    dir: &std::path::Path,
    database: Option<&DatabaseUrl>,
    name: &str,
    scopes: &[String],
    quota: OwnQuota,
) -> AppCredentials {
    match database {
        // On the test's runtime, never blocking it: the server's connections are driven there,
        // and this write waits for the server's (all writes wait in turn).
        Some(db) => create_app_in_database(db, name, scopes, quota).await,
        None => create_app_with_quota(dir, name, scopes, quota),
    }
    .expect("app")
}

/// One cell of a row read back by [`Platform::rows`]: flags are 0/1 on both stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Null,
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
}

/// A row read back from either store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row(pub Vec<Cell>);

impl Row {
    #[track_caller]
    pub fn i64(&self, i: usize) -> i64 {
        match &self.0[i] {
            Cell::Int(n) => *n,
            other => panic!("column {i} is not an integer: {other:?}"),
        }
    }

    #[track_caller]
    pub fn opt_i64(&self, i: usize) -> Option<i64> {
        match &self.0[i] {
            Cell::Null => None,
            _ => Some(self.i64(i)),
        }
    }

    /// A flag: 0/1 on SQLite, a boolean (read as 0/1) on PostgreSQL.
    #[track_caller]
    pub fn flag(&self, i: usize) -> bool {
        self.i64(i) != 0
    }

    #[track_caller]
    pub fn text(&self, i: usize) -> String {
        match &self.0[i] {
            Cell::Text(t) => t.clone(),
            other => panic!("column {i} is not text: {other:?}"),
        }
    }

    #[track_caller]
    pub fn opt_text(&self, i: usize) -> Option<String> {
        match &self.0[i] {
            Cell::Null => None,
            _ => Some(self.text(i)),
        }
    }
}

/// Rows of `sql` (`?N` parameters, text) in a PostgreSQL database.
fn pg_rows(url: &DatabaseUrl, sql: &str, params: &[&str]) -> Vec<Row> {
    use tokio_postgres::types::Type;
    let sql = platform::pg::dollar_params(sql);
    on_own_runtime(async {
        let (client, connection) = url
            .config()
            .connect(tokio_postgres::NoTls)
            .await
            .expect("connect");
        let driver = tokio::spawn(connection);
        let statement = client.prepare(&sql).await.expect(&sql);
        let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
            .iter()
            .map(|p| p as &(dyn tokio_postgres::types::ToSql + Sync))
            .collect();
        let rows = client.query(&statement, &params).await.expect(&sql);
        let rows = rows
            .iter()
            .map(|row| {
                Row((0..row.len())
                    .map(|i| {
                        let cell = match *row.columns()[i].type_() {
                            Type::INT8 => row.get::<_, Option<i64>>(i).map(Cell::Int),
                            Type::INT4 => row.get::<_, Option<i32>>(i).map(|n| Cell::Int(n.into())),
                            Type::BOOL => {
                                row.get::<_, Option<bool>>(i).map(|b| Cell::Int(b.into()))
                            }
                            Type::BYTEA => row.get::<_, Option<Vec<u8>>>(i).map(Cell::Bytes),
                            _ => row.get::<_, Option<String>>(i).map(Cell::Text),
                        };
                        cell.unwrap_or(Cell::Null)
                    })
                    .collect())
            })
            .collect();
        drop(client);
        let _ = driver.await;
        rows
    })
}

/// Runs `work` with a client of its own on a PostgreSQL database.
fn on_pg<T: Send, F>(url: &DatabaseUrl, work: impl FnOnce(tokio_postgres::Client) -> F + Send) -> T
where
    F: std::future::Future<Output = Result<T, tokio_postgres::Error>> + Send,
{
    on_own_runtime(async {
        let (client, connection) = url
            .config()
            .connect(tokio_postgres::NoTls)
            .await
            .expect("connect");
        let driver = tokio::spawn(connection);
        let value = work(client).await.expect("a statement on PostgreSQL");
        let _ = driver.await;
        value
    })
}

/// Rows of `sql` in a SQLite file.
fn sqlite_rows(db: &rusqlite::Connection, sql: &str, params: &[&str]) -> Vec<Row> {
    use rusqlite::types::ValueRef;
    let mut stmt = db.prepare(sql).expect(sql);
    let columns = stmt.column_count();
    stmt.query_map(rusqlite::params_from_iter(params), |r| {
        (0..columns)
            .map(|i| {
                Ok(match r.get_ref(i)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(n) => Cell::Int(n),
                    ValueRef::Real(f) => panic!("a real number {f} in {sql}"),
                    ValueRef::Text(t) => Cell::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Cell::Bytes(b.to_vec()),
                })
            })
            .collect::<rusqlite::Result<Vec<Cell>>>()
            .map(Row)
    })
    .expect(sql)
    .collect::<rusqlite::Result<_>>()
    .expect(sql)
}

impl Platform {
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let database = fresh_database().await;
        let scopes = ["auth_order".to_owned(), "auth_activity".to_owned()];
        let app = match &database {
            Some(db) => create_app_in_database(db, "tests", &scopes, OwnQuota::default())
                .await
                .expect("app"),
            None => create_app(dir.path(), "tests", &scopes).expect("app"),
        };
        Self::start_on(dir, app, |config| {
            config.database = database;
            adjust(config);
        })
        .await
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

    /// A second instance on this platform's PostgreSQL database (a server of its own on a new
    /// port), calling as the same application with the same token.
    pub async fn twin(&self) -> Platform {
        assert!(
            self.database().is_some(),
            "two instances share a PostgreSQL database"
        );
        let server = Server::start(self.config.clone())
            .await
            .expect("a second instance starts");
        Platform {
            base: server.base_url(),
            server: Some(server),
            dir: tempfile::tempdir().expect("temp dir"),
            http: reqwest::Client::new(),
            app: self.app.clone(),
            token: self.token.clone(),
            config: self.config.clone(),
        }
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

    /// Registers another application on this platform's store.
    pub async fn new_app(&self, scopes: &[&str]) -> AppCredentials {
        let scopes: Vec<String> = scopes.iter().map(|s| (*s).to_owned()).collect();
        register(
            self.dir.path(),
            self.config.database.as_ref(),
            "another",
            &scopes,
            OwnQuota::default(),
        )
        .await
    }

    /// Registers another application with its own quotas on asset numbers.
    pub async fn new_app_with_quota(&self, scopes: &[&str], quota: OwnQuota) -> AppCredentials {
        let scopes: Vec<String> = scopes.iter().map(|s| (*s).to_owned()).collect();
        register(
            self.dir.path(),
            self.config.database.as_ref(),
            "with quota",
            &scopes,
            quota,
        )
        .await
    }

    /// The PostgreSQL database the platform runs on, if it does.
    pub fn database(&self) -> Option<&DatabaseUrl> {
        self.config.database.as_ref()
    }

    /// Every row of `sql` (`?N` parameters bound as text) read back from the business data,
    /// on either store.
    pub fn rows(&self, sql: &str, params: &[&str]) -> Vec<Row> {
        match self.database() {
            Some(url) => pg_rows(url, sql, params),
            None => sqlite_rows(&self.db(), sql, params),
        }
    }

    /// The first row of `sql`; panics when there is none.
    #[track_caller]
    pub fn row(&self, sql: &str, params: &[&str]) -> Row {
        self.rows(sql, params)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no row: {sql}"))
    }

    /// Runs `f` in a write transaction of the business data, committed when it succeeds. On
    /// PostgreSQL it runs on the test's own runtime, never blocking it: the server's connections
    /// are driven there, and the write waits for the server's (all writes wait in turn).
    pub async fn write<T: Send + 'static>(
        &self,
        f: impl FnMut(&dyn platform::sql::Tx) -> Result<T, StoreError> + Send + 'static,
    ) -> T {
        let mut f = f;
        match self.database() {
            Some(url) => {
                let store = platform::pg::connect_to(url, 1).await.expect("connect");
                store.write(f).await.expect("write")
            }
            None => {
                let mut db = self.db();
                let tx = db.transaction().expect("transaction");
                let value = f(&tx).expect("write");
                tx.commit().expect("commit");
                value
            }
        }
    }

    /// Runs `sql` on the business data; returns how many rows it changed.
    pub async fn execute(&self, sql: &'static str) -> u64 {
        self.write(move |tx| tx.execute(sql, &[])).await as u64
    }

    /// Runs `sql` on the tokens and nonces (on PostgreSQL, the one database); returns how many
    /// rows it changed.
    pub fn execute_auth(&self, sql: &str) -> u64 {
        match self.database() {
            Some(url) => on_pg(url, |client| async move { client.execute(sql, &[]).await }),
            None => self.auth_db().execute(sql, []).expect(sql) as u64,
        }
    }

    /// Runs statements (e.g. DDL) on the business data: `sqlite` on SQLite, `postgres` on
    /// PostgreSQL.
    pub fn execute_batch(&self, sqlite: &str, postgres: &str) {
        match self.database() {
            Some(url) => on_pg(
                url,
                |client| async move { client.batch_execute(postgres).await },
            ),
            None => self.db().execute_batch(sqlite).expect(sqlite),
        }
    }

    /// Every row of `sql` read back from the tokens and nonces (on PostgreSQL, the one
    /// database).
    pub fn auth_rows(&self, sql: &str, params: &[&str]) -> Vec<Row> {
        match self.database() {
            Some(url) => pg_rows(url, sql, params),
            None => sqlite_rows(&self.auth_db(), sql, params),
        }
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
        self.auth_rows(&format!("SELECT count(*) FROM {table}"), &[])[0].i64(0)
    }

    /// A count from the database, e.g. `count("assets")`.
    pub fn count(&self, table: &str) -> i64 {
        self.row(&format!("SELECT count(*) FROM {table}"), &[])
            .i64(0)
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
    let start = support::clock::now_ms();
    if minute - start.rem_euclid(minute) >= margin_s * 1000 {
        return;
    }
    let next = start - start.rem_euclid(minute) + minute;
    while support::clock::now_ms() < next {
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
