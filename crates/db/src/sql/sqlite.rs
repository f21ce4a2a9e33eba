//! [`Tx`] on a rusqlite transaction: statements from the connection's cache, values bound
//! without copying.

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ToSql, Transaction, params_from_iter};

use super::{EachRow, Row, StoreError, Tx, Value};

impl ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Null => ValueRef::Null,
            Value::Int(n) => ValueRef::Integer(n),
            Value::Bool(b) => ValueRef::Integer(i64::from(b)),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Bytes(b) => ValueRef::Blob(b),
            Value::Texts(_)
            | Value::Ints(_)
            | Value::OptTexts(_)
            | Value::OptInts(_)
            | Value::Bools(_) => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    "a list is bound only on PostgreSQL (sql::Dialect)".into(),
                ));
            }
        }))
    }
}

/// A connection outside a transaction (each statement its own, as the console's files run
/// them).
impl Tx for Connection {
    fn execute(&self, sql: &'static str, params: &[Value<'_>]) -> Result<usize, StoreError> {
        Ok(self
            .prepare_cached(sql)?
            .execute(params_from_iter(params))?)
    }

    fn query_each(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        each: &mut EachRow<'_>,
    ) -> Result<(), StoreError> {
        let mut stmt = self.prepare_cached(sql)?;
        let mut rows = stmt.query(params_from_iter(params))?;
        while let Some(row) = rows.next()? {
            if each(row)?.is_break() {
                break;
            }
        }
        Ok(())
    }
}

impl Tx for Transaction<'_> {
    fn execute(&self, sql: &'static str, params: &[Value<'_>]) -> Result<usize, StoreError> {
        Tx::execute(&**self, sql, params)
    }

    fn query_each(
        &self,
        sql: &'static str,
        params: &[Value<'_>],
        each: &mut EachRow<'_>,
    ) -> Result<(), StoreError> {
        Tx::query_each(&**self, sql, params, each)
    }
}

impl Row for rusqlite::Row<'_> {
    fn i64(&self, i: usize) -> Result<i64, StoreError> {
        Ok(self.get(i)?)
    }

    fn opt_i64(&self, i: usize) -> Result<Option<i64>, StoreError> {
        Ok(self.get(i)?)
    }

    fn text(&self, i: usize) -> Result<String, StoreError> {
        Ok(self.get(i)?)
    }

    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.get(i)?)
    }

    fn bytes(&self, i: usize) -> Result<Vec<u8>, StoreError> {
        Ok(self.get(i)?)
    }

    fn bool(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.get(i)?)
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::*;

    /// Every kind of value goes in and comes back as written; a query stops where it is told.
    #[test]
    fn values_round_trip_and_queries_stop_early() {
        let mut conn = Connection::open_in_memory().expect("open");
        let tx = conn.transaction().expect("tx");
        let tx: &dyn Tx = &tx;
        tx.execute(
            "CREATE TABLE t(n INTEGER, s TEXT, b BLOB, f INTEGER, z TEXT)",
            &[],
        )
        .expect("table");
        for n in 1..=3_i64 {
            let inserted = tx
                .execute(
                    "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)",
                    &[
                        n.into(),
                        "上海".into(),
                        (&b"\x00\x01"[..]).into(),
                        (n == 2).into(),
                        Option::<&str>::None.into(),
                    ],
                )
                .expect("insert");
            assert_eq!(inserted, 1);
        }
        let row = tx
            .query_one(
                "SELECT n, s, b, f, z, z IS NULL FROM t WHERE n = ?1",
                &[2_i64.into()],
                |r| {
                    Ok((
                        r.i64(0)?,
                        r.text(1)?,
                        r.bytes(2)?,
                        r.bool(3)?,
                        r.opt_text(4)?,
                        r.bool(5)?,
                    ))
                },
            )
            .expect("row");
        assert_eq!(row, (2, "上海".to_owned(), vec![0, 1], true, None, true));
        let first = tx
            .query_opt("SELECT n FROM t ORDER BY n DESC", &[], |r| r.i64(0))
            .expect("first");
        assert_eq!(first, Some(3));
        let none = tx
            .query_opt("SELECT n FROM t WHERE n > 3", &[], |r| r.opt_i64(0))
            .expect("none");
        assert_eq!(none, None);
        assert!(matches!(
            tx.query_one("SELECT n FROM t WHERE n > 3", &[], |r| r.i64(0)),
            Err(StoreError::NoRow(_))
        ));
        let all = tx
            .query_vec("SELECT n FROM t ORDER BY n", &[], |r| r.i64(0))
            .expect("all");
        assert_eq!(all, vec![1, 2, 3]);
    }
}
