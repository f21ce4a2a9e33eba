//! Moving to another computer in one file (issue 58): `backup create` puts the profiles
//! (never a secret or a session: those are in the keyring), drafts, catalog and directories,
//! the send-later queue, the journal and ledger, settings and the window's state into one zip
//! with a manifest (format, program version, each part's size and SHA-256); `backup restore`
//! checks the manifest and every part before anything is written, and keeps the data it
//! replaces beside it.
//!
//! Each SQLite file is copied with `VACUUM INTO`, a consistent copy even while the console
//! runs. Left out: the Sandbox (a practice platform, made afresh), caches and run locks.

pub mod pending;
pub mod requests;

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;

use crate::core::profiles::{Endpoint, Profiles};

/// The manifest's format this program writes and reads.
pub const FORMAT: u32 = 1;
const MANIFEST: &str = "manifest.json";
/// Folders of the data folder not carried: the Sandbox, run locks, pages kept as a cache,
/// downloaded updates.
const LEFT_OUT: [&str; 4] = ["sandbox", "runs", "pages", "updates"];
const WINDOW_STATE: &str = "app.ron";
/// The archive's comment, the zip's last bytes: this, then the SHA-256 (hex) of every byte of
/// the file before the hash. A byte flipped anywhere (a part, a header the zip format does not
/// check, the hash) is found before anything is read.
const SEAL: &str = "license-desk-sha256:";
const HEX: usize = 64;

/// Where a user's data is.
#[derive(Debug, Clone)]
pub struct Places {
    pub config_dir: PathBuf,
    pub data_dir: PathBuf,
    /// The window's state folder (eframe's), if known.
    pub window_dir: Option<PathBuf>,
}

/// Why a backup is not made or not restored; nothing was changed (a restore that fails while
/// moving the data in puts back what was there).
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0}: {1}")]
    Io(PathBuf, io::Error),
    #[error("{0}: not a License Desk backup ({1})")]
    NotABackup(PathBuf, String),
    #[error(
        "made by a newer License Desk (backup format {format}, program {program}); this \
         program ({}) reads format {FORMAT}: install the newer one first",
        crate::core::update::CURRENT
    )]
    Newer { format: u32, program: String },
    #[error("{0}: the backup is damaged or was altered ({1}); nothing was written")]
    Damaged(PathBuf, String),
    #[error(
        "this computer has License Desk data already ({0}); restoring would replace it: \
         give --force, which keeps it beside as …-before-restore-…"
    )]
    HasData(PathBuf),
    #[error("cannot copy the database {0}: {1}")]
    Sqlite(PathBuf, rusqlite::Error),
    #[error("cannot write the archive: {0}")]
    Zip(#[from] zip::result::ZipError),
}

/// The archive's table of contents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: u32,
    pub program: String,
    pub created_at: i64,
    pub parts: Vec<Part>,
}

/// One file of the archive: `config/…`, `data/…` or `window/app.ron`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Part {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

/// What a restore did, and what the person enters again.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Restored {
    pub parts: usize,
    /// The data that was here before, kept.
    pub kept_aside: Vec<PathBuf>,
    /// Each remote profile's app secret, each team profile's sign-in.
    pub to_enter_again: Vec<EnterAgain>,
}

/// What a restored profile needs again: secrets and sessions never travel.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase", tag = "what")]
pub enum EnterAgain {
    AppSecret { profile: String },
    SignIn { profile: String, user: String },
}

/// Writes the backup to `out` (whole or not at all, private to the user).
pub fn create(places: &Places, out: &Path) -> Result<Manifest, BackupError> {
    let staging = staging_dir(out.parent().unwrap_or(Path::new(".")))?;
    let mut parts = Vec::new();
    gather(&places.config_dir, "config", &staging, &mut parts, None)?;
    let window_in_data = places.window_dir.as_deref() == Some(places.data_dir.as_path());
    let skip_window = window_in_data.then_some(WINDOW_STATE);
    gather(&places.data_dir, "data", &staging, &mut parts, skip_window)?;
    if let Some(window) = &places.window_dir {
        let state = window.join(WINDOW_STATE);
        if state.is_file() {
            parts.push(staged_copy(&state, "window/app.ron", &staging)?);
        }
    }
    let manifest = Manifest {
        format: FORMAT,
        program: crate::core::update::CURRENT.to_owned(),
        created_at: support::clock::now_ms(),
        parts,
    };
    let zipped = write_zip(&manifest, &staging, out);
    let _ = std::fs::remove_dir_all(&staging);
    zipped.map(|()| manifest)
}

