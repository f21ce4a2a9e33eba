//! Requests (issue 37, docs/team.md "Four eyes"): a call that waits for a second person. Kept
//! with the body as it would be forwarded and its hash; decided once, by someone other than
//! the requester, whatever the number of approvers or server instances deciding at once; then
//! settled with what the platform did (`http/approvals.rs` sends it).

use std::ops::ControlFlow;

use db::sql::{Row, StoreError, Tx};
use wire::Operation;
pub use wire::approval::{Request, State};

use crate::custom_roles;
use crate::error::TeamError;
use crate::people::{self, Person};
use crate::roles::Permission;
use crate::store::TeamStore;

/// A call to hold, as the server would forward it.
#[derive(Debug, Clone)]
pub struct NewRequest {
    pub requester: String,
    pub role: String,
    pub branch: Option<String>,
    /// The operation held (`batch_order`, `lock`, `unlock`).
    pub operation: Operation,
    /// JSON, as it would be forwarded.
    pub body: String,
    /// What a delete removes, JSON.
    pub preview: Option<String>,
    /// One line for the approver ("delete 3 products of 2 assets").
    pub summary: String,
    /// A batch's `channelCode` and `channelOrderId`: the same pair from the same requester is
    /// one request while it waits.
    pub channel_order: Option<(String, String)>,
}

/// An approver's decision.
#[derive(Debug, Clone)]
pub enum Decision {
    /// With the hash of the body the approver saw: a body changed since is refused.
    Approve {
        body_hash: String,
    },
    Reject {
        reason: String,
    },
}

macro_rules! requests {
    ($rest:literal) => {
        concat!(
            "SELECT seq, requester, role, branch, operation, body, body_hash, preview, summary, \
             state, created_at, decided_by, decided_at, reason, call_id, code, message, \
             ended_at, answer FROM requests ",
            $rest
        )
    };
}

fn request(row: &dyn Row) -> Result<Request, StoreError> {
    Ok(Request {
        id: row.i64(0)?,
        requester: row.text(1)?,
        role: row.text(2)?,
        branch: row.opt_text(3)?,
        operation: operation(&row.text(4)?)?,
        body: kept_json(&row.text(5)?)?,
        body_hash: row.text(6)?,
        preview: row.opt_text(7)?.map(|p| kept_json(&p)).transpose()?,
        summary: row.text(8)?,
        state: state(&row.text(9)?)?,
        created_at: row.i64(10)?,
        decided_by: row.opt_text(11)?,
        decided_at: row.opt_i64(12)?,
        reason: row.opt_text(13)?,
        call_id: row.opt_text(14)?,
        code: row.opt_text(15)?,
        message: row.opt_text(16)?,
        ended_at: row.opt_i64(17)?,
        answer: row.opt_text(18)?.map(|a| kept_json(&a)).transpose()?,
    })
}

/// The request's body as stored, and the hash it was filed with: what an approved request
/// sends is read here, not from a copy read before its decision.
pub async fn stored_body(store: &TeamStore, id: i64) -> Result<(String, String), TeamError> {
    store
        .read(move |tx| {
            tx.query_opt(
                "SELECT body, body_hash FROM requests WHERE seq = ?1",
                &[id.into()],
                |row| Ok((row.text(0)?, row.text(1)?)),
            )?
            .ok_or(TeamError::NoSuchRequest(id))
        })
        .await
}

fn kept_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Failure(format!("a request keeps JSON that cannot be read: {e}")))
}

fn operation(name: &str) -> Result<Operation, StoreError> {
    name.parse()
        .map_err(|_| StoreError::Failure(format!("a request of the operation {name:?}")))
}

fn state(name: &str) -> Result<State, StoreError> {
    State::from_name(name)
        .ok_or_else(|| StoreError::Failure(format!("a request in the state {name:?}")))
}

/// Keeps a new request, pending, and answers it. The same call from the same requester while
/// an earlier one still waits (pending or approved) is that request, answered again: a clerk who
/// sends a held batch twice files it once. The same batch order id with another body is
/// refused, naming the request that waits.
/// A request as filing answered it.
#[derive(Debug, Clone)]
pub struct Filed {
    pub request: Request,
    /// False when the same call was already waiting: that request is answered again.
    pub new: bool,
}

