//! The profiles changed: added, edited, renamed, removed, switched, given a secret for one
//! run. One change at a time, saved before it is answered; a profile's secrets, sessions,
//! directory and client follow its name and address.

use std::sync::Arc;

use super::{Service, update_state};
use crate::core::CoreError;
use crate::core::profiles::{Endpoint, Profile, Profiles, ProfilesError};
use crate::core::secrets::SecretKind;

impl Service {
    pub(in crate::core) async fn remove_profile(
        self: &Arc<Self>,
        name: String,
    ) -> Result<Profiles, CoreError> {
        let me = Arc::clone(self);
        self.change_profiles(move |p| {
            p.remove(&name).map(|removed| {
                me.secrets.forget(&removed.name);
                if let Ok(catalog) = &me.catalog
                    && let Err(e) = catalog.profile_removed(&removed.name)
                {
                    tracing::warn!(error = %e, "a removed profile's directory stayed");
                }
                update_state(&me.state, |s| {
                    s.sessions.remove(&removed.name);
                });
                removed.name
            })
        })
        .await
    }

    /// Applies a change to the profiles, saves the file, and answers the new profiles.
    pub(in crate::core) async fn change_profiles(
        &self,
        f: impl FnOnce(&mut Profiles) -> Result<String, ProfilesError> + Send + 'static,
    ) -> Result<Profiles, CoreError> {
        let _one_at_a_time = self.profile_edits.lock().await;
        let mut profiles = self.profiles();
        let touched = f(&mut profiles)?;
        let path = self.profiles_path.clone();
        let to_save = profiles.clone();
        tokio::task::spawn_blocking(move || to_save.save(&path)).await??;
        if !touched.is_empty() {
            self.clients.lock().await.remove(&touched);
        }
        update_state(&self.state, |s| s.profiles = profiles.clone());
        Ok(profiles)
    }

    pub(in crate::core) async fn save_profile(
        self: &Arc<Self>,
        previous: Option<String>,
        profile: Profile,
        app_secret: Option<client::Secret>,
    ) -> Result<Profiles, CoreError> {
        let old = previous
            .as_deref()
            .and_then(|p| self.profiles().get(p).cloned());
        let name = profile.name.clone();
        // A CA file that cannot be used is said now, not at the profile's first call.
        if let Endpoint::Remote {
            ca_file: Some(path),
            ..
        } = &profile.endpoint
        {
            let path = path.clone();
            tokio::task::spawn_blocking(move || client::extra_roots(&path)).await??;
        }
        let outcome = {
            let profile = profile.clone();
            let previous = previous.clone();
            self.change_profiles(move |p| {
                p.upsert(previous.as_deref(), profile)
                    .map(|()| String::new())
            })
            .await?
        };
        let secrets = Arc::clone(&self.secrets);
        let renamed_from = old
            .as_ref()
            .filter(|o| o.name != name)
            .map(|o| o.name.clone());
        let endpoint_changed = old.as_ref().is_some_and(|o| o.endpoint != profile.endpoint);
        if endpoint_changed || renamed_from.is_some() {
            // A session belongs to its server and person, kept under the profile's name.
            update_state(&self.state, |s| {
                s.sessions.remove(&name);
                if let Some(from) = &renamed_from {
                    s.sessions.remove(from);
                }
            });
        }
        let catalog = self.catalog.clone();
        tokio::task::spawn_blocking(move || {
            if let (Some(from), Ok(catalog)) = (&renamed_from, &catalog) {
                // The directory goes with the profile's name.
                if let Err(e) = catalog.profile_renamed(from, &name) {
                    tracing::warn!(error = %e, "the directory did not follow a renamed profile");
                }
            }
            if let Some(from) = &renamed_from {
                if let Some(secret) = secrets.get(from, SecretKind::AppSecret) {
                    secrets.set(&name, SecretKind::AppSecret, &secret);
                }
                secrets.forget(from);
            }
            // A token belongs to its host: another address or app key starts without one.
            if endpoint_changed || renamed_from.is_some() {
                secrets.delete(&name, SecretKind::Token);
            }
            if let Some(secret) = app_secret.filter(|s| !s.is_empty()) {
                secrets.set(&name, SecretKind::AppSecret, secret.expose());
                secrets.delete(&name, SecretKind::Token);
            }
        })
        .await?;
        let mut clients = self.clients.lock().await;
        clients.remove(&profile.name);
        if let Some(prev) = previous {
            clients.remove(&prev);
        }
        Ok(outcome)
    }

    /// Keeps a remote profile's secret for this run; a client built before is dropped so the
    /// next call uses it.
    pub(in crate::core) async fn use_secret_for_run(
        &self,
        profile: String,
        app_secret: client::Secret,
    ) -> Result<Profiles, CoreError> {
        let profiles = self.profiles();
        let known = profiles
            .get(&profile)
            .ok_or_else(|| ProfilesError::NoProfile(profile.clone()))?;
        if known.is_sandbox() || app_secret.is_empty() {
            return Err(ProfilesError::TakesNoSecret(profile).into());
        }
        self.clients.lock().await.remove(&profile);
        self.run_secrets.lock().await.insert(profile, app_secret);
        Ok(profiles)
    }
}
