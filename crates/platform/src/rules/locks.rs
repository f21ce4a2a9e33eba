//! Operations 6 and 7: disabling (`lock`) and enabling (`unlock`) locks, each asset apart.

use std::collections::HashMap;

use crate::error::OpError;
use crate::sql;
use wire::asset::lockable;
use wire::validate::asset_num_problem;
use wire::{LockResult, LockStatus};

/// Sets `locked` on every lockable asset named; one status per number, in the order given.
pub fn set_locked(
    tx: &dyn sql::Tx,
    asset_nums: &[String],
    locked: bool,
    operator: &str,
    app_key: &str,
    now: i64,
) -> Result<Vec<LockResult>, OpError> {
    let mut done: HashMap<&str, LockStatus> = HashMap::new();
    let mut results = Vec::with_capacity(asset_nums.len());
    for num in asset_nums {
        let status = match done.get(num.as_str()) {
            Some(status) => *status,
            None => {
                let status = one(tx, num, locked, operator, app_key, now)?;
                done.insert(num, status);
                status
            }
        };
        results.push(LockResult {
            asset_num: num.clone(),
            status,
        });
    }
    Ok(results)
}

fn one(
    tx: &dyn sql::Tx,
    num: &str,
    locked: bool,
    operator: &str,
    app_key: &str,
    now: i64,
) -> Result<LockStatus, OpError> {
    if asset_num_problem(num).is_some() {
        return Ok(LockStatus::Failed);
    }
    let found = tx.query_opt(
        "SELECT id, license_type, limit_start IS NOT NULL OR limit_end IS NOT NULL, locked \
         FROM assets WHERE asset_num = ?1",
        &[num.into()],
        |r| Ok((r.i64(0)?, r.text(1)?, r.bool(2)?, r.bool(3)?)),
    )?;
    let Some((id, license_type, has_limits, was_locked)) = found else {
        return Ok(LockStatus::NotFound);
    };
    if !lockable(&license_type, has_limits) {
        return Ok(LockStatus::WrongType);
    }
    if was_locked == locked {
        return Ok(LockStatus::Success);
    }
    tx.execute(
        "UPDATE assets SET locked = ?2, updated_at = ?3 WHERE id = ?1",
        &[id.into(), locked.into(), now.into()],
    )?;
    tx.execute(
        "INSERT INTO lock_events(asset_num, locked, operator, app_key, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        &[
            num.into(),
            locked.into(),
            operator.into(),
            app_key.into(),
            now.into(),
        ],
    )?;
    Ok(LockStatus::Success)
}
