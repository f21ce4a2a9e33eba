//! What can go wrong in the core: one variant per module that can fail, each holding that
//! module's own typed error. A module's error is shared behind an `Arc` because a reply is
//! cloned to the status bar and most sources (`rusqlite`, `std::io`) are not `Clone`.

use std::sync::Arc;

use client::ApiError;

use super::cache::CacheError;
use super::catalog::store::CatalogError;
use super::customer::error::CustomerError;
use super::drafts::store::DraftsError;
use super::files::error::FileError;
use super::journal::JournalError;
use super::profiles::ProfilesError;
use super::queue::store::QueueError;
use super::sandbox::SandboxError;

#[derive(Debug, Clone, thiserror::Error)]
pub enum CoreError {
    /// The platform's answer (code, message, cause verbatim) or no answer.
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error("no app secret is known for the profile {0}: enter it in Settings")]
    NoSecret(String),
    #[error(transparent)]
    Profiles(Arc<ProfilesError>),
    #[error(transparent)]
    Drafts(Arc<DraftsError>),
    #[error(transparent)]
    Catalog(Arc<CatalogError>),
    #[error(transparent)]
    Queue(Arc<QueueError>),
    #[error(transparent)]
    Journal(Arc<JournalError>),
    /// A file that cannot be read, written or understood; the error names it.
    #[error(transparent)]
    File(Arc<FileError>),
    /// A page or a read kept on disk between sessions.
    #[error(transparent)]
    Cache(Arc<CacheError>),
    /// A customer the directory cannot place.
    #[error(transparent)]
    Customer(Arc<CustomerError>),
    /// A backup not made, or not checked for a restore.
    #[error(transparent)]
    Backup(Arc<crate::core::backup::BackupError>),
    /// An update not offered, not downloaded, or not trusted.
    #[error(transparent)]
    Update(Arc<crate::core::update::UpdateError>),
    #[error("the Sandbox platform is not available: {0}")]
    Sandbox(Arc<SandboxError>),
    /// The core's threads could not be started.
    #[error("cannot start the core's threads: {0}")]
    Threads(Arc<std::io::Error>),
    /// A task of the core ended without its answer (it panicked or was cancelled).
    #[error("a task of the core ended without its answer: {0}")]
    Task(Arc<tokio::task::JoinError>),
    /// The desktop could not show a notification (no notification service).
    #[error("the desktop's notification could not be shown: {0}")]
    Desktop(Arc<notify_rust::error::Error>),
    #[error("the core has stopped")]
    Stopped,
    /// `Core::run` waited as long as it was told to and no answer came.
    #[error("no answer within {0} s")]
    GaveUp(u64),
}

/// `From` for each module's error, shared.
macro_rules! shared {
    ($($variant:ident($error:ty)),* $(,)?) => {
        $(impl From<$error> for CoreError {
            fn from(e: $error) -> Self {
                CoreError::$variant(Arc::new(e))
            }
        })*
    };
}

shared!(
    Backup(crate::core::backup::BackupError),
    Update(crate::core::update::UpdateError),
    Profiles(ProfilesError),
    Drafts(DraftsError),
    Catalog(CatalogError),
    Queue(QueueError),
    Journal(JournalError),
    File(FileError),
    Cache(CacheError),
    Customer(CustomerError),
    Sandbox(SandboxError),
    Task(tokio::task::JoinError),
);
