//! The operations a client can call, as the journal names them.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    Token,
    Bind,
    CreateEnterprise,
    QueryCustomers,
    UpdateEnterprise,
    BatchOrder,
    Lock,
    Unlock,
    Assets,
    Shellnums,
    Claim,
}

impl Operation {
    pub const ALL: [Operation; 11] = [
        Self::Token,
        Self::Bind,
        Self::CreateEnterprise,
        Self::QueryCustomers,
        Self::UpdateEnterprise,
        Self::BatchOrder,
        Self::Lock,
        Self::Unlock,
        Self::Assets,
        Self::Shellnums,
        Self::Claim,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Token => "token",
            Self::Bind => "bind",
            Self::CreateEnterprise => "create_enterprise",
            Self::QueryCustomers => "query_customers",
            Self::UpdateEnterprise => "update_enterprise",
            Self::BatchOrder => "batch_order",
            Self::Lock => "lock",
            Self::Unlock => "unlock",
            Self::Assets => "assets",
            Self::Shellnums => "shellnums",
            Self::Claim => "claim",
        }
    }

    /// Whether the call changes the platform: everything but the token and the two reads.
    pub fn writes(self) -> bool {
        !matches!(self, Self::Token | Self::QueryCustomers | Self::Assets)
    }

    /// What the platform may have done when a call of this kind, touching `items` things,
    /// got no answer: plain words for the user.
    pub fn what_may_have_happened(self, items: usize) -> String {
        // "this license order", "these 3 license orders".
        let these = |one: &str| match items {
            1 => format!("this {one}"),
            n => format!("these {n} {one}s"),
        };
        match self {
            Self::BatchOrder => format!("the platform may have applied {}", these("license order")),
            Self::Lock => format!("the platform may have disabled {}", these("lock")),
            Self::Unlock => format!("the platform may have enabled {}", these("lock")),
            Self::Shellnums => match items {
                1 => "the platform may have handed out an asset number".to_owned(),
                n => format!("the platform may have handed out {n} asset numbers"),
            },
            Self::Claim => "the platform may have granted the claim".to_owned(),
            Self::Bind => "the platform may have bound the customer".to_owned(),
            Self::CreateEnterprise => "the platform may have created the enterprise".to_owned(),
            Self::UpdateEnterprise => "the platform may have updated the enterprise".to_owned(),
            Self::Token | Self::QueryCustomers | Self::Assets => {
                "nothing changes on the platform".to_owned()
            }
        }
    }
}
