//! A typed client for any platform of the interface: the token, a fresh `g_nonce` per attempt,
//! the two groups' envelopes, retries with backoff where a retry is safe, and a time limit on
//! every call. Each attempt is reported to an [`Observer`] (the journal).

mod decode;
mod error;
mod operation;
mod trust;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::{Method, Url, header};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use error::{ApiError, Secret};
pub use operation::Operation;
pub use trust::extra_roots;

use decode::{
    decode_activity, decode_order, decode_order_done, decode_token, recorded_body, success_code,
};

use crate::clock::now_ms;
use crate::wire::{
    ActivityResponse, AssetList, BatchOrderRequest, BatchOrderResult, BindRequest, ClaimRequest,
    CreatedEnterprise, Customer, CustomerQuery, DefaultFilter, EnterpriseRequest, LockRequest,
    LockResult, ShellnumsRequest, paths,
};

/// Where a platform is and who calls it.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// e.g. `http://127.0.0.1:8610` or `https://platform.example.com`
    pub base_url: String,
    /// e.g. `https://account.example.com/v3/api/oauth2/token`
    pub token_url: String,
    pub app_key: String,
    pub app_secret: Secret,
    /// Time limit of one attempt; batch orders get four times as long.
    pub timeout: Duration,
    /// Further attempts after the first, for calls where a retry is safe.
    pub retries: u32,
    /// Wait before the first retry; doubled for each further one.
    pub backoff: Duration,
    /// A CA (PEM) trusted besides the system's, for a platform with a certificate of its own.
    pub ca_file: Option<PathBuf>,
}

impl ClientConfig {
    pub fn new(base_url: &str, app_key: &str, app_secret: Secret) -> Self {
        let base = base_url.trim_end_matches('/');
        Self {
            base_url: base.to_owned(),
            token_url: format!("{base}{}", paths::TOKEN),
            app_key: app_key.to_owned(),
            app_secret,
            timeout: Duration::from_secs(30),
            retries: 3,
            backoff: Duration::from_millis(200),
            ca_file: None,
        }
    }
}

/// A token held by the client, with when it expires (epoch milliseconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedToken {
    pub token: Secret,
    pub expires_at_ms: i64,
    /// Space-separated scopes.
    pub scope: String,
}

/// One attempt of one call, as the journal keeps it. Bodies never hold a secret: tokens travel
/// in headers, which are not recorded, and the token endpoint's answer is redacted.
#[derive(Debug, Clone)]
pub struct CallRecord {
    pub operation: Operation,
    pub method: &'static str,
    pub path: String,
    pub nonce: Option<String>,
    pub started_at_ms: i64,
    pub duration: Duration,
    pub http_status: Option<u16>,
    pub code: Option<String>,
    pub request: Option<String>,
    pub response: Option<String>,
    pub error: Option<String>,
    pub attempt: u32,
}

/// Receives every attempt; also told of each new token, so it can be kept in the keyring.
pub trait Observer: Send + Sync {
    fn record(&self, record: CallRecord);
    fn token_issued(&self, _token: &CachedToken) {}
}

/// An observer that keeps nothing.
pub struct NoObserver;

impl Observer for NoObserver {
    fn record(&self, _record: CallRecord) {}
}

pub struct Client {
    config: ClientConfig,
    base: Url,
    token_url: Url,
    http: reqwest::Client,
    token: tokio::sync::Mutex<Option<CachedToken>>,
    observer: Arc<dyn Observer>,
}

struct Request<'a> {
    op: Operation,
    method: Method,
    url: Url,
    query: Vec<(&'a str, String)>,
    body: Option<Vec<u8>>,
}

impl Client {
    pub fn new(config: ClientConfig, observer: Arc<dyn Observer>) -> Result<Self, ApiError> {
        let base = parse_url("base URL", &config.base_url)?;
        let token_url = parse_url("token URL", &config.token_url)?;
        let extra_roots = match &config.ca_file {
            Some(path) => trust::extra_roots(path)?,
            None => Vec::new(),
        };
        let http = reqwest::Client::builder()
            // A redirect could carry the bearer token to another host: never follow one.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            // Kept connections are dropped before a server closes them (the embedded platform
            // closes idle ones after 10 s): a request written as the server closes fails.
            .pool_idle_timeout(Duration::from_secs(5))
            // Besides the system's roots, not instead of them (`trust`).
            .tls_certs_merge(extra_roots)
            .build()
            .map_err(|e| ApiError::Config(format!("cannot build the HTTP client: {e}")))?;
        Ok(Self {
            config,
            base,
            token_url,
            http,
            token: tokio::sync::Mutex::new(None),
            observer,
        })
    }

