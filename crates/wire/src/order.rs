//! Batch license orders (operation 5): 2.5 and 2.6 of the interface.

use serde::{Deserialize, Serialize};

use super::de::{null_as_empty, tight_or_null};
use super::raw::Raw;

pub use super::kinds::{CustomerType, LicenseType, OrderType, SyncMode};

/// Operation 5 body.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchOrderRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_order_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync_mode: Option<SyncMode>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub order_list: Vec<OrderEntry>,
    /// Values read from a file that do not fit the fields above, kept verbatim.
    #[serde(skip)]
    pub raw: Raw,
}

/// Operation 5 answer, one per order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct BatchOrderResult {
    pub sequence: i32,
    pub license_order_id: String,
    pub customer_id: String,
}

/// An element of `orderList`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crm_customer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_customer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_account: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_cell_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_mobile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub customer_type: Option<CustomerType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enterprise_global_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src_license_order_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license_type: Option<LicenseType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_type: Option<OrderType>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub assets: Vec<AssetEntry>,
    /// Values read from a file that do not fit the fields above, kept verbatim.
    #[serde(skip)]
    pub raw: Raw,
}

/// An `{extendCode, extendValue}` pair as sent in an order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtendEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extend_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extend_value: Option<String>,
    /// Values read from a file that do not fit the fields above, kept verbatim.
    #[serde(skip)]
    pub raw: Raw,
}

/// An element of an order's `assets`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssetEntry {
    #[serde(default, deserialize_with = "null_as_empty")]
    pub asset_nos: Vec<String>,
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub asset_extend_list: Vec<ExtendEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_start_date: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_end_date: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub borrowed_usb_key: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfered_asset_num: Option<bool>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub products: Vec<ProductEntry>,
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub merchandises: Vec<MerchandiseEntry>,
    /// Values read from a file that do not fit the fields above, kept verbatim.
    #[serde(skip)]
    pub raw: Raw,
}

/// A product granted (or removed) on an asset.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crm_product_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_crm_product_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gms_pid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_start_date: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_end_date: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_concurrent: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_time_duration: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict_match_when_delete: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial: Option<i32>,
    /// Epoch milliseconds, like every timestamp (the table says Integer; a 32-bit integer
    /// cannot hold a date in milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_end_date: Option<i64>,
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub passwords: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_unit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_unit_quantity: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_duration_expression: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src_license_order_id: Option<String>,
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub product_features: Vec<FeatureEntry>,
    /// Values read from a file that do not fit the fields above, kept verbatim.
    #[serde(skip)]
    pub raw: Raw,
}

/// A feature point of a product.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeatureEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature_value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature_value_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial: Option<i32>,
    /// Epoch milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_end_date: Option<i64>,
    /// Values read from a file that do not fit the fields above, kept verbatim.
    #[serde(skip)]
    pub raw: Raw,
}

/// A merchandise (product package); `children` is `null` at the deepest level.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MerchandiseEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crm_product_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_crm_product_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchandise_num: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchandise_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_merchandise_num: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_duration_expression: Option<String>,
    /// Lower-level merchandise; `null` at the deepest level.
    #[serde(default, deserialize_with = "tight_or_null")]
    #[schema(no_recursion)]
    pub children: Option<Vec<MerchandiseEntry>>,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub license_order_product_list: Vec<ProductEntry>,
    /// Values read from a file that do not fit the fields above, kept verbatim.
    #[serde(skip)]
    pub raw: Raw,
}
