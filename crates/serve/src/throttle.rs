//! Attempts slowed down: past an allowance within a window, a key is refused until its window
//! has passed. Failed token requests are counted by app key and address ([`Throttle::failed`]),
//! so that guessing secrets costs minutes instead of microseconds; claims are counted by
//! identity, every attempt ([`Throttle::attempt`]). The counts are in memory, per process.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Keys remembered before windows already over are swept away.
const CAPACITY: usize = 16_384;

pub struct Throttle {
    allowance: u32,
    window: Duration,
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    /// Per key: when its window started, and the attempts counted in it.
    keys: HashMap<String, (Instant, u32)>,
    /// The next sweep comes when this many keys are kept: twice what the last one left (at
    /// least [`CAPACITY`]), so that many keys in their windows (claims by many identities)
    /// cost each attempt a share of a sweep, not a sweep each.
    sweep_at: usize,
}

impl Throttle {
    pub fn new(allowance: u32, window: Duration) -> Self {
        Self {
            allowance,
            window,
            counts: Mutex::new(Counts::default()),
        }
    }

    /// Attempts a key may make within a window.
    pub fn allowance(&self) -> u32 {
        self.allowance
    }

    /// How long `key` must still wait, if it has used up its allowance.
    pub fn wait(&self, key: &str, now: Instant) -> Option<Duration> {
        let counts = lock(&self.counts);
        let (started, count) = counts.keys.get(key)?;
        let ends = *started + self.window;
        (*count >= self.allowance && ends > now).then(|| ends - now)
    }

    /// Counts a failure of `key`.
    pub fn failed(&self, key: &str, now: Instant) {
        self.count(key, now);
    }

    /// Counts an attempt of `key` and, when it goes past the allowance, answers how long until
    /// the window ends. Counting and judging are one step, so concurrent attempts cannot
    /// slip past the allowance together.
    pub fn attempt(&self, key: &str, now: Instant) -> Option<Duration> {
        let (started, count) = self.count(key, now);
        let ends = started + self.window;
        (count > self.allowance).then(|| ends.saturating_duration_since(now))
    }

    /// Adds one to `key`'s count in its window (a new window once the last is over).
    fn count(&self, key: &str, now: Instant) -> (Instant, u32) {
        let mut counts = lock(&self.counts);
        if counts.keys.len() >= counts.sweep_at.max(CAPACITY) {
            counts
                .keys
                .retain(|_, (started, _)| *started + self.window > now);
            counts.sweep_at = counts.keys.len().saturating_mul(2);
        }
        let entry = counts.keys.entry(key.to_owned()).or_insert((now, 0));
        if entry.0 + self.window <= now {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
        *entry
    }
}

/// A panic while the lock was held leaves the counts sound: poisoning is ignored.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_allowance_a_key_waits_for_its_window() {
        let t = Throttle::new(2, Duration::from_secs(60));
        let start = Instant::now();
        t.failed("ak", start);
        assert_eq!(t.wait("ak", start), None);
        t.failed("ak", start + Duration::from_secs(1));
        assert_eq!(
            t.wait("ak", start + Duration::from_secs(10)),
            Some(Duration::from_secs(50))
        );
        assert_eq!(t.wait("other", start), None);
        assert_eq!(t.wait("ak", start + Duration::from_secs(60)), None);
        // A new window starts from nothing.
        t.failed("ak", start + Duration::from_secs(61));
        assert_eq!(t.wait("ak", start + Duration::from_secs(62)), None);
    }

    #[test]
    fn attempts_past_the_allowance_are_told_when_the_window_ends() {
        let t = Throttle::new(2, Duration::from_secs(60));
        let start = Instant::now();
        assert_eq!(t.attempt("id", start), None);
        assert_eq!(t.attempt("id", start + Duration::from_secs(5)), None);
        assert_eq!(
            t.attempt("id", start + Duration::from_secs(20)),
            Some(Duration::from_secs(40))
        );
        assert_eq!(t.attempt("other", start), None);
        assert_eq!(t.attempt("id", start + Duration::from_secs(60)), None);
    }

    #[test]
    fn keys_in_their_windows_are_kept_and_ended_ones_swept() {
        let t = Throttle::new(1, Duration::from_secs(60));
        let start = Instant::now();
        for i in 0..CAPACITY + 10 {
            t.attempt(&format!("id-{i}"), start);
        }
        // All still in their windows: none forgotten, so none gets a second attempt.
        assert!(t.attempt("id-0", start + Duration::from_secs(1)).is_some());
        assert_eq!(lock(&t.counts).sweep_at, 2 * CAPACITY);
        let later = start + Duration::from_secs(61);
        for i in 0..CAPACITY + 11 {
            t.attempt(&format!("new-{i}"), later);
        }
        assert_eq!(
            lock(&t.counts).keys.len(),
            CAPACITY + 11,
            "ended windows swept"
        );
    }
}
