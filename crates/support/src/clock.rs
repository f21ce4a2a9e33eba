//! The one clock: the platform, the client and the core all read the time here.

/// Now, in epoch milliseconds (the interface's timestamps).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

/// A day as the interface's epoch milliseconds of local time: its first millisecond, or its
/// last for an end date (valid *until* that day). The composer and the spreadsheet import agree.
pub fn day_ms(day: jiff::civil::Date, end_of_day: bool) -> Option<i64> {
    let time = if end_of_day {
        day.at(23, 59, 59, 999_000_000)
    } else {
        day.at(0, 0, 0, 0)
    };
    let zoned = time.to_zoned(jiff::tz::TimeZone::system()).ok()?;
    Some(zoned.timestamp().as_millisecond())
}
