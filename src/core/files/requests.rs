//! What the window asks of files: the OS dialog, an order file or sheet imported into a new
//! draft, and files written whole (text the window made, the batch as JSON, the template).

use std::path::PathBuf;

use super::{
    FileError, FilePick, FilePlace, dialog_answer, import_file, os_dialog_present, pick_file,
};
use crate::core::catalog::learn::Learned;
use crate::core::catalog::store::ImportReport;
use crate::core::progress::Progress;
use crate::core::request::{Finished, Request, Services};
use crate::core::sheet::build::Misplaced;
use crate::core::snapshot::{Checked, Snapshot};
use crate::core::{CoreError, FileDialogChoice, Producer};

/// The OS file dialog, for what the window asks a file for.
#[derive(Debug, Clone)]
pub struct Pick {
    pub pick: FilePick,
}

/// What a file dialog answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked {
    /// The file chosen, or none (the user closed the dialog).
    File(Option<PathBuf>),
    /// No OS file dialog is there to answer, or one closed at once without showing: the
    /// window shows its own.
    NoDialog { closed_at_once: bool },
}

impl Request for Pick {
    type Reply = Picked;

    async fn serve(self, services: Services) -> Result<Picked, CoreError> {
        if services.0.file_dialog == FileDialogChoice::InWindow || !os_dialog_present() {
            return Ok(Picked::NoDialog {
                closed_at_once: false,
            });
        }
        let asked = std::time::Instant::now();
        let picked = pick_file(self.pick).await;
        Ok(dialog_answer(picked, asked.elapsed()))
    }
}

/// Reads and parses a batch order file, and keeps it as a new draft named after the file.
/// How far it has come is told to `progress`, which can stop it before the draft is kept.
#[derive(Debug, Clone)]
pub struct ImportOrders {
    pub path: PathBuf,
    pub progress: Progress,
}

/// A batch file imported into a new draft.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub draft_id: i64,
    pub name: String,
    /// Its orders each behind an `Arc`: what the window edits and shares, as parsed.
    pub batch: Snapshot,
    /// A spreadsheet's headers that name no column (`Orders!K1: Colour`): not read.
    pub unread_columns: Vec<String>,
    /// A spreadsheet's packages whose parent number placed them nowhere (kept at the top).
    pub misplaced: Vec<Misplaced>,
    /// Where each problem of the batch (by its path) is in the file.
    pub places: Vec<(String, FilePlace)>,
    /// The profile it was imported on: what it teaches goes to that profile's directory
    /// ([`LearnImported`]).
    pub profile: String,
    /// The batch checked on the core's threads: the window does not check it again.
    pub checked: Box<Checked>,
}

impl Request for ImportOrders {
    type Reply = Finished<Box<Imported>>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let drafts = std::sync::Arc::clone(&services.0.drafts);
        // Read, and kept as a draft, off the window's thread: a sheet of 100,000 rows takes a
        // second or two.
        let imported =
            tokio::task::spawn_blocking(move || import_file(&self.path, &self.progress, &drafts))
                .await??;
        let Finished::Done(mut imported) = imported else {
            return Ok(Finished::Cancelled);
        };
        // Its customers go to the active profile's directory, the one the batch is composed
        // for; learning them is asked apart, once the batch is shown (a file of 10,000 orders
        // is on screen before its customers are learned).
        imported.profile = services.0.active_profile();
        Ok(Finished::Done(imported))
    }
}

/// What an imported batch names, learned by the catalog and `profile`'s directory: what they
/// took from it (None: they could not learn, logged).
#[derive(Debug, Clone)]
pub struct LearnImported {
    pub profile: String,
    pub batch: Snapshot,
}

impl Request for LearnImported {
    type Reply = Option<ImportReport>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let batch = self.batch;
        let learned = move || Learned::of_orders(batch.head(), batch.orders());
        Ok(services.0.learn_said(&self.profile, learned).await)
    }
}

/// Text written to a file whole, or not at all; answers where.
#[derive(Debug, Clone)]
pub struct WriteText {
    pub path: PathBuf,
    pub body: String,
}

impl Request for WriteText {
    type Reply = PathBuf;

    async fn serve(self, _: Services) -> Result<PathBuf, CoreError> {
        write_whole(self.path, self.body.into_bytes()).await
    }
}

/// Bytes written as they are (a stored draft that cannot be read, exported as is).
#[derive(Debug, Clone)]
pub struct WriteBytes {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

impl Request for WriteBytes {
    type Reply = PathBuf;

    async fn serve(self, _: Services) -> Result<PathBuf, CoreError> {
        write_whole(self.path, self.bytes).await
    }
}

/// Text the window's code makes (in its language) written to a file, made on a core thread
/// with its progress shown: an export of 100,000 rows takes a moment.
#[derive(Debug, Clone)]
pub struct WriteProduced {
    pub path: PathBuf,
    pub produce: Producer,
    pub progress: Progress,
}

impl Request for WriteProduced {
    type Reply = Finished<PathBuf>;

    async fn serve(self, _: Services) -> Result<Finished<PathBuf>, CoreError> {
        let WriteProduced {
            path,
            produce,
            progress,
        } = self;
        let made = tokio::task::spawn_blocking(move || produce.produce(&progress)).await?;
        match made {
            Ok(body) => write_whole(path, body.into_bytes())
                .await
                .map(Finished::Done),
            Err(_) => Ok(Finished::Cancelled),
        }
    }
}

/// The composer's batch written as indented JSON to a file, whole or not at all; the orders
/// copied are counted in `progress`.
#[derive(Debug, Clone)]
pub struct ExportBatch {
    pub path: PathBuf,
    pub batch: Snapshot,
    pub progress: Progress,
}

impl Request for ExportBatch {
    type Reply = PathBuf;

    async fn serve(self, _: Services) -> Result<PathBuf, CoreError> {
        let body = crate::core::snapshot::json_of(self.batch, true, Some(self.progress)).await?;
        write_whole(self.path, body.into_bytes()).await
    }
}

/// The order spreadsheet template (`.xlsx`).
#[derive(Debug, Clone)]
pub struct WriteTemplate {
    pub path: PathBuf,
}

impl Request for WriteTemplate {
    type Reply = PathBuf;

    async fn serve(self, _: Services) -> Result<PathBuf, CoreError> {
        let target = self.path.clone();
        tokio::task::spawn_blocking(move || {
            crate::core::sheet::template::write_template(&target).map_err(|source| {
                FileError::Workbook {
                    path: target,
                    source,
                }
            })
        })
        .await??;
        Ok(self.path)
    }
}

/// Writes a file whole, off the async threads; answers where.
async fn write_whole(path: PathBuf, bytes: Vec<u8>) -> Result<PathBuf, CoreError> {
    let target = path.clone();
    tokio::task::spawn_blocking(move || super::write_bytes(&target, &bytes)).await??;
    Ok(path)
}
