//! Assets, locks and asset numbers (operations 6 to 9): 2.3 and 2.4 of the interface.

use serde::{Deserialize, Serialize};
use serde_repr::{Deserialize_repr, Serialize_repr};

use super::kinds::LicenseType;

/// Whether an asset of `license_type` (the interface's code), with a validity window or not,
/// can be disabled and enabled: [`LicenseType::is_lockable`].
pub fn lockable(license_type: &str, has_window: bool) -> bool {
    LicenseType::parse(license_type).is_some_and(|t| t.is_lockable(has_window))
}

use super::de::null_as_empty;

/// An `{extendCode, extendValue}` attribute as the asset listing returns it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct AssetExtend {
    pub extend_code: String,
    pub extend_value: String,
}

/// 2.3: an asset of the listing (operation 8).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Asset {
    pub id: String,
    /// One of 2.6's values; a string so that a newer platform's types still read.
    pub license_type: String,
    pub asset_num: String,
    pub grantable: bool,
    pub customer_id: String,
    pub key_shell_number: String,
    pub key_chip_type: i32,
    pub locked: bool,
    pub freezing: bool,
    pub create_time: i64,
    pub update_time: i64,
    pub limit_start_time: Option<i64>,
    pub limit_end_time: Option<i64>,
    pub assign_status: AssignStatus,
    pub asset_limits: Option<serde_json::Value>,
    #[serde(deserialize_with = "null_as_empty")]
    pub asset_extends: Vec<AssetExtend>,
    pub borrowed_usb_key: bool,
    /// The license order that made the asset. Not in 2.3: the embedded platform adds it so a
    /// console can preview a `delete_asset` limited to a source order; absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license_order_id: Option<String>,
    /// The products the asset holds. Not in 2.3 (the interface shows none): the embedded
    /// platform adds it so a console can show what a lock carries; absent when empty.
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub products: Vec<AssetProduct>,
}

/// A product held by an asset, granted by a license order or by an activity claim.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct AssetProduct {
    pub product_uri: String,
    pub product_name: Option<String>,
    pub limit_start_date: Option<i64>,
    pub limit_end_date: Option<i64>,
    pub limit_concurrent: Option<i32>,
    /// The license order that granted it, if an order did.
    pub license_order_id: Option<String>,
    /// The activity and unit it was claimed from, if a claim did.
    pub activity_id: Option<String>,
    pub sub_activity_id: Option<String>,
    /// `activateType` "1": claimed, to be activated separately.
    pub awaiting_activation: bool,
}

/// 2.4: the assignment record of an asset.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct AssignStatus {
    pub id: String,
    pub assign_status: String,
    pub assign_member_id: String,
    pub create_time: String,
    pub update_time: Option<String>,
}

/// Body of operations 6 (lock) and 7 (unlock).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LockRequest {
    #[serde(default, deserialize_with = "null_as_empty")]
    pub asset_nums: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator_identity: Option<String>,
}

/// Per-asset outcome of lock and unlock (4.1 rule 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize_repr, Deserialize_repr, utoipa::ToSchema)]
#[repr(u8)]
pub enum LockStatus {
    Success = 1,
    NotFound = 2,
    Failed = 3,
    WrongType = 4,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LockResult {
    pub asset_num: String,
    pub status: LockStatus,
}

/// Operation 9 body.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShellnumsRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}