/// Every file under `dir` (recursively) staged as `prefix/…`; SQLite files copied consistently.
fn gather(
    dir: &Path,
    prefix: &str,
    staging: &Path,
    parts: &mut Vec<Part>,
    skip: Option<&str>,
) -> Result<(), BackupError> {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        let entries = match std::fs::read_dir(&next) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(BackupError::Io(next, e)),
        };
        for entry in entries {
            let path = entry.map_err(|e| BackupError::Io(next.clone(), e))?.path();
            let relative = path.strip_prefix(dir).unwrap_or(&path);
            let name = relative.to_string_lossy().replace('\\', "/");
            let top = name.split('/').next().unwrap_or_default();
            if path.is_dir() {
                if !(prefix == "data" && LEFT_OUT.contains(&top)) {
                    stack.push(path);
                }
                continue;
            }
            if carried(&name, skip) {
                parts.push(staged_copy(&path, &format!("{prefix}/{name}"), staging)?);
            }
        }
    }
    parts.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(())
}

/// A file worth carrying: not SQLite's side files (the copy holds their content), not a lock
/// or a half-written file, not this computer's mark of a restore to come (carried, it would
/// restore again on the next computer).
fn carried(name: &str, skip: Option<&str>) -> bool {
    let side = ["-wal", "-shm", "-journal", ".lock", ".part", ".tmp"];
    Some(name) != skip && name != pending::PENDING && !side.iter().any(|s| name.ends_with(s))
}

/// `path` copied into the staging folder as `part`: a SQLite database by `VACUUM INTO`.
fn staged_copy(path: &Path, part: &str, staging: &Path) -> Result<Part, BackupError> {
    let staged = staging.join(part);
    if let Some(parent) = staged.parent() {
        std::fs::create_dir_all(parent).map_err(|e| BackupError::Io(parent.to_owned(), e))?;
    }
    if is_sqlite(path) {
        // Opened as the console opens it: a read-only connection cannot read a WAL database
        // whose shared-memory file it may not write.
        let db = rusqlite::Connection::open(path)
            .map_err(|e| BackupError::Sqlite(path.to_owned(), e))?;
        db.execute("VACUUM INTO ?1", [staged.to_string_lossy()])
            .map_err(|e| BackupError::Sqlite(path.to_owned(), e))?;
    } else {
        std::fs::copy(path, &staged).map_err(|e| BackupError::Io(path.to_owned(), e))?;
    }
    let (size, sha256) = hashed(&staged)?;
    Ok(Part {
        path: part.to_owned(),
        size,
        sha256,
    })
}

fn is_sqlite(path: &Path) -> bool {
    let mut head = [0u8; 16];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

fn write_zip(manifest: &Manifest, staging: &Path, out: &Path) -> Result<(), BackupError> {
    let dir = out.parent().unwrap_or(Path::new("."));
    let temp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| BackupError::Io(dir.to_owned(), e))?;
    let mut zip = zip::ZipWriter::new(temp);
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file(MANIFEST, options)?;
    let text = serde_json::to_vec_pretty(manifest)
        .map_err(|e| BackupError::Io(out.to_owned(), io::Error::other(e)))?;
    zip.write_all(&text)
        .map_err(|e| BackupError::Io(out.to_owned(), e))?;
    for part in &manifest.parts {
        zip.start_file(part.path.as_str(), options)?;
        let staged = staging.join(&part.path);
        let mut file = File::open(&staged).map_err(|e| BackupError::Io(staged.clone(), e))?;
        io::copy(&mut file, &mut zip).map_err(|e| BackupError::Io(staged.clone(), e))?;
    }
    zip.set_comment(format!("{SEAL}{}", "0".repeat(HEX)))?;
    let mut temp = zip.finish()?;
    seal(temp.as_file_mut()).map_err(|e| BackupError::Io(out.to_owned(), e))?;
    temp.persist(out)
        .map_err(|e| BackupError::Io(out.to_owned(), e.error))?;
    Ok(())
}

/// Writes the hash of the bytes before it over the comment's placeholder, and syncs.
fn seal(file: &mut File) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let hash = hash_before_seal(file)?;
    file.seek(SeekFrom::End(-(HEX as i64)))?;
    file.write_all(hash.as_bytes())?;
    file.sync_all()
}

