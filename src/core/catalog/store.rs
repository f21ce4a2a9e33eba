//! The catalog and the directory on disk: one SQLite file in the user's data directory. Items
//! are kept as their JSON (the interface's own shapes), keyed by their scope (the shared
//! catalog, or a profile's own) and `productUri` or `merchandiseNum`, and for customers by
//! profile and any of their ids.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::learn::Learned;
use super::{DirectoryEntry, Known};
use wire::{MerchandiseEntry, ProductEntry};

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("the catalog's database: {0}")]
    Db(#[from] rusqlite::Error),
    /// A catalog a newer release migrated, or a version that failed to apply.
    #[error("the catalog's database: {0}")]
    Schema(#[from] db::sql::StoreError),
    #[error("an item of the catalog: {0}")]
    Json(#[from] serde_json::Error),
    /// Edited after another window removed it.
    #[error("the item is no longer in the catalog")]
    Gone,
}

type Result<T> = std::result::Result<T, CatalogError>;

/// Which list of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    Products,
    Packages,
}

impl Shelf {
    fn table(self) -> &'static str {
        match self {
            Shelf::Products => "products",
            Shelf::Packages => "packages",
        }
    }
}

/// The scope of the catalog every profile shares; a profile with a catalog of its own has its
/// name as its scope (a profile's name is never empty).
pub const SHARED: &str = "";

pub struct Catalog {
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS products (
    scope TEXT NOT NULL DEFAULT '', key TEXT NOT NULL, body TEXT NOT NULL,
    first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, last_used INTEGER,
    PRIMARY KEY (scope, key));
CREATE TABLE IF NOT EXISTS packages (
    scope TEXT NOT NULL DEFAULT '', key TEXT NOT NULL, body TEXT NOT NULL,
    first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, last_used INTEGER,
    PRIMARY KEY (scope, key));
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS customers (
    id INTEGER PRIMARY KEY, profile TEXT NOT NULL,
    customer_id TEXT, crm_customer_id TEXT, channel_customer_id TEXT, enterprise_global_id TEXT,
    body TEXT NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, last_used INTEGER);
CREATE INDEX IF NOT EXISTS customers_of_profile ON customers(profile);
";

/// Versions 2, 3, … of the file (version 1 is `adopt`'s).
const LATER: &[&str] = &[
    // 2: a customer is found by any of its ids; with the profile alone, learning a file of
    // 10,000 customers read the directory 10,000 times over (0.74 s).
    "CREATE INDEX IF NOT EXISTS customers_by_id ON customers(profile, customer_id);
     CREATE INDEX IF NOT EXISTS customers_by_channel ON customers(profile, channel_customer_id);
     CREATE INDEX IF NOT EXISTS customers_by_crm ON customers(profile, crm_customer_id);
     CREATE INDEX IF NOT EXISTS customers_by_enterprise
         ON customers(profile, enterprise_global_id);",
];

impl Catalog {
    pub fn open(path: &Path) -> Result<Catalog> {
        if let Some(dir) = path.parent() {
            // A failure shows as the database's own when it opens.
            let _ = support::private_files::create_private_dir(dir);
        }
        if let Err(e) = support::private_files::ensure_private_file(path) {
            tracing::warn!(error = %e, path = %path.display(), "could not be made private");
        }
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        crate::core::local_db::use_wal(&conn)?;
        db::sqlite::migrate_adopting(&mut conn, adopt, LATER)?;
        Ok(Catalog {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Seeds the catalog once, when it is first opened: `seed` is called (with this catalog)
    /// only if it never was, and only if the catalog is empty then (a catalog kept before the
    /// mark existed is not seeded over). Whatever the user removes afterwards stays removed.
    pub fn seed_once(&self, seed: impl FnOnce(&Catalog) -> Result<()>) -> Result<()> {
        let seeded: Option<String> = self
            .conn()
            .query_row("SELECT value FROM meta WHERE name = 'seeded'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if seeded.is_some() {
            return Ok(());
        }
        let n: i64 = self.conn().query_row(
            "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM packages)",
            [],
            |r| r.get(0),
        )?;
        if n == 0 {
            seed(self)?;
        }
        self.conn().execute(
            "INSERT OR REPLACE INTO meta(name, value) VALUES ('seeded', 'yes')",
            [],
        )?;
        Ok(())
    }

    /// A value the catalog keeps about itself (`meta`), if set.
    pub fn mark(&self, name: &str) -> Result<Option<String>> {
        let conn = self.conn();
        let value = conn
            .query_row("SELECT value FROM meta WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(value)
    }

    pub fn set_mark(&self, name: &str, value: &str) -> Result<()> {
        self.conn().execute(
            "INSERT OR REPLACE INTO meta(name, value) VALUES (?1, ?2)",
            [name, value],
        )?;
        Ok(())
    }

    /// Adds what it did not know and updates what changed: the products and packages to the
    /// catalog of `scope`, the customers to `profile`'s directory. Everything is seen `now`.
    /// What changed, shelf by shelf.
    pub fn learn(
        &self,
        scope: &str,
        profile: &str,
        learned: &Learned,
        now: i64,
    ) -> Result<ImportReport> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let report = write_learned(&tx, scope, profile, learned, now, Taught::Platform)?;
        tx.commit()?;
        Ok(report)
    }

    /// What a file would change, and, when `apply`, the change made: as [`Catalog::learn`],
    /// except that a customer the platform taught keeps what it said (the file only fills
    /// what is missing) unless `overwrite`.
    pub fn import(
        &self,
        scope: &str,
        profile: &str,
        learned: &Learned,
        now: i64,
        import: Import,
    ) -> Result<ImportReport> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let taught = Taught::File {
            overwrite: import.overwrite,
        };
        let report = write_learned(&tx, scope, profile, learned, now, taught)?;
        if import.apply {
            tx.commit()?;
        }
        Ok(report)
    }

    pub fn products(&self, scope: &str) -> Result<Vec<Known<ProductEntry>>> {
        self.shelf(scope, Shelf::Products)
    }

    pub fn packages(&self, scope: &str) -> Result<Vec<Known<MerchandiseEntry>>> {
        self.shelf(scope, Shelf::Packages)
    }

    fn shelf<T: DeserializeOwned>(&self, scope: &str, shelf: Shelf) -> Result<Vec<Known<T>>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT key, body, last_seen, last_used FROM {} WHERE scope = ?1 ORDER BY key",
            shelf.table()
        ))?;
        let rows = stmt.query_map([scope], known_row)?;
        rows.map(|r| known_of(r?)).collect()
    }

