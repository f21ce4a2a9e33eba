//! The platform's operations, forwarded for the person signed in: their session checked,
//! the permission the call needs checked, a bound person's branch filled in or a different
//! one refused, then sent through the server's client (and its ledger) and answered as the
//! platform answered.

use std::future::Future;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Json, Response};
use client::ApiError;
use serde::de::DeserializeOwned;
use wire::{
    BatchOrderRequest, BindRequest, ClaimRequest, CustomerQuery, DefaultFilter, EnterpriseRequest,
    LockRequest, ShellnumsRequest,
};

use super::Team;
use super::answer::{Fail, order_done, order_ok};
use crate::permit::{self, require};
use crate::roles::Permission;
use crate::sessions::Caller;
use crate::upstream::PERSON;

type Shared = State<Arc<Team>>;

/// Sends `call` to the platform on behalf of `caller` (the ledger records who).
async fn forwarded<T>(
    caller: &Caller,
    call: impl Future<Output = Result<T, ApiError>>,
) -> Result<T, Fail> {
    PERSON
        .scope(caller.person.name.clone(), call)
        .await
        .map_err(Fail::from)
}

fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, Fail> {
    wire::parse::json(bytes).map_err(|e| Fail::BadBody(e.to_string()))
}

/// A caller who has `p`.
async fn permitted(
    team: &Team,
    headers: &HeaderMap,
    p: Permission,
    what: &'static str,
) -> Result<Caller, Fail> {
    let caller = team.caller(headers).await?;
    require(caller.permissions, &caller.person, p, what)?;
    Ok(caller)
}

/// Operation 1.
pub async fn bind(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let run = async {
        let caller =
            permitted(&team, &headers, Permission::Customers, "binding a customer").await?;
        let mut req: BindRequest = body(&bytes)?;
        if let Some(branch) = &caller.person.branch {
            permit::bind_branch(&mut req, branch)?;
        }
        let customer = forwarded(&caller, team.upstream.bind(&req)).await?;
        Ok(order_ok(customer))
    };
    run.await.unwrap_or_else(Fail::order)
}

/// Operation 2.
pub async fn create(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let run = async {
        let what = "creating an enterprise";
        let caller = permitted(&team, &headers, Permission::Customers, what).await?;
        let mut req: EnterpriseRequest = body(&bytes)?;
        if let Some(branch) = &caller.person.branch {
            permit::enterprise_branch(&mut req, branch)?;
        }
        let created = forwarded(&caller, team.upstream.create_enterprise(&req)).await?;
        Ok(order_ok(created))
    };
    run.await.unwrap_or_else(Fail::order)
}

/// Operation 3.
pub async fn query(State(team): Shared, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    let run = async {
        let caller = permitted(&team, &headers, Permission::Read, "querying customers").await?;
        let query = customer_query(q.as_deref().unwrap_or_default())?;
        let customers = forwarded(&caller, team.upstream.query_customers(&query)).await?;
        Ok(order_ok(customers))
    };
    run.await.unwrap_or_else(Fail::order)
}

/// Operation 4.
pub async fn update(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let run = async {
        let what = "updating an enterprise";
        let caller = permitted(&team, &headers, Permission::Customers, what).await?;
        let mut req: EnterpriseRequest = body(&bytes)?;
        if let Some(branch) = &caller.person.branch {
            permit::enterprise_branch(&mut req, branch)?;
        }
        forwarded(&caller, team.upstream.update_enterprise(&req)).await?;
        Ok(order_done())
    };
    run.await.unwrap_or_else(Fail::order)
}

