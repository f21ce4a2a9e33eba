//! Writing the record's checkpoints (`crate::seal`): at each beat when the record moved, and
//! at the server's stop, signed with the key, to the file beside the store (when the server
//! has one) and to the log, so that a copy lies where whoever can write the store may not reach.

use std::path::PathBuf;

use crate::audit;
use crate::error::TeamError;
use crate::seal::{self, AuditKey};
use crate::store::TeamStore;

pub struct Checkpointer {
    key: Option<AuditKey>,
    file: Option<PathBuf>,
    /// The last checkpoint's (end, hash, start): unchanged, none is written.
    last: Option<(i64, String, i64)>,
}

impl Checkpointer {
    pub fn new(key: Option<AuditKey>, file: Option<PathBuf>) -> Self {
        Self {
            key,
            file,
            last: None,
        }
    }

    /// Writes a checkpoint if the record moved since the last one.
    pub async fn beat(&mut self, store: &TeamStore) -> Result<(), TeamError> {
        let cp = audit::checkpoint(store).await?;
        let now = (cp.seq, cp.hash.clone(), cp.start_seq);
        if self.last.as_ref() == Some(&now) {
            return Ok(());
        }
        let cp = cp.sign(self.key.as_ref());
        tracing::info!(
            seq = cp.seq,
            hash = %cp.hash,
            start_seq = cp.start_seq,
            start_hash = %cp.start_hash,
            mac = cp.mac.as_deref().unwrap_or("(no key)"),
            "audit checkpoint"
        );
        if let Some(file) = &self.file {
            seal::write_checkpoint(file, &cp)?;
        }
        self.last = Some(now);
        Ok(())
    }
}
