//! Operation 9: asset numbers, 10 digits: the region, then a 9-digit counter that never repeats.

use crate::error::OpError;
use crate::sql;
use crate::store::bump_counter;

const COUNTER: &str = "shellnum";
const LAST: i64 = 999_999_999;

pub fn allocate(tx: &dyn sql::Tx, region: u8, size: i32) -> Result<Vec<String>, OpError> {
    // Every allocation bumps the one counter row: on PostgreSQL, instances wait for each other
    // here instead of failing to serialize and running again (docs/postgres.md).
    tx.serialize_on("counter:shellnum")?;
    let size = i64::from(size);
    let Some(last) = bump_counter(tx, COUNTER, size, LAST)? else {
        let used = tx.query_one(
            "SELECT value FROM counters WHERE name = ?1",
            &[COUNTER.into()],
            |r| r.i64(0),
        )?;
        return Err(OpError::refused(
            "size",
            format!("only {} asset numbers are left", LAST - used),
        ));
    };
    Ok((last - size + 1..=last)
        .map(|n| format!("{region}{n:09}"))
        .collect())
}