/// The SHA-256 (hex) of all but the file's last [`HEX`] bytes.
fn hash_before_seal(file: &mut File) -> io::Result<String> {
    use std::io::{Seek, SeekFrom};
    let len = file.seek(SeekFrom::End(0))?;
    let covered = len
        .checked_sub(HEX as u64)
        .ok_or_else(|| io::Error::other("too short"))?;
    file.seek(SeekFrom::Start(0))?;
    support::digest::sha256_hex((&mut *file).take(covered)).map(|(_, hex)| hex)
}

/// Whether the file's seal holds: it ends in [`SEAL`] and the hash of what precedes the hash.
fn sealed(file: &Path) -> Result<(), BackupError> {
    use std::io::{Seek, SeekFrom};
    let io = |e| BackupError::Io(file.to_owned(), e);
    let mut opened = File::open(file).map_err(io)?;
    let len = opened.seek(SeekFrom::End(0)).map_err(io)?;
    let mut tail = vec![0u8; SEAL.len() + HEX];
    let tail_at = len.checked_sub(tail.len() as u64);
    let read = tail_at.map(|at| {
        opened
            .seek(SeekFrom::Start(at))
            .and_then(|_| opened.read_exact(&mut tail))
    });
    if !matches!(read, Some(Ok(()))) || !tail.starts_with(SEAL.as_bytes()) {
        return Err(BackupError::NotABackup(
            file.to_owned(),
            "no License Desk seal at its end".to_owned(),
        ));
    }
    let kept = String::from_utf8_lossy(&tail[SEAL.len()..]).into_owned();
    if hash_before_seal(&mut opened).map_err(io)? != kept {
        return Err(BackupError::Damaged(
            file.to_owned(),
            "its bytes are not those that were sealed".to_owned(),
        ));
    }
    Ok(())
}

/// Restores `file` into `places`: every part checked first (a damaged or altered backup
/// changes nothing); data already here refused unless `force`, which keeps it beside.
pub fn restore(places: &Places, file: &Path, force: bool) -> Result<Restored, BackupError> {
    sealed(file)?;
    let opened = File::open(file).map_err(|e| BackupError::Io(file.to_owned(), e))?;
    let mut zip = zip::ZipArchive::new(opened)
        .map_err(|e| BackupError::NotABackup(file.to_owned(), e.to_string()))?;
    let manifest = read_manifest(&mut zip, file)?;
    if !force && let Some(found) = existing(places) {
        return Err(BackupError::HasData(found));
    }
    let staging = staging_dir(places.data_dir.parent().unwrap_or(Path::new(".")))?;
    let restored = unpack(&mut zip, &manifest, file, &staging)
        .and_then(|()| put_in_place(places, &staging, &manifest));
    let _ = std::fs::remove_dir_all(&staging);
    restored
}

/// Checks `file` whole as a restore would (its seal, its format, every part unpacked beside
/// the data folder and its SHA-256 compared), then throws the unpacked parts away.
pub fn check(places: &Places, file: &Path) -> Result<Manifest, BackupError> {
    sealed(file)?;
    let opened = File::open(file).map_err(|e| BackupError::Io(file.to_owned(), e))?;
    let mut zip = zip::ZipArchive::new(opened)
        .map_err(|e| BackupError::NotABackup(file.to_owned(), e.to_string()))?;
    let manifest = read_manifest(&mut zip, file)?;
    let staging = staging_dir(places.data_dir.parent().unwrap_or(Path::new(".")))?;
    let unpacked = unpack(&mut zip, &manifest, file, &staging);
    let _ = std::fs::remove_dir_all(&staging);
    unpacked.map(|()| manifest)
}

fn read_manifest(zip: &mut zip::ZipArchive<File>, file: &Path) -> Result<Manifest, BackupError> {
    let not = |why: String| BackupError::NotABackup(file.to_owned(), why);
    let mut entry = zip
        .by_name(MANIFEST)
        .map_err(|_| not("no manifest.json".to_owned()))?;
    let mut text = Vec::new();
    entry
        .read_to_end(&mut text)
        .map_err(|e| BackupError::Damaged(file.to_owned(), e.to_string()))?;
    let value: serde_json::Value = serde_json::from_slice(&text).map_err(|e| not(e.to_string()))?;
    let format = value["format"].as_u64().unwrap_or(0);
    if format > u64::from(FORMAT) {
        return Err(BackupError::Newer {
            format: u32::try_from(format).unwrap_or(u32::MAX),
            program: value["program"].as_str().unwrap_or("?").to_owned(),
        });
    }
    serde_json::from_value(value).map_err(|e| not(e.to_string()))
}

