//! Order drafts: the composer's state, saved on every change so that nothing typed is lost;
//! the store, and the requests the window makes of it.

mod requests;
pub(in crate::core) mod store;

pub use requests::{
    Check, Delete, List, Load, Loaded, New, NewFromBatch, Rename, Save, SaveHints, SaveSnapshot,
};
pub use store::{Draft, DraftSummary, Drafts, DraftsError};
