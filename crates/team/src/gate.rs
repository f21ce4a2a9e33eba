//! Which sign-ins are judged, and when: limits that slow an attacker and never lock the owner
//! out (NIST SP 800-63B §5.2.2; Azure AD's smart lockout keys on the attacker's location).
//!
//! - Each (name, address) pair has a bucket of [`SignInLimits::pair_free`] attempts that
//!   refills one every [`SignInLimits::pair_every`]. An attempt takes its token **on
//!   arrival, before it is judged**, so a burst cannot out-run the limit; an attempt that
//!   finds the bucket empty is answered 429 with `Retry-After` unjudged and takes nothing,
//!   so a flood never pushes the owner's next turn further away. A right password fills the
//!   pair's bucket again.
//! - Each address has a larger bucket ([`SignInLimits::address_free`], one more every
//!   [`SignInLimits::address_every`]) against trying one password on many names; a right
//!   password gives its token back, so a branch behind one NAT signing in at nine is not slowed.
//! - At most [`SignInLimits::checks_at_once`] checks (Argon2 at 19 MiB, or a directory bind)
//!   run at once; an attempt waits for its turn at most [`SignInLimits::queue_wait`], then is
//!   answered 503 with `Retry-After`.
//!
//! The buckets are in memory, per instance: behind a balancer of N instances an attacker gets
//! N times the rate. A name is never locked: after the burst, the owner's right password is
//! judged within `pair_every`, from any address.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Memory one password check takes (Argon2id's m = 19 MiB), for sizing the checks at once.
const CHECK_BYTES: usize = 19 * 1024 * 1024;

/// Memory the checks at once may take together.
const CHECKS_BUDGET: usize = 256 * 1024 * 1024;

/// Buckets kept at most; past them full ones are swept, and if none is, all are forgotten.
const MOST_KEYS: usize = 100_000;

/// The rule's figures (the defaults are documented in docs/team.md's Security section).
#[derive(Debug, Clone, Copy)]
pub struct SignInLimits {
    pub pair_free: u32,
    pub pair_every: Duration,
    pub address_free: u32,
    pub address_every: Duration,
    pub checks_at_once: usize,
    /// Attempts waiting for a check's turn at most; more are answered 503 at once.
    pub waiting_at_most: usize,
    pub queue_wait: Duration,
}

impl Default for SignInLimits {
    fn default() -> Self {
        let cpus = std::thread::available_parallelism().map_or(2, usize::from);
        Self {
            pair_free: 5,
            pair_every: Duration::from_secs(30),
            address_free: 30,
            address_every: Duration::from_secs(2),
            checks_at_once: cpus.clamp(2, CHECKS_BUDGET / CHECK_BYTES),
            waiting_at_most: 256,
            queue_wait: Duration::from_secs(5),
        }
    }
}

/// Why an attempt is not judged now, and when to come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotNow {
    /// The pair or the address has used its attempts (429).
    Slowed(Duration),
    /// Every check's turn is taken (503).
    Busy(Duration),
}

/// An attempt let in: it holds a check's turn until it is dropped, and says how it ended
/// with [`Admitted::succeeded`] (a failure needs no word: its token is spent).
pub struct Admitted {
    gate: Arc<Buckets>,
    pair: String,
    address: String,
    _turn: OwnedSemaphorePermit,
}

impl Admitted {
    /// The right password: the pair's bucket is full again and the address has its token back.
    pub fn succeeded(self) {
        let mut b = lock(&self.gate.keys);
        b.remove(&self.pair);
        if let Some(address) = b.get_mut(&self.address) {
            address.give_back();
        }
    }
}

pub struct Gate {
    limits: SignInLimits,
    /// The time the buckets fill by (a test's may be moved on).
    clock: support::clock::Clock,
    buckets: Arc<Buckets>,
    turns: Arc<Semaphore>,
    waiting: AtomicUsize,
}

struct Buckets {
    keys: Mutex<HashMap<String, Bucket>>,
}

impl Gate {
    pub fn new(limits: SignInLimits, clock: support::clock::Clock) -> Gate {
        Gate {
            limits,
            clock,
            buckets: Arc::new(Buckets {
                keys: Mutex::new(HashMap::new()),
            }),
            turns: Arc::new(Semaphore::new(limits.checks_at_once.max(1))),
            waiting: AtomicUsize::new(0),
        }
    }

    pub fn limits(&self) -> SignInLimits {
        self.limits
    }

    /// Counts the attempt of `name_key` from `address` and waits for a check's turn.
    pub async fn admit(&self, name_key: &str, address: &str) -> Result<Admitted, NotNow> {
        let address = network_of(address);
        let pair = format!("p\u{0}{address}\u{0}{name_key}");
        let address = format!("a\u{0}{address}");
        self.take_tokens(&pair, &address, self.clock.instant())?;
        let turn = match self.turn().await {
            Ok(turn) => turn,
            Err(busy) => {
                // Not judged: the attempt is not counted against the owner.
                self.give_back(&[&pair, &address]);
                return Err(busy);
            }
        };
        Ok(Admitted {
            gate: Arc::clone(&self.buckets),
            pair,
            address,
            _turn: turn,
        })
    }

