//! What the composer starts from (three templates, a fresh channelOrderId) and what it says
//! about a batch before it is sent (the summary of the confirmation).

use crate::core::snapshot::Snapshot;
use crate::core::wire::{
    AssetEntry, BatchOrderRequest, LicenseType, MerchandiseEntry, OrderEntry, OrderType,
    ProductEntry, SyncMode,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    NewPurchase,
    DeleteAssets,
    DeleteProducts,
}

impl Template {
    pub const ALL: [Template; 3] = [
        Template::NewPurchase,
        Template::DeleteAssets,
        Template::DeleteProducts,
    ];
}

/// A channelOrderId no earlier batch of this console has: the platform treats the same id as
/// the same batch (idempotency), so a new batch needs a new one.
pub fn new_channel_order_id() -> String {
    let now = jiff::Zoned::now();
    let mut random = [0u8; 3];
    // Without randomness the time alone still tells batches of one person apart.
    let _ = getrandom::fill(&mut random);
    format!(
        "LD-{}-{:02x}{:02x}{:02x}",
        now.strftime("%Y%m%d-%H%M%S"),
        random[0],
        random[1],
        random[2]
    )
}

/// A batch to start from, sendable to the Sandbox as it is once asset numbers are filled in: a
/// new purchase is for the demo's shop customer, a delete names the customer that holds the
/// demo's locks (the Start page's 8900000001 and the others), as a delete must.
pub fn template(kind: Template) -> BatchOrderRequest {
    use crate::core::sandbox::demo;
    let order_type = match kind {
        Template::NewPurchase => OrderType::NewBuy,
        Template::DeleteAssets => OrderType::DeleteAsset,
        Template::DeleteProducts => OrderType::DeleteProduct,
    };
    let products = match kind {
        Template::DeleteAssets => Vec::new(),
        Template::NewPurchase | Template::DeleteProducts => vec![ProductEntry {
            product_uri: Some("gms:1001".to_owned()),
            product_name: Some("计价软件".to_owned()),
            limit_concurrent: Some(1),
            strict_match_when_delete: (kind == Template::DeleteProducts).then_some(false),
            ..ProductEntry::default()
        }],
    };
    let (channel, customer) = match kind {
        Template::NewPurchase => (demo::CHANNEL_CODE, demo::CHANNEL_CUSTOMER),
        Template::DeleteAssets | Template::DeleteProducts => {
            (demo::LOCKS_CHANNEL_CODE, demo::LOCKS_CUSTOMER)
        }
    };
    BatchOrderRequest {
        channel_code: Some(channel.to_owned()),
        channel_order_id: Some(new_channel_order_id()),
        sync_mode: Some(SyncMode::Sync),
        order_list: vec![OrderEntry {
            sequence: Some(1),
            channel_customer_id: Some(customer.to_owned()),
            customer_name: Some("北京示例科技有限公司".to_owned()),
            branch_name: Some("北京分公司".to_owned()),
            license_type: Some(LicenseType::NormalRecoverUsbkey),
            order_type: Some(order_type),
            assets: vec![AssetEntry {
                products,
                ..AssetEntry::default()
            }],
            ..OrderEntry::default()
        }],
        ..BatchOrderRequest::default()
    }
}

/// What a batch does, counted for the confirmation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub new_buy: usize,
    pub delete_asset: usize,
    pub delete_product: usize,
    pub asset_numbers: usize,
    /// Packages, sub-packages included.
    pub packages: usize,
    /// Products, those in packages included.
    pub products: usize,
    /// Each delete order in words' parts: (sequence, products removed, assets touched).
    pub deletions: Vec<Deletion>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deletion {
    pub sequence: i32,
    /// Empty: whole assets are removed.
    pub products: Vec<String>,
    pub assets: Vec<String>,
}

pub fn summarize(batch: &Snapshot) -> Summary {
    let mut s = Summary::default();
    for order in batch.orders() {
        let assets: Vec<String> = order
            .assets
            .iter()
            .flat_map(|a| a.asset_nos.iter().cloned())
            .collect();
        s.asset_numbers += assets.len();
        let mut products = Vec::new();
        for asset in &order.assets {
            products.extend(asset.products.iter().map(product_name));
            for m in &asset.merchandises {
                merchandise_products(m, &mut products);
                s.packages += package_count(m);
            }
        }
        s.products += products.len();
        match order.order_type {
            Some(OrderType::NewBuy) => s.new_buy += 1,
            Some(OrderType::DeleteAsset) => {
                s.delete_asset += 1;
                s.deletions.push(Deletion {
                    sequence: order.sequence.unwrap_or_default(),
                    products: Vec::new(),
                    assets,
                });
            }
            Some(OrderType::DeleteProduct) => {
                s.delete_product += 1;
                s.deletions.push(Deletion {
                    sequence: order.sequence.unwrap_or_default(),
                    products,
                    assets,
                });
            }
            None => {}
        }
    }
    s
}

fn product_name(p: &ProductEntry) -> String {
    p.product_uri
        .clone()
        .or_else(|| p.product_name.clone())
        .unwrap_or_else(|| "?".to_owned())
}

fn merchandise_products(m: &MerchandiseEntry, out: &mut Vec<String>) {
    out.extend(m.license_order_product_list.iter().map(product_name));
    for child in m.children.iter().flatten() {
        merchandise_products(child, out);
    }
}

/// The package and its sub-packages, all the way down.
fn package_count(m: &MerchandiseEntry) -> usize {
    1 + m
        .children
        .iter()
        .flatten()
        .map(package_count)
        .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_and_names_what_deletes_remove() {
        let mut batch = template(Template::DeleteProducts);
        batch.order_list[0].assets[0].asset_nos = vec!["8900000001".into(), "8900000002".into()];
        let mut more = template(Template::NewPurchase).order_list.remove(0);
        more.sequence = Some(2);
        more.assets[0].asset_nos = vec!["8000000009".into()];
        batch.order_list.push(more);
        let s = summarize(&Snapshot::from(batch));
        assert_eq!((s.new_buy, s.delete_asset, s.delete_product), (1, 0, 1));
        assert_eq!((s.asset_numbers, s.packages, s.products), (3, 0, 2));
        assert_eq!(
            s.deletions,
            [Deletion {
                sequence: 1,
                products: vec!["gms:1001".into()],
                assets: vec!["8900000001".into(), "8900000002".into()],
            }]
        );
    }

    #[test]
    fn every_template_is_valid_once_asset_numbers_are_filled() {
        for kind in Template::ALL {
            let mut batch = template(kind);
            batch.order_list[0].assets[0].asset_nos = vec!["8000000001".into()];
            let problems = crate::core::wire::validate::batch_order(&batch);
            assert!(problems.is_empty(), "{kind:?}: {problems:?}");
        }
    }
}
