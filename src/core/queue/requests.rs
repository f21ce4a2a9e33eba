//! What the window asks of Send later: calls kept while their platform cannot be reached, and
//! sent in order, each to its own profile, when asked (the window asks every half minute while
//! some wait). Each request answers the queue as it then is.

use super::store::{Queue, QueueError, QueueState, QueuedEntry};
use crate::core::calls::requests::send_kept;
use crate::core::ledger;
use crate::core::profiles::ProfilesError;
use crate::core::request::{Request, Services};
use crate::core::{ApiError, Call, CoreError, WriteState, now_ms};
use client::Reach;

/// Keeps a batch, lock or unlock to send to `profile` later (its platform cannot be reached
/// now).
#[derive(Debug, Clone)]
pub struct Add {
    pub profile: String,
    pub call: Call,
}

impl Request for Add {
    type Reply = Vec<QueuedEntry>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        settle_orphans(&services).await?;
        let Add { profile, call } = self;
        if services.0.profile(&profile).is_none() {
            return Err(ProfilesError::NoProfile(profile).into());
        }
        on_queue(&services, move |q| q.add(&profile, &call, now_ms())).await?;
        on_queue(&services, Queue::list).await
    }
}

/// The queue of calls to send later, oldest first.
#[derive(Debug, Clone)]
pub struct Load;

impl Request for Load {
    type Reply = Vec<QueuedEntry>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        settle_orphans(&services).await?;
        on_queue(&services, Queue::list).await
    }
}

/// Removes an entry that is not being sent (the user settled or dropped it).
#[derive(Debug, Clone)]
pub struct Remove {
    pub id: i64,
}

impl Request for Remove {
    type Reply = Vec<QueuedEntry>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        settle_orphans(&services).await?;
        let id = self.id;
        on_queue(&services, move |q| q.remove(id)).await?;
        on_queue(&services, Queue::list).await
    }
}

/// Sends what waits, each profile's entries in order to that profile, each at most once; a
/// profile's queue stops where its platform cannot be reached or an outcome is unknown.
#[derive(Debug, Clone)]
pub struct SendWaiting;

impl Request for SendWaiting {
    type Reply = Vec<QueuedEntry>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        settle_orphans(&services).await?;
        send_queued(&services).await?;
        on_queue(&services, Queue::list).await
    }
}

/// Runs `f` on the queue, off the async threads: each of its writes waits for the disk.
async fn on_queue<T: Send + 'static>(
    services: &Services,
    f: impl FnOnce(&Queue) -> Result<T, QueueError> + Send + 'static,
) -> Result<T, CoreError> {
    let queue = services.0.queue.clone().map_err(CoreError::Queue)?;
    Ok(tokio::task::spawn_blocking(move || f(&queue)).await??)
}

/// Entries a program that ended was sending: as their calls ended in the ledger (which
/// settled a call in flight of an ended program as unknown already).
async fn settle_orphans(services: &Services) -> Result<(), CoreError> {
    let runs = services.0.data_dir.join("runs");
    let orphans = on_queue(services, move |q| {
        q.orphans(|owner| !ledger::run_ended(&runs, owner))
    })
    .await?;
    for (id, call_id) in orphans {
        let write = services.0.ledger_write(call_id).await?;
        let (state, detail) = match write.map(|w| (w.state, w.detail)) {
            // Not begun, or provably not sent: it waits again.
            None => (QueueState::Waiting, None),
            Some((WriteState::NotSent, detail)) => (QueueState::Waiting, detail),
            Some((WriteState::Done, detail)) => (QueueState::Done, detail),
            Some((WriteState::Refused, detail)) => (QueueState::Refused, detail),
            Some((WriteState::Held, detail)) => (QueueState::Held, detail),
            Some((WriteState::Unknown | WriteState::InFlight, detail)) => {
                (QueueState::Unknown, detail)
            }
        };
        on_queue(services, move |q| q.ended(id, state, detail.as_deref())).await?;
    }
    Ok(())
}

/// Each ready profile's entries in order, until its platform cannot be reached or an
/// outcome is unknown.
async fn send_queued(services: &Services) -> Result<(), CoreError> {
    let _one_at_a_time = services.0.queue_sending.lock().await;
    let Some(run) = &services.0.queue_run else {
        return Err(QueueError::NoRun.into());
    };
    for profile in on_queue(services, Queue::ready_profiles).await? {
        loop {
            let call_id = client::write::new_call_id(now_ms());
            let (owner, taken_as, from) = (run.id.clone(), call_id.clone(), profile.clone());
            let next = on_queue(services, move |q| q.take_next(&from, &owner, &taken_as)).await?;
            let Some((id, call)) = next else {
                break;
            };
            let result = client::CALL_ID
                .scope(call_id, send_kept(services, profile.clone(), call))
                .await;
            let (state, detail) = queue_state(&result);
            on_queue(services, move |q| q.ended(id, state, detail.as_deref())).await?;
            if !matches!(
                state,
                QueueState::Done | QueueState::Refused | QueueState::Held
            ) {
                break;
            }
        }
    }
    Ok(())
}

/// Where a sent entry stands, and why: back to waiting only when nothing left the machine.
fn queue_state(result: &Result<Option<String>, CoreError>) -> (QueueState, Option<String>) {
    match result {
        Ok(Some(refusal)) => (QueueState::Refused, Some(refusal.clone())),
        Ok(None) => (QueueState::Done, None),
        Err(CoreError::Api(e @ ApiError::OutcomeUnknown { .. })) => {
            (QueueState::Unknown, Some(e.to_string()))
        }
        // Handed to the team server: sending it again would only answer the same request.
        Err(CoreError::Api(e @ ApiError::Held { .. })) => (QueueState::Held, Some(e.to_string())),
        Err(CoreError::Api(e)) if e.reach() == Reach::Answered => {
            (QueueState::Refused, Some(e.to_string()))
        }
        Err(e) => (QueueState::Waiting, Some(e.to_string())),
    }
}
