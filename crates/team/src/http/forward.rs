//! The platform's operations, forwarded for the person signed in: their session checked,
//! the permission the call needs checked, a bound person's branch filled in or a different
//! one refused, then sent through the server's client (and its ledger), recorded in the
//! audit log, and answered as the platform answered.

use std::collections::HashSet;
use std::future::Future;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use client::{ApiError, Operation};
use futures::stream::{self, StreamExt, TryStreamExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use wire::preview::{DeletePreview, is_delete};
use wire::validate;
use wire::{
    BatchOrderRequest, BindRequest, ClaimRequest, CustomerQuery, DefaultFilter, EnterpriseRequest,
    LockRequest, ShellnumsRequest,
};

use super::Team;
use super::answer::Fail;
use super::trail::{Answer, Group, Trail, begun_entry};
use crate::filing;
use crate::holdings::{self, Item, Named};
use crate::permit::{self, require};
use crate::requests::{self, NewRequest};
use crate::roles::Permission;
use crate::sessions::Caller;
use crate::settings;
use crate::upstream::{BEGUN, PERSON};

type Shared = State<Arc<Team>>;

/// Sends `call` to the platform on behalf of the trail's caller, under a call id of its own
/// (the ledger's and the audit's).
async fn forwarded<T>(
    trail: &mut Trail,
    call: impl Future<Output = Result<T, ApiError>>,
) -> Result<T, Fail> {
    let person = trail
        .caller
        .as_ref()
        .map(|c| c.person.name.clone())
        .unwrap_or_default();
    let call_id = client::write::new_call_id(support::clock::now_ms());
    trail.call_id = Some(call_id.clone());
    let entry = trail
        .operation
        .writes()
        .then(|| begun_entry(trail))
        .flatten();
    let call = BEGUN.scope(entry, client::CALL_ID.scope(call_id, call));
    PERSON.scope(person, call).await.map_err(Fail::from)
}

fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, Fail> {
    wire::parse::json(bytes).map_err(|e| Fail::BadBody(e.to_string()))
}

/// Why the server refuses a body before anything is kept, filed or forwarded.
#[derive(Debug, thiserror::Error)]
pub(super) enum Unchecked {
    /// The interface's own rules refuse it (the platform's checks, through `wire::validate`).
    #[error("{}", said(.0))]
    Problems(Vec<validate::Problem>),
    /// A key the interface does not have, which a lenient platform might read.
    #[error("{0}; the team server forwards only the interface's fields")]
    UnknownKey(validate::UnknownKey),
}

fn said(problems: &[validate::Problem]) -> String {
    let said: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {}", p.path, p.message()))
        .collect();
    said.join("; ")
}

/// Refuses a call the interface's own rules refuse: what leaves is the typed value that was
/// checked, never a value the platform might read another way.
pub(super) fn checked(problems: Vec<validate::Problem>) -> Result<(), Unchecked> {
    match problems.is_empty() {
        true => Ok(()),
        false => Err(Unchecked::Problems(problems)),
    }
}

/// A batch as the platform will read it: the rules' problems (a value kept verbatim because it
/// does not fit its field, a number where text belongs, among them) and unknown keys.
pub(super) fn checked_batch(req: &BatchOrderRequest) -> Result<(), Unchecked> {
    checked(validate::batch_order(req))?;
    match validate::unknown_keys(req).into_iter().next() {
        Some(unknown) => Err(Unchecked::UnknownKey(unknown)),
        None => Ok(()),
    }
}

/// A refused body, said with its field paths.
fn bad_body(e: Unchecked) -> Fail {
    Fail::BadBody(e.to_string())
}

fn json_of<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The caller, recorded in the trail, if they have `p`.
async fn permitted(
    team: &Team,
    headers: &HeaderMap,
    trail: &mut Trail,
    p: Permission,
    what: &'static str,
) -> Result<Caller, Fail> {
    let caller = team.caller(headers).await?;
    trail.caller = Some(caller.clone());
    require(caller.permissions, &caller.person, p, what)?;
    Ok(caller)
}

/// Refuses a bound person's call on a customer, enterprise or lock another branch holds.
async fn in_branch(team: &Team, caller: &Caller, items: &[Named]) -> Result<(), Fail> {
    let Some(branch) = &caller.person.branch else {
        return Ok(());
    };
    let found = holdings::holders(&team.store, items).await?;
    Ok(holdings::refuse_others(&found, branch)?)
}

/// Look-ups of one call's customers made at once, at most.
const LOOKUPS_AT_ONCE: usize = 8;

/// The customers a call names by their channel only, as the platform knows them: their ids
/// and enterprises are touched too. Only for a bound person (no one else is refused), once a
/// customer, several at once, and not for a customer a branch holds by its channel already
/// (this branch's is this branch's; another's is refused by that).
async fn by_channel(
    team: &Team,
    caller: &Caller,
    names: Vec<(String, String, String)>,
) -> Result<Vec<Named>, Fail> {
    if caller.person.branch.is_none() {
        return Ok(Vec::new());
    }
    let mut seen = HashSet::new();
    let names: Vec<_> = names
        .into_iter()
        .filter(|(_, channel, id)| seen.insert((channel.clone(), id.clone())))
        .collect();
    let named: Vec<Named> = names
        .iter()
        .filter_map(|(path, channel, id)| {
            let item = Item::channel(Some(channel), Some(id))?;
            Some(Named {
                path: path.clone(),
                item,
            })
        })
        .collect();
    let held: HashSet<String> = holdings::holders(&team.store, &named)
        .await?
        .into_iter()
        .map(|(n, _)| n.path)
        .collect();
    let person = caller.person.name.clone();
    let found: Vec<Vec<Named>> =
        stream::iter(names.into_iter().filter(|(p, ..)| !held.contains(p)))
            .map(|(path, channel, id)| {
                let look = async move {
                    let found = team
                        .lookups
                        .channel_customers(&team.upstream, &channel, &id)
                        .await?;
                    let items = found
                        .iter()
                        .flat_map(|c| holdings::customer_items(&path, c));
                    Ok::<_, ApiError>(items.collect())
                };
                PERSON.scope(person.clone(), look)
            })
            .buffer_unordered(LOOKUPS_AT_ONCE)
            .try_collect()
            .await?;
    Ok(found.into_iter().flatten().collect())
}

/// Keeps what a write made as its branch's. The write is done whatever happens here: a
/// failure is loud, and leaves the items held by no branch.
pub(super) async fn keep_held(team: &Team, held: Vec<(String, Item)>, by: &str) {
    if let Err(e) = holdings::hold(&team.store, held, by).await {
        tracing::error!(error = %e, "the branches holding what a call made could not be kept");
    }
}

/// What was asked, as sent (for the record, should it be refused before it is forwarded).
fn asked(trail: &mut Trail, bytes: &Bytes) {
    trail.request = serde_json::from_slice(bytes).ok();
}

/// Operation 1.
pub async fn bind(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let mut trail = Trail::new(Operation::Bind);
    let result = async {
        let what = "binding a customer";
        let caller = permitted(&team, &headers, &mut trail, Permission::Customers, what).await?;
        asked(&mut trail, &bytes);
        let mut req: BindRequest = body(&bytes)?;
        if let Some(branch) = &caller.person.branch {
            permit::bind_branch(&mut req, branch)?;
        }
        checked(validate::bind(&req)).map_err(bad_body)?;
        let mut items = holdings::bind_items(&req);
        if let (Some(code), Some(id)) = (&req.channel_code, &req.channel_customer_id) {
            let named = vec![("channelCustomerId".to_owned(), code.clone(), id.clone())];
            items.extend(by_channel(&team, &caller, named).await?);
        }
        in_branch(&team, &caller, &items).await?;
        trail.request = Some(json_of(&req));
        let customer = forwarded(&mut trail, team.upstream.bind(&req)).await?;
        let held = holdings::bind_held(&req, &customer);
        keep_held(&team, held, &caller.person.name).await;
        Ok(Answer::Data(json_of(&customer)))
    }
    .await;
    team.finish(trail, result, Group::Order).await
}

/// Operations 2 and 4.
async fn enterprise(team: &Team, headers: &HeaderMap, bytes: &Bytes, create: bool) -> Response {
    let mut trail = Trail::new(if create {
        Operation::CreateEnterprise
    } else {
        Operation::UpdateEnterprise
    });
    let result = async {
        let what = if create {
            "creating an enterprise"
        } else {
            "updating an enterprise"
        };
        let caller = permitted(team, headers, &mut trail, Permission::Customers, what).await?;
        asked(&mut trail, bytes);
        let mut req: EnterpriseRequest = body(bytes)?;
        if let Some(branch) = &caller.person.branch {
            permit::enterprise_branch(&mut req, branch)?;
        }
        checked(validate::enterprise(&req)).map_err(bad_body)?;
        in_branch(team, &caller, &holdings::enterprise_items(&req)).await?;
        trail.request = Some(json_of(&req));
        if create {
            let created = forwarded(&mut trail, team.upstream.create_enterprise(&req)).await?;
            let held = holdings::enterprise_held(&req, &created);
            keep_held(team, held, &caller.person.name).await;
            Ok(Answer::Data(json_of(&created)))
        } else {
            forwarded(&mut trail, team.upstream.update_enterprise(&req)).await?;
            Ok(Answer::Done)
        }
    }
    .await;
    team.finish(trail, result, Group::Order).await
}

/// Operation 2.
pub async fn create(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    enterprise(&team, &headers, &bytes, true).await
}

/// Operation 4.
pub async fn update(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    enterprise(&team, &headers, &bytes, false).await
}

/// Operation 3.
pub async fn query(State(team): Shared, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    let mut trail = Trail::new(Operation::QueryCustomers);
    let result = async {
        let what = "querying customers";
        let caller = permitted(&team, &headers, &mut trail, Permission::Read, what).await?;
        let query = customer_query(q.as_deref().unwrap_or_default())?;
        checked(validate::customer_query(&query)).map_err(bad_body)?;
        let (code, id) = (&query.channel_code, &query.channel_customer_id);
        let item = Item::channel(code.as_deref(), id.as_deref()).map(|item| Named {
            path: "channelCustomerId".to_owned(),
            item,
        });
        in_branch(&team, &caller, &Vec::from_iter(item)).await?;
        trail.request = Some(json_of(&query));
        let customers = forwarded(&mut trail, team.upstream.query_customers(&query)).await?;
        let found = customers.iter().enumerate();
        let items = found.flat_map(|(i, c)| holdings::customer_items(&format!("data[{i}]"), c));
        in_branch(&team, &caller, &items.collect::<Vec<_>>()).await?;
        Ok(Answer::Data(json_of(&customers)))
    }
    .await;
    team.finish(trail, result, Group::Order).await
}

/// Operation 5: `purchase` for new purchases, `delete` for deletes.
pub async fn batch(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let mut trail = Trail::new(Operation::BatchOrder);
    let result = async {
        let caller = team.caller(&headers).await?;
        trail.caller = Some(caller.clone());
        asked(&mut trail, &bytes);
        let mut req: BatchOrderRequest = wire::open::open_batch(&bytes)
            .map_err(|e| Fail::BadBody(format!("body: {}", e.what())))?;
        let held = settings::thresholds(&team.store).await?.batch_held(&req);
        for p in permit::batch_permissions(&req)? {
            let what = match p {
                Permission::Delete => "a batch that deletes assets or products",
                _ => "a batch of new purchases",
            };
            // A delete is always held: filing it takes less than sending it.
            let p = match held {
                true => p.to_file(|p| caller.permissions.has(p)),
                false => p,
            };
            require(caller.permissions, &caller.person, p, what)?;
        }
        if let Some(branch) = &caller.person.branch {
            permit::batch_branch(&mut req, branch)?;
        }
        checked_batch(&req).map_err(bad_body)?;
        let mut items = holdings::batch_items(&req);
        items.extend(by_channel(&team, &caller, holdings::by_channel_only(&req)).await?);
        in_branch(&team, &caller, &items).await?;
        let body = wire::open::batch_to_value(&req);
        trail.request = Some(body.clone());
        if held {
            let preview = match req.order_list.iter().any(is_delete) {
                true => Some(filing::delete_preview(&team.upstream, &req).await),
                false => None,
            };
            let filing = Filing {
                body,
                preview,
                summary: filing::batch_summary(&req),
                channel_order: req.channel_order_id.clone().map(|order| {
                    // Validated above: a batch has its channel code.
                    (req.channel_code.clone().unwrap_or_default(), order)
                }),
            };
            return file(&team, &caller, &trail, filing).await;
        }
        let results = forwarded(&mut trail, team.upstream.batch_order(&req)).await?;
        let held = holdings::batch_held(&req, &results);
        keep_held(&team, held, &caller.person.name).await;
        Ok(Answer::Data(json_of(&results)))
    }
    .await;
    team.finish(trail, result, Group::Order).await
}

/// What a held call keeps for its approver.
struct Filing {
    /// As it would be forwarded.
    body: Value,
    /// What a delete removes.
    preview: Option<DeletePreview>,
    summary: String,
    /// A batch's channel code and order id.
    channel_order: Option<(String, String)>,
}

/// Keeps the call for another person to approve (or answers the request it already is);
/// nothing goes to the platform.
async fn file(team: &Team, caller: &Caller, trail: &Trail, f: Filing) -> Result<Answer, Fail> {
    let new = NewRequest {
        requester: caller.person.name.clone(),
        role: caller.person.role.clone(),
        branch: caller.person.branch.as_ref().map(|b| b.code.clone()),
        operation: trail.operation,
        body: f.body.to_string(),
        preview: f.preview.map(|p| json_of(&p).to_string()),
        summary: f.summary,
        channel_order: f.channel_order,
    };
    let filed = requests::file(&team.store, new).await?;
    if let (true, Some(mailer)) = (filed.new, &team.mail) {
        mailer.tell_approvers(team.store.clone(), filed.request.clone());
    }
    Ok(Answer::Held(filed.request.id))
}

/// Operation 6.
pub async fn lock(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    lock_change(&team, &headers, &bytes, true).await
}

/// Operation 7.
pub async fn unlock(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    lock_change(&team, &headers, &bytes, false).await
}

async fn lock_change(team: &Team, headers: &HeaderMap, bytes: &Bytes, disable: bool) -> Response {
    let mut trail = Trail::new(if disable {
        Operation::Lock
    } else {
        Operation::Unlock
    });
    let result = async {
        let what = if disable {
            "disabling locks"
        } else {
            "enabling locks"
        };
        let caller = permitted(team, headers, &mut trail, Permission::Locks, what).await?;
        asked(&mut trail, bytes);
        let mut req: LockRequest = body(bytes)?;
        permit::lock_operator(&mut req, &caller.person);
        checked(validate::lock(&req)).map_err(bad_body)?;
        in_branch(team, &caller, &holdings::lock_items(&req.asset_nums)).await?;
        trail.request = Some(json_of(&req));
        if settings::thresholds(&team.store)
            .await?
            .locks_held(req.asset_nums.len())
        {
            let filing = Filing {
                body: json_of(&req),
                preview: None,
                summary: filing::locks_summary(&req, disable),
                channel_order: None,
            };
            return file(team, &caller, &trail, filing).await;
        }
        let results = match disable {
            true => forwarded(&mut trail, team.upstream.lock(&req)).await?,
            false => forwarded(&mut trail, team.upstream.unlock(&req)).await?,
        };
        Ok(Answer::Data(json_of(&results)))
    }
    .await;
    team.finish(trail, result, Group::Order).await
}

/// Operation 8.
pub async fn assets(
    State(team): Shared,
    headers: HeaderMap,
    Path(enterprise): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let mut trail = Trail::new(Operation::Assets);
    let result = async {
        let what = "listing assets";
        let caller = permitted(&team, &headers, &mut trail, Permission::Read, what).await?;
        let item = Item::enterprise(Some(&enterprise)).map(|item| Named {
            path: "enterpriseGlobalId".to_owned(),
            item,
        });
        in_branch(&team, &caller, &Vec::from_iter(item)).await?;
        let extend_code = form_urlencoded::parse(q.as_deref().unwrap_or_default().as_bytes())
            .find(|(k, _)| k == "extendCode")
            .map(|(_, v)| v.into_owned());
        trail.request = Some(json!({"enterpriseGlobalId": enterprise, "extendCode": extend_code}));
        let listing = team.upstream.assets(&enterprise, extend_code.as_deref());
        Ok(Answer::Listing(forwarded(&mut trail, listing).await?))
    }
    .await;
    team.finish(trail, result, Group::Order).await
}

/// Operation 9.
pub async fn shellnums(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let mut trail = Trail::new(Operation::Shellnums);
    let result = async {
        let what = "asking for asset numbers";
        permitted(&team, &headers, &mut trail, Permission::Numbers, what).await?;
        asked(&mut trail, &bytes);
        let req: ShellnumsRequest = body(&bytes)?;
        checked(validate::shellnums(&req)).map_err(bad_body)?;
        let size = req
            .size
            .ok_or_else(|| Fail::BadBody("size: needed (how many asset numbers)".to_owned()))?;
        let numbers = forwarded(&mut trail, team.upstream.shellnums(size)).await?;
        Ok(Answer::Data(json_of(&numbers)))
    }
    .await;
    team.finish(trail, result, Group::Order).await
}

/// The activity group's claim.
pub async fn claim(State(team): Shared, headers: HeaderMap, bytes: Bytes) -> Response {
    let mut trail = Trail::new(Operation::Claim);
    let result = async {
        let what = "claiming an activity";
        let caller = permitted(&team, &headers, &mut trail, Permission::Claim, what).await?;
        asked(&mut trail, &bytes);
        let mut req: ClaimRequest = body(&bytes)?;
        if let Some(branch) = &caller.person.branch {
            permit::claim_branch(&mut req, branch)?;
        }
        checked(validate::claim(&req)).map_err(bad_body)?;
        trail.request = Some(json_of(&req));
        let answer = forwarded(&mut trail, team.upstream.claim(&req)).await?;
        Ok(Answer::Activity(json_of(&answer)))
    }
    .await;
    team.finish(trail, result, Group::Activity).await
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
