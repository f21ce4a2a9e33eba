//! What the orders of a batch do to assets and products: `new_buy` grants, `delete_asset` and
//! `delete_product` revoke. Runs inside the batch's transaction; any refusal rolls back all.

use super::batch_rows::{AssetRow as NewAssetRow, BatchRows, ProductRow};
use super::narrow_opt;
use crate::error::OpError;
use crate::sql::{self, StoreError};
use crate::store::IdPool;
use wire::refusal;
use wire::removal::{self, Held, NotRemovable};
use wire::{
    AssetEntry, BatchOrderRequest, BatchOrderResult, LicenseType, MerchandiseEntry, OrderEntry,
    OrderType, ProductEntry,
};

/// An order of a batch once its customer is known and its license order recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub license_order: i64,
    pub customer: i64,
    pub result: BatchOrderResult,
}

/// Chip type the platform records for locks: 2, a 5th generation lock.
const LOCK_CHIP_TYPE: i32 = 2;

struct StoredAsset {
    id: i64,
    customer: i64,
    license_type: String,
    license_order: Option<i64>,
}

fn find_asset(tx: &dyn sql::Tx, num: &str) -> Result<Option<AssetRow>, StoreError> {
    stored_asset(tx, num).map(|a| a.map(AssetRow::Existing))
}

fn stored_asset(tx: &dyn sql::Tx, num: &str) -> Result<Option<StoredAsset>, StoreError> {
    tx.query_opt(
        "SELECT id, customer_id, license_type, license_order_id FROM assets WHERE asset_num = ?1",
        &[num.into()],
        |r| {
            Ok(StoredAsset {
                id: r.i64(0)?,
                customer: r.i64(1)?,
                license_type: r.text(2)?,
                license_order: r.opt_i64(3)?,
            })
        },
    )
}

/// The asset numbers the batch's `new_buy` orders name (some may exist already).
fn new_buy_nums(req: &BatchOrderRequest) -> impl Iterator<Item = &String> {
    req.order_list
        .iter()
        .filter(|o| o.order_type == Some(OrderType::NewBuy))
        .flat_map(|o| o.assets.iter().flat_map(|a| a.asset_nos.iter()))
}

/// How many assets the batch's `new_buy` orders may create, at most.
pub fn new_asset_count(req: &BatchOrderRequest) -> usize {
    new_buy_nums(req).count()
}

/// Applies every order of a validated batch, in order; every row is written when it returns.
pub fn grant(
    rows: &BatchRows<'_>,
    req: &BatchOrderRequest,
    placed: &[Placed],
) -> Result<(), OpError> {
    let now = rows.now();
    if placed.len() != req.order_list.len() {
        return Err(OpError::Internal(format!(
            "batch has {} orders but {} were recorded",
            req.order_list.len(),
            placed.len()
        )));
    }
    let nums: Vec<String> = new_buy_nums(req).cloned().collect();
    rows.expect_assets(&nums)?;
    let mut asset_ids = IdPool::sized("AS", nums.len());
    for (i, (order, p)) in req.order_list.iter().zip(placed).enumerate() {
        let path = format!("orderList[{i}]");
        let (Some(license_type), Some(order_type)) = (order.license_type, order.order_type) else {
            return Err(OpError::invalid(
                &path,
                "licenseType and orderType are required",
            ));
        };
        let src = src_order(rows, &path, order, p.customer)?;
        for (j, asset) in order.assets.iter().enumerate() {
            let path = format!("{path}.assets[{j}]");
            let target = Target {
                path: &path,
                license_order: p.license_order,
                customer: p.customer,
                license_type,
                src,
            };
            match order_type {
                OrderType::NewBuy => new_buy(rows, &target, asset, now, &mut asset_ids)?,
                OrderType::DeleteAsset => delete_asset(rows, &target, asset)?,
                OrderType::DeleteProduct => delete_product(rows, &target, asset)?,
            }
        }
    }
    rows.flush()?;
    Ok(())
}

