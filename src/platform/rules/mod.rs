//! The business rules of each resource, as functions over a transaction.

pub mod assets;
pub mod customers;
pub mod grants;
pub mod locks;
pub mod orders;
pub mod shellnums;
