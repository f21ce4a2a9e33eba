//! Failed attempts slowed down: past an allowance of failures within a window, a key (an app
//! key, a client address) is refused until its window has passed, so that guessing secrets
//! costs minutes instead of microseconds. Successes are not counted.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Keys remembered at most; past that, windows already over are forgotten first.
const CAPACITY: usize = 16_384;

pub struct Throttle {
    allowance: u32,
    window: Duration,
    /// Per key: when its window started, and the failures in it.
    failures: Mutex<HashMap<String, (Instant, u32)>>,
}

impl Throttle {
    pub fn new(allowance: u32, window: Duration) -> Self {
        Self {
            allowance,
            window,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// How long `key` must still wait, if it has used up its allowance.
    pub fn wait(&self, key: &str, now: Instant) -> Option<Duration> {
        let failures = lock(&self.failures);
        let (started, count) = failures.get(key)?;
        let ends = *started + self.window;
        (*count >= self.allowance && ends > now).then(|| ends - now)
    }

    /// Counts a failure of `key`.
    pub fn failed(&self, key: &str, now: Instant) {
        let mut failures = lock(&self.failures);
        if failures.len() >= CAPACITY {
            failures.retain(|_, (started, _)| *started + self.window > now);
        }
        let entry = failures.entry(key.to_owned()).or_insert((now, 0));
        if entry.0 + self.window <= now {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
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
}
