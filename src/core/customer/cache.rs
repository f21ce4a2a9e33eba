//! Each page as last read, in a file of its own (`pages/<hash of the profile>-<hash of the
//! enterprise>.bin` in the data folder, private to the user), so that a page opens again at
//! once, and while the platform cannot be reached. Binary (postcard), versioned.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Page;
use crate::core::renewals::hashed;
use crate::support::private_files::{create_private_dir, write_atomic};

/// Bumped when the file's shape changes: an older file is then ignored, not misread.
const VERSION: u32 = 2;

#[derive(Deserialize)]
struct Cached {
    version: u32,
    page: Page,
}

/// The same fields as `Cached`, borrowed: postcard writes fields in order, by position.
#[derive(Serialize)]
struct ToCache<'a> {
    version: u32,
    page: &'a Page,
}

fn path_of(data_dir: &Path, profile: &str, global_id: &str) -> PathBuf {
    let name = format!("{}-{}.bin", hashed(profile), hashed(global_id));
    data_dir.join("pages").join(name)
}

/// The page kept for the enterprise on the profile, if one is (and is of this program's
/// shape), sorted for the window.
pub fn load_cached(
    data_dir: &Path,
    profile: &str,
    global_id: &str,
) -> Result<Option<Page>, String> {
    let path = path_of(data_dir, profile, global_id);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    match postcard::from_bytes::<Cached>(&bytes) {
        Ok(mut c)
            if c.version == VERSION
                && c.page.profile == profile
                && c.page.global_id == global_id =>
        {
            c.page.holdings.sort();
            Ok(Some(c.page))
        }
        // Another version's file, or one damaged: as if none were kept.
        _ => Ok(None),
    }
}

/// Keeps the page, whole or not at all.
pub fn save_cached(data_dir: &Path, page: &Page) -> Result<(), String> {
    let path = path_of(data_dir, &page.profile, &page.global_id);
    let bytes = postcard::to_stdvec(&ToCache {
        version: VERSION,
        page,
    })
    .map_err(|e| e.to_string())?;
    create_private_dir(&data_dir.join("pages"))
        .and_then(|()| write_atomic(&path, &bytes))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
