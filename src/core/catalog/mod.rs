//! What the interface does not tell and a clerk needs to compose an order: a catalog of the
//! products and packages the branch sells, and a directory of its customers, per profile.
//! Learned from every batch imported or accepted and every answer that names a customer,
//! shared as files, searched as the clerk types.

pub mod learn;
pub mod search;
pub mod share;
pub mod sheet;
pub mod store;

use serde::{Deserialize, Serialize};

use crate::wire::{CustomerType, MerchandiseEntry, ProductEntry};

pub use store::{Catalog, CatalogError, SHARED, Shelf};

/// A customer or enterprise as the directory knows it: every field an order's customer part
/// takes, and the enterprise's name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DirectoryEntry {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crm_customer_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_customer_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enterprise_global_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enterprise_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admin_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admin_account: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admin_email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admin_cell_number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password_mobile: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer_type: Option<CustomerType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_name: Option<String>,
}

impl DirectoryEntry {
    /// Whether it names a customer by any id (a name alone is not a key).
    pub fn has_key(&self) -> bool {
        self.customer_id.is_some()
            || self.channel_customer_id.is_some()
            || self.enterprise_global_id.is_some()
            || self.crm_customer_id.is_some()
    }

    /// The names it is found by.
    pub fn names(&self) -> Vec<&str> {
        [&self.customer_name, &self.enterprise_name]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect()
    }

    /// The ids it is found by.
    pub fn ids(&self) -> Vec<&str> {
        [
            &self.customer_id,
            &self.crm_customer_id,
            &self.channel_customer_id,
            &self.enterprise_global_id,
            &self.admin_account,
            &self.branch_name,
        ]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect()
    }
}

/// An item as the catalog or directory holds it, with when it was last seen in a batch or an
/// answer and last picked by the user.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Known<T> {
    /// What the item is kept by: its URI, its package number, or the directory's own number.
    pub key: String,
    pub item: T,
    pub last_seen: i64,
    pub last_used: Option<i64>,
}

/// Something the user picked or removed: a product or package by its key, or a customer of a
/// profile's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogItem {
    Product(String),
    Package(String),
    Customer(String),
}

/// What the user changed in the Catalog screen: a product (by its URI), a package (by its
/// number, with its products and sub-packages), or a customer of a profile's directory (by the
/// key it was listed with).
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogEdit {
    Product(ProductEntry),
    /// `key` is the number it was listed with; the entry may carry another (renumbered).
    Package {
        key: String,
        entry: MerchandiseEntry,
    },
    Customer {
        key: String,
        entry: DirectoryEntry,
    },
}

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
