//! A typed client for any platform of the interface: the token, a fresh `g_nonce` per attempt,
//! the two groups' envelopes, retries with backoff where a retry is safe, and a time limit on
//! every call. Each attempt is reported to an [`Observer`] (the journal).

#![warn(clippy::too_many_lines)]

mod decode;
mod error;
pub mod ledger;
mod limits;
mod operation;
mod release;
mod team;
mod trust;
pub mod write;

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use reqwest::{Method, Url, header};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use error::{ApiError, Reach, Secret};
pub use limits::CallLimits;
pub use operation::Operation;
pub use trust::extra_roots;
pub use write::{WriteBegun, WriteEnded, WriteState};

use decode::{
    decode_activity, decode_order, decode_order_done, decode_token, held, held_by_team,
    recorded_body, success_code,
};

use support::clock::now_ms;
use wire::{
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
    /// Time limits of a connection and of one attempt, and how many retries where safe.
    pub limits: CallLimits,
    /// Wait before the first retry; doubled for each further one.
    pub backoff: Duration,
    /// A CA (PEM) trusted besides the system's, for a platform with a certificate of its own.
    pub ca_file: Option<PathBuf>,
    /// The profile declares that its platform answers a repeated `channelOrderId` with the
    /// first answer and creates nothing twice: only then is a batch whose answer was lost sent
    /// again by itself. The interface does not promise it; the embedded platform does.
    pub repeats_recognised: bool,
    /// Plain `http://` to a host other than this machine is allowed (the secret and the token
    /// cross the network in clear); without it such a client is not built.
    pub insecure_http: bool,
    /// A team server: the bearer is a person's session, set by [`Client::sign_in`] or from the
    /// keyring. No token endpoint is ever asked, and a session that ended is
    /// [`ApiError::SignedOut`] or the server's 401, never renewed by itself.
    pub session: bool,
}

impl ClientConfig {
    pub fn new(base_url: &str, app_key: &str, app_secret: Secret) -> Self {
        let base = base_url.trim_end_matches('/');
        Self {
            base_url: base.to_owned(),
            token_url: format!("{base}{}", paths::TOKEN),
            app_key: app_key.to_owned(),
            app_secret,
            limits: CallLimits::default(),
            backoff: limits::BACKOFF,
            ca_file: None,
            repeats_recognised: false,
            insecure_http: false,
            session: false,
        }
    }

    /// A team server's, for the person `user`: no app secret; the session is the bearer.
    pub fn team(base_url: &str, user: &str) -> Self {
        let base = base_url.trim_end_matches('/');
        Self {
            token_url: format!("{base}{}", wire::team::paths::SESSION),
            session: true,
            ..Self::new(base, user, Secret::new(""))
        }
    }
}

/// Whether `url` is plain `http://` (in any case) to a host other than this machine.
pub fn clear_remote(url: &str) -> bool {
    let Ok(url) = Url::parse(url.trim()) else {
        return false;
    };
    if url.scheme() != "http" {
        return false;
    }
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => !ip.is_loopback(),
        Err(_) => !host.eq_ignore_ascii_case("localhost"),
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
    /// Groups the attempts of one call.
    pub call_id: Option<String>,
    pub started_at_ms: i64,
    pub duration: Duration,
    pub http_status: Option<u16>,
    pub code: Option<String>,
    pub request: Option<String>,
    pub response: Option<String>,
    pub error: Option<String>,
    /// Refusals inside an answered success, in the platform's terms: a lock's statuses other
    /// than 1, a claim's code other than `0000`.
    pub refusal: Option<String>,
    /// The kind of the attempt's failure (`ApiError::kind`).
    pub failure: Option<&'static str>,
    pub attempt: u32,
}

/// How far a call has come, as its attempts go: what a cancel leaves behind.
#[derive(Default)]
struct Progress {
    attempts: AtomicU32,
    /// The ledger was told the write leaves.
    marked: AtomicBool,
    /// An attempt is being sent or answered.
    sending: AtomicBool,
    /// An attempt that ended may have reached the platform.
    reached: AtomicBool,
}

impl Progress {
    fn reached(&self) -> bool {
        self.reached.load(Ordering::SeqCst) || self.sending.load(Ordering::SeqCst)
    }
}

