//! Writes as the ledger knows them: what a call that changes the platform is, recorded before
//! its first byte leaves, and how it ended. The interface promises nothing about a repeated
//! request or a lost answer, so a write that may have reached the platform without an answer
//! ends as `Unknown`, never as a failure to reach it.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Operation;
use wire::{LockResult, LockStatus};

/// One write call, as recorded before it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteBegun {
    /// Groups the call's attempts in the journal.
    pub call_id: String,
    pub operation: Operation,
    /// A batch's `channelOrderId`, as sent.
    pub channel_order_id: Option<String>,
    /// SHA-256 of the body sent, hex: a re-send of the same body has the same hash.
    pub body_hash: String,
    /// How many things it touches: a batch's orders, a lock's assets, the numbers asked for.
    pub items: usize,
    pub started_at_ms: i64,
}

/// Where a write stands.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum WriteState {
    /// Recorded, being sent; still so at a start when the process that sent it died.
    InFlight,
    /// The platform answered that it was done.
    Done,
    /// The platform answered with a refusal (its code), or refused some of the items.
    Refused,
    /// Nothing left the machine, provably: no connection was made, no token was had.
    NotSent,
    /// A request may have reached the platform and no answer came back.
    Unknown,
    /// A team server keeps it as a request for another person to approve: nothing reached
    /// the platform yet, and the team server sends it once it is approved.
    Held,
}

impl WriteState {
    pub const ALL: &'static [WriteState] = <WriteState as strum::VariantArray>::VARIANTS;

    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Self> {
        name.parse().ok()
    }
}

/// How a write ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteEnded {
    pub call_id: String,
    pub state: WriteState,
    /// The platform's code of a refusal, or of the answer that settled it.
    pub code: Option<String>,
    /// Why, in the words of the last attempt (no URL, no secret).
    pub detail: Option<String>,
    pub attempts: u32,
    pub ended_at_ms: i64,
}

/// SHA-256 of a body, as hex.
pub fn body_hash(body: &[u8]) -> String {
    Sha256::digest(body)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A lock or unlock answer's refusals in the platform's own terms (`status 4: 2 of 5`), or
/// None when every asset is done: one envelope carries a status per asset.
pub fn lock_refusals(results: &[LockResult]) -> Option<String> {
    let refused: Vec<&LockResult> = results
        .iter()
        .filter(|r| r.status != LockStatus::Success)
        .collect();
    if refused.is_empty() {
        return None;
    }
    let mut by_status: Vec<(u8, usize)> = Vec::new();
    for r in refused {
        let status = r.status as u8;
        match by_status.iter_mut().find(|(s, _)| *s == status) {
            Some((_, n)) => *n += 1,
            None => by_status.push((status, 1)),
        }
    }
    by_status.sort_unstable();
    Some(
        by_status
            .iter()
            .map(|(s, n)| format!("status {s}: {n} of {}", results.len()))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// A fresh id for a call: its start and random bits, so ids sort by time and never collide.
pub fn new_call_id(now_ms: i64) -> String {
    let mut buf = [0u8; 4];
    // Without randomness the time alone still orders calls; two in one millisecond are rare.
    let _ = getrandom::fill(&mut buf);
    format!("{now_ms:013x}-{}", u32::from_be_bytes(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_refusals_count_each_status() {
        let r = |n: &str, s| LockResult {
            asset_num: n.to_owned(),
            status: s,
        };
        assert_eq!(lock_refusals(&[r("1", LockStatus::Success)]), None);
        assert_eq!(
            lock_refusals(&[
                r("1", LockStatus::WrongType),
                r("2", LockStatus::Success),
                r("3", LockStatus::NotFound),
                r("4", LockStatus::WrongType),
            ])
            .as_deref(),
            Some("status 2: 1 of 4, status 4: 2 of 4")
        );
    }

    #[test]
    fn states_round_trip_by_name() {
        for &s in WriteState::ALL {
            assert_eq!(WriteState::from_name(s.name()), Some(s));
        }
        assert_eq!(WriteState::from_name("later"), None);
    }
}
