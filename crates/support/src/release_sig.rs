//! Releases signed in minisign's format (Ed25519 over the file's BLAKE2b-512 hash, and over a
//! trusted comment), the files Debian's `minisign` tool and `license-desk release sign` make.
//!
//! A release's trusted comment names what it is (`version:0.2.0 target:windows-x86_64`,
//! among other words): a file signed for one version or target is refused as another, so an
//! old signed installer cannot be offered as a new one.

use std::fmt;
use std::io::{Read, Seek};

use base64::Engine;
use minisign::{PublicKey, PublicKeyBox, SignatureBox};
use sha2::{Digest, Sha256};

/// Why a key or a signature is refused.
#[derive(Debug, thiserror::Error)]
pub enum SigError {
    #[error("not a minisign public key: {0}")]
    Key(String),
    #[error("not a minisign signature: {0}")]
    Signature(String),
    #[error("signed with key {signed_by}, not with the trusted key {trusted}")]
    OtherKey { signed_by: String, trusted: String },
    #[error(
        "the signature does not match: the file or the signature's trusted comment was altered, \
         or it was signed as another file"
    )]
    Altered,
    #[error(
        "the signature's trusted comment names no {what} (sign with -t \"version:X.Y.Z \
         target:T\")"
    )]
    Unnamed { what: &'static str },
    #[error("signed as {what} {signed}, not {asked}")]
    SignedAsOther {
        what: &'static str,
        signed: String,
        asked: String,
    },
    #[error("the file cannot be read: {0}")]
    Read(#[from] std::io::Error),
}

/// A release key: a minisign public key, as its `.pub` file or its one base64 line.
#[derive(Clone)]
pub struct ReleaseKey {
    key: PublicKey,
}

impl fmt::Debug for ReleaseKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ReleaseKey({})", self.key_id())
    }
}

impl PartialEq for ReleaseKey {
    fn eq(&self, other: &Self) -> bool {
        self.key.to_bytes() == other.key.to_bytes()
    }
}

impl ReleaseKey {
    /// The key of a `.pub` file (its comment line and base64 line) or of its base64 line.
    pub fn parse(text: &str) -> Result<ReleaseKey, SigError> {
        let line = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("untrusted comment:"))
            .ok_or_else(|| SigError::Key("it is empty".to_owned()))?;
        let key = PublicKey::from_base64(line).map_err(|e| SigError::Key(e.to_string()))?;
        Ok(ReleaseKey { key })
    }

    /// Its one base64 line, as `minisign -P` takes it.
    pub fn to_base64(&self) -> String {
        self.key.to_base64()
    }

    /// minisign's key id (16 hex digits), as its files' comments name it.
    pub fn key_id(&self) -> String {
        key_id(self.key.keynum())
    }

    /// What a person compares, as SSH shows a host key: `SHA256:` and the key's hash.
    pub fn fingerprint(&self) -> String {
        let hash = Sha256::digest(self.key.to_bytes());
        let b64 = base64::engine::general_purpose::STANDARD_NO_PAD.encode(hash);
        format!("SHA256:{b64}")
    }

    /// Its `.pub` file's text.
    pub fn to_file_text(&self) -> Result<String, SigError> {
        let boxed: PublicKeyBox = self
            .key
            .to_box()
            .map_err(|e| SigError::Key(e.to_string()))?;
        Ok(boxed.into_string())
    }

    /// Checks `signature` (a `.minisig` file's text) over `file`, and that its trusted comment
    /// names `version` and `target`. Reads the whole file.
    pub fn verify(
        &self,
        file: impl Read + Seek,
        signature: &str,
        version: &str,
        target: &str,
    ) -> Result<(), SigError> {
        let sig =
            SignatureBox::from_string(signature).map_err(|e| SigError::Signature(e.to_string()))?;
        if sig.keynum() != self.key.keynum() {
            return Err(SigError::OtherKey {
                signed_by: key_id(sig.keynum()),
                trusted: self.key_id(),
            });
        }
        // A signature without a trusted comment names nothing: refused before it is checked.
        let comment = sig
            .trusted_comment()
            .map_err(|_| SigError::Unnamed { what: "version" })?;
        minisign::verify(&self.key, &sig, file, true, false, false)
            .map_err(|_| SigError::Altered)?;
        named(&comment, "version", version)?;
        named(&comment, "target", target)
    }
}

/// Whether the trusted comment's `what:` word is `asked`.
fn named(comment: &str, what: &'static str, asked: &str) -> Result<(), SigError> {
    let signed = comment
        .split_whitespace()
        .find_map(|word| word.strip_prefix(what)?.strip_prefix(':'))
        .ok_or(SigError::Unnamed { what })?;
    if signed == asked {
        Ok(())
    } else {
        Err(SigError::SignedAsOther {
            what,
            signed: signed.to_owned(),
            asked: asked.to_owned(),
        })
    }
}

fn key_id(keynum: &[u8]) -> String {
    // minisign prints the key number as a little-endian u64.
    keynum.iter().rev().map(|b| format!("{b:02X}")).collect()
}

/// The trusted comment `license-desk release sign` writes: when, which file, what release.
pub fn trusted_comment(file_name: &str, version: &str, target: &str, now_secs: u64) -> String {
    format!("timestamp:{now_secs}\tfile:{file_name}\tversion:{version}\ttarget:{target}")
}
