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
    /// A file a newer release migrated, or a version that failed to apply.
    #[error("{0}")]
    Schema(#[from] db::sql::StoreError),
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

/// Brings the file to its newest version: `adopt` makes version 1 of a file kept before versions
/// were counted (or of a new one), `later` are versions 2, 3, …; a file a newer release
/// migrated is refused, so it is never misread nor written in a shape it does not know.
pub fn migrate(
    conn: &mut Connection,
    adopt: fn(&Connection) -> rusqlite::Result<()>,
    later: &[&str],
) -> Result<(), OpenError> {
    Ok(db::sqlite::migrate_adopting(conn, adopt, later)?)
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
