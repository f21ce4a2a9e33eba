//! The interface's JSON shapes (`platform-interface.md`), shared by the embedded platform and
//! the client. Names are camelCase as on the wire; unknown extra fields are ignored.
//!
//! Request fields are `Option` (or an empty list) because the interface does not say which are
//! required: [`validate`] decides, in one place, for both the console and the platform.
//! Response types default every missing field, so a newer platform cannot break the client.

pub mod activity;
pub mod asset;
pub mod asset_list;
pub mod customer;
pub mod envelope;
pub mod open;
pub mod order;
pub mod parse;
pub mod raw;
pub mod removal;
mod skipped;
pub mod token;
pub mod validate;

pub use activity::{
    ActivityDto, ActivityResponse, ClaimDetail, ClaimRequest, ClaimedProduct, SubActivityDto,
};
pub use asset::{
    Asset, AssetExtend, AssetProduct, AssignStatus, LockRequest, LockResult, LockStatus,
    ShellnumsRequest,
};
pub use asset_list::{AssetList, AssetRef};
pub use customer::{
    BindRequest, CreatedEnterprise, Customer, CustomerQuery, DefaultFilter, EnterpriseRequest,
    Member,
};
pub use envelope::{Code, OrderEnvelope};
pub use order::{
    AssetEntry, BatchOrderRequest, BatchOrderResult, CustomerType, ExtendEntry, FeatureEntry,
    LicenseType, MerchandiseEntry, OrderEntry, OrderType, ProductEntry, SyncMode,
};
pub use token::{TokenError, TokenResponse};

/// Paths of the operations, relative to a platform's base URL.
pub mod paths {
    pub const TOKEN: &str = "/v3/api/oauth2/token";
    pub const BIND: &str = "/order/api/order/v1/enterprise/user/bind";
    pub const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
    pub const QUERY: &str = "/order/api/order/v1/enterprise/user/query";
    pub const UPDATE: &str = "/order/api/order/v1/enterprise/user/update";
    pub const BATCH_ORDER: &str = "/order/api/order/v1/licenseOrder/batchOrder";
    pub const LOCK: &str = "/order/api/order/v1/asset/lock";
    pub const UNLOCK: &str = "/order/api/order/v1/asset/unlock";
    pub const SHELLNUMS: &str = "/order/api/order/v1/shellnums";
    pub const ACTIVITY: &str = "/activity/services/activity";
    /// Operation 8's route, its path parameter named as in the interface.
    pub const ASSET_LIST: &str = "/order/api/order/v1/asset/{enterpriseGlobalId}/list";

    /// Operation 8: the asset listing of one enterprise master account.
    pub fn asset_list(enterprise_global_id: &str) -> String {
        format!("/order/api/order/v1/asset/{enterprise_global_id}/list")
    }
}

/// The two scopes an application can hold.
pub mod scopes {
    pub const ORDER: &str = "auth_order";
    pub const ACTIVITY: &str = "auth_activity";
}

/// Serde helpers shared by the shapes.
pub(crate) mod de {
    use serde::{Deserialize, Deserializer};

    /// A list that may be absent or `null` on the wire reads as empty.
    pub fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
    }
}
