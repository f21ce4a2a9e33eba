//! The platform's OpenAPI 3.1 document, made from the same attributes that route the calls.
//!
//! Every operation's handler carries a `#[utoipa::path]` attribute, and the router is built
//! from those attributes ([`routes`], utoipa-axum's `routes!`), so a path served is a path
//! documented and the reverse. Bodies are the wire types' own schemas (`ToSchema`); what the
//! types cannot say is in `described`; the two security schemes are added here.

use std::sync::OnceLock;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr, Schema};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{activity, order, token};
use crate::shared::AppState;
use wire::DefaultFilter;

/// Where `serve` publishes the document; no token is needed to read it.
pub const DOCUMENT_PATH: &str = wire::openapi::PATH;

/// Name of the bearer scheme in the document (every operation of both groups).
pub const BEARER: &str = "bearer";
/// Name of the HTTP Basic scheme (the token endpoint: app key and secret).
pub const BASIC: &str = "basic";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "License Desk platform",
        description = "The licensing platform's interface as the embedded platform serves it: the \
order group (enterprise customers, license orders, locks, asset listings, asset numbers), the \
activity group (claims), and the token endpoint. Every call takes a bearer token and a fresh \
`g_nonce` query parameter. The order group answers HTTP 200 with `code` 0 on success and HTTP 299 \
(a business exception) with a string `code` otherwise; the activity group always answers HTTP 200 \
and its outcome is `resultCode`. Both answer 401 (no, unknown or expired token) and 403 (the \
application lacks the group's scope) before anything else.",
        license(name = "MIT OR Apache-2.0")
    ),
    // Tools such as Postman make their base URL variable from the first server.
    servers((url = "http://127.0.0.1:8610",
             description = "license-desk serve on its default address; another server: change the base URL")),
    // A query parameter's enum is referred to but, unlike a body's, not collected.
    components(schemas(DefaultFilter)),
    modifiers(&SecuritySchemes),
    tags(
        (name = "order", description = "Order group: scope auth_order"),
        (name = "activity", description = "Activity group: scope auth_activity"),
        (name = "token", description = "Application access tokens (client credentials)"),
        (name = "document", description = "This document")
    )
)]
struct ApiDoc;

struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        // `OrderEnvelope<()>` (the update's answer) refers to `()` as TupleUnit: its `data` is
        // never sent; were it, it could only be an empty object.
        components.schemas.insert(
            "TupleUnit".to_owned(),
            RefOr::T(Schema::Object(
                ObjectBuilder::new()
                    .description(Some(
                        "Never sent: the update operation answers without data",
                    ))
                    .schema_type(Type::Object)
                    .max_properties(Some(0))
                    .build(),
            )),
        );
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An application access token from POST /v3/api/oauth2/token",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            BASIC,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Basic)
                    .description(Some(
                        "The application's key as user name, its secret as password",
                    ))
                    .build(),
            ),
        );
    }
}

/// The routes of the platform with their document: the one place both come from.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(token::issue))
        .routes(routes!(order::bind))
        .routes(routes!(order::create))
        .routes(routes!(order::query))
        .routes(routes!(order::update))
        .routes(routes!(order::batch_order))
        .routes(routes!(order::lock))
        .routes(routes!(order::unlock))
        .routes(routes!(order::asset_list))
        .routes(routes!(order::shellnums))
        .routes(routes!(activity::claim))
        .routes(routes!(serve_document))
}

/// The document, as `GET /openapi.json` and `license-desk openapi` give it.
pub fn document() -> Document {
    routes().split_for_parts().1
}

/// The document as pretty JSON, made once per process.
pub fn document_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        // A document of plain maps and strings always serializes; an error here would be a
        // bug in serde_json, answered with an empty object rather than a crash.
        document()
            .to_pretty_json()
            .unwrap_or_else(|_| "{}".to_owned())
    })
}

/// This document (OpenAPI 3.1), for Postman, Apifox and other tools. No token is needed.
#[utoipa::path(
    get,
    path = DOCUMENT_PATH,
    tag = "document",
    security(()),
    responses((status = 200, description = "The OpenAPI 3.1 document",
               content_type = "application/json", body = Object))
)]
pub async fn serve_document() -> Response {
    let content_type = HeaderValue::from_static("application/json");
    ([(header::CONTENT_TYPE, content_type)], document_json()).into_response()
}