    /// Starts from a token kept from an earlier session (e.g. in the keyring).
    pub async fn set_cached_token(&self, token: Option<CachedToken>) {
        *self.token.lock().await = token;
    }

    pub fn base_url(&self) -> &str {
        &self.config.base_url
    }

    /// A valid token, from the cache or the token endpoint ("test connection" uses it).
    pub async fn token(&self) -> Result<CachedToken, ApiError> {
        let mut cached = self.token.lock().await;
        if let Some(t) = cached.as_ref()
            && !needs_renewal(t, now_ms())
        {
            return Ok(t.clone());
        }
        let fresh = self.fetch_token().await?;
        self.observer.token_issued(&fresh);
        *cached = Some(fresh.clone());
        Ok(fresh)
    }

    /// A new token from the token endpoint, whatever is cached ("test connection").
    pub async fn renew_token(&self) -> Result<CachedToken, ApiError> {
        let mut cached = self.token.lock().await;
        let fresh = self.fetch_token().await?;
        self.observer.token_issued(&fresh);
        *cached = Some(fresh.clone());
        Ok(fresh)
    }

    async fn forget_token(&self) {
        *self.token.lock().await = None;
    }

    async fn fetch_token(&self) -> Result<CachedToken, ApiError> {
        let started_at_ms = now_ms();
        let started = Instant::now();
        let form = "grant_type=client_credentials";
        let sent = self
            .http
            .post(self.token_url.clone())
            .basic_auth(&self.config.app_key, Some(self.config.app_secret.expose()))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form)
            .timeout(self.config.timeout)
            .send()
            .await;
        let mut record = CallRecord {
            operation: Operation::Token,
            method: "POST",
            path: self.token_url.path().to_owned(),
            nonce: None,
            started_at_ms,
            duration: Duration::ZERO,
            http_status: None,
            code: None,
            request: Some(form.to_owned()),
            response: None,
            error: None,
            attempt: 1,
        };
        let outcome = match sent {
            Err(e) => Err(ApiError::transport(&e, self.config.timeout.as_secs())),
            Ok(r) => {
                let status = r.status().as_u16();
                record.http_status = Some(status);
                match r.bytes().await {
                    Err(e) => Err(ApiError::transport(&e, self.config.timeout.as_secs())),
                    Ok(bytes) => decode_token(status, &bytes, &mut record),
                }
            }
        };
        record.duration = started.elapsed();
        if let Err(e) = &outcome {
            record.error = Some(e.to_string());
            record.code = e.code().map(str::to_owned);
        }
        self.observer.record(record);
        outcome
    }

    /// Sends one call, with a fresh nonce per attempt; renews the token once on a 401; retries
    /// with backoff where the operation allows it and the failure says a retry makes sense.
    async fn send<T>(
        &self,
        req: Request<'_>,
        decode: fn(u16, &[u8]) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let timeout = if req.op == Operation::BatchOrder {
            self.config.timeout * 4
        } else {
            self.config.timeout
        };
        let mut attempt = 0;
        let mut renewed = false;
        loop {
            attempt += 1;
            let token = match self.token().await {
                Ok(token) => token,
                Err(e) => {
                    // The call the user asked for is journaled too, with the token's failure
                    // as its cause: the token row alone would not say what was attempted.
                    self.observer.record(CallRecord {
                        operation: req.op,
                        method: method_name(&req.method),
                        path: req.url.path().to_owned(),
                        nonce: None,
                        started_at_ms: now_ms(),
                        duration: Duration::ZERO,
                        http_status: None,
                        code: e.code().map(str::to_owned),
                        request: req.body.as_deref().map(recorded_body),
                        response: None,
                        error: Some(format!("no token: {e}")),
                        attempt,
                    });
                    return Err(e);
                }
            };
            let nonce = fresh_nonce()?;
            let mut query: Vec<(&str, &str)> = vec![("g_nonce", nonce.as_str())];
            query.extend(req.query.iter().map(|(k, v)| (*k, v.as_str())));
            let mut builder = self
                .http
                .request(req.method.clone(), req.url.clone())
                .query(&query)
                .bearer_auth(token.token.expose())
                .timeout(timeout);
            if let Some(body) = &req.body {
                builder = builder
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(body.clone());
            }
            let started_at_ms = now_ms();
            let started = Instant::now();
            let (status, outcome, response) = match builder.send().await {
                Err(e) => (None, Err(ApiError::transport(&e, timeout.as_secs())), None),
                Ok(r) => {
                    let status = r.status().as_u16();
                    match r.bytes().await {
                        Err(e) => (
                            Some(status),
                            Err(ApiError::transport(&e, timeout.as_secs())),
                            None,
                        ),
                        Ok(bytes) => (Some(status), decode(status, &bytes), Some(bytes)),
                    }
                }
            };
            self.observer.record(CallRecord {
                operation: req.op,
                method: method_name(&req.method),
                path: req.url.path().to_owned(),
                nonce: Some(nonce.clone()),
                started_at_ms,
                duration: started.elapsed(),
                http_status: status,
                code: match &outcome {
                    Ok(_) => Some(success_code(req.op, response.as_deref())),
                    Err(e) => e.code().map(str::to_owned),
                },
                request: req.body.as_deref().map(recorded_body),
                response: response.as_deref().map(recorded_body),
                error: outcome.as_ref().err().map(ToString::to_string),
                attempt,
            });
            match outcome {
                Err(ApiError::Platform {
                    http_status: 401, ..
                }) if !renewed => {
                    renewed = true;
                    self.forget_token().await;
                }
                Err(e)
                    if e.retry_makes_sense()
                        && req.op.retries()
                        && attempt <= self.config.retries =>
                {
                    let wait = self.config.backoff * 2u32.saturating_pow(attempt - 1);
                    tokio::time::sleep(wait).await;
                }
                other => return other,
            }
        }
    }

    fn url(&self, path: &str) -> Url {
        let mut url = self.base.clone();
        let base_path = url.path().trim_end_matches('/').to_owned();
        url.set_path(&format!("{base_path}{path}"));
        url
    }

    async fn order<B: Serialize, T: DeserializeOwned>(
        &self,
        op: Operation,
        path: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        let body = serde_json::to_vec(body)
            .map_err(|e| ApiError::Config(format!("cannot encode the request: {e}")))?;
        let query = if op == Operation::BatchOrder {
            vec![("appKey", self.config.app_key.clone())]
        } else {
            Vec::new()
        };
        self.send(
            Request {
                op,
                method: Method::POST,
                url: self.url(path),
                query,
                body: Some(body),
            },
            decode_order::<T>,
        )
        .await
    }

    /// Operation 1.
    pub async fn bind(&self, req: &BindRequest) -> Result<Customer, ApiError> {
        self.order(Operation::Bind, paths::BIND, req).await
    }

    /// Operation 2.
    pub async fn create_enterprise(
        &self,
        req: &EnterpriseRequest,
    ) -> Result<CreatedEnterprise, ApiError> {
        self.order(Operation::CreateEnterprise, paths::CREATE, req)
            .await
    }

    /// Operation 3.
    pub async fn query_customers(&self, q: &CustomerQuery) -> Result<Vec<Customer>, ApiError> {
        let mut query = Vec::new();
        if let Some(c) = &q.channel_code {
            query.push(("channelCode", c.clone()));
        }
        if let Some(c) = &q.channel_customer_id {
            query.push(("channelCustomerId", c.clone()));
        }
        if let Some(d) = q.default_customer {
            let v = if d == DefaultFilter::Y { "Y" } else { "N" };
            query.push(("defaultCustomer", v.to_owned()));
        }
        self.send(
            Request {
                op: Operation::QueryCustomers,
                method: Method::GET,
                url: self.url(paths::QUERY),
                query,
                body: None,
            },
            decode_order::<Vec<Customer>>,
        )
        .await
    }

    /// Operation 4: no data in the answer.
    pub async fn update_enterprise(&self, req: &EnterpriseRequest) -> Result<(), ApiError> {
        let body = serde_json::to_vec(req)
            .map_err(|e| ApiError::Config(format!("cannot encode the request: {e}")))?;
        self.send(
            Request {
                op: Operation::UpdateEnterprise,
                method: Method::POST,
                url: self.url(paths::UPDATE),
                query: Vec::new(),
                body: Some(body),
            },
            decode_order_done,
        )
        .await
    }

    /// Operation 5.
    pub async fn batch_order(
        &self,
        req: &BatchOrderRequest,
    ) -> Result<Vec<BatchOrderResult>, ApiError> {
        // With the values held verbatim: a remote platform may know what the console does not.
        let body = crate::wire::open::batch_to_value(req);
        self.order(Operation::BatchOrder, paths::BATCH_ORDER, &body)
            .await
    }

    /// Operation 6: disables the locks.
    pub async fn lock(&self, req: &LockRequest) -> Result<Vec<LockResult>, ApiError> {
        self.order(Operation::Lock, paths::LOCK, req).await
    }

    /// Operation 7: enables the locks.
    pub async fn unlock(&self, req: &LockRequest) -> Result<Vec<LockResult>, ApiError> {
        self.order(Operation::Unlock, paths::UNLOCK, req).await
    }

    /// Operation 8.
    pub async fn assets(
        &self,
        enterprise_global_id: &str,
        extend_code: Option<&str>,
    ) -> Result<AssetList, ApiError> {
        let mut url = self.base.clone();
        {
            let mut segments = url.path_segments_mut().map_err(|_| {
                ApiError::Config(format!("{} cannot be a base URL", self.config.base_url))
            })?;
            segments.pop_if_empty();
            segments.extend([
                "order",
                "api",
                "order",
                "v1",
                "asset",
                enterprise_global_id,
                "list",
            ]);
        }
        let query = extend_code
            .filter(|c| !c.is_empty())
            .map(|c| vec![("extendCode", c.to_owned())])
            .unwrap_or_default();
        self.send(
            Request {
                op: Operation::Assets,
                method: Method::GET,
                url,
                query,
                body: None,
            },
            decode_order::<AssetList>,
        )
        .await
    }

    /// Operation 9.
    pub async fn shellnums(&self, size: i32) -> Result<Vec<String>, ApiError> {
        self.order(
            Operation::Shellnums,
            paths::SHELLNUMS,
            &ShellnumsRequest { size: Some(size) },
        )
        .await
    }

    /// The activity group. Business outcomes (0000, 1004, 2001, 3001, 3002) are answers;
    /// 1001, 1002 and 401/403 are errors.
    pub async fn claim(&self, req: &ClaimRequest) -> Result<ActivityResponse, ApiError> {
        let body = serde_json::to_vec(req)
            .map_err(|e| ApiError::Config(format!("cannot encode the request: {e}")))?;
        self.send(
            Request {
                op: Operation::Claim,
                method: Method::POST,
                url: self.url(paths::ACTIVITY),
                query: Vec::new(),
                body: Some(body),
            },
            decode_activity,
        )
        .await
    }
}

fn parse_url(what: &str, s: &str) -> Result<Url, ApiError> {
    let url = Url::parse(s.trim())
        .map_err(|e| ApiError::Config(format!("the {what} {s:?} is not a URL: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(ApiError::Config(format!(
            "the {what} {s:?} must be an http:// or https:// address with a host"
        )));
    }
    Ok(url)
}

fn method_name(m: &Method) -> &'static str {
    if *m == Method::GET { "GET" } else { "POST" }
}

/// Renew when less than five minutes (or half a short lifetime) remain.
fn needs_renewal(t: &CachedToken, now: i64) -> bool {
    t.expires_at_ms - now < 5 * 60 * 1000
}

fn fresh_nonce() -> Result<String, ApiError> {
    let mut buf = [0u8; 16];
    getrandom::fill(&mut buf).map_err(|e| ApiError::Config(format!("no randomness: {e}")))?;
    Ok(URL_SAFE_NO_PAD.encode(buf))
}