/// Every part of the manifest, and nothing else, unpacked into `staging` and checked.
fn unpack(
    zip: &mut zip::ZipArchive<File>,
    manifest: &Manifest,
    file: &Path,
    staging: &Path,
) -> Result<(), BackupError> {
    let damaged = |why: String| BackupError::Damaged(file.to_owned(), why);
    if zip.len() != manifest.parts.len() + 1 {
        return Err(damaged(
            "its files are not those its manifest lists".to_owned(),
        ));
    }
    for part in &manifest.parts {
        if !safe_part(&part.path) {
            return Err(damaged(format!(
                "{:?} is not a place of License Desk's",
                part.path
            )));
        }
        let mut entry = zip
            .by_name(&part.path)
            .map_err(|_| damaged(format!("{} is missing", part.path)))?;
        let staged = staging.join(&part.path);
        if let Some(parent) = staged.parent() {
            std::fs::create_dir_all(parent).map_err(|e| BackupError::Io(parent.to_owned(), e))?;
        }
        let mut out = File::create(&staged).map_err(|e| BackupError::Io(staged.clone(), e))?;
        io::copy(&mut entry, &mut out).map_err(|e| damaged(format!("{}: {e}", part.path)))?;
        let (size, sha256) = hashed(&staged)?;
        if size != part.size || sha256 != part.sha256 {
            return Err(damaged(format!("{} is not as it was written", part.path)));
        }
    }
    Ok(())
}

/// A part's name that can only name a file under the staging folder, on every system:
/// `config/`, `data/` or `window/`, then plain names (no `..`, no `\\`, no drive, no NUL).
fn safe_part(path: &str) -> bool {
    let root = ["config/", "data/", "window/"]
        .iter()
        .any(|r| path.starts_with(r));
    let plain = path
        .split('/')
        .all(|p| !p.is_empty() && p != "." && p != ".." && !p.contains(['\\', ':', '\0']));
    root && plain
}

/// The first place that holds data already.
fn existing(places: &Places) -> Option<PathBuf> {
    let config = places.config_dir.join("profiles.json");
    let data = [
        "drafts.sqlite3",
        "journal.sqlite3",
        "catalog.sqlite3",
        "queue.sqlite3",
    ]
    .map(|name| places.data_dir.join(name));
    std::iter::once(config).chain(data).find(|p| p.exists())
}

/// The staged folders moved into place, what was there kept beside.
fn put_in_place(
    places: &Places,
    staging: &Path,
    manifest: &Manifest,
) -> Result<Restored, BackupError> {
    let stamp = jiff::Timestamp::now().strftime("%Y%m%d-%H%M%S").to_string();
    let mut targets = vec![
        (staging.join("config"), places.config_dir.clone()),
        (staging.join("data"), places.data_dir.clone()),
    ];
    if places.window_dir.as_deref() == Some(places.data_dir.as_path()) {
        // The window's state lives in the data folder: it goes there with it.
        let state = staging.join("window").join(WINDOW_STATE);
        if state.exists() {
            let into = staging.join("data").join(WINDOW_STATE);
            std::fs::create_dir_all(staging.join("data"))
                .map_err(|e| BackupError::Io(into.clone(), e))?;
            std::fs::rename(&state, &into).map_err(|e| BackupError::Io(into.clone(), e))?;
        }
    } else if let Some(window) = &places.window_dir {
        targets.push((staging.join("window"), window.clone()));
    }
    let targets: Vec<_> = targets
        .into_iter()
        .filter(|(from, _)| from.exists())
        .collect();
    let kept_aside = set_aside(&targets, &stamp)?;
    if let Err(e) = move_in(&targets) {
        // Whatever moved in goes, and what was here comes back: as it was before.
        for (_, to) in &targets {
            let _ = std::fs::remove_dir_all(to);
        }
        put_back(&kept_aside);
        return Err(e);
    }
    Ok(Restored {
        parts: manifest.parts.len(),
        kept_aside: kept_aside.into_iter().map(|(kept, _)| kept).collect(),
        to_enter_again: to_enter_again(&places.config_dir.join("profiles.json")),
    })
}

