//! What a forwarded call leaves in the audit log: who asked, what (passwords redacted), and
//! how it ended, before its answer leaves. A call without a valid session is recorded too, by
//! its operation and why it was refused only (never its body, so its size is bounded). A call
//! whose entry cannot be written is not answered as the platform answered: the record fails
//! closed.

use axum::response::{IntoResponse, Json, Response};
use client::{ApiError, Operation, Reach};
use serde_json::Value;

use super::Team;
use super::answer::{Fail, held, order_done, order_ok};
use crate::audit::Record;
use crate::permit::Refusal;
use crate::sessions::Caller;

/// The interface's two groups, answered in their own shapes.
#[derive(Clone, Copy)]
pub enum Group {
    Order,
    Activity,
}

/// What the platform answered, to pass on.
pub enum Answer {
    /// The order group's `data`.
    Data(Value),
    /// The order group's success without data (operation 4).
    Done,
    /// An asset listing: passed on as it came, recorded by its size only.
    Listing(wire::AssetList),
    /// The activity group's answer.
    Activity(Value),
    /// Kept as this request for another person to approve: nothing was forwarded.
    Held(i64),
}

/// A forwarded call as it goes: filled in by the handler as it learns who and what.
pub struct Trail {
    pub operation: Operation,
    pub caller: Option<Caller>,
    pub request: Option<Value>,
    pub call_id: Option<String>,
    /// The request whose approval sends this call.
    pub held: Option<i64>,
}

impl Trail {
    pub fn new(operation: Operation) -> Self {
        Self {
            operation,
            caller: None,
            request: None,
            call_id: None,
            held: None,
        }
    }
}

impl Team {
    /// Records the call (when it had a session) and answers it in its group's shape.
    pub async fn finish(
        &self,
        trail: Trail,
        result: Result<Answer, Fail>,
        group: Group,
    ) -> Response {
        // A write provably not sent (its begun entry could not be written, among others)
        // says so, whether or not its outcome's entry could be written either.
        let not_sent = matches!(&result, Err(Fail::Upstream(e)) if e.reach() == Reach::No);
        if let Err(e) = self.note(&trail, &result).await
            && !not_sent
        {
            return unrecorded(&trail, &result, &e);
        }
        match (result, group) {
            (Ok(Answer::Data(data)), _) => order_ok(data),
            (Ok(Answer::Done), _) => order_done(),
            (Ok(Answer::Listing(listing)), _) => order_ok(listing),
            (Ok(Answer::Activity(answer)), _) => Json(answer).into_response(),
            (Ok(Answer::Held(id)), _) => held(id),
            (Err(fail), Group::Order) => fail.order(),
            (Err(fail), Group::Activity) => fail.activity(),
        }
    }
}

/// The answer of a call whose entry could not be written: a write the platform may have done
/// is an unknown outcome for the caller (its answer is not passed on unrecorded); anything else
/// is the server failing.
fn unrecorded(trail: &Trail, result: &Result<Answer, Fail>, e: &crate::TeamError) -> Response {
    let reached = trail.call_id.is_some() && trail.operation.writes();
    match (reached, result) {
        (true, Ok(_) | Err(Fail::Upstream(_))) => {
            super::answer::unknown(&ApiError::OutcomeUnknown {
                call_id: trail.call_id.clone().unwrap_or_default(),
                operation: trail.operation,
                what: format!(
                    "the platform was called, and the team server could not record it ({e})"
                ),
                detail: String::new(),
            })
        }
        _ => Fail::Team(crate::TeamError::Audit(e.to_string())).order(),
    }
}

impl Team {
    /// Records the call in the audit log, with a session or without.
    pub async fn note(
        &self,
        trail: &Trail,
        result: &Result<Answer, Fail>,
    ) -> Result<(), crate::TeamError> {
        let record = record(trail, result).or_else(|| no_session(trail, result));
        match record {
            Some(record) => self.audit.append(record).await.map(|_| ()),
            None => Ok(()),
        }
    }

    /// Appends to the audit log. What was done stays done when it cannot be written (the
    /// ledger keeps every write): the failure is loud.
    pub async fn append(&self, record: Record) {
        let operation = record.operation.clone();
        if let Err(e) = self.audit.append(record).await {
            tracing::error!(error = %e, operation, "the audit log could not be written");
        }
    }
}

/// The outcome of a write's entry written before it leaves; its outcome follows in an entry of
/// its own, under the same call id.
pub const BEGUN: &str = "begun";

/// A write's entry before anything leaves (the ledger appends it in the commit that keeps the
/// write): a server that dies while the platform works leaves the call in the record, as an
/// outcome unknown, never out of it. A call without a session has none.
pub fn begun_entry(trail: &Trail) -> Option<Record> {
    Some(Record {
        outcome: BEGUN.to_owned(),
        message: trail.held.map(wire::approval::name),
        ..caller_entry(trail)?
    })
}

