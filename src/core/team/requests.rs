//! What the window asks of a team server: sign-in, sign-out and who is signed in; the record;
//! requests waiting for a second person and the decisions on them; drafts handed between
//! colleagues. Each goes to a team server's profile only.

use std::sync::Arc;

use super::session::Session;
use crate::core::CoreError;
use crate::core::drafts::store::{DraftsError, in_store};
use crate::core::profiles::ProfilesError;
use crate::core::request::{Request, Services};
use client::{Client, Secret};
use support::clock::now_ms;
use wire::approval::{Request as Waiting, RequestQuery};
use wire::handover::Handed;
use wire::team::{AuditEntry, AuditQuery, Me};

/// The profile's client, when the profile is a team server's.
async fn team_client(services: &Services, profile: &str) -> Result<Arc<Client>, CoreError> {
    if !services.0.is_team(profile) {
        return Err(ProfilesError::NotTeam(profile.to_owned()).into());
    }
    services.0.client(profile).await
}

/// Signs the profile's person in; the session goes to the keyring, never the password.
#[derive(Debug, Clone)]
pub struct SignIn {
    pub profile: String,
    pub password: Secret,
}

impl Request for SignIn {
    type Reply = Me;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Me, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        let me = client.sign_in(self.password.expose()).await?;
        services
            .0
            .set_session(&self.profile, Session::SignedIn(me.clone()));
        Ok(me)
    }
}

/// Asks the server who is signed in now (their role may have changed).
#[derive(Debug, Clone)]
pub struct WhoAmI {
    pub profile: String,
}

impl Request for WhoAmI {
    type Reply = Me;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Me, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        let me = client.me().await?;
        services
            .0
            .set_session(&self.profile, Session::SignedIn(me.clone()));
        Ok(me)
    }
}

/// Ends the session on the server and forgets it here.
#[derive(Debug, Clone)]
pub struct SignOut {
    pub profile: String,
}

impl Request for SignOut {
    type Reply = ();

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<(), CoreError> {
        let client = team_client(&services, &self.profile).await?;
        let ended = client.sign_out().await;
        services.0.session_ended(&self.profile).await;
        ended?;
        Ok(())
    }
}

/// The server's record of calls the person may see (History on a team profile).
#[derive(Debug, Clone)]
pub struct ReadAudit {
    pub profile: String,
    pub query: AuditQuery,
}

impl Request for ReadAudit {
    type Reply = Vec<AuditEntry>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        Ok(client.audit(&self.query).await?)
    }
}

/// Requests waiting for a second person: everyone's for an approver, else one's own.
#[derive(Debug, Clone)]
pub struct ListRequests {
    pub profile: String,
    pub query: RequestQuery,
}

impl Request for ListRequests {
    type Reply = Vec<Waiting>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        Ok(client.requests(&self.query).await?)
    }
}

/// Waits until the team server's requests change from `after` (none: answers at once); the
/// cursor now. A long poll: the window keeps one going while a team profile is active.
#[derive(Debug, Clone)]
pub struct WaitForChanges {
    pub profile: String,
    pub after: Option<String>,
}

impl Request for WaitForChanges {
    type Reply = String;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        Ok(client.events(self.after.as_deref()).await?)
    }
}

/// One request.
#[derive(Debug, Clone)]
pub struct ReadRequest {
    pub profile: String,
    pub id: i64,
}

impl Request for ReadRequest {
    type Reply = Box<Waiting>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        Ok(Box::new(client.request(self.id).await?))
    }
}

/// An approver's decision on a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Approve { body_hash: String },
    Reject { reason: String },
}

/// Approves (with the hash of the body seen) or rejects (with a reason) a request; answers it
/// as decided.
#[derive(Debug, Clone)]
pub struct Decide {
    pub profile: String,
    pub id: i64,
    pub decision: Decision,
}

impl Request for Decide {
    type Reply = Box<Waiting>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        let decided = match self.decision {
            Decision::Approve { body_hash } => client.approve(self.id, &body_hash).await?,
            Decision::Reject { reason } => client.reject(self.id, &reason).await?,
        };
        Ok(Box::new(decided))
    }
}

/// Hands the local draft `draft` over to `to` (a sign-in name, or `approvers`), its text as it
/// is stored; answers it as the server keeps it.
#[derive(Debug, Clone)]
pub struct HandOver {
    pub profile: String,
    pub draft: i64,
    pub to: String,
    pub note: String,
}

impl Request for HandOver {
    type Reply = Handed;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Handed, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        let draft = self.draft;
        let kept = in_store(&services.0.drafts, move |d| d.load(draft)).await?;
        let kept = kept.ok_or(DraftsError::NoDraft(draft))?;
        let handed = wire::handover::HandOver {
            name: kept.name,
            body: kept.body,
            handed_to: self.to,
            note: self.note,
        };
        Ok(client.hand_over(&handed).await?)
    }
}

/// The drafts handed to the person and by them.
#[derive(Debug, Clone)]
pub struct ListHanded {
    pub profile: String,
}

impl Request for ListHanded {
    type Reply = Vec<Handed>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        Ok(client.handed().await?)
    }
}

/// Opens a handed draft as a local draft of one's own (named for whom it came from), then
/// takes it off the server; should taking it off fail, the copy is kept and said. Answers the
/// local draft's id.
#[derive(Debug, Clone)]
pub struct Receive {
    pub profile: String,
    pub id: i64,
}

impl Request for Receive {
    type Reply = i64;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<i64, CoreError> {
        let client = team_client(&services, &self.profile).await?;
        let handed = client.handed_draft(self.id).await?;
        let name = format!("{} ({})", handed.name, handed.owner);
        let body = handed.body.unwrap_or_default();
        let local = in_store(&services.0.drafts, move |d| {
            d.create(&name, &body, "{}", now_ms())
        })
        .await?;
        if let Err(e) = client.take_draft(self.id).await {
            tracing::warn!(error = %e, "a handed draft opened here stays on the team server");
        }
        Ok(local)
    }
}
