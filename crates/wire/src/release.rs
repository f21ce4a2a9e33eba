//! Releases of the console a team server distributes (`docs/team.md`, "Rolling out"): each
//! file signed with the company's key in minisign's format, checked at publishing and again
//! by every console before it runs anything.

use serde::{Deserialize, Serialize};

/// `GET ?target=T`: the newest release for `T` that is not withdrawn, as a [`Release`]; 404
/// when there is none.
pub const LATEST: &str = "/team/v1/releases/latest";
/// `GET`: the key the team trusts, as a [`ReleaseKeyInfo`]; 404 when none is set.
pub const KEY: &str = "/team/v1/releases/key";
/// `GET`: a release's file, byte ranges served (a download resumes).
pub const FILE: &str = "/team/v1/releases/{target}/{version}/file";

/// [`FILE`] filled in.
pub fn file_path(target: Target, version: &str) -> String {
    FILE.replace("{target}", target.as_ref())
        .replace("{version}", version)
}

/// What a release runs on.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::AsRefStr,
    strum::EnumString,
    strum::Display,
    strum::VariantArray,
)]
pub enum Target {
    #[serde(rename = "windows-x86_64")]
    #[strum(serialize = "windows-x86_64")]
    WindowsX86_64,
    #[serde(rename = "linux-x86_64")]
    #[strum(serialize = "linux-x86_64")]
    LinuxX86_64,
}

/// A target named that releases are not made for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a release target: windows-x86_64 or linux-x86_64")]
pub struct UnknownTarget(pub String);

impl Target {
    /// The target named `text` (`windows-x86_64`, `linux-x86_64`).
    pub fn parse(text: &str) -> Result<Target, UnknownTarget> {
        text.parse().map_err(|_| UnknownTarget(text.to_owned()))
    }

    /// The target this program was built for, if releases are made for it.
    pub fn this() -> Option<Target> {
        match (std::env::consts::OS, std::env::consts::ARCH) {
            ("windows", "x86_64") => Some(Target::WindowsX86_64),
            ("linux", "x86_64") => Some(Target::LinuxX86_64),
            _ => None,
        }
    }
}

/// A published release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Release {
    /// `X.Y.Z`, as the program's `--version` says it.
    pub version: String,
    pub target: Target,
    /// The file's name as it was published (`license-desk-0.2.0-setup.exe`).
    pub file_name: String,
    pub size: u64,
    /// The file's SHA-256, in hex: what a download is compared with before its signature is.
    pub sha256: String,
    #[serde(default)]
    pub notes: String,
    /// When it was published (ms since the epoch).
    pub published_at: i64,
    /// Marked required by an administrator: a console on Windows installs it once its person
    /// is signed in (on Linux a package needs root: the line says it is required).
    #[serde(default)]
    pub required: bool,
    /// Withdrawn: no longer offered.
    #[serde(default)]
    pub withdrawn: bool,
    /// Its `.minisig` file's text.
    pub signature: String,
}

/// The key a team trusts for its releases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseKeyInfo {
    /// minisign's one base64 line.
    pub public_key: String,
    /// minisign's key id (16 hex digits).
    pub key_id: String,
    /// `SHA256:…`, what a person compares.
    pub fingerprint: String,
}