/// The license order a delete order is limited to, when it names one. It must be an order of
/// the same customer. Ignored for `new_buy`, where it has no meaning at order level.
pub fn src_order(
    tx: &dyn sql::Tx,
    path: &str,
    o: &OrderEntry,
    customer: i64,
) -> Result<Option<i64>, OpError> {
    if o.order_type == Some(OrderType::NewBuy) {
        return Ok(None);
    }
    let Some(src) = o
        .src_license_order_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return Ok(None);
    };
    let row = tx.query_opt(
        "SELECT id FROM license_orders WHERE license_order_id = ?1 AND customer_id = ?2",
        &[src.into(), customer.into()],
        |r| r.i64(0),
    )?;
    row.map(Some).ok_or_else(|| {
        OpError::refusal(
            format!("{path}.srcLicenseOrderId"),
            refusal::Refusal::NoOrder { order: src.into() },
            " of this customer",
        )
    })
}

/// One asset entry of one order.
struct Target<'a> {
    path: &'a str,
    license_order: i64,
    customer: i64,
    license_type: LicenseType,
    src: Option<i64>,
}

fn new_buy(
    rows: &BatchRows<'_>,
    t: &Target<'_>,
    a: &AssetEntry,
    now: i64,
    asset_ids: &mut IdPool,
) -> Result<(), OpError> {
    for (k, num) in a.asset_nos.iter().enumerate() {
        let num_path = format!("{}.assetNos[{k}]", t.path);
        // Most assets of a purchase are new: insert first, look up only when it exists.
        let inserted = insert_asset(rows, t, num, a, asset_ids)?;
        let tx: &dyn sql::Tx = rows;
        let asset = match inserted.map_or_else(|| find_asset(tx, num), |id| Ok(Some(id)))? {
            None => {
                return Err(OpError::Internal(format!(
                    "asset {num} neither inserted nor found"
                )));
            }
            Some(AssetRow::New(id)) => id,
            Some(AssetRow::Existing(found)) => {
                if found.license_type != t.license_type.as_str() {
                    return Err(OpError::refused(
                        num_path,
                        format!(
                            "asset {num} is a {}, not a {}",
                            found.license_type,
                            t.license_type.as_str()
                        ),
                    ));
                }
                if found.customer != t.customer {
                    if a.transfered_asset_num != Some(true) {
                        return Err(OpError::refusal(
                            num_path,
                            refusal::Refusal::AssetElsewhere { asset: num.into() },
                            "; set transferedAssetNum to move it",
                        ));
                    }
                    tx.execute(
                        "UPDATE assets SET customer_id = ?2, updated_at = ?3 WHERE id = ?1",
                        &[found.id.into(), t.customer.into(), now.into()],
                    )?;
                }
                tx.execute(
                    "UPDATE assets SET limit_start = COALESCE(?2, limit_start), \
                     limit_end = COALESCE(?3, limit_end), \
                     borrowed_usb_key = COALESCE(?4, borrowed_usb_key), updated_at = ?5 WHERE id = ?1",
                    &[
                        found.id.into(),
                        a.limit_start_date.into(),
                        a.limit_end_date.into(),
                        a.borrowed_usb_key.into(),
                        now.into(),
                    ],
                )?;
                found.id
            }
        };
        put_extends(tx, asset, a)?;
        for (p, product) in a.products.iter().enumerate() {
            let path = format!("{}.products[{p}]", t.path);
            insert_product(rows, &path, asset, t.license_order, None, product)?;
        }
        for (m, merchandise) in a.merchandises.iter().enumerate() {
            let path = format!("{}.merchandises[{m}]", t.path);
            insert_merchandise(rows, &path, asset, t.license_order, None, merchandise)?;
        }
    }
    Ok(())
}

/// An asset of a new_buy: just created, or there before.
enum AssetRow {
    New(i64),
    Existing(StoredAsset),
}

/// Makes the asset unless its number exists; its row when it was made.
fn insert_asset(
    rows: &BatchRows<'_>,
    t: &Target<'_>,
    num: &str,
    a: &AssetEntry,
    asset_ids: &mut IdPool,
) -> Result<Option<AssetRow>, OpError> {
    let asset_id = asset_ids.take(rows.unbuffered())?;
    let shell: String = num.chars().filter(char::is_ascii_digit).collect();
    let chip = if t.license_type.is_usbkey() {
        LOCK_CHIP_TYPE
    } else {
        0
    };
    let row = rows.new_asset(&NewAssetRow {
        asset_id: &asset_id,
        asset_num: num,
        license_type: t.license_type.as_str(),
        customer: t.customer,
        license_order: t.license_order,
        key_shell_number: &shell,
        key_chip_type: chip,
        borrowed_usb_key: a.borrowed_usb_key.unwrap_or(false),
        limit_start: a.limit_start_date,
        limit_end: a.limit_end_date,
    })?;
    Ok(row.map(AssetRow::New))
}

