//! `/team/v1/knowledge`: the team's catalog and directory, read as the changes since a number
//! (permission `read`) and written by whoever composes orders (`purchase` for products and
//! packages, `customers` for the directory). A person bound to a branch writes only directory
//! entries of their branch, or of none. Each write is in the audit log (`knowledge.put`, the
//! items' shelves and keys: the values are the items themselves, kept with who changed them).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::json;
use wire::knowledge::{Put, Shelf};

use super::Team;
use super::answer::{Fail, order_ok};
use crate::audit::Record;
use crate::holdings::{self, Item, Named};
use crate::knowledge;
use crate::people::Branch;
use crate::permit::{Refusal, require};
use crate::roles::Permission;
use crate::sessions::Caller;

type Shared = State<Arc<Team>>;

/// The operation of a write's audit entry.
pub const KNOWLEDGE_PUT: &str = "knowledge.put";

pub async fn read(State(team): Shared, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    let read = async {
        let caller = team.caller(&headers).await?;
        let what = "reading the team's catalog";
        require(caller.permissions, &caller.person, Permission::Read, what)?;
        let since = since(q.as_deref().unwrap_or_default())?;
        Ok::<_, Fail>(knowledge::changes(&team.store, since).await?)
    }
    .await;
    match read {
        Ok(changes) => order_ok(changes),
        Err(fail) => fail.order(),
    }
}

pub async fn write(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let caller = match team.caller(&headers).await {
        Ok(caller) => caller,
        Err(e) => return Fail::from(e).order(),
    };
    let mut keys = None;
    let written = async {
        let puts: Vec<Put> = wire::parse::json(&bytes).map_err(|e| Fail::BadBody(e.to_string()))?;
        keys = Some(json!(
            puts.iter()
                .map(|p| format!("{}/{}", p.shelf.name(), p.key))
                .collect::<Vec<_>>()
        ));
        permitted(&caller, &puts)?;
        if let Some(branch) = &caller.person.branch {
            in_branch(&team, &puts, branch).await?;
        }
        Ok::<_, Fail>(knowledge::put(&team.store, &caller.person.name, puts).await?)
    }
    .await;
    let record = entry(&caller, keys.map(|k| k.to_string()), &written);
    if let Err(e) = team.audit.append(record).await {
        return Fail::Team(crate::TeamError::Audit(e.to_string())).order();
    }
    match written {
        Ok(last) => order_ok(json!({ "last": last })),
        Err(fail) => fail.order(),
    }
}

/// The permission each shelf written needs.
fn permitted(caller: &Caller, puts: &[Put]) -> Result<(), Refusal> {
    for shelf in Shelf::ALL {
        if puts.iter().any(|p| p.shelf == shelf) {
            let (p, what) = match shelf {
                Shelf::Customers => (Permission::Customers, "changing the team's directory"),
                _ => (Permission::Purchase, "changing the team's catalog"),
            };
            require(caller.permissions, &caller.person, p, what)?;
        }
    }
    Ok(())
}

/// Refuses a directory entry another branch holds, names, or named before this write.
async fn in_branch(team: &Team, puts: &[Put], mine: &Branch) -> Result<(), Fail> {
    let entries: Vec<(usize, &Put)> = puts
        .iter()
        .enumerate()
        .filter(|(_, p)| p.shelf == Shelf::Customers)
        .collect();
    let items: Vec<Named> = entries
        .iter()
        .filter_map(|(i, p)| {
            let item = Item::from_key(&p.key)?;
            Some(Named {
                path: format!("[{i}].key"),
                item,
            })
        })
        .collect();
    let found = holdings::holders(&team.store, &items).await?;
    holdings::refuse_others(&found, mine)?;
    let keys = entries.iter().map(|(_, p)| p.key.clone()).collect();
    let before = knowledge::values(&team.store, Shelf::Customers, keys).await?;
    for ((i, p), before) in entries.iter().zip(before) {
        let named = |path: String, holder: String| Refusal::OtherBranch {
            path,
            item: format!("the directory entry {}", p.key.trim()),
            holder,
            mine: mine.name.clone(),
        };
        if let Some(other) = p
            .value
            .as_ref()
            .and_then(|v| knowledge::other_branch(v, mine))
        {
            return Err(named(format!("[{i}].value"), other).into());
        }
        if let Some(other) = before.and_then(|v| knowledge::other_branch(&v, mine)) {
            return Err(named(format!("[{i}].key"), other).into());
        }
    }
    Ok(())
}

/// The write's audit entry: who, which items, how it ended.
fn entry(caller: &Caller, keys: Option<String>, written: &Result<i64, Fail>) -> Record {
    let answer = written
        .as_ref()
        .ok()
        .and_then(|&last| wire::team::RecordNote::Shared { last }.to_answer());
    let (outcome, message) = match written {
        Ok(last) => ("ok", Some(format!("changes up to {last}"))),
        Err(Fail::Refused(r @ (Refusal::Permission { .. } | Refusal::OtherBranch { .. }))) => {
            ("denied", Some(r.to_string()))
        }
        Err(Fail::Refused(Refusal::Field(m)) | Fail::BadBody(m)) => ("invalid", Some(m.clone())),
        Err(fail) => ("failed", Some(fail.to_string())),
    };
    Record {
        person: caller.person.name.clone(),
        role: caller.person.role.clone(),
        branch: caller.person.branch.as_ref().map(|b| b.code.clone()),
        operation: KNOWLEDGE_PUT.to_owned(),
        request: keys,
        outcome: outcome.to_owned(),
        message,
        answer,
        ..Record::default()
    }
}

fn since(query: &str) -> Result<i64, Fail> {
    let value = form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "since")
        .map(|(_, v)| v.into_owned());
    match value {
        None => Ok(0),
        Some(v) => v
            .parse()
            .map_err(|_| Fail::BadBody(format!("since: {v:?} is not a number"))),
    }
}
