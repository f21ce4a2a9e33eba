//! Updates from a team server (issue 58, docs/team.md "Rolling out"): is a newer release
//! offered, and its file downloaded and checked against the release key this console pinned
//! before anything may run it. A file that fails the check is deleted and reported.

mod apply;
mod pins;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use client::Client;
use support::release_sig::{ReleaseKey, SigError};
pub use wire::release::{Release, Target};

use crate::core::CoreError;
use crate::core::profiles::{Endpoint, ProfilesError};
use crate::core::progress::Progress;
use crate::core::request::{Request, Services};
pub use apply::{ApplyUpdate, Installed, clear_old_program, dpkg_command};
use pins::Pins;

/// This program's version, as `--version` says it: Cargo.toml's, unless the build was given
/// another in `LICENSE_DESK_VERSION` (`dist/build-windows.sh` builds the Wine smoke test's
/// newer release so).
pub const CURRENT: &str = match option_env!("LICENSE_DESK_VERSION") {
    Some(version) => version,
    None => env!("CARGO_PKG_VERSION"),
};

/// Why an update is not offered, downloaded or trusted.
#[derive(Debug, thiserror::Error)]
pub enum UpdateError {
    #[error("releases are made for Windows and Linux on x86-64, not for this computer")]
    NoTarget,
    #[error("the team server has no release key set: it offers no updates")]
    NoKey,
    #[error(
        "the team server's release key changed: this console trusts {pinned}, the server now \
         offers {offered}. Nothing is downloaded. If the company changed its key, an \
         administrator confirms it: license-desk update trust-key --profile {profile} \
         --fingerprint {offered}"
    )]
    KeyChanged {
        profile: String,
        pinned: String,
        offered: String,
    },
    #[error("the team server offers the key {offered}, not {confirmed}: nothing was changed")]
    NotThatKey { offered: String, confirmed: String },
    #[error("no newer release is offered (this is {CURRENT})")]
    NoneNewer,
    #[error("the download was refused and deleted, nothing runs: {0}")]
    Signature(SigError),
    #[error("the download was refused and deleted, nothing runs: its SHA-256 is not the release's")]
    Hash,
    #[error("{path}: {why}")]
    Pins { path: PathBuf, why: String },
    #[error("the team server names the file {0:?}: not a plain name, nothing downloaded")]
    FileName(String),
    #[error(
        "this copy of License Desk was not installed by its installer (no uninstall.exe beside \
         it): close it and run the checked installer yourself: {0}"
    )]
    NotInstalled(PathBuf),
    #[error("the installer stopped (exit code {}): the program in use was left as it was", .0.map_or("none".to_owned(), |c| c.to_string()))]
    Installer(Option<i32>),
    #[error(
        "the installer stopped and the program set aside as {0} could not be put back ({1}): \
         rename it back without its .old, or run the checked installer again"
    )]
    NotPutBack(PathBuf, std::io::Error),
    #[error("the team server offers a release for {0} as the one for this computer: refused")]
    OtherTarget(String),
    #[error("{0}: {1}")]
    Files(PathBuf, std::io::Error),
}

/// What `update check` finds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdateCheck {
    pub current: String,
    /// A newer release, if one is offered.
    pub available: Option<Release>,
    /// The fingerprint of the key trusted for this server.
    pub key_fingerprint: String,
    /// The key was seen for the first time and pinned now.
    pub pinned_now: bool,
}

/// Asks the profile's team server whether a newer release is offered; its key is pinned the
/// first time, and a changed one refused.
#[derive(Debug, Clone)]
pub struct CheckUpdate {
    pub profile: String,
}

impl Request for CheckUpdate {
    type Reply = UpdateCheck;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<UpdateCheck, CoreError> {
        let (client, server) = team(&services, &self.profile).await?;
        let (key, pinned_now) = trusted_key(&services, &client, &server, &self.profile).await?;
        let target = Target::this().ok_or(UpdateError::NoTarget)?;
        let available = client
            .latest_release(target)
            .await?
            .filter(|r| newer(&r.version));
        Ok(UpdateCheck {
            current: CURRENT.to_owned(),
            available,
            key_fingerprint: key.fingerprint(),
            pinned_now,
        })
    }
}

