//! Why a file the user named could not be read, written or understood; each names the file.

use std::path::PathBuf;

use super::io::MAX_FILE_BYTES;
use crate::core::sheet::ReadError;

/// Why bytes are not a batch order, in the words `order check` and the console show:
/// `line 3, column 7: orderList[0].assets: invalid type: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {what}")]
pub struct NotABatch {
    pub line: usize,
    pub column: usize,
    pub what: String,
}

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{}: not a regular file (a folder, a device or a pipe); an order file is a file on disk",
        path.display()
    )]
    NotRegular { path: PathBuf },
    #[error("{}: {size} bytes or more; an order file is at most {MAX_FILE_BYTES} bytes", path.display())]
    TooLarge { path: PathBuf, size: u64 },
    #[error("{}: {source}", path.display())]
    NotABatch { path: PathBuf, source: NotABatch },
    #[error("{}: {source}", path.display())]
    Sheet { path: PathBuf, source: ReadError },
    #[error("{}: {source}", path.display())]
    Workbook {
        path: PathBuf,
        source: rust_xlsxwriter::XlsxError,
    },
    #[error(
        "{}: line {}, column {}: not a catalog file: {source}",
        path.display(), source.line(), source.column()
    )]
    NotCatalog {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// A batch or catalog that could not be written as JSON.
    #[error("cannot be written as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

impl FileError {
    /// `map_err` for an I/O error on `path`.
    pub fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
        move |source| FileError::Io {
            path: path.to_owned(),
            source,
        }
    }

    /// `map_err` for a workbook that could not be made for `path`.
    pub fn workbook(
        path: &std::path::Path,
    ) -> impl FnOnce(rust_xlsxwriter::XlsxError) -> FileError + '_ {
        move |source| FileError::Workbook {
            path: path.to_owned(),
            source,
        }
    }
}
