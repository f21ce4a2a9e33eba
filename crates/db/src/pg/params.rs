//! The rules' statements use SQLite's `?N` parameters; PostgreSQL numbers them `$N`. Each
//! statement text is rewritten once and kept, keyed by where the `&'static str` lives.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

/// Rewritten statements, shared by every connection of a store.
#[derive(Default)]
pub(super) struct Rewritten {
    by_text: RwLock<HashMap<(usize, usize), Arc<str>>>,
}

impl Rewritten {
    /// `sql` with `$N` for `?N`. Keyed by address and length: a `&'static str` never moves,
    /// and the same text at two addresses only costs a second entry.
    pub(super) fn get(&self, sql: &'static str) -> Arc<str> {
        let key = (sql.as_ptr() as usize, sql.len());
        if let Some(found) = self
            .by_text
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return found.clone();
        }
        let text: Arc<str> = dollar_params(sql).into();
        self.by_text
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_insert(text)
            .clone()
    }
}

/// `?` followed by a digit becomes `$`, outside quoted text and identifiers.
pub fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            None => {}
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_parameters_become_dollars_outside_quotes() {
        assert_eq!(
            dollar_params("UPDATE t SET a = ?2 WHERE b = ?1 AND c = '?3' AND \"d?4\" = ?10"),
            "UPDATE t SET a = $2 WHERE b = $1 AND c = '?3' AND \"d?4\" = $10"
        );
        assert_eq!(
            dollar_params("SELECT 'it''s ?1', ?1"),
            "SELECT 'it''s ?1', $1"
        );
        assert_eq!(dollar_params("SELECT ?"), "SELECT ?");
    }

    #[test]
    fn a_statement_is_rewritten_once() {
        let rewritten = Rewritten::default();
        const SQL: &str = "SELECT ?1";
        let first = rewritten.get(SQL);
        let second = rewritten.get(SQL);
        assert_eq!(&*first, "SELECT $1");
        assert!(Arc::ptr_eq(&first, &second));
    }
}
