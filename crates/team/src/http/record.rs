//! `GET /team/v1/audit`: the audit log's latest entries a person may see, newest first. Each
//! person sees their own; one with `users` sees anyone's. Reading it is not itself recorded:
//! it changes nothing, and a console reads it each time History opens.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use wire::team::{AuditEntry, AuditQuery};

use super::Team;
use super::answer::{Fail, order_ok};
use super::trail::BEGUN;
use crate::audit;
use crate::permit::require;
use crate::roles::Permission;

pub async fn audit(
    State(team): State<Arc<Team>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let read = match parse(query.as_deref().unwrap_or_default()) {
        Ok(query) => entries(&team, &headers, query).await,
        Err(fail) => Err(fail),
    };
    match read {
        Ok(entries) => order_ok(entries),
        Err(fail) => fail.order(),
    }
}

/// The query's fields; a number that is not one is refused, naming it.
fn parse(query: &str) -> Result<AuditQuery, Fail> {
    let mut out = AuditQuery::default();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let number = |what: &str| Fail::BadBody(format!("{what}: {value:?} is not a number"));
        match key.as_ref() {
            "person" => out.person = Some(value.to_string()),
            "before" => out.before = Some(value.parse().map_err(|_| number("before"))?),
            "limit" => out.limit = Some(value.parse().map_err(|_| number("limit"))?),
            // Others (`g_nonce`) are the interface's and change nothing here.
            _ => {}
        }
    }
    Ok(out)
}

async fn entries(
    team: &Team,
    headers: &HeaderMap,
    query: AuditQuery,
) -> Result<Vec<AuditEntry>, Fail> {
    let caller = team.caller(headers).await?;
    let me = caller.person.name.as_str();
    require(
        caller.permissions,
        &caller.person,
        Permission::Read,
        "reading the record",
    )?;
    let person = match query.person.map(|p| crate::identity::name_key(&p)) {
        Some(p) if p == me => Some(p),
        Some(p) => {
            let what = "reading another person's record";
            require(caller.permissions, &caller.person, Permission::Users, what)?;
            Some(p)
        }
        None if caller.permissions.has(Permission::Users) => None,
        None => Some(me.to_owned()),
    };
    let limit = query
        .limit
        .unwrap_or(AuditQuery::DEFAULT_LIMIT)
        .clamp(1, AuditQuery::MAX_LIMIT);
    let found = audit::listed(&team.store, person, query.before, i64::from(limit))
        .await
        .map_err(|e| Fail::Session(crate::sessions::SessionError::Team(e)))?;
    let shown = settled(&team.store, found).await.map_err(Fail::Team)?;
    Ok(shown.into_iter().map(AuditEntry::from).collect())
}

/// A call begun whose outcome never came (the server stopped meanwhile) as the ledger says it
/// ended (`unknown`, `not_sent`…), or `in_flight` while it goes on ([`audit::listed`] leaves
/// out the begun entries of calls that ended).
async fn settled(
    store: &crate::store::TeamStore,
    found: Vec<audit::Entry>,
) -> Result<Vec<audit::Entry>, crate::TeamError> {
    let begun = found
        .iter()
        .filter(|e| e.record.outcome == BEGUN)
        .filter_map(|e| e.record.call_id.clone())
        .collect();
    let unfinished: std::collections::HashMap<String, String> = audit::ledger_states(store, begun)
        .await?
        .into_iter()
        .collect();
    let shown = found.into_iter().filter_map(|mut e| {
        if e.record.outcome != BEGUN {
            return Some(e);
        }
        let state = unfinished.get(e.record.call_id.as_deref()?)?;
        e.record.outcome = state.clone();
        Some(e)
    });
    Ok(shown.collect())
}
