//! What the OpenAPI document says that the wire types cannot: the `g_nonce` parameter, the
//! query of operation 5, the refusals each group answers (their codes are the envelope's
//! constants) and the token endpoint's form. The handlers name these in their
//! `#[utoipa::path]` attributes; `openapi` assembles the document from the handlers.

use std::collections::BTreeMap;

use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::response::{Response as OpenApiResponse, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{IntoParams, IntoResponses};

use wire::envelope::{BUSINESS_EXCEPTION_STATUS, FORBIDDEN, SYSTEM, UNAUTHORIZED, VALIDATION};

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
                BUSINESS_EXCEPTION_STATUS.to_string(),
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