/// A call's attempts, ended.
struct Tried<T> {
    result: Result<T, ApiError>,
    refusal: Option<String>,
    /// Any attempt may have reached the platform.
    reached: bool,
    attempts: u32,
}

tokio::task_local! {
    /// Set by the core around each command: turns true when the user cancels it.
    pub static CANCEL: tokio::sync::watch::Receiver<bool>;
    /// Set by the core around a call whose id it must know beforehand (a queued call, whose
    /// fate is then the ledger's): the call takes it instead of a fresh one.
    pub static CALL_ID: String;
}

/// Ends when the command this call belongs to is cancelled; never when there is no such
/// command or it cannot be cancelled any more.
async fn cancelled() {
    if let Ok(mut cancel) = CANCEL.try_with(Clone::clone)
        && cancel.wait_for(|c| *c).await.is_ok()
    {
        return;
    }
    std::future::pending::<()>().await;
}

/// Why an observer could not keep a write's record (its store's own error).
pub type NotKept = Box<dyn std::error::Error + Send + Sync>;

/// Kept, or why not.
pub type Kept = Pin<Box<dyn Future<Output = Result<(), NotKept>> + Send>>;

/// How an answer is read: HTTP status and body into the call's result.
type Decode<T> = fn(u16, &[u8]) -> Result<T, ApiError>;

/// Receives every attempt; also told of each new token, so it can be kept in the keyring, and
/// of each write before it is sent and when it ends (the ledger).
pub trait Observer: Send + Sync {
    fn record(&self, record: CallRecord);
    fn token_issued(&self, _token: &CachedToken) {}
    /// Keeps the write durably before it is sent; the write is not sent until this is done,
    /// nor at all if it fails.
    fn begin_write(&self, _write: &WriteBegun) -> Kept {
        Box::pin(std::future::ready(Ok(())))
    }
    /// Marks the write as leaving now (its first request is about to be written), durably:
    /// a write in flight that never got this far is provably not sent.
    fn write_sending(&self, _call_id: &str) -> Kept {
        Box::pin(std::future::ready(Ok(())))
    }
    fn end_write(&self, _write: &WriteEnded) {}
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
    /// How many things a write touches (orders, assets, numbers), for the ledger's words.
    items: usize,
    channel_order_id: Option<String>,
}

impl<'a> Request<'a> {
    fn get(op: Operation, url: Url, query: Vec<(&'a str, String)>) -> Self {
        Self {
            op,
            method: Method::GET,
            url,
            query,
            body: None,
            items: 0,
            channel_order_id: None,
        }
    }

    fn post(op: Operation, url: Url, body: Vec<u8>, items: usize) -> Self {
        Self {
            op,
            method: Method::POST,
            url,
            query: Vec::new(),
            body: Some(body),
            items,
            channel_order_id: None,
        }
    }
}

impl Client {
    pub fn new(config: ClientConfig, observer: Arc<dyn Observer>) -> Result<Self, ApiError> {
        let base = parse_url("base URL", &config.base_url)?;
        let token_url = parse_url("token URL", &config.token_url)?;
        for (what, url) in [
            ("base URL", &config.base_url),
            ("token URL", &config.token_url),
        ] {
            if clear_remote(url) && !config.insecure_http {
                return Err(ApiError::Config(format!(
                    "not sent: the {what} is plain http:// to another machine, so the app secret and the token would cross the network in clear; use https://, or allow plain HTTP for this profile explicitly (Settings, or `profile edit --insecure-http`)"
                )));
            }
        }
        let extra_roots = match &config.ca_file {
            Some(path) => trust::extra_roots(path)?,
            None => Vec::new(),
        };
        let http = reqwest::Client::builder()
            // A redirect could carry the bearer token to another host: never follow one.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(config.limits.connect())
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
        if self.config.session {
            return session_token(cached.as_ref(), now_ms());
        }
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
        if self.config.session {
            return Err(ApiError::SignedOut(SIGN_IN_AGAIN.to_owned()));
        }
        let fresh = self.fetch_token().await?;
        self.observer.token_issued(&fresh);
        *cached = Some(fresh.clone());
        Ok(fresh)
    }

    async fn forget_token(&self) {
        *self.token.lock().await = None;
    }

