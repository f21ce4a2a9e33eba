//! The business rules of each resource, as functions over a transaction.

pub mod assets;
pub mod batch_rows;
pub mod customers;
pub mod grants;
pub mod locks;
pub mod orders;
pub mod shellnums;

use crate::sql::StoreError;

/// A stored integer (every one is a 64-bit integer in the store) that must fit the interface's
/// narrower type: a sequence, a chip type, a concurrency limit.
pub(crate) fn narrow<T: TryFrom<i64>>(n: i64) -> Result<T, StoreError> {
    T::try_from(n).map_err(|_| StoreError::OutOfRange(n))
}

/// [`narrow`] for a nullable column.
pub(crate) fn narrow_opt<T: TryFrom<i64>>(n: Option<i64>) -> Result<Option<T>, StoreError> {
    n.map(narrow).transpose()
}
