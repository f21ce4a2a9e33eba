//! The core's draft commands: drafts created, saved (the composer's batch written as JSON on a
//! blocking thread), renamed, deleted, loaded and listed, and a batch checked off the window.

use std::sync::Arc;

use super::Service;
use super::file_commands::snapshot_json;
use crate::core::drafts::Drafts;
use crate::core::snapshot::Checked;
use crate::core::{CoreError, DraftCommand, Outcome};
use crate::support::clock::now_ms;

impl Service {
    /// Drafts, and the check of a batch being composed.
    pub(super) async fn draft_command(&self, command: DraftCommand) -> Result<Outcome, CoreError> {
        match command {
            DraftCommand::New { name, body, hints } => {
                self.drafts(move |d| {
                    d.create(&name, &body, &hints, now_ms())
                        .map(|id| Outcome::DraftSaved { id })
                })
                .await
            }
            DraftCommand::NewFromBatch { name, batch } => {
                let body = crate::wire::open::batch_to_json(&batch, false)
                    .map_err(|e| CoreError::Storage(format!("the draft as JSON: {e}")))?;
                self.drafts(move |d| {
                    d.create(&name, &body, "{}", now_ms())
                        .map(|id| Outcome::DraftSaved { id })
                })
                .await
            }
            DraftCommand::Save { id, body, hints } => {
                let saved = self
                    .drafts(move |d| d.save(id, &body, &hints, now_ms()))
                    .await?;
                draft_found(id, saved).map(|()| Outcome::DraftSaved { id })
            }
            DraftCommand::SaveHints { id, hints } => {
                let saved = self.drafts(move |d| d.set_hints(id, &hints)).await?;
                draft_found(id, saved).map(|()| Outcome::DraftSaved { id })
            }
            DraftCommand::SaveSnapshot { id, batch, hints } => {
                let body = snapshot_json(batch, false, None).await?;
                let saved = self
                    .drafts(move |d| d.save(id, &body, &hints, now_ms()))
                    .await?;
                draft_found(id, saved).map(|()| Outcome::DraftSaved { id })
            }
            DraftCommand::Check { batch } => {
                let checked = tokio::task::spawn_blocking(move || Checked::of_snapshot(&batch))
                    .await
                    .map_err(|e| CoreError::File(e.to_string()))?;
                Ok(Outcome::Checked(Box::new(checked)))
            }
            DraftCommand::Rename { id, name } => {
                let renamed = self.drafts(move |d| d.rename(id, &name, now_ms())).await?;
                draft_found(id, renamed).map(|()| Outcome::DraftSaved { id })
            }
            DraftCommand::Delete { id } => {
                let deleted = self.drafts(move |d| d.delete(id)).await?;
                draft_found(id, deleted)?;
                self.drafts(|d| d.list().map(Outcome::Drafts)).await
            }
            // Opened here, not on the window's thread: a 10,000-order draft parses in tens of
            // milliseconds.
            DraftCommand::Load { id } => self
                .drafts(move |d| d.load(id))
                .await?
                .map(|draft| {
                    let batch = crate::core::files::open_stored(&draft);
                    Outcome::Draft { draft, batch }
                })
                .ok_or_else(|| CoreError::Storage(format!("no draft {id}"))),
            DraftCommand::List => self.drafts(|d| d.list().map(Outcome::Drafts)).await,
        }
    }

    /// Runs `f` on the drafts store, off the async threads.
    async fn drafts<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Drafts) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, CoreError> {
        let drafts = Arc::clone(&self.drafts);
        tokio::task::spawn_blocking(move || f(&drafts))
            .await
            .map_err(|e| CoreError::Storage(e.to_string()))?
            .map_err(|e| CoreError::Storage(format!("drafts: {e}")))
    }
}

/// A draft that is gone (deleted elsewhere) is an error: what was typed must not vanish quietly.
fn draft_found(id: i64, found: bool) -> Result<(), CoreError> {
    if found {
        Ok(())
    } else {
        Err(CoreError::Storage(format!(
            "the draft {id} no longer exists; save it as a new draft"
        )))
    }
}

impl Service {
    /// Hands a local draft over, its text as it is stored.
    pub(super) async fn hand_over(
        &self,
        client: &crate::client::Client,
        draft: i64,
        to: String,
        note: String,
    ) -> Result<Outcome, CoreError> {
        let kept = self.drafts(move |d| d.load(draft)).await?;
        let kept = kept.ok_or_else(|| CoreError::Storage(format!("no draft {draft}")))?;
        let handed = crate::wire::handover::HandOver {
            name: kept.name,
            body: kept.body,
            handed_to: to,
            note,
        };
        Ok(Outcome::HandedOver(client.hand_over(&handed).await?))
    }

    /// A handed draft made a local draft of one's own (named for whom it came from), then
    /// taken off the server; should taking it off fail, the copy is kept and said.
    pub(super) async fn receive(
        &self,
        client: &crate::client::Client,
        id: i64,
    ) -> Result<Outcome, CoreError> {
        let handed = client.handed_draft(id).await?;
        let name = format!("{} ({})", handed.name, handed.owner);
        let body = handed.body.unwrap_or_default();
        let local = self
            .drafts(move |d| d.create(&name, &body, "{}", now_ms()))
            .await?;
        if let Err(e) = client.take_draft(id).await {
            tracing::warn!(error = %e, "a handed draft opened here stays on the team server");
        }
        Ok(Outcome::DraftSaved { id: local })
    }
}
