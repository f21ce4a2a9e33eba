//! Requests that wait for a second person on a team server (`docs/team.md`, "Four eyes"): a
//! delete, or a batch or lock change above the server's thresholds, is kept instead of being
//! forwarded, and sent once another person with the permission `approve` approves it. The
//! shapes the server answers and the console reads.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::BatchOrderRequest;
use crate::preview::{DeletePreview, is_delete};

/// The team server's paths for requests.
pub mod paths {
    /// `GET`: requests, newest first (`?mine`, `?state=pending`, `?limit=N`).
    pub const REQUESTS: &str = "/team/v1/requests";
    /// `GET` one request; `POST …/approve` and `POST …/reject` decide it.
    pub const REQUEST: &str = "/team/v1/requests/{id}";
    pub const APPROVE: &str = "/team/v1/requests/{id}/approve";
    pub const REJECT: &str = "/team/v1/requests/{id}/reject";

    /// `path` with its `{id}` filled in.
    pub fn of(path: &str, id: i64) -> String {
        path.replace("{id}", &id.to_string())
    }
}

/// The HTTP status of a call held for approval: no platform answers it, so no client of the
/// interface can take it for the platform's success.
pub const HELD_STATUS: u16 = 202;

/// The order group's `cause` of a held call, followed by the request's name (`request:R-17`).
pub const HELD_CAUSE: &str = "request:";

/// Why a decision was refused, as the `cause` of the server's answer (the console says it in
/// its own words).
pub mod causes {
    /// The requester deciding their own request (HTTP 403).
    pub const OWN: &str = "own_request";
    /// The body is not the one the approver saw (HTTP 409).
    pub const CHANGED: &str = "request_changed";
    /// The requester was disabled since they filed it (HTTP 409).
    pub const REQUESTER_DISABLED: &str = "requester_disabled";
    /// Another decision came first (HTTP 409).
    pub const DECIDED: &str = "decided";
    /// An approver bound to a branch deciding another branch's request (HTTP 403).
    pub const OTHER_BRANCH: &str = "other_branch";
    /// The requester's role no longer has what filing it needed (HTTP 409).
    pub const REQUESTER_LACKS: &str = "requester_lacks";
    /// The same batch order id waits for approval with another body (HTTP 409).
    pub const FILED_OTHERWISE: &str = "filed_otherwise";
    /// No such request (HTTP 404).
    pub const NOT_FOUND: &str = "no_request";
    /// Another instance settled or approved it while this one could not see it: this one sent
    /// nothing (HTTP 409).
    pub const CLAIM_TAKEN: &str = "claim_taken";
}

/// A request's name as people say it: `R-17`.
pub fn name(id: i64) -> String {
    format!("R-{id}")
}

/// The id in `R-17` (or `17`).
pub fn parse_name(text: &str) -> Option<i64> {
    let t = text.trim();
    let digits = t
        .strip_prefix("R-")
        .or_else(|| t.strip_prefix("r-"))
        .unwrap_or(t);
    digits.parse().ok().filter(|id| *id > 0)
}

/// A held call's `data`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Held {
    pub request_id: String,
}

/// Where a request stands.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum State {
    Pending,
    Approved,
    Rejected,
    /// Sent, and done by the platform.
    Done,
    /// Sent, and refused by the platform.
    Refused,
    /// Sent, and no answer says what the platform did: never sent again by itself.
    Unknown,
    /// Provably not sent (the platform could not be reached): it may be approved again.
    NotSent,
}

impl State {
    pub const ALL: &'static [State] = <State as strum::VariantArray>::VARIANTS;

    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<State> {
        name.parse().ok()
    }

    /// Still waiting for a decision (a request provably not sent may be approved again).
    pub fn open(self) -> bool {
        matches!(self, Self::Pending | Self::NotSent)
    }
}

