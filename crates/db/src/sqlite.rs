//! SQLite storage. Writes go to one writer thread that owns the only writing connection and
//! commits in groups: every write runs in its own savepoint (so a refused one leaves nothing),
//! and whatever queued meanwhile shares one commit; each caller is answered after that commit.
//! Reads use a small pool of reader connections, so long listings never wait for writes.
//! WAL journal, copied into the database by a checkpointer thread of its own, so that the
//! writer never waits for a checkpoint's copying and fsyncs.

use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::hooks::Wal;
use rusqlite::wal::CheckpointMode;
use rusqlite::{Connection, MAIN_DB, OpenFlags, Transaction, TransactionBehavior};
use tokio::sync::oneshot;

// `sql::Tx` by path: in scope, its `execute` would shadow rusqlite's on a `Transaction`.
use crate::sql::{self, StoreError};

/// How long a statement waits for another process's lock (e.g. `app create` beside `serve`).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Readers kept open; more may be opened under load and are closed after use.
const POOLED_READERS: usize = 4;

/// Most writes sharing one commit.
const MAX_GROUP: usize = 64;

/// WAL pages after a commit that wake the checkpointer (32 MiB of 4 KiB pages). Every
/// checkpoint costs two fsyncs and copies each page once however often it was rewritten, so
/// under a stream of small writes (the same few pages again and again) a long log is much
/// cheaper per write than SQLite's default of 1000 pages: the checkpointer's CPU per lock call
/// fell from 5-7 µs to about 2 µs (`cargo bench --bench load -- 5` under `perf`).
const CHECKPOINT_PAGES: c_int = 8000;

/// [`CHECKPOINT_PAGES`] of a store whose every commit is synced (`open_durable`): 4 MiB.
/// While a checkpoint writes and syncs the database file, the writer's own synced commits
/// wait for the disk: 32 MiB took 20-25 ms here, and the calls under way then were the team
/// server's p99 (`cargo bench -p license-desk-team --bench team -- 3`); 4 MiB take 1-2 ms.
const DURABLE_CHECKPOINT_PAGES: c_int = 1000;

/// WAL pages after which the writer checkpoints itself: the log stays bounded even when the
/// checkpointer cannot catch up with a stream of writes (64 MiB).
const WRITER_CHECKPOINT_PAGES: c_int = 16 * 1024;

/// Bytes of WAL file kept once the log starts over.
const JOURNAL_SIZE_LIMIT: i64 = 64 << 20;

