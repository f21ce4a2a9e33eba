//! The last read of each profile, kept in a file of its own (`renewals/<hash of the profile's
//! name>.bin` in the data folder, private to the user), so that Renewals opens at once and
//! says how old it is. Binary (postcard): a million rows are tens of megabytes, read in a
//! fraction of a second.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Read;
use crate::core::cache::{CacheError, hashed, read_kept, write_kept};

/// Bumped when the file's shape changes: an older file is then ignored, not misread.
const VERSION: u32 = 4;

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

/// The profile's last read, if one is kept (and is of this program's shape), sorted for the
/// table.
pub fn load_cached(data_dir: &Path, profile: &str) -> Result<Option<Read>, CacheError> {
    let Some(bytes) = read_kept(&path_of(data_dir, profile))? else {
        return Ok(None);
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
pub fn save_cached(data_dir: &Path, read: &Read) -> Result<(), CacheError> {
    let cached = ToCache {
        version: VERSION,
        read,
    };
    write_kept(&path_of(data_dir, &read.profile), &cached)
}
