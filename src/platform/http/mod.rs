//! HTTP: routes, the admission of a call (token, scope, nonce, body), and each group's
//! envelopes.

mod activity;
mod admit;
mod listing;
pub mod openapi;
mod order;
mod token;

use std::time::Instant;

use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;

use super::shared::AppState;

/// The routes come with their OpenAPI document ([`openapi::routes`]); the document itself is
/// served among them.
pub fn router(state: AppState) -> Router {
    let (routes, _document) = openapi::routes().split_for_parts();
    routes
        .fallback(order::not_found)
        .method_not_allowed_fallback(order::method_not_allowed)
        .layer(middleware::from_fn(access_log))
        .with_state(state)
}

/// One line per request at info level. The query string is left out: it holds only the nonce
/// and filters, and tokens travel in headers, which are never logged.
async fn access_log(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let started = Instant::now();
    let response = next.run(req).await;
    tracing::info!(
        %method,
        path,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "request"
    );
    response
}
