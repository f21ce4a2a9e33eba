//! Dates and times as the console shows them: always in the computer's local time zone (the
//! interface's timestamps are epoch milliseconds), formatted here and nowhere else.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

use crate::ui::text::i18n::{Lang, tr};

fn local(ms: i64) -> Option<Zoned> {
    Timestamp::from_millisecond(ms)
        .ok()
        .map(|at| at.to_zoned(TimeZone::system()))
}

/// `2026-11-22`; the number itself when it is no time.
pub fn local_date(ms: i64) -> String {
    local(ms).map_or_else(|| ms.to_string(), |at| at.date().to_string())
}

/// `14:05:09` when it is on the day of `now_ms`, else `2026-11-22 14:05:09`.
pub fn local_time(ms: i64, now_ms: i64) -> String {
    let (Some(at), Some(now)) = (local(ms), local(now_ms)) else {
        return ms.to_string();
    };
    if at.date() == now.date() {
        at.strftime("%H:%M:%S").to_string()
    } else {
        at.strftime("%Y-%m-%d %H:%M:%S").to_string()
    }
}

/// The local zone's offset from UTC now, `UTC+08:00`, for headings of local times.
pub fn zone_label() -> String {
    Zoned::now().strftime("UTC%:z").to_string()
}

/// The local day of epoch milliseconds.
pub fn local_day(ms: i64) -> Option<Date> {
    local(ms).map(|at| at.date())
}

/// Today, in local time.
pub fn today() -> Date {
    Zoned::now().date()
}

/// The first millisecond of a local day, or its last (an *until* date is valid all that day).
pub use support::clock::day_ms;

/// How long ago, in the largest unit that is at least one.
pub fn age(lang: Lang, ms: i64) -> String {
    let minutes = (ms / 60_000).max(0);
    if minutes < 60 {
        tr!(lang, "age-minutes", minutes = minutes)
    } else if minutes < 48 * 60 {
        let hours = minutes / 60;
        tr!(lang, "age-hours", hours = hours)
    } else {
        let days = minutes / (24 * 60);
        tr!(lang, "age-days", days = days)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_runs_from_its_first_to_its_last_millisecond_in_local_time() {
        let day = jiff::civil::date(2026, 11, 22);
        let (start, end) = (
            day_ms(day, false).expect("start"),
            day_ms(day, true).expect("end"),
        );
        assert_eq!(local_day(start), Some(day));
        assert_eq!(local_day(end), Some(day));
        assert_eq!(local_day(end + 1), Some(jiff::civil::date(2026, 11, 23)));
        assert_eq!(local_date(start), "2026-11-22");
    }

    #[test]
    fn a_time_shows_its_day_unless_it_is_today() {
        let day = jiff::civil::date(2026, 11, 22);
        let start = day_ms(day, false).expect("start");
        let at = start + ((14 * 60 + 5) * 60 + 9) * 1000;
        assert_eq!(local_time(at, start + 1), "14:05:09");
        assert_eq!(
            local_time(at, start + 86_400_000 * 2),
            "2026-11-22 14:05:09"
        );
    }
}
