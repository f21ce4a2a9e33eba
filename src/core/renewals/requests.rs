//! What the window asks of Renewals: every enterprise of a profile's directory listed, a few
//! at a time, into one table (docs/customers.md "Reading a whole directory"); the last read
//! kept; rows written to a file. Progress moves with each enterprise; Cancel is looked at every
//! tenth of a second; an enterprise refused is said and passed; a platform that stops
//! answering ends the read with what was read kept.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::StreamExt;

use std::path::PathBuf;

use super::read::{EnterpriseRead, Read, ReadState, Stop};
use super::table::Table;
use crate::core::cache::CacheError;
use crate::core::files::error::FileError;
use crate::core::journal::JournalFilter;
use crate::core::progress::{Progress, Stage};
use crate::core::request::{Request, Services};
use crate::core::{ApiError, CoreError};
use client::Client;
use support::clock::now_ms;

/// Listings at once: the embedded platform's `--max-listings` (4 by default); one more would
/// wait for a turn there, and a production platform is not to be pressed harder.
pub const READ_CONCURRENCY: usize = 4;

/// How often the read looks whether the user cancelled.
const CANCEL_POLL: Duration = Duration::from_millis(100);

/// Lists every enterprise of the profile's directory, a few at a time, into one table;
/// counted in `progress`, which can stop it (what was read is kept). The read is kept as the
/// profile's last.
#[derive(Debug, Clone)]
pub struct ReadAll {
    pub profile: String,
    pub progress: Progress,
}

impl Request for ReadAll {
    type Reply = Arc<Read>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Arc<Read>, CoreError> {
        read_renewals(&services, &self.profile, &self.progress).await
    }
}

/// The profile's last read, if one is kept.
#[derive(Debug, Clone)]
pub struct Cached {
    pub profile: String,
}

impl Request for Cached {
    type Reply = Option<Arc<Read>>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let dir = services.0.data_dir.clone();
        let cached =
            tokio::task::spawn_blocking(move || super::load_cached(&dir, &self.profile)).await??;
        Ok(cached.map(Arc::new))
    }
}

/// Writes the rows (positions in the read, in the table's order) to `path`: xlsx when it is
/// named `.xlsx`, else CSV with a byte-order mark; answers where.
#[derive(Debug, Clone)]
pub struct Export {
    pub path: PathBuf,
    pub read: Arc<Read>,
    pub rows: Arc<Vec<u32>>,
}

impl Request for Export {
    type Reply = PathBuf;

    async fn serve(self, _: Services) -> Result<PathBuf, CoreError> {
        let Export { path, read, rows } = self;
        let written = path.clone();
        tokio::task::spawn_blocking(move || export(&path, &read, &rows)).await??;
        Ok(written)
    }
}

async fn read_renewals(
    services: &Services,
    profile: &str,
    progress: &Progress,
) -> Result<Arc<Read>, CoreError> {
    let client = services.0.client(profile).await?;
    // A team's directory as it is now: the enterprises a colleague added are read too.
    services.0.pull_knowledge(profile).await;
    let mut read = Read {
        profile: profile.to_owned(),
        started_at: now_ms(),
        ended_at: 0,
        enterprises: enterprises_of(services, profile),
        table: Table::default(),
        stop: None,
        orders: Default::default(),
    };
    list_all(&client, &mut read, progress).await;
    add_sent(services, profile, &mut read).await;
    read.table.mark_renewed();
    read.ended_at = now_ms();
    // A million rows take a moment to sort: off the core's tasks.
    let read = tokio::task::spawn_blocking(move || {
        read.sort();
        read
    })
    .await?;
    let read = Arc::new(read);
    let (dir, kept) = (services.0.data_dir.clone(), Arc::clone(&read));
    keep("the renewals read", move || super::save_cached(&dir, &kept)).await;
    Ok(read)
}

/// The directory's enterprises, each once, with the names and branch the directory gives
/// them (its first entry that has each).
fn enterprises_of(services: &Services, profile: &str) -> Vec<EnterpriseRead> {
    let entries = services.0.directory_of(profile);
    let mut by_id: BTreeMap<String, EnterpriseRead> = BTreeMap::new();
    for entry in &entries {
        let Some(id) = super::read::given(&entry.enterprise_global_id) else {
            continue;
        };
        let e = by_id
            .entry(id.clone())
            .or_insert_with(|| EnterpriseRead::new(id));
        super::read::named(e, entry);
    }
    by_id.into_values().collect()
}

