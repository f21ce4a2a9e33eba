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

    /// Whether a failed attempt may be sent again: reads, and writes that are idempotent (a batch
    /// by its channelOrderId, lock and unlock by nature, update by setting the same values).
    /// Creating, binding, handing out numbers and claiming are not retried.
    pub fn retries(self) -> bool {
        matches!(
            self,
            Self::QueryCustomers
                | Self::Assets
                | Self::BatchOrder
                | Self::Lock
                | Self::Unlock
                | Self::UpdateEnterprise
        )
    }
}
