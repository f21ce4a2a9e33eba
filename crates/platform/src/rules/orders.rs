//! Operation 5: batch license orders. A batch is one transaction; `(channelCode,
//! channelOrderId)` is its idempotency key. `sync` applies it before answering; `async`
//! stores it with its license order ids and customers, answers, and [`apply_next_pending`]
//! applies it in the background.

use std::collections::HashMap;
use wire::refusal::Refusal;

use super::batch_rows::{BatchRows, LicenseOrderRow};
use super::customers::{self, NewCustomer};
use super::grants::{self, Placed};
use super::narrow;
use crate::error::OpError;
use crate::ids;
use crate::sql::{self, StoreError};
use crate::store::IdPool;
use wire::{BatchOrderRequest, BatchOrderResult, OrderEntry, SyncMode};

/// The answer to a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    pub results: Vec<BatchOrderResult>,
    /// Stored but not applied yet (async).
    pub pending: bool,
    /// The same batch was sent before: this is the first answer again, nothing was created.
    pub replayed: bool,
}

/// Set by `serve --test-forget-repeats` only: the platform then stands for a production
/// platform that does not recognise a repeated `channelOrderId`, so that the console's tests
/// show it creates nothing twice without that help.
static FORGET_REPEATS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn forget_repeats() {
    FORGET_REPEATS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The key that serializes every write of batches (see `sql::Tx::serialize_on`).
pub const BATCHES: &str = "batches";

fn random_suffix() -> u32 {
    let mut buf = [0u8; 4];
    // The suffix only keeps a test's repeated batch apart; without randomness 0 does too.
    let _ = getrandom::fill(&mut buf);
    u32::from_be_bytes(buf)
}

/// The answer to a batch whose key (`channelCode/channelOrderId`) was used before: the first
/// answer again for the same body from the same application, else a refusal; None for a new
/// key.
fn repeat(
    tx: &dyn sql::Tx,
    app_key: &str,
    (channel_code, channel_order_id): (&str, &str),
    hash: &[u8],
) -> Result<Option<Accepted>, OpError> {
    let previous = tx.query_opt(
        "SELECT body_hash, state, response, failure, app_key FROM batches \
         WHERE channel_code = ?1 AND channel_order_id = ?2",
        &[channel_code.into(), channel_order_id.into()],
        |r| {
            Ok((
                r.bytes(0)?,
                r.text(1)?,
                r.text(2)?,
                r.opt_text(3)?,
                r.text(4)?,
            ))
        },
    )?;
    if let Some((prev_hash, state, response, failure, prev_app)) = previous {
        // A repeat is recognised for the application that sent the batch only: another one
        // never gets its answer (its license orders and customers).
        if prev_app != app_key {
            return Err(OpError::refused(
                "channelOrderId",
                format!(
                    "{channel_order_id} was already used by channel {channel_code} from another application; a new batch needs a new channelOrderId"
                ),
            ));
        }
        if prev_hash != hash {
            return Err(OpError::refused(
                "channelOrderId",
                format!(
                    "{channel_order_id} was already used by channel {channel_code} for a different batch; a new batch needs a new channelOrderId"
                ),
            ));
        }
        if state == "failed" {
            return Err(OpError::refused(
                "channelOrderId",
                format!(
                    "this batch was accepted but could not be applied: {}",
                    failure.unwrap_or_default()
                ),
            ));
        }
        return Ok(Some(Accepted {
            results: serde_json::from_str(&response)?,
            pending: state == "pending",
            replayed: true,
        }));
    }
    Ok(None)
}

/// Accepts a batch that passed `wire::validate::batch_order`.
pub fn submit(
    tx: &dyn sql::Tx,
    app_key: &str,
    req: &BatchOrderRequest,
    now: i64,
) -> Result<Accepted, OpError> {
    let channel_code = req.channel_code.as_deref().unwrap_or_default().trim();
    let mut channel_order_id = req.channel_order_id.as_deref().unwrap_or_default().trim();
    let forgetting;
    if FORGET_REPEATS.load(std::sync::atomic::Ordering::Relaxed) {
        // Stored under a key of its own, so the repeat is applied as a new batch.
        forgetting = format!("{channel_order_id}#{now}-{}", random_suffix());
        channel_order_id = &forgetting;
    }
    let mode = req.sync_mode.unwrap_or_default();
    let hash = body_hash(req, mode)?;
    // Batches are written one at a time, on every store and across instances: a batch reads
    // its idempotency key, the assets it changes and the customers it may create before it
    // writes, and async ones are applied in the order they were accepted.
    tx.serialize_on(BATCHES)?;
    tx.serialize_on(customers::CUSTOMERS)?;

    if let Some(answer) = repeat(tx, app_key, (channel_code, channel_order_id), &hash)? {
        return Ok(answer);
    }

    let key = (channel_code, channel_order_id);
    let batch_id = new_batch(tx, app_key, key, &hash, req, now)?;

    let orders = req.order_list.len();
    let rows = BatchRows::new(tx, now, orders, grants::new_asset_count(req));
    let mut placed = Vec::with_capacity(orders);
    let mut ids = IdPool::sized("LO", orders);
    let mut known = HashMap::new();
    for (i, order) in req.order_list.iter().enumerate() {
        placed.push(place(
            &rows,
            batch_id,
            channel_code,
            i,
            order,
            now,
            &mut ids,
            &mut known,
        )?);
    }
    let pending = mode == SyncMode::Async;
    if !pending {
        grants::grant(&rows, req, &placed)?;
    }
    rows.flush()?;
    let results: Vec<BatchOrderResult> = placed.into_iter().map(|p| p.result).collect();
    let response = serde_json::to_string(&results)?;
    tx.execute(
        "UPDATE batches SET response = ?2, state = ?3, applied_at = ?4 WHERE id = ?1",
        &[
            batch_id.into(),
            response.as_str().into(),
            if pending { "pending" } else { "applied" }.into(),
            (!pending).then_some(now).into(),
        ],
    )?;
    Ok(Accepted {
        results,
        pending,
        replayed: false,
    })
}

/// Keeps a new batch, pending, under its key and body hash (an async one with its request, to
/// apply later); answers its id.
fn new_batch(
    tx: &dyn sql::Tx,
    app_key: &str,
    (channel_code, channel_order_id): (&str, &str),
    hash: &[u8],
    req: &BatchOrderRequest,
    now: i64,
) -> Result<i64, OpError> {
    let mode = req.sync_mode.unwrap_or_default();
    let request = match mode {
        SyncMode::Async => Some(serde_json::to_string(req)?),
        SyncMode::Sync => None,
    };
    Ok(tx.query_one(
        "INSERT INTO batches(channel_code, channel_order_id, app_key, body_hash, sync_mode, \
         state, request, response, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, '[]', ?7) \
         RETURNING id",
        &[
            channel_code.into(),
            channel_order_id.into(),
            app_key.into(),
            hash.into(),
            mode_name(mode).into(),
            request.as_deref().into(),
            now.into(),
        ],
        |r| r.i64(0),
    )?)
}

/// Applies the oldest pending (async) batch, if any. A batch that breaks a rule by the time it
/// is applied is marked failed with the reason, and nothing of it is granted.
pub fn apply_next_pending(tx: &dyn sql::Tx, now: i64) -> Result<Option<i64>, OpError> {
    tx.serialize_on(BATCHES)?;
    tx.serialize_on(customers::CUSTOMERS)?;
    let next = tx.query_opt(
        "SELECT id, request FROM batches WHERE state = 'pending' ORDER BY id LIMIT 1",
        &[],
        |r| Ok((r.i64(0)?, r.opt_text(1)?)),
    )?;
    let Some((batch_id, request)) = next else {
        return Ok(None);
    };
    let req: BatchOrderRequest = serde_json::from_str(request.as_deref().unwrap_or("{}"))?;
    let placed = load_placed(tx, batch_id)?;

    tx.execute("SAVEPOINT apply_batch", &[])?;
    let rows = BatchRows::new(tx, now, 0, grants::new_asset_count(&req));
    // On success every row is written; on a refusal what is pending is dropped unwritten.
    let outcome = grants::grant(&rows, &req, &placed);
    let (state, failure) = match outcome {
        Ok(()) => {
            tx.execute("RELEASE apply_batch", &[])?;
            ("applied", None)
        }
        Err(OpError::Invalid { message, .. }) => {
            tx.execute("ROLLBACK TO apply_batch", &[])?;
            tx.execute("RELEASE apply_batch", &[])?;
            ("failed", Some(message))
        }
        Err(e) => return Err(e),
    };
    tx.execute(
        "UPDATE batches SET state = ?2, failure = ?3, request = NULL, applied_at = ?4 WHERE id = ?1",
        &[
            batch_id.into(),
            state.into(),
            failure.as_deref().into(),
            now.into(),
        ],
    )?;
    if let Some(f) = &failure {
        tracing::warn!(batch_id, failure = %f, "async batch could not be applied");
    }
    Ok(Some(batch_id))
}

fn mode_name(mode: SyncMode) -> &'static str {
    match mode {
        SyncMode::Sync => "sync",
        SyncMode::Async => "async",
    }
}

