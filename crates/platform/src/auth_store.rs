//! Tokens and used nonces, in a database file of their own with a writer of its own: admitting
//! a call (spending its nonce) and issuing a token never queue behind a long write of business
//! data, such as the largest batch the limits allow.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use super::sql::StoreError;
use super::store::{self, DB_FILE, Store};

/// File name of the database inside a data directory.
pub const AUTH_DB_FILE: &str = "auth.sqlite3";

const MIGRATIONS: &[&str] = &[include_str!("auth_schema.sql")];

/// Opens (creating if needed) the data directory's token and nonce store, first moving into it
/// the tokens that an older release kept in the main database.
pub fn open(data_dir: &Path) -> Result<Store, StoreError> {
    let path = data_dir.join(AUTH_DB_FILE);
    let store = Store::open_file(path.clone(), MIGRATIONS)?;
    let conn = store::open_connection(&path)?;
    move_from_main(conn, &data_dir.join(DB_FILE))?;
    Ok(store)
}

/// Copies, then drops, the main database's `tokens`. The copy ignores rows already there, so a
/// stop between the two steps only repeats the copy at the next start.
fn move_from_main(mut conn: Connection, main_db: &Path) -> rusqlite::Result<()> {
    conn.execute(
        "ATTACH DATABASE ?1 AS platform",
        [main_db.to_string_lossy()],
    )?;
    let legacy: i64 = conn.query_row(
        "SELECT count(*) FROM platform.sqlite_master WHERE type = 'table' AND name = 'tokens'",
        [],
        |r| r.get(0),
    )?;
    if legacy == 0 {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute(
        "INSERT OR IGNORE INTO main.tokens(token_hash, app_key, issued_at, expires_at) \
             SELECT token_hash, app_key, issued_at, expires_at FROM platform.tokens",
        [],
    )?;
    tx.commit()?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute("DROP TABLE platform.tokens", [])?;
    tx.commit()?;
    tracing::info!("moved the tokens into {AUTH_DB_FILE}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A data directory of the release before this file keeps its tokens: they move here,
    /// and the main database no longer has them (its used nonces stay where they are).
    #[test]
    fn tokens_move_out_of_the_main_database() {
        let dir = tempfile::tempdir().expect("tempdir");
        let main = crate::store::open(dir.path()).expect("main store");
        drop(main);
        let conn = Connection::open(dir.path().join(DB_FILE)).expect("main db");
        conn.execute_batch(
            "INSERT INTO apps(app_key, name, secret_hash, scopes, created_at) \
                 VALUES ('ak_1', 'old', x'00', 'auth_order', 1);
             INSERT INTO tokens VALUES (x'01', 'ak_1', 1, 9999999999999);
             INSERT INTO nonce_log VALUES (1, 'ak_1', 'n-1');",
        )
        .expect("old rows");
        drop(conn);

        let auth = open(dir.path()).expect("auth store");
        let moved: i64 = auth
            .read(|tx| {
                tx.query_one(
                    "SELECT count(*) FROM tokens WHERE app_key = 'ak_1'",
                    &[],
                    |r| r.i64(0),
                )
            })
            .expect("read");
        assert_eq!(moved, 1);
        let conn = Connection::open(dir.path().join(DB_FILE)).expect("main db");
        let (tokens, nonces): (i64, i64) = conn
            .query_row(
                "SELECT (SELECT count(*) FROM sqlite_master WHERE name = 'tokens'), \
                 (SELECT count(*) FROM nonce_log)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .expect("tables");
        assert_eq!((tokens, nonces), (0, 1));
        drop(auth);
        // A second start finds nothing to move and keeps what is there.
        let auth = open(dir.path()).expect("auth store again");
        let tokens: i64 = auth
            .read(|tx| tx.query_one("SELECT count(*) FROM tokens", &[], |r| r.i64(0)))
            .expect("read");
        assert_eq!(tokens, 1);
    }
}
