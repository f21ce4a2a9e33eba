//! The rows a batch creates by the thousand (license orders, assets, products), written on
//! PostgreSQL with one statement per table, and on SQLite one statement per row as they come
//! (in process, a statement costs microseconds there; a round trip costs far more).
//!
//! [`BatchRows`] is itself a [`sql::Tx`]: every other statement of the batch first writes what
//! is pending, so each statement sees every row made before it, as if each had been written at
//! once. Row ids are reserved from the tables' own sequences beforehand, so a row's id is known
//! (for the rows that refer to it) before the row is written.

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};

use crate::sql::{self, Dialect, EachRow, StoreError};

/// A license order of the batch.
pub struct LicenseOrderRow<'a> {
    pub license_order_id: &'a str,
    pub batch: i64,
    pub sequence: i64,
    pub customer: i64,
    pub order_type: &'static str,
    pub license_type: &'static str,
    pub src_license_order_id: Option<&'a str>,
}

/// An asset a `new_buy` creates.
pub struct AssetRow<'a> {
    pub asset_id: &'a str,
    pub asset_num: &'a str,
    pub license_type: &'static str,
    pub customer: i64,
    pub license_order: i64,
    pub key_shell_number: &'a str,
    pub key_chip_type: i32,
    pub borrowed_usb_key: bool,
    pub limit_start: Option<i64>,
    pub limit_end: Option<i64>,
}

/// A product granted by an order.
pub struct ProductRow<'a> {
    pub asset: i64,
    pub license_order: i64,
    pub merchandise: Option<i64>,
    pub product_uri: &'a str,
    pub limit_start: Option<i64>,
    pub limit_end: Option<i64>,
    pub limit_concurrent: Option<i64>,
    pub entry: &'a str,
    pub product_name: Option<&'a str>,
}

/// The rows of one batch, on one transaction, all made at `now`.
pub struct BatchRows<'a> {
    tx: &'a dyn sql::Tx,
    now: i64,
    pending: RefCell<Pending>,
}

/// PostgreSQL only: rows not written yet, column by column, and what is known of the tables.
#[derive(Default)]
struct Pending {
    license_orders: LicenseOrderColumns,
    assets: AssetColumns,
    products: ProductColumns,
    license_order_ids: RowIds,
    asset_ids: RowIds,
    /// Asset numbers known absent (read once with [`BatchRows::expect_assets`]) and not made
    /// since: only these are written later; any other goes at once, as on SQLite.
    absent_assets: HashSet<String>,
}

#[derive(Default)]
struct LicenseOrderColumns {
    id: Vec<i64>,
    license_order_id: Vec<String>,
    batch: Vec<i64>,
    sequence: Vec<i64>,
    customer: Vec<i64>,
    order_type: Vec<String>,
    license_type: Vec<String>,
    src: Vec<Option<String>>,
}

#[derive(Default)]
struct AssetColumns {
    id: Vec<i64>,
    asset_id: Vec<String>,
    asset_num: Vec<String>,
    license_type: Vec<String>,
    customer: Vec<i64>,
    license_order: Vec<i64>,
    shell: Vec<String>,
    chip: Vec<i64>,
    borrowed: Vec<bool>,
    limit_start: Vec<Option<i64>>,
    limit_end: Vec<Option<i64>>,
}

#[derive(Default)]
struct ProductColumns {
    asset: Vec<i64>,
    license_order: Vec<i64>,
    merchandise: Vec<Option<i64>>,
    uri: Vec<String>,
    limit_start: Vec<Option<i64>>,
    limit_end: Vec<Option<i64>>,
    limit_concurrent: Vec<Option<i64>>,
    entry: Vec<String>,
    name: Vec<Option<String>>,
}

/// Row ids reserved from a table's sequence, and how many more rows are expected.
#[derive(Default)]
struct RowIds {
    reserved: VecDeque<i64>,
    expected: usize,
}

/// Row ids reserved in one statement, at most.
const RESERVE_AT_MOST: usize = 4096;

