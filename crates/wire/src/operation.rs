//! The interface's operations a client calls, by the names the journal, the ledger and the
//! team server give them (`batch_order`, `lock`, …).

use serde::{Deserialize, Serialize};

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
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
    /// Every operation, in the interface's order.
    pub const ALL: &'static [Operation] = <Operation as strum::VariantArray>::VARIANTS;

    /// Its name in the journal, the ledger and the team server's record.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether the call changes the platform: everything but the token and the two reads.
    pub fn writes(self) -> bool {
        !matches!(self, Self::Token | Self::QueryCustomers | Self::Assets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_reads_back_as_its_operation_and_serde_agrees() {
        for op in Operation::ALL {
            assert_eq!(op.name().parse::<Operation>(), Ok(*op));
            let json = serde_json::to_string(op).expect("json");
            assert_eq!(json, format!("\"{}\"", op.name()));
        }
        assert_eq!(Operation::BatchOrder.name(), "batch_order");
        assert!("batchOrder".parse::<Operation>().is_err());
    }
}
