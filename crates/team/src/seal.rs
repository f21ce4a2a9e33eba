//! The record's seal, against whoever can write the store (issue 52; AWS CloudTrail's digest
//! files, Vault's HMACs): a key kept off the database makes every entry's MAC and signs the
//! checkpoints the server writes beside the store (and to its log) at every beat and at its
//! stop. Someone with the database but not the key cannot recompute a chain that verifies, and
//! a tail cut off or a head dropped below what a checkpoint saw is reported by
//! `team audit verify`.
//!
//! MAC = HMAC-SHA256(key, label ‖ 0 ‖ data), hex; the labels keep an entry's MAC from ever
//! being a checkpoint's.

use std::io::Write;
use std::path::{Path, PathBuf};

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::error::TeamError;

/// File name of the key inside a data directory, when no other place is given.
pub const KEY_FILE: &str = "audit.key";

/// File name of the checkpoints inside a data directory: one JSON object a line.
pub const CHECKPOINTS_FILE: &str = "audit-checkpoints.jsonl";

/// The record's key: 32 random bytes, kept as 64 hex digits in a file only its user reads,
/// with the last entry written before it existed (`sealed-after N` on the file's second
/// line): every later entry must carry its MAC, so that blanking the MACs proves nothing.
#[derive(Clone)]
pub struct AuditKey {
    bytes: [u8; 32],
    sealed_after: i64,
}

impl std::fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AuditKey(…)")
    }
}

impl AuditKey {
    /// The key in `path`, made there (private to the user) if there is none yet: it seals the
    /// entries after `chain_end`, the record's last entry now.
    pub fn load_or_create(path: &Path, chain_end: i64) -> Result<AuditKey, TeamError> {
        match Self::load(path)? {
            Some(key) => Ok(key),
            None => {
                let mut bytes = [0u8; 32];
                getrandom::fill(&mut bytes).map_err(|e| failed(path, e))?;
                let text = format!("{}\nsealed-after {chain_end}\n", hex(&bytes));
                support::private_files::write_atomic(path, text.as_bytes())
                    .map_err(|e| failed(path, e))?;
                tracing::info!(path = %path.display(), "made the audit log's key");
                Ok(AuditKey {
                    bytes,
                    sealed_after: chain_end,
                })
            }
        }
    }

    /// The last entry written before the key existed (entries up to it carry no MAC).
    pub fn sealed_after(&self) -> i64 {
        self.sealed_after
    }

    /// The key in `path`, if the file is there.
    pub fn load(path: &Path) -> Result<Option<AuditKey>, TeamError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(failed(path, e)),
        };
        let mut lines = text.lines();
        let bytes = unhex(lines.next().unwrap_or_default().trim())
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .ok_or_else(|| failed(path, "its first line is not 64 hexadecimal digits"))?;
        let sealed_after = match lines.next().map(str::trim) {
            None | Some("") => 0,
            Some(line) => line
                .strip_prefix("sealed-after ")
                .and_then(|n| n.trim().parse().ok())
                .ok_or_else(|| failed(path, "its second line is not `sealed-after N`"))?,
        };
        Ok(Some(AuditKey {
            bytes,
            sealed_after,
        }))
    }

    /// The MAC of `data` under `label`.
    pub fn mac(&self, label: &str, data: &[u8]) -> String {
        // HMAC takes a key of any length: `new_from_slice` cannot fail for 32 bytes.
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&self.bytes) else {
            return String::new();
        };
        mac.update(label.as_bytes());
        mac.update(&[0]);
        mac.update(data);
        hex(&mac.finalize().into_bytes())
    }

    /// An entry's MAC: over its hash, which covers its content and the chain before it.
    pub fn entry_mac(&self, hash: &str) -> String {
        self.mac("entry", hash.as_bytes())
    }
}

/// Where the record's key and checkpoints are kept: beside the store, or where given.
#[derive(Debug, Clone, Default)]
pub struct SealPlaces {
    pub key: Option<PathBuf>,
    pub checkpoints: Option<PathBuf>,
}

impl SealPlaces {
    /// The defaults inside a data directory.
    pub fn in_dir(dir: &Path) -> SealPlaces {
        SealPlaces {
            key: Some(dir.join(KEY_FILE)),
            checkpoints: Some(dir.join(CHECKPOINTS_FILE)),
        }
    }
}

/// What the record was at one moment: its end and its start (which retention moves).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    pub at: i64,
    pub seq: i64,
    pub hash: String,
    pub start_seq: i64,
    pub start_hash: String,
    /// Made with the key; none when the server had no key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
}

impl Checkpoint {
    fn signed_part(&self) -> String {
        format!(
            "{}:{}:{}:{}:{}",
            self.at, self.seq, self.hash, self.start_seq, self.start_hash
        )
    }

    pub fn sign(mut self, key: Option<&AuditKey>) -> Checkpoint {
        self.mac = key.map(|k| k.mac("checkpoint", self.signed_part().as_bytes()));
        self
    }

    /// Whether its MAC is `key`'s (a checkpoint without one is not).
    pub fn signed_by(&self, key: &AuditKey) -> bool {
        self.mac.as_deref()
            == Some(
                key.mac("checkpoint", self.signed_part().as_bytes())
                    .as_str(),
            )
    }
}

/// Appends `checkpoint` as a line to `path` (made private to the user), synced.
pub fn write_checkpoint(path: &Path, checkpoint: &Checkpoint) -> Result<(), TeamError> {
    let mut line = serde_json::to_vec(checkpoint).map_err(|e| failed(path, e))?;
    line.push(b'\n');
    support::private_files::ensure_private_file(path).map_err(|e| failed(path, e))?;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| failed(path, e))?;
    file.write_all(&line)
        .and_then(|()| file.sync_data())
        .map_err(|e| failed(path, e))
}

/// Every checkpoint in `path`, oldest first; none when the file is not there. A line that is
/// not a checkpoint is an error naming it: the file is evidence, not to be skipped over.
pub fn read_checkpoints(path: &Path) -> Result<Vec<Checkpoint>, TeamError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(failed(path, e)),
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| failed(path, format!("line {}: {e}", i + 1)))
        })
        .collect()
}

fn failed(path: &Path, e: impl std::fmt::Display) -> TeamError {
    TeamError::Audit(format!("{}: {e}", path.display()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}