    /// The customers known on `profile`.
    pub fn customers(&self, profile: &str) -> Result<Vec<Known<DirectoryEntry>>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT CAST(id AS TEXT), body, last_seen, last_used FROM customers
             WHERE profile = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([profile], known_row)?;
        rows.map(|r| known_of(r?)).collect()
    }

    /// The user picked the item: it comes first in searches from now on.
    pub fn used(&self, scope: &str, shelf: Shelf, key: &str, now: i64) -> Result<()> {
        self.conn().execute(
            &format!(
                "UPDATE {} SET last_used = ?3 WHERE scope = ?1 AND key = ?2",
                shelf.table()
            ),
            params![scope, key, now],
        )?;
        Ok(())
    }

    /// Removes an item; false if there was none.
    pub fn remove(&self, scope: &str, shelf: Shelf, key: &str) -> Result<bool> {
        let n = self.conn().execute(
            &format!(
                "DELETE FROM {} WHERE scope = ?1 AND key = ?2",
                shelf.table()
            ),
            [scope, key],
        )?;
        Ok(n == 1)
    }

    /// The user's own definition of a product, replacing the known one whole (what they
    /// cleared stays cleared); false if the catalog has no product of that URI.
    pub fn put_product(&self, scope: &str, product: &ProductEntry) -> Result<bool> {
        let Some(key) = &product.product_uri else {
            return Ok(false);
        };
        self.put(scope, Shelf::Products, key, product)
    }

    /// The user's own definition of the package listed as `key`, its products and
    /// sub-packages included, replacing the known one whole; kept under the number it now
    /// carries (a number another package has is refused by the database). False if the
    /// catalog has no package `key`.
    pub fn put_package(&self, scope: &str, key: &str, package: &MerchandiseEntry) -> Result<bool> {
        let mut package = package.clone();
        // Emptied, the number stays what it was: a package is kept by it.
        let num = match package.merchandise_num.as_deref().map(str::trim) {
            Some(num) if !num.is_empty() => num.to_owned(),
            _ => key.to_owned(),
        };
        package.merchandise_num = Some(num.clone());
        let n = self.conn().execute(
            "UPDATE packages SET key = ?3, body = ?4 WHERE scope = ?1 AND key = ?2",
            params![scope, key, num, serde_json::to_string(&package)?],
        )?;
        Ok(n == 1)
    }

    fn put(&self, scope: &str, shelf: Shelf, key: &str, item: &impl Serialize) -> Result<bool> {
        let n = self.conn().execute(
            &format!(
                "UPDATE {} SET body = ?3 WHERE scope = ?1 AND key = ?2",
                shelf.table()
            ),
            params![scope, key, serde_json::to_string(item)?],
        )?;
        Ok(n == 1)
    }

    /// The user's own fields of a customer (by the key the directory listed it with).
    pub fn put_customer(&self, profile: &str, key: &str, c: &DirectoryEntry) -> Result<bool> {
        let n = self.conn().execute(
            "UPDATE customers SET body = ?3, customer_id = ?4, crm_customer_id = ?5,
             channel_customer_id = ?6, enterprise_global_id = ?7
             WHERE profile = ?1 AND CAST(id AS TEXT) = ?2",
            params![
                profile,
                key,
                serde_json::to_string(c)?,
                c.customer_id,
                c.crm_customer_id,
                c.channel_customer_id,
                c.enterprise_global_id
            ],
        )?;
        Ok(n == 1)
    }

    /// The user picked the customer (by the key the directory listed it with).
    pub fn customer_used(&self, profile: &str, key: &str, now: i64) -> Result<()> {
        self.conn().execute(
            "UPDATE customers SET last_used = ?3 WHERE profile = ?1 AND CAST(id AS TEXT) = ?2",
            params![profile, key, now],
        )?;
        Ok(())
    }

    pub fn remove_customer(&self, profile: &str, key: &str) -> Result<bool> {
        let n = self.conn().execute(
            "DELETE FROM customers WHERE profile = ?1 AND CAST(id AS TEXT) = ?2",
            params![profile, key],
        )?;
        Ok(n == 1)
    }

    /// A profile renamed keeps its directory and its own catalog; a profile removed takes
    /// them along.
    pub fn profile_renamed(&self, from: &str, to: &str) -> Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE customers SET profile = ?2 WHERE profile = ?1",
            [from, to],
        )?;
        for table in ["products", "packages"] {
            tx.execute(
                &format!("UPDATE {table} SET scope = ?2 WHERE scope = ?1"),
                [from, to],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    pub fn profile_removed(&self, name: &str) -> Result<()> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM customers WHERE profile = ?1", [name])?;
        for table in ["products", "packages"] {
            tx.execute(&format!("DELETE FROM {table} WHERE scope = ?1"), [name])?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// Version 1: the catalog as releases before versions were counted left it, whichever of its
/// changes they had made.
fn adopt(conn: &Connection) -> rusqlite::Result<()> {
    add_scopes(conn)?;
    conn.execute_batch(SCHEMA)?;
    add_from_platform(conn)
}

/// A catalog kept before scopes existed has products and packages keyed by their key alone:
/// they move, as they are, to the shared catalog (the only one there was).
fn add_scopes(conn: &Connection) -> rusqlite::Result<()> {
    let old: i64 = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'products'
         AND NOT EXISTS (SELECT 1 FROM pragma_table_info('products') WHERE name = 'scope')",
        [],
        |r| r.get(0),
    )?;
    if old == 0 {
        return Ok(());
    }
    let mut sql = String::new();
    for table in ["products", "packages"] {
        sql.push_str(&format!(
            "ALTER TABLE {table} RENAME TO {table}_unscoped;
             CREATE TABLE {table} (
                 scope TEXT NOT NULL DEFAULT '', key TEXT NOT NULL, body TEXT NOT NULL,
                 first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, last_used INTEGER,
                 PRIMARY KEY (scope, key));
             INSERT INTO {table}(scope, key, body, first_seen, last_seen, last_used)
                 SELECT '', key, body, first_seen, last_seen, last_used FROM {table}_unscoped;
             DROP TABLE {table}_unscoped;"
        ));
    }
    conn.execute_batch(&sql)
}

/// Customers learned from the platform's answers are marked, so that a file imported later
/// does not overwrite what the platform said (a directory kept before the mark is unmarked).
fn add_from_platform(conn: &Connection) -> rusqlite::Result<()> {
    let missing: i64 = conn.query_row(
        "SELECT NOT EXISTS (SELECT 1 FROM pragma_table_info('customers')
                            WHERE name = 'from_platform')",
        [],
        |r| r.get(0),
    )?;
    if missing == 1 {
        conn.execute_batch(
            "ALTER TABLE customers ADD COLUMN from_platform INTEGER NOT NULL DEFAULT 0",
        )?;
    }
    Ok(())
}

type Row = (String, String, i64, Option<i64>);

fn known_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

fn known_of<T: DeserializeOwned>((key, body, last_seen, last_used): Row) -> Result<Known<T>> {
    Ok(Known {
        key,
        item: serde_json::from_str(&body)?,
        last_seen,
        last_used,
    })
}

/// `new`'s fields over `old`'s: a field the new definition leaves out (a product named only by
/// its URI in a delete order) does not erase what was known.
fn merged(old: Option<&str>, new: &impl Serialize) -> Result<String> {
    combined(old, new, Combine::NewWins)
}

/// How a new item's fields go over the kept one's (empty fields of the new never do).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combine {
    NewWins,
    /// Only what the kept item lacks is added.
    OldWins,
}

