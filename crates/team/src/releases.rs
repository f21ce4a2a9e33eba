//! The releases a team server distributes (issue 58): files signed with the company's key,
//! checked against the key the team trusts when they are published, and kept as they are in
//! one folder, `<target>/<version>/` holding the file, its `.minisig` and `release.json`. A
//! published release never changes; withdrawing it only stops it being offered.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use support::release_sig::{ReleaseKey, SigError};
use wire::release::{Release, Target};

/// What goes wrong with a release, in words a person acts on.
#[derive(Debug, thiserror::Error)]
pub enum ReleaseError {
    #[error(
        "no release key is set: `team settings --release-public-key FILE` sets the key the \
         company signs its releases with"
    )]
    NoKey,
    #[error("version: {0:?} is not a version X.Y.Z")]
    Version(String),
    #[error(
        "{0}: no signature beside the file (sign it: `minisign -S -s KEY -m FILE -t \"version:X.Y.Z target:T\"`)"
    )]
    Unsigned(String),
    #[error("the signature is refused, nothing is published: {0}")]
    Signature(#[from] SigError),
    #[error("{version} for {target} is already published (a release never changes)")]
    Exists { version: String, target: Target },
    #[error("no release {version} for {target} is published")]
    NoSuchRelease { version: String, target: Target },
    #[error("no release for {0} is offered")]
    NoneFor(Target),
    #[error("this team server distributes no releases (it was started without --releases DIR)")]
    NotDistributed,
    #[error("the releases' folder {place}: {error}")]
    Files { place: String, error: io::Error },
}

/// What `team release publish` is given besides the file.
#[derive(Debug, Clone)]
pub struct Publish {
    pub version: String,
    pub target: Target,
    pub notes: String,
    pub required: bool,
    pub now_ms: i64,
}

/// `release.json`: a release without its signature, which is its own file.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Kept {
    version: String,
    target: Target,
    file_name: String,
    size: u64,
    sha256: String,
    notes: String,
    published_at: i64,
    required: bool,
    withdrawn: bool,
}

const KEPT: &str = "release.json";

/// The releases' folder.
#[derive(Debug, Clone)]
pub struct Shelf {
    dir: PathBuf,
}

impl Shelf {
    pub fn new(dir: impl Into<PathBuf>) -> Shelf {
        Shelf { dir: dir.into() }
    }