    /// A token from the token endpoint, retried as a read is: asking for one changes nothing.
    async fn fetch_token(&self) -> Result<CachedToken, ApiError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.fetch_token_once(attempt).await {
                Err(e) if e.retry_makes_sense() && attempt <= self.config.limits.retries => {
                    let wait = self.config.backoff * 2u32.saturating_pow(attempt - 1);
                    tokio::time::sleep(wait).await;
                }
                other => return other,
            }
        }
    }

    async fn fetch_token_once(&self, attempt: u32) -> Result<CachedToken, ApiError> {
        let started_at_ms = now_ms();
        let started = Instant::now();
        let timeout = self.config.limits.attempt(false);
        let secs = timeout.as_secs();
        let form = "grant_type=client_credentials";
        let sent = self
            .http
            .post(self.token_url.clone())
            .basic_auth(&self.config.app_key, Some(self.config.app_secret.expose()))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(form)
            .timeout(timeout)
            .send()
            .await;
        let mut record = CallRecord {
            operation: Operation::Token,
            method: "POST",
            path: self.token_url.path().to_owned(),
            nonce: None,
            call_id: None,
            started_at_ms,
            duration: Duration::ZERO,
            http_status: None,
            code: None,
            request: Some(form.to_owned()),
            response: None,
            error: None,
            refusal: None,
            failure: None,
            attempt,
        };
        let outcome = match sent {
            Err(e) => Err(ApiError::transport(e, secs)),
            Ok(r) => {
                let status = r.status().as_u16();
                record.http_status = Some(status);
                match r.bytes().await {
                    Err(e) => Err(ApiError::cut(e, status, secs)),
                    Ok(bytes) => decode_token(status, &bytes, &mut record),
                }
            }
        };
        record.duration = started.elapsed();
        if let Err(e) = &outcome {
            record.error = Some(e.to_string());
            record.code = e.code().map(str::to_owned);
            record.failure = Some(e.kind());
        }
        self.observer.record(record);
        outcome
    }

    /// Sends one call, with a fresh nonce per attempt; renews the token once on a 401; retries
    /// where that is safe (`may_retry`). A write is in the ledger before its first attempt and
    /// ends there as done, refused, not sent or outcome unknown.
    async fn send<T>(&self, req: Request<'_>, decode: Decode<T>) -> Result<T, ApiError> {
        let call_id = CALL_ID
            .try_with(Clone::clone)
            .unwrap_or_else(|_| write::new_call_id(now_ms()));
        let begun = match req.op.writes() {
            true => Some(self.begin_write(&req, &call_id).await?),
            false => None,
        };
        let progress = Progress::default();
        let tried = tokio::select! {
            tried = self.attempts(&req, decode, &call_id, &progress) => tried,
            () = cancelled() => {
                self.record_cancelled(&req, &progress, &call_id);
                Tried {
                    result: Err(ApiError::Cancelled),
                    refusal: None,
                    reached: progress.reached(),
                    attempts: progress.attempts.load(Ordering::SeqCst),
                }
            }
        };
        match begun {
            None => tried.result,
            Some(begun) => self.end_write(&begun, tried),
        }
    }

    /// The call's attempts until one is answered, or a retry is not safe or not left.
    async fn attempts<T>(
        &self,
        req: &Request<'_>,
        decode: Decode<T>,
        call_id: &str,
        progress: &Progress,
    ) -> Tried<T> {
        let mut attempt = 0;
        let mut renewed = false;
        let (result, refusal) = loop {
            attempt += 1;
            progress.attempts.store(attempt, Ordering::SeqCst);
            let (outcome, refusal) = match self.token().await {
                Ok(token) => {
                    if req.op.writes()
                        && !progress.marked.swap(true, Ordering::SeqCst)
                        && let Err(why) = self.observer.write_sending(call_id).await
                    {
                        let e = ApiError::NotRecorded(format!("as leaving: {why}"));
                        break (Err(e), None);
                    }
                    progress.sending.store(true, Ordering::SeqCst);
                    let answered = self.attempt(req, decode, &token, attempt, call_id).await;
                    progress.sending.store(false, Ordering::SeqCst);
                    answered
                }
                Err(e) => {
                    self.record_no_token(req, &e, attempt, call_id);
                    // The write itself was not sent: its token was not had.
                    break (Err(e), None);
                }
            };
            let Err(e) = outcome else {
                break (outcome, refusal);
            };
            if e.reach() != Reach::No {
                progress.reached.store(true, Ordering::SeqCst);
            }
            if matches!(
                e,
                ApiError::Platform {
                    http_status: 401,
                    ..
                }
            ) && !renewed
                && !self.config.session
            {
                renewed = true;
                self.forget_token().await;
                continue;
            }
            if attempt > self.config.limits.retries || !self.may_retry(req.op, &e) {
                break (Err(e), None);
            }
            let wait = self.config.backoff * 2u32.saturating_pow(attempt - 1);
            tokio::time::sleep(wait).await;
        };
        Tried {
            result,
            refusal,
            reached: progress.reached(),
            attempts: attempt,
        }
    }

    /// The attempt the user cancelled, journaled as such.
    fn record_cancelled(&self, req: &Request<'_>, progress: &Progress, call_id: &str) {
        let attempt = progress.attempts.load(Ordering::SeqCst);
        let e = ApiError::Cancelled;
        self.record_unanswered(req, call_id, attempt, e.to_string(), None, e.kind());
    }

    /// An attempt that got no answer of the platform's (cancelled, or no token to send it
    /// with), journaled as the call the user asked for.
    fn record_unanswered(
        &self,
        req: &Request<'_>,
        call_id: &str,
        attempt: u32,
        error: String,
        code: Option<String>,
        failure: &'static str,
    ) {
        self.observer.record(CallRecord {
            operation: req.op,
            method: method_name(&req.method),
            path: req.url.path().to_owned(),
            nonce: None,
            call_id: Some(call_id.to_owned()),
            started_at_ms: now_ms(),
            duration: Duration::ZERO,
            http_status: None,
            code,
            request: req.body.as_deref().map(recorded_body),
            response: None,
            error: Some(error),
            refusal: None,
            failure: Some(failure),
            attempt,
        });
    }

    /// Reads retry whenever a retry makes sense. A write is sent again only when nothing of it
    /// can have reached the platform, or when it is a batch and the profile declares that its
    /// platform recognises a repeated `channelOrderId`: a platform that does not would apply it
    /// twice.
    fn may_retry(&self, op: Operation, e: &ApiError) -> bool {
        if !op.writes() || e.reach() == Reach::No {
            return e.retry_makes_sense();
        }
        op == Operation::BatchOrder && self.config.repeats_recognised && e.retry_makes_sense()
    }

    /// Records the write in the ledger and waits until it is kept: if it cannot be, nothing
    /// is sent.
    async fn begin_write(&self, req: &Request<'_>, call_id: &str) -> Result<WriteBegun, ApiError> {
        let begun = WriteBegun {
            call_id: call_id.to_owned(),
            operation: req.op,
            channel_order_id: req.channel_order_id.clone(),
            body_hash: write::body_hash(req.body.as_deref().unwrap_or_default()),
            items: req.items,
            started_at_ms: now_ms(),
        };
        self.observer
            .begin_write(&begun)
            .await
            .map_err(|why| ApiError::NotRecorded(why.to_string()))?;
        Ok(begun)
    }

    /// Tells the ledger how the write ended; an error that may hide a done write becomes
    /// `OutcomeUnknown`.
    fn end_write<T>(&self, begun: &WriteBegun, tried: Tried<T>) -> Result<T, ApiError> {
        let Tried {
            result,
            refusal,
            reached,
            attempts,
        } = tried;
        let (state, code, detail) = match &result {
            Ok(_) if refusal.is_some() => (WriteState::Refused, None, refusal),
            Ok(_) => (WriteState::Done, None, None),
            Err(e) if e.reach() == Reach::Answered => (
                WriteState::Refused,
                e.code().map(str::to_owned),
                Some(e.to_string()),
            ),
            Err(e) if reached => (WriteState::Unknown, None, Some(e.to_string())),
            Err(e @ ApiError::Held { .. }) => (WriteState::Held, None, Some(e.to_string())),
            Err(e) => (WriteState::NotSent, None, Some(e.to_string())),
        };
        self.observer.end_write(&WriteEnded {
            call_id: begun.call_id.clone(),
            state,
            code,
            detail,
            attempts,
            ended_at_ms: now_ms(),
        });
        match result {
            Err(e) if state == WriteState::Unknown => Err(ApiError::OutcomeUnknown {
                call_id: begun.call_id.clone(),
                operation: begun.operation,
                what: operation::what_may_have_happened(begun.operation, begun.items),
                detail: e.to_string(),
            }),
            other => other,
        }
    }

    /// The call the user asked for is journaled too, with the token's failure as its cause:
    /// the token row alone would not say what was attempted. The call itself was not sent.
    fn record_no_token(&self, req: &Request<'_>, e: &ApiError, attempt: u32, call_id: &str) {
        let error = format!("no token: {e}");
        let code = e.code().map(str::to_owned);
        let not_sent = ApiError::NotSent(String::new()).kind();
        self.record_unanswered(req, call_id, attempt, error, code, not_sent);
    }

    /// One attempt: the answer decoded, and the refusals an answered success carries (a
    /// lock's statuses, a claim's code).
    async fn attempt<T>(
        &self,
        req: &Request<'_>,
        decode: Decode<T>,
        token: &CachedToken,
        attempt: u32,
        call_id: &str,
    ) -> (Result<T, ApiError>, Option<String>) {
        let timeout = self.config.limits.attempt(req.op == Operation::BatchOrder);
        let secs = timeout.as_secs();
        let nonce = match fresh_nonce() {
            Ok(nonce) => nonce,
            Err(e) => return (Err(e), None),
        };
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
            Err(e) => (None, Err(ApiError::transport(e, secs)), None),
            Ok(r) => {
                let status = r.status().as_u16();
                match r.bytes().await {
                    Err(e) => (Some(status), Err(ApiError::cut(e, status, secs)), None),
                    Ok(bytes) if held_by_team(self.config.session, status) => {
                        (Some(status), Err(held(status, &bytes)), Some(bytes))
                    }
                    Ok(bytes) if self.config.session => {
                        let decoded = decode(status, &bytes);
                        let decoded = decoded.map_err(|e| team::own_words(e, &bytes));
                        (Some(status), decoded, Some(bytes))
                    }
                    Ok(bytes) => (Some(status), decode(status, &bytes), Some(bytes)),
                }
            }
        };
        let refusal = match (&outcome, &response) {
            (Ok(_), Some(bytes)) => refusal_in(req.op, bytes),
            _ => None,
        };
        self.observer.record(CallRecord {
            operation: req.op,
            method: method_name(&req.method),
            path: req.url.path().to_owned(),
            nonce: Some(nonce),
            call_id: Some(call_id.to_owned()),
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
            refusal: refusal.clone(),
            failure: outcome.as_ref().err().map(ApiError::kind),
            attempt,
        });
        (outcome, refusal)
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
        items: usize,
    ) -> Result<T, ApiError> {
        self.send(
            Request::post(op, self.url(path), encode(body)?, items),
            decode_order::<T>,
        )
        .await
    }

    /// Operation 1.
    pub async fn bind(&self, req: &BindRequest) -> Result<Customer, ApiError> {
        self.order(Operation::Bind, paths::BIND, req, 1).await
    }

    /// Operation 2.
    pub async fn create_enterprise(
        &self,
        req: &EnterpriseRequest,
    ) -> Result<CreatedEnterprise, ApiError> {
        self.order(Operation::CreateEnterprise, paths::CREATE, req, 1)
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
        let url = self.url(paths::QUERY);
        self.send(
            Request::get(Operation::QueryCustomers, url, query),
            decode_order::<Vec<Customer>>,
        )
        .await
    }

    /// Operation 4: no data in the answer.
    pub async fn update_enterprise(&self, req: &EnterpriseRequest) -> Result<(), ApiError> {
        let url = self.url(paths::UPDATE);
        self.send(
            Request::post(Operation::UpdateEnterprise, url, encode(req)?, 1),
            decode_order_done,
        )
        .await
    }

    /// Operation 5. The batch's `appKey` goes in the query, as the interface asks.
    pub async fn batch_order(
        &self,
        req: &BatchOrderRequest,
    ) -> Result<Vec<BatchOrderResult>, ApiError> {
        // With the values held verbatim: a remote platform may know what the console does not.
        let body = wire::open::batch_to_value(req);
        let url = self.url(paths::BATCH_ORDER);
        let mut request = Request::post(
            Operation::BatchOrder,
            url,
            encode(&body)?,
            req.order_list.len(),
        );
        request.query = vec![("appKey", self.config.app_key.clone())];
        request.channel_order_id.clone_from(&req.channel_order_id);
        self.send(request, decode_order::<Vec<BatchOrderResult>>)
            .await
    }

    /// Operation 6: disables the locks.
    pub async fn lock(&self, req: &LockRequest) -> Result<Vec<LockResult>, ApiError> {
        let items = req.asset_nums.len();
        self.order(Operation::Lock, paths::LOCK, req, items).await
    }

    /// Operation 7: enables the locks.
    pub async fn unlock(&self, req: &LockRequest) -> Result<Vec<LockResult>, ApiError> {
        let items = req.asset_nums.len();
        self.order(Operation::Unlock, paths::UNLOCK, req, items)
            .await
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
            Request::get(Operation::Assets, url, query),
            decode_order::<AssetList>,
        )
        .await
    }

    /// Operation 9.
    pub async fn shellnums(&self, size: i32) -> Result<Vec<String>, ApiError> {
        let items = usize::try_from(size).unwrap_or_default();
        let body = ShellnumsRequest { size: Some(size) };
        self.order(Operation::Shellnums, paths::SHELLNUMS, &body, items)
            .await
    }

    /// The activity group. Business outcomes (0000, 1004, 2001, 3001, 3002) are answers;
    /// 1001, 1002 and 401/403 are errors.
    pub async fn claim(&self, req: &ClaimRequest) -> Result<ActivityResponse, ApiError> {
        let url = self.url(paths::ACTIVITY);
        self.send(
            Request::post(Operation::Claim, url, encode(req)?, 1),
            decode_activity,
        )
        .await
    }
}

