//! Tokens and used nonces, in a database file of their own with a writer of its own: admitting
//! a call (spending its nonce) and issuing a token never queue behind a long write of business
//! data, such as the largest batch the limits allow.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use super::store::{self, DB_FILE, Store};

/// File name of the database inside a data directory.
pub const AUTH_DB_FILE: &str = "auth.sqlite3";

const MIGRATIONS: &[&str] = &[include_str!("auth_schema.sql")];

/// Counters that describe the nonce log, moved with it.
const NONCE_COUNTERS: &str = "('nonce_generation', 'nonce_generation_started')";

/// Opens (creating if needed) the data directory's token and nonce store, first moving into it
/// the tokens and nonces that an older release kept in the main database.
pub fn open(data_dir: &Path) -> rusqlite::Result<Store> {
    let path = data_dir.join(AUTH_DB_FILE);
    let store = Store::open_file(path.clone(), MIGRATIONS)?;
    let conn = store::open_connection(&path)?;
    move_from_main(conn, &data_dir.join(DB_FILE))?;
    Ok(store)
}

/// Copies, then drops, the main database's `tokens` and `nonce_log`. The copy ignores rows
/// already there, so a stop between the two steps only repeats the copy at the next start.
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
    tx.execute_batch(&format!(
        "INSERT OR IGNORE INTO main.tokens(token_hash, app_key, issued_at, expires_at) \
             SELECT token_hash, app_key, issued_at, expires_at FROM platform.tokens;
         INSERT OR IGNORE INTO main.nonce_log(generation, app_key, nonce) \
             SELECT generation, app_key, nonce FROM platform.nonce_log;
         INSERT OR REPLACE INTO main.counters(name, value) \
             SELECT name, value FROM platform.counters WHERE name IN {NONCE_COUNTERS};"
    ))?;
    tx.commit()?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(&format!(
        "DROP TABLE platform.tokens;
         DROP TABLE platform.nonce_log;
         DELETE FROM platform.counters WHERE name IN {NONCE_COUNTERS};"
    ))?;
    tx.commit()?;
    tracing::info!("moved tokens and used nonces into {AUTH_DB_FILE}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A data directory of the release before this file keeps its tokens and used nonces:
    /// they move here, and the main database no longer has them.
    #[test]
    fn tokens_and_nonces_move_out_of_the_main_database() {
        let dir = tempfile::tempdir().expect("tempdir");
        let main = Store::open(dir.path()).expect("main store");
        drop(main);
        let conn = Connection::open(dir.path().join(DB_FILE)).expect("main db");
        conn.execute_batch(
            "INSERT INTO apps(app_key, name, secret_hash, scopes, created_at) \
                 VALUES ('ak_1', 'old', x'00', 'auth_order', 1);
             INSERT INTO tokens VALUES (x'01', 'ak_1', 1, 9999999999999);
             INSERT INTO nonce_log VALUES (7, 'ak_1', 'n-1');
             UPDATE counters SET value = 7 WHERE name = 'nonce_generation';",
        )
        .expect("old rows");
        drop(conn);

        let auth = open(dir.path()).expect("auth store");
        let moved: (i64, i64, i64) = auth
            .read(|tx| {
                tx.query_row(
                    "SELECT (SELECT count(*) FROM tokens WHERE app_key = 'ak_1'), \
                     (SELECT count(*) FROM nonce_log WHERE generation = 7 AND nonce = 'n-1'), \
                     (SELECT value FROM counters WHERE name = 'nonce_generation')",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
            })
            .expect("read");
        assert_eq!(moved, (1, 1, 7));
        let conn = Connection::open(dir.path().join(DB_FILE)).expect("main db");
        let left: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name IN ('tokens', 'nonce_log') \
                 OR name LIKE 'nonce%'",
                [],
                |r| r.get(0),
            )
            .expect("tables");
        assert_eq!(left, 0);
        drop(auth);
        // A second start finds nothing to move and keeps what is there.
        let auth = open(dir.path()).expect("auth store again");
        let tokens: i64 = auth
            .read(|tx| tx.query_row("SELECT count(*) FROM tokens", [], |r| r.get(0)))
            .expect("read");
        assert_eq!(tokens, 1);
    }
}
