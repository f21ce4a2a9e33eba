//! An HTTP client of the platform (the patterns of `crates/platform/benches/load.rs`): a token, a fresh
//! `g_nonce` on every call, and the answer kept whole for printing.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};

use crate::bench::server::{App, Server};

pub const ORDER: &str = "/order/api/order/v1";
pub const TOKEN_PATH: &str = "/v3/api/oauth2/token";
pub const CLAIM_PATH: &str = "/activity/services/activity";

/// A fresh nonce for every call.
pub fn nonce() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    format!("abuse-{}", N.fetch_add(1, Ordering::Relaxed))
}

pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .expect("http client")
}

/// A status and the whole answer.
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
    pub retry_after: Option<String>,
}

impl Answer {
    pub async fn read(r: reqwest::Response) -> Self {
        let status = r.status().as_u16();
        let retry_after = r
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = r.bytes().await.expect("answer").to_vec();
        Self {
            status,
            body,
            retry_after,
        }
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// `code` of the order group, `resultCode` of the activity group, `error` of the token
    /// endpoint, as text.
    pub fn code(&self) -> String {
        let v = self.json();
        let code = ["code", "resultCode", "error"]
            .iter()
            .find_map(|k| v.get(*k))
            .cloned()
            .unwrap_or(Value::Null);
        match code {
            Value::String(s) => s,
            other => other.to_string(),
        }
    }

    pub fn is_success(&self) -> bool {
        self.status == 200 && matches!(self.code().as_str(), "0" | "0000")
    }

    /// The answer as sent, cut at `max` characters.
    pub fn verbatim(&self, max: usize) -> String {
        let text = String::from_utf8_lossy(&self.body);
        match text.char_indices().nth(max) {
            Some((at, _)) => format!("{}…", &text[..at]),
            None => text.into_owned(),
        }
    }

    /// `HTTP 299, 13004: message` (the order group's `code` and `message`, the activity
    /// group's `resultCode` and `resultMessage`, the token endpoint's `error` and
    /// `error_description`); the body as sent when it has none of them.
    pub fn code_message(&self) -> String {
        let v = self.json();
        let message = ["message", "resultMessage", "error_description"]
            .iter()
            .find_map(|k| v.get(*k)?.as_str());
        match message {
            Some(m) => format!("HTTP {}, {}: {m}", self.status, self.code()),
            None => self.brief(),
        }
    }

    /// `HTTP 299 {"code":"13004",…}`, the body cut at 300 characters.
    pub fn brief(&self) -> String {
        let retry = self
            .retry_after
            .as_ref()
            .map(|r| format!(" (Retry-After: {r})"))
            .unwrap_or_default();
        format!("HTTP {}{retry} {}", self.status, self.verbatim(300))
    }
}

/// A token request with HTTP Basic credentials.
pub async fn token_request(http: &reqwest::Client, base: &str, key: &str, secret: &str) -> Answer {
    let r = http
        .post(format!("{base}{TOKEN_PATH}"))
        .basic_auth(key, Some(secret))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("token request");
    Answer::read(r).await
}

#[derive(Clone)]
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
    pub app: App,
}

impl Client {
    /// A client of `server` as `app`, with its own connections and a token.
    pub async fn new(server: &Server, app: &App) -> Self {
        let http = http_client();
        let answer = token_request(&http, &server.base, &app.key, &app.secret).await;
        assert_eq!(answer.status, 200, "token: {}", answer.brief());
        let token = answer.json()["access_token"]
            .as_str()
            .expect("access_token")
            .to_owned();
        Self {
            http,
            base: server.base.clone(),
            token,
            app: app.clone(),
        }
    }

    /// One call with the token, `g_nonce` and extra query pairs, and a JSON body.
    pub async fn call_with(
        &self,
        method: Method,
        path: &str,
        g_nonce: &str,
        extra: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Answer {
        let mut query: Vec<(&str, &str)> = vec![("g_nonce", g_nonce)];
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
        Answer::read(req.send().await.expect("request")).await
    }

    pub async fn call(&self, method: Method, path: &str, extra: &[(&str, &str)]) -> Answer {
        self.call_with(method, path, &nonce(), extra, None).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Answer {
        let bytes = serde_json::to_vec(body).expect("json");
        self.call_with(Method::POST, path, &nonce(), &[], Some(bytes))
            .await
    }

    pub async fn batch(&self, body: Vec<u8>) -> Answer {
        let key = self.app.key.clone();
        self.call_with(
            Method::POST,
            &format!("{ORDER}/licenseOrder/batchOrder"),
            &nonce(),
            &[("appKey", key.as_str())],
            Some(body),
        )
        .await
    }

    /// Operation 2: an enterprise master account; its global id.
    pub async fn enterprise(&self, crm: &str) -> String {
        let a = self
            .post(
                &format!("{ORDER}/enterprise/user/create"),
                &json!({"crmCustomerId": crm, "customerName": "滥用测试企业"}),
            )
            .await;
        assert!(a.is_success(), "create: {}", a.brief());
        a.json()["data"]["enterpriseGlobalId"]
            .as_str()
            .expect("enterpriseGlobalId")
            .to_owned()
    }
}

/// A call's wall time with its result.
pub async fn timed<T>(call: impl Future<Output = T>) -> (Duration, T) {
    let t = Instant::now();
    let out = call.await;
    (t.elapsed(), out)
}

/// A new_buy order of the given assets (one asset entry) with the given product URIs.
pub fn new_buy(sequence: usize, customer: &str, assets: &[String], products: &[String]) -> Value {
    let products: Vec<Value> = products
        .iter()
        .map(|uri| json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": 1}))
        .collect();
    json!({
        "sequence": sequence,
        "channelCustomerId": customer,
        "customerName": "滥用测试客户",
        "licenseType": "normal_recover_usbkey",
        "orderType": "new_buy",
        "assets": [{"assetNos": assets, "products": products}]
    })
}

pub fn batch_body(channel_order_id: &str, orders: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "channelCode": "CRM",
        "channelOrderId": channel_order_id,
        "syncMode": "sync",
        "orderList": orders
    }))
    .expect("json")
}

pub fn product_uris(n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("gms:{}", 1000 + k)).collect()
}

/// Ten-digit asset numbers `first`, `first + 1`, … with a leading `prefix` digit.
pub fn numbers(prefix: u8, first: usize, count: usize) -> Vec<String> {
    (first..first + count)
        .map(|i| format!("{prefix}{i:09}"))
        .collect()
}
