//! The interface's JSON shapes (`platform-interface.md`), shared by the embedded platform and
//! the client. Names are camelCase as on the wire; unknown extra fields are ignored.
//!
//! Request fields are `Option` (or an empty list) because the interface does not say which are
//! required: [`validate`] decides, in one place, for both the console and the platform.
//! Response types default every missing field, so a newer platform cannot break the client.

#![warn(clippy::too_many_lines)]

pub mod activity;
pub mod approval;
pub mod asset;
pub mod asset_list;
pub mod customer;
pub mod declared;
pub mod envelope;
pub mod handover;
pub mod kinds;
pub mod knowledge;
pub mod open;
pub mod openapi;
pub mod operation;
pub mod order;
pub mod parse;
pub mod preview;
pub mod raw;
pub mod refusal;
pub mod release;
pub mod removal;
mod skipped;
pub mod team;
pub mod token;
pub mod validate;

pub use activity::{
    ActivityDto, ActivityResponse, ClaimDetail, ClaimRequest, ClaimedProduct, SubActivityDto,
};
pub use asset::{
    Asset, AssetExtend, AssetProduct, AssignStatus, LockRequest, LockResult, LockStatus,
    ShellnumsRequest,
};
pub use asset_list::{AssetList, AssetRef, DatedProduct};
pub use customer::{
    BindRequest, CreatedEnterprise, Customer, CustomerQuery, DefaultFilter, EnterpriseRequest,
    Member,
};
pub use envelope::{Code, OrderEnvelope};
pub use operation::Operation;
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
    use std::fmt;
    use std::marker::PhantomData;

    use serde::de::{SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer};

    /// A list that may be absent or `null` on the wire reads as empty.
    pub fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        Ok(Option::<Tight<T>>::deserialize(d)?.map_or_else(Vec::new, |t| t.0))
    }

    /// A list that may be `null` on the wire, read as [`Tight`].
    pub fn tight_or_null<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        Ok(Option::<Tight<T>>::deserialize(d)?.map(|t| t.0))
    }

    /// Lists up to this long are given room for exactly what they hold.
    const EXACT_UP_TO: usize = 8;

    /// A list read into room for what it holds: serde's own gives a list of one room for four,
    /// and a batch's nodes are a few hundred bytes each, in lists of one or two. That unused
    /// room was most of the memory a 10,000-order file opened into (61 MB for 5 MB of text),
    /// and touching it fresh was most of the time the parse took in the window's process.
    struct Tight<T>(Vec<T>);

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Tight<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_seq(Items(PhantomData)).map(Tight)
        }
    }

    struct Items<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for Items<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            // serde's own words for a list, so that what a file is told stays the same.
            f.write_str("a sequence")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element()? {
                if items.len() == items.capacity() && items.len() < EXACT_UP_TO {
                    items.reserve_exact(1);
                }
                items.push(item);
            }
            Ok(items)
        }
    }

    #[cfg(test)]
    mod tests {
        use crate::BatchOrderRequest;

        #[test]
        fn lists_are_read_into_room_for_what_they_hold_and_a_wrong_type_is_said_as_before() {
            let products = |n: usize| vec![r#"{"productUri":"gms:1"}"#; n].join(",");
            let text = format!(
                r#"{{"orderList":[{{"assets":[{{"assetNos":["8000000001"],"products":[{}],
                "merchandises":[{{"children":[{{"licenseOrderProductList":[{}]}}]}}]}}]}},
                {{"assets":null}}]}}"#,
                products(2),
                products(20)
            );
            let batch: BatchOrderRequest = serde_json::from_str(&text).expect("batch");
            let asset = &batch.order_list[0].assets[0];
            assert_eq!((asset.products.len(), asset.products.capacity()), (2, 2));
            assert_eq!(asset.asset_nos.capacity(), 1);
            let child = &asset.merchandises[0].children.as_ref().expect("children")[0];
            assert_eq!(child.license_order_product_list.len(), 20);
            assert_eq!(batch.order_list[1].assets, vec![]);
            assert_eq!(asset.merchandises[0].license_order_product_list, vec![]);

            let wrong = serde_json::from_str::<BatchOrderRequest>(r#"{"orderList":5}"#);
            let words = wrong.expect_err("not a list").to_string();
            assert_eq!(
                words,
                "invalid type: integer `5`, expected a sequence at line 1 column 14"
            );
        }
    }
}