fn encode(body: &impl Serialize) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(body)
        .map_err(|e| ApiError::Config(format!("cannot encode the request: {e}")))
}

/// Refusals inside an answered success: a lock's statuses other than 1, a claim's code other
/// than `0000` (its words as the platform gave them).
fn refusal_in(op: Operation, body: &[u8]) -> Option<String> {
    match op {
        Operation::Lock | Operation::Unlock => {
            let results = decode_order::<Vec<LockResult>>(200, body).ok()?;
            write::lock_refusals(&results)
        }
        Operation::Claim => {
            let answer = serde_json::from_slice::<ActivityResponse>(body).ok()?;
            (answer.result_code != wire::activity::CLAIMED)
                .then(|| format!("{}: {}", answer.result_code, answer.result_message))
        }
        _ => None,
    }
}

fn parse_url(what: &str, s: &str) -> Result<Url, ApiError> {
    let url = Url::parse(s.trim())
        .map_err(|e| ApiError::Config(format!("the {what} {s:?} is not a URL: {e}")))?;
    // Said without the address: it holds a password. reqwest would send it instead of the token.
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ApiError::Config(format!(
            "the {what} carries a user name or password (user:pass@): refused; the app secret goes in its own field"
        )));
    }
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
/// Why a team server's call has no session to go with.
const SIGN_IN_AGAIN: &str = "the session ended";

/// A team server's session, while it lasts: it is never renewed by itself.
fn session_token(cached: Option<&CachedToken>, now: i64) -> Result<CachedToken, ApiError> {
    match cached {
        Some(t) if t.expires_at_ms > now => Ok(t.clone()),
        Some(_) => Err(ApiError::SignedOut(SIGN_IN_AGAIN.to_owned())),
        None => Err(ApiError::SignedOut(
            "not signed in on this computer".to_owned(),
        )),
    }
}

fn needs_renewal(t: &CachedToken, now: i64) -> bool {
    t.expires_at_ms - now < 5 * 60 * 1000
}

fn fresh_nonce() -> Result<String, ApiError> {
    let mut buf = [0u8; 16];
    getrandom::fill(&mut buf).map_err(|e| ApiError::Config(format!("no randomness: {e}")))?;
    Ok(URL_SAFE_NO_PAD.encode(buf))
}