/// Rows for the assets whose listing dates nothing, from the batches this console sent
/// (the journal is read only when some asset needs it).
async fn add_sent(services: &Services, profile: &str, read: &mut Read) {
    if read.table.undated_assets().next().is_none() {
        return;
    }
    let filter = JournalFilter {
        profile: Some(profile.to_owned()),
        operation: Some(crate::core::Operation::BatchOrder),
        ..JournalFilter::default()
    };
    let entries = services.0.journal_entries(filter).await;
    super::sent::add_sent_from(read, &entries);
}

/// Writes a file off the core's tasks. A failure is said in the log, not to the user: what is
/// kept only spares a read later.
pub(in crate::core) async fn keep(
    what: &'static str,
    write: impl FnOnce() -> Result<(), CacheError> + Send + 'static,
) {
    match tokio::task::spawn_blocking(write).await {
        Ok(Ok(())) => {}
        Ok(Err(why)) => tracing::warn!(%why, what, "cannot be kept"),
        Err(e) => tracing::warn!(error = %e, what, "cannot be kept"),
    }
}

/// Lists every enterprise of the read, a few at a time, into its table: progress per
/// enterprise, Cancel looked at every tenth of a second, the platform's stop kept.
async fn list_all(client: &Arc<Client>, read: &mut Read, progress: &Progress) {
    progress.start(Stage::Listing, read.enterprises.len() as u64);
    let ids: Vec<(usize, String)> = read
        .enterprises
        .iter()
        .map(|e| e.global_id.clone())
        .enumerate()
        .collect();
    // Once the platform stops answering no listing starts, and those in flight are still
    // taken: what they bring is read.
    let stopping = Arc::new(AtomicBool::new(false));
    let mut listings = futures::stream::iter(ids)
        .map(|(i, id)| {
            let client = Arc::clone(client);
            let stopping = Arc::clone(&stopping);
            async move {
                if stopping.load(Ordering::Relaxed) {
                    return (i, None);
                }
                (i, Some(client.assets(&id, None).await))
            }
        })
        .buffer_unordered(READ_CONCURRENCY);
    let mut poll = tokio::time::interval(CANCEL_POLL);
    let mut done = 0;
    loop {
        let next = tokio::select! {
            next = listings.next() => next,
            _ = poll.tick() => {
                if progress.is_cancelled() {
                    read.stop = Some(Stop::Cancelled { at: now_ms() });
                    break;
                }
                continue;
            }
        };
        let Some((i, Some(listed))) = next else {
            if next.is_none() {
                break;
            }
            continue;
        };
        match take_listing(read, i, listed) {
            Some(stop @ Stop::Cancelled { .. }) => {
                read.stop = Some(stop);
                break;
            }
            Some(stop) => {
                read.stop.get_or_insert(stop);
                stopping.store(true, Ordering::Relaxed);
            }
            None => {}
        }
        done += 1;
        if progress.at(done).is_err() {
            read.stop = Some(Stop::Cancelled { at: now_ms() });
            break;
        }
    }
    // Listings still in flight are dropped with their connections.
    drop(listings);
}

/// One listing's answer taken into the read; a stop when the platform no longer answers.
fn take_listing(
    read: &mut Read,
    i: usize,
    listed: Result<wire::AssetList, ApiError>,
) -> Option<Stop> {
    let index = u32::try_from(i).unwrap_or(u32::MAX);
    let state = match listed {
        Ok(list) => {
            let added = read.table.add_listing(index, &list);
            if let Some(e) = read.enterprises.get_mut(i) {
                (e.assets, e.undated) = (added.assets, added.undated);
            }
            ReadState::Read
        }
        Err(ApiError::Platform { code, message, .. }) => ReadState::Refused { code, message },
        // An answer, though not of the interface's shape: this enterprise's, said in words.
        Err(e @ ApiError::Unexpected { .. }) => ReadState::Refused {
            code: String::new(),
            message: e.to_string(),
        },
        Err(ApiError::Cancelled) => return Some(Stop::Cancelled { at: now_ms() }),
        Err(e) => {
            return Some(Stop::NoAnswer {
                at: now_ms(),
                why: e.to_string(),
            });
        }
    };
    if let Some(e) = read.enterprises.get_mut(i) {
        e.state = state;
    }
    None
}

/// The rows as the table shows them, written whole.
fn export(path: &std::path::Path, read: &Read, rows: &[u32]) -> Result<(), FileError> {
    let now = jiff::Zoned::now();
    let due: Vec<super::Due> = rows
        .iter()
        .map(|i| read.due_at(*i as usize, now.date(), now.time_zone()))
        .collect();
    let xlsx = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    if xlsx {
        super::write_xlsx(&due, path)
    } else {
        let text = super::csv_text(&due, true);
        support::private_files::write_atomic(path, text.as_bytes()).map_err(FileError::io(path))
    }
}
