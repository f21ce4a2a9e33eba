//! A page as `customer show` prints it and the window exports it: every asset with its
//! products' dates and days left, what ends within 30, 90 and 365 days, and the timeline.

use std::collections::HashMap;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::Serialize;

use super::{Event, Page};
use crate::core::renewals::{Due, ReadState, Window, day};
use wire::Customer;

/// The windows a page counts what ends in.
pub const WINDOWS: [i64; 3] = [30, 90, 365];

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report<'a> {
    pub profile: &'a str,
    pub enterprise_global_id: &'a str,
    pub enterprise_name: Option<&'a str>,
    pub branch: Option<&'a str>,
    /// When the platform was read, in the console's time zone.
    pub read_at: String,
    /// Set when the platform did not answer and this is the page kept from before.
    pub unreachable: Option<&'a str>,
    pub customers_state: &'a ReadState,
    pub customers: &'a [Customer],
    pub listing_state: &'a ReadState,
    pub assets: Vec<AssetReport<'a>>,
    /// How many products (or dated assets) end within 30, 90 and 365 days.
    pub ends_within: [usize; 3],
    pub timeline: &'a [Event],
    pub team_log: Option<&'a super::TeamLog>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetReport<'a> {
    pub asset_num: &'a str,
    pub license_type: &'a str,
    pub customer_id: &'a str,
    pub locked: bool,
    pub chip: i32,
    pub lockable: bool,
    /// How many products the listing shows on it, dated or not.
    pub product_count: u32,
    /// Each dated product (or the asset's own validity), with its days left and source.
    pub products: Vec<Due>,
}

impl Page {
    /// The holdings' rows of each asset, by its number.
    pub fn rows_by_asset(&self) -> HashMap<&str, Vec<u32>> {
        let mut rows: HashMap<&str, Vec<u32>> = HashMap::new();
        for (i, r) in self.holdings.table.iter().enumerate() {
            rows.entry(r.asset_num())
                .or_default()
                .push(u32::try_from(i).unwrap_or(u32::MAX));
        }
        rows
    }

    /// How many rows end within each of [`WINDOWS`] from `today`.
    pub fn ends_within(&self, today: Date, tz: &TimeZone) -> [usize; 3] {
        WINDOWS.map(|days| {
            Window::days(today, tz, days).map_or(0, |w| {
                self.holdings.table.iter().filter(|r| w.holds(r)).count()
            })
        })
    }

    pub fn report(&self, today: Date, tz: &TimeZone) -> Report<'_> {
        let rows = self.rows_by_asset();
        let e = self.holdings.enterprises.first();
        let assets = self
            .assets
            .iter()
            .map(|a| AssetReport {
                asset_num: &a.asset_num,
                license_type: &a.license_type,
                customer_id: &a.customer_id,
                locked: a.locked,
                chip: a.chip,
                lockable: a.lockable,
                product_count: a.products,
                products: rows
                    .get(a.asset_num.as_str())
                    .into_iter()
                    .flatten()
                    .map(|i| self.holdings.due_at(*i as usize, today, tz))
                    .collect(),
            })
            .collect();
        Report {
            profile: &self.profile,
            enterprise_global_id: &self.global_id,
            enterprise_name: self.name(),
            branch: e.and_then(|e| e.branch.as_deref()),
            read_at: jiff::Timestamp::from_millisecond(self.read_at)
                .map(|t| {
                    t.to_zoned(tz.clone())
                        .strftime("%Y-%m-%d %H:%M")
                        .to_string()
                })
                .unwrap_or_default(),
            unreachable: self.unreachable.as_deref(),
            customers_state: &self.customers_state,
            customers: &self.customers,
            listing_state: self.listing_state(),
            assets,
            ends_within: self.ends_within(today, tz),
            timeline: &self.timeline,
            team_log: self.team_log.as_ref(),
        }
    }
}

/// The day an event happened, in `tz`.
pub fn event_day(e: &Event, tz: &TimeZone) -> String {
    day(e.at, tz).unwrap_or_default()
}
