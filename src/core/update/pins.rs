//! The release keys this console trusts, one per team server (`release-keys.json` beside the
//! profiles): pinned the first time a server's key is seen, as SSH pins a host key, and
//! replaced only when a person confirms the new key's fingerprint.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use support::private_files::write_atomic;
use support::release_sig::ReleaseKey;

use super::UpdateError;

/// The pins, by team server address.
#[derive(Debug)]
pub(super) struct Pins {
    path: PathBuf,
    keys: BTreeMap<String, String>,
}

impl Pins {
    /// The pins kept at `path` (none when it does not exist).
    pub(super) fn read(path: &Path) -> Result<Pins, UpdateError> {
        let keys = match std::fs::read(path) {
            Ok(text) => serde_json::from_slice(&text).map_err(|e| UpdateError::Pins {
                path: path.to_owned(),
                why: e.to_string(),
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => {
                return Err(UpdateError::Pins {
                    path: path.to_owned(),
                    why: e.to_string(),
                });
            }
        };
        Ok(Pins {
            path: path.to_owned(),
            keys,
        })
    }

    /// The key pinned for `server`, if any.
    pub(super) fn get(&self, server: &str) -> Result<Option<ReleaseKey>, UpdateError> {
        self.keys
            .get(server)
            .map(|line| ReleaseKey::parse(line).map_err(UpdateError::Signature))
            .transpose()
    }

    /// Pins `key` for `server`, written whole.
    pub(super) fn set(&mut self, server: &str, key: &ReleaseKey) -> Result<(), UpdateError> {
        self.keys.insert(server.to_owned(), key.to_base64());
        let failed = |why: String| UpdateError::Pins {
            path: self.path.clone(),
            why,
        };
        let text = serde_json::to_vec_pretty(&self.keys).map_err(|e| failed(e.to_string()))?;
        write_atomic(&self.path, &text).map_err(|e| failed(e.to_string()))
    }
}
