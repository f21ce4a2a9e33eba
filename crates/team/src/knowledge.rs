//! The team's shared knowledge (table `knowledge`): the catalog's products and packages and the
//! directory's customers, written by the consoles and read back by each as the changes since
//! it last read. Every change is numbered in one sequence, whatever the instance.

use std::ops::ControlFlow;

use db::sql::{Row, StoreError};
use serde_json::Value;
use wire::knowledge::{Change, Changes, MAX_KEY, MAX_PUTS, PAGE, Put, Shelf};
use wire::{MerchandiseEntry, ProductEntry};

use crate::error::TeamError;
use crate::identity::name_key;
use crate::people::Branch;
use crate::store::TeamStore;

/// The changes after `since`, oldest first, a page at most.
pub async fn changes(store: &TeamStore, since: i64) -> Result<Changes, TeamError> {
    let mut found = store
        .read(move |tx| {
            let mut all = Vec::new();
            tx.query_each(
                "SELECT seq, shelf, item_key, value, changed_at, changed_by FROM knowledge \
                 WHERE seq > ?1 ORDER BY seq LIMIT ?2",
                &[since.into(), (PAGE + 1).into()],
                &mut |row| {
                    all.push(change(row)?);
                    Ok(ControlFlow::Continue(()))
                },
            )?;
            Ok::<_, TeamError>(all)
        })
        .await?;
    let more = found.len() as i64 > PAGE;
    found.truncate(PAGE as usize);
    let last = found.last().map_or(since, |c| c.seq);
    Ok(Changes {
        changes: found,
        last,
        more,
    })
}

fn change(row: &dyn Row) -> Result<Change, StoreError> {
    let shelf = row.text(1)?;
    Ok(Change {
        seq: row.i64(0)?,
        shelf: Shelf::from_name(&shelf)
            .ok_or_else(|| StoreError::Failure(format!("an item on the shelf {shelf:?}")))?,
        key: row.text(2)?,
        value: row
            .opt_text(3)?
            .map(|v| serde_json::from_str(&v))
            .transpose()
            .map_err(|e| StoreError::Failure(format!("an item that cannot be read: {e}")))?,
        changed_at: row.i64(4)?,
        changed_by: row.text(5)?,
    })
}

/// Writes the items (a value, or a removal) as one change each, in order; answers the last
/// change's number. Every item is checked before any is written. A directory entry's fields
/// are added to what is known of it (a batch naming only the customer's channel id keeps the
/// names its binding taught); a product or package is replaced whole (an edit is the item).
pub async fn put(store: &TeamStore, person: &str, puts: Vec<Put>) -> Result<i64, TeamError> {
    check(&puts)?;
    let person = person.to_owned();
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            tx.serialize_on("knowledge")?;
            let last = tx.query_opt("SELECT MAX(seq) FROM knowledge", &[], |row| row.opt_i64(0))?;
            let mut seq = last.flatten().unwrap_or(0);
            for p in &puts {
                seq += 1;
                let (shelf, key) = (p.shelf.name(), p.key.trim());
                let value = match (p.shelf, &p.value) {
                    (Shelf::Customers, Some(new)) => Some(known_with(tx, key, new)?),
                    (_, value) => value.clone(),
                };
                let value = value.as_ref().map(Value::to_string);
                tx.execute(
                    "DELETE FROM knowledge WHERE shelf = ?1 AND item_key = ?2",
                    &[shelf.into(), key.into()],
                )?;
                tx.execute(
                    "INSERT INTO knowledge(shelf, item_key, value, seq, changed_at, changed_by) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    &[
                        shelf.into(),
                        key.into(),
                        value.as_deref().into(),
                        seq.into(),
                        now.into(),
                        (&person).into(),
                    ],
                )?;
            }
            Ok(seq)
        })
        .await
}

/// A directory entry as known (under `key`) with `new`'s fields over it: a field `new` leaves
/// out or null stays as it was.
fn known_with(tx: &dyn db::sql::Tx, key: &str, new: &Value) -> Result<Value, StoreError> {
    let known = tx.query_opt(
        "SELECT value FROM knowledge WHERE shelf = ?1 AND item_key = ?2",
        &[Shelf::Customers.name().into(), key.into()],
        |row| row.opt_text(0),
    )?;
    let known = known
        .flatten()
        .and_then(|v| serde_json::from_str::<Value>(&v).ok());
    let (Some(Value::Object(mut fields)), Value::Object(given)) = (known, new) else {
        return Ok(new.clone());
    };
    for (name, value) in given {
        if !value.is_null() {
            fields.insert(name.clone(), value.clone());
        }
    }
    Ok(Value::Object(fields))
}

/// The values kept under `keys` on `shelf` (None where there is none).
pub async fn values(
    store: &TeamStore,
    shelf: Shelf,
    keys: Vec<String>,
) -> Result<Vec<Option<Value>>, TeamError> {
    store
        .read(move |tx| {
            let mut found = Vec::new();
            for key in &keys {
                let value = tx.query_opt(
                    "SELECT value FROM knowledge WHERE shelf = ?1 AND item_key = ?2",
                    &[shelf.name().into(), key.trim().into()],
                    |row| row.opt_text(0),
                )?;
                found.push(value.flatten().and_then(|v| serde_json::from_str(&v).ok()));
            }
            Ok::<_, TeamError>(found)
        })
        .await
}

/// The branch a directory entry names, when it is not `mine` (by code or by name).
pub fn other_branch(entry: &Value, mine: &Branch) -> Option<String> {
    let field = |name: &str| entry.get(name).and_then(Value::as_str).map(str::trim);
    let differs = |v: &str, own: &str| !v.is_empty() && name_key(v) != name_key(own);
    match (field("branchCode"), field("branchName")) {
        (Some(code), _) if differs(code, &mine.code) => Some(code.to_owned()),
        (_, Some(name)) if differs(name, &mine.name) => Some(name.to_owned()),
        _ => None,
    }
}

/// Each item's key and value, the field's path first.
fn check(puts: &[Put]) -> Result<(), TeamError> {
    if puts.len() > MAX_PUTS {
        return Err(TeamError::Invalid(format!(
            "body: {} items at once; {MAX_PUTS} at most",
            puts.len()
        )));
    }
    for (i, p) in puts.iter().enumerate() {
        let key = p.key.trim();
        if key.is_empty() || key.chars().count() > MAX_KEY {
            return Err(TeamError::Invalid(format!(
                "[{i}].key: between 1 and {MAX_KEY} characters"
            )));
        }
        let Some(value) = &p.value else { continue };
        let fits = match p.shelf {
            Shelf::Products => serde_json::from_value::<ProductEntry>(value.clone()).is_ok(),
            Shelf::Packages => serde_json::from_value::<MerchandiseEntry>(value.clone()).is_ok(),
            Shelf::Customers => value.is_object(),
        };
        if !fits || !value.is_object() {
            return Err(TeamError::Invalid(format!(
                "[{i}].value: not a {} item",
                p.shelf.name()
            )));
        }
    }
    Ok(())
}
