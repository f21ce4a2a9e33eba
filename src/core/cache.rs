//! Pages and reads kept on disk between sessions (postcard files under the data folder): read
//! back when present, written whole or not at all.

use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use support::private_files::{create_private_dir, write_atomic};

/// Why a kept page or read could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot keep {}: {source}", path.display())]
    Encode {
        path: PathBuf,
        source: postcard::Error,
    },
}

/// The bytes kept at `path`, or none when nothing is.
pub fn read_kept(path: &Path) -> Result<Option<Vec<u8>>, CacheError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(CacheError::Read {
            path: path.to_owned(),
            source,
        }),
    }
}

/// Keeps `value` at `path` (its folder made private to the user), whole or not at all.
pub fn write_kept(path: &Path, value: &impl Serialize) -> Result<(), CacheError> {
    let bytes = postcard::to_stdvec(value).map_err(|source| CacheError::Encode {
        path: path.to_owned(),
        source,
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    create_private_dir(dir)
        .and_then(|()| write_atomic(path, &bytes))
        .map_err(|source| CacheError::Write {
            path: path.to_owned(),
            source,
        })
}

/// A file name for a name of any length and alphabet (a profile's, an enterprise's id).
pub(crate) fn hashed(name: &str) -> String {
    let hash = Sha256::digest(name.as_bytes());
    hash[..12].iter().map(|b| format!("{b:02x}")).collect()
}