impl<'a> BatchRows<'a> {
    /// Rows of a batch expected to make about `orders` license orders and `assets` assets
    /// (row ids are reserved for that many; more are reserved when needed).
    pub fn new(tx: &'a dyn sql::Tx, now: i64, orders: usize, assets: usize) -> Self {
        let mut pending = Pending::default();
        pending.license_order_ids.expected = orders;
        pending.asset_ids.expected = assets;
        Self {
            tx,
            now,
            pending: RefCell::new(pending),
        }
    }

    fn deferred(&self) -> bool {
        self.tx.dialect() == Dialect::Postgres
    }

    /// When the batch's rows are made.
    pub fn now(&self) -> i64 {
        self.now
    }

    /// The transaction, for statements that touch none of these tables (the id counters):
    /// they need not wait for the pending rows.
    pub fn unbuffered(&self) -> &'a dyn sql::Tx {
        self.tx
    }

    /// Records the license order; its row id.
    pub fn license_order(&self, r: &LicenseOrderRow<'_>) -> Result<i64, StoreError> {
        if !self.deferred() {
            return self.tx.query_one(
                "INSERT INTO license_orders(license_order_id, batch_id, sequence, customer_id, \
                 order_type, license_type, src_license_order_id, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
                &[
                    r.license_order_id.into(),
                    r.batch.into(),
                    r.sequence.into(),
                    r.customer.into(),
                    r.order_type.into(),
                    r.license_type.into(),
                    r.src_license_order_id.into(),
                    self.now.into(),
                ],
                |row| row.i64(0),
            );
        }
        let id = self.reserve("license_orders", |p| &mut p.license_order_ids)?;
        let mut p = self.pending.borrow_mut();
        let c = &mut p.license_orders;
        c.id.push(id);
        c.license_order_id.push(r.license_order_id.to_owned());
        c.batch.push(r.batch);
        c.sequence.push(r.sequence);
        c.customer.push(r.customer);
        c.order_type.push(r.order_type.to_owned());
        c.license_type.push(r.license_type.to_owned());
        c.src.push(r.src_license_order_id.map(str::to_owned));
        Ok(id)
    }

    /// Reads at once which of these asset numbers exist, so that the assets made with the
    /// others can be written later, together (PostgreSQL; nothing on SQLite).
    pub fn expect_assets(&self, nums: &[String]) -> Result<(), StoreError> {
        if !self.deferred() || nums.is_empty() {
            return Ok(());
        }
        let mut absent: HashSet<String> = nums.iter().cloned().collect();
        self.tx_first().query_each(
            "/* PostgreSQL */ SELECT asset_num FROM assets WHERE asset_num = ANY(?1)",
            &[nums.into()],
            &mut |r| {
                absent.remove(&r.text(0)?);
                Ok(std::ops::ControlFlow::Continue(()))
            },
        )?;
        self.pending.borrow_mut().absent_assets = absent;
        Ok(())
    }

    /// Makes the asset unless its number exists: its row id, or `None` when it exists.
    pub fn new_asset(&self, a: &AssetRow<'_>) -> Result<Option<i64>, StoreError> {
        let known_absent = self.pending.borrow_mut().absent_assets.remove(a.asset_num);
        if !known_absent {
            return self.tx_first().query_opt(
                "INSERT INTO assets(asset_id, asset_num, license_type, customer_id, license_order_id, \
                 key_shell_number, key_chip_type, borrowed_usb_key, limit_start, limit_end, created_at, updated_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11) \
                 ON CONFLICT(asset_num) DO NOTHING RETURNING id",
                &[
                    a.asset_id.into(),
                    a.asset_num.into(),
                    a.license_type.into(),
                    a.customer.into(),
                    a.license_order.into(),
                    a.key_shell_number.into(),
                    a.key_chip_type.into(),
                    a.borrowed_usb_key.into(),
                    a.limit_start.into(),
                    a.limit_end.into(),
                    self.now.into(),
                ],
                |r| r.i64(0),
            );
        }
        let id = self.reserve("assets", |p| &mut p.asset_ids)?;
        let mut p = self.pending.borrow_mut();
        let c = &mut p.assets;
        c.id.push(id);
        c.asset_id.push(a.asset_id.to_owned());
        c.asset_num.push(a.asset_num.to_owned());
        c.license_type.push(a.license_type.to_owned());
        c.customer.push(a.customer);
        c.license_order.push(a.license_order);
        c.shell.push(a.key_shell_number.to_owned());
        c.chip.push(i64::from(a.key_chip_type));
        c.borrowed.push(a.borrowed_usb_key);
        c.limit_start.push(a.limit_start);
        c.limit_end.push(a.limit_end);
        Ok(Some(id))
    }

    /// Grants the product.
    pub fn product(&self, r: &ProductRow<'_>) -> Result<(), StoreError> {
        if !self.deferred() {
            self.tx.execute(
                "INSERT INTO products(asset_id, license_order_id, merchandise_id, product_uri, limit_start, \
                 limit_end, limit_concurrent, entry, created_at, product_name) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                &[
                    r.asset.into(),
                    r.license_order.into(),
                    r.merchandise.into(),
                    r.product_uri.into(),
                    r.limit_start.into(),
                    r.limit_end.into(),
                    r.limit_concurrent.into(),
                    r.entry.into(),
                    self.now.into(),
                    r.product_name.into(),
                ],
            )?;
            return Ok(());
        }
        let mut p = self.pending.borrow_mut();
        let c = &mut p.products;
        c.asset.push(r.asset);
        c.license_order.push(r.license_order);
        c.merchandise.push(r.merchandise);
        c.uri.push(r.product_uri.to_owned());
        c.limit_start.push(r.limit_start);
        c.limit_end.push(r.limit_end);
        c.limit_concurrent.push(r.limit_concurrent);
        c.entry.push(r.entry.to_owned());
        c.name.push(r.product_name.map(str::to_owned));
        Ok(())
    }

    /// Writes every pending row, in the order the tables refer to each other; nothing is left
    /// pending. The batch calls it once it is done (any other statement calls it first too).
    pub fn flush(&self) -> Result<(), StoreError> {
        let pending = {
            let mut p = self.pending.borrow_mut();
            Pending {
                license_orders: std::mem::take(&mut p.license_orders),
                assets: std::mem::take(&mut p.assets),
                products: std::mem::take(&mut p.products),
                ..Pending::default()
            }
        };
        self.insert_license_orders(&pending.license_orders)?;
        self.insert_assets(&pending.assets)?;
        self.insert_products(&pending.products)?;
        Ok(())
    }

    /// The license orders made, in one statement.
    fn insert_license_orders(&self, c: &LicenseOrderColumns) -> Result<(), StoreError> {
        if c.id.is_empty() {
            return Ok(());
        }
        self.tx.execute(
            "/* PostgreSQL */ INSERT INTO license_orders(id, license_order_id, batch_id, sequence, \
             customer_id, order_type, license_type, src_license_order_id, created_at) \
             SELECT u.*, ?9 FROM unnest(?1::bigint[], ?2::text[], ?3::bigint[], ?4::bigint[], \
             ?5::bigint[], ?6::text[], ?7::text[], ?8::text[]) AS u",
            &[
                c.id.as_slice().into(),
                c.license_order_id.as_slice().into(),
                c.batch.as_slice().into(),
                c.sequence.as_slice().into(),
                c.customer.as_slice().into(),
                c.order_type.as_slice().into(),
                c.license_type.as_slice().into(),
                c.src.as_slice().into(),
                self.now.into(),
            ],
        )?;
        Ok(())
    }

    /// The assets made, in one statement.
    fn insert_assets(&self, c: &AssetColumns) -> Result<(), StoreError> {
        if c.id.is_empty() {
            return Ok(());
        }
        self.tx.execute(
            "/* PostgreSQL */ INSERT INTO assets(id, asset_id, asset_num, license_type, customer_id, \
             license_order_id, key_shell_number, key_chip_type, borrowed_usb_key, limit_start, \
             limit_end, created_at, updated_at) \
             SELECT u.*, ?12, ?12 FROM unnest(?1::bigint[], ?2::text[], ?3::text[], ?4::text[], \
             ?5::bigint[], ?6::bigint[], ?7::text[], ?8::bigint[], ?9::boolean[], ?10::bigint[], \
             ?11::bigint[]) AS u",
            &[
                c.id.as_slice().into(),
                c.asset_id.as_slice().into(),
                c.asset_num.as_slice().into(),
                c.license_type.as_slice().into(),
                c.customer.as_slice().into(),
                c.license_order.as_slice().into(),
                c.shell.as_slice().into(),
                c.chip.as_slice().into(),
                c.borrowed.as_slice().into(),
                c.limit_start.as_slice().into(),
                c.limit_end.as_slice().into(),
                self.now.into(),
            ],
        )?;
        Ok(())
    }

    /// The products granted, in one statement.
    fn insert_products(&self, c: &ProductColumns) -> Result<(), StoreError> {
        if c.asset.is_empty() {
            return Ok(());
        }
        // In the order granted: the listing shows an asset's products by row id.
        self.tx.execute(
            "/* PostgreSQL */ INSERT INTO products(asset_id, license_order_id, merchandise_id, \
             product_uri, limit_start, limit_end, limit_concurrent, entry, product_name, created_at) \
             SELECT u.a, u.lo, u.m, u.uri, u.ls, u.le, u.lc, u.e, u.n, ?10 \
             FROM unnest(?1::bigint[], ?2::bigint[], ?3::bigint[], ?4::text[], ?5::bigint[], \
             ?6::bigint[], ?7::bigint[], ?8::text[], ?9::text[]) \
             WITH ORDINALITY AS u(a, lo, m, uri, ls, le, lc, e, n, i) ORDER BY u.i",
            &[
                c.asset.as_slice().into(),
                c.license_order.as_slice().into(),
                c.merchandise.as_slice().into(),
                c.uri.as_slice().into(),
                c.limit_start.as_slice().into(),
                c.limit_end.as_slice().into(),
                c.limit_concurrent.as_slice().into(),
                c.entry.as_slice().into(),
                c.name.as_slice().into(),
                self.now.into(),
            ],
        )?;
        Ok(())
    }

    /// The pending rows written, then the transaction.
    fn tx_first(&self) -> &dyn sql::Tx {
        self
    }

    /// The next row id of `table` reserved from its sequence: for all the rows still expected
    /// (at most [`RESERVE_AT_MOST`]) in one statement. Unused ids are a gap, as a rolled back
    /// insert leaves one.
    fn reserve(
        &self,
        table: &'static str,
        ids: impl Fn(&mut Pending) -> &mut RowIds,
    ) -> Result<i64, StoreError> {
        let wanted = {
            let mut p = self.pending.borrow_mut();
            let r = ids(&mut p);
            if let Some(id) = r.reserved.pop_front() {
                r.expected = r.expected.saturating_sub(1);
                return Ok(id);
            }
            r.expected.clamp(1, RESERVE_AT_MOST)
        };
        let reserved = self.tx.query_vec(
            "/* PostgreSQL */ SELECT nextval(pg_get_serial_sequence(?1, 'id')) \
             FROM generate_series(1, ?2)",
            &[table.into(), (wanted as i64).into()],
            |r| r.i64(0),
        )?;
        let mut p = self.pending.borrow_mut();
        let r = ids(&mut p);
        r.reserved.extend(reserved);
        r.expected = r.expected.saturating_sub(1);
        r.reserved
            .pop_front()
            .ok_or(StoreError::NoRow("nextval of a row id"))
    }
}

impl sql::Tx for BatchRows<'_> {
    fn execute(&self, sql: &'static str, params: &[sql::Value<'_>]) -> Result<usize, StoreError> {
        self.flush()?;
        self.tx.execute(sql, params)
    }

    fn query_each(
        &self,
        sql: &'static str,
        params: &[sql::Value<'_>],
        each: &mut EachRow<'_>,
    ) -> Result<(), StoreError> {
        self.flush()?;
        self.tx.query_each(sql, params, each)
    }

    fn serialize_on(&self, key: &str) -> Result<(), StoreError> {
        self.tx.serialize_on(key)
    }

    fn dialect(&self) -> Dialect {
        self.tx.dialect()
    }
}
