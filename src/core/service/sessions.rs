//! Team profiles' sessions in the service: a password given for a run signs in, and a session
//! that ended, whatever call found it, is forgotten here and in the keyring, so the profile
//! shows as signed out.

use std::sync::Arc;

use super::{Service, update_state};
use crate::core::CoreError;
use crate::core::secrets::SecretKind;
use crate::core::team::session::Session;
use client::Client;

impl Service {
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

    pub(in crate::core) fn set_session(&self, profile: &str, session: Session) {
        update_state(&self.state, |s| {
            s.sessions.insert(profile.to_owned(), session);
        });
    }

    /// The profile's session is over: its token leaves the keyring, and the next call asks
    /// for the password.
    pub(in crate::core) async fn session_ended(&self, profile: &str) {
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
