//! What the window and the command line ask of the journal and the write ledger: the calls
//! made, the writes and their outcomes, an unknown outcome settled by the user, and an export.
//! Each runs on the journal's thread after the calls recorded before it.

use std::path::PathBuf;

use super::{JournalEntry, JournalError, JournalFilter};
use crate::core::request::{Request, Services};
use crate::core::{CoreError, ExportFormat, ledger::LedgerEntry};
use client::WriteState;

/// The calls the journal holds, newest first, as the filter narrows them.
#[derive(Debug, Clone)]
pub struct Query(pub JournalFilter);

impl Request for Query {
    type Reply = Vec<JournalEntry>;

    async fn serve(self, services: Services) -> Result<Vec<JournalEntry>, CoreError> {
        services.0.journal(move |j| j.query(&self.0)).await
    }
}

/// The ledger's writes of a profile (or all), newest first; only those in `state` if given.
#[derive(Debug, Clone)]
pub struct Writes {
    pub profile: Option<String>,
    pub state: Option<WriteState>,
    pub limit: usize,
}

impl Request for Writes {
    type Reply = Vec<LedgerEntry>;

    async fn serve(self, services: Services) -> Result<Vec<LedgerEntry>, CoreError> {
        services
            .0
            .journal(move |j| j.writes(self.profile.as_deref(), self.state, self.limit))
            .await
    }
}

/// The user settles a write whose outcome is unknown: it was done, or it was not; `by` is
/// recorded with it. Answers the write as the ledger now holds it.
#[derive(Debug, Clone)]
pub struct Resolve {
    pub call_id: String,
    pub done: bool,
    pub by: String,
}

impl Request for Resolve {
    type Reply = LedgerEntry;

    async fn serve(self, services: Services) -> Result<LedgerEntry, CoreError> {
        let Resolve { call_id, done, by } = self;
        let asked = call_id.clone();
        services
            .0
            .journal(move |j| j.resolve_write(&asked, done, &by))
            .await?
            .ok_or_else(|| JournalError::NotUnknown(call_id).into())
    }
}

/// The calls the filter narrows, written to a CSV or JSON file.
#[derive(Debug, Clone)]
pub struct Export {
    pub filter: JournalFilter,
    pub path: PathBuf,
    pub format: ExportFormat,
}

/// A file written: where, and how many entries it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    pub path: PathBuf,
    pub count: usize,
}

impl Request for Export {
    type Reply = Exported;

    async fn serve(self, services: Services) -> Result<Exported, CoreError> {
        let Export {
            filter,
            path,
            format,
        } = self;
        let to = path.clone();
        let count = services
            .0
            .on_journal(move |j| j.export_file(&filter, &to, format))
            .await?
            .map_err(|e| JournalError::Export {
                path: path.clone(),
                source: Box::new(e),
            })?;
        Ok(Exported { path, count })
    }
}
