//! Renewals in the service: every enterprise of a profile's directory listed, a few at a time,
//! into one table (docs/customers.md "Reading a whole directory"). Progress moves with each
//! enterprise; Cancel is looked at every tenth of a second; an enterprise refused is said and
//! passed; a platform that stops answering ends the read with what was read kept.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::StreamExt;

use super::{JournalJob, Service};
use crate::core::catalog::DirectoryEntry;
use crate::core::journal::{JournalEntry, JournalFilter};
use crate::core::progress::{Progress, Stage};
use crate::core::renewals::{self, EnterpriseRead, Read, ReadState, Stop, Table};
use crate::core::{ApiError, CoreError, Outcome, RenewalsCommand, WriteState};
use crate::support::clock::now_ms;
use client::Client;

/// Listings at once: the embedded platform's `--max-listings` (4 by default); one more would
/// wait for a turn there, and a production platform is not to be pressed harder.
pub const READ_CONCURRENCY: usize = 4;

/// How often the read looks whether the user cancelled.
const CANCEL_POLL: Duration = Duration::from_millis(100);

impl Service {
    pub(super) async fn renewals_command(
        &self,
        command: RenewalsCommand,
    ) -> Result<Outcome, CoreError> {
        match command {
            RenewalsCommand::Read { profile, progress } => {
                self.read_renewals(&profile, &progress).await
            }
            RenewalsCommand::Export { path, read, rows } => {
                let written = path.clone();
                tokio::task::spawn_blocking(move || export(&path, &read, &rows))
                    .await
                    .map_err(|e| CoreError::Storage(e.to_string()))?
                    .map_err(CoreError::File)?;
                Ok(Outcome::Written { path: written })
            }
            RenewalsCommand::Cached { profile } => {
                let dir = self.data_dir.clone();
                let cached =
                    tokio::task::spawn_blocking(move || renewals::load_cached(&dir, &profile))
                        .await
                        .map_err(|e| CoreError::Storage(e.to_string()))?
                        .map_err(CoreError::Storage)?;
                Ok(Outcome::Renewals(cached.map(Arc::new)))
            }
        }
    }

    async fn read_renewals(
        &self,
        profile: &str,
        progress: &Progress,
    ) -> Result<Outcome, CoreError> {
        let client = self.client(profile).await?;
        let mut read = Read {
            profile: profile.to_owned(),
            started_at: now_ms(),
            ended_at: 0,
            enterprises: self.enterprises_of(profile),
            table: Table::default(),
            stop: None,
            orders: Default::default(),
        };
        list_all(&client, &mut read, progress).await;
        self.add_sent(profile, &mut read).await;
        read.table.mark_renewed();
        read.ended_at = now_ms();
        // A million rows take a moment to sort: off the core's tasks.
        let read = tokio::task::spawn_blocking(move || {
            read.sort();
            read
        })
        .await
        .map_err(|e| CoreError::Storage(e.to_string()))?;
        let read = Arc::new(read);
        self.cache_renewals(Arc::clone(&read)).await;
        Ok(Outcome::Renewals(Some(read)))
    }

    /// The directory's enterprises, each once, with the names and branch the directory gives
    /// them (its first entry that has each).
    fn enterprises_of(&self, profile: &str) -> Vec<EnterpriseRead> {
        let entries = self.directory_of(profile);
        let mut by_id: BTreeMap<String, EnterpriseRead> = BTreeMap::new();
        for entry in &entries {
            let Some(id) = given(&entry.enterprise_global_id) else {
                continue;
            };
            let e = by_id
                .entry(id.clone())
                .or_insert_with(|| EnterpriseRead::new(id));
            named(e, entry);
        }
        by_id.into_values().collect()
    }

    /// Rows for the assets whose listing dates nothing, from the batches this console sent
    /// (the journal is read only when some asset needs it).
    async fn add_sent(&self, profile: &str, read: &mut Read) {
        if read.table.undated_assets().next().is_none() {
            return;
        }
        let filter = JournalFilter {
            profile: Some(profile.to_owned()),
            operation: Some("batch_order".to_owned()),
            ..JournalFilter::default()
        };
        let entries = self.journal_entries(filter).await;
        add_sent_from(read, &entries);
    }

    /// The journal's entries, or none when it cannot be read (said in the log): what was sent
    /// only adds to what the platform gave.
    pub(super) async fn journal_entries(&self, filter: JournalFilter) -> Vec<JournalEntry> {
        match self
            .journal_answer(|reply| JournalJob::Query { filter, reply })
            .await
        {
            Ok(Outcome::Journal(entries)) => entries,
            other => {
                tracing::warn!(?other, "the journal cannot be read");
                Vec::new()
            }
        }
    }

    async fn cache_renewals(&self, read: Arc<Read>) {
        let dir = self.data_dir.clone();
        keep("the renewals read", move || {
            renewals::save_cached(&dir, &read)
        })
        .await;
    }
}

/// Writes a file off the core's tasks. A failure is said in the log, not to the user: what is
/// kept only spares a read later.
pub(super) async fn keep(
    what: &'static str,
    write: impl FnOnce() -> Result<(), String> + Send + 'static,
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
    listed: Result<crate::wire::AssetList, ApiError>,
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

/// Rows for the read's undated assets from the accepted batches among `entries` (the
/// journal's, newest first).
pub(super) fn add_sent_from(read: &mut Read, entries: &[JournalEntry]) {
    let wanted: HashSet<&str> = read.table.undated_assets().collect();
    if wanted.is_empty() {
        return;
    }
    // Newest first in the journal; replayed oldest first.
    let calls = entries.iter().rev().filter_map(|e| {
        let done = e.operation == "batch_order" && e.state == Some(WriteState::Done);
        Some((e.request.as_deref()?, e.response.as_deref()?)).filter(|_| done)
    });
    let sent = renewals::sent_of(calls, &wanted);
    for (enterprise, still) in read.table.add_sent(&sent) {
        if let Some(e) = read.enterprises.get_mut(enterprise as usize) {
            e.undated = still;
        }
    }
}

pub(super) fn named(e: &mut EnterpriseRead, entry: &DirectoryEntry) {
    if e.name.is_none() {
        e.name = given(&entry.enterprise_name);
    }
    if e.customer_name.is_none() {
        e.customer_name = given(&entry.customer_name);
    }
    if e.branch.is_none() {
        e.branch = given(&entry.branch_name).or_else(|| given(&entry.branch_code));
    }
    if e.channel_code.is_none() {
        e.channel_code = given(&entry.channel_code);
    }
}

fn given(s: &Option<String>) -> Option<String> {
    crate::wire::preview::given(s)
}

/// The rows as the table shows them, written whole.
fn export(path: &std::path::Path, read: &Read, rows: &[u32]) -> Result<(), String> {
    let now = jiff::Zoned::now();
    let due: Vec<renewals::Due> = rows
        .iter()
        .map(|i| read.due_at(*i as usize, now.date(), now.time_zone()))
        .collect();
    let xlsx = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"));
    if xlsx {
        renewals::write_xlsx(&due, path)
    } else {
        let text = renewals::csv_text(&due, true);
        crate::support::private_files::write_atomic(path, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}
