//! [`Value`] bound to a PostgreSQL parameter, and [`Row`] read from a tokio-postgres row.
//!
//! Integers are `bigint` in the schema; a parameter PostgreSQL infers as `integer` (e.g.
//! `?1 + 1` with no column to compare) takes the value if it fits, and fails rather than wrap.
//! A `Null` takes whatever type the statement inferred.

use std::error::Error;

use bytes::BytesMut;
use tokio_postgres::types::{IsNull, ToSql, Type};

use crate::sql::{Row, StoreError, Value};

type BoxError = Box<dyn Error + Sync + Send>;

impl ToSql for Value<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match *self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(n) if *ty == Type::INT4 => narrow::<i32>(n, ty)?.to_sql(ty, out),
            Value::Int(n) if *ty == Type::INT2 => narrow::<i16>(n, ty)?.to_sql(ty, out),
            Value::Int(n) => n.to_sql(ty, out),
            Value::Bool(b) => b.to_sql(ty, out),
            Value::Text(s) => s.to_sql(ty, out),
            Value::Bytes(b) => b.to_sql(ty, out),
            Value::Texts(list) => list.to_sql(ty, out),
            Value::Ints(list) => list.to_sql(ty, out),
            Value::OptTexts(list) => list.to_sql(ty, out),
            Value::OptInts(list) => list.to_sql(ty, out),
            Value::Bools(list) => list.to_sql(ty, out),
        }
    }

    /// Which types a value takes depends on the variant: checked in `to_sql_checked`.
    fn accepts(_: &Type) -> bool {
        true
    }

    fn to_sql_checked(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        let (fits, kind) = match self {
            Value::Null => (true, "null"),
            Value::Int(_) => (
                *ty == Type::INT8 || *ty == Type::INT4 || *ty == Type::INT2,
                "an integer",
            ),
            Value::Bool(_) => (<bool as ToSql>::accepts(ty), "a boolean"),
            Value::Text(_) => (<&str as ToSql>::accepts(ty), "a text"),
            Value::Bytes(_) => (<&[u8] as ToSql>::accepts(ty), "a byte string"),
            Value::Texts(_) => (<&[String] as ToSql>::accepts(ty), "a list of texts"),
            Value::Ints(_) | Value::OptInts(_) => (*ty == Type::INT8_ARRAY, "a list of integers"),
            Value::OptTexts(_) => (<&[String] as ToSql>::accepts(ty), "a list of texts"),
            Value::Bools(_) => (*ty == Type::BOOL_ARRAY, "a list of booleans"),
        };
        if !fits {
            return Err(format!("{kind} value bound to a parameter of type {ty}").into());
        }
        self.to_sql(ty, out)
    }
}

fn narrow<T: TryFrom<i64>>(n: i64, ty: &Type) -> Result<T, BoxError> {
    T::try_from(n).map_err(|_| format!("{n} does not fit a parameter of type {ty}").into())
}

impl Row for tokio_postgres::Row {
    fn i64(&self, i: usize) -> Result<i64, StoreError> {
        Ok(match column_type(self, i) {
            Some(t) if *t == Type::INT4 => i64::from(self.try_get::<_, i32>(i)?),
            Some(t) if *t == Type::INT2 => i64::from(self.try_get::<_, i16>(i)?),
            _ => self.try_get(i)?,
        })
    }

    fn opt_i64(&self, i: usize) -> Result<Option<i64>, StoreError> {
        Ok(match column_type(self, i) {
            Some(t) if *t == Type::INT4 => self.try_get::<_, Option<i32>>(i)?.map(i64::from),
            Some(t) if *t == Type::INT2 => self.try_get::<_, Option<i16>>(i)?.map(i64::from),
            _ => self.try_get(i)?,
        })
    }

    fn text(&self, i: usize) -> Result<String, StoreError> {
        Ok(self.try_get(i)?)
    }

    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(i)?)
    }

    fn bytes(&self, i: usize) -> Result<Vec<u8>, StoreError> {
        Ok(self.try_get(i)?)
    }

    /// Flags are `boolean` on PostgreSQL; an integer here would be SQL testing 0/1, which the
    /// shared statements must not do.
    fn bool(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.try_get(i)?)
    }
}

fn column_type(row: &tokio_postgres::Row, i: usize) -> Option<&Type> {
    row.columns().get(i).map(tokio_postgres::Column::type_)
}
