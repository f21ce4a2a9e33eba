//! What this console sent: the products accepted batches granted on assets, with their dates,
//! for the assets whose listing dates nothing. Replayed oldest first, so a later grant of the
//! same product replaces an earlier one and a delete takes back what it removes.

use std::collections::{HashMap, HashSet};

use wire::{
    AssetEntry, BatchOrderRequest, BatchOrderResult, MerchandiseEntry, OrderEnvelope, OrderType,
    ProductEntry,
};

/// A product a batch granted on an asset, with its dates, as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentProduct {
    pub product_uri: String,
    pub product_name: Option<String>,
    pub start: Option<i64>,
    pub end: Option<i64>,
}

/// What accepted batches granted, by asset number.
pub type Sent = HashMap<String, Vec<SentProduct>>;

/// The products granted on the `wanted` assets by the batches sent, given oldest first as each
/// call's request and answer bodies. A batch the platform did not accept, or an order of it
/// that its answer does not name, grants nothing.
pub fn sent_of<'a>(
    calls: impl IntoIterator<Item = (&'a str, &'a str)>,
    wanted: &HashSet<&str>,
) -> Sent {
    let mut sent = Sent::new();
    for (request, response) in calls {
        let Ok(batch) = serde_json::from_str::<BatchOrderRequest>(request) else {
            continue;
        };
        let Ok(answer) = serde_json::from_str::<OrderEnvelope<Vec<BatchOrderResult>>>(response)
        else {
            continue;
        };
        let (true, Some(results)) = (answer.is_success(), answer.data) else {
            continue;
        };
        for order in &batch.order_list {
            if results.iter().any(|r| Some(r.sequence) == order.sequence) {
                for asset in &order.assets {
                    apply(&mut sent, order.order_type, asset, wanted);
                }
            }
        }
    }
    sent
}

fn apply(sent: &mut Sent, kind: Option<OrderType>, asset: &AssetEntry, wanted: &HashSet<&str>) {
    let nums = asset
        .asset_nos
        .iter()
        .filter(|n| wanted.contains(n.as_str()));
    match kind {
        Some(OrderType::NewBuy) => {
            let granted = granted(asset);
            for num in nums {
                let held = sent.entry(num.clone()).or_default();
                for product in &granted {
                    held.retain(|p| p.product_uri != product.product_uri);
                    held.push(product.clone());
                }
            }
        }
        Some(OrderType::DeleteAsset) => {
            for num in nums {
                sent.remove(num);
            }
        }
        Some(OrderType::DeleteProduct) => {
            let removed: Vec<&str> = asset
                .products
                .iter()
                .filter_map(|p| p.product_uri.as_deref())
                .collect();
            for num in nums {
                if let Some(held) = sent.get_mut(num) {
                    held.retain(|p| !removed.contains(&p.product_uri.as_str()));
                }
            }
        }
        None => {}
    }
}

/// The products an asset entry grants, its packages' included; a product without dates of its
/// own has the asset entry's.
fn granted(asset: &AssetEntry) -> Vec<SentProduct> {
    let mut products: Vec<&ProductEntry> = asset.products.iter().collect();
    for m in &asset.merchandises {
        in_package(m, &mut products);
    }
    products
        .into_iter()
        .filter_map(|p| {
            Some(SentProduct {
                product_uri: p.product_uri.clone()?,
                product_name: p.product_name.clone(),
                start: p.limit_start_date.or(asset.limit_start_date),
                end: p.limit_end_date.or(asset.limit_end_date),
            })
        })
        .collect()
}

fn in_package<'a>(m: &'a MerchandiseEntry, out: &mut Vec<&'a ProductEntry>) {
    out.extend(&m.license_order_product_list);
    for child in m.children.iter().flatten() {
        in_package(child, out);
    }
}

