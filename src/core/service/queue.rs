//! Send later in the service: calls kept while their platform cannot be reached, and sent in
//! order, each to its own profile, when asked (the window asks every half minute while some
//! wait).

use std::path::Path;
use std::sync::Arc;

use super::Service;
use crate::client::Reach;
use crate::core::ledger::{self, Run};
use crate::core::queue::{Queue, QueueError, QueueState};
use crate::core::{ApiError, Command, CoreError, Outcome, WriteState, now_ms};

/// The queue in `data_dir`, and this program's run.
pub(super) fn open(data_dir: &Path) -> (Result<Arc<Queue>, String>, Option<Run>) {
    let opened = Queue::open(&data_dir.join("queue.sqlite3"));
    match (opened, Run::claim(data_dir)) {
        (Ok(queue), Ok(run)) => (Ok(Arc::new(queue)), Some(run)),
        (Err(e), _) => {
            tracing::error!(error = %e, "the queue to send later cannot be opened");
            (Err(e.to_string()), None)
        }
        (Ok(_), Err(e)) => (Err(format!("send later: {e}")), None),
    }
}

fn storage(e: QueueError) -> CoreError {
    CoreError::Storage(e.to_string())
}

impl Service {
    fn queue(&self) -> Result<Arc<Queue>, CoreError> {
        self.queue.clone().map_err(CoreError::Storage)
    }

    pub(super) async fn queue_command(&self, command: Command) -> Result<Outcome, CoreError> {
        let queue = self.queue()?;
        self.settle_queue_orphans(&queue).await?;
        match command {
            Command::QueueCall { profile, call } => {
                if self.profiles().get(&profile).is_none() {
                    return Err(CoreError::Profile(format!("no profile named {profile:?}")));
                }
                queue.add(&profile, &call, now_ms()).map_err(storage)?;
            }
            Command::RemoveQueued { id } => queue.remove(id).map_err(storage)?,
            Command::SendQueued => self.send_queued(&queue).await?,
            _ => {}
        }
        Ok(Outcome::Queue(queue.list().map_err(storage)?))
    }

    /// Entries a program that ended was sending: as their calls ended in the ledger (which
    /// settled a call in flight of an ended program as unknown already).
    async fn settle_queue_orphans(&self, queue: &Queue) -> Result<(), CoreError> {
        let runs = self.data_dir.join("runs");
        let orphans = queue
            .orphans(|owner| !ledger::run_ended(&runs, owner))
            .map_err(storage)?;
        for (id, call_id) in orphans {
            let (tx, rx) = tokio::sync::oneshot::channel();
            self.journal_job(super::JournalJob::Ledger(
                super::LedgerJob::Write { call_id },
                tx,
            ))?;
            let write = match rx.await.map_err(|_| CoreError::Stopped)?? {
                Outcome::Write(write) => write,
                _ => None,
            };
            let (state, detail) = match write.map(|w| (w.state, w.detail)) {
                // Not begun, or provably not sent: it waits again.
                None => (QueueState::Waiting, None),
                Some((WriteState::NotSent, detail)) => (QueueState::Waiting, detail),
                Some((WriteState::Done, detail)) => (QueueState::Done, detail),
                Some((WriteState::Refused, detail)) => (QueueState::Refused, detail),
                Some((WriteState::Unknown | WriteState::InFlight, detail)) => {
                    (QueueState::Unknown, detail)
                }
            };
            queue.ended(id, state, detail.as_deref()).map_err(storage)?;
        }
        Ok(())
    }

    /// Each ready profile's entries in order, until its platform cannot be reached or an
    /// outcome is unknown.
    async fn send_queued(&self, queue: &Queue) -> Result<(), CoreError> {
        let _one_at_a_time = self.queue_sending.lock().await;
        let Some(run) = &self.queue_run else {
            return Err(CoreError::Storage(
                "send later: no run to send as".to_owned(),
            ));
        };
        for profile in queue.ready_profiles().map_err(storage)? {
            loop {
                let call_id = crate::client::write::new_call_id(now_ms());
                let Some((id, call)) = queue
                    .take_next(&profile, &run.id, &call_id)
                    .map_err(storage)?
                else {
                    break;
                };
                let result = crate::client::CALL_ID
                    .scope(call_id, self.call(&profile, call))
                    .await;
                let (state, detail) = queue_state(&result);
                queue.ended(id, state, detail.as_deref()).map_err(storage)?;
                if !matches!(state, QueueState::Done | QueueState::Refused) {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// Where a sent entry stands, and why: back to waiting only when nothing left the machine.
fn queue_state(result: &Result<Outcome, CoreError>) -> (QueueState, Option<String>) {
    match result {
        Ok(Outcome::Locks(results)) => match crate::client::write::lock_refusals(results) {
            Some(refusal) => (QueueState::Refused, Some(refusal)),
            None => (QueueState::Done, None),
        },
        Ok(_) => (QueueState::Done, None),
        Err(CoreError::Api(e @ ApiError::OutcomeUnknown { .. })) => {
            (QueueState::Unknown, Some(e.to_string()))
        }
        Err(CoreError::Api(e)) if e.reach() == Reach::Answered => {
            (QueueState::Refused, Some(e.to_string()))
        }
        Err(e) => (QueueState::Waiting, Some(e.to_string())),
    }
}
