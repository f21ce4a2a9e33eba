//! HTTP: routes, the admission of a call (token, scope, nonce, body), and each group's
//! envelopes.

mod activity;
mod admit;
mod listing;
mod order;
mod token;

use std::time::Instant;

use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};

use super::shared::AppState;
use crate::wire::paths;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route(paths::TOKEN, post(token::issue))
        .route(paths::BIND, post(order::bind))
        .route(paths::CREATE, post(order::create))
        .route(paths::QUERY, get(order::query))
        .route(paths::UPDATE, post(order::update))
        .route(paths::BATCH_ORDER, post(order::batch_order))
        .route(paths::LOCK, post(order::lock))
        .route(paths::UNLOCK, post(order::unlock))
        .route(
            "/order/api/order/v1/asset/{enterprise_global_id}/list",
            get(order::asset_list),
        )
        .route(paths::SHELLNUMS, post(order::shellnums))
        .route(paths::ACTIVITY, post(activity::claim))
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
