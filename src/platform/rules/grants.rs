//! What the orders of a batch do to assets and products: `new_buy` grants, `delete_asset` and
//! `delete_product` revoke. Runs inside the batch's transaction; any refusal rolls back all.

use rusqlite::{OptionalExtension, Transaction};

use crate::platform::error::OpError;
use crate::platform::store::IdPool;
use crate::wire::removal::{self, Held, Refusal};
use crate::wire::{
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

fn find_asset(tx: &Transaction<'_>, num: &str) -> rusqlite::Result<Option<AssetRow>> {
    stored_asset(tx, num).map(|a| a.map(AssetRow::Existing))
}

fn stored_asset(tx: &Transaction<'_>, num: &str) -> rusqlite::Result<Option<StoredAsset>> {
    tx.prepare_cached(
        "SELECT id, customer_id, license_type, license_order_id FROM assets WHERE asset_num = ?1",
    )?
    .query_row([num], |r| {
        Ok(StoredAsset {
            id: r.get(0)?,
            customer: r.get(1)?,
            license_type: r.get(2)?,
            license_order: r.get(3)?,
        })
    })
    .optional()
}

/// Applies every order of a validated batch, in order.
pub fn grant(
    tx: &Transaction<'_>,
    req: &BatchOrderRequest,
    placed: &[Placed],
    now: i64,
) -> Result<(), OpError> {
    if placed.len() != req.order_list.len() {
        return Err(OpError::Internal(format!(
            "batch has {} orders but {} were recorded",
            req.order_list.len(),
            placed.len()
        )));
    }
    let mut asset_ids = IdPool::new("AS");
    for (i, (order, p)) in req.order_list.iter().zip(placed).enumerate() {
        let path = format!("orderList[{i}]");
        let (Some(license_type), Some(order_type)) = (order.license_type, order.order_type) else {
            return Err(OpError::invalid(
                &path,
                "licenseType and orderType are required",
            ));
        };
        let src = src_order(tx, &path, order, p.customer)?;
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
                OrderType::NewBuy => new_buy(tx, &target, asset, now, &mut asset_ids)?,
                OrderType::DeleteAsset => delete_asset(tx, &target, asset)?,
                OrderType::DeleteProduct => delete_product(tx, &target, asset)?,
            }
        }
    }
    Ok(())
}

/// The license order a delete order is limited to, when it names one. It must be an order of
/// the same customer. Ignored for `new_buy`, where it has no meaning at order level.
pub fn src_order(
    tx: &Transaction<'_>,
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
    let row: Option<i64> = tx
        .prepare_cached(
            "SELECT id FROM license_orders WHERE license_order_id = ?1 AND customer_id = ?2",
        )?
        .query_row(rusqlite::params![src, customer], |r| r.get(0))
        .optional()?;
    row.map(Some).ok_or_else(|| {
        OpError::refused(
            format!("{path}.srcLicenseOrderId"),
            format!("no license order {src} of this customer"),
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
    tx: &Transaction<'_>,
    t: &Target<'_>,
    a: &AssetEntry,
    now: i64,
    asset_ids: &mut IdPool,
) -> Result<(), OpError> {
    for (k, num) in a.asset_nos.iter().enumerate() {
        let num_path = format!("{}.assetNos[{k}]", t.path);
        // Most assets of a purchase are new: insert first, look up only when it exists.
        let inserted = insert_asset(tx, t, num, a, now, asset_ids)?;
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
                        return Err(OpError::refused(
                            num_path,
                            format!(
                                "asset {num} belongs to another customer; set transferedAssetNum to move it"
                            ),
                        ));
                    }
                    tx.prepare_cached(
                        "UPDATE assets SET customer_id = ?2, updated_at = ?3 WHERE id = ?1",
                    )?
                    .execute(rusqlite::params![found.id, t.customer, now])?;
                }
                tx.prepare_cached(
                    "UPDATE assets SET limit_start = COALESCE(?2, limit_start), \
                     limit_end = COALESCE(?3, limit_end), \
                     borrowed_usb_key = COALESCE(?4, borrowed_usb_key), updated_at = ?5 WHERE id = ?1",
                )?
                .execute(rusqlite::params![
                    found.id,
                    a.limit_start_date,
                    a.limit_end_date,
                    a.borrowed_usb_key,
                    now
                ])?;
                found.id
            }
        };
        put_extends(tx, asset, a)?;
        for (p, product) in a.products.iter().enumerate() {
            let path = format!("{}.products[{p}]", t.path);
            insert_product(tx, &path, asset, t.license_order, None, product, now)?;
        }
        for (m, merchandise) in a.merchandises.iter().enumerate() {
            let path = format!("{}.merchandises[{m}]", t.path);
            insert_merchandise(tx, &path, asset, t.license_order, None, merchandise, now)?;
        }
    }
    Ok(())
}

