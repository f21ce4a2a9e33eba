//! Operation 9: asset numbers, 10 digits: the region, then a 9-digit counter that never repeats.

use rusqlite::Transaction;

use crate::platform::error::OpError;
use crate::platform::store::bump_counter;

const COUNTER: &str = "shellnum";
const LAST: i64 = 999_999_999;

pub fn allocate(tx: &Transaction<'_>, region: u8, size: i32) -> Result<Vec<String>, OpError> {
    let size = i64::from(size);
    let Some(last) = bump_counter(tx, COUNTER, size, LAST)? else {
        let used: i64 = tx.query_row(
            "SELECT value FROM counters WHERE name = ?1",
            [COUNTER],
            |r| r.get(0),
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