pub async fn file(store: &TeamStore, new: NewRequest) -> Result<Filed, TeamError> {
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            tx.serialize_on("requests")?;
            let hash = client::write::body_hash(new.body.as_bytes());
            if let Some(id) = waiting(tx, &new, &hash)? {
                let request = get_in(tx, id)?;
                return Ok(Filed {
                    request,
                    new: false,
                });
            }
            let last = tx.query_opt("SELECT MAX(seq) FROM requests", &[], |row| row.opt_i64(0))?;
            let id = last.flatten().unwrap_or(0) + 1;
            let (code, order) = new.channel_order.clone().unzip();
            tx.execute(
                "INSERT INTO requests(seq, requester, role, branch, operation, body, body_hash, \
                     preview, summary, state, created_at, channel_code, channel_order_id) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                &[
                    id.into(),
                    (&new.requester).into(),
                    (&new.role).into(),
                    new.branch.as_deref().into(),
                    new.operation.name().into(),
                    (&new.body).into(),
                    (&hash).into(),
                    new.preview.as_deref().into(),
                    (&new.summary).into(),
                    State::Pending.name().into(),
                    now.into(),
                    code.as_deref().into(),
                    order.as_deref().into(),
                ],
            )?;
            let request = get_in(tx, id)?;
            Ok(Filed { request, new: true })
        })
        .await
}

/// The request already waiting for this call, if any; a batch order id waiting with another
/// body is refused.
fn waiting(tx: &dyn Tx, new: &NewRequest, hash: &str) -> Result<Option<i64>, TeamError> {
    if let Some((code, order)) = &new.channel_order {
        let found = tx.query_opt(
            "SELECT seq, body_hash FROM requests WHERE requester = ?1 AND channel_code = ?2 \
                 AND channel_order_id = ?3 AND state IN ('pending', 'approved') \
             ORDER BY seq DESC",
            &[(&new.requester).into(), code.into(), order.into()],
            |row| Ok((row.i64(0)?, row.text(1)?)),
        )?;
        return match found {
            Some((id, kept)) if kept == hash => Ok(Some(id)),
            Some((id, _)) => Err(TeamError::FiledOtherwise(id)),
            None => Ok(None),
        };
    }
    Ok(tx.query_opt(
        "SELECT seq FROM requests WHERE requester = ?1 AND operation = ?2 AND body_hash = ?3 \
             AND state IN ('pending', 'approved') ORDER BY seq DESC",
        &[
            (&new.requester).into(),
            new.operation.name().into(),
            hash.into(),
        ],
        |row| row.i64(0),
    )?)
}

/// One request.
pub async fn get(store: &TeamStore, id: i64) -> Result<Request, TeamError> {
    store.read(move |tx| get_in(tx, id)).await
}

fn get_in(tx: &dyn Tx, id: i64) -> Result<Request, TeamError> {
    tx.query_opt(requests!("WHERE seq = ?1"), &[id.into()], request)?
        .ok_or(TeamError::NoSuchRequest(id))
}

/// Which requests a listing answers.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Only this person's (their name's key).
    pub requester: Option<String>,
    /// Only this branch's (its code).
    pub branch: Option<String>,
    pub state: Option<State>,
    /// Only those older than this one.
    pub before: Option<i64>,
    pub limit: i64,
}

/// The requests a listing names, newest first: at most its limit, and none after the one
/// whose body takes the listing past [`wire::approval::LISTED_BYTES`].
pub async fn list(store: &TeamStore, l: Listing) -> Result<Vec<Request>, TeamError> {
    store
        .read(move |tx| {
            let mut all = Vec::new();
            let mut bytes = 0;
            let mut push = |row: &dyn Row| {
                let r = request(row)?;
                bytes += r.body.to_string().len();
                all.push(r);
                Ok(match bytes > wire::approval::LISTED_BYTES {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                })
            };
            let state = l.state.map(State::name);
            tx.query_each(
                requests!(
                    "WHERE (CAST(?1 AS TEXT) IS NULL OR requester = ?1) \
                     AND (CAST(?2 AS TEXT) IS NULL OR branch = ?2) \
                     AND (CAST(?3 AS TEXT) IS NULL OR state = ?3) \
                     AND (CAST(?4 AS BIGINT) IS NULL OR seq < ?4) ORDER BY seq DESC LIMIT ?5"
                ),
                &[
                    l.requester.as_deref().into(),
                    l.branch.as_deref().into(),
                    state.into(),
                    l.before.into(),
                    l.limit.into(),
                ],
                &mut push,
            )?;
            Ok(all)
        })
        .await
}

