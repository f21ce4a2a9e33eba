//! The token endpoint (`POST /v3/api/oauth2/token`, RFC 6749 client credentials).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct TokenResponse {
    pub access_token: String,
    pub token_type: String,
    /// Seconds until the token expires.
    pub expires_in: i64,
    /// Space-separated scopes, e.g. `auth_order auth_activity`.
    pub scope: String,
}

/// RFC 6749 section 5.2 error body.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct TokenError {
    pub error: String,
    pub error_description: String,
}
