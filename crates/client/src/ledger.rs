//! The write ledger's steps, once for every store that keeps one: the console's journal file
//! (a write owned by the run that sends it) and the team server's SQLite or PostgreSQL store
//! (owned by the instance that forwards it). A write is begun in flight before anything leaves,
//! marked as leaving before its first request is written, and ended with its answer; one whose
//! owner ended first is settled: not sent when it never left, else unknown (the platform may
//! have done it).
//!
//! Each store names its own table and columns with [`ledger_table!`]; the statements are made
//! at compile time, since a store caches them by their `&'static str`.

use db::sql::{StoreError, Tx};

use crate::{WriteBegun, WriteEnded};

/// One store's ledger table: its statements, made by [`ledger_table!`].
pub struct Table {
    pub begin: &'static str,
    pub sending: &'static str,
    pub end: &'static str,
    pub in_flight_owners: &'static str,
    pub settle: &'static str,
}

/// The statements of a ledger table named `$table`, whose column `$party` holds who the write
/// is made for (a profile, a person) and `$owner` what sends it (a run, an instance). The
/// other columns are the ledger's own: `call_id, operation, channel_order_id, body_hash,
/// items, started_at, ended_at, state, code, detail, attempts, sending_at`.
#[macro_export]
macro_rules! ledger_table {
    ($table:literal, $party:literal, $owner:literal) => {
        $crate::ledger::Table {
            begin: concat!(
                "INSERT INTO ",
                $table,
                "(call_id, ",
                $party,
                ", ",
                $owner,
                ", operation, ",
                "channel_order_id, body_hash, items, started_at, state) ",
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'in_flight')"
            ),
            sending: concat!(
                "UPDATE ",
                $table,
                " SET sending_at = COALESCE(sending_at, ?2) ",
                "WHERE call_id = ?1 AND ",
                $owner,
                " = ?3 AND state = 'in_flight'"
            ),
            end: concat!(
                "UPDATE ",
                $table,
                " SET state = ?2, code = ?3, detail = ?4, attempts = ?5, ",
                "ended_at = ?6 WHERE call_id = ?1"
            ),
            in_flight_owners: concat!(
                "SELECT DISTINCT ",
                $owner,
                " FROM ",
                $table,
                " WHERE state = 'in_flight'"
            ),
            settle: concat!(
                "UPDATE ",
                $table,
                " SET ",
                "state = CASE WHEN sending_at IS NULL THEN 'not_sent' ELSE 'unknown' END, ",
                "detail = CASE WHEN sending_at IS NULL THEN ?3 ELSE ?2 END, ended_at = ?4 ",
                "WHERE state = 'in_flight' AND ",
                $owner,
                " = ?1"
            ),
        }
    };
}

/// Why an owner's writes in flight were settled, in the words kept as their detail.
#[derive(Debug, Clone, Copy)]
pub struct Settling<'a> {
    /// For a write that had left: its outcome is unknown.
    pub left: &'a str,
    /// For one that never left: provably not sent.
    pub not_left: &'a str,
}

/// Records a write in flight, made for `party` and sent by `owner`, before anything leaves.
pub fn begin(
    tx: &dyn Tx,
    table: &Table,
    party: &str,
    owner: &str,
    w: &WriteBegun,
) -> Result<(), StoreError> {
    tx.execute(
        table.begin,
        &[
            (&w.call_id).into(),
            party.into(),
            owner.into(),
            w.operation.name().into(),
            w.channel_order_id.as_deref().into(),
            (&w.body_hash).into(),
            i64::try_from(w.items).unwrap_or(i64::MAX).into(),
            w.started_at_ms.into(),
        ],
    )?;
    Ok(())
}

/// Marks a write as leaving (kept from its first request on), only while it is still in flight
/// and `owner`'s: a compare-and-set, so a write settled meanwhile (its owner taken for ended)
/// is never sent. Answers whether it was marked.
pub fn sending(
    tx: &dyn Tx,
    table: &Table,
    call_id: &str,
    owner: &str,
    at: i64,
) -> Result<bool, StoreError> {
    let marked = tx.execute(table.sending, &[call_id.into(), at.into(), owner.into()])?;
    Ok(marked == 1)
}