fn combined(old: Option<&str>, new: &impl Serialize, how: Combine) -> Result<String> {
    let new = serde_json::to_value(new)?;
    let Some(Value::Object(mut base)) = old.map(serde_json::from_str).transpose()? else {
        return Ok(new.to_string());
    };
    if let Value::Object(fields) = new {
        for (k, v) in fields {
            if empty(&v) {
                continue;
            }
            if how == Combine::NewWins {
                base.insert(k, v);
            } else {
                base.entry(k).or_insert(v);
            }
        }
    }
    Ok(Value::Object(base).to_string())
}

/// How a file is imported: only looked at, or applied; over what the platform taught or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Import {
    pub apply: bool,
    pub overwrite: bool,
}

/// What an import changed (or would change), shelf by shelf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ImportReport {
    pub products: Counts,
    pub packages: Counts,
    pub customers: Counts,
}

/// Items new, changed and unchanged; `kept`: customers whose fields from the platform were kept
/// against the file's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Counts {
    pub new: usize,
    pub changed: usize,
    pub unchanged: usize,
    pub kept: usize,
}

impl Counts {
    fn add(&mut self, change: Change) {
        match change {
            Change::New => self.new += 1,
            Change::Changed => self.changed += 1,
            Change::Unchanged => self.unchanged += 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    New,
    Changed,
    Unchanged,
}

impl Change {
    /// Compared as JSON values: the same fields in another order are no change.
    fn of(old: Option<&str>, new: &str) -> Change {
        let value = |s: &str| serde_json::from_str::<Value>(s).ok();
        match old {
            None => Change::New,
            Some(old) if old == new || value(old) == value(new) => Change::Unchanged,
            Some(_) => Change::Changed,
        }
    }
}

/// Who teaches the directory a customer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Taught {
    /// An answer of the platform (or the Sandbox's seed): marks the customer.
    Platform,
    /// A file: overwrites a marked customer's fields only when told.
    File { overwrite: bool },
}

fn write_learned(
    tx: &Connection,
    scope: &str,
    profile: &str,
    learned: &Learned,
    now: i64,
    taught: Taught,
) -> Result<ImportReport> {
    let mut report = ImportReport::default();
    let products = learned
        .products
        .iter()
        .filter_map(|p| Some((p.product_uri.as_deref()?, p)));
    for (key, item) in in_one(products)? {
        let change = upsert(tx, scope, Shelf::Products, key, &item, now)?;
        report.products.add(change);
    }
    let packages =
        (learned.packages.iter()).filter_map(|m| Some((m.merchandise_num.as_deref()?, m)));
    for (key, item) in in_one(packages)? {
        let change = upsert(tx, scope, Shelf::Packages, key, &item, now)?;
        report.packages.add(change);
    }
    let customers = learned.customers.iter().map(|c| {
        let ids = [&c.customer_id, &c.channel_customer_id, &c.crm_customer_id];
        ((ids, &c.enterprise_global_id), c)
    });
    for (_, item) in in_one(customers)? {
        let c = match item {
            Mentioned::Once(c) => std::borrow::Cow::Borrowed(c),
            Mentioned::Combined(v) => std::borrow::Cow::Owned(serde_json::from_value(v)?),
        };
        if let Some((change, kept)) = learn_customer(tx, profile, &c, now, taught)? {
            report.customers.add(change);
            report.customers.kept += usize::from(kept);
        }
    }
    Ok(report)
}

/// An item a file names, as the catalog takes it: its one mention, or its mentions combined
/// in order, each one's fields over the earlier ones' (empty fields never win).
#[derive(Serialize)]
#[serde(untagged)]
enum Mentioned<'a, T> {
    Once(&'a T),
    Combined(Value),
}

/// The items by their key, in the order first named, each with its mentions combined: a file
/// of 10,000 orders names its few products 30,000 times and its customers many times over, and
/// each mention written alone cost the learning most of its 0.57 s. Combined first or written
/// one after the other, the catalog ends the same (later non-empty fields win either way);
/// what is counted is the item, not the mention.
fn in_one<'a, K: Eq + std::hash::Hash + Clone, T: PartialEq + Serialize>(
    items: impl Iterator<Item = (K, &'a T)>,
) -> Result<Vec<(K, Mentioned<'a, T>)>> {
    let mut places: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    let mut named: Vec<(K, Vec<&'a T>)> = Vec::new();
    for (key, item) in items {
        match places.get(&key) {
            Some(&i) => {
                let mentions = &mut named[i].1;
                // A mention like the one before it changes nothing.
                if mentions.last() != Some(&item) {
                    mentions.push(item);
                }
            }
            None => {
                places.insert(key.clone(), named.len());
                named.push((key, vec![item]));
            }
        }
    }
    named
        .into_iter()
        .map(|(key, mentions)| Ok((key, combine(mentions)?)))
        .collect()
}

fn combine<'a, T: Serialize>(mentions: Vec<&'a T>) -> Result<Mentioned<'a, T>> {
    let [once] = mentions.as_slice() else {
        let mut fields = serde_json::Map::new();
        for mention in mentions {
            if let Value::Object(over) = serde_json::to_value(mention)? {
                fields.extend(over.into_iter().filter(|(_, v)| !empty(v)));
            }
        }
        return Ok(Mentioned::Combined(Value::Object(fields)));
    };
    Ok(Mentioned::Once(once))
}

