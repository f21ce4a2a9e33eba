//! Operations 6 and 7: disabling (`lock`) and enabling (`unlock`) locks, each asset apart.
//!
//! The assets are read, each number's status decided, then the locks that change are written
//! with their events. On PostgreSQL each step is one statement for every number of the call
//! (a round trip costs more there than a row); on SQLite one per number, in process.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use crate::error::OpError;
use crate::sql::{self, Dialect, Row, StoreError};
use wire::asset::lockable;
use wire::validate::asset_num_problem;
use wire::{LockResult, LockStatus};

/// What a lock call reads of an asset.
struct Found {
    id: i64,
    license_type: String,
    has_limits: bool,
    locked: bool,
}

/// Who changed the locks, and when.
struct Change<'a> {
    locked: bool,
    operator: &'a str,
    app_key: &'a str,
    now: i64,
}

/// Sets `locked` on every lockable asset named; one status per number, in the order given.
pub fn set_locked(
    tx: &dyn sql::Tx,
    asset_nums: &[String],
    locked: bool,
    operator: &str,
    app_key: &str,
    now: i64,
) -> Result<Vec<LockResult>, OpError> {
    let mut wanted: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for num in asset_nums {
        if asset_num_problem(num).is_none() && seen.insert(num.as_str()) {
            wanted.push(num.clone());
        }
    }
    let found = find(tx, &wanted)?;
    let mut to_change = Vec::new();
    let results = asset_nums
        .iter()
        .map(|num| {
            let status = match found.get(num) {
                _ if asset_num_problem(num).is_some() => LockStatus::Failed,
                None => LockStatus::NotFound,
                Some(a) if !lockable(&a.license_type, a.has_limits) => LockStatus::WrongType,
                Some(a) => {
                    if a.locked != locked && seen.remove(num.as_str()) {
                        to_change.push((a.id, num.clone()));
                    }
                    LockStatus::Success
                }
            };
            LockResult {
                asset_num: num.clone(),
                status,
            }
        })
        .collect();
    let change = Change {
        locked,
        operator,
        app_key,
        now,
    };
    write(tx, &to_change, &change)?;
    Ok(results)
}

/// The assets of these numbers (valid and distinct), by number.
fn find(tx: &dyn sql::Tx, nums: &[String]) -> Result<HashMap<String, Found>, StoreError> {
    let mut found = HashMap::with_capacity(nums.len());
    let mut keep = |r: &dyn Row| -> Result<(), StoreError> {
        let asset = Found {
            id: r.i64(0)?,
            license_type: r.text(2)?,
            has_limits: r.bool(3)?,
            locked: r.bool(4)?,
        };
        found.insert(r.text(1)?, asset);
        Ok(())
    };
    match tx.dialect() {
        Dialect::Postgres => tx.query_each(
            "/* PostgreSQL */ SELECT id, asset_num, license_type, \
             limit_start IS NOT NULL OR limit_end IS NOT NULL, locked \
             FROM assets WHERE asset_num = ANY(?1)",
            &[nums.into()],
            &mut |r| keep(r).map(|()| ControlFlow::Continue(())),
        )?,
        Dialect::Sqlite => {
            for num in nums {
                tx.query_opt(
                    "SELECT id, asset_num, license_type, \
                     limit_start IS NOT NULL OR limit_end IS NOT NULL, locked \
                     FROM assets WHERE asset_num = ?1",
                    &[num.into()],
                    &mut keep,
                )?;
            }
        }
    }
    Ok(found)
}

/// Sets the lock of each asset (row id, number) that is not yet as asked, and records an
/// event for each one changed, in the order given. A lock changed meanwhile by another call is
/// left alone, without an event: the call's answer (success) holds all the same.
fn write(tx: &dyn sql::Tx, assets: &[(i64, String)], c: &Change<'_>) -> Result<(), StoreError> {
    if assets.is_empty() {
        return Ok(());
    }
    match tx.dialect() {
        Dialect::Postgres => {
            let (ids, nums): (Vec<i64>, Vec<String>) = assets.iter().cloned().unzip();
            // Rows are locked in one order (by id), so two calls over the same assets wait
            // for each other instead of deadlocking.
            tx.execute(
                "/* PostgreSQL */ WITH changed AS (UPDATE assets SET locked = ?2, updated_at = ?3 \
                 WHERE id IN (SELECT id FROM assets WHERE id = ANY(?1) AND locked <> ?2 \
                 ORDER BY id FOR UPDATE) RETURNING asset_num) \
                 INSERT INTO lock_events(asset_num, locked, operator, app_key, at) \
                 SELECT w.num, ?2, ?4, ?5, ?3 FROM unnest(?6::text[]) WITH ORDINALITY AS w(num, i) \
                 JOIN changed ON changed.asset_num = w.num ORDER BY w.i",
                &[
                    ids.as_slice().into(),
                    c.locked.into(),
                    c.now.into(),
                    c.operator.into(),
                    c.app_key.into(),
                    nums.as_slice().into(),
                ],
            )?;
        }
        Dialect::Sqlite => {
            for (id, num) in assets {
                tx.execute(
                    "UPDATE assets SET locked = ?2, updated_at = ?3 WHERE id = ?1",
                    &[(*id).into(), c.locked.into(), c.now.into()],
                )?;
                tx.execute(
                    "INSERT INTO lock_events(asset_num, locked, operator, app_key, at) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    &[
                        num.into(),
                        c.locked.into(),
                        c.operator.into(),
                        c.app_key.into(),
                        c.now.into(),
                    ],
                )?;
            }
        }
    }
    Ok(())
}