    /// Takes a token from the pair's and the address's buckets, both or neither.
    fn take_tokens(&self, pair: &str, address: &str, now: Instant) -> Result<(), NotNow> {
        let l = &self.limits;
        let mut keys = lock(&self.buckets.keys);
        make_room(&mut keys, now);
        let wait_pair = bucket(&mut keys, pair, l.pair_free, l.pair_every, now).wait(now);
        let wait_address =
            bucket(&mut keys, address, l.address_free, l.address_every, now).wait(now);
        if let Some(wait) = wait_pair.max(wait_address) {
            return Err(NotNow::Slowed(wait));
        }
        for key in [pair, address] {
            if let Some(b) = keys.get_mut(key) {
                b.take();
            }
        }
        Ok(())
    }

    fn give_back(&self, keys: &[&str]) {
        let mut b = lock(&self.buckets.keys);
        for key in keys {
            if let Some(bucket) = b.get_mut(*key) {
                bucket.give_back();
            }
        }
    }

    async fn turn(&self) -> Result<OwnedSemaphorePermit, NotNow> {
        let busy = NotNow::Busy(Duration::from_secs(1));
        if let Ok(turn) = Arc::clone(&self.turns).try_acquire_owned() {
            return Ok(turn);
        }
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.limits.waiting_at_most {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(busy);
        }
        let turn = tokio::time::timeout(
            self.limits.queue_wait,
            Arc::clone(&self.turns).acquire_owned(),
        )
        .await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        match turn {
            Ok(Ok(turn)) => Ok(turn),
            _ => Err(busy),
        }
    }
}

/// A token bucket: `tokens` of `capacity`, one more every `every` since `at`.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    capacity: f64,
    every: Duration,
    at: Instant,
}

impl Bucket {
    fn new(capacity: u32, every: Duration, now: Instant) -> Bucket {
        Bucket {
            tokens: f64::from(capacity),
            capacity: f64::from(capacity),
            every,
            at: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let gained = now.saturating_duration_since(self.at).as_secs_f64()
            / self.every.as_secs_f64().max(f64::EPSILON);
        self.tokens = (self.tokens + gained).min(self.capacity);
        self.at = now;
    }

    /// How long until a token is there, if none is now (after refilling).
    fn wait(&mut self, now: Instant) -> Option<Duration> {
        self.refill(now);
        (self.tokens < 1.0).then(|| self.every.mul_f64(1.0 - self.tokens))
    }

    fn take(&mut self) {
        self.tokens -= 1.0;
    }

    fn give_back(&mut self) {
        self.tokens = (self.tokens + 1.0).min(self.capacity);
    }

    fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.capacity
    }
}

fn bucket<'a>(
    keys: &'a mut HashMap<String, Bucket>,
    key: &str,
    capacity: u32,
    every: Duration,
    now: Instant,
) -> &'a mut Bucket {
    keys.entry(key.to_owned())
        .or_insert_with(|| Bucket::new(capacity, every, now))
}

/// Forgets full buckets (they are as good as none) when too many are kept; if none can go,
/// forgets them all: the memory stays bounded, and a flood of keys never locks anyone out
/// (it only buys its sender the free attempts again, at the cost of 100,000 others).
fn make_room(keys: &mut HashMap<String, Bucket>, now: Instant) {
    if keys.len() < MOST_KEYS {
        return;
    }
    keys.retain(|_, b| !b.is_full(now));
    if keys.len() >= MOST_KEYS {
        tracing::warn!(
            keys = keys.len(),
            "sign-in limits: too many keys kept, all forgotten"
        );
        keys.clear();
    }
}

/// The address a limit keys on: an IPv4 address as it is, an IPv6 one by its /64 (one
/// host's, or one site's, whole range of addresses).
fn network_of(address: &str) -> String {
    match address.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        _ => address.to_owned(),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> SignInLimits {
        SignInLimits {
            checks_at_once: 64,
            ..SignInLimits::default()
        }
    }

    #[test]
    fn a_burst_takes_the_free_attempts_and_then_one_every_thirty_seconds() {
        let gate = Gate::new(limits(), support::clock::Clock::system());
        let t0 = Instant::now();
        let took = |at| gate.take_tokens("p\0a\0lisi", "a\0a", at);
        for _ in 0..5 {
            assert_eq!(took(t0), Ok(()));
        }
        let Err(NotNow::Slowed(wait)) = took(t0) else {
            panic!("the sixth at once is slowed")
        };
        assert_eq!(wait, Duration::from_secs(30));
        for _ in 0..40 {
            assert!(took(t0 + Duration::from_secs(29)).is_err(), "still slowed");
        }
        assert_eq!(
            took(t0 + Duration::from_secs(30)),
            Ok(()),
            "refused ones took nothing"
        );
        assert!(took(t0 + Duration::from_secs(31)).is_err());
    }

    #[test]
    fn another_name_from_the_same_address_is_not_slowed_by_one_name() {
        let gate = Gate::new(limits(), support::clock::Clock::system());
        let t0 = Instant::now();
        for _ in 0..5 {
            assert_eq!(gate.take_tokens("p\0a\0lisi", "a\0a", t0), Ok(()));
        }
        assert!(gate.take_tokens("p\0a\0lisi", "a\0a", t0).is_err());
        assert_eq!(gate.take_tokens("p\0a\0wang", "a\0a", t0), Ok(()));
        assert_eq!(gate.take_tokens("p\0b\0lisi", "a\0b", t0), Ok(()));
    }

    #[test]
    fn an_ipv6_client_is_one_address_across_its_64() {
        assert_eq!(network_of("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(network_of("2001:db8:1:2:bbbb::9"), "2001:db8:1:2::/64");
        assert_eq!(network_of("10.0.0.5"), "10.0.0.5");
    }
}
