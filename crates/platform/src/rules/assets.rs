//! Operation 8: the assets of an enterprise master account, walked in order a few at a time,
//! so that a listing of any size is written out as it is read (`http::listing`) and never held
//! whole in memory.
//!
//! Assets are listed by row id (oldest first). An enterprise's assets belong to several
//! customers; an index gives each customer's assets in row-id order (`assets_customer` is
//! `(customer_id, rowid)`), but no index gives the enterprise's: one query over all of them
//! would have the store sort the whole enterprise in memory. So each customer's assets are read
//! in row-id order, a slice at a time (the next [`READ_AHEAD`] after the last one read, with
//! their products and extension attributes: three statements, none needing more than a
//! per-asset sort), and the customers' slices are merged by row id. Slices rather than open
//! cursors: a statement is read to its end before the next one runs, which every store allows.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::ops::ControlFlow;
use wire::refusal::Refusal;

use super::customers::enterprise_by_global_id;
use super::narrow;
use crate::error::OpError;
use crate::sql::{self, Row, StoreError};
use wire::{Asset, AssetExtend, AssetProduct, AssignStatus};

/// Assets read ahead per customer, in one statement each for them, their products and their
/// attributes. Fewer when the enterprise has many customers, so that what is read ahead stays
/// near [`READ_AHEAD_TOTAL`] assets.
const READ_AHEAD: usize = 256;
const READ_AHEAD_TOTAL: usize = 4096;
const READ_AHEAD_MIN: usize = 16;

/// A slice of one customer's assets (not their products or extension attributes), by row id:
/// those after row `?2`, at most `?3`.
pub(crate) const ASSETS: &str = "SELECT a.id, a.asset_id, a.license_type, a.asset_num, \
     a.grantable, a.key_shell_number, a.key_chip_type, a.locked, a.freezing, a.created_at, \
     a.updated_at, a.limit_start, a.limit_end, a.assign_status, a.assign_member_id, \
     a.borrowed_usb_key, lo.license_order_id \
     FROM assets a LEFT JOIN license_orders lo ON lo.id = a.license_order_id \
     WHERE a.customer_id = ?1 AND a.id > ?2 ORDER BY a.id LIMIT ?3";

/// The products of one customer's assets of rows `?2` (excluded) to `?3`, by asset row id, then
/// in the order they were granted.
pub(crate) const PRODUCTS: &str = "SELECT p.asset_id, p.product_uri, p.product_name, \
     p.limit_start, p.limit_end, p.limit_concurrent, lo.license_order_id, cl.activity_id, \
     cl.unit_id, p.awaiting_activation \
     FROM assets a JOIN products p ON p.asset_id = a.id \
     LEFT JOIN license_orders lo ON lo.id = p.license_order_id \
     LEFT JOIN claims cl ON cl.id = p.claim_id \
     WHERE a.customer_id = ?1 AND a.id > ?2 AND a.id <= ?3 ORDER BY a.id, p.id";

/// The extension attributes of one customer's assets of rows `?2` (excluded) to `?3`, by asset
/// row id, then by code (the table's key: the order the listing always had).
pub(crate) const EXTENDS: &str = "SELECT x.asset_id, x.extend_code, x.extend_value \
     FROM assets a JOIN asset_extends x ON x.asset_id = a.id \
     WHERE a.customer_id = ?1 AND a.id > ?2 AND a.id <= ?3 ORDER BY a.id, x.extend_code";

/// The row id of the enterprise master account, or 13004 when there is none.
pub fn enterprise(tx: &dyn sql::Tx, enterprise_global_id: &str) -> Result<i64, OpError> {
    enterprise_by_global_id(tx, enterprise_global_id)?.ok_or_else(|| {
        let enterprise = enterprise_global_id.to_owned();
        OpError::refusal(
            "enterpriseGlobalId",
            Refusal::NoEnterprise { enterprise },
            "",
        )
    })
}