    /// Publishes `file`, signed beside it (`FILE.minisig`): copied in first, then the copy
    /// checked against `key` (a file changed meanwhile cannot slip past), then put in place
    /// whole. A signature that fails leaves nothing.
    pub fn publish(
        &self,
        key: &ReleaseKey,
        file: &Path,
        p: Publish,
    ) -> Result<Release, ReleaseError> {
        let version = canonical(&p.version)?;
        let sig_path = signature_path(file);
        let signature = std::fs::read_to_string(&sig_path)
            .map_err(|_| ReleaseError::Unsigned(sig_path.display().to_string()))?;
        let file_name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| ReleaseError::Unsigned(file.display().to_string()))?;
        let place = self.place(p.target, &version)?;
        if place.exists() {
            return Err(ReleaseError::Exists {
                version,
                target: p.target,
            });
        }
        let staging = self.staging(p.target, &version)?;
        let published = (|| {
            let copy = staging.join(&file_name);
            std::fs::copy(file, &copy).map_err(|e| files(file, e))?;
            key.verify(
                File::open(&copy).map_err(|e| files(&copy, e))?,
                &signature,
                &version,
                p.target.as_ref(),
            )?;
            let (size, sha256) = hashed(&copy)?;
            let kept = Kept {
                version: version.clone(),
                target: p.target,
                file_name: file_name.clone(),
                size,
                sha256,
                notes: p.notes,
                published_at: p.now_ms,
                required: p.required,
                withdrawn: false,
            };
            std::fs::write(signature_path(&copy), &signature).map_err(|e| files(&copy, e))?;
            write_kept(&staging, &kept)?;
            std::fs::rename(&staging, &place).map_err(|e| match place.exists() {
                true => ReleaseError::Exists {
                    version: version.clone(),
                    target: p.target,
                },
                false => files(&place, e),
            })?;
            Ok(release(kept, signature))
        })();
        if published.is_err() {
            // Nothing of a refused release stays.
            let _ = std::fs::remove_dir_all(&staging);
        }
        published
    }

    /// Every release, newest first within each target.
    pub fn list(&self) -> Result<Vec<Release>, ReleaseError> {
        let mut all = Vec::new();
        for target in <Target as strum::VariantArray>::VARIANTS {
            let dir = self.dir.join(target.as_ref());
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries {
                let entry = entry.map_err(|e| files(&dir, e))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                // Staging folders (a publish in progress, or one a crash left) start with a dot;
                // anything else that is not a release is passed over, said in the log.
                if name.starts_with('.') {
                    continue;
                }
                match self.read(*target, &name) {
                    Ok(release) => all.push(release),
                    Err(e) => {
                        tracing::warn!(%target, name, error = %e, "not a release; passed over")
                    }
                }
            }
        }
        all.sort_by(|a, b| {
            a.target
                .cmp(&b.target)
                .then_with(|| sort_key(&b.version).cmp(&sort_key(&a.version)))
        });
        Ok(all)
    }

    /// The newest release for `target` that is offered.
    pub fn latest(&self, target: Target) -> Result<Option<Release>, ReleaseError> {
        Ok(self
            .list()?
            .into_iter()
            .find(|r| r.target == target && !r.withdrawn))
    }

    /// Stops offering a release (its files stay, for the record).
    pub fn withdraw(&self, target: Target, version: &str) -> Result<Release, ReleaseError> {
        let place = self.place(target, version)?;
        let mut kept = read_kept(&place, target, version)?;
        kept.withdrawn = true;
        let bytes =
            serde_json::to_vec_pretty(&kept).map_err(|e| files(&place, io::Error::other(e)))?;
        support::private_files::write_atomic(&place.join(KEPT), &bytes)
            .map_err(|e| files(&place, e))?;
        self.read(target, version)
    }

    /// A release and where its file is, to be served.
    pub fn file(&self, target: Target, version: &str) -> Result<(Release, PathBuf), ReleaseError> {
        let release = self.read(target, version)?;
        let path = self.place(target, version)?.join(&release.file_name);
        Ok((release, path))
    }

    fn read(&self, target: Target, version: &str) -> Result<Release, ReleaseError> {
        let place = self.place(target, version)?;
        let kept = read_kept(&place, target, version)?;
        let sig_path = signature_path(&place.join(&kept.file_name));
        let signature = std::fs::read_to_string(&sig_path).map_err(|e| files(&sig_path, e))?;
        Ok(release(kept, signature))
    }

    /// A release's folder; a version that is not one (`../x`) names none.
    fn place(&self, target: Target, version: &str) -> Result<PathBuf, ReleaseError> {
        if canonical(version)? != version {
            return Err(ReleaseError::Version(version.to_owned()));
        }
        Ok(self.dir.join(target.as_ref()).join(version))
    }

    fn staging(&self, target: Target, version: &str) -> Result<PathBuf, ReleaseError> {
        let parent = self.dir.join(target.as_ref());
        std::fs::create_dir_all(&parent).map_err(|e| files(&parent, e))?;
        let random =
            getrandom::u64().map_err(|e| files(&parent, io::Error::other(e.to_string())))?;
        let staging = parent.join(format!(".{version}-{random:016x}"));
        std::fs::create_dir(&staging).map_err(|e| files(&staging, e))?;
        Ok(staging)
    }
}

fn read_kept(place: &Path, target: Target, version: &str) -> Result<Kept, ReleaseError> {
    let path = place.join(KEPT);
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(ReleaseError::NoSuchRelease {
                version: version.to_owned(),
                target,
            });
        }
        Err(e) => return Err(files(&path, e)),
    };
    serde_json::from_slice(&text).map_err(|e| files(&path, io::Error::other(e)))
}

fn write_kept(dir: &Path, kept: &Kept) -> Result<(), ReleaseError> {
    let bytes = serde_json::to_vec_pretty(kept).map_err(|e| files(dir, io::Error::other(e)))?;
    std::fs::write(dir.join(KEPT), bytes).map_err(|e| files(dir, e))
}

fn release(kept: Kept, signature: String) -> Release {
    Release {
        version: kept.version,
        target: kept.target,
        file_name: kept.file_name,
        size: kept.size,
        sha256: kept.sha256,
        notes: kept.notes,
        published_at: kept.published_at,
        required: kept.required,
        withdrawn: kept.withdrawn,
        signature,
    }
}

/// The file's size and SHA-256 (hex).
fn hashed(path: &Path) -> Result<(u64, String), ReleaseError> {
    let file = File::open(path).map_err(|e| files(path, e))?;
    support::digest::sha256_hex(file).map_err(|e| files(path, e))
}

/// `FILE.minisig`.
pub fn signature_path(file: &Path) -> PathBuf {
    let mut path = file.as_os_str().to_owned();
    path.push(".minisig");
    PathBuf::from(path)
}

/// `X.Y.Z` as semver writes it, or why it is not a version.
fn canonical(version: &str) -> Result<String, ReleaseError> {
    semver::Version::parse(version)
        .map(|v| v.to_string())
        .map_err(|_| ReleaseError::Version(version.to_owned()))
}

/// Versions in semver's order; a folder not named as one sorts last.
fn sort_key(version: &str) -> Option<semver::Version> {
    semver::Version::parse(version).ok()
}

fn files(place: &Path, error: io::Error) -> ReleaseError {
    ReleaseError::Files {
        place: place.display().to_string(),
        error,
    }
}
