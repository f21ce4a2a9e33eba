//! `/team/v1/drafts`: drafts handed over. Handing one over needs `purchase` (whoever composes
//! orders); reading or taking one back is for its owner and its receiver (a person, or whoever
//! has `approve` when it was handed to the approvers).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use wire::handover::{APPROVERS, HandOver, Handed};

use super::Team;
use super::answer::{Fail, order_done, order_ok};
use crate::handover;
use crate::permit::require;
use crate::roles::Permission;
use crate::sessions::Caller;

type Shared = State<Arc<Team>>;

pub async fn list(State(team): Shared, headers: HeaderMap) -> Response {
    let listed = async {
        let caller = team.caller(&headers).await?;
        let approver = caller.permissions.has(Permission::Approve);
        Ok::<_, Fail>(handover::list(&team.store, &caller.person.name, approver).await?)
    }
    .await;
    match listed {
        Ok(all) => order_ok(all),
        Err(fail) => fail.order(),
    }
}

pub async fn hand_over(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let handed = async {
        let caller = team.caller(&headers).await?;
        let what = "handing a draft over";
        require(
            caller.permissions,
            &caller.person,
            Permission::Purchase,
            what,
        )?;
        let draft: HandOver =
            wire::parse::json(&bytes).map_err(|e| Fail::BadBody(e.to_string()))?;
        Ok::<_, Fail>(handover::hand_over(&team.store, &caller.person.name, draft).await?)
    }
    .await;
    match handed {
        Ok(handed) => order_ok(handed),
        Err(fail) => fail.order(),
    }
}

pub async fn get(State(team): Shared, headers: HeaderMap, Path(id): Path<i64>) -> Response {
    let found = async {
        let caller = team.caller(&headers).await?;
        let draft = handover::get(&team.store, id).await?;
        party(&caller, &draft)?;
        Ok::<_, Fail>(draft)
    }
    .await;
    match found {
        Ok(draft) => order_ok(draft),
        Err(fail) => fail.order(),
    }
}

pub async fn take(State(team): Shared, headers: HeaderMap, Path(id): Path<i64>) -> Response {
    let taken = async {
        let caller = team.caller(&headers).await?;
        let draft = handover::get(&team.store, id).await?;
        party(&caller, &draft)?;
        Ok::<_, Fail>(handover::take(&team.store, id).await?)
    }
    .await;
    match taken {
        Ok(()) => order_done(),
        Err(fail) => fail.order(),
    }
}

/// The owner, the person it was handed to, or an approver for one handed to the approvers;
/// anyone else is told it does not exist.
fn party(caller: &Caller, draft: &Handed) -> Result<(), Fail> {
    let me = caller.person.name.as_str();
    let approver = caller.permissions.has(Permission::Approve);
    let theirs =
        draft.owner == me || draft.handed_to == me || (draft.handed_to == APPROVERS && approver);
    match theirs {
        true => Ok(()),
        false => Err(Fail::Team(crate::TeamError::NoSuchDraft(draft.id))),
    }
}
