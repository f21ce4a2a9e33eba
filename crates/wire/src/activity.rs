//! The activity group: claiming the products of an activity (4.2 and 2.7).

use serde::{Deserialize, Serialize};

use super::de::null_as_empty;

/// Success.
pub const CLAIMED: &str = "0000";
/// Request parameter error (also a missing, malformed or reused `g_nonce`).
pub const BAD_PARAMETER: &str = "1001";
/// Processing exception.
pub const PROCESSING: &str = "1002";
/// Illegal participant information.
pub const BAD_IDENTITY: &str = "1004";
/// Dropped by a filter rule (source or branch).
pub const FILTERED: &str = "2001";
/// No activity with that label.
pub const NO_ACTIVITY: &str = "3001";
/// The participant may claim no unit; see `activityDtoList`.
pub const NOT_ELIGIBLE: &str = "3002";

/// Request body.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Free-form extra parameters: an object or a JSON string, e.g. `{"mode":"sync"}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ext_params: Option<serde_json::Value>,
}

/// The activity group's answer (always HTTP 200 but for 401/403).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityResponse {
    pub result_code: String,
    pub result_message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<ClaimDetail>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_dto_list: Option<Vec<ActivityDto>>,
}

impl ActivityResponse {
    pub fn failure(code: &str, message: impl Into<String>) -> Self {
        Self {
            result_code: code.to_owned(),
            result_message: message.into(),
            detail: None,
            activity_dto_list: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ClaimDetail {
    #[serde(deserialize_with = "null_as_empty")]
    pub products: Vec<ClaimedProduct>,
}

/// 2.7: a product received; validity bounds are epoch milliseconds as strings.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ClaimedProduct {
    pub activity_id: String,
    pub sub_activity_id: String,
    pub product_uri: String,
    pub limit_start_date: String,
    pub limit_end_date: String,
    pub activate_type: String,
}

/// 2.7: an activity the participant may not take part in.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityDto {
    pub id: String,
    pub name: String,
    pub participate_result: bool,
    #[serde(deserialize_with = "null_as_empty")]
    pub engine_sub_activity_dtos: Vec<SubActivityDto>,
}

/// 2.7: an activity unit and why it cannot be claimed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct SubActivityDto {
    pub id: String,
    pub name: String,
    pub participate_result: bool,
    pub error_code: Option<i32>,
    pub error_message: Option<String>,
}
