//! What the window and the command line ask of the profiles: save (add or edit), remove,
//! switch, a secret for one run, and a connection tested. Each answers the profiles as saved.

use crate::core::CoreError;
use crate::core::request::{Request, Services};
use client::Secret;

use super::{Profile, Profiles};

/// Adds a profile, or edits the one named `previous`; a given secret goes straight to the
/// keyring.
#[derive(Debug, Clone)]
pub struct Save {
    pub previous: Option<String>,
    pub profile: Profile,
    pub app_secret: Option<Secret>,
}

impl Request for Save {
    type Reply = Profiles;

    async fn serve(self, services: Services) -> Result<Profiles, CoreError> {
        services
            .0
            .save_profile(self.previous, self.profile, self.app_secret)
            .await
    }
}

/// Removes a profile with its secrets, session and directory.
#[derive(Debug, Clone)]
pub struct Remove {
    pub name: String,
}

impl Request for Remove {
    type Reply = Profiles;

    async fn serve(self, services: Services) -> Result<Profiles, CoreError> {
        services.0.remove_profile(self.name).await
    }
}

/// Makes a profile the active one (new work goes to it; data on screen keeps its own).
#[derive(Debug, Clone)]
pub struct Activate {
    pub name: String,
}

impl Request for Activate {
    type Reply = Profiles;

    async fn serve(self, services: Services) -> Result<Profiles, CoreError> {
        let name = self.name;
        services
            .0
            .change_profiles(move |p| p.activate(&name).map(|()| String::new()))
            .await
    }
}

/// Gives a remote profile's app secret to this core only (a script's one run): kept in
/// memory, never in the keyring; the tokens it gets are kept in memory only too, and no
/// token the keyring holds for the profile is used.
#[derive(Debug, Clone)]
pub struct UseSecretForRun {
    pub profile: String,
    pub app_secret: Secret,
}

impl Request for UseSecretForRun {
    type Reply = Profiles;

    async fn serve(self, services: Services) -> Result<Profiles, CoreError> {
        services
            .0
            .use_secret_for_run(self.profile, self.app_secret)
            .await
    }
}

/// Gets a token and reports its scopes.
#[derive(Debug, Clone)]
pub struct TestConnection {
    pub profile: String,
}

/// What a tested connection gave: the token's (or the person's) scopes, and until when.
#[derive(Debug, Clone, PartialEq)]
pub struct Connected {
    pub scope: String,
    pub expires_at_ms: i64,
}

impl Request for TestConnection {
    type Reply = Connected;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    /// A platform: a new token, whatever is cached. A team server: who is signed in, and
    /// until when at the latest.
    async fn serve(self, services: Services) -> Result<Connected, CoreError> {
        let service = &services.0;
        let client = service.client(&self.profile).await?;
        if service.is_team(&self.profile) {
            let session = client.token().await?;
            let me = client.me().await?;
            let scope: Vec<&str> = me.permissions.iter().map(|p| p.name()).collect();
            return Ok(Connected {
                scope: scope.join(" "),
                expires_at_ms: session.expires_at_ms,
            });
        }
        // Asks the platform, even when a cached token is still valid.
        let token = client.renew_token().await?;
        Ok(Connected {
            scope: token.scope,
            expires_at_ms: token.expires_at_ms,
        })
    }
}
