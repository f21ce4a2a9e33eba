//! The team server's commands: sign in, sign out, who am I. A session that ended, whatever
//! call found it, is forgotten here and in the keyring, and the profile shows as signed out.

use std::sync::Arc;

use super::{Service, update_state};
use crate::client::Client;
use crate::core::secrets::SecretKind;
use crate::core::team::{Decision, Session, TeamCommand};
use crate::core::{CoreError, Outcome};

impl Service {
    pub(super) async fn team_command(&self, command: TeamCommand) -> Result<Outcome, CoreError> {
        let profile = command.profile().to_owned();
        if !self.is_team(&profile) {
            return Err(CoreError::Profile(format!(
                "{profile:?} is not a team server's profile"
            )));
        }
        let client = self.client(&profile).await?;
        match command {
            TeamCommand::SignIn { password, .. } => {
                let me = client.sign_in(password.expose()).await?;
                self.set_session(&profile, Session::SignedIn(me.clone()));
                Ok(Outcome::SignedIn(me))
            }
            TeamCommand::Me { .. } => {
                let me = client.me().await?;
                self.set_session(&profile, Session::SignedIn(me.clone()));
                Ok(Outcome::SignedIn(me))
            }
            TeamCommand::Audit { query, .. } => Ok(Outcome::Audit(client.audit(&query).await?)),
            TeamCommand::Requests { query, .. } => {
                Ok(Outcome::Requests(client.requests(&query).await?))
            }
            TeamCommand::Request { id, .. } => {
                Ok(Outcome::Request(Box::new(client.request(id).await?)))
            }
            TeamCommand::HandOver {
                draft, to, note, ..
            } => self.hand_over(&client, draft, to, note).await,
            TeamCommand::Handed { .. } => Ok(Outcome::Handed(client.handed().await?)),
            TeamCommand::Receive { id, .. } => self.receive(&client, id).await,
            TeamCommand::Decide { id, decision, .. } => {
                let decided = match decision {
                    Decision::Approve { body_hash } => client.approve(id, &body_hash).await?,
                    Decision::Reject { reason } => client.reject(id, &reason).await?,
                };
                Ok(Outcome::Request(Box::new(decided)))
            }
            TeamCommand::SignOut { .. } => {
                let ended = client.sign_out().await;
                self.session_ended(&profile).await;
                ended?;
                Ok(Outcome::SignedOut)
            }
        }
    }

    /// A password given for this run (`UseSecretForRun`) signs the person in; the session is
    /// kept in memory only, as a run's tokens are.
    pub(super) async fn sign_in_for_run(
        &self,
        profile: &str,
        client: &Client,
    ) -> Result<(), CoreError> {
        let Some(password) = self.run_secrets.lock().await.get(profile).cloned() else {
            return Ok(());
        };
        let me = client.sign_in(password.expose()).await?;
        self.set_session(profile, Session::SignedIn(me));
        Ok(())
    }

    fn set_session(&self, profile: &str, session: Session) {
        update_state(&self.state, |s| {
            s.sessions.insert(profile.to_owned(), session);
        });
    }

    /// The profile's session is over: its token leaves the keyring, and the next call asks
    /// for the password.
    pub(super) async fn session_ended(&self, profile: &str) {
        self.set_session(profile, Session::SignedOut);
        let secrets = Arc::clone(&self.secrets);
        let name = profile.to_owned();
        let forgotten = tokio::task::spawn_blocking(move || {
            secrets.delete(&name, SecretKind::Token);
        })
        .await;
        if let Err(e) = forgotten {
            tracing::warn!(error = %e, "an ended session stayed in the keyring");
        }
        if let Some(client) = self.clients.lock().await.get(profile) {
            client.set_cached_token(None).await;
        }
    }
}
