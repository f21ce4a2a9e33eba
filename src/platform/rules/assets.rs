//! Operation 8: the assets of an enterprise master account, walked in order one at a time, so
//! that a listing of any size is written out as it is read (`http::listing`) and never held
//! whole in memory.
//!
//! Assets are listed by row id (oldest first). An enterprise's assets belong to several
//! customers; an index gives each customer's assets in row-id order (`assets_customer` is
//! `(customer_id, rowid)`), but no index gives the enterprise's: one query over all of them
//! would have SQLite sort the whole enterprise in memory. So each customer has three cursors
//! (its assets, their products, their extension attributes), all ordered by asset row id and
//! none needing more than a per-asset sort, and the customers' assets are merged by row id.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rusqlite::{CachedStatement, Row, Rows, Transaction};

use super::customers::enterprise_by_global_id;
use crate::platform::error::OpError;
use crate::wire::{Asset, AssetExtend, AssetProduct, AssignStatus};

/// One customer's assets (not their products or extension attributes), by row id.
pub(crate) const ASSETS: &str = "SELECT a.id, a.asset_id, a.license_type, a.asset_num, \
     a.grantable, a.key_shell_number, a.key_chip_type, a.locked, a.freezing, a.created_at, \
     a.updated_at, a.limit_start, a.limit_end, a.assign_status, a.assign_member_id, \
     a.borrowed_usb_key, lo.license_order_id \
     FROM assets a LEFT JOIN license_orders lo ON lo.id = a.license_order_id \
     WHERE a.customer_id = ?1 ORDER BY a.id";

/// The products of one customer's assets, by asset row id, then in the order they were granted.
pub(crate) const PRODUCTS: &str = "SELECT p.asset_id, p.product_uri, p.product_name, \
     p.limit_start, p.limit_end, p.limit_concurrent, lo.license_order_id, cl.activity_id, \
     cl.unit_id, p.awaiting_activation \
     FROM assets a JOIN products p ON p.asset_id = a.id \
     LEFT JOIN license_orders lo ON lo.id = p.license_order_id \
     LEFT JOIN claims cl ON cl.id = p.claim_id \
     WHERE a.customer_id = ?1 ORDER BY a.id, p.id";

/// The extension attributes of one customer's assets, by asset row id, then by code (the
/// table's key: the order the listing always had).
pub(crate) const EXTENDS: &str = "SELECT x.asset_id, x.extend_code, x.extend_value \
     FROM assets a JOIN asset_extends x ON x.asset_id = a.id \
     WHERE a.customer_id = ?1 ORDER BY a.id, x.extend_code";

/// The row id of the enterprise master account, or 13004 when there is none.
pub fn enterprise(tx: &Transaction<'_>, enterprise_global_id: &str) -> Result<i64, OpError> {
    enterprise_by_global_id(tx, enterprise_global_id)?.ok_or_else(|| {
        OpError::refused(
            "enterpriseGlobalId",
            format!("no enterprise master account {enterprise_global_id}"),
        )
    })
}

/// Calls `emit` with every asset held by the customers bound to the enterprise (its row id),
/// oldest first, with its products; with `extend_code`, only those carrying that extension
/// attribute. An error of `emit` stops the walk and is returned.
pub fn walk<E: From<rusqlite::Error>>(
    tx: &Transaction<'_>,
    enterprise: i64,
    extend_code: Option<&str>,
    mut emit: impl FnMut(Asset) -> Result<(), E>,
) -> Result<(), E> {
    let customers = customers_of(tx, enterprise)?;
    let mut statements = Vec::with_capacity(customers.len());
    for _ in &customers {
        statements.push([
            tx.prepare_cached(ASSETS)?,
            tx.prepare_cached(PRODUCTS)?,
            tx.prepare_cached(EXTENDS)?,
        ]);
    }
    let mut sources = Vec::with_capacity(customers.len());
    for ((row, customer_id), statements) in customers.into_iter().zip(statements.iter_mut()) {
        sources.push(Source::open(statements, row, customer_id)?);
    }
    // The source whose next asset is the oldest comes first.
    let mut next: BinaryHeap<Reverse<(i64, usize)>> = sources
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.next_row().map(|row| Reverse((row, i))))
        .collect();
    while let Some(Reverse((_, i))) = next.pop() {
        let source = &mut sources[i];
        let asset = source.take(extend_code)?;
        if let Some(row) = source.next_row() {
            next.push(Reverse((row, i)));
        }
        if let Some(asset) = asset {
            emit(asset)?;
        }
    }
    Ok(())
}

