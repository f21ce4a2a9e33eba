//! What ends when (issue 38, docs/customers.md "Where an end date comes from"): a directory's
//! listings turned into rows, one per dated product, or one per asset when only the asset is
//! dated, or from what this console sent when the listing dates nothing; each row says its
//! source, and a date that cannot be one says why instead of being counted.

mod cache;
mod export;
mod months;
mod read;
mod renewal;
mod requests;
mod sent;
mod table;
mod view;

pub use cache::{load_cached, save_cached};
pub(crate) use export::day;
pub use export::{COLUMNS, Due, csv_text, write_xlsx};
pub use months::{Grouping, Months, Series};
pub use read::{EnterpriseRead, Read, ReadState, Stop, given, named};
pub use renewal::compose;
pub(in crate::core) use requests::keep;
pub use requests::{Cached, Export, ReadAll};
pub use sent::{Sent, SentProduct, add_sent_from, sent_of};
pub use table::{Added, Ids, RowRef, Table};
pub use view::{Filter, Orders, SortBy};

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

/// The last millisecond of the year 9999: later is no real end.
const LAST_REAL_MS: i64 = 253_402_300_799_999;

/// Where a row's dates come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trouble {
    /// The end comes before the start.
    Reversed,
    /// Past the year 9999.
    NoRealEnd,
    /// The same asset holds the same product again, ending later: renewed, not due.
    Renewed,
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

/// The days from the start of today to the end of the `days`-th day after it, in a time
/// zone, as epoch milliseconds: a row ends within them when its end falls in `from..until`.
/// Worked out once, so that a million rows are filtered by comparing numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: i64,
    pub until: i64,
}

impl Window {
    pub fn days(today: Date, tz: &TimeZone, days: i64) -> Option<Window> {
        let start = |d: Date| -> Option<i64> {
            Some(d.to_zoned(tz.clone()).ok()?.timestamp().as_millisecond())
        };
        let last = today
            .checked_add(jiff::Span::new().days(days.max(0) + 1))
            .ok()?;
        Some(Window {
            from: start(today)?,
            until: start(last)?,
        })
    }

    /// Whether a row ends within the window and its dates can be counted.
    pub fn holds(&self, row: &RowRef<'_>) -> bool {
        row.trouble().is_none() && (self.from..self.until).contains(&row.end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;
    /// 2026-12-01 00:00 UTC.
    const DEC_1: i64 = 1_796_083_200_000;

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

    #[test]
    fn a_window_runs_from_the_start_of_today_to_the_end_of_its_last_day() {
        let today = jiff::civil::date(2026, 12, 1);
        let utc = Window::days(today, &TimeZone::UTC, 90).expect("a window");
        assert_eq!((utc.from, utc.until), (DEC_1, DEC_1 + 91 * DAY));
        let shanghai = TimeZone::fixed(jiff::tz::offset(8));
        let there = Window::days(today, &shanghai, 0).expect("a window");
        assert_eq!(
            (there.from, there.until),
            (DEC_1 - 8 * 3_600_000, DEC_1 + 16 * 3_600_000)
        );
    }
}