/// Runs one write inside the group's transaction and returns how to answer once the group's
/// commit is known.
type Job = Box<dyn FnOnce(&Transaction<'_>) -> Finish + Send>;
type Finish = Box<dyn FnOnce(Option<&rusqlite::Error>) + Send>;

pub struct Store {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
    readers: Mutex<Vec<Connection>>,
}

impl Store {
    /// Opens (creating if needed) the database file at `path`, brings its schema up to date
    /// (`migrations`, in order) and starts the writer thread (it ends when the store is dropped).
    pub fn open_file(path: PathBuf, migrations: &[&str]) -> Result<Store, StoreError> {
        Self::open_file_with(path, migrations, false)
    }

    /// [`Store::open_file`] whose every commit is synced before it is answered
    /// (`synchronous=FULL`): for a record that must outlive a power cut, such as an audit
    /// log. The platform's files sync at checkpoints only (docs/platform.md).
    pub fn open_durable(path: PathBuf, migrations: &[&str]) -> Result<Store, StoreError> {
        Self::open_file_with(path, migrations, true)
    }

    fn open_file_with(
        path: PathBuf,
        migrations: &[&str],
        durable: bool,
    ) -> Result<Store, StoreError> {
        support::private_files::ensure_private_file(&path)
            .map_err(|e| storage_failure(format!("cannot create {}: {e}", path.display())))?;
        let mut writer = open_connection(&path)?;
        if durable {
            writer.pragma_update(None, "synchronous", "FULL")?;
        }
        migrate(&mut writer, migrations)?;
        let checkpointer = open_connection(&path)?;
        let (wake, wakes) = mpsc::sync_channel::<()>(1);
        let wake_at = if durable {
            DURABLE_CHECKPOINT_PAGES
        } else {
            CHECKPOINT_PAGES
        };
        // Replaces SQLite's automatic checkpoint, which would run on the writer's commit.
        writer.wal_hook(Some(move |wal: &mut Wal, pages: c_int| {
            if pages >= WRITER_CHECKPOINT_PAGES {
                checkpoint(wal.checkpoint_v2(CheckpointMode::PASSIVE), "writer");
            } else if pages >= wake_at {
                // Full means a wake-up is already pending.
                let _ = wake.try_send(());
            }
            // An error here would report a failure for a transaction that has committed.
            Ok(())
        }))?;
        std::thread::Builder::new()
            .name("platform-checkpointer".to_owned())
            .spawn(move || checkpoint_loop(&checkpointer, &wakes))
            .map_err(|e| storage_failure(format!("cannot start the checkpointer: {e}")))?;
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("platform-writer".to_owned())
            .spawn(move || write_loop(writer, queue))
            .map_err(|e| storage_failure(format!("cannot start the writer: {e}")))?;
        Ok(Store {
            path,
            jobs,
            readers: Mutex::new(Vec::new()),
        })
    }

    /// Runs `f` in the writer's transaction: committed if `f` succeeds, undone if not. `f` is
    /// `FnMut` because a store that retries a transaction (PostgreSQL, on a serialization
    /// failure) runs it again; this one runs it once.
    pub async fn write<T, E>(
        &self,
        f: impl FnMut(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        self.submit(f, move |r| {
            // The caller may have stopped waiting; the write is done either way.
            let _ = reply.send(r);
        })?;
        answer.await.unwrap_or_else(|_| Err(E::from(writer_gone())))
    }

    /// [`Store::write`] for callers outside an async runtime (the command line).
    pub fn write_blocking<T, E>(
        &self,
        f: impl FnMut(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        // A std channel: this may be called on a runtime's thread, where tokio's would panic.
        let (reply, answer) = mpsc::channel();
        self.submit(f, move |r| {
            // The caller may have stopped waiting; the write is done either way.
            let _ = reply.send(r);
        })?;
        answer
            .recv()
            .unwrap_or_else(|_| Err(E::from(writer_gone())))
    }

    fn submit<T, E>(
        &self,
        f: impl FnMut(&dyn sql::Tx) -> Result<T, E> + Send + 'static,
        reply: impl FnOnce(Result<T, E>) + Send + 'static,
    ) -> Result<(), E>
    where
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let job: Job = Box::new(move |tx| run_job(tx, f, reply));
        self.jobs.send(job).map_err(|_| E::from(writer_gone()))
    }

    /// Runs `f` on a reader connection inside one read transaction (a consistent snapshot).
    pub fn read<T, E>(&self, f: impl FnOnce(&dyn sql::Tx) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        self.read_on_reader(f, false)
    }

    /// [`Store::read`] for a read of many pages (an asset listing): the reader then gives its
    /// page cache back (up to 16 MiB), which a console's Sandbox would otherwise keep for
    /// nothing once the listing is answered.
    pub fn read_large<T, E>(&self, f: impl FnOnce(&dyn sql::Tx) -> Result<T, E>) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        self.read_on_reader(f, true)
    }

    fn read_on_reader<T, E>(
        &self,
        f: impl FnOnce(&dyn sql::Tx) -> Result<T, E>,
        shrink: bool,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let pooled = lock(&self.readers).pop();
        let mut conn = match pooled {
            Some(conn) => conn,
            None => open_connection(&self.path).map_err(store_error)?,
        };
        let value = {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Deferred)
                .map_err(store_error)?;
            f(&tx)
        };
        let shrunk = if shrink {
            conn.execute_batch("PRAGMA shrink_memory")
        } else {
            Ok(())
        };
        let mut readers = lock(&self.readers);
        if readers.len() < POOLED_READERS {
            readers.push(conn);
        }
        match (value, shrunk) {
            (Ok(_), Err(e)) => Err(store_error(e)),
            (value, _) => value,
        }
    }
}

