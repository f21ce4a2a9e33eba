//! What ends when (issue 38, docs/customers.md "Where an end date comes from"): an enterprise's
//! listing turned into rows, one per dated product, or one per asset when only the asset is
//! dated, or from what this console sent when the listing dates nothing; each row says its
//! source, and a date that cannot be one says why instead of being counted.

use std::collections::HashMap;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::Serialize;

use crate::wire::Asset;

/// The last millisecond of the year 9999: later is no real end.
const LAST_REAL_MS: i64 = 253_402_300_799_999;

/// Where a row's dates come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A product the listing shows on the asset.
    Product,
    /// The asset's own validity in the listing.
    Asset,
    /// A batch this console (or the team server) sent and the platform accepted: as sent, not
    /// read.
    Sent,
}

/// Why an end date is not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trouble {
    /// The end comes before the start.
    Reversed,
    /// Past the year 9999.
    NoRealEnd,
}

/// A product (or a whole asset) with its end date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub enterprise_global_id: String,
    pub customer_id: String,
    pub asset_num: String,
    pub license_type: String,
    /// None for the asset's own validity.
    pub product_uri: Option<String>,
    pub product_name: Option<String>,
    pub start: Option<i64>,
    pub end: i64,
    pub source: Source,
    pub locked: bool,
    /// Why the end is not counted, if it is not.
    pub trouble: Option<Trouble>,
}

/// A product a batch granted on an asset, with its dates, as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentProduct {
    pub product_uri: String,
    pub product_name: Option<String>,
    pub start: Option<i64>,
    pub end: Option<i64>,
}

/// What accepted batches granted, by asset number.
pub type Sent = HashMap<String, Vec<SentProduct>>;

/// The rows of one enterprise's listing: each dated product; else the asset's own validity;
/// else what was sent for it. An asset with none of these gives no row.
pub fn rows_of(enterprise: &str, assets: &[Asset], sent: &Sent) -> Vec<Row> {
    let mut rows = Vec::new();
    for asset in assets {
        let row = |product_uri, product_name, start, end, source| Row {
            enterprise_global_id: enterprise.to_owned(),
            customer_id: asset.customer_id.clone(),
            asset_num: asset.asset_num.clone(),
            license_type: asset.license_type.clone(),
            product_uri,
            product_name,
            start,
            end,
            source,
            locked: asset.locked,
            trouble: trouble(start, end),
        };
        let before = rows.len();
        for p in &asset.products {
            if let Some(end) = dated(p.limit_end_date) {
                let (uri, name) = (Some(p.product_uri.clone()), p.product_name.clone());
                rows.push(row(
                    uri,
                    name,
                    dated(p.limit_start_date),
                    end,
                    Source::Product,
                ));
            }
        }
        if rows.len() > before {
            continue;
        }
        if let Some(end) = dated(asset.limit_end_time) {
            let start = dated(asset.limit_start_time);
            rows.push(row(None, None, start, end, Source::Asset));
            continue;
        }
        for p in sent.get(&asset.asset_num).into_iter().flatten() {
            if let Some(end) = dated(p.end) {
                let (uri, name) = (Some(p.product_uri.clone()), p.product_name.clone());
                rows.push(row(uri, name, dated(p.start), end, Source::Sent));
            }
        }
    }
    rows
}

/// A date the platform gave: 0 and absent are none.
fn dated(ms: Option<i64>) -> Option<i64> {
    ms.filter(|ms| *ms > 0)
}

fn trouble(start: Option<i64>, end: i64) -> Option<Trouble> {
    if end > LAST_REAL_MS {
        Some(Trouble::NoRealEnd)
    } else if start.is_some_and(|s| s > end) {
        Some(Trouble::Reversed)
    } else {
        None
    }
}

/// Days from the start of `today` to the day `end_ms` falls on, in `tz`: 0 on the day it
/// ends, negative once past.
pub fn days_left(end_ms: i64, today: Date, tz: &TimeZone) -> Option<i64> {
    let end = Timestamp::from_millisecond(end_ms)
        .ok()?
        .to_zoned(tz.clone())
        .date();
    let span = today.until(end).ok()?;
    Some(i64::from(span.get_days()))
}

