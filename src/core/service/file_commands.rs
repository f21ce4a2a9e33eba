//! The core's file commands: the OS dialog, an order file or sheet imported into a new draft,
//! and files written whole (text the window made, the batch as JSON, the sheet template).

use std::path::PathBuf;
use std::sync::Arc;

use super::Service;
use crate::core::progress::{Progress, Stage};
use crate::core::snapshot::Snapshot;
use crate::core::{CoreError, FileCommand, Outcome};

impl Service {
    /// Files: the dialog, an order file or sheet read into a new draft, a file written.
    pub(super) async fn file_command(&self, command: FileCommand) -> Result<Outcome, CoreError> {
        match command {
            FileCommand::Pick { pick } => {
                if self.file_dialog == crate::core::FileDialogChoice::InWindow
                    || !crate::core::files::os_dialog_present()
                {
                    return Ok(Outcome::NoFileDialog {
                        closed_at_once: false,
                    });
                }
                let asked = std::time::Instant::now();
                let picked = crate::core::files::pick_file(pick).await;
                Ok(crate::core::files::dialog_answer(picked, asked.elapsed()))
            }
            FileCommand::ImportOrders { path, progress } => {
                let drafts = Arc::clone(&self.drafts);
                // Read, and kept as a draft, off the window's thread: a sheet of 100,000 rows
                // takes a second or two.
                let outcome = tokio::task::spawn_blocking(move || {
                    crate::core::files::import_file(&path, &progress, &drafts)
                })
                .await
                .map_err(|e| CoreError::File(e.to_string()))??;
                // What the file names is learned, and said; its customers go to the active
                // profile's directory, the one the batch is composed for.
                let mut outcome = outcome;
                if let Outcome::Imported { batch, taught, .. } = &mut outcome {
                    let snapshot = batch.clone();
                    let profile = self.profiles().active().name.clone();
                    *taught = self
                        .learn_said(&profile, move || {
                            crate::core::catalog::learn::Learned::of_orders(
                                snapshot.head(),
                                snapshot.orders(),
                            )
                        })
                        .await;
                }
                Ok(outcome)
            }
            FileCommand::WriteText { path, body } => write_file(path, body.into_bytes()).await,
            FileCommand::WriteProduced {
                path,
                produce,
                progress,
            } => {
                let made = tokio::task::spawn_blocking(move || produce.produce(&progress))
                    .await
                    .map_err(|e| CoreError::File(e.to_string()))?;
                match made {
                    Ok(body) => write_file(path, body.into_bytes()).await,
                    Err(_) => Ok(Outcome::Cancelled),
                }
            }
            FileCommand::ExportBatch {
                path,
                batch,
                progress,
            } => {
                let body = snapshot_json(batch, true, Some(progress)).await?;
                write_file(path, body.into_bytes()).await
            }
            FileCommand::WriteBytes { path, bytes } => write_file(path, bytes).await,
            FileCommand::WriteTemplate { path } => {
                let target = path.clone();
                tokio::task::spawn_blocking(move || {
                    crate::core::sheet::template::write_template(&target)
                        .map_err(|e| CoreError::File(format!("{}: {e}", target.display())))
                })
                .await
                .map_err(|e| CoreError::File(e.to_string()))??;
                Ok(Outcome::Written { path })
            }
        }
    }
}

/// Writes a file whole, off the async threads.
async fn write_file(path: PathBuf, bytes: Vec<u8>) -> Result<Outcome, CoreError> {
    let target = path.clone();
    tokio::task::spawn_blocking(move || crate::core::files::write_bytes(&target, &bytes))
        .await
        .map_err(|e| CoreError::File(e.to_string()))??;
    Ok(Outcome::Written { path })
}

/// A snapshot of the composer's batch as JSON, written on a blocking thread; the orders
/// copied are counted in `progress`.
pub(in crate::core) async fn snapshot_json(
    batch: Snapshot,
    pretty: bool,
    progress: Option<Progress>,
) -> Result<String, CoreError> {
    tokio::task::spawn_blocking(move || {
        if let Some(progress) = &progress {
            progress.start(Stage::Copying, batch.len() as u64);
        }
        let whole = batch.to_batch(progress.as_ref());
        if let Some(progress) = &progress {
            progress.start(Stage::Writing, 0);
        }
        crate::wire::open::batch_to_json(&whole, pretty)
    })
    .await
    .map_err(|e| CoreError::File(e.to_string()))?
    .map_err(|e| CoreError::File(format!("the batch as JSON: {e}")))
}
