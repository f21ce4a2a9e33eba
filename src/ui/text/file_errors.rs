//! Why a file could not be read, in the window's language, for the failures a person mends
//! themselves (no such file, no permission, not a batch at a line): the error's own words stay
//! beside them, verbatim.

use std::io::ErrorKind;
use std::path::Path;

use crate::core::CoreError;
use crate::core::files::FileError;
use crate::ui::text::i18n::{Lang, tr};

/// The failure in words, or None where the error's own words are all there is to say.
pub fn read_failure_words(lang: Lang, error: &CoreError) -> Option<String> {
    let CoreError::File(e) = error else {
        return None;
    };
    let shown = |path: &Path| path.display().to_string();
    Some(match e.as_ref() {
        FileError::Io { path, source } if source.kind() == ErrorKind::NotFound => {
            tr!(lang, "file-not-found", path = shown(path))
        }
        FileError::Io { path, source } if source.kind() == ErrorKind::PermissionDenied => {
            tr!(lang, "file-no-permission", path = shown(path))
        }
        FileError::NotABatch { path, source } => tr!(
            lang,
            "file-not-a-batch",
            path = shown(path),
            line = source.line,
            column = source.column
        ),
        FileError::NotRegular { path } => tr!(lang, "file-not-regular", path = shown(path)),
        _ => return None,
    })
}