/// An error of the store itself, in rusqlite's type so that every caller handles it as one.
fn storage_failure(message: impl Into<String>) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
        Some(message.into()),
    )
}

fn writer_gone() -> StoreError {
    StoreError::Sqlite(storage_failure("the storage writer has stopped".to_owned()))
}

/// A failure of SQLite, as any caller's error.
fn store_error<E: From<StoreError>>(e: rusqlite::Error) -> E {
    E::from(StoreError::Sqlite(e))
}

/// One write: a savepoint around `f`, released on success and rolled back on an error or a
/// panic. The answer waits for the group's commit when `f` succeeded.
fn run_job<T, E>(
    tx: &Transaction<'_>,
    mut f: impl FnMut(&dyn sql::Tx) -> Result<T, E>,
    reply: impl FnOnce(Result<T, E>) + Send + 'static,
) -> Finish
where
    T: Send + 'static,
    E: From<StoreError> + Send + 'static,
{
    fn refuse<T, E: Send + 'static>(
        e: E,
        reply: impl FnOnce(Result<T, E>) + Send + 'static,
    ) -> Finish {
        Box::new(move |_| reply(Err(e)))
    }
    if let Err(e) = tx
        .prepare_cached("SAVEPOINT job")
        .and_then(|mut s| s.execute([]))
    {
        return refuse(store_error(e), reply);
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| f(tx)));
    let undo = || {
        // A failed rollback fails the transaction's commit, which is then reported.
        let _ = tx.execute_batch("ROLLBACK TO job; RELEASE job");
    };
    match outcome {
        Ok(Ok(value)) => match tx
            .prepare_cached("RELEASE job")
            .and_then(|mut s| s.execute([]))
        {
            Ok(_) => Box::new(move |commit: Option<&rusqlite::Error>| {
                reply(match commit {
                    None => Ok(value),
                    Some(e) => Err(store_error(copy_error(e))),
                })
            }),
            Err(e) => {
                undo();
                refuse(store_error(e), reply)
            }
        },
        Ok(Err(e)) => {
            undo();
            refuse(e, reply)
        }
        Err(_) => {
            undo();
            tracing::error!("a storage job panicked; its writes were rolled back");
            refuse(
                store_error(storage_failure("the operation panicked".to_owned())),
                reply,
            )
        }
    }
}

/// The commit's error, once for each write of the group.
fn copy_error(e: &rusqlite::Error) -> rusqlite::Error {
    match e {
        rusqlite::Error::SqliteFailure(code, message) => {
            rusqlite::Error::SqliteFailure(*code, message.clone())
        }
        other => storage_failure(format!("commit failed: {other}")),
    }
}

fn write_loop(mut conn: Connection, queue: mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
            Ok(tx) => tx,
            Err(e) => {
                tracing::error!(error = %e, "cannot begin a write transaction");
                // Each write still gets an answer: run none, report the failure.
                for job in group {
                    drop(job);
                }
                continue;
            }
        };
        let finishes: Vec<Finish> = group.into_iter().map(|job| job(&tx)).collect();
        let committed = tx.commit();
        if let Err(e) = &committed {
            tracing::error!(error = %e, "a group commit failed; its writes are reported failed");
        }
        for finish in finishes {
            finish(committed.as_ref().err());
        }
    }
}

/// Copies the WAL into the database each time the writer says it has grown; ends with the
/// writer (whose connection holds the sending side).
fn checkpoint_loop(conn: &Connection, wakes: &mpsc::Receiver<()>) {
    while wakes.recv().is_ok() {
        checkpoint(
            conn.wal_checkpoint_v2(Some(MAIN_DB), CheckpointMode::PASSIVE),
            "checkpointer",
        );
    }
}

/// A checkpoint that could not run is tried again at the next threshold; only a real failure
/// (not another checkpoint in progress) is worth a warning.
fn checkpoint(result: rusqlite::Result<(c_int, c_int)>, by: &str) {
    match result {
        Ok(_) => {}
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => {}
        Err(e) => tracing::warn!(error = %e, by, "a WAL checkpoint failed"),
    }
}

