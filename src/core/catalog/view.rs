//! The catalog and a profile's directory as the window searches them.

use super::entries::{DirectoryEntry, Known};
use super::search;
use super::store::{Catalog, CatalogError, SHARED};
use wire::{MerchandiseEntry, ProductEntry};

/// The catalog and a profile's directory as the window searches them: the items, and their
/// search keys built once (off the window's thread).
pub struct CatalogView {
    pub profile: String,
    /// The products and packages are the profile's own catalog, not the shared one.
    pub own: bool,
    pub products: Vec<Known<ProductEntry>>,
    pub packages: Vec<Known<MerchandiseEntry>>,
    pub customers: Vec<Known<DirectoryEntry>>,
    pub product_index: search::SearchIndex,
    pub package_index: search::SearchIndex,
    pub customer_index: search::SearchIndex,
}

impl CatalogView {
    /// The catalog of `scope` (`SHARED`, or the profile's own) and `profile`'s directory.
    pub fn load(catalog: &Catalog, scope: &str, profile: &str) -> Result<Self, CatalogError> {
        let products = catalog.products(scope)?;
        let packages = catalog.packages(scope)?;
        let customers = catalog.customers(profile)?;
        let used = |k: Option<i64>| k.unwrap_or(0);
        let product_index = search::SearchIndex::new(products.iter().map(|k| {
            search::Entry {
                names: k.item.product_name.as_deref().into_iter().collect(),
                ids: [
                    &k.item.product_uri,
                    &k.item.gms_pid,
                    &k.item.app_key,
                    &k.item.crm_product_id,
                ]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect(),
                last_used: used(k.last_used),
            }
        }));
        let package_index = search::SearchIndex::new(packages.iter().map(|k| search::Entry {
            names: k.item.merchandise_name.as_deref().into_iter().collect(),
            ids: vec![k.key.as_str()],
            last_used: used(k.last_used),
        }));
        let customer_index = search::SearchIndex::new(customers.iter().map(|k| search::Entry {
            names: k.item.names(),
            ids: k.item.ids(),
            last_used: used(k.last_used),
        }));
        Ok(CatalogView {
            profile: profile.to_owned(),
            own: scope != SHARED,
            products,
            packages,
            customers,
            product_index,
            package_index,
            customer_index,
        })
    }
}

// The indexes follow from the items: comparing and printing the items is enough.
impl PartialEq for CatalogView {
    fn eq(&self, other: &Self) -> bool {
        self.profile == other.profile
            && self.own == other.own
            && self.products == other.products
            && self.packages == other.packages
            && self.customers == other.customers
    }
}

impl std::fmt::Debug for CatalogView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CatalogView")
            .field("profile", &self.profile)
            .field("own", &self.own)
            .field("products", &self.products.len())
            .field("packages", &self.packages.len())
            .field("customers", &self.customers.len())
            .finish()
    }
}