/// Calls `emit` with every asset held by the customers bound to the enterprise (its row id),
/// oldest first, with its products; with `extend_code`, only those carrying that extension
/// attribute. An error of `emit` stops the walk and is returned.
pub fn walk<E: From<StoreError>>(
    tx: &dyn sql::Tx,
    enterprise: i64,
    extend_code: Option<&str>,
    emit: impl FnMut(Asset) -> Result<(), E>,
) -> Result<(), E> {
    let customers = customers_of(tx, enterprise)?;
    let slice = (READ_AHEAD_TOTAL / customers.len().max(1)).clamp(READ_AHEAD_MIN, READ_AHEAD);
    merge(tx, customers, slice, extend_code, emit)
}

/// [`walk`] over the customers' assets read `slice` at a time.
fn merge<E: From<StoreError>>(
    tx: &dyn sql::Tx,
    customers: Vec<(i64, String)>,
    slice: usize,
    extend_code: Option<&str>,
    mut emit: impl FnMut(Asset) -> Result<(), E>,
) -> Result<(), E> {
    let mut sources: Vec<Source> = customers
        .into_iter()
        .map(|(row, customer_id)| Source::new(row, customer_id))
        .collect();
    // The source whose next asset is the oldest comes first.
    let mut next = BinaryHeap::with_capacity(sources.len());
    for (i, source) in sources.iter_mut().enumerate() {
        if let Some(row) = source.next_row(tx, slice)? {
            next.push(Reverse((row, i)));
        }
    }
    while let Some(Reverse((_, i))) = next.pop() {
        let source = &mut sources[i];
        let asset = source.take(extend_code);
        if let Some(row) = source.next_row(tx, slice)? {
            next.push(Reverse((row, i)));
        }
        if let Some(asset) = asset {
            emit(asset)?;
        }
    }
    Ok(())
}

/// The customers bound to the enterprise: row id and `customerId`.
fn customers_of(tx: &dyn sql::Tx, enterprise: i64) -> Result<Vec<(i64, String)>, StoreError> {
    tx.query_vec(
        "SELECT id, customer_id FROM customers WHERE enterprise_id = ?1",
        &[enterprise.into()],
        |r| Ok((r.i64(0)?, r.text(1)?)),
    )
}

/// One customer's assets read ahead, each with its products and attributes, by row id.
struct Source {
    customer: i64,
    customer_id: String,
    /// The row id of the last asset read; the next slice starts after it.
    after: i64,
    /// The last slice was short: there is nothing after it.
    ended: bool,
    ahead: VecDeque<(i64, Asset)>,
}

impl Source {
    fn new(customer: i64, customer_id: String) -> Self {
        Self {
            customer,
            customer_id,
            after: i64::MIN,
            ended: false,
            ahead: VecDeque::new(),
        }
    }

    /// The row id of this customer's next asset, reading the next slice when none is ahead.
    fn next_row(&mut self, tx: &dyn sql::Tx, slice: usize) -> Result<Option<i64>, StoreError> {
        if self.ahead.is_empty() && !self.ended {
            self.read_slice(tx, slice)?;
        }
        Ok(self.ahead.front().map(|(row, _)| *row))
    }

    /// The next asset; `None` when `extend_code` leaves it out.
    fn take(&mut self, extend_code: Option<&str>) -> Option<Asset> {
        let (_, mut asset) = self.ahead.pop_front()?;
        if let Some(code) = extend_code
            && !asset.asset_extends.iter().any(|e| e.extend_code == code)
        {
            return None;
        }
        asset.customer_id.clone_from(&self.customer_id);
        Some(asset)
    }

