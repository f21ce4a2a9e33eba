//! Profiles, like an API client's environments: the built-in Sandbox and any number of remote
//! platforms. Saved as JSON in the OS config dir; secrets are not in it (they are in the
//! keyring, see `secrets`).

pub mod requests;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use support::private_files::{create_private_dir, write_atomic};
use wire::validate::{FieldPath, Problem, ProblemKind};

/// The built-in profile's name.
pub const SANDBOX: &str = "Sandbox";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum Endpoint {
    /// The embedded platform, started in-process on a loopback port.
    Sandbox,
    Remote {
        base_url: String,
        token_url: String,
        app_key: String,
        /// A CA (PEM) trusted besides the system's, for a platform whose certificate it signed.
        /// Absent from files written before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ca_file: Option<PathBuf>,
    },
    /// A team server (`license-desk team serve`, docs/team.md): a person signs in with their
    /// own name and password; the server holds the platform's secret and checks their role.
    Team {
        url: String,
        /// The person's sign-in name on the team server.
        user: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ca_file: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub name: String,
    pub endpoint: Endpoint,
    /// Who locks and unlocks: a name, mobile number or e-mail (operations 6 and 7).
    #[serde(default)]
    pub operator_identity: String,
    /// A production platform: shown in a warning colour in the top bar and the confirmations.
    #[serde(default)]
    pub production: bool,
    /// The profile keeps a catalog of products and packages of its own instead of the one every
    /// other profile shares (its directory of customers is its own either way).
    #[serde(default)]
    pub own_catalog: bool,
    /// The administrator declares that this profile's platform answers a repeated
    /// `channelOrderId` with its first answer and creates nothing twice (the embedded platform
    /// and `license-desk serve` do; the interface does not promise it). Only then is a batch
    /// whose answer was lost sent again by itself; otherwise it ends as "outcome unknown".
    /// Always so for the Sandbox.
    #[serde(default)]
    pub repeats_recognised: bool,
    /// Time limits of its calls and their retries (defaults in `CallLimits`).
    #[serde(default)]
    pub limits: client::CallLimits,
    /// The administrator allows plain `http://` to a host other than this machine: the app
    /// secret and the tokens then cross the network in clear. Off, such a profile sends
    /// nothing (loopback is always allowed).
    #[serde(default)]
    pub insecure_http: bool,
}

impl Profile {
    pub fn sandbox() -> Self {
        Self {
            name: SANDBOX.to_owned(),
            endpoint: Endpoint::Sandbox,
            operator_identity: "sandbox-admin".to_owned(),
            production: false,
            own_catalog: false,
            repeats_recognised: true,
            limits: client::CallLimits::default(),
            insecure_http: false,
        }
    }

    /// Whether its calls would go over plain HTTP to another machine (allowed or not).
    pub fn plain_http_remote(&self) -> bool {
        match &self.endpoint {
            Endpoint::Sandbox => false,
            Endpoint::Remote {
                base_url,
                token_url,
                ..
            } => [base_url, token_url]
                .into_iter()
                .any(|u| client::clear_remote(u)),
            Endpoint::Team { url, .. } => client::clear_remote(url),
        }
    }

    /// Whether a batch with a lost answer may be sent again with the same `channelOrderId`:
    /// the Sandbox is the embedded platform, which recognises it; a remote platform as declared.
    /// Never through a team server: its ledger tells an unknown outcome, and a batch sent to
    /// it again is a second call upstream.
    pub fn recognises_repeats(&self) -> bool {
        self.is_sandbox() || (self.repeats_recognised && !self.is_team())
    }

    pub fn is_team(&self) -> bool {
        matches!(self.endpoint, Endpoint::Team { .. })
    }

    pub fn is_sandbox(&self) -> bool {
        self.endpoint == Endpoint::Sandbox
    }

    /// What is wrong with a profile as typed, if anything.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.name.trim().is_empty() {
            out.push(Problem::new(
                FieldPath::field("name"),
                ProblemKind::Required,
            ));
        }
        match &self.endpoint {
            Endpoint::Sandbox => {}
            Endpoint::Remote {
                base_url,
                token_url,
                app_key,
                ..
            } => {
                url_problems(&mut out, "baseUrl", base_url);
                url_problems(&mut out, "tokenUrl", token_url);
                required(&mut out, "appKey", app_key);
            }
            Endpoint::Team { url, user, .. } => {
                url_problems(&mut out, "url", url);
                required(&mut out, "user", user);
            }
        }
        out
    }
}

fn url_problems(out: &mut Vec<Problem>, field: &'static str, url: &str) {
    match reqwest::Url::parse(url.trim()) {
        Ok(u) if !u.username().is_empty() || u.password().is_some() => out.push(Problem::new(
            FieldPath::field(field),
            ProblemKind::UrlWithCredentials,
        )),
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some() => {}
        _ => out.push(Problem::new(
            FieldPath::field(field),
            ProblemKind::NotHttpUrl,
        )),
    }
}

fn required(out: &mut Vec<Problem>, field: &'static str, value: &str) {
    if value.trim().is_empty() {
        out.push(Problem::new(FieldPath::field(field), ProblemKind::Required));
    }
}

/// The profiles file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profiles {
    pub active: String,
    pub profiles: Vec<Profile>,
}

