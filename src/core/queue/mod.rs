//! Send later: batches and lock changes kept while their platform cannot be reached, sent in
//! order (each to its own profile) when it answers again; the store, and what the window asks
//! of it.

mod requests;
pub(in crate::core) mod store;

pub use requests::{Add, Load, Remove, SendWaiting};
pub use store::{Queue, QueueError, QueueState, QueuedEntry};