    fn read_slice(&mut self, tx: &dyn sql::Tx, slice: usize) -> Result<(), StoreError> {
        let limit = i64::try_from(slice).unwrap_or(i64::MAX);
        let ahead = &mut self.ahead;
        tx.query_each(
            ASSETS,
            &[self.customer.into(), self.after.into(), limit.into()],
            &mut |r| {
                ahead.push_back(asset_row(r)?);
                Ok(ControlFlow::Continue(()))
            },
        )?;
        self.ended = ahead.len() < slice;
        let Some(&(last, _)) = ahead.back() else {
            return Ok(());
        };
        let range = [self.customer.into(), self.after.into(), last.into()];
        self.after = last;
        let mut at = Cursor::default();
        tx.query_each(PRODUCTS, &range, &mut |r| {
            let (row, product) = product_row(r)?;
            if let Some(asset) = at.find(ahead, row) {
                asset.products.push(product);
            }
            Ok(ControlFlow::Continue(()))
        })?;
        let mut at = Cursor::default();
        tx.query_each(EXTENDS, &range, &mut |r| {
            let (row, extend) = extend_row(r)?;
            if let Some(asset) = at.find(ahead, row) {
                asset.asset_extends.push(extend);
            }
            Ok(ControlFlow::Continue(()))
        })
    }
}

/// A position in a slice, moving forward only: the rows of products and attributes come in the
/// assets' order.
#[derive(Default)]
struct Cursor(usize);

impl Cursor {
    fn find<'a>(
        &mut self,
        ahead: &'a mut VecDeque<(i64, Asset)>,
        row: i64,
    ) -> Option<&'a mut Asset> {
        while ahead.get(self.0).is_some_and(|(at, _)| *at < row) {
            self.0 += 1;
        }
        match ahead.get_mut(self.0) {
            Some((at, asset)) if *at == row => Some(asset),
            _ => None,
        }
    }
}

/// An asset row of [`ASSETS`]; its customer, products and attributes are filled in after.
fn asset_row(r: &dyn Row) -> Result<(i64, Asset), StoreError> {
    let id = r.text(1)?;
    let created = r.i64(9)?;
    let asset = Asset {
        assign_status: AssignStatus {
            id: id.clone(),
            assign_status: r.text(13)?,
            assign_member_id: r.text(14)?,
            create_time: created.to_string(),
            update_time: None,
        },
        id,
        license_type: r.text(2)?,
        asset_num: r.text(3)?,
        grantable: r.bool(4)?,
        customer_id: String::new(),
        key_shell_number: r.text(5)?,
        key_chip_type: narrow(r.i64(6)?)?,
        locked: r.bool(7)?,
        freezing: r.bool(8)?,
        create_time: created,
        update_time: r.i64(10)?,
        limit_start_time: r.opt_i64(11)?,
        limit_end_time: r.opt_i64(12)?,
        asset_limits: None,
        asset_extends: Vec::new(),
        borrowed_usb_key: r.bool(15)?,
        license_order_id: r.opt_text(16)?,
        products: Vec::new(),
    };
    Ok((r.i64(0)?, asset))
}

fn product_row(r: &dyn Row) -> Result<(i64, AssetProduct), StoreError> {
    let product = AssetProduct {
        product_uri: r.text(1)?,
        product_name: r.opt_text(2)?,
        limit_start_date: r.opt_i64(3)?,
        limit_end_date: r.opt_i64(4)?,
        limit_concurrent: super::narrow_opt(r.opt_i64(5)?)?,
        license_order_id: r.opt_text(6)?,
        activity_id: r.opt_text(7)?,
        sub_activity_id: r.opt_text(8)?,
        awaiting_activation: r.bool(9)?,
    };
    Ok((r.i64(0)?, product))
}

