//! Fingerprints of the nonces one store has spent, kept in memory, so that the check that a
//! nonce is single use across the two stores (`http::admit`) reads the other store only for a
//! nonce whose fingerprint is known here: nearly every call then reads nothing for it.
//!
//! Only a "no" is trusted. A fingerprint shared by two nonces, or a generation too full to keep
//! more, answers "maybe", which costs the read the check always made before; never a wrong
//! answer. A fingerprint goes in before its nonce is spent, so the set always holds at least
//! what the store holds: it is filled from the store at start, and forgets a generation one
//! rotation after the store does.

use std::collections::HashSet;
use std::hash::BuildHasher;
use std::sync::{Mutex, PoisonError};

use super::sql::{self, StoreError};

/// Fingerprints kept per generation; past it the generation answers "maybe" for everything.
/// About 9 MiB at most per generation (a hash set of 2^20 buckets), three per store.
const MAX_PER_GENERATION: usize = 1 << 19;

#[derive(Default)]
struct Generation {
    fingerprints: HashSet<u64>,
    full: bool,
}

/// The current generation and the two before it.
pub struct Spent {
    hasher: std::hash::RandomState,
    generations: Mutex<[Generation; 3]>,
}

impl Spent {
    /// The fingerprints of every nonce `nonces` lists (the store's whole log, at start).
    pub fn new(nonces: Vec<(String, String)>) -> Self {
        let spent = Self {
            hasher: std::hash::RandomState::new(),
            generations: Mutex::new(Default::default()),
        };
        for (app_key, nonce) in nonces {
            spent.insert(&app_key, &nonce);
        }
        spent
    }

    fn fingerprint(&self, app_key: &str, nonce: &str) -> u64 {
        self.hasher.hash_one((app_key, nonce))
    }

    /// Called before the nonce is spent in the store.
    pub fn insert(&self, app_key: &str, nonce: &str) {
        let fingerprint = self.fingerprint(app_key, nonce);
        let mut generations = self
            .generations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let current = &mut generations[0];
        if current.fingerprints.len() >= MAX_PER_GENERATION {
            current.full = true;
        } else {
            current.fingerprints.insert(fingerprint);
        }
    }

    /// False only when the store surely has not spent the nonce.
    pub fn may_hold(&self, app_key: &str, nonce: &str) -> bool {
        let fingerprint = self.fingerprint(app_key, nonce);
        let generations = self
            .generations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        generations
            .iter()
            .any(|g| g.full || g.fingerprints.contains(&fingerprint))
    }

    /// The store started a new generation: the oldest kept here goes.
    pub fn rotate(&self) {
        let mut generations = self
            .generations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        generations.rotate_right(1);
        generations[0] = Generation::default();
    }
}

/// Every nonce a store's log holds, to fill its [`Spent`] at start.
pub fn logged(tx: &dyn sql::Tx) -> Result<Vec<(String, String)>, StoreError> {
    tx.query_vec("SELECT app_key, nonce FROM nonce_log", &[], |r| {
        Ok((r.text(0)?, r.text(1)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_nonce_is_held_until_three_rotations_and_others_are_not() {
        let spent = Spent::new(vec![("ak_1".to_owned(), "n-0".to_owned())]);
        spent.insert("ak_1", "n-1");
        assert!(spent.may_hold("ak_1", "n-0") && spent.may_hold("ak_1", "n-1"));
        assert!(!spent.may_hold("ak_1", "n-2"));
        assert!(!spent.may_hold("ak_2", "n-1"));
        spent.rotate();
        spent.rotate();
        assert!(spent.may_hold("ak_1", "n-1"));
        spent.rotate();
        assert!(!spent.may_hold("ak_1", "n-1"));
    }

    #[test]
    fn a_full_generation_answers_maybe() {
        let spent = Spent::new(Vec::new());
        {
            let mut generations = spent.generations.lock().expect("lock");
            generations[0].fingerprints = (0..MAX_PER_GENERATION as u64).collect();
        }
        spent.insert("ak_1", "one too many");
        assert!(spent.may_hold("ak_1", "never spent"));
        spent.rotate();
        spent.rotate();
        spent.rotate();
        assert!(!spent.may_hold("ak_1", "never spent"));
    }
}