impl Default for Profiles {
    fn default() -> Self {
        Self {
            active: SANDBOX.to_owned(),
            profiles: vec![Profile::sandbox()],
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ProfilesError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a profiles file: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("cannot save {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Invalid(String),
    #[error("no home directory is known for this user")]
    NoHome,
    #[error("no profile named {0:?}")]
    NoProfile(String),
    #[error("{0:?} is not a team server's profile")]
    NotTeam(String),
    #[error(
        "{0:?}: only a remote or team profile takes a secret (a team profile's is the person's \
         password), and not an empty one"
    )]
    TakesNoSecret(String),
}

impl ProfilesError {
    /// Whether the profiles file could not be read or written (the disk, not the profile).
    pub fn is_file(&self) -> bool {
        matches!(
            self,
            ProfilesError::Read { .. } | ProfilesError::Write { .. }
        )
    }
}

impl Profiles {
    /// Reads the file, or the defaults when there is none. The Sandbox is always there.
    pub fn load(path: &Path) -> Result<Profiles, ProfilesError> {
        let mut profiles = match std::fs::read(path) {
            Ok(bytes) => {
                wire::parse::json::<Profiles>(&bytes).map_err(|e| ProfilesError::Parse {
                    path: path.to_owned(),
                    message: e.to_string(),
                })?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Profiles::default(),
            Err(source) => {
                return Err(ProfilesError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        if !profiles.profiles.iter().any(Profile::is_sandbox) {
            profiles.profiles.insert(0, Profile::sandbox());
        }
        if profiles.get(&profiles.active).is_none() {
            profiles.active = SANDBOX.to_owned();
        }
        Ok(profiles)
    }

    /// Writes the file whole, through a temporary file, so a crash never leaves half of it.
    pub fn save(&self, path: &Path) -> Result<(), ProfilesError> {
        let write = |source| ProfilesError::Write {
            path: path.to_owned(),
            source,
        };
        if let Some(dir) = path.parent() {
            create_private_dir(dir).map_err(write)?;
        }
        let text =
            serde_json::to_vec_pretty(self).map_err(|e| ProfilesError::Invalid(e.to_string()))?;
        write_atomic(path, &text).map_err(write)
    }

    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == name)
    }

    pub fn active(&self) -> &Profile {
        self.get(&self.active)
            .or_else(|| self.profiles.first())
            .unwrap_or_else(|| unreachable_sandbox())
    }

    /// Adds or replaces (by `previous_name`, or by name) a profile.
    pub fn upsert(
        &mut self,
        previous_name: Option<&str>,
        profile: Profile,
    ) -> Result<(), ProfilesError> {
        let problems = profile.problems();
        if !problems.is_empty() {
            let listed: Vec<String> = problems.iter().map(Problem::to_string).collect();
            return Err(ProfilesError::Invalid(listed.join("; ")));
        }
        let key = previous_name.unwrap_or(&profile.name).to_owned();
        if key != profile.name && self.get(&profile.name).is_some() {
            return Err(ProfilesError::Invalid(format!(
                "name: a profile named {:?} exists already",
                profile.name
            )));
        }
        match self.profiles.iter_mut().find(|p| p.name == key) {
            Some(existing) => {
                if existing.is_sandbox() != profile.is_sandbox() {
                    return Err(ProfilesError::Invalid(
                        "the Sandbox profile stays the Sandbox".to_owned(),
                    ));
                }
                *existing = profile.clone();
            }
            None => {
                if profile.is_sandbox() {
                    return Err(ProfilesError::Invalid(
                        "there is only one Sandbox profile".to_owned(),
                    ));
                }
                self.profiles.push(profile.clone());
            }
        }
        if self.active == key {
            self.active = profile.name;
        }
        Ok(())
    }

    pub fn remove(&mut self, name: &str) -> Result<Profile, ProfilesError> {
        let Some(i) = self.profiles.iter().position(|p| p.name == name) else {
            return Err(ProfilesError::NoProfile(name.to_owned()));
        };
        if self.profiles[i].is_sandbox() {
            return Err(ProfilesError::Invalid(
                "the Sandbox profile cannot be removed".to_owned(),
            ));
        }
        let removed = self.profiles.remove(i);
        if self.active == name {
            self.active = SANDBOX.to_owned();
        }
        Ok(removed)
    }

    pub fn activate(&mut self, name: &str) -> Result<(), ProfilesError> {
        if self.get(name).is_none() {
            return Err(ProfilesError::NoProfile(name.to_owned()));
        }
        self.active = name.to_owned();
        Ok(())
    }
}

/// `load` guarantees a Sandbox profile, so there is always one to fall back on.
fn unreachable_sandbox() -> &'static Profile {
    static SANDBOX_PROFILE: std::sync::OnceLock<Profile> = std::sync::OnceLock::new();
    SANDBOX_PROFILE.get_or_init(Profile::sandbox)
}
/// A remote platform's base address as a profile keeps it: trimmed, without a final `/`. The
/// one rule for Settings, the command line and the client.
pub fn base_url_of(typed: &str) -> String {
    typed.trim().trim_end_matches('/').to_owned()
}

/// The usual token URL under a base address.
pub fn usual_token_url(base_url: &str) -> String {
    format!("{base_url}{}", wire::paths::TOKEN)
}

/// A profile's token URL: the one typed, else the usual one under the base address (none
/// while there is no base address).
pub fn token_url_of(typed: Option<&str>, base_url: &str) -> String {
    match typed.map(str::trim) {
        Some(typed) if !typed.is_empty() => typed.to_owned(),
        _ if base_url.is_empty() => String::new(),
        _ => usual_token_url(base_url),
    }
}
