//! The audit log's appends, committed in groups: the records that wait while a commit is
//! under way go into the next one together, so concurrent calls share one synced commit
//! instead of queueing for one each. Every caller still waits until its own entry is
//! committed (and synced) before its answer leaves; the chain's order is the commit's.

use tokio::sync::{mpsc, oneshot};

use crate::audit::{Record, append_in};
use crate::error::TeamError;
use crate::seal::AuditKey;
use crate::store::TeamStore;

/// Most records in one commit: a bound on one transaction's work.
const MOST: usize = 512;

/// Told the entry's sequence number, or the one failure of its whole group's commit.
type Waiter = oneshot::Sender<Result<i64, std::sync::Arc<TeamError>>>;

/// A writer task of its own, on the runtime it was started on; it ends with the last handle.
#[derive(Clone)]
pub struct Appender {
    queue: mpsc::UnboundedSender<(Record, Waiter)>,
}

impl Appender {
    /// The writer; each entry's MAC made with `key` when given.
    pub fn start(store: TeamStore, key: Option<AuditKey>) -> Appender {
        let (queue, waiting) = mpsc::unbounded_channel();
        tokio::spawn(write_groups(store, key, waiting));
        Appender { queue }
    }

    /// Appends `record` at the end of the chain once committed; answers its sequence number.
    pub async fn append(&self, record: Record) -> Result<i64, TeamError> {
        let (done, answer) = oneshot::channel();
        let stopped = || TeamError::Audit("the audit log's writer has stopped".to_owned());
        self.queue.send((record, done)).map_err(|_| stopped())?;
        answer
            .await
            .map_err(|_| stopped())?
            .map_err(|e| TeamError::Audit(e.to_string()))
    }
}

async fn write_groups(
    store: TeamStore,
    key: Option<AuditKey>,
    mut waiting: mpsc::UnboundedReceiver<(Record, Waiter)>,
) {
    while let Some(first) = waiting.recv().await {
        let mut group = vec![first];
        while group.len() < MOST
            && let Ok(next) = waiting.try_recv()
        {
            group.push(next);
        }
        let (records, waiters): (Vec<Record>, Vec<Waiter>) = group.into_iter().unzip();
        let key = key.clone();
        let written = store
            .write(move |tx| {
                let at = support::clock::now_ms();
                records
                    .iter()
                    .map(|r| append_in(tx, r, at, key.as_ref()))
                    .collect::<Result<Vec<_>, _>>()
            })
            .await;
        match written {
            Ok(seqs) => {
                for (waiter, seq) in waiters.into_iter().zip(seqs) {
                    // The asker may have stopped waiting; the entry is kept either way.
                    let _ = waiter.send(Ok(seq));
                }
            }
            Err(e) => {
                let why = std::sync::Arc::new(e);
                for waiter in waiters {
                    // As above: the asker may have stopped waiting.
                    let _ = waiter.send(Err(std::sync::Arc::clone(&why)));
                }
            }
        }
    }
}