/// The batch as parsed (so spacing and key order do not matter), with its effective mode.
fn body_hash(req: &BatchOrderRequest, mode: SyncMode) -> Result<Vec<u8>, OpError> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Canonical<'a> {
        channel_code: &'a Option<String>,
        channel_order_id: &'a Option<String>,
        sync_mode: SyncMode,
        order_list: &'a [OrderEntry],
    }
    let canonical = Canonical {
        channel_code: &req.channel_code,
        channel_order_id: &req.channel_order_id,
        sync_mode: mode,
        order_list: &req.order_list,
    };
    Ok(ids::hash(&[b"batch", &serde_json::to_vec(&canonical)?]))
}

/// Customers already resolved in this batch, by how the order named them, with their
/// public id: a batch of 1000 orders for one customer looks it up once.
type KnownCustomers = HashMap<(Option<String>, Option<String>, Option<String>), (i64, String)>;

/// Finds or creates the order's customer and records the license order.
#[allow(clippy::too_many_arguments)]
fn place(
    rows: &BatchRows<'_>,
    batch_id: i64,
    channel_code: &str,
    i: usize,
    o: &OrderEntry,
    now: i64,
    ids: &mut IdPool,
    known: &mut KnownCustomers,
) -> Result<Placed, OpError> {
    let path = format!("orderList[{i}]");
    let key = (
        o.customer_id.clone(),
        o.channel_customer_id.clone(),
        o.enterprise_global_id.clone(),
    );
    let (customer, customer_id) = match known.get(&key) {
        Some(found) => found.clone(),
        None => {
            // Customers are none of the batch's pending rows: no need to write those first.
            let tx = rows.unbuffered();
            let row = resolve_customer(tx, &path, channel_code, o, now)?;
            let found = (row, customers::public_id(tx, row)?);
            known.insert(key, found.clone());
            found
        }
    };
    // Checked here too so that an async batch with a wrong source order fails at once.
    grants::src_order(rows, &path, o, customer)?;
    let license_order_id = ids.take(rows.unbuffered())?;
    let (Some(license_type), Some(order_type)) = (o.license_type, o.order_type) else {
        return Err(OpError::invalid(
            &path,
            "licenseType and orderType are required",
        ));
    };
    let row = rows.license_order(&LicenseOrderRow {
        license_order_id: &license_order_id,
        batch: batch_id,
        sequence: i64::from(o.sequence.unwrap_or_default()),
        customer,
        order_type: order_type.as_str(),
        license_type: license_type.as_str(),
        src_license_order_id: o.src_license_order_id.as_deref(),
    })?;
    Ok(Placed {
        license_order: row,
        customer,
        result: BatchOrderResult {
            sequence: o.sequence.unwrap_or_default(),
            license_order_id,
            customer_id,
        },
    })
}

