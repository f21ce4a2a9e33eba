//! `profile list`: the profiles as the command line shows them, also printed after an add or
//! an edit. Never a secret: where one comes from for a run is named (`secretEnv`).

use license_desk::core::{CallLimits, Endpoint};
use serde::Serialize;

use crate::cli::secret_input;

/// A profile as `profile list` shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub name: String,
    active: bool,
    kind: &'static str,
    base_url: String,
    token_url: String,
    app_key: String,
    operator: String,
    production: bool,
    /// It keeps a catalog of its own, not shared with the other profiles.
    own_catalog: bool,
    /// A batch with a lost answer is sent again with the same channelOrderId (the platform is
    /// declared to recognise it; always so for the Sandbox).
    recognises_repeats: bool,
    /// Time limits of its calls, in seconds, and retries where safe.
    #[serde(flatten)]
    limits: CallLimits,
    /// A CA trusted besides the system's (remote profiles).
    #[serde(skip_serializing_if = "Option::is_none")]
    ca_file: Option<String>,
    /// The variable that gives its secret to one run (remote profiles; for a team server,
    /// the person's password).
    secret_env: String,
    /// The person signed in to a team server.
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<String>,
}

pub fn listing(profiles: &license_desk::core::Profiles) -> Vec<Listed> {
    profiles
        .profiles
        .iter()
        .map(|p| {
            let (kind, base_url, token_url, app_key, secret_env, ca_file) = match &p.endpoint {
                Endpoint::Sandbox => ("sandbox", "", "", "", String::new(), None),
                Endpoint::Remote {
                    base_url,
                    token_url,
                    app_key,
                    ca_file,
                } => (
                    "remote",
                    base_url.as_str(),
                    token_url.as_str(),
                    app_key.as_str(),
                    secret_input::env_name(&p.name),
                    ca_file.as_ref().map(|f| f.display().to_string()),
                ),
                Endpoint::Team { url, ca_file, .. } => (
                    "team",
                    url.as_str(),
                    "",
                    "",
                    secret_input::env_name(&p.name),
                    ca_file.as_ref().map(|f| f.display().to_string()),
                ),
            };
            Listed {
                name: p.name.clone(),
                active: p.name == profiles.active,
                kind,
                base_url: base_url.to_owned(),
                token_url: token_url.to_owned(),
                app_key: app_key.to_owned(),
                operator: p.operator_identity.clone(),
                production: p.production,
                own_catalog: p.own_catalog,
                recognises_repeats: p.recognises_repeats(),
                limits: p.limits,
                ca_file,
                secret_env,
                user: match &p.endpoint {
                    Endpoint::Team { user, .. } => Some(user.clone()),
                    _ => None,
                },
            }
        })
        .collect()
}