/// An asset of a new_buy: just created, or there before.
enum AssetRow {
    New(i64),
    Existing(StoredAsset),
}

/// Inserts the asset unless its number exists; its row when it was inserted.
fn insert_asset(
    tx: &Transaction<'_>,
    t: &Target<'_>,
    num: &str,
    a: &AssetEntry,
    now: i64,
    asset_ids: &mut IdPool,
) -> Result<Option<AssetRow>, OpError> {
    let asset_id = asset_ids.take(tx)?;
    let shell: String = num.chars().filter(char::is_ascii_digit).collect();
    let chip = if t.license_type.is_usbkey() {
        LOCK_CHIP_TYPE
    } else {
        0
    };
    let row: Option<i64> = tx
        .prepare_cached(
        "INSERT INTO assets(asset_id, asset_num, license_type, customer_id, license_order_id, \
         key_shell_number, key_chip_type, borrowed_usb_key, limit_start, limit_end, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11) \
         ON CONFLICT(asset_num) DO NOTHING RETURNING id",
    )?
    .query_row(rusqlite::params![
        asset_id,
        num,
        t.license_type.as_str(),
        t.customer,
        t.license_order,
        shell,
        chip,
        a.borrowed_usb_key.unwrap_or(false),
        a.limit_start_date,
        a.limit_end_date,
        now
    ], |r| r.get(0))
    .optional()?;
    Ok(row.map(AssetRow::New))
}

fn put_extends(tx: &Transaction<'_>, asset: i64, a: &AssetEntry) -> Result<(), OpError> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO asset_extends(asset_id, extend_code, extend_value) VALUES (?1, ?2, ?3) \
         ON CONFLICT(asset_id, extend_code) DO UPDATE SET extend_value = excluded.extend_value",
    )?;
    for e in &a.asset_extend_list {
        stmt.execute(rusqlite::params![
            asset,
            e.extend_code.as_deref().unwrap_or_default().trim(),
            e.extend_value.as_deref().unwrap_or_default()
        ])?;
    }
    Ok(())
}

fn insert_product(
    tx: &Transaction<'_>,
    path: &str,
    asset: i64,
    license_order: i64,
    merchandise: Option<i64>,
    p: &ProductEntry,
    now: i64,
) -> Result<(), OpError> {
    if let Some(src) = p.src_license_order_id.as_deref().filter(|s| !s.is_empty()) {
        let exists: bool = tx
            .prepare_cached(
                "SELECT EXISTS(SELECT 1 FROM license_orders WHERE license_order_id = ?1)",
            )?
            .query_row([src], |r| r.get(0))?;
        if !exists {
            return Err(OpError::refused(
                format!("{path}.srcLicenseOrderId"),
                format!("no license order {src} to transfer from"),
            ));
        }
    }
    tx.prepare_cached(
        "INSERT INTO products(asset_id, license_order_id, merchandise_id, product_uri, limit_start, \
         limit_end, limit_concurrent, entry, created_at, product_name) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(rusqlite::params![
        asset,
        license_order,
        merchandise,
        p.product_uri.as_deref().unwrap_or_default().trim(),
        p.limit_start_date,
        p.limit_end_date,
        p.limit_concurrent,
        serde_json::to_string(p)?,
        now,
        p.product_name
    ])?;
    Ok(())
}

fn insert_merchandise(
    tx: &Transaction<'_>,
    path: &str,
    asset: i64,
    license_order: i64,
    parent: Option<i64>,
    m: &MerchandiseEntry,
    now: i64,
) -> Result<(), OpError> {
    // The row keeps the merchandise's own fields; products and children are rows of their own.
    let own = MerchandiseEntry {
        children: None,
        license_order_product_list: Vec::new(),
        ..m.clone()
    };
    tx.prepare_cached(
        "INSERT INTO merchandises(asset_id, license_order_id, parent_id, merchandise_num, entry) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(rusqlite::params![
        asset,
        license_order,
        parent,
        m.merchandise_num.as_deref().unwrap_or_default().trim(),
        serde_json::to_string(&own)?
    ])?;
    let id = tx.last_insert_rowid();
    for (p, product) in m.license_order_product_list.iter().enumerate() {
        let path = format!("{path}.licenseOrderProductList[{p}]");
        insert_product(tx, &path, asset, license_order, Some(id), product, now)?;
    }
    for (c, child) in m.children.iter().flatten().enumerate() {
        let path = format!("{path}.children[{c}]");
        insert_merchandise(tx, &path, asset, license_order, Some(id), child, now)?;
    }
    Ok(())
}

