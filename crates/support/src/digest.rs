//! A file's SHA-256 as the releases, updates and backups name it: lowercase hex, with the
//! number of bytes read.

use std::io::{self, Read};

use sha2::{Digest, Sha256};

/// Everything `reader` gives: its length and SHA-256 in hex.
pub fn sha256_hex(mut reader: impl Read) -> io::Result<(u64, String)> {
    let mut hash = Sha256::new();
    let size = io::copy(&mut reader, &mut hash)?;
    let hex = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((size, hex))
}
