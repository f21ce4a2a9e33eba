//! `/team/v1/requests`: calls that wait for a second person. Their requester and approvers
//! read them; an approver (never the requester) decides one, and an approved one is sent
//! once, through the server's ledger under a call id of its own, its outcome kept on it.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use client::{ApiError, Operation, Reach};
use serde_json::{Value, json};
use wire::LockRequest;
use wire::approval::{self, Approve, Reject, Request, RequestQuery};
use wire::validate;

use super::Team;
use super::answer::{Fail, order_ok};
use super::trail::{Answer, Trail, begun_entry};
use crate::audit::Record;
use crate::identity::name_key;
use crate::permit::require;
use crate::requests::{self, Decision, Settled, State as Kept};
use crate::roles::Permission;
use crate::sessions::Caller;
use crate::upstream::{BEGUN, HELD, PERSON};

type Shared = State<Arc<Team>>;

/// `GET /team/v1/requests`: everyone's with `approve`, else one's own.
pub async fn list(State(team): Shared, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    let listed = async {
        let query = parse(q.as_deref().unwrap_or_default())?;
        let caller = team.caller(&headers).await?;
        let mine = query.mine || !caller.permissions.has(Permission::Approve);
        let branch = caller.person.branch.as_ref().map(|b| b.code.clone());
        let listing = requests::Listing {
            requester: mine.then(|| caller.person.name.clone()),
            // An approver bound to a branch decides, and so lists, that branch's only.
            branch: (!mine).then_some(branch).flatten(),
            state: query.state,
            before: query.before,
            limit: i64::from(query.limit.unwrap_or(100).clamp(1, 1000)),
        };
        let found = requests::list(&team.store, listing).await?;
        Ok(found.into_iter().map(shown).collect::<Vec<_>>())
    }
    .await;
    answered(listed)
}

/// `GET /team/v1/requests/{id}`: one's own, or with `approve` any of one's branch (any at
/// all without a branch). Another's is answered as one that does not exist, so that the
/// answer does not tell which requests there are.
pub async fn show(State(team): Shared, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let shown = async {
        let id = request_id(&id)?;
        let caller = team.caller(&headers).await?;
        let found = requests::get(&team.store, id).await?;
        match may_read(&caller, &found) {
            true => Ok(shown(found)),
            false => Err(Fail::Team(crate::TeamError::NoSuchRequest(id))),
        }
    }
    .await;
    answered(shown)
}

/// A request as its readers see it: its body's passwords (`passwordMobile`, a product's
/// `passwords`) as `***`. The store keeps them, since the platform needs them when the request
/// is sent; the hash is the stored body's, so what is approved is still what is sent.
fn shown(mut r: Request) -> Request {
    r.body = super::trail::redacted(&r.body);
    r
}

fn may_read(caller: &Caller, r: &Request) -> bool {
    let person = &caller.person;
    let own = name_key(&r.requester) == name_key(&person.name);
    let branch = person.branch.as_ref().map(|b| b.code.as_str());
    let in_branch = branch.is_none() || branch == r.branch.as_deref();
    own || (caller.permissions.has(Permission::Approve) && in_branch)
}

