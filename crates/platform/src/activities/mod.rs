//! The activity group: activity definitions (from a file) and claims (in the store).

mod claim;
mod definition;

pub use claim::{ClaimInput, claim};
pub use definition::{
    ActivateType, Activities, Activity, IdentityKind, NotActivities, Unit, UnitProduct,
};