/// A panic while the lock was held leaves the pool itself sound: poisoning is ignored.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A connection to the file at `path` with the store's settings (WAL, foreign keys, caches):
/// for a file of its own beside the store (the platform's tokens and nonces).
pub fn open_connection(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // WAL + NORMAL: a committed transaction survives a crash of the process; a power loss
    // may roll back the last transactions before a checkpoint, never corrupt the file.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // The log may grow to the checkpoint thresholds below; once it starts over, the file is
    // cut back to this size.
    conn.pragma_update(None, "journal_size_limit", JOURNAL_SIZE_LIMIT)?;
    // Savepoints copy each page they touch to a sub-journal: keep it in memory, with a page
    // cache big enough for a large batch (16 MiB per connection).
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    conn.pragma_update(None, "cache_size", -16384)?;
    conn.set_prepared_statement_cache_capacity(64);
    // Keep one plan per statement: with the bundled build's STAT4, some queries were planned
    // again on every execution.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    Ok(conn)
}

/// Applies, in one transaction, the versions the file lacks (`PRAGMA user_version` counts
/// them); a file a newer release migrated is refused, as on PostgreSQL.
fn migrate(conn: &mut Connection, migrations: &[&str]) -> Result<(), StoreError> {
    migrate_from(conn, None, migrations)
}

/// [`migrate`] for a file kept before versions were counted (`user_version` 0 whatever its
/// shape): `adopt` makes version 1 of it, a new file or an old one (tables made if missing,
/// columns added if missing); `later` are versions 2, 3, …. Two programs opening the file
/// together take turns, so a step never runs twice.
pub fn migrate_adopting(
    conn: &mut Connection,
    adopt: fn(&Connection) -> rusqlite::Result<()>,
    later: &[&str],
) -> Result<(), StoreError> {
    migrate_from(conn, Some(adopt), later)
}

