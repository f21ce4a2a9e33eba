//! What the interface does not tell and a clerk needs to compose an order: a catalog of the
//! products and packages the branch sells, and a directory of its customers, per profile.
//! Learned from every batch imported or accepted and every answer that names a customer,
//! shared as files, searched as the clerk types.

pub mod entries;
pub mod learn;
pub mod listings;
mod requests;
pub mod search;
pub mod share;
pub mod sheet;
pub mod store;
pub mod view;

pub use entries::{CatalogEdit, CatalogItem, DirectoryEntry, Known};
pub use requests::{Edit, ExportFile, Exported, ImportFile, Load, Remove, Used};
pub use store::{Catalog, CatalogError, SHARED, Shelf};
pub use view::CatalogView;
