//! A restore asked for in the window (Settings → *Move to another computer…*). The running
//! console's files cannot be replaced under it, so the backup is checked whole at once and
//! named in `restore-pending.json` beside the profiles; the next start restores it before the
//! core opens anything.

use std::path::{Path, PathBuf};

use super::{BackupError, Manifest, Places, Restored, check, restore};

pub(super) const PENDING: &str = "restore-pending.json";

#[derive(serde::Serialize, serde::Deserialize)]
struct Pending {
    file: PathBuf,
}

/// Checks `file` whole (its seal, its format, every part's SHA-256) and names it for the next
/// start, in place of one named before (which a file that fails the check also undoes).
/// Nothing of this computer's data changes now.
pub fn prepare(places: &Places, file: &Path) -> Result<Manifest, BackupError> {
    let marker = places.config_dir.join(PENDING);
    if marker.exists() {
        std::fs::remove_file(&marker).map_err(|e| BackupError::Io(marker.clone(), e))?;
    }
    let manifest = check(places, file)?;
    let file = std::path::absolute(file).map_err(|e| BackupError::Io(file.to_owned(), e))?;
    // A computer where License Desk only just started has no settings folder yet.
    support::private_files::create_private_dir(&places.config_dir)
        .map_err(|e| BackupError::Io(places.config_dir.clone(), e))?;
    let bytes = serde_json::to_vec(&Pending { file })
        .map_err(|e| BackupError::NotABackup(marker.clone(), e.to_string()))?;
    support::private_files::write_atomic(&marker, &bytes)
        .map_err(|e| BackupError::Io(marker.clone(), e))?;
    Ok(manifest)
}

/// At start, before the core opens: the restore named, if one is, over the data here (kept
/// beside). Its mark is removed first, so that one that fails is not tried at every start
/// (and none is done when the mark cannot be removed).
pub fn finish(places: &Places) -> Option<Result<Restored, BackupError>> {
    let marker = places.config_dir.join(PENDING);
    let bytes = std::fs::read(&marker).ok()?;
    if let Err(e) = std::fs::remove_file(&marker) {
        return Some(Err(BackupError::Io(marker, e)));
    }
    Some(
        serde_json::from_slice::<Pending>(&bytes)
            .map_err(|e| BackupError::NotABackup(marker, e.to_string()))
            .and_then(|pending| restore(places, &pending.file, true)),
    )
}