/// Operation 5: `purchase` for new purchases, `delete` for deletes.
pub async fn batch(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let run = async {
        let caller = team.caller(&headers).await?;
        let mut req: BatchOrderRequest = wire::open::open_batch(&bytes)
            .map_err(|e| Fail::BadBody(format!("body: {}", e.what())))?;
        for p in permit::batch_permissions(&req)? {
            let what = match p {
                Permission::Delete => "a batch that deletes assets or products",
                _ => "a batch of new purchases",
            };
            require(caller.permissions, &caller.person, p, what)?;
        }
        if let Some(branch) = &caller.person.branch {
            permit::batch_branch(&mut req, branch)?;
        }
        let results = forwarded(&caller, team.upstream.batch_order(&req)).await?;
        Ok(order_ok(results))
    };
    run.await.unwrap_or_else(Fail::order)
}

/// Operation 6.
pub async fn lock(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    lock_change(&team, &headers, &bytes, true)
        .await
        .unwrap_or_else(Fail::order)
}

/// Operation 7.
pub async fn unlock(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    lock_change(&team, &headers, &bytes, false)
        .await
        .unwrap_or_else(Fail::order)
}

async fn lock_change(
    team: &Team,
    headers: &HeaderMap,
    bytes: &Bytes,
    disable: bool,
) -> Result<Response, Fail> {
    let what = if disable {
        "disabling locks"
    } else {
        "enabling locks"
    };
    let caller = permitted(team, headers, Permission::Locks, what).await?;
    let mut req: LockRequest = body(bytes)?;
    permit::lock_operator(&mut req, &caller.person);
    let results = match disable {
        true => forwarded(&caller, team.upstream.lock(&req)).await?,
        false => forwarded(&caller, team.upstream.unlock(&req)).await?,
    };
    Ok(order_ok(results))
}

/// Operation 8.
pub async fn assets(
    State(team): Shared,
    headers: HeaderMap,
    Path(enterprise): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let run = async {
        let caller = permitted(&team, &headers, Permission::Read, "listing assets").await?;
        let extend_code = form_urlencoded::parse(q.as_deref().unwrap_or_default().as_bytes())
            .find(|(k, _)| k == "extendCode")
            .map(|(_, v)| v.into_owned());
        let listing = team.upstream.assets(&enterprise, extend_code.as_deref());
        Ok(order_ok(forwarded(&caller, listing).await?))
    };
    run.await.unwrap_or_else(Fail::order)
}

/// Operation 9.
pub async fn shellnums(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let run = async {
        let what = "asking for asset numbers";
        let caller = permitted(&team, &headers, Permission::Numbers, what).await?;
        let req: ShellnumsRequest = body(&bytes)?;
        let size = req
            .size
            .ok_or_else(|| Fail::BadBody("size: needed (how many asset numbers)".to_owned()))?;
        Ok(order_ok(
            forwarded(&caller, team.upstream.shellnums(size)).await?,
        ))
    };
    run.await.unwrap_or_else(Fail::order)
}

/// The activity group's claim.
pub async fn claim(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let run = async {
        let what = "claiming an activity";
        let caller = permitted(&team, &headers, Permission::Claim, what).await?;
        let mut req: ClaimRequest = body(&bytes)?;
        if let Some(branch) = &caller.person.branch {
            permit::claim_branch(&mut req, branch)?;
        }
        let answer = forwarded(&caller, team.upstream.claim(&req)).await?;
        Ok(Json(answer).into_response())
    };
    run.await.unwrap_or_else(Fail::activity)
}

/// Operation 3's query string.
fn customer_query(q: &str) -> Result<CustomerQuery, Fail> {
    let mut query = CustomerQuery::default();
    for (key, value) in form_urlencoded::parse(q.as_bytes()) {
        match key.as_ref() {
            "channelCode" => query.channel_code = Some(value.into_owned()),
            "channelCustomerId" => query.channel_customer_id = Some(value.into_owned()),
            "defaultCustomer" => {
                query.default_customer = Some(match value.as_ref() {
                    "Y" => DefaultFilter::Y,
                    "N" => DefaultFilter::N,
                    other => {
                        return Err(Fail::BadBody(format!(
                            "defaultCustomer: {other:?} is neither Y nor N"
                        )));
                    }
                });
            }
            _ => {}
        }
    }
    Ok(query)
}
