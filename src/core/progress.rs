//! How far a long piece of work has come, and whether the user wants it stopped: shared by the
//! window (which draws it every frame) and the core thread doing the work, without a lock.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

/// The steps of an import, in order, then those of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The file's cells (or bytes) are read.
    Reading,
    /// Rows become orders, assets and products.
    Building,
    /// Each value is taken into its field or held as written, and the batch checked.
    Checking,
    /// The batch is kept as a draft.
    Saving,
    /// An export: the batch taken from the window's snapshot.
    Copying,
    /// An export: the batch written as JSON to its file.
    Writing,
    /// Renewals: the directory's enterprises listed.
    Listing,
}

impl Stage {
    fn from_u8(n: u8) -> Self {
        match n {
            0 => Self::Reading,
            1 => Self::Building,
            2 => Self::Checking,
            3 => Self::Saving,
            4 => Self::Copying,
            5 => Self::Writing,
            _ => Self::Listing,
        }
    }
}

/// What the window reads of a piece of work: its stage, and how much of it is done when the
/// total is known (rows for a sheet; nothing for a JSON file, which parses at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    pub stage: Stage,
    pub done: u64,
    pub total: u64,
}

impl Snapshot {
    /// The part done, when there is a total.
    pub fn fraction(&self) -> Option<f32> {
        (self.total > 0).then(|| (self.done.min(self.total) as f64 / self.total as f64) as f32)
    }
}

#[derive(Debug, Default)]
struct Shared {
    stage: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
    cancelled: AtomicBool,
}

/// A handle on one piece of work's progress; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<Shared>);

impl PartialEq for Progress {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The work was stopped because the user asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

impl Progress {
    /// A new stage begins, with its total (0 when not known).
    pub fn start(&self, stage: Stage, total: u64) {
        self.0.total.store(total, Ordering::Relaxed);
        self.0.done.store(0, Ordering::Relaxed);
        self.0.stage.store(stage as u8, Ordering::Relaxed);
    }

    /// How far the stage has come; refused once the user cancelled, so the work stops there.
    pub fn at(&self, done: u64) -> Result<(), Cancelled> {
        self.0.done.store(done, Ordering::Relaxed);
        self.check()
    }

    /// Err once the user asked to stop.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.0.cancelled.load(Ordering::Relaxed) {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }

    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.check().is_err()
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            stage: Stage::from_u8(self.0.stage.load(Ordering::Relaxed)),
            done: self.0.done.load(Ordering::Relaxed),
            total: self.0.total.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_sees_the_stage_the_count_and_the_cancel() {
        let work = Progress::default();
        let window = work.clone();
        work.start(Stage::Building, 200);
        assert_eq!(work.at(50), Ok(()));
        let seen = window.snapshot();
        assert_eq!(seen.stage, Stage::Building);
        assert_eq!(seen.fraction(), Some(0.25));
        window.cancel();
        assert_eq!(work.at(51), Err(Cancelled));
        assert!(work.is_cancelled());
        work.start(Stage::Saving, 0);
        assert_eq!(window.snapshot().fraction(), None);
    }
}
