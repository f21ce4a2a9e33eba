//! What a team knows beside the platform, kept on its team server (`docs/team.md`, "Shared
//! knowledge"): the catalog of products and packages and the directory of customers, one
//! truth for every console. Each change gets the next number, so that a console reads only
//! what changed since it last read.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `GET ?since=N` reads the changes after N; `POST` a list of [`Put`] writes some.
pub const PATH: &str = "/team/v1/knowledge";

/// Where an item is kept.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Shelf {
    /// A product (`ProductEntry`), by its URI.
    Products,
    /// A package (`MerchandiseEntry`), by its key.
    Packages,
    /// A customer or enterprise of the directory, by its key.
    Customers,
}

impl Shelf {
    pub const ALL: [Shelf; 3] = [Self::Products, Self::Packages, Self::Customers];

    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Shelf> {
        name.parse().ok()
    }
}

/// An item written: its value, or `null` to remove it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Put {
    pub shelf: Shelf,
    pub key: String,
    pub value: Option<Value>,
}

/// An item as it changed, numbered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub seq: i64,
    pub shelf: Shelf,
    pub key: String,
    /// `null` once removed.
    pub value: Option<Value>,
    /// Epoch milliseconds.
    pub changed_at: i64,
    pub changed_by: String,
}

/// `GET`'s answer: the changes after `since` in order, and the number to ask from next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Changes {
    pub changes: Vec<Change>,
    /// The last change's number (`since` when there is none): the next `since`.
    pub last: i64,
    /// More changes wait past this page.
    pub more: bool,
}

/// Changes answered at once at most.
pub const PAGE: i64 = 1000;
/// A key's length at most, in characters.
pub const MAX_KEY: usize = 200;
/// Items written at once at most.
pub const MAX_PUTS: usize = 1000;