/// The customers bound to the enterprise: row id and `customerId`.
fn customers_of(tx: &Transaction<'_>, enterprise: i64) -> rusqlite::Result<Vec<(i64, String)>> {
    let mut stmt =
        tx.prepare_cached("SELECT id, customer_id FROM customers WHERE enterprise_id = ?1")?;
    let rows = stmt.query_map([enterprise], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// One customer's three cursors, each with its next row read ahead.
struct Source<'s> {
    customer_id: String,
    assets: Cursor<'s, Asset>,
    products: Cursor<'s, AssetProduct>,
    extends: Cursor<'s, AssetExtend>,
}

impl<'s> Source<'s> {
    fn open(
        [assets, products, extends]: &'s mut [CachedStatement<'_>; 3],
        customer: i64,
        customer_id: String,
    ) -> rusqlite::Result<Self> {
        Ok(Self {
            customer_id,
            assets: Cursor::open(assets, customer, asset_row)?,
            products: Cursor::open(products, customer, product_row)?,
            extends: Cursor::open(extends, customer, extend_row)?,
        })
    }

    /// The row id of this customer's next asset, if any is left.
    fn next_row(&self) -> Option<i64> {
        self.assets.ahead.as_ref().map(|(row, _)| *row)
    }

    /// The next asset with its products and attributes; `None` when `extend_code` leaves it
    /// out (its rows are read past all the same).
    fn take(&mut self, extend_code: Option<&str>) -> rusqlite::Result<Option<Asset>> {
        let Some((row, mut asset)) = self.assets.advance()? else {
            return Ok(None);
        };
        let extends = self.extends.take_for(row)?;
        let products = self.products.take_for(row)?;
        if let Some(code) = extend_code
            && !extends.iter().any(|e| e.extend_code == code)
        {
            return Ok(None);
        }
        asset.customer_id.clone_from(&self.customer_id);
        asset.asset_extends = extends;
        asset.products = products;
        Ok(Some(asset))
    }
}

type Decode<T> = fn(&Row<'_>) -> rusqlite::Result<(i64, T)>;

/// Rows keyed by asset row id, in that order, with the next one decoded ahead.
struct Cursor<'s, T> {
    rows: Rows<'s>,
    decode: Decode<T>,
    ahead: Option<(i64, T)>,
}

impl<'s, T> Cursor<'s, T> {
    fn open(
        stmt: &'s mut CachedStatement<'_>,
        customer: i64,
        decode: Decode<T>,
    ) -> rusqlite::Result<Self> {
        let mut cursor = Self {
            rows: stmt.query([customer])?,
            decode,
            ahead: None,
        };
        cursor.advance()?;
        Ok(cursor)
    }

    /// The row read ahead, replaced by the next one.
    fn advance(&mut self) -> rusqlite::Result<Option<(i64, T)>> {
        let next = match self.rows.next()? {
            Some(r) => Some((self.decode)(r)?),
            None => None,
        };
        Ok(std::mem::replace(&mut self.ahead, next))
    }

    /// Every row of the asset `row`; rows of older assets (none, as the queries join the
    /// same assets in the same order) are skipped.
    fn take_for(&mut self, row: i64) -> rusqlite::Result<Vec<T>> {
        let mut out = Vec::new();
        while let Some((at, _)) = &self.ahead
            && *at <= row
        {
            let at = *at;
            if let Some((_, value)) = self.advance()?
                && at == row
            {
                out.push(value);
            }
        }
        Ok(out)
    }
}

/// An asset row of [`ASSETS`]; its customer, products and attributes are filled in after.
fn asset_row(r: &Row<'_>) -> rusqlite::Result<(i64, Asset)> {
    let id: String = r.get(1)?;
    let created: i64 = r.get(9)?;
    let asset = Asset {
        assign_status: AssignStatus {
            id: id.clone(),
            assign_status: r.get(13)?,
            assign_member_id: r.get(14)?,
            create_time: created.to_string(),
            update_time: None,
        },
        id,
        license_type: r.get(2)?,
        asset_num: r.get(3)?,
        grantable: r.get(4)?,
        customer_id: String::new(),
        key_shell_number: r.get(5)?,
        key_chip_type: r.get(6)?,
        locked: r.get(7)?,
        freezing: r.get(8)?,
        create_time: created,
        update_time: r.get(10)?,
        limit_start_time: r.get(11)?,
        limit_end_time: r.get(12)?,
        asset_limits: None,
        asset_extends: Vec::new(),
        borrowed_usb_key: r.get(15)?,
        license_order_id: r.get(16)?,
        products: Vec::new(),
    };
    Ok((r.get(0)?, asset))
}

fn product_row(r: &Row<'_>) -> rusqlite::Result<(i64, AssetProduct)> {
    let product = AssetProduct {
        product_uri: r.get(1)?,
        product_name: r.get(2)?,
        limit_start_date: r.get(3)?,
        limit_end_date: r.get(4)?,
        limit_concurrent: r.get(5)?,
        license_order_id: r.get(6)?,
        activity_id: r.get(7)?,
        sub_activity_id: r.get(8)?,
        awaiting_activation: r.get(9)?,
    };
    Ok((r.get(0)?, product))
}

fn extend_row(r: &Row<'_>) -> rusqlite::Result<(i64, AssetExtend)> {
    let extend = AssetExtend {
        extend_code: r.get(1)?,
        extend_value: r.get(2)?,
    };
    Ok((r.get(0)?, extend))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::store::Store;

    /// The walk's queries read in the order asked: SQLite sorts at most one asset's rows
    /// ("RIGHT PART"), never a whole customer's, so a listing's memory does not grow with it.
    #[test]
    fn the_listing_queries_need_no_sort_of_the_whole_enterprise() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path()).expect("open");
        for sql in [ASSETS, PRODUCTS, EXTENDS] {
            let plan: Vec<String> = store
                .read(|tx| {
                    let mut stmt = tx.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
                    let rows = stmt.query_map([1], |r| r.get::<_, String>(3))?;
                    rows.collect::<rusqlite::Result<Vec<String>>>()
                })
                .expect("plan");
            assert!(
                plan.iter().any(|step| step.contains("assets_customer")),
                "{sql}: {plan:?}"
            );
            assert!(
                !plan
                    .iter()
                    .any(|step| step == "USE TEMP B-TREE FOR ORDER BY"),
                "{sql}: {plan:?}"
            );
        }
    }
}