/// Rows for the read's undated assets from the accepted batches among `entries` (the
/// journal's, newest first).
pub fn add_sent_from(read: &mut super::Read, entries: &[crate::core::journal::JournalEntry]) {
    let wanted: HashSet<&str> = read.table.undated_assets().collect();
    if wanted.is_empty() {
        return;
    }
    // Newest first in the journal; replayed oldest first.
    let calls = entries.iter().rev().filter_map(|e| {
        let done = e.operation == crate::core::Operation::BatchOrder
            && e.state == Some(crate::core::WriteState::Done);
        Some((e.request.as_deref()?, e.response.as_deref()?)).filter(|_| done)
    });
    let sent = sent_of(calls, &wanted);
    for (enterprise, still) in read.table.add_sent(&sent) {
        if let Some(e) = read.enterprises.get_mut(enterprise as usize) {
            e.undated = still;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(orders: serde_json::Value, accepted: &[i32]) -> (String, String) {
        let request = json!({"channelCode": "SHOP", "channelOrderId": "X", "orderList": orders});
        let data: Vec<_> = accepted
            .iter()
            .map(|s| json!({"sequence": s, "licenseOrderId": "L", "customerId": "CU1"}))
            .collect();
        let response = json!({"code": 0, "message": "success", "data": data});
        (request.to_string(), response.to_string())
    }

    #[test]
    fn grants_replayed_oldest_first_with_deletes_taking_back() {
        let buy = call(
            json!([{"sequence": 1, "orderType": "new_buy", "assets": [{
                "assetNos": ["A1", "A2", "A3"], "limitEndDate": 500,
                "products": [{"productUri": "gms:1", "limitEndDate": 100},
                             {"productUri": "gms:2"}],
                "merchandises": [{"licenseOrderProductList": [{"productUri": "gms:3",
                    "limitStartDate": 10, "limitEndDate": 300}]}]}]}]),
            &[1],
        );
        let renew = call(
            json!([{"sequence": 1, "orderType": "new_buy", "assets": [{
                "assetNos": ["A1"], "products": [{"productUri": "gms:1", "limitEndDate": 200}]}]},
                   {"sequence": 2, "orderType": "delete_product", "assets": [{
                "assetNos": ["A2"], "products": [{"productUri": "gms:2"}]}]},
                   {"sequence": 3, "orderType": "delete_asset", "assets": [{"assetNos": ["A3"]}]}]),
            &[1, 2, 3],
        );
        // Not accepted: grants nothing.
        let refused = (
            call(
                json!([{"sequence": 1, "orderType": "new_buy", "assets": [{
                "assetNos": ["A1"], "products": [{"productUri": "gms:9", "limitEndDate": 9}]}]}]),
                &[],
            )
            .0,
            json!({"code": "13004", "message": "bad"}).to_string(),
        );
        let wanted = HashSet::from(["A1", "A2", "A3"]);
        let sent = sent_of(
            [&buy, &renew, &refused].map(|(q, a)| (q.as_str(), a.as_str())),
            &wanted,
        );
        let ends = |num: &str| -> Vec<(String, Option<i64>)> {
            let mut v: Vec<_> = sent[num]
                .iter()
                .map(|p| (p.product_uri.clone(), p.end))
                .collect();
            v.sort();
            v
        };
        assert_eq!(
            ends("A1"),
            [
                ("gms:1".to_owned(), Some(200)),
                ("gms:2".to_owned(), Some(500)),
                ("gms:3".to_owned(), Some(300))
            ]
        );
        assert_eq!(
            ends("A2"),
            [
                ("gms:1".to_owned(), Some(100)),
                ("gms:3".to_owned(), Some(300))
            ]
        );
        assert!(!sent.contains_key("A3"));
    }

    #[test]
    fn only_the_wanted_assets_are_kept() {
        let buy = call(
            json!([{"sequence": 1, "orderType": "new_buy", "assets": [{
                "assetNos": ["A1", "B1"], "products": [{"productUri": "gms:1", "limitEndDate": 1}]}]}]),
            &[1],
        );
        let sent = sent_of([(buy.0.as_str(), buy.1.as_str())], &HashSet::from(["B1"]));
        assert_eq!(sent.keys().collect::<Vec<_>>(), ["B1"]);
    }
}