fn load_placed(tx: &dyn sql::Tx, batch_id: i64) -> Result<Vec<Placed>, StoreError> {
    tx.query_vec(
        "SELECT lo.id, lo.customer_id, lo.sequence, lo.license_order_id, c.customer_id \
         FROM license_orders lo JOIN customers c ON c.id = lo.customer_id \
         WHERE lo.batch_id = ?1 ORDER BY lo.id",
        &[batch_id.into()],
        |r| {
            Ok(Placed {
                license_order: r.i64(0)?,
                customer: r.i64(1)?,
                result: BatchOrderResult {
                    sequence: narrow(r.i64(2)?)?,
                    license_order_id: r.text(3)?,
                    customer_id: r.text(4)?,
                },
            })
        },
    )
}

/// The order's customer: by `customerId`, else by the batch's channel and the order's
/// `channelCustomerId`, else a new customer from the order's fields.
fn resolve_customer(
    tx: &dyn sql::Tx,
    path: &str,
    channel_code: &str,
    o: &OrderEntry,
    now: i64,
) -> Result<i64, OpError> {
    let non_blank = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let enterprise = match non_blank(&o.enterprise_global_id) {
        Some(g) => Some(customers::enterprise_by_global_id(tx, &g)?.ok_or_else(|| {
            OpError::refusal(
                format!("{path}.enterpriseGlobalId"),
                Refusal::NoEnterprise {
                    enterprise: g.clone(),
                },
                "",
            )
        })?),
        None => None,
    };
    let channel_customer_id = non_blank(&o.channel_customer_id);
    let found = match non_blank(&o.customer_id) {
        Some(id) => Some(customers::by_customer_id(tx, &id)?.ok_or_else(|| {
            OpError::refused(format!("{path}.customerId"), format!("no customer {id}"))
        })?),
        None => match &channel_customer_id {
            Some(cid) => customers::by_channel(tx, channel_code, cid)?,
            None => None,
        },
    };
    match found {
        Some(c) => {
            if let Some(e) = enterprise {
                match c.enterprise_id {
                    Some(bound) if bound != e => {
                        return Err(OpError::refused(
                            format!("{path}.enterpriseGlobalId"),
                            "the customer is bound to another enterprise master account",
                        ));
                    }
                    None => {
                        tx.execute(
                            "UPDATE customers SET enterprise_id = ?2, updated_at = ?3 WHERE id = ?1",
                            &[c.id.into(), e.into(), now.into()],
                        )?;
                    }
                    Some(_) => {}
                }
            }
            Ok(c.id)
        }
        None => customers::insert(
            tx,
            &NewCustomer {
                channel_code: Some(channel_code),
                channel_customer_id: channel_customer_id.as_deref(),
                enterprise_id: enterprise,
                is_default: false,
                customer_name: o.customer_name.as_deref(),
                branch_name: o.branch_name.as_deref(),
                address: o.address.as_deref(),
                crm_customer_id: o.crm_customer_id.as_deref(),
                password_mobile: o.password_mobile.as_deref(),
            },
            now,
        ),
    }
}