/// Decides a pending request (or approves again one provably not sent). Exactly one
/// decision wins, however many approvers or instances decide at once: the state changes only
/// if it is still the one read. The requester cannot decide their own, a body changed since
/// the approver read it is refused, and so is a requester disabled since they filed it.
pub async fn decide(
    store: &TeamStore,
    id: i64,
    approver: &str,
    approver_branch: Option<String>,
    instance: &str,
    decision: Decision,
) -> Result<Request, TeamError> {
    let approver = crate::identity::name_key(approver);
    let instance = instance.to_owned();
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            let r = get_in(tx, id)?;
            check(tx, &r, &approver, &decision)?;
            same_branch(&r, approver_branch.as_deref())?;
            let (state, reason) = match &decision {
                Decision::Approve { .. } => (State::Approved, None),
                Decision::Reject { reason } => (State::Rejected, Some(reason.trim())),
            };
            // An approval names this instance as the sender, and no call yet: a call id left
            // by an earlier sending is not this one's.
            let sender = (state == State::Approved).then_some(instance.as_str());
            let changed = tx.execute(
                "UPDATE requests SET state = ?2, decided_by = ?3, decided_at = ?4, reason = ?5, \
                     sender = ?7, call_id = NULL \
                 WHERE seq = ?1 AND state = ?6",
                &[
                    id.into(),
                    state.name().into(),
                    (&approver).into(),
                    now.into(),
                    reason.into(),
                    r.state.name().into(),
                    sender.into(),
                ],
            )?;
            let now_kept = get_in(tx, id)?;
            if changed == 0 {
                return Err(decided(&now_kept));
            }
            Ok(now_kept)
        })
        .await
}

/// Why a decision cannot be taken on `r`, if it cannot.
fn check(tx: &dyn Tx, r: &Request, approver: &str, decision: &Decision) -> Result<(), TeamError> {
    if r.requester == approver {
        return Err(TeamError::OwnRequest(r.id));
    }
    match (r.state, decision) {
        (State::Pending, _) | (State::NotSent, Decision::Approve { .. }) => {}
        _ => return Err(decided(r)),
    }
    match decision {
        Decision::Approve { body_hash } if *body_hash != r.body_hash => {
            Err(TeamError::RequestChanged(r.id))
        }
        Decision::Reject { reason } if reason.trim().is_empty() => Err(TeamError::Invalid(
            "reason: a rejection says why, for the requester".to_owned(),
        )),
        Decision::Approve { .. } if requester_disabled(tx, &r.requester)? => {
            Err(TeamError::RequesterDisabled(r.id, r.requester.clone()))
        }
        Decision::Approve { .. } => requester_still_may(tx, r),
        _ => Ok(()),
    }
}

/// Who may decide `requester`'s requests (their display names, by name): the people enabled,
/// not the requester, whose role may approve, and who are of no branch or of the requester's.
pub async fn approvers_of(store: &TeamStore, requester: &Person) -> Result<Vec<String>, TeamError> {
    let people = approving_people(store, requester).await?;
    let shown = |p: Person| match p.display_name.is_empty() {
        true => p.name,
        false => p.display_name,
    };
    Ok(people.into_iter().map(shown).collect())
}

/// The people of [`approvers_of`].
pub async fn approving_people(
    store: &TeamStore,
    requester: &Person,
) -> Result<Vec<Person>, TeamError> {
    let (name, branch) = (requester.name.clone(), requester.branch.clone());
    store
        .read(move |tx| {
            let mut found = Vec::new();
            for p in people::all_in(tx)? {
                let branch_fits = p.branch.is_none() || p.branch == branch;
                if p.disabled || p.name == name || !branch_fits {
                    continue;
                }
                if custom_roles::permissions_of(tx, &p.role)?.has(Permission::Approve) {
                    found.push(p);
                }
            }
            Ok(found)
        })
        .await
}