/// The asset `num` of the order's customer, or why not.
fn owned_asset(
    tx: &Transaction<'_>,
    path: &str,
    t: &Target<'_>,
    num: &str,
) -> Result<StoredAsset, OpError> {
    let Some(asset) = stored_asset(tx, num)? else {
        return Err(OpError::refused(path, format!("no asset {num}")));
    };
    if asset.customer != t.customer {
        return Err(OpError::refused(
            path,
            format!("asset {num} belongs to another customer"),
        ));
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

fn held_rows(tx: &Transaction<'_>, asset: i64) -> rusqlite::Result<Vec<HeldRow>> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, product_uri, limit_start, limit_end, limit_concurrent, license_order_id \
         FROM products WHERE asset_id = ?1 ORDER BY id",
    )?;
    stmt.query_map([asset], |r| {
        Ok(HeldRow {
            id: r.get(0)?,
            uri: r.get(1)?,
            start: r.get(2)?,
            end: r.get(3)?,
            concurrent: r.get(4)?,
            order: r.get(5)?,
        })
    })?
    .collect()
}

fn delete_rows(tx: &Transaction<'_>, rows: &[HeldRow], which: &[usize]) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare_cached("DELETE FROM products WHERE id = ?1")?;
    for &i in which {
        stmt.execute([rows[i].id])?;
    }
    Ok(())
}

/// Removes whole assets; with a source order, only what that order granted, and the asset
/// itself once nothing else is left on it (the rule is [`removal::delete_asset`]).
fn delete_asset(tx: &Transaction<'_>, t: &Target<'_>, a: &AssetEntry) -> Result<(), OpError> {
    for (k, num) in a.asset_nos.iter().enumerate() {
        let path = format!("{}.assetNos[{k}]", t.path);
        let asset = owned_asset(tx, &path, t, num)?;
        let rows = held_rows(tx, asset.id)?;
        let held: Vec<Held<'_, i64>> = rows.iter().map(HeldRow::held).collect();
        let removal = removal::delete_asset(&held, asset.license_order.as_ref(), t.src.as_ref())
            .map_err(|_| {
                OpError::refused(
                    &path,
                    format!("asset {num} holds nothing from the source license order"),
                )
            })?;
        if removal.asset_goes {
            // Its products, packages and attributes go with it (ON DELETE CASCADE).
            tx.prepare_cached("DELETE FROM assets WHERE id = ?1")?
                .execute([asset.id])?;
            continue;
        }
        delete_rows(tx, &rows, &removal.products)?;
        tx.prepare_cached(
            "DELETE FROM merchandises WHERE asset_id = ?1 AND license_order_id = ?2",
        )?
        .execute(rusqlite::params![asset.id, t.src])?;
    }
    Ok(())
}

/// Removes the named products from the assets (the rule is [`removal::delete_products`]).
fn delete_product(tx: &Transaction<'_>, t: &Target<'_>, a: &AssetEntry) -> Result<(), OpError> {
    for (k, num) in a.asset_nos.iter().enumerate() {
        let asset = owned_asset(tx, &format!("{}.assetNos[{k}]", t.path), t, num)?;
        let rows = held_rows(tx, asset.id)?;
        let held: Vec<Held<'_, i64>> = rows.iter().map(HeldRow::held).collect();
        match removal::delete_products(&held, &a.products, t.src.as_ref()) {
            Ok(which) => delete_rows(tx, &rows, &which)?,
            Err(Refusal::NoProduct { product: p }) => {
                return Err(no_product(t, num, p, &a.products[p]));
            }
            Err(Refusal::NothingFromSource) => {
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
    OpError::refused(
        format!("{}.products[{p}]", t.path),
        format!("asset {num} holds no product {uri}{how}{from}"),
    )
}

fn show<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "empty".to_owned(), |v| v.to_string())
}
