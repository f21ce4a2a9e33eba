//! The interface's enums of a batch order (2.6): license, order and customer types, and the
//! sync mode. A leaf: the order types and the rules' problems both name them.

use serde::{Deserialize, Serialize};

/// 2.6: license types.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LicenseType {
    NormalUnrecoverUsbkey,
    NormalRecoverUsbkey,
    NormalUnrecoverLanUsbkey,
    NormalRecoverLanUsbkey,
    IdentityUsbkey,
    IdentityLanUsbkey,
    Softkey,
    LanSoftkey,
    ProductEntity,
    CloudAccount,
    CloudCustomer,
    CloudPersonal,
    LkProductUsbkey,
    LkAuthUsbkey,
}

impl LicenseType {
    pub const ALL: &'static [LicenseType] = <LicenseType as strum::VariantArray>::VARIANTS;

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(s: &str) -> Option<Self> {
        s.parse().ok()
    }

    /// Cloud license types: their delete orders must name `srcLicenseOrderId`.
    pub fn is_cloud(self) -> bool {
        matches!(
            self,
            Self::CloudAccount | Self::CloudCustomer | Self::CloudPersonal
        )
    }

    /// Re-issuable locks, which can always be disabled and enabled (operations 6 and 7).
    pub fn is_reissuable_lock(self) -> bool {
        matches!(
            self,
            Self::NormalRecoverUsbkey | Self::NormalRecoverLanUsbkey
        )
    }

    /// Whether a lock of this type can be disabled and enabled (operations 6 and 7): a
    /// re-issuable lock, or any lock whose order carried a validity window (a large
    /// customer's). The one rule, for the platform and the console.
    pub fn is_lockable(self, has_window: bool) -> bool {
        self.is_reissuable_lock() || (self.is_usbkey() && has_window)
    }

    /// Physical locks (USB keys) of any kind.
    pub fn is_usbkey(self) -> bool {
        self.as_str().ends_with("usbkey")
    }
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum OrderType {
    NewBuy,
    DeleteAsset,
    DeleteProduct,
}

impl OrderType {
    pub const ALL: &'static [OrderType] = <OrderType as strum::VariantArray>::VARIANTS;

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CustomerType {
    Personal,
    Company,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SyncMode {
    /// Applied before the answer (the platform's default when absent).
    #[default]
    Sync,
    /// Stored and answered at once, applied in the background.
    Async,
}
