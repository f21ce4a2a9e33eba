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

/// A clock a server reads its time from: the system's, moved forward by whatever a test
/// advanced it by, so that a test sees a wait of minutes pass without waiting. A clone reads
/// the same time; [`Clock::default`] is the system's and cannot be moved.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    ahead: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

impl Clock {
    /// The system's clock, as it is.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// The system's clock, which [`Clock::advance`] moves forward.
    pub fn settable() -> Clock {
        Clock {
            ahead: Some(std::sync::Arc::default()),
        }
    }

    /// Moves a settable clock (and its clones) forward by `by`; the system's clock stays.
    pub fn advance(&self, by: std::time::Duration) {
        if let Some(ahead) = &self.ahead {
            let nanos = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
            ahead.fetch_add(nanos, std::sync::atomic::Ordering::SeqCst);
        }
    }

    fn ahead(&self) -> std::time::Duration {
        let nanos = self
            .ahead
            .as_ref()
            .map_or(0, |a| a.load(std::sync::atomic::Ordering::SeqCst));
        std::time::Duration::from_nanos(nanos)
    }

    /// Now, in epoch milliseconds.
    pub fn now_ms(&self) -> i64 {
        let ahead = i64::try_from(self.ahead().as_millis()).unwrap_or(i64::MAX);
        now_ms().saturating_add(ahead)
    }

    /// Now, for measuring how long since (monotonic).
    pub fn instant(&self) -> std::time::Instant {
        let now = std::time::Instant::now();
        now.checked_add(self.ahead()).unwrap_or(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_settable_clock_and_its_clones_move_forward_and_the_system_s_does_not() {
        let clock = Clock::settable();
        let clone = clock.clone();
        let before = clock.now_ms();
        let started = clock.instant();
        clock.advance(Duration::from_secs(3600));
        assert!(clone.now_ms() - before >= 3_600_000);
        assert!(clone.instant() - started >= Duration::from_secs(3600));

        let system = Clock::system();
        let before = system.now_ms();
        system.advance(Duration::from_secs(3600));
        assert!(system.now_ms() - before < 3_600_000);
    }
}
