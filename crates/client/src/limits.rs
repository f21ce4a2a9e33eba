//! How long a call may take: a profile's limits, in seconds, with defaults that add up. The
//! longest a call can take (`longest_call`) is what a waiting command line allows it.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Wait before the first retry; doubled for each further one.
pub const BACKOFF: Duration = Duration::from_millis(200);

/// A profile's time limits and retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CallLimits {
    /// Seconds to make a connection; a connection not made sent nothing.
    pub connect_secs: u32,
    /// Seconds one attempt may wait for its whole answer.
    pub attempt_secs: u32,
    /// Seconds one attempt of a batch order may wait: a sync batch of thousands of orders is
    /// applied before the platform answers.
    pub batch_attempt_secs: u32,
    /// Further attempts after the first, where one is safe (reads, the token, a write that
    /// provably did not leave, a batch on a platform that recognises repeats).
    pub retries: u32,
}

impl Default for CallLimits {
    fn default() -> Self {
        Self {
            connect_secs: 10,
            attempt_secs: 30,
            batch_attempt_secs: 120,
            retries: 3,
        }
    }
}

impl CallLimits {
    pub fn connect(&self) -> Duration {
        Duration::from_secs(self.connect_secs.max(1).into())
    }

    /// One attempt's limit, for a batch or another call.
    pub fn attempt(&self, batch: bool) -> Duration {
        let secs = if batch {
            self.batch_attempt_secs
        } else {
            self.attempt_secs
        };
        Duration::from_secs(secs.max(1).into())
    }

    /// The longest a call can take: its token's attempts, then its own, and the waits between.
    pub fn longest_call(&self) -> Duration {
        let attempts = self.retries + 1;
        let backoffs = BACKOFF * (2u32.saturating_pow(self.retries).saturating_sub(1));
        let token = self.attempt(false) * attempts + backoffs;
        let call = self.attempt(true) * attempts + backoffs;
        token + call
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_call_covers_every_attempt_of_a_batch_and_its_token() {
        let limits = CallLimits::default();
        // Token: 4 × 30 s and 0.2 + 0.4 + 0.8 s of waits; the batch: 4 × 120 s and the same.
        assert_eq!(
            limits.longest_call(),
            Duration::from_millis(120_000 + 1_400 + 480_000 + 1_400)
        );
        let quick = CallLimits {
            connect_secs: 1,
            attempt_secs: 1,
            batch_attempt_secs: 2,
            retries: 0,
        };
        assert_eq!(quick.longest_call(), Duration::from_secs(3));
    }

    #[test]
    fn a_profile_without_limits_reads_the_defaults() {
        let limits: CallLimits = serde_json::from_str(r#"{"attemptSecs": 5}"#).expect("json");
        assert_eq!(
            limits,
            CallLimits {
                attempt_secs: 5,
                ..CallLimits::default()
            }
        );
    }
}
