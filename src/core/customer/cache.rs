//! Each page as last read, in a file of its own (`pages/<hash of the profile>-<hash of the
//! enterprise>.bin` in the data folder, private to the user), so that a page opens again at
//! once, and while the platform cannot be reached. Binary (postcard), versioned.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Page;
use crate::core::cache::{CacheError, hashed, read_kept, write_kept};

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
) -> Result<Option<Page>, CacheError> {
    let Some(bytes) = read_kept(&path_of(data_dir, profile, global_id))? else {
        return Ok(None);
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
pub fn save_cached(data_dir: &Path, page: &Page) -> Result<(), CacheError> {
    let path = path_of(data_dir, &page.profile, &page.global_id);
    write_kept(
        &path,
        &ToCache {
            version: VERSION,
            page,
        },
    )
}
