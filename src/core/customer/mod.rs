//! A customer's page (issue 38, docs/customers.md "The customer page"): one enterprise of a
//! profile, as its platform and this console know it. Its customers (operation 3), every asset
//! of its listing (operation 8), the dated rows the renewals read would give it, and a timeline
//! of the calls this console made that touched it. Stamped with its profile and when it was
//! read, and kept so that it opens again at once.

mod cache;
pub mod error;
mod export;
mod find;
mod report;
mod requests;
mod timeline;

pub use cache::{load_cached, save_cached};
pub use error::CustomerError;
pub use export::write_page_xlsx;
pub use find::{Found, find};
pub use report::{AssetReport, Report, WINDOWS, event_day};
pub use requests::{Cached, Export, Opened, ReadPage};
pub use timeline::{Event, Keys, What, events_of, events_of_audit, merge};

use serde::{Deserialize, Serialize};

use super::renewals::{Read, ReadState};
use wire::{AssetList, Customer};

/// One enterprise's page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    pub profile: String,
    pub global_id: String,
    /// When the platform was read (epoch ms).
    pub read_at: i64,
    /// Operation 3's answer for the directory's channel customer id.
    pub customers: Vec<Customer>,
    /// `NotRead` when the directory gives no channel customer id to ask by.
    pub customers_state: ReadState,
    /// Every asset of the listing, in the platform's order.
    pub assets: Vec<Held>,
    /// The dated rows, as Renewals reads them, for this one enterprise (its first and only
    /// entry holds the directory's names and the listing's fate).
    pub holdings: Read,
    /// What this console sent that touched the enterprise (and, on a team server's profile,
    /// what its audit log shows), newest first.
    pub timeline: Vec<Event>,
    /// On a team server's profile: how much of its audit log was looked at, or why none.
    pub team_log: Option<TeamLog>,
    /// Set when the page is the kept one because a refresh got no answer: the platform's
    /// words. Never kept in the file.
    #[serde(skip)]
    pub unreachable: Option<String>,
}

/// The team server's audit log, as the page read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum TeamLog {
    /// Its latest entries the person may see, this many of them, were looked at.
    Read { entries: u32 },
    /// It could not be read: why.
    NotRead { why: String },
}

/// An asset of the listing, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub asset_num: String,
    pub license_type: String,
    pub customer_id: String,
    pub locked: bool,
    /// 1: 4th generation lock, 2: 5th; 0 when the listing says none.
    pub chip: i32,
    /// Whether the platform disables and enables it (`wire::asset::lockable`).
    pub lockable: bool,
    pub limit_start: Option<i64>,
    pub limit_end: Option<i64>,
    /// How many products the listing shows on it.
    pub products: u32,
}

impl Held {
    pub fn of(list: &AssetList) -> Vec<Held> {
        list.iter()
            .map(|a| {
                let window = a.limit_start_time().is_some() || a.limit_end_time().is_some();
                Held {
                    asset_num: a.asset_num().to_owned(),
                    license_type: a.license_type().to_owned(),
                    customer_id: a.customer_id().to_owned(),
                    locked: a.locked(),
                    chip: a.key_chip_type(),
                    lockable: wire::asset::lockable(a.license_type(), window),
                    limit_start: a.limit_start_time(),
                    limit_end: a.limit_end_time(),
                    products: u32::try_from(a.product_count()).unwrap_or(u32::MAX),
                }
            })
            .collect()
    }
}

impl Page {
    /// The listing's fate: read, refused (with the platform's words) or not read.
    pub fn listing_state(&self) -> &ReadState {
        self.holdings
            .enterprises
            .first()
            .map_or(&ReadState::NotRead, |e| &e.state)
    }

    /// The directory's name for the enterprise, else the platform's.
    pub fn name(&self) -> Option<&str> {
        let e = self.holdings.enterprises.first();
        e.and_then(|e| e.name.as_deref())
            .or_else(|| e.and_then(|e| e.customer_name.as_deref()))
            .or_else(|| {
                self.customers
                    .iter()
                    .map(|c| c.enterprise_name.as_str())
                    .find(|n| !n.is_empty())
            })
    }

    /// The asset numbers on the page, each once.
    pub fn asset_nums(&self) -> impl Iterator<Item = &str> {
        self.assets.iter().map(|a| a.asset_num.as_str())
    }

    /// The license types of its assets, sorted, each once: the page groups by them.
    pub fn license_types(&self) -> Vec<&str> {
        let mut types: Vec<&str> = self
            .assets
            .iter()
            .map(|a| a.license_type.as_str())
            .collect();
        types.sort_unstable();
        types.dedup();
        types
    }
}
