//! The platform's OpenAPI 3.1 document, made from the same attributes that route the calls.
//!
//! Every operation's handler carries a `#[utoipa::path]` attribute, and the router is built
//! from those attributes ([`routes`], utoipa-axum's `routes!`), so a path served is a path
//! documented and the reverse. Bodies are the wire types' own schemas (`ToSchema`). What the
//! types cannot say is added here: the `g_nonce` parameter, the refusals each group answers
//! (their codes are the envelope's constants), and the two security schemes.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::response::{Response as OpenApiResponse, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr, Schema};
use utoipa::{IntoParams, IntoResponses, Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{activity, order, token};
use crate::platform::shared::AppState;
use crate::wire::DefaultFilter;
use crate::wire::envelope::{FORBIDDEN, SYSTEM, UNAUTHORIZED, VALIDATION};

/// Where `serve` publishes the document; no token is needed to read it.
pub const DOCUMENT_PATH: &str = "/openapi.json";

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

/// The anti-replay nonce every operation takes. (Never built: its fields are the document's.)
#[allow(dead_code)]
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Nonce {
    /// A fresh random string with every call, 1 to 128 visible ASCII characters, accepted once
    /// per application (remembered for 24 hours by default). Missing, malformed or reused:
    /// HTTP 299 code "13004" (order group) or resultCode "1001" (activity group). In Postman
    /// `{{$guid}}` gives a fresh one per request.
    #[param(
        min_length = 1,
        max_length = 128,
        pattern = "^[!-~]{1,128}$",
        example = "3f1c2a9e-5b7d-4e21-9c0a-7d1e8b6f4a20"
    )]
    g_nonce: String,
}

/// Operation 5's query besides the nonce.
#[allow(dead_code)]
#[derive(IntoParams)]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct AppKey {
    /// The caller's application key: the one the token was issued to.
    #[param(min_length = 1, example = "ak_0123456789abcdef")]
    app_key: String,
}

/// A failure envelope of the order group whose `code` is one of `codes`.
fn order_failure(codes: &[&str], description: &str) -> RefOr<OpenApiResponse> {
    let text = |d: &str| {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(d))
    };
    let schema = ObjectBuilder::new()
        .property(
            "code",
            text("The failure's code, a string").enum_values(Some(codes.to_vec())),
        )
        .required("code")
        .property(
            "message",
            text("What is wrong, naming the field by its path"),
        )
        .required("message")
        .property("cause", text("Cause detail"))
        .required("cause")
        .build();
    json_response(description, Schema::Object(schema))
}

fn json_response(description: &str, schema: Schema) -> RefOr<OpenApiResponse> {
    RefOr::T(
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new().schema(Some(schema)).build(),
            )
            .build(),
    )
}

/// The order group's refusals: 299 business exceptions, 401 and 403.
pub struct OrderRefusals;

impl IntoResponses for OrderRefusals {
    fn responses() -> BTreeMap<String, RefOr<OpenApiResponse>> {
        BTreeMap::from([
            (
                "299".to_owned(),
                order_failure(
                    &[VALIDATION, SYSTEM],
                    "Business exception: 13004 a parameter is wrong (also a missing, malformed or \
                     reused g_nonce), 500 a system exception (nothing was written; retry)",
                ),
            ),
            (
                "401".to_owned(),
                order_failure(
                    &[UNAUTHORIZED],
                    "No bearer token, or an unknown or expired one",
                ),
            ),
            (
                "403".to_owned(),
                order_failure(&[FORBIDDEN], "The application lacks the scope auth_order"),
            ),
        ])
    }
}

/// A refusal of the activity group: `resultCode` one of `codes`.
fn activity_failure(codes: &[&str], description: &str) -> RefOr<OpenApiResponse> {
    let text = || ObjectBuilder::new().schema_type(Type::String);
    let schema = ObjectBuilder::new()
        .property("resultCode", text().enum_values(Some(codes.to_vec())))
        .required("resultCode")
        .property("resultMessage", text())
        .required("resultMessage")
        .build();
    json_response(description, Schema::Object(schema))
}

/// The activity group's refusals before any business logic: 401 and 403.
pub struct ActivityRefusals;

impl IntoResponses for ActivityRefusals {
    fn responses() -> BTreeMap<String, RefOr<OpenApiResponse>> {
        BTreeMap::from([
            (
                "401".to_owned(),
                activity_failure(
                    &[UNAUTHORIZED],
                    "No bearer token, or an unknown or expired one",
                ),
            ),
            (
                "403".to_owned(),
                activity_failure(
                    &[FORBIDDEN],
                    "The application lacks the scope auth_activity",
                ),
            ),
        ])
    }
}

/// The outcomes a claim's HTTP 200 carries (its schema is `ActivityResponse`'s).
pub const ACTIVITY_CODES: &str = "0000 claimed (detail.products); 1001 a parameter is wrong (also \
a missing, malformed or reused g_nonce); 1002 processing exception; 1004 illegal participant \
information; 2001 dropped by a filter rule; 3001 no such activity; 3002 not eligible \
(activityDtoList)";

/// The token endpoint's form body.
#[allow(dead_code)]
#[derive(utoipa::ToSchema)]
pub struct TokenForm {
    /// Only `client_credentials` is supported.
    #[schema(example = "client_credentials")]
    grant_type: String,
}
