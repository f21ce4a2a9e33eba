//! What the catalog and the directory hold, item by item, and what the user picks or changes
//! of them.

use serde::{Deserialize, Serialize};

use wire::{CustomerType, MerchandiseEntry, ProductEntry};

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