/// Records how a write ended.
pub fn end(tx: &dyn Tx, table: &Table, w: &WriteEnded) -> Result<(), StoreError> {
    tx.execute(
        table.end,
        &[
            (&w.call_id).into(),
            w.state.name().into(),
            w.code.as_deref().into(),
            w.detail.as_deref().into(),
            i64::from(w.attempts).into(),
            w.ended_at_ms.into(),
        ],
    )?;
    Ok(())
}

/// The owners that have writes in flight.
pub fn in_flight_owners(tx: &dyn Tx, table: &Table) -> Result<Vec<String>, StoreError> {
    tx.query_vec(table.in_flight_owners, &[], |row| row.text(0))
}

/// Settles `owner`'s writes in flight, as it has ended: not sent, or unknown. Answers how many.
pub fn settle(
    tx: &dyn Tx,
    table: &Table,
    owner: &str,
    why: Settling<'_>,
    at: i64,
) -> Result<usize, StoreError> {
    tx.execute(
        table.settle,
        &[
            owner.into(),
            why.left.into(),
            why.not_left.into(),
            at.into(),
        ],
    )
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::*;
    use crate::Operation;

    const TABLE: Table = ledger_table!("w", "party", "owner");

    fn store() -> Connection {
        let conn = Connection::open_in_memory().expect("open");
        conn.execute_batch(
            "CREATE TABLE w(call_id TEXT PRIMARY KEY, party TEXT, owner TEXT, operation TEXT, \
             channel_order_id TEXT, body_hash TEXT, items INTEGER, started_at INTEGER, \
             ended_at INTEGER, state TEXT, code TEXT, detail TEXT, attempts INTEGER, \
             sending_at INTEGER)",
        )
        .expect("table");
        conn
    }

    fn begun(call_id: &str) -> WriteBegun {
        WriteBegun {
            call_id: call_id.to_owned(),
            operation: Operation::Lock,
            channel_order_id: None,
            body_hash: "h".to_owned(),
            items: 2,
            started_at_ms: 1,
        }
    }

    fn row(conn: &Connection, call_id: &str) -> (String, Option<String>, Option<i64>) {
        conn.query_row(
            "SELECT state, detail, ended_at FROM w WHERE call_id = ?1",
            [call_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("row")
    }

    /// A write that left is unknown when its owner ends, one that never left is not sent, and
    /// another owner's is left alone; a settled write is never marked as leaving again.
    #[test]
    fn an_ended_owners_writes_settle_by_whether_they_left() {
        let conn = store();
        let tx: &dyn Tx = &conn;
        for (id, owner) in [("a", "r1"), ("b", "r1"), ("c", "r2")] {
            begin(tx, &TABLE, "p", owner, &begun(id)).expect("begin");
        }
        assert!(sending(tx, &TABLE, "a", "r1", 5).expect("sending"));
        assert!(!sending(tx, &TABLE, "c", "r1", 5).expect("not r1's"));
        let mut owners = in_flight_owners(tx, &TABLE).expect("owners");
        owners.sort();
        assert_eq!(owners, ["r1", "r2"]);
        let why = Settling {
            left: "may be done",
            not_left: "never left",
        };
        assert_eq!(settle(tx, &TABLE, "r1", why, 9).expect("settle"), 2);
        assert_eq!(
            row(&conn, "a"),
            (
                "unknown".to_owned(),
                Some("may be done".to_owned()),
                Some(9)
            )
        );
        assert_eq!(
            row(&conn, "b"),
            (
                "not_sent".to_owned(),
                Some("never left".to_owned()),
                Some(9)
            )
        );
        assert_eq!(row(&conn, "c"), ("in_flight".to_owned(), None, None));
        assert!(!sending(tx, &TABLE, "b", "r1", 10).expect("settled"));
    }
}
