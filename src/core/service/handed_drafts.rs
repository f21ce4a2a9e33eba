//! Drafts handed between colleagues on a team server: one's own sent as stored, and one
//! received made a local draft.

use super::Service;
use crate::core::drafts::store::in_store;
use crate::core::{CoreError, Outcome};
use crate::support::clock::now_ms;

impl Service {
    /// Hands a local draft over, its text as it is stored.
    pub(super) async fn hand_over(
        &self,
        client: &crate::client::Client,
        draft: i64,
        to: String,
        note: String,
    ) -> Result<Outcome, CoreError> {
        let kept = in_store(&self.drafts, move |d| d.load(draft)).await?;
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
        let local = in_store(&self.drafts, move |d| {
            d.create(&name, &body, "{}", now_ms())
        })
        .await?;
        if let Err(e) = client.take_draft(id).await {
            tracing::warn!(error = %e, "a handed draft opened here stays on the team server");
        }
        Ok(Outcome::DraftSaved { id: local })
    }
}
