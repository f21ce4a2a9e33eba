//! The catalog as a file, so that one person keeps the branch's catalog and everyone loads it:
//! JSON with the interface's own shapes (`products` as product entries, `packages` as
//! merchandise trees) and, when asked, a profile's `customers`.

use serde::{Deserialize, Serialize};

use super::DirectoryEntry;
use super::learn::{Learned, package_definition, product_definition};
use super::store::{Catalog, CatalogError};
use wire::{MerchandiseEntry, ProductEntry};

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CatalogFile {
    pub products: Vec<ProductEntry>,
    pub packages: Vec<MerchandiseEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub customers: Vec<DirectoryEntry>,
}

impl CatalogFile {
    /// The catalog of `scope`, and `profile`'s directory when one is named.
    pub fn of(catalog: &Catalog, scope: &str, profile: Option<&str>) -> Result<Self, CatalogError> {
        Ok(CatalogFile {
            products: catalog
                .products(scope)?
                .into_iter()
                .map(|k| k.item)
                .collect(),
            packages: catalog
                .packages(scope)?
                .into_iter()
                .map(|k| k.item)
                .collect(),
            customers: match profile {
                Some(p) => catalog.customers(p)?.into_iter().map(|k| k.item).collect(),
                None => Vec::new(),
            },
        })
    }

    /// What the file teaches: its products and packages as definitions (sale fields dropped),
    /// its customers (those naming an id).
    pub fn learned(self) -> Learned {
        Learned {
            products: self
                .products
                .iter()
                .filter_map(product_definition)
                .collect(),
            packages: self
                .packages
                .iter()
                .filter_map(package_definition)
                .collect(),
            customers: self.customers.into_iter().filter(|c| c.has_key()).collect(),
        }
    }
}

/// The Sandbox's demo catalog: the products and a package its demo data sells.
pub const DEMO_CATALOG: &str = include_str!("../../../assets/demo-catalog.json");
