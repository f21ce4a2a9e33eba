//! HTTP: routes, the admission of a call (token, scope, nonce, body), and each group's
//! envelopes.

mod activity;
mod admit;
mod closing;
mod described;
mod listing;
pub mod openapi;
mod order;
mod token;

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::Router;
use axum::extract::{ConnectInfo, Request};
use axum::http::request::Parts;
use axum::middleware::{self, Next};
use axum::response::Response;

use super::shared::AppState;

/// The routes come with their OpenAPI document ([`openapi::routes`]); the document itself is
/// served among them. A server started with a Sandbox proof also answers its challenges.
pub fn router(state: AppState, proof: Option<String>) -> Router {
    let (mut routes, _document) = openapi::routes().split_for_parts();
    if let Some(proof) = proof {
        routes = routes.merge(super::proof::route(proof));
    }
    routes
        .fallback(order::not_found)
        .method_not_allowed_fallback(order::method_not_allowed)
        .layer(middleware::from_fn(access_log))
        .with_state(state)
}

/// The app key a request named, once admission or the token endpoint has read it: filled in
/// by the handler, read by the access log.
#[derive(Clone, Default)]
pub struct NamedApp(Arc<OnceLock<String>>);

impl NamedApp {
    /// Notes the request's app key for its access-log line.
    pub fn note(parts: &Parts, app_key: &str) {
        if let Some(slot) = parts.extensions.get::<NamedApp>() {
            // Noted once per request: a second note keeps the first.
            let _ = slot.0.set(app_key.to_owned());
        }
    }
}

/// The client's address (the TCP peer; behind a reverse proxy, the proxy's).
pub fn client_address(parts: &Parts) -> String {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string())
        .unwrap_or_default()
}

/// One line per request at info level, with the client's address and the app key it named.
/// The query string is left out: it holds only the nonce and filters, and tokens travel in
/// headers, which are never logged.
async fn access_log(mut req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let address = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let app = NamedApp::default();
    req.extensions_mut().insert(app.clone());
    let started = Instant::now();
    let response = next.run(req).await;
    tracing::info!(
        %method,
        path,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        address = address.map(tracing::field::display),
        app_key = app.0.get().map(String::as_str),
        "request"
    );
    response
}