/// Downloads the newer release into the console's own `updates/` folder and checks it: its
/// SHA-256, then its signature by the pinned key over the whole file, naming the version and
/// target asked; then copies it to `out_dir` if one is given. Answers where it is; a file that
/// fails is deleted.
#[derive(Debug, Clone)]
pub struct DownloadUpdate {
    pub profile: String,
    /// Where a copy goes once checked; none: it stays in `updates/` of the data folder.
    pub out_dir: Option<PathBuf>,
    pub progress: Progress,
}

impl Request for DownloadUpdate {
    type Reply = PathBuf;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<PathBuf, CoreError> {
        let (kept, _) = fetch(&services, &self.profile, &self.progress).await?;
        match self.out_dir {
            Some(dir) => {
                let out = dir.join(kept.file_name().unwrap_or_default());
                let copy = out.clone();
                tokio::task::spawn_blocking(move || copied(&kept, &copy)).await??;
                Ok(out)
            }
            None => Ok(kept),
        }
    }
}

/// The newer release offered, in the console's own `updates/` folder and checked: a file
/// downloaded and checked before is checked again and used; one that fails is deleted and
/// downloaded anew, and checked.
async fn fetch(
    services: &Services,
    profile: &str,
    progress: &Progress,
) -> Result<(PathBuf, Release), CoreError> {
    let (client, server) = team(services, profile).await?;
    let (key, _) = trusted_key(services, &client, &server, profile).await?;
    let target = Target::this().ok_or(UpdateError::NoTarget)?;
    let release = client
        .latest_release(target)
        .await?
        .filter(|r| newer(&r.version))
        .ok_or(UpdateError::NoneNewer)?;
    if release.target != target {
        return Err(UpdateError::OtherTarget(release.target.as_ref().to_owned()).into());
    }
    let name = plain_name(&release.file_name)?.to_owned();
    // Downloaded where only this user may write, whatever folder was asked for.
    let updates = services.0.data_dir.join("updates");
    support::private_files::create_private_dir(&updates)
        .map_err(|e| UpdateError::Files(updates.clone(), e))?;
    let kept = updates.join(&name);
    let (k, r, path) = (key.clone(), release.clone(), kept.clone());
    let before =
        tokio::task::spawn_blocking(move || path.is_file() && verified(&k, &r, &path).is_ok());
    if before.await? {
        return Ok((kept, release));
    }
    let partial = updates.join(format!(".{}.part", hash_name(&release.sha256)?));
    let bar = progress.clone();
    bar.start(crate::core::progress::Stage::Reading, release.size);
    client
        .download_release(&release, &partial, &move |have, _| {
            // A download is stopped by its call's cancel, not by its bar.
            let _ = bar.at(have);
        })
        .await?;
    let (r, path) = (release.clone(), kept.clone());
    tokio::task::spawn_blocking(move || checked(&key, &r, &partial, &path)).await??;
    Ok((kept, release))
}

/// The person confirms the team server's new release key by its fingerprint (after the
/// company changed it): pinned in place of the old one.
#[derive(Debug, Clone)]
pub struct TrustReleaseKey {
    pub profile: String,
    pub fingerprint: String,
}

impl Request for TrustReleaseKey {
    type Reply = String;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<String, CoreError> {
        let (client, server) = team(&services, &self.profile).await?;
        let offered = offered_key(&client).await?;
        if offered.fingerprint() != self.fingerprint.trim() {
            return Err(UpdateError::NotThatKey {
                offered: offered.fingerprint(),
                confirmed: self.fingerprint,
            }
            .into());
        }
        let mut pins = Pins::read(&services.0.config_file(PINS))?;
        pins.set(&server, &offered)?;
        Ok(offered.fingerprint())
    }
}

const PINS: &str = "release-keys.json";

/// The profile's client and its team server's address.
async fn team(services: &Services, profile: &str) -> Result<(Arc<Client>, String), CoreError> {
    let found = services
        .0
        .profile(profile)
        .ok_or_else(|| ProfilesError::NoProfile(profile.to_owned()))?;
    let Endpoint::Team { url, .. } = &found.endpoint else {
        return Err(ProfilesError::NotTeam(profile.to_owned()).into());
    };
    Ok((services.0.client(profile).await?, url.clone()))
}