/// A field that never goes over a kept one's.
fn empty(v: &Value) -> bool {
    v.is_null() || v.as_array().is_some_and(Vec::is_empty)
}

fn upsert(
    tx: &Connection,
    scope: &str,
    shelf: Shelf,
    key: &str,
    item: &impl Serialize,
    now: i64,
) -> Result<Change> {
    let table = shelf.table();
    // Prepared once per connection: a batch of 10,000 orders names its products 30,000 times.
    let old: Option<String> = tx
        .prepare_cached(&format!(
            "SELECT body FROM {table} WHERE scope = ?1 AND key = ?2"
        ))?
        .query_row([scope, key], |r| r.get(0))
        .optional()?;
    let body = merged(old.as_deref(), item)?;
    tx.prepare_cached(&format!(
        "INSERT INTO {table}(scope, key, body, first_seen, last_seen)
         VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT(scope, key) DO UPDATE
         SET body = excluded.body, last_seen = excluded.last_seen"
    ))?
    .execute(params![scope, key, body, now])?;
    Ok(Change::of(old.as_deref(), &body))
}

/// The directory's row for a customer, by any of its ids. The first condition names each id
/// with the profile, so that SQLite finds each by its own index (a multi-index OR); the second
/// keeps out a row whose ids contradict the customer's.
const FIND_CUSTOMER: &str = "SELECT id, body, from_platform FROM customers
    WHERE ((profile = ?1 AND customer_id = ?2)
           OR (profile = ?1 AND channel_customer_id = ?3)
           OR (profile = ?1 AND crm_customer_id = ?4)
           OR (profile = ?1 AND enterprise_global_id = ?5))
      AND (customer_id = ?2
           OR ((customer_id IS NULL OR ?2 IS NULL)
               AND (channel_customer_id IS NULL OR ?3 IS NULL OR channel_customer_id = ?3)))
    ORDER BY customer_id = ?2 DESC, id LIMIT 1";