/// An approver bound to a branch decides that branch's requests only (a request filed by a
/// person of no branch is the head office's, decided by approvers of no branch).
fn same_branch(r: &Request, approver_branch: Option<&str>) -> Result<(), TeamError> {
    match approver_branch {
        Some(mine) if r.branch.as_deref() != Some(mine) => Err(TeamError::OtherBranch {
            id: r.id,
            branch: r
                .branch
                .clone()
                .unwrap_or_else(|| "(head office)".to_owned()),
        }),
        _ => Ok(()),
    }
}

/// The requester's role still has what filing the request needed: a batch needs `purchase`,
/// a lock change `locks` (a requester demoted to viewer since has nothing sent in their name).
fn requester_still_may(tx: &dyn Tx, r: &Request) -> Result<(), TeamError> {
    let needed = match r.operation {
        Operation::Lock | Operation::Unlock => Permission::Locks,
        _ => Permission::Purchase,
    };
    let role = tx.query_opt(
        "SELECT role FROM people WHERE name = ?1",
        &[r.requester.as_str().into()],
        |row| row.text(0),
    )?;
    let has = match role {
        Some(role) => crate::custom_roles::permissions_of(tx, &role)?.has(needed),
        None => false,
    };
    match has {
        true => Ok(()),
        false => Err(TeamError::RequesterLacks {
            id: r.id,
            requester: r.requester.clone(),
            permission: needed.name(),
        }),
    }
}

fn requester_disabled(tx: &dyn Tx, name: &str) -> Result<bool, TeamError> {
    let disabled_at = tx.query_opt(
        "SELECT disabled_at FROM people WHERE name = ?1",
        &[name.into()],
        |row| row.opt_i64(0),
    )?;
    // No such person any more is as disabled.
    Ok(disabled_at.is_none_or(|at| at.is_some()))
}

fn decided(r: &Request) -> TeamError {
    TeamError::AlreadyDecided {
        id: r.id,
        state: r.state.name(),
        by: r.decided_by.clone().unwrap_or_default(),
    }
}

/// Claims an approved request's sending for `instance` under `call_id`: only while it is
/// approved and this instance is its sender. An instance that paused or lost touch finds its
/// claim taken (settled, or approved again elsewhere) and sends nothing. Should the instance
/// stop before it is settled, the others settle it as its write is.
pub async fn sending(
    store: &TeamStore,
    id: i64,
    instance: &str,
    call_id: &str,
) -> Result<(), TeamError> {
    let (instance, call_id) = (instance.to_owned(), call_id.to_owned());
    store
        .write(move |tx| {
            let claimed = tx.execute(
                "UPDATE requests SET call_id = ?3 \
                 WHERE seq = ?1 AND state = 'approved' AND sender = ?2 AND call_id IS NULL",
                &[id.into(), (&instance).into(), (&call_id).into()],
            )?;
            match claimed {
                1 => Ok(()),
                _ => Err(TeamError::ClaimTaken(id)),
            }
        })
        .await
}

/// What became of an approved request once sent.
#[derive(Debug, Clone)]
pub struct Settled {
    pub state: State,
    /// The server ledger's call id it went under.
    pub call_id: String,
    /// The platform's code when it refused.
    pub code: Option<String>,
    /// The platform's words, or why the outcome is unknown or nothing was sent.
    pub message: Option<String>,
    /// The platform's `data` (JSON) when it was done.
    pub answer: Option<String>,
}

/// Keeps what became of an approved request once sent.
pub async fn settle(store: &TeamStore, id: i64, settled: Settled) -> Result<Request, TeamError> {
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            // Fenced on the sending's claim: a sender paused past its time whose request was
            // settled, approved again and claimed by another changes nothing. Its definite
            // answer may still end an `unknown` the settling gave it.
            let ended = tx.execute(
                "UPDATE requests SET state = ?2, call_id = ?3, code = ?4, message = ?5, \
                     ended_at = ?6, answer = ?7 WHERE seq = ?1 AND call_id = ?3 \
                     AND (state = 'approved' \
                         OR (state = 'unknown' AND ?2 IN ('done', 'refused')))",
                &[
                    id.into(),
                    settled.state.name().into(),
                    (&settled.call_id).into(),
                    settled.code.as_deref().into(),
                    settled.message.as_deref().into(),
                    now.into(),
                    settled.answer.as_deref().into(),
                ],
            )?;
            if ended == 0 {
                return Err(TeamError::ClaimTaken(id));
            }
            get_in(tx, id)
        })
        .await
}