/// Each target that exists renamed aside (`…-before-restore-STAMP`), answered as (aside,
/// target); if one cannot be, those set aside are put back and nothing has changed.
fn set_aside(
    targets: &[(PathBuf, PathBuf)],
    stamp: &str,
) -> Result<Vec<(PathBuf, PathBuf)>, BackupError> {
    let mut aside = Vec::new();
    for (_, to) in targets {
        if !to.exists() {
            continue;
        }
        let kept = PathBuf::from(format!("{}-before-restore-{stamp}", to.display()));
        if let Err(e) = std::fs::rename(to, &kept) {
            put_back(&aside);
            return Err(BackupError::Io(to.clone(), e));
        }
        aside.push((kept, to.clone()));
    }
    Ok(aside)
}

fn put_back(aside: &[(PathBuf, PathBuf)]) {
    for (kept, to) in aside {
        if let Err(e) = std::fs::rename(kept, to) {
            tracing::error!(kept = %kept.display(), error = %e, "the data set aside could not be put back");
        }
    }
}

/// The staged folders moved to their places (which are free now).
fn move_in(targets: &[(PathBuf, PathBuf)]) -> Result<(), BackupError> {
    for (from, to) in targets {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| BackupError::Io(parent.to_owned(), e))?;
        }
        move_dir(from, to)?;
    }
    Ok(())
}

/// A rename, else (another disk) a copy.
fn move_dir(from: &Path, to: &Path) -> Result<(), BackupError> {
    if std::fs::rename(from, to).is_ok() {
        return Ok(());
    }
    let mut stack = vec![from.to_path_buf()];
    while let Some(next) = stack.pop() {
        let target = to.join(next.strip_prefix(from).unwrap_or(&next));
        std::fs::create_dir_all(&target).map_err(|e| BackupError::Io(target.clone(), e))?;
        for entry in std::fs::read_dir(&next).map_err(|e| BackupError::Io(next.clone(), e))? {
            let path = entry.map_err(|e| BackupError::Io(next.clone(), e))?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let into = target.join(path.file_name().unwrap_or_default());
                std::fs::copy(&path, &into).map_err(|e| BackupError::Io(into.clone(), e))?;
            }
        }
    }
    Ok(())
}

/// What the restored profiles need again.
fn to_enter_again(profiles: &Path) -> Vec<EnterAgain> {
    let Ok(profiles) = Profiles::load(profiles) else {
        return Vec::new();
    };
    profiles
        .profiles
        .iter()
        .filter_map(|p| match &p.endpoint {
            Endpoint::Sandbox => None,
            Endpoint::Remote { .. } => Some(EnterAgain::AppSecret {
                profile: p.name.clone(),
            }),
            Endpoint::Team { user, .. } => Some(EnterAgain::SignIn {
                profile: p.name.clone(),
                user: user.clone(),
            }),
        })
        .collect()
}

fn staging_dir(near: &Path) -> Result<PathBuf, BackupError> {
    std::fs::create_dir_all(near).map_err(|e| BackupError::Io(near.to_owned(), e))?;
    tempfile::Builder::new()
        .prefix(".license-desk-backup-")
        .tempdir_in(near)
        .map(tempfile::TempDir::keep)
        .map_err(|e| BackupError::Io(near.to_owned(), e))
}

fn hashed(path: &Path) -> Result<(u64, String), BackupError> {
    let file = File::open(path).map_err(|e| BackupError::Io(path.to_owned(), e))?;
    support::digest::sha256_hex(file).map_err(|e| BackupError::Io(path.to_owned(), e))
}

#[cfg(test)]
mod tests {
    use super::safe_part;

    #[test]
    fn a_part_names_only_a_file_under_its_own_place() {
        for ok in [
            "config/profiles.json",
            "data/drafts.sqlite3",
            "window/app.ron",
            "data/a/b",
        ] {
            assert!(safe_part(ok), "{ok}");
        }
        let escapes = [
            "data/../x",
            "data/..\\..\\Startup\\x.bat",
            "data/C:x",
            "other/x",
            "/etc/x",
            "data//x",
            "data/./x",
            "data/x\0",
            "config",
        ];
        for bad in escapes {
            assert!(!safe_part(bad), "{bad:?}");
        }
    }
}