/// What every entry of a call with a session says: who, what, and the request as kept.
fn caller_entry(trail: &Trail) -> Option<Record> {
    let person = &trail.caller.as_ref()?.person;
    Some(Record {
        person: person.name.clone(),
        role: person.role.clone(),
        branch: person.branch.as_ref().map(|b| b.code.clone()),
        operation: trail.operation.name().to_owned(),
        call_id: trail.call_id.clone(),
        request: trail.request.as_ref().map(|r| redacted(r).to_string()),
        ..Record::default()
    })
}

/// The entry of a call refused for its session: who cannot be said, only what and why.
fn no_session(trail: &Trail, result: &Result<Answer, Fail>) -> Option<Record> {
    let Err(Fail::Session(e)) = result else {
        return None;
    };
    Some(Record {
        person: "(no session)".to_owned(),
        operation: trail.operation.name().to_owned(),
        outcome: "unauthenticated".to_owned(),
        message: Some(e.to_string()),
        ..Record::default()
    })
}

/// The audit entry of a call that had a session.
fn record(trail: &Trail, result: &Result<Answer, Fail>) -> Option<Record> {
    // A read's answer is the platform's to keep, not the record's: only what it was asked.
    let reads = !trail.operation.writes();
    let (outcome, code, message, answer) = match result {
        Ok(Answer::Data(_)) if reads => ("done", None, None, None),
        Ok(Answer::Data(data) | Answer::Activity(data)) => {
            ("done", None, None, Some(data.to_string()))
        }
        Ok(Answer::Done) => ("done", None, None, None),
        Ok(Answer::Listing(listing)) => {
            let assets = listing.len() as u64;
            let note = wire::team::RecordNote::Listed { assets };
            let plural = if assets == 1 { "" } else { "s" };
            let message = format!("{assets} asset{plural}");
            ("done", None, Some(message), note.to_answer())
        }
        // The answer's data, so that a console words it in its own language.
        Ok(Answer::Held(id)) => (
            "held",
            None,
            Some(format!(
                "held for approval as {}",
                wire::approval::name(*id)
            )),
            Some(serde_json::json!({ "requestId": wire::approval::name(*id) }).to_string()),
        ),
        Err(fail) => failure(fail),
    };
    Some(Record {
        call_id: call_id(trail, result),
        outcome: outcome.to_owned(),
        code,
        message: match trail.held {
            // Sent on approval: the record names the request.
            Some(id) => Some(match message {
                Some(m) => format!("{}: {m}", wire::approval::name(id)),
                None => wire::approval::name(id),
            }),
            None => message,
        },
        answer,
        ..caller_entry(trail)?
    })
}

fn failure(fail: &Fail) -> (&'static str, Option<String>, Option<String>, Option<String>) {
    match fail {
        Fail::Refused(r @ (Refusal::Permission { .. } | Refusal::OtherBranch { .. })) => {
            ("denied", None, Some(r.to_string()), None)
        }
        Fail::Refused(Refusal::Field(m)) | Fail::BadBody(m) => {
            ("invalid", None, Some(m.clone()), None)
        }
        Fail::Session(e) => ("failed", None, Some(e.to_string()), None),
        Fail::Upstream(e @ ApiError::OutcomeUnknown { .. }) => {
            ("unknown", None, Some(e.to_string()), None)
        }
        Fail::Upstream(e @ ApiError::Platform { .. }) => (
            "refused",
            e.code().map(str::to_owned),
            Some(e.to_string()),
            None,
        ),
        Fail::Upstream(e @ (ApiError::NotSent(_) | ApiError::NotRecorded(_))) => {
            ("not_sent", None, Some(e.to_string()), None)
        }
        Fail::Upstream(e) => ("failed", None, Some(e.to_string()), None),
        Fail::Team(e) => ("failed", None, Some(e.to_string()), None),
    }
}

fn call_id(trail: &Trail, result: &Result<Answer, Fail>) -> Option<String> {
    match result {
        Err(Fail::Upstream(ApiError::OutcomeUnknown { call_id, .. })) => Some(call_id.clone()),
        _ => trail.call_id.clone(),
    }
}

/// A secret value as `***`, in its shape: a list stays a list (of `***`), so that what reads
/// the redacted body still reads it.
fn hidden(v: &Value) -> Value {
    match v {
        Value::Array(items) => Value::Array(items.iter().map(hidden).collect()),
        Value::Null => Value::Null,
        _ => Value::String("***".to_owned()),
    }
}

/// The request with every value under a key that names a password replaced by `***`.
pub fn redacted(v: &Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = match k.to_lowercase().contains("password") {
                        true => hidden(v),
                        false => redacted(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redacted).collect()),
        other => other.clone(),
    }
}
