//! A renewal composed from rows of Renewals (docs/customers.md "Composing a renewal"): a new
//! purchase for the same customers, assets and products, each starting where the old one ends
//! and lasting as long as it did (a year when its start is not known). One order per customer
//! and license type; each asset once, with its products. The batch opens in the composer as a
//! draft and is checked like any other: nothing here sends it.

use std::collections::BTreeMap;

use super::{Read, RowRef, Source};
use wire::{
    AssetEntry, BatchOrderRequest, LicenseType, OrderEntry, OrderType, ProductEntry, SyncMode,
};

/// How long a renewal lasts when the old one's start is not known.
const A_YEAR_MS: i64 = 365 * 86_400_000;

/// The renewal of the rows at `rows` (positions in the read), as a batch named
/// `channel_order_id`. The channel code is the one the directory gives the customers, when it
/// gives one; else it is left for the user (the batch's check says so).
pub fn compose(read: &Read, rows: &[u32], channel_order_id: &str) -> BatchOrderRequest {
    // (customer, license type) → asset number → its entry, in the order the rows came.
    let mut orders: BTreeMap<(String, String), BTreeMap<String, AssetEntry>> = BTreeMap::new();
    let mut channel = None;
    for i in rows {
        let r = read.table.get(*i as usize);
        if r.trouble().is_some() {
            continue;
        }
        if channel.is_none() {
            channel = read.enterprise_of(&r).and_then(|e| e.channel_code.clone());
        }
        let key = (r.customer_id().to_owned(), r.license_type().to_owned());
        let asset = orders
            .entry(key)
            .or_default()
            .entry(r.asset_num().to_owned())
            .or_insert_with(|| AssetEntry {
                asset_nos: vec![r.asset_num().to_owned()],
                ..AssetEntry::default()
            });
        renew(asset, &r);
    }
    let order_list = orders
        .into_iter()
        .zip(1..)
        .map(|(((customer, kind), assets), sequence)| OrderEntry {
            sequence: Some(sequence),
            customer_id: Some(customer),
            license_type: LicenseType::parse(&kind),
            order_type: Some(OrderType::NewBuy),
            assets: assets.into_values().collect(),
            ..OrderEntry::default()
        })
        .collect();
    BatchOrderRequest {
        channel_code: channel,
        channel_order_id: Some(channel_order_id.to_owned()),
        sync_mode: Some(SyncMode::Sync),
        order_list,
        ..BatchOrderRequest::default()
    }
}

/// The row's product (or the asset's own validity) again, from its end for as long.
fn renew(asset: &mut AssetEntry, r: &RowRef<'_>) {
    let lasted = r
        .start()
        .filter(|start| *start < r.end())
        .map_or(A_YEAR_MS, |start| r.end() - start);
    let (start, end) = (Some(r.end()), Some(r.end() + lasted));
    match (r.source(), r.product_uri()) {
        (Source::Asset, _) | (_, None) => {
            (asset.limit_start_date, asset.limit_end_date) = (start, end);
            // Undated, as they were: they last as long as the asset (a new purchase needs one).
            asset
                .products
                .extend(r.held().map(|(uri, name)| ProductEntry {
                    product_uri: Some(uri.to_owned()),
                    product_name: name.map(str::to_owned),
                    ..ProductEntry::default()
                }));
        }
        (_, Some(uri)) => asset.products.push(ProductEntry {
            product_uri: Some(uri.to_owned()),
            product_name: r.product_name().map(str::to_owned),
            limit_start_date: start,
            limit_end_date: end,
            ..ProductEntry::default()
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::core::renewals::{EnterpriseRead, ReadState, Table};

    const DAY: i64 = 86_400_000;

    #[test]
    fn each_product_starts_where_it_ends_and_lasts_as_long() {
        let mut table = Table::default();
        let listing = serde_json::from_value(json!([
            {"id": "1", "assetNum": "A1", "licenseType": "normal_recover_usbkey", "customerId": "CU1",
             "products": [
                {"productUri": "gms:1", "productName": "云计价", "limitStartDate": 100 * DAY, "limitEndDate": 130 * DAY},
                {"productUri": "gms:2", "limitEndDate": 200 * DAY}]},
            {"id": "2", "assetNum": "A2", "licenseType": "cloud_account", "customerId": "CU1",
             "limitStartTime": 10 * DAY, "limitEndTime": 40 * DAY,
             "products": [{"productUri": "gms:3", "productName": "云账号", "limitConcurrent": 1}]},
            {"id": "3", "assetNum": "A3", "licenseType": "normal_recover_usbkey", "customerId": "CU1",
             "products": [{"productUri": "gms:1", "limitStartDate": 90 * DAY, "limitEndDate": 80 * DAY}]}
        ]))
        .expect("a listing");
        table.add_listing(0, &listing);
        let read = Read {
            profile: "P".to_owned(),
            started_at: 0,
            ended_at: 0,
            enterprises: vec![EnterpriseRead {
                global_id: "EG1".to_owned(),
                name: None,
                customer_name: None,
                branch: None,
                channel_code: Some("SHOP".to_owned()),
                state: ReadState::Read,
                assets: 3,
                undated: 0,
            }],
            table,
            stop: None,
            orders: Default::default(),
        };
        let all: Vec<u32> = (0..read.table.len() as u32).collect();
        let batch = compose(&read, &all, "RENEW-1");
        let got = serde_json::to_value(&batch).expect("JSON");
        assert_eq!(
            got,
            json!({"channelCode": "SHOP", "channelOrderId": "RENEW-1", "syncMode": "sync",
            "orderList": [
                {"sequence": 1, "customerId": "CU1", "licenseType": "cloud_account",
                 "orderType": "new_buy", "assets": [
                    {"assetNos": ["A2"], "limitStartDate": 40 * DAY, "limitEndDate": 70 * DAY,
                     "products": [{"productUri": "gms:3", "productName": "云账号"}]}]},
                {"sequence": 2, "customerId": "CU1", "licenseType": "normal_recover_usbkey",
                 "orderType": "new_buy", "assets": [
                    {"assetNos": ["A1"], "products": [
                        {"productUri": "gms:1", "productName": "云计价",
                         "limitStartDate": 130 * DAY, "limitEndDate": 160 * DAY},
                        {"productUri": "gms:2",
                         "limitStartDate": 200 * DAY, "limitEndDate": 565 * DAY}]}]}
            ]})
        );
    }
}
