//! The console's own SQLite files (journal, drafts, queue): private to the user, in WAL mode,
//! and synced at every commit, since each holds what must outlive a power cut (a write recorded
//! before it is sent, a keystroke, a call kept to send later).

use std::path::Path;

use rusqlite::Connection;

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Sql(#[from] rusqlite::Error),
}

/// Opens (or makes) the file at `path`, its folder and the file private to the user.
pub fn open(path: &Path) -> Result<Connection, OpenError> {
    if let Some(dir) = path.parent() {
        support::private_files::create_private_dir(dir)?;
    }
    support::private_files::ensure_private_file(path)?;
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    use_wal(&conn)?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(conn)
}

/// Puts the file in WAL mode. The first switch of a new file needs it alone, and SQLite does
/// not wait for that (its busy handler is not called): two programs opening a new file
/// together would see "database is locked", so the switch is tried again for a while.
pub fn use_wal(conn: &Connection) -> rusqlite::Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            done => return done,
        }
    }
}
