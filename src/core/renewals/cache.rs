//! The last read of each profile, kept in a file of its own (`renewals/<hash of the profile's
//! name>.bin` in the data folder, private to the user), so that Renewals opens at once and
//! says how old it is. Binary (postcard): a million rows are tens of megabytes, read in a
//! fraction of a second.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Read;

/// Bumped when the file's shape changes: an older file is then ignored, not misread.
const VERSION: u32 = 3;

#[derive(Deserialize)]
struct Cached {
    version: u32,
    read: Read,
}

/// The same fields as `Cached`, borrowed: postcard writes fields in order, by position.
#[derive(Serialize)]
struct ToCache<'a> {
    version: u32,
    read: &'a Read,
}

fn path_of(data_dir: &Path, profile: &str) -> PathBuf {
    data_dir
        .join("renewals")
        .join(format!("{}.bin", hashed(profile)))
}

/// A file name for a name of any length and alphabet (a profile's, an enterprise's id).
pub(crate) fn hashed(name: &str) -> String {
    let hash = Sha256::digest(name.as_bytes());
    hash[..12].iter().map(|b| format!("{b:02x}")).collect()
}

/// The profile's last read, if one is kept (and is of this program's shape), sorted for the
/// table.
pub fn load_cached(data_dir: &Path, profile: &str) -> Result<Option<Read>, String> {
    let path = path_of(data_dir, profile);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    match postcard::from_bytes::<Cached>(&bytes) {
        Ok(mut cached) if cached.version == VERSION && cached.read.profile == profile => {
            cached.read.sort();
            Ok(Some(cached.read))
        }
        // Another version's file, or one damaged: as if none were kept.
        _ => Ok(None),
    }
}

/// Keeps the read as its profile's last, whole or not at all.
pub fn save_cached(data_dir: &Path, read: &Read) -> Result<(), String> {
    let path = path_of(data_dir, &read.profile);
    let cached = ToCache {
        version: VERSION,
        read,
    };
    let bytes = postcard::to_stdvec(&cached).map_err(|e| e.to_string())?;
    let dir = data_dir.join("renewals");
    crate::support::private_files::create_private_dir(&dir)
        .and_then(|()| crate::support::private_files::write_atomic(&path, &bytes))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