/// The rows that end within `days` of `today` (from today on), untroubled.
pub fn within(rows: &[Row], today: Date, tz: &TimeZone, days: i64) -> Vec<Row> {
    rows.iter()
        .filter(|r| r.trouble.is_none())
        .filter(|r| days_left(r.end, today, tz).is_some_and(|d| (0..=days).contains(&d)))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::AssetProduct;

    const DAY: i64 = 86_400_000;
    /// 2026-12-01 00:00 UTC.
    const DEC_1: i64 = 1_796_083_200_000;

    fn asset(num: &str, products: Vec<AssetProduct>, own: (Option<i64>, Option<i64>)) -> Asset {
        let mut a: Asset = serde_json::from_value(serde_json::json!({
            "id": num, "licenseType": "cloud", "assetNum": num, "customerId": "CU1",
        }))
        .expect("an asset");
        a.products = products;
        (a.limit_start_time, a.limit_end_time) = own;
        a
    }

    fn product(uri: &str, start: Option<i64>, end: Option<i64>) -> AssetProduct {
        let mut p: AssetProduct =
            serde_json::from_value(serde_json::json!({ "productUri": uri })).expect("a product");
        (p.limit_start_date, p.limit_end_date) = (start, end);
        p
    }

    #[test]
    fn each_row_says_where_its_date_comes_from() {
        let sent: Sent = HashMap::from([(
            "8000000003".to_owned(),
            vec![SentProduct {
                product_uri: "gms:9".to_owned(),
                product_name: None,
                start: Some(DEC_1),
                end: Some(DEC_1 + 30 * DAY),
            }],
        )]);
        let assets = [
            // Dated products: one row each; the undated one gives none.
            asset(
                "8000000001",
                vec![
                    product("gms:1", Some(DEC_1), Some(DEC_1 + 10 * DAY)),
                    product("gms:2", None, None),
                ],
                (None, Some(DEC_1 + 99 * DAY)),
            ),
            // No dated product: the asset's own validity.
            asset("8000000002", vec![], (Some(DEC_1), Some(DEC_1 + 20 * DAY))),
            // Nothing dated in the listing: what was sent.
            asset("8000000003", vec![], (None, Some(0))),
            // Nothing at all: no row.
            asset("8000000004", vec![], (None, None)),
        ];
        let rows = rows_of("EG1", &assets, &sent);
        let seen: Vec<(&str, Option<&str>, Source)> = rows
            .iter()
            .map(|r| (r.asset_num.as_str(), r.product_uri.as_deref(), r.source))
            .collect();
        assert_eq!(
            seen,
            [
                ("8000000001", Some("gms:1"), Source::Product),
                ("8000000002", None, Source::Asset),
                ("8000000003", Some("gms:9"), Source::Sent),
            ]
        );
    }

    #[test]
    fn a_date_that_cannot_be_one_says_why_and_is_not_counted() {
        let assets = [
            asset(
                "1",
                vec![product("reversed", Some(DEC_1), Some(DEC_1 - DAY))],
                (None, None),
            ),
            asset(
                "2",
                vec![product("9999", None, Some(LAST_REAL_MS + 1))],
                (None, None),
            ),
            asset(
                "3",
                vec![product("fine", None, Some(DEC_1 + 5 * DAY))],
                (None, None),
            ),
        ];
        let rows = rows_of("EG1", &assets, &Sent::new());
        let troubles: Vec<Option<Trouble>> = rows.iter().map(|r| r.trouble).collect();
        assert_eq!(
            troubles,
            [Some(Trouble::Reversed), Some(Trouble::NoRealEnd), None]
        );
        let today = jiff::civil::date(2026, 12, 1);
        let soon = within(&rows, today, &TimeZone::UTC, 90);
        assert_eq!(soon.len(), 1);
        assert_eq!(soon[0].product_uri.as_deref(), Some("fine"));
    }

    #[test]
    fn days_are_counted_in_the_console_s_time_zone() {
        let today = jiff::civil::date(2026, 12, 1);
        assert_eq!(days_left(DEC_1, today, &TimeZone::UTC), Some(0));
        assert_eq!(days_left(DEC_1 + 90 * DAY, today, &TimeZone::UTC), Some(90));
        assert_eq!(days_left(DEC_1 - DAY, today, &TimeZone::UTC), Some(-1));
        // 2026-12-01 00:00 UTC is 08:00 in Shanghai: still the 1st there; 2026-11-30 20:00
        // UTC is the 1st in Shanghai too.
        let shanghai = TimeZone::fixed(jiff::tz::offset(8));
        assert_eq!(days_left(DEC_1 - 4 * 3_600_000, today, &shanghai), Some(0));
        assert_eq!(
            days_left(DEC_1 - 4 * 3_600_000, today, &TimeZone::UTC),
            Some(-1)
        );
    }
}