fn put_extends(tx: &dyn sql::Tx, asset: i64, a: &AssetEntry) -> Result<(), OpError> {
    for e in &a.asset_extend_list {
        tx.execute(
            "INSERT INTO asset_extends(asset_id, extend_code, extend_value) VALUES (?1, ?2, ?3) \
             ON CONFLICT(asset_id, extend_code) DO UPDATE SET extend_value = excluded.extend_value",
            &[
                asset.into(),
                e.extend_code.as_deref().unwrap_or_default().trim().into(),
                e.extend_value.as_deref().unwrap_or_default().into(),
            ],
        )?;
    }
    Ok(())
}

fn insert_product(
    rows: &BatchRows<'_>,
    path: &str,
    asset: i64,
    license_order: i64,
    merchandise: Option<i64>,
    p: &ProductEntry,
) -> Result<(), OpError> {
    if let Some(src) = p.src_license_order_id.as_deref().filter(|s| !s.is_empty()) {
        let tx: &dyn sql::Tx = rows;
        let exists = tx.query_one(
            "SELECT EXISTS(SELECT 1 FROM license_orders WHERE license_order_id = ?1)",
            &[src.into()],
            |r| r.bool(0),
        )?;
        if !exists {
            return Err(OpError::refusal(
                format!("{path}.srcLicenseOrderId"),
                refusal::Refusal::NoOrder { order: src.into() },
                " to transfer from",
            ));
        }
    }
    let entry = serde_json::to_string(p)?;
    rows.product(&ProductRow {
        asset,
        license_order,
        merchandise,
        product_uri: p.product_uri.as_deref().unwrap_or_default().trim(),
        limit_start: p.limit_start_date,
        limit_end: p.limit_end_date,
        limit_concurrent: p.limit_concurrent.map(i64::from),
        entry: &entry,
        product_name: p.product_name.as_deref(),
    })?;
    Ok(())
}

fn insert_merchandise(
    rows: &BatchRows<'_>,
    path: &str,
    asset: i64,
    license_order: i64,
    parent: Option<i64>,
    m: &MerchandiseEntry,
) -> Result<(), OpError> {
    let tx: &dyn sql::Tx = rows;
    // The row keeps the merchandise's own fields; products and children are rows of their own.
    let own = MerchandiseEntry {
        children: None,
        license_order_product_list: Vec::new(),
        ..m.clone()
    };
    let entry = serde_json::to_string(&own)?;
    let id = tx.query_one(
        "INSERT INTO merchandises(asset_id, license_order_id, parent_id, merchandise_num, entry) \
         VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        &[
            asset.into(),
            license_order.into(),
            parent.into(),
            m.merchandise_num
                .as_deref()
                .unwrap_or_default()
                .trim()
                .into(),
            entry.as_str().into(),
        ],
        |r| r.i64(0),
    )?;
    for (p, product) in m.license_order_product_list.iter().enumerate() {
        let path = format!("{path}.licenseOrderProductList[{p}]");
        insert_product(rows, &path, asset, license_order, Some(id), product)?;
    }
    for (c, child) in m.children.iter().flatten().enumerate() {
        let path = format!("{path}.children[{c}]");
        insert_merchandise(rows, &path, asset, license_order, Some(id), child)?;
    }
    Ok(())
}

/// The asset `num` of the order's customer, or why not.
fn owned_asset(
    tx: &dyn sql::Tx,
    path: &str,
    t: &Target<'_>,
    num: &str,
) -> Result<StoredAsset, OpError> {
    let Some(asset) = stored_asset(tx, num)? else {
        let refusal = refusal::Refusal::NoAsset { asset: num.into() };
        return Err(OpError::refusal(path, refusal, ""));
    };
    if asset.customer != t.customer {
        let refusal = refusal::Refusal::AssetElsewhere { asset: num.into() };
        return Err(OpError::refusal(path, refusal, ""));
    }
    Ok(asset)
}

/// A product row of an asset, as the removal rule needs it.
struct HeldRow {
    id: i64,
    uri: String,
    start: Option<i64>,
    end: Option<i64>,
    concurrent: Option<i32>,
    order: Option<i64>,
}

