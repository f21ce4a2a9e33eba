//! Customers and enterprise master accounts (operations 1 to 4).

use serde::{Deserialize, Serialize};

use super::de::null_as_empty;

/// 2.1: an enterprise customer bound to a master account.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Customer {
    pub customer_id: String,
    pub channel_code: String,
    pub channel_customer_id: String,
    pub enterprise_global_id: String,
    pub enterprise_name: String,
    pub is_default: bool,
}

/// 2.2: a member created with an enterprise master account.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Member {
    pub member_global_id: String,
    pub member_identity: String,
}

/// Operation 1 body.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BindRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_customer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enterprise_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_mobile: Option<String>,
}

/// Body of operations 2 (create) and 4 (update): the same four fields.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnterpriseRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crm_customer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// Operation 2 answer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CreatedEnterprise {
    pub enterprise_global_id: String,
    pub default_type: bool,
    #[serde(deserialize_with = "null_as_empty")]
    pub members: Vec<Member>,
}

/// Operation 3's `defaultCustomer`: Y = only the default customer, N = all customers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub enum DefaultFilter {
    Y,
    N,
}

/// Operation 3's query string (besides `g_nonce`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct CustomerQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[param(example = "CRM")]
    pub channel_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[param(example = "C-10001")]
    pub channel_customer_id: Option<String>,
    /// Y: only the default customer; N (or absent): all customers of the enterprise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[param(example = "N")]
    pub default_customer: Option<DefaultFilter>,
}
