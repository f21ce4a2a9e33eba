//! What makes a call wait for a second person (`docs/team.md`, "Four eyes"), and what is kept
//! with it for the approver: a line saying what it does, and for a delete what it removes,
//! worked out from the platform's listings by the rule the console previews with.

use std::collections::HashMap;

use client::Client;
use wire::preview::{self, DeletePreview, OrderCustomer, Placement, given, is_delete};
use wire::{BatchOrderRequest, CustomerQuery, LockRequest, OrderEntry};

/// One line for the approver: the orders by type, and the assets they name
/// (`delete_asset ×2, new_buy ×1; 3 asset numbers`).
pub fn batch_summary(batch: &BatchOrderRequest) -> String {
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for order in &batch.order_list {
        let name = order.order_type.map_or("?", |t| t.as_str());
        match kinds.iter_mut().find(|(k, _)| *k == name) {
            Some((_, n)) => *n += 1,
            None => kinds.push((name, 1)),
        }
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
    let assets = wire::approval::assets_in(batch);
    let plural = if assets == 1 { "" } else { "s" };
    format!("{}; {assets} asset number{plural}", kinds.join(", "))
}

/// One line for a lock change.
pub fn locks_summary(req: &LockRequest, disable: bool) -> String {
    let verb = if disable { "lock" } else { "unlock" };
    let n = req.asset_nums.len();
    format!("{verb} {n} asset{}", if n == 1 { "" } else { "s" })
}

/// What the batch's delete orders remove, read from the platform now: each order's customer
/// as the platform will take it, its enterprise's assets, the removal rule over them.
pub async fn delete_preview(upstream: &Client, batch: &BatchOrderRequest) -> DeletePreview {
    let mut placed = Vec::with_capacity(batch.order_list.len());
    for order in &batch.order_list {
        placed.push(match is_delete(order) {
            true => place(upstream, batch, order).await,
            false => Placement::default(),
        });
    }
    let mut listings = HashMap::new();
    for enterprise in placed.iter().filter_map(|p| p.enterprise.as_ref()) {
        if listings.contains_key(enterprise) {
            continue;
        }
        let listed = upstream
            .assets(enterprise, None)
            .await
            .map(|list| list.to_assets());
        listings.insert(enterprise.clone(), listed);
    }
    preview::preview(batch, &placed, &listings)
}

/// The order's customer (its `customerId`, else the one its channel id names) and the
/// enterprise whose listing holds its assets.
async fn place(upstream: &Client, batch: &BatchOrderRequest, order: &OrderEntry) -> Placement {
    let mut placement = Placement {
        enterprise: given(&order.enterprise_global_id),
        customer: OrderCustomer::Unknown,
    };
    if let Some(id) = given(&order.customer_id) {
        placement.customer = OrderCustomer::Known(id);
        return placement;
    }
    let (Some(code), Some(channel_id)) = (
        given(&batch.channel_code),
        given(&order.channel_customer_id),
    ) else {
        return placement;
    };
    let query = CustomerQuery {
        channel_code: Some(code.clone()),
        channel_customer_id: Some(channel_id.clone()),
        default_customer: None,
    };
    if let Ok(found) = upstream.query_customers(&query).await {
        placement.by_channel(&found, &code, &channel_id);
    }
    placement
}