impl HeldRow {
    fn held(&self) -> Held<'_, i64> {
        Held {
            uri: &self.uri,
            start: self.start,
            end: self.end,
            concurrent: self.concurrent,
            order: self.order,
        }
    }
}

fn held_rows(tx: &dyn sql::Tx, asset: i64) -> Result<Vec<HeldRow>, StoreError> {
    tx.query_vec(
        "SELECT id, product_uri, limit_start, limit_end, limit_concurrent, license_order_id \
         FROM products WHERE asset_id = ?1 ORDER BY id",
        &[asset.into()],
        |r| {
            Ok(HeldRow {
                id: r.i64(0)?,
                uri: r.text(1)?,
                start: r.opt_i64(2)?,
                end: r.opt_i64(3)?,
                concurrent: narrow_opt(r.opt_i64(4)?)?,
                order: r.opt_i64(5)?,
            })
        },
    )
}

fn delete_rows(tx: &dyn sql::Tx, rows: &[HeldRow], which: &[usize]) -> Result<(), StoreError> {
    for &i in which {
        tx.execute("DELETE FROM products WHERE id = ?1", &[rows[i].id.into()])?;
    }
    Ok(())
}

/// Removes whole assets; with a source order, only what that order granted, and the asset
/// itself once nothing else is left on it (the rule is [`removal::delete_asset`]).
fn delete_asset(tx: &dyn sql::Tx, t: &Target<'_>, a: &AssetEntry) -> Result<(), OpError> {
    for (k, num) in a.asset_nos.iter().enumerate() {
        let path = format!("{}.assetNos[{k}]", t.path);
        let asset = owned_asset(tx, &path, t, num)?;
        let rows = held_rows(tx, asset.id)?;
        let held: Vec<Held<'_, i64>> = rows.iter().map(HeldRow::held).collect();
        let removal = removal::delete_asset(&held, asset.license_order.as_ref(), t.src.as_ref())
            .map_err(|_| {
                let refusal = refusal::Refusal::NothingFromSource { asset: num.into() };
                OpError::refusal(&path, refusal, "")
            })?;
        if removal.asset_goes {
            // Its products, packages and attributes go with it (ON DELETE CASCADE).
            tx.execute("DELETE FROM assets WHERE id = ?1", &[asset.id.into()])?;
            continue;
        }
        delete_rows(tx, &rows, &removal.products)?;
        tx.execute(
            "DELETE FROM merchandises WHERE asset_id = ?1 AND license_order_id = ?2",
            &[asset.id.into(), t.src.into()],
        )?;
    }
    Ok(())
}

/// Removes the named products from the assets (the rule is [`removal::delete_products`]).
fn delete_product(tx: &dyn sql::Tx, t: &Target<'_>, a: &AssetEntry) -> Result<(), OpError> {
    for (k, num) in a.asset_nos.iter().enumerate() {
        let asset = owned_asset(tx, &format!("{}.assetNos[{k}]", t.path), t, num)?;
        let rows = held_rows(tx, asset.id)?;
        let held: Vec<Held<'_, i64>> = rows.iter().map(HeldRow::held).collect();
        match removal::delete_products(&held, &a.products, t.src.as_ref()) {
            Ok(which) => delete_rows(tx, &rows, &which)?,
            Err(NotRemovable::NoProduct { product: p }) => {
                return Err(no_product(t, num, p, &a.products[p]));
            }
            Err(NotRemovable::NothingFromSource) => {
                return Err(OpError::Internal("not a delete_asset rule".to_owned()));
            }
        }
    }
    Ok(())
}

fn no_product(t: &Target<'_>, num: &str, p: usize, product: &ProductEntry) -> OpError {
    let uri = product.product_uri.as_deref().unwrap_or_default().trim();
    let how = if product.strict_match_when_delete == Some(true) {
        format!(
            " with limitStartDate {}, limitEndDate {} and limitConcurrent {}",
            show(product.limit_start_date),
            show(product.limit_end_date),
            show(product.limit_concurrent)
        )
    } else {
        String::new()
    };
    let from = if t.src.is_some() {
        " from the source license order"
    } else {
        ""
    };
    OpError::refusal(
        format!("{}.products[{p}]", t.path),
        refusal::Refusal::NoProduct {
            asset: num.into(),
            uri: uri.into(),
        },
        &format!("{how}{from}"),
    )
}

fn show<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "empty".to_owned(), |v| v.to_string())
}