/// The directory's row for this customer: the same customer id; else, among rows whose ids do
/// not contradict it, the same channel customer, CRM id or enterprise. Answers what changed,
/// and whether the platform's fields were kept against the file's (None: no key, nothing done).
fn learn_customer(
    tx: &Connection,
    profile: &str,
    c: &DirectoryEntry,
    now: i64,
    taught: Taught,
) -> Result<Option<(Change, bool)>> {
    if !c.has_key() {
        return Ok(None);
    }
    let keys = params![
        profile,
        c.customer_id,
        c.channel_customer_id,
        c.crm_customer_id,
        c.enterprise_global_id
    ];
    let found: Option<(i64, String, bool)> = tx
        .prepare_cached(FIND_CUSTOMER)?
        .query_row(keys, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let old = found.as_ref().map(|(_, b, _)| b.as_str());
    let from_platform = found.as_ref().is_some_and(|(_, _, p)| *p);
    let over = merged(old, c)?;
    let (body, kept) = match taught {
        Taught::File { overwrite: false } if from_platform => {
            let filled = combined(old, c, Combine::OldWins)?;
            let kept = filled != over;
            (filled, kept)
        }
        _ => (over, false),
    };
    let change = Change::of(old, &body);
    // Marked while what it holds is what the platform said: a file that overwrote it unmarks
    // it, until the platform names it again.
    let mark = match taught {
        Taught::Platform => true,
        Taught::File { overwrite: false } => from_platform,
        Taught::File { overwrite: true } => from_platform && change == Change::Unchanged,
    };
    let entry: DirectoryEntry = serde_json::from_str(&body)?;
    let sql = match found {
        Some(_) => {
            "UPDATE customers SET customer_id = ?1, crm_customer_id = ?2, channel_customer_id = ?3,
             enterprise_global_id = ?4, body = ?5, last_seen = ?6, from_platform = ?9
             WHERE id = ?7 AND profile = ?8"
        }
        None => {
            "INSERT INTO customers(customer_id, crm_customer_id, channel_customer_id,
             enterprise_global_id, body, first_seen, last_seen, id, profile, from_platform)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9)"
        }
    };
    tx.prepare_cached(sql)?.execute(params![
        entry.customer_id,
        entry.crm_customer_id,
        entry.channel_customer_id,
        entry.enterprise_global_id,
        body,
        now,
        found.map(|(id, _, _)| id),
        profile,
        mark
    ])?;
    Ok(Some((change, kept)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::BatchOrderRequest;

    fn batch(json: serde_json::Value) -> BatchOrderRequest {
        serde_json::from_value(json).expect("batch")
    }

    fn sold() -> BatchOrderRequest {
        batch(serde_json::json!({
            "channelCode": "SHOP",
            "orderList": [{
                "sequence": 1, "channelCustomerId": "S-1", "customerName": "广州示例有限公司",
                "orderType": "new_buy", "licenseType": "softkey",
                "assets": [{
                    "assetNos": ["8000000001"], "limitEndDate": 1798761599999i64,
                    "products": [{"productUri": "gms:1", "productName": "计价软件",
                                  "limitConcurrent": 2, "passwords": ["secret"],
                                  "limitEndDate": 1798761599999i64}],
                    "merchandises": [{"merchandiseNum": "PKG-1", "merchandiseName": "套餐",
                        "licenseOrderProductList": [{"productUri": "gms:2", "productName": "算量"}],
                        "children": [{"merchandiseNum": "PKG-1-A",
                            "licenseOrderProductList": [{"productUri": "gms:3"}]}]}]
                }]
            }]
        }))
    }

    /// Each of a customer's ids is found by an index: a scan of the profile's rows per
    /// customer made a file of 10,000 customers take 0.74 s to learn.
    #[test]
    fn a_customer_is_found_by_the_indexes_of_its_ids() {
        let dir = tempfile::tempdir().expect("dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite3")).expect("open");
        let conn = catalog.conn();
        let mut stmt = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {FIND_CUSTOMER}"))
            .expect("plan");
        let plan: Vec<String> = stmt
            .query_map(params!["p", "c", "s", "crm", "e"], |r| r.get(3))
            .expect("rows")
            .collect::<rusqlite::Result<_>>()
            .expect("plan");
        let plan = plan.join("\n");
        assert!(plan.contains("MULTI-INDEX OR"), "{plan}");
        for index in [
            "customers_by_id",
            "customers_by_channel",
            "customers_by_crm",
            "customers_by_enterprise",
        ] {
            assert!(plan.contains(index), "{index} unused:\n{plan}");
        }
    }

    #[test]
    fn a_batch_teaches_products_at_any_depth_packages_and_its_customer() {
        let dir = tempfile::tempdir().expect("dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite3")).expect("open");
        catalog
            .learn(SHARED, "Sandbox", &Learned::of_batch(&sold()), 10)
            .expect("learn");
        let products = catalog.products(SHARED).expect("products");
        let uris: Vec<&str> = products.iter().map(|k| k.key.as_str()).collect();
        assert_eq!(uris, ["gms:1", "gms:2", "gms:3"]);
        // What belongs to the sale is not the product's.
        assert_eq!(products[0].item.limit_concurrent, Some(2));
        assert!(products[0].item.passwords.is_empty());
        assert_eq!(products[0].item.limit_end_date, None);
        let packages = catalog.packages(SHARED).expect("packages");
        assert_eq!(packages.len(), 1);
        assert_eq!(packages[0].key, "PKG-1");
        let child = &packages[0].item.children.as_ref().expect("children")[0];
        assert_eq!(child.merchandise_num.as_deref(), Some("PKG-1-A"));
        let customers = catalog.customers("Sandbox").expect("customers");
        assert_eq!(customers.len(), 1);
        assert_eq!(
            customers[0].item.customer_name.as_deref(),
            Some("广州示例有限公司")
        );
        assert_eq!(customers[0].item.channel_code.as_deref(), Some("SHOP"));
    }

    /// A file that names one product and one customer many times: each is learned as its
    /// mentions in order (a later non-empty field over an earlier one) and counted once.
    #[test]
    fn mentions_of_an_item_in_one_file_are_combined_in_order_and_counted_once() {
        let dir = tempfile::tempdir().expect("dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite3")).expect("open");
        let order = |name: &str, products: serde_json::Value| {
            serde_json::json!({"orderType": "new_buy", "channelCustomerId": "S-9",
                "customerName": name, "assets": [{"assetNos": ["8000000001"],
                "products": products}]})
        };
        let file = batch(serde_json::json!({"channelCode": "SHOP", "orderList": [
            order("甲", serde_json::json!([{"productUri": "gms:9", "productName": "旧名",
                                           "limitConcurrent": 1}])),
            order("乙", serde_json::json!([{"productUri": "gms:9", "limitConcurrent": 5}])),
            order("乙", serde_json::json!([{"productUri": "gms:9", "limitConcurrent": 5}])),
            order("丙", serde_json::json!([{"productUri": "gms:9", "productName": "新名"}])),
        ]}));
        let report = catalog
            .learn(SHARED, "p", &Learned::of_batch(&file), 10)
            .expect("learn");
        assert_eq!((report.products.new, report.products.changed), (1, 0));
        assert_eq!((report.customers.new, report.customers.changed), (1, 0));
        let product = catalog.products(SHARED).expect("products").remove(0);
        assert_eq!(product.item.product_name.as_deref(), Some("新名"));
        assert_eq!(product.item.limit_concurrent, Some(5));
        let customers = catalog.customers("p").expect("customers");
        assert_eq!(customers.len(), 1);
        assert_eq!(customers[0].item.customer_name.as_deref(), Some("丙"));
    }

    #[test]
    fn a_later_definition_updates_without_erasing_and_keeps_when_it_was_seen() {
        let dir = tempfile::tempdir().expect("dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite3")).expect("open");
        catalog
            .learn(SHARED, "p", &Learned::of_batch(&sold()), 10)
            .expect("learn");
        let delete = batch(
            serde_json::json!({"orderList": [{"orderType": "delete_product",
            "assets": [{"assetNos": ["8000000001"],
                        "products": [{"productUri": "gms:1", "limitConcurrent": 3}]}]}]}),
        );
        catalog
            .learn(SHARED, "p", &Learned::of_batch(&delete), 20)
            .expect("learn");
        let product = catalog.products(SHARED).expect("products").remove(0);
        assert_eq!(product.item.product_name.as_deref(), Some("计价软件"));
        assert_eq!(product.item.limit_concurrent, Some(3));
        assert_eq!(product.last_seen, 20);
        catalog
            .used(SHARED, Shelf::Products, "gms:1", 30)
            .expect("used");
        assert_eq!(
            catalog.products(SHARED).expect("products")[0].last_used,
            Some(30)
        );
        // An edit replaces: a field cleared stays cleared.
        let mut edited = product.item.clone();
        edited.product_name = None;
        edited.gms_pid = Some("1".into());
        assert!(catalog.put_product(SHARED, &edited).expect("put"));
        let again = catalog.products(SHARED).expect("products").remove(0);
        assert_eq!(
            (again.item.product_name, again.item.gms_pid.as_deref()),
            (None, Some("1"))
        );
        assert!(
            catalog
                .remove(SHARED, Shelf::Products, "gms:1")
                .expect("remove")
        );
        assert_eq!(catalog.products(SHARED).expect("products").len(), 2);
    }

    #[test]
    fn the_directory_is_per_profile_and_merges_what_names_the_same_customer() {
        let dir = tempfile::tempdir().expect("dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite3")).expect("open");
        let entry = |json: serde_json::Value| -> DirectoryEntry {
            serde_json::from_value(json).expect("entry")
        };
        let learned = |customers| Learned {
            customers,
            ..Learned::default()
        };
        let enterprise = entry(serde_json::json!({"crmCustomerId": "CRM-1",
            "customerName": "北京示例", "enterpriseGlobalId": "EG1"}));
        let bound = entry(
            serde_json::json!({"customerId": "C1", "channelCode": "SHOP",
            "channelCustomerId": "S-1", "enterpriseGlobalId": "EG1"}),
        );
        let other_channel = entry(serde_json::json!({"customerId": "C2",
            "channelCustomerId": "S-2", "enterpriseGlobalId": "EG1"}));
        catalog
            .learn(SHARED, "Sandbox", &learned(vec![enterprise]), 1)
            .expect("learn");
        catalog
            .learn(SHARED, "Sandbox", &learned(vec![bound, other_channel]), 2)
            .expect("learn");
        let known = catalog.customers("Sandbox").expect("customers");
        assert_eq!(known.len(), 2, "{known:?}");
        assert_eq!(known[0].item.customer_id.as_deref(), Some("C1"));
        assert_eq!(known[0].item.crm_customer_id.as_deref(), Some("CRM-1"));
        assert_eq!(known[1].item.customer_id.as_deref(), Some("C2"));
        // Another profile knows none of them.
        assert!(
            catalog
                .customers("Production")
                .expect("customers")
                .is_empty()
        );
        catalog
            .profile_renamed("Sandbox", "Training")
            .expect("rename");
        assert_eq!(catalog.customers("Training").expect("customers").len(), 2);
        catalog.profile_removed("Training").expect("remove");
        assert!(catalog.customers("Training").expect("customers").is_empty());
    }

    #[test]
    fn a_catalog_of_before_the_scopes_is_the_shared_one_and_a_profile_s_own_follows_it() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("catalog.sqlite3");
        {
            let old = Connection::open(&path).expect("old");
            old.execute_batch(
                "CREATE TABLE products (key TEXT PRIMARY KEY, body TEXT NOT NULL,
                     first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, last_used INTEGER);
                 CREATE TABLE packages (key TEXT PRIMARY KEY, body TEXT NOT NULL,
                     first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, last_used INTEGER);
                 INSERT INTO products VALUES ('gms:9', '{\"productUri\":\"gms:9\"}', 1, 2, 3);",
            )
            .expect("old schema");
        }
        let catalog = Catalog::open(&path).expect("open");
        let kept = catalog.products(SHARED).expect("products");
        assert_eq!(
            (kept[0].key.as_str(), kept[0].last_used),
            ("gms:9", Some(3))
        );
        // Seeding is for a new catalog only: this one was kept before the mark.
        let mut seeded = false;
        catalog
            .seed_once(|_| {
                seeded = true;
                Ok(())
            })
            .expect("seed");
        assert!(!seeded);

        catalog
            .learn("Solo", "Solo", &Learned::of_batch(&sold()), 5)
            .expect("learn");
        assert_eq!(catalog.products("Solo").expect("own").len(), 3);
        assert_eq!(catalog.products(SHARED).expect("shared").len(), 1);
        catalog.profile_renamed("Solo", "Alone").expect("rename");
        assert_eq!(catalog.products("Alone").expect("own").len(), 3);
        catalog.profile_removed("Alone").expect("remove");
        assert!(catalog.products("Alone").expect("own").is_empty());
        assert_eq!(catalog.products(SHARED).expect("shared").len(), 1);
    }

    /// A file imported over a customer the platform taught keeps the platform's fields (it
    /// only fills what is missing) unless told to overwrite; a dry run changes nothing and
    /// reports the same counts.
    #[test]
    fn an_import_keeps_what_the_platform_said_unless_told() {
        let dir = tempfile::tempdir().expect("dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite3")).expect("open");
        let customer = |name: &str, address: Option<&str>| DirectoryEntry {
            customer_id: Some("C-1".into()),
            customer_name: Some(name.into()),
            address: address.map(Into::into),
            ..Default::default()
        };
        let learned = |c: DirectoryEntry| Learned {
            customers: vec![c],
            ..Default::default()
        };
        catalog
            .learn(SHARED, "p", &learned(customer("平台名称", None)), 1)
            .expect("learn");
        let file = learned(customer("文件名称", Some("上海")));
        let names = || {
            let c = catalog.customers("p").expect("customers");
            (c[0].item.customer_name.clone(), c[0].item.address.clone())
        };

        let look = Import::default();
        let report = catalog
            .import(SHARED, "p", &file, 2, look)
            .expect("dry run");
        let expected = Counts {
            changed: 1,
            kept: 1,
            ..Default::default()
        };
        assert_eq!(report.customers, expected);
        assert_eq!(
            names(),
            (Some("平台名称".into()), None),
            "a dry run changes nothing"
        );

        let apply = Import {
            apply: true,
            overwrite: false,
        };
        let report = catalog
            .import(SHARED, "p", &file, 3, apply)
            .expect("import");
        assert_eq!(report.customers, expected);
        assert_eq!(
            names(),
            (Some("平台名称".into()), Some("上海".into())),
            "the platform's name kept, the missing address filled"
        );
        let again = catalog.import(SHARED, "p", &file, 4, apply).expect("again");
        let kept_only = Counts {
            unchanged: 1,
            kept: 1,
            ..Default::default()
        };
        assert_eq!(again.customers, kept_only);

        let overwrite = Import {
            apply: true,
            overwrite: true,
        };
        let report = catalog
            .import(SHARED, "p", &file, 5, overwrite)
            .expect("overwrite");
        assert_eq!(report.customers.changed, 1);
        assert_eq!(names(), (Some("文件名称".into()), Some("上海".into())));

        // What the file wrote is no longer the platform's: the next file changes it freely.
        let later = learned(customer("再次改名", None));
        let report = catalog
            .import(SHARED, "p", &later, 6, apply)
            .expect("later");
        assert_eq!(report.customers.kept, 0);
        assert_eq!(names().0, Some("再次改名".into()));
    }
}