fn extend_row(r: &dyn Row) -> Result<(i64, AssetExtend), StoreError> {
    let extend = AssetExtend {
        extend_code: r.text(1)?,
        extend_value: r.text(2)?,
    };
    Ok((r.i64(0)?, extend))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// Three customers' assets, interleaved by age, with 0 to 2 products each and attributes
    /// on some: enterprise row 1.
    fn three_customers(store: &Store) {
        store
            .write_blocking(|tx| {
                tx.execute(
                    "INSERT INTO enterprises(id, global_id, name, created_at, updated_at) \
                     VALUES (1, 'E1', 'e', 0, 0)",
                    &[],
                )?;
                for c in 1..=3_i64 {
                    tx.execute(
                        "INSERT INTO customers(id, customer_id, enterprise_id, created_at, \
                         updated_at) VALUES (?1, 'CU' || ?1, 1, 0, 0)",
                        &[c.into()],
                    )?;
                }
                for a in 1..=40_i64 {
                    let customer = [1_i64, 1, 2, 3, 2][usize::try_from(a % 5).unwrap_or(0)];
                    tx.execute(
                        "INSERT INTO assets(id, asset_id, asset_num, license_type, customer_id, \
                         key_shell_number, key_chip_type, created_at, updated_at) \
                         VALUES (?1, 'AS' || ?1, 'N' || ?1, 'normal', ?2, '', 0, ?1, ?1)",
                        &[a.into(), customer.into()],
                    )?;
                    for p in 0..a % 3 {
                        tx.execute(
                            "INSERT INTO products(asset_id, product_uri, entry, created_at) \
                             VALUES (?1, 'P' || ?2, '{}', 0)",
                            &[a.into(), (2 - p).into()],
                        )?;
                    }
                    let codes: &[&str] = if a % 4 == 0 { &["gxxp", "x"] } else { &["x"] };
                    for code in codes {
                        tx.execute(
                            "INSERT INTO asset_extends(asset_id, extend_code, extend_value) \
                             VALUES (?1, ?2, 'v')",
                            &[a.into(), (*code).into()],
                        )?;
                    }
                }
                Ok::<_, StoreError>(())
            })
            .expect("three customers");
    }

    fn listing(store: &Store, slice: usize, extend_code: Option<&str>) -> Vec<Asset> {
        store
            .read(|tx| {
                let mut all = Vec::new();
                merge(tx, customers_of(tx, 1)?, slice, extend_code, |a| {
                    all.push(a);
                    Ok::<_, StoreError>(())
                })?;
                Ok::<_, StoreError>(all)
            })
            .expect("walk")
    }

    /// The customers' slices merge into one listing, oldest first, each asset with its own
    /// products and attributes, whatever the slice: one asset, a few, all at once.
    #[test]
    fn slices_of_any_size_make_the_same_listing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::store::open(dir.path()).expect("open");
        three_customers(&store);
        let whole = listing(&store, READ_AHEAD, None);
        let nums: Vec<String> = whole.iter().map(|a| a.asset_num.clone()).collect();
        let expected: Vec<String> = (1..=40).map(|a| format!("N{a}")).collect();
        assert_eq!(nums, expected);
        for (a, asset) in (1_usize..).zip(&whole) {
            let customer = [1, 1, 2, 3, 2][a % 5];
            assert_eq!(asset.customer_id, format!("CU{customer}"), "N{a}");
            let uris: Vec<&str> = asset
                .products
                .iter()
                .map(|p| p.product_uri.as_str())
                .collect();
            assert_eq!(uris, ["P2", "P1"][..a % 3], "N{a}");
            assert_eq!(
                asset.asset_extends.len(),
                if a % 4 == 0 { 2 } else { 1 },
                "N{a}"
            );
        }
        let gxxp = listing(&store, READ_AHEAD, Some("gxxp"));
        assert_eq!(gxxp.len(), 10);
        for slice in [1, 2, 3, 7] {
            assert_eq!(listing(&store, slice, None), whole, "slice {slice}");
            assert_eq!(listing(&store, slice, Some("gxxp")), gxxp, "slice {slice}");
        }
    }

    /// The walk's queries read in the order asked: SQLite sorts at most one asset's rows
    /// ("RIGHT PART"), never a whole customer's, so a listing's memory does not grow with it.
    #[test]
    fn the_listing_queries_need_no_sort_of_the_whole_enterprise() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = crate::store::open(dir.path()).expect("open");
        for sql in [ASSETS, PRODUCTS, EXTENDS] {
            let plan: Vec<String> = store
                .read(|tx| {
                    // Statements are `&'static str`: a test may leak three.
                    let explain = Box::leak(format!("EXPLAIN QUERY PLAN {sql}").into_boxed_str());
                    tx.query_vec(explain, &[1_i64.into(), 0_i64.into(), 10_i64.into()], |r| {
                        r.text(3)
                    })
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
