//! Files read and written whole: refused at once when they are not regular files or are larger
//! than any order file can be, and written whole or not at all.

use std::path::Path;

use super::FileError;
use support::private_files::write_atomic;

/// Larger files are refused: a batch holds at most 10,000 orders, far below this.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// A file's bytes, refused at once when it is not a regular file (a folder, a device, a pipe:
/// reading one may never end) or is larger than any order file can be; read at most to that
/// size even if it grows meanwhile.
pub fn read_file_bytes(path: &Path) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let size = regular_file_size(path)?;
    let file = std::fs::File::open(path).map_err(FileError::io(path))?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or_default());
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(FileError::io(path))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    Ok(bytes)
}

/// The size of a regular file no larger than an order file can be, or why it is not one.
pub fn regular_file_size(path: &Path) -> Result<u64, FileError> {
    let meta = std::fs::metadata(path).map_err(FileError::io(path))?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_owned(),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(path, meta.len()));
    }
    Ok(meta.len())
}

fn too_large(path: &Path, size: u64) -> FileError {
    FileError::TooLarge {
        path: path.to_owned(),
        size,
    }
}

/// Writes a file the user asked for, whole or not at all (a failed export never leaves an empty
/// or half file behind).
pub fn write_file(path: &Path, body: &str) -> Result<(), FileError> {
    write_bytes(path, body.as_bytes())
}

/// `write_file` for bytes that need not be text.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomic(path, bytes).map_err(FileError::io(path))
}
