//! What the window asks of the drafts: created, saved (the composer's batch written as JSON on
//! a blocking thread), renamed, deleted, loaded and listed, and a batch checked off the window.

use super::store::{Draft, DraftSummary, Drafts, DraftsError, in_store};
use crate::core::CoreError;
use crate::core::files::{StoredBatch, open_stored};
use crate::core::request::{Request, Services};
use crate::core::snapshot::{Checked, Snapshot};
use support::clock::now_ms;
use wire::BatchOrderRequest;

/// The drafts, newest first.
#[derive(Debug, Clone)]
pub struct List;

impl Request for List {
    type Reply = Vec<DraftSummary>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        in_store(&services.0.drafts, Drafts::list).await
    }
}

/// A stored draft, with its batch opened on the core's threads (a 10,000-order draft parses
/// in tens of milliseconds).
#[derive(Debug, Clone)]
pub struct Load {
    pub id: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub draft: Draft,
    pub batch: StoredBatch,
}

impl Request for Load {
    type Reply = Loaded;

    async fn serve(self, services: Services) -> Result<Loaded, CoreError> {
        let id = self.id;
        let draft = in_store(&services.0.drafts, move |d| d.load(id)).await?;
        let draft = draft.ok_or(DraftsError::NoDraft(id))?;
        let batch = open_stored(&draft);
        Ok(Loaded { draft, batch })
    }
}

/// A new draft of text as typed; answers its id.
#[derive(Debug, Clone)]
pub struct New {
    pub name: String,
    pub body: String,
    pub hints: String,
}

impl Request for New {
    type Reply = i64;

    async fn serve(self, services: Services) -> Result<i64, CoreError> {
        in_store(&services.0.drafts, move |d| {
            d.create(&self.name, &self.body, &self.hints, now_ms())
        })
        .await
    }
}

/// A new draft of a batch, written as JSON here rather than on the window's thread; answers
/// its id.
#[derive(Debug, Clone)]
pub struct NewFromBatch {
    pub name: String,
    pub batch: Box<BatchOrderRequest>,
}

impl Request for NewFromBatch {
    type Reply = i64;

    async fn serve(self, services: Services) -> Result<i64, CoreError> {
        let body = wire::open::batch_to_json(&self.batch, false).map_err(DraftsError::Json)?;
        in_store(&services.0.drafts, move |d| {
            d.create(&self.name, &body, "{}", now_ms())
        })
        .await
    }
}

/// A draft's text saved as typed.
#[derive(Debug, Clone)]
pub struct Save {
    pub id: i64,
    pub body: String,
    pub hints: String,
}

impl Request for Save {
    type Reply = ();

    async fn serve(self, services: Services) -> Result<(), CoreError> {
        let Save { id, body, hints } = self;
        let saved = in_store(&services.0.drafts, move |d| {
            d.save(id, &body, &hints, now_ms())
        })
        .await?;
        draft_found(id, saved)
    }
}

/// A draft's hints (what the list says of it) stored alone: a 10,000-order batch just
/// imported is not written again for them.
#[derive(Debug, Clone)]
pub struct SaveHints {
    pub id: i64,
    pub hints: String,
}

impl Request for SaveHints {
    type Reply = ();

    async fn serve(self, services: Services) -> Result<(), CoreError> {
        let SaveHints { id, hints } = self;
        let saved = in_store(&services.0.drafts, move |d| d.set_hints(id, &hints)).await?;
        draft_found(id, saved)
    }
}

/// The composer's draft saved from its snapshot, written as JSON here rather than on the
/// window's thread.
#[derive(Debug, Clone)]
pub struct SaveSnapshot {
    pub id: i64,
    pub batch: Snapshot,
    pub hints: String,
}

impl Request for SaveSnapshot {
    type Reply = ();

    async fn serve(self, services: Services) -> Result<(), CoreError> {
        let SaveSnapshot { id, batch, hints } = self;
        let body = crate::core::snapshot::json_of(batch, false, None).await?;
        let saved = in_store(&services.0.drafts, move |d| {
            d.save(id, &body, &hints, now_ms())
        })
        .await?;
        draft_found(id, saved)
    }
}

/// The shared validation of a batch too large to check within a frame.
#[derive(Debug, Clone)]
pub struct Check {
    pub batch: Snapshot,
}

impl Request for Check {
    type Reply = Box<Checked>;

    async fn serve(self, _: Services) -> Result<Box<Checked>, CoreError> {
        Ok(
            tokio::task::spawn_blocking(move || Box::new(Checked::of_snapshot(&self.batch)))
                .await?,
        )
    }
}

#[derive(Debug, Clone)]
pub struct Rename {
    pub id: i64,
    pub name: String,
}

impl Request for Rename {
    type Reply = ();

    async fn serve(self, services: Services) -> Result<(), CoreError> {
        let Rename { id, name } = self;
        let renamed = in_store(&services.0.drafts, move |d| d.rename(id, &name, now_ms())).await?;
        draft_found(id, renamed)
    }
}

/// Deletes a draft; answers the drafts left.
#[derive(Debug, Clone)]
pub struct Delete {
    pub id: i64,
}

impl Request for Delete {
    type Reply = Vec<DraftSummary>;

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let id = self.id;
        let deleted = in_store(&services.0.drafts, move |d| d.delete(id)).await?;
        draft_found(id, deleted)?;
        in_store(&services.0.drafts, Drafts::list).await
    }
}

/// A draft that is gone (deleted elsewhere) is an error: what was typed must not vanish quietly.
fn draft_found(id: i64, found: bool) -> Result<(), CoreError> {
    if found {
        Ok(())
    } else {
        Err(DraftsError::Gone(id).into())
    }
}