/// A request as the server keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub id: i64,
    pub requester: String,
    pub role: String,
    #[serde(default)]
    pub branch: Option<String>,
    /// The operation held (`batch_order`, `lock`, `unlock`).
    pub operation: crate::Operation,
    /// The call's body as it will be forwarded.
    pub body: Value,
    /// SHA-256 (hex) of the body as filed: an approval names it, so that what is approved is
    /// what was seen.
    pub body_hash: String,
    /// What a delete removes, worked out when it was filed.
    #[serde(default)]
    pub preview: Option<DeletePreview>,
    /// One line for the approver (`delete_asset ×2, 3 assets`).
    pub summary: String,
    pub state: State,
    /// Epoch milliseconds.
    pub created_at: i64,
    #[serde(default)]
    pub decided_by: Option<String>,
    #[serde(default)]
    pub decided_at: Option<i64>,
    /// A rejection's reason.
    #[serde(default)]
    pub reason: Option<String>,
    /// The call id it was sent under (the server's ledger).
    #[serde(default)]
    pub call_id: Option<String>,
    /// The platform's code and words when it refused, or why the outcome is unknown.
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    /// The platform's `data` when it was done.
    #[serde(default)]
    pub answer: Option<Value>,
    #[serde(default)]
    pub ended_at: Option<i64>,
}

/// `POST …/approve`'s body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Approve {
    pub body_hash: String,
}

/// `POST …/reject`'s body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reject {
    pub reason: String,
}

/// `GET /team/v1/requests`' query.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestQuery {
    /// Only one's own (everyone's needs `approve`; without it only one's own are answered).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mine: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<State>,
    /// At most this many (100 when absent, 1000 at most); fewer when their bodies come to
    /// more than [`LISTED_BYTES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// Only requests older than this one (the next page: the last id of the one before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
}

/// A listing stops after the request whose body takes its bodies past this many bytes: a
/// page of large held batches is a few of them, not a hundred.
pub const LISTED_BYTES: usize = 8 * 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_named_and_read_back() {
        assert_eq!(name(17), "R-17");
        assert_eq!(parse_name("R-17"), Some(17));
        assert_eq!(parse_name(" 17 "), Some(17));
        assert_eq!(parse_name("R-0"), None);
        assert_eq!(parse_name("R-x"), None);
        assert_eq!(paths::of(paths::APPROVE, 3), "/team/v1/requests/3/approve");
    }

    #[test]
    fn states_read_back_by_name() {
        for &s in State::ALL {
            assert_eq!(State::from_name(s.name()), Some(s));
            let json = serde_json::to_string(&s).expect("a state");
            assert_eq!(json, format!("\"{}\"", s.name()));
        }
    }
}

/// Above these, a team server holds a call for a second person (every delete is held,
/// whatever its size): its settings, applied by the server and shown by the console beforehand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Thresholds {
    /// A batch with more assets than this.
    pub batch_assets: u64,
    /// A lock or unlock of more assets than this.
    pub locks: u64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            batch_assets: 1000,
            locks: 50,
        }
    }
}

impl Thresholds {
    /// A batch with a delete, or of more assets than the threshold, waits.
    pub fn batch_held(self, batch: &BatchOrderRequest) -> bool {
        self.held(batch.order_list.iter().any(is_delete), assets_in(batch))
    }

    /// The same, of a batch's counts: whether it deletes, and the asset numbers it names.
    pub fn held(self, deletes: bool, assets: u64) -> bool {
        deletes || assets > self.batch_assets
    }

    /// A lock change of more assets than the threshold waits.
    pub fn locks_held(self, assets: usize) -> bool {
        assets as u64 > self.locks
    }
}

/// The asset numbers a batch's orders name.
pub fn assets_in(batch: &BatchOrderRequest) -> u64 {
    let entries = batch.order_list.iter().flat_map(|o| &o.assets);
    entries.map(|a| a.asset_nos.len() as u64).sum()
}

/// What a signed-in person is told of four eyes: when their calls wait, and who decides them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FourEyes {
    #[serde(flatten)]
    pub thresholds: Thresholds,
    /// Who may approve this person's requests (display names; never the person).
    pub approvers: Vec<String>,
}