async fn offered_key(client: &Client) -> Result<ReleaseKey, CoreError> {
    let info = client.release_key().await?.ok_or(UpdateError::NoKey)?;
    Ok(ReleaseKey::parse(&info.public_key).map_err(UpdateError::Signature)?)
}

/// The key pinned for `server`, pinned now if none was (and whether it was); a server that
/// offers another key is refused.
async fn trusted_key(
    services: &Services,
    client: &Client,
    server: &str,
    profile: &str,
) -> Result<(ReleaseKey, bool), CoreError> {
    let offered = offered_key(client).await?;
    let mut pins = Pins::read(&services.0.config_file(PINS))?;
    match pins.get(server)? {
        Some(pinned) if pinned == offered => Ok((pinned, false)),
        Some(pinned) => Err(UpdateError::KeyChanged {
            profile: profile.to_owned(),
            pinned: pinned.fingerprint(),
            offered: offered.fingerprint(),
        }
        .into()),
        None => {
            pins.set(server, &offered)?;
            Ok((offered, true))
        }
    }
}

/// The server's name for the file, if it is a plain file name of letters, digits and `._+-`:
/// a server cannot make the console write elsewhere than the folder it chose (`../x`, `C:x`),
/// nor put anything in the install command the window shows (`x.deb; sh`).
fn plain_name(name: &str) -> Result<&str, UpdateError> {
    let plain = !name.starts_with('.')
        && !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._+-".contains(&b));
    match plain {
        true => Ok(name),
        false => Err(UpdateError::FileName(name.to_owned())),
    }
}

/// Whether `version` is newer than this program.
fn newer(version: &str) -> bool {
    match (
        semver::Version::parse(version),
        semver::Version::parse(CURRENT),
    ) {
        (Ok(offered), Ok(current)) => offered > current,
        _ => false,
    }
}

/// The downloaded file checked and put at `out`; deleted when it fails the check.
fn checked(
    key: &ReleaseKey,
    release: &Release,
    partial: &PathBuf,
    out: &PathBuf,
) -> Result<(), UpdateError> {
    verified(key, release, partial)?;
    std::fs::rename(partial, out).map_err(|e| UpdateError::Files(out.clone(), e))
}

/// Whether `path` is the release: its SHA-256, then its signature by `key` over the whole
/// file naming the version and target. Hashed and checked from one open handle, in a folder
/// only this user may write. A file that fails is deleted.
fn verified(key: &ReleaseKey, release: &Release, path: &Path) -> Result<(), UpdateError> {
    let verdict = (|| {
        let files = |e| UpdateError::Files(path.to_owned(), e);
        let mut file = std::fs::File::open(path).map_err(files)?;
        if support::digest::sha256_hex(&mut file).map_err(files)?.1 != release.sha256 {
            return Err(UpdateError::Hash);
        }
        std::io::Seek::rewind(&mut file).map_err(files)?;
        let target = release.target.as_ref();
        key.verify(&mut file, &release.signature, &release.version, target)
            .map_err(UpdateError::Signature)
    })();
    if verdict.is_err() {
        let _ = std::fs::remove_file(path);
    }
    verdict
}

/// The checked file copied to the folder asked for, whole or not at all.
fn copied(kept: &Path, out: &Path) -> Result<(), UpdateError> {
    let bytes = std::fs::read(kept).map_err(|e| UpdateError::Files(kept.to_owned(), e))?;
    support::private_files::write_atomic(out, &bytes)
        .map_err(|e| UpdateError::Files(out.to_owned(), e))
}

/// The partial download's name: the release's SHA-256 (its first 16 hex digits), so that a
/// part left by another release is never resumed into this one.
fn hash_name(sha256: &str) -> Result<&str, UpdateError> {
    match sha256.len() == 64 && sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        true => Ok(&sha256[..16]),
        false => Err(UpdateError::FileName(sha256.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::plain_name;

    #[test]
    fn only_a_plain_file_name_is_written() {
        assert_eq!(
            plain_name("LicenseDesk-0.2.0-setup.exe").ok(),
            Some("LicenseDesk-0.2.0-setup.exe")
        );
        for name in [
            "", ".", "..", "../x.exe", "a/b.exe", "a\\b.exe", "C:x.exe", ".hidden",
        ] {
            assert!(plain_name(name).is_err(), "{name:?}");
        }
    }
}
