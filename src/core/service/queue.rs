//! Send later in the service: calls kept while their platform cannot be reached, and sent in
//! order, each to its own profile, when asked (the window asks every half minute while some
//! wait).

use std::path::Path;
use std::sync::Arc;

use super::Service;
use crate::client::Reach;
use crate::core::ledger::{self, Run};
use crate::core::queue::{Queue, QueueError, QueueState};
use crate::core::{ApiError, CoreError, Outcome, QueueCommand, WriteState, now_ms};

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
    /// Runs `f` on the queue, off the async threads: each of its writes waits for the disk.
    async fn on_queue<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Queue) -> Result<T, QueueError> + Send + 'static,
    ) -> Result<T, CoreError> {
        let queue = self.queue.clone().map_err(CoreError::Storage)?;
        tokio::task::spawn_blocking(move || f(&queue))
            .await
            .map_err(|e| CoreError::Storage(e.to_string()))?
            .map_err(storage)
    }

    pub(super) async fn queue_command(&self, command: QueueCommand) -> Result<Outcome, CoreError> {
        self.settle_queue_orphans().await?;
        match command {
            QueueCommand::Add { profile, call } => {
                if self.profiles().get(&profile).is_none() {
                    return Err(CoreError::Profile(format!("no profile named {profile:?}")));
                }
                self.on_queue(move |q| q.add(&profile, &call, now_ms()))
                    .await?;
            }
            QueueCommand::Remove { id } => self.on_queue(move |q| q.remove(id)).await?,
            QueueCommand::Send => self.send_queued().await?,
            QueueCommand::Load => {}
        }
        Ok(Outcome::Queue(self.on_queue(Queue::list).await?))
    }

    /// Entries a program that ended was sending: as their calls ended in the ledger (which
    /// settled a call in flight of an ended program as unknown already).
    async fn settle_queue_orphans(&self) -> Result<(), CoreError> {
        let runs = self.data_dir.join("runs");
        let orphans = self
            .on_queue(move |q| q.orphans(|owner| !ledger::run_ended(&runs, owner)))
            .await?;
        for (id, call_id) in orphans {
            let write = match self.ledger(super::LedgerJob::Write { call_id }).await? {
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
            self.on_queue(move |q| q.ended(id, state, detail.as_deref()))
                .await?;
        }
        Ok(())
    }

    /// Each ready profile's entries in order, until its platform cannot be reached or an
    /// outcome is unknown.
    async fn send_queued(&self) -> Result<(), CoreError> {
        let _one_at_a_time = self.queue_sending.lock().await;
        let Some(run) = &self.queue_run else {
            return Err(CoreError::Storage(
                "send later: no run to send as".to_owned(),
            ));
        };
        for profile in self.on_queue(Queue::ready_profiles).await? {
            loop {
                let call_id = crate::client::write::new_call_id(now_ms());
                let (owner, taken_as, from) = (run.id.clone(), call_id.clone(), profile.clone());
                let next = self
                    .on_queue(move |q| q.take_next(&from, &owner, &taken_as))
                    .await?;
                let Some((id, call)) = next else {
                    break;
                };
                let result = crate::client::CALL_ID
                    .scope(call_id, self.call(&profile, call))
                    .await;
                let (state, detail) = queue_state(&result);
                self.on_queue(move |q| q.ended(id, state, detail.as_deref()))
                    .await?;
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
