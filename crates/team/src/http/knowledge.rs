//! `/team/v1/knowledge`: the team's catalog and directory, read as the changes since a number
//! (permission `read`) and written by whoever composes orders (`purchase` for products and
//! packages, `customers` for the directory). Not in the audit log: it changes nothing on the
//! platform, and each item keeps who changed it last.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::json;
use wire::knowledge::{Put, Shelf};

use super::Team;
use super::answer::{Fail, order_ok};
use crate::knowledge;
use crate::permit::require;
use crate::roles::Permission;

type Shared = State<Arc<Team>>;

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
    let written = async {
        let caller = team.caller(&headers).await?;
        let puts: Vec<Put> = wire::parse::json(&bytes).map_err(|e| Fail::BadBody(e.to_string()))?;
        for shelf in Shelf::ALL {
            if puts.iter().any(|p| p.shelf == shelf) {
                let (p, what) = match shelf {
                    Shelf::Customers => (Permission::Customers, "changing the team's directory"),
                    _ => (Permission::Purchase, "changing the team's catalog"),
                };
                require(caller.permissions, &caller.person, p, what)?;
            }
        }
        Ok::<_, Fail>(knowledge::put(&team.store, &caller.person.name, puts).await?)
    }
    .await;
    match written {
        Ok(last) => order_ok(json!({ "last": last })),
        Err(fail) => fail.order(),
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