fn migrate_from(
    conn: &mut Connection,
    adopt: Option<fn(&Connection) -> rusqlite::Result<()>>,
    later: &[&str],
) -> Result<(), StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let mut at = found;
    let first = i64::from(adopt.is_some());
    let known = i64::try_from(later.len())
        .map_err(|_| StoreError::OutOfRange(i64::MAX))?
        .saturating_add(first);
    if at > known {
        return Err(StoreError::NewerSchema { at, known });
    }
    if let Some(adopt) = adopt.filter(|_| at == 0) {
        adopt(&tx)?;
        at = 1;
    }
    let done = usize::try_from(at - first).unwrap_or_default();
    for sql in later.iter().skip(done) {
        tx.execute_batch(sql)?;
    }
    if found < known {
        tx.pragma_update(None, "user_version", known)?;
    }
    Ok(tx.commit()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DB_FILE: &str = "test.sqlite3";
    const MIGRATIONS: &[&str] = &["CREATE TABLE one(a INTEGER)", "CREATE TABLE two(b TEXT)"];

    /// A file a newer release migrated opens nothing, and is left as it was.
    #[test]
    fn a_database_of_a_newer_release_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join(DB_FILE);
        drop(Store::open_file(db.clone(), MIGRATIONS).expect("open"));
        let newer = MIGRATIONS.len() as i64 + 1;
        Connection::open(&db)
            .and_then(|c| c.pragma_update(None, "user_version", newer))
            .expect("a newer version");
        let refused = Store::open_file(db.clone(), MIGRATIONS)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            refused.as_deref(),
            Some(format!(
                "the database is at schema version {newer}; this release knows up to {}: \
                 run the newer release, or restore a backup taken before it ran",
                MIGRATIONS.len()
            ))
            .as_deref()
        );
        let kept: i64 = Connection::open(&db)
            .and_then(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))
            .expect("read");
        assert_eq!(kept, newer);
    }

    fn adopt(conn: &Connection) -> rusqlite::Result<()> {
        conn.execute_batch("CREATE TABLE IF NOT EXISTS one(a INTEGER)")?;
        let has_b = conn
            .prepare("SELECT 1 FROM pragma_table_info('one') WHERE name = 'b'")?
            .exists([])?;
        if !has_b {
            conn.execute_batch("ALTER TABLE one ADD COLUMN b TEXT")?;
        }
        Ok(())
    }

    fn version(conn: &Connection) -> i64 {
        conn.pragma_query_value(None, "user_version", |r| r.get(0))
            .expect("version")
    }

    /// A file kept before versions were counted is adopted as version 1 whatever its shape,
    /// then migrated; a new file is made; opened again, nothing runs twice; a newer file is
    /// refused.
    #[test]
    fn a_file_from_before_versions_is_adopted_and_a_newer_one_refused() {
        let later = ["CREATE TABLE two(c TEXT)"];
        let mut old = Connection::open_in_memory().expect("old");
        old.execute_batch("CREATE TABLE one(a INTEGER); INSERT INTO one VALUES (7)")
            .expect("old shape");
        migrate_adopting(&mut old, adopt, &later).expect("adopted");
        let kept: (i64, Option<String>) = old
            .query_row("SELECT a, b FROM one", [], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("kept");
        assert_eq!((kept, version(&old)), ((7, None), 2));
        migrate_adopting(&mut old, adopt, &later).expect("again, nothing to do");
        old.execute("INSERT INTO two VALUES ('x')", [])
            .expect("two");

        let mut new = Connection::open_in_memory().expect("new");
        migrate_adopting(&mut new, adopt, &later).expect("made");
        new.execute("INSERT INTO one(a, b) VALUES (1, 'y')", [])
            .expect("version 1's shape");
        assert_eq!(version(&new), 2);

        new.pragma_update(None, "user_version", 3).expect("newer");
        let refused = migrate_adopting(&mut new, adopt, &later);
        assert!(
            matches!(refused, Err(StoreError::NewerSchema { at: 3, known: 2 })),
            "{refused:?}"
        );
    }

    fn file_len(path: &Path) -> u64 {
        std::fs::metadata(path).map_or(0, |m| m.len())
    }

    /// Past the threshold the checkpointer copies the log into the database by itself, while
    /// the writer carries on.
    #[test]
    fn the_checkpointer_copies_the_log_into_the_database() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join(DB_FILE);
        let store = Store::open_file(db.clone(), MIGRATIONS).expect("open");
        // Past CHECKPOINT_PAGES, short of WRITER_CHECKPOINT_PAGES (so only the checkpointer
        // copies).
        copied_past(&store, &db, CHECKPOINT_PAGES);
    }

    /// A store whose commits are synced copies its log in smaller steps, each short enough
    /// not to hold its commits up for long.
    #[test]
    fn a_durable_store_copies_its_log_sooner() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join(DB_FILE);
        let store = Store::open_durable(db.clone(), MIGRATIONS).expect("open");
        const { assert!(DURABLE_CHECKPOINT_PAGES + 1000 < CHECKPOINT_PAGES) };
        copied_past(&store, &db, DURABLE_CHECKPOINT_PAGES);
    }

    /// Writes about 1000 pages more than `pages` (a 4 KiB page per row, in commits of 500
    /// rows) and waits for the database file to hold them.
    fn copied_past(store: &Store, db: &Path, pages: c_int) {
        let before = file_len(db);
        let rows = usize::try_from(pages).expect("pages") + 1000;
        store
            .write_blocking(|tx| tx.execute("CREATE TABLE scratch(b BLOB)", &[]))
            .expect("table");
        for _ in 0..rows / 500 {
            store
                .write_blocking(|tx| {
                    for _ in 0..500 {
                        tx.execute("INSERT INTO scratch(b) VALUES (zeroblob(3000))", &[])?;
                    }
                    Ok::<_, StoreError>(())
                })
                .expect("rows");
        }
        let copied = (rows as u64) * 3000;
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while file_len(db) < before + copied && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            file_len(db) >= before + copied,
            "the database file holds {} bytes, {} before; {copied} expected to be copied",
            file_len(db),
            before
        );
        let counted: i64 = store
            .read(|tx| tx.query_one("SELECT count(*) FROM scratch", &[], |r| r.i64(0)))
            .expect("count");
        assert_eq!(counted, rows as i64);
    }
}
