//! The server's HTTP face: its own endpoints under `/team/v1/` (sign-in, sign-out, who am I)
//! and the platform's interface, forwarded for the person signed in.

mod answer;
mod approvals;
mod forward;
mod handover;
mod knowledge;
pub mod openapi;
mod record;
mod releases;
mod session;
mod trail;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use client::Client;
use ipnet::IpNet;
use wire::{approval, paths};

use crate::gate::Gate;
use crate::sessions::{Caller, SessionError, Sessions};
use crate::store::TeamStore;

pub use answer::Fail;

/// Largest request body: the platform's own limit (its largest batch fits).
pub const MAX_BODY: usize = 16 * 1024 * 1024;

/// The server's own paths.
pub use wire::team::paths as team_paths;

/// What every request uses.
pub struct Team {
    /// The server's store: the audit log is written through it.
    pub store: TeamStore,
    pub sessions: Sessions,
    /// Which sign-ins are judged, and when.
    pub gate: Gate,
    /// Proxies whose `X-Forwarded-For` names the client; any other peer is the client.
    pub trusted_proxies: Vec<IpNet>,
    /// The platform, called as the server's application.
    pub upstream: Client,
    /// The audit log's appends, committed in groups.
    pub audit: crate::appender::Appender,
    /// Customers looked up by channel, to tell which branch holds what a call names.
    pub lookups: crate::lookups::Lookups,
    /// This instance's id: the sender of the requests it approves.
    pub instance: String,
    /// What changed among the requests, for consoles that wait to hear it.
    pub events: crate::events::Events,
    /// Who mails approvers when a request waits, if anyone.
    pub mail: Option<crate::mail::Mailer>,
    /// The releases it distributes, if any.
    pub releases: Option<crate::releases::Shelf>,
}

impl Team {
    pub fn new(
        store: TeamStore,
        sessions: Sessions,
        upstream: Client,
        key: Option<crate::seal::AuditKey>,
        instance: String,
    ) -> Team {
        Team {
            audit: crate::appender::Appender::start(store.clone(), key),
            gate: Gate::new(sessions.rules().sign_ins, sessions.rules().clock.clone()),
            events: crate::events::Events::start(store.clone()),
            store,
            sessions,
            trusted_proxies: Vec::new(),
            upstream,
            lookups: crate::lookups::Lookups::default(),
            instance,
            mail: None,
            releases: None,
        }
    }

    /// The client's address: the TCP peer, unless the peer is a trusted proxy; then the
    /// nearest address in `X-Forwarded-For` that is not one (a client can prepend anything,
    /// so only what trusted proxies appended counts).
    pub fn client_address(&self, peer: SocketAddr, headers: &HeaderMap) -> String {
        let trusted = |ip: &IpAddr| self.trusted_proxies.iter().any(|net| net.contains(ip));
        if !trusted(&peer.ip()) {
            return peer.ip().to_string();
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .collect::<Vec<_>>();
        forwarded
            .into_iter()
            .rev()
            .find(|ip| !trusted(ip))
            .unwrap_or(peer.ip())
            .to_string()
    }

    /// The person whose session token is the request's bearer.
    pub async fn caller(&self, headers: &HeaderMap) -> Result<Caller, SessionError> {
        let token = bearer(headers).ok_or(SessionError::Missing)?;
        self.sessions.check(token).await
    }
}

/// The bearer token of an `Authorization` header, if there is one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

pub fn router(team: Arc<Team>) -> Router {
    Router::new()
        .route(
            team_paths::SESSION,
            post(session::sign_in)
                .layer(DefaultBodyLimit::max(session::MAX_SIGN_IN_BODY))
                .delete(session::sign_out),
        )
        .route(team_paths::ME, get(session::me))
        .route(team_paths::EVENTS, get(session::events))
        .route(team_paths::AUDIT, get(record::audit))
        .route(
            wire::knowledge::PATH,
            get(knowledge::read).post(knowledge::write),
        )
        .route(
            wire::handover::PATH,
            get(handover::list).post(handover::hand_over),
        )
        .route(
            wire::handover::ONE,
            get(handover::get).delete(handover::take),
        )
        .route(wire::release::KEY, get(releases::key))
        .route(wire::release::LATEST, get(releases::latest))
        .route(wire::release::FILE, get(releases::file))
        .route(approval::paths::REQUESTS, get(approvals::list))
        .route(approval::paths::REQUEST, get(approvals::show))
        .route(approval::paths::APPROVE, post(approvals::approve))
        .route(approval::paths::REJECT, post(approvals::reject))
        .route(wire::openapi::PATH, get(openapi_document))
        .route(paths::TOKEN, post(session::no_token))
        .route(paths::BIND, post(forward::bind))
        .route(paths::CREATE, post(forward::create))
        .route(paths::QUERY, get(forward::query))
        .route(paths::UPDATE, post(forward::update))
        .route(paths::BATCH_ORDER, post(forward::batch))
        .route(paths::LOCK, post(forward::lock))
        .route(paths::UNLOCK, post(forward::unlock))
        .route(paths::ASSET_LIST, get(forward::assets))
        .route(paths::SHELLNUMS, post(forward::shellnums))
        .route(paths::ACTIVITY, post(forward::claim))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(access_log))
        .with_state(team)
}

/// The access log: every request, answered or refused, with its client and how long it took
/// (the path only: a query carries nothing worth a log line).
async fn access_log(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<SocketAddr>>()
        .map(|c| c.0.to_string())
        .unwrap_or_default();
    let response = next.run(request).await;
    tracing::info!(
        target: "access",
        %method,
        path,
        status = response.status().as_u16(),
        peer,
        ms = started.elapsed().as_millis() as u64,
        "request"
    );
    response
}

async fn openapi_document() -> impl axum::response::IntoResponse {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        openapi::document_json(),
    )
}