/// `POST /team/v1/requests/{id}/approve {"bodyHash"}`: decided, then sent once.
pub async fn approve(
    State(team): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Response {
    let sent = async {
        let id = request_id(&id)?;
        let caller = approver(&team, &headers, "approving a request").await?;
        let Approve { body_hash } = body(&bytes)?;
        let decided = decide(&team, &caller, id, Decision::Approve { body_hash }).await?;
        send(&team, &caller, decided).await
    }
    .await;
    answered(sent)
}

/// `POST /team/v1/requests/{id}/reject {"reason"}`.
pub async fn reject(
    State(team): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Response {
    let rejected = async {
        let id = request_id(&id)?;
        let caller = approver(&team, &headers, "rejecting a request").await?;
        let Reject { reason } = body(&bytes)?;
        decide(&team, &caller, id, Decision::Reject { reason }).await
    }
    .await;
    answered(rejected)
}

fn answered<T: serde::Serialize>(result: Result<T, Fail>) -> Response {
    match result {
        Ok(data) => order_ok(data),
        Err(fail) => fail.order(),
    }
}

async fn approver(team: &Team, headers: &HeaderMap, what: &'static str) -> Result<Caller, Fail> {
    let caller = team.caller(headers).await?;
    require(
        caller.permissions,
        &caller.person,
        Permission::Approve,
        what,
    )?;
    Ok(caller)
}

/// The decision, recorded in the audit log whether it is taken or refused.
async fn decide(
    team: &Team,
    caller: &Caller,
    id: i64,
    decision: Decision,
) -> Result<Request, Fail> {
    let (operation, reason) = match &decision {
        Decision::Approve { .. } => ("approve", None),
        Decision::Reject { reason } => ("reject", Some(reason.clone())),
    };
    let person = &caller.person;
    let branch = person.branch.as_ref().map(|b| b.code.clone());
    let instance = &team.instance;
    let decided = requests::decide(&team.store, id, &person.name, branch, instance, decision).await;
    let (outcome, message) = match &decided {
        Ok(_) => ("done", reason),
        Err(e) => ("refused", Some(e.to_string())),
    };
    let record = Record {
        person: person.name.clone(),
        role: person.role.clone(),
        branch: person.branch.as_ref().map(|b| b.code.clone()),
        operation: operation.to_owned(),
        request: Some(json!({ "requestId": approval::name(id) }).to_string()),
        outcome: outcome.to_owned(),
        message,
        ..Record::default()
    };
    team.append(record).await;
    Ok(decided?)
}

/// Sends an approved request once, under the requester's name in the ledger, and keeps what
/// became of it; the sending is recorded in the audit log under the approver.
async fn send(team: &Team, caller: &Caller, r: Request) -> Result<Request, Fail> {
    let operation = r.operation;
    let mut trail = Trail::new(operation);
    trail.caller = Some(caller.clone());
    trail.request = Some(r.body.clone());
    trail.held = Some(r.id);
    let call_id = client::write::new_call_id(support::clock::now_ms());
    requests::sending(&team.store, r.id, &team.instance, &call_id).await?;
    trail.call_id = Some(call_id.clone());
    let call = forward(team, operation, r.id, &r.body_hash, &r.requester);
    let call = BEGUN.scope(begun_entry(&trail), call);
    let call = HELD.scope(r.id, client::CALL_ID.scope(call_id.clone(), call));
    let result = PERSON.scope(r.requester.clone(), call).await;
    let settled = settled(call_id, &result);
    let noted = result.map(Answer::Data).map_err(Fail::from);
    // The request keeps its outcome whatever the record does; a record that fails is loud.
    if let Err(e) = team.note(&trail, &noted).await {
        tracing::error!(error = %e, request = r.id, "the audit log could not record a sending");
    }
    Ok(requests::settle(&team.store, r.id, settled).await?)
}

/// The held body, read from the store, sent as its operation: only if it still has the hash
/// the approver approved, still passes the checks it passed when filed, and reads back as the
/// very text that was hashed (so what leaves is what was approved).
async fn forward(
    team: &Team,
    operation: Operation,
    id: i64,
    approved: &str,
    requester: &str,
) -> Result<Value, ApiError> {
    let not_sent = |e: String| ApiError::Config(format!("not sent: the request's body {e}"));
    let (text, hash) = requests::stored_body(&team.store, id)
        .await
        .map_err(|e| not_sent(format!("cannot be read: {e}")))?;
    if hash != approved || client::write::body_hash(text.as_bytes()) != hash {
        return Err(not_sent(
            "changed in the store since it was approved".to_owned(),
        ));
    }
    let refused = |e: super::forward::Unchecked| not_sent(format!("is refused now: {e}"));
    let answer = match operation {
        Operation::BatchOrder => {
            let batch = wire::open::open_batch(text.as_bytes())
                .map_err(|e| not_sent(format!("cannot be read: {}", e.what())))?;
            super::forward::checked_batch(&batch).map_err(refused)?;
            if !reads_back_as(&wire::open::batch_to_value(&batch), &text) {
                return Err(not_sent(NOT_AS_APPROVED.to_owned()));
            }
            let results = team.upstream.batch_order(&batch).await?;
            let held = crate::holdings::batch_held(&batch, &results);
            super::forward::keep_held(team, held, requester).await;
            json_of(&results)
        }
        Operation::Lock | Operation::Unlock => {
            let req: LockRequest = serde_json::from_str(&text)
                .map_err(|e| not_sent(format!("cannot be read: {e}")))?;
            super::forward::checked(validate::lock(&req)).map_err(refused)?;
            if !reads_back_as(&json_of(&req), &text) {
                return Err(not_sent(NOT_AS_APPROVED.to_owned()));
            }
            match operation {
                Operation::Lock => json_of(&team.upstream.lock(&req).await?),
                _ => json_of(&team.upstream.unlock(&req).await?),
            }
        }
        other => {
            return Err(not_sent(format!(
                "is of {}, which is never held",
                other.name()
            )));
        }
    };
    Ok(answer)
}

const NOT_AS_APPROVED: &str = "does not read back as the text that was approved";

/// Whether the typed value re-encodes to the text that was hashed.
fn reads_back_as(typed: &Value, text: &str) -> bool {
    // The text, not `Value == str` (which would compare with a JSON string).
    typed.to_string().as_str() == text
}

fn json_of<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// What the sending's result makes of the request.
fn settled(call_id: String, result: &Result<Value, ApiError>) -> Settled {
    let (state, code, message, answer) = match result {
        Ok(data) => (Kept::Done, None, None, Some(data.to_string())),
        Err(e) => {
            let state = match e.reach() {
                Reach::Answered => Kept::Refused,
                Reach::No => Kept::NotSent,
                Reach::Maybe => Kept::Unknown,
            };
            (
                state,
                e.code().map(str::to_owned),
                Some(e.to_string()),
                None,
            )
        }
    };
    Settled {
        state,
        call_id,
        code,
        message,
        answer,
    }
}

fn request_id(text: &str) -> Result<i64, Fail> {
    approval::parse_name(text)
        .ok_or_else(|| Fail::BadBody(format!("id: {text:?} is not a request (R-17, or 17)")))
}

fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, Fail> {
    wire::parse::json(bytes).map_err(|e| Fail::BadBody(e.to_string()))
}

/// The list's query; a state or number that is not one is refused, naming it.
fn parse(query: &str) -> Result<RequestQuery, Fail> {
    let mut out = RequestQuery::default();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match key.as_ref() {
            "mine" => out.mine = value != "false",
            "state" => {
                let state = approval::State::from_name(&value).ok_or_else(|| {
                    Fail::BadBody(format!(
                        "state: {value:?} is none of pending, approved, rejected, done, \
                         refused, unknown, not_sent"
                    ))
                })?;
                out.state = Some(state);
            }
            "before" => {
                let id = approval::parse_name(&value).ok_or_else(|| {
                    Fail::BadBody(format!("before: {value:?} is not a request (R-17, or 17)"))
                })?;
                out.before = Some(id);
            }
            "limit" => {
                let n = value
                    .parse()
                    .map_err(|_| Fail::BadBody(format!("limit: {value:?} is not a number")))?;
                out.limit = Some(n);
            }
            _ => {}
        }
    }
    Ok(out)
}
