//! Order files: reading one (with the line and column of what is wrong), writing one, and the
//! OS file dialog, which runs here so the window never waits on it.

pub mod error;
pub(in crate::core) mod io;
mod requests;

use std::path::{Path, PathBuf};

use super::CoreError;
use super::drafts::store::{Drafts, DraftsError};
use super::progress::{Progress, Stage};
use super::request::Finished;
use super::sheet::ReadError;
use super::snapshot::{Checked, Snapshot};
use support::clock::now_ms;
use wire::BatchOrderRequest;
use wire::open::{Locator, batch_to_json};
use wire::parse::{FromJson, ParseError};

pub use error::{FileError, NotABatch};
pub use io::{MAX_FILE_BYTES, read_file_bytes, regular_file_size, write_bytes, write_file};
pub use requests::{
    ExportBatch, ImportOrders, Imported, LearnImported, Pick, Picked, WriteBytes, WriteProduced,
    WriteTemplate, WriteText,
};

/// Where a problem of an imported file is in that file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilePlace {
    /// In a JSON file (1-based; the column in characters).
    Line { line: usize, column: usize },
    /// In a spreadsheet: a cell, `Orders!F12`.
    Cell(String),
    /// In a spreadsheet: a whole row (a node's first), for a problem of no one cell.
    Row { sheet: String, row: usize },
}

impl FilePlace {
    /// A sheet's place as `Sheeted::place_of` names it: `Orders!F12`, or `Orders!12` for a row.
    fn of_sheet(place: String) -> Self {
        match place.rsplit_once('!') {
            Some((sheet, row)) if !row.is_empty() && row.bytes().all(|b| b.is_ascii_digit()) => {
                FilePlace::Row {
                    sheet: sheet.to_owned(),
                    row: row.parse().unwrap_or_default(),
                }
            }
            _ => FilePlace::Cell(place),
        }
    }
}

/// A spreadsheet opened whole as a batch.
struct Opened {
    batch: BatchOrderRequest,
    /// The headers that name no column (`Orders!K1: Colour`).
    unread_columns: Vec<String>,
    /// The packages whose parent number placed them nowhere (kept at the top).
    misplaced: Vec<super::sheet::build::Misplaced>,
    /// The batch checked, with where each problem (by its path) is in the file.
    checked: (Checked, Vec<(String, FilePlace)>),
}

/// What the check finds in a batch opened from `text`, with where each problem is in it.
pub fn checked_in_text(
    batch: &BatchOrderRequest,
    text: &str,
) -> (Checked, Vec<(String, FilePlace)>) {
    let checked = Checked::of(batch);
    // The file is read again as a syntax tree only when there is something to place.
    let places = if checked.problems.is_empty() {
        Vec::new()
    } else {
        let locator = Locator::new(text.as_bytes());
        checked
            .problems
            .iter()
            .map(|p| {
                let (line, column) = locator.locate(&p.path);
                (p.path.to_string(), FilePlace::Line { line, column })
            })
            .collect()
    };
    (checked, places)
}

/// A batch from an order spreadsheet, with where each of its problems is in the file; None
/// when the user cancelled.
fn read_sheet_batch(path: &Path, progress: &Progress) -> Result<Option<Opened>, CoreError> {
    let sheeted = match super::sheet::read_sheet(path, None, progress) {
        Ok(sheeted) => sheeted,
        Err(ReadError::Cancelled(_)) => return Ok(None),
        Err(source) => {
            return Err(FileError::Sheet {
                path: path.to_owned(),
                source,
            }
            .into());
        }
    };
    let checked = Checked::of(&sheeted.batch);
    let places = checked
        .problems
        .iter()
        .map(|p| {
            (
                p.path.to_string(),
                FilePlace::of_sheet(sheeted.place_of(&p.path)),
            )
        })
        .collect();
    Ok(Some(Opened {
        batch: sheeted.batch,
        unread_columns: sheeted.unknown_headers,
        misplaced: sheeted.misplaced,
        checked: (checked, places),
    }))
}

/// An order file or sheet read whole and kept as a new draft named after the file, unless the
/// user cancels first.
pub fn import_file(
    path: &Path,
    progress: &Progress,
    drafts: &Drafts,
) -> Result<Finished<Box<Imported>>, CoreError> {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    regular_file_size(path)?;
    if super::sheet::is_sheet(path) {
        import_sheet(path, name, progress, drafts)
    } else {
        import_json(path, name, progress, drafts)
    }
}

/// A spreadsheet imported: written as JSON and stored as a draft while copied for the window.
fn import_sheet(
    path: &Path,
    name: String,
    progress: &Progress,
    drafts: &Drafts,
) -> Result<Finished<Box<Imported>>, CoreError> {
    let Some(opened) = read_sheet_batch(path, progress)? else {
        return Ok(Finished::Cancelled);
    };
    progress.start(Stage::Saving, 0);
    let body = batch_to_json(&opened.batch, false).map_err(FileError::Json)?;
    if progress.is_cancelled() {
        return Ok(Finished::Cancelled);
    }
    let draft_id = drafts
        .create(&name, &body, "{}", now_ms())
        .map_err(DraftsError::Db)?;
    let (checked, places) = opened.checked;
    Ok(Finished::Done(Box::new(Imported {
        draft_id,
        name,
        batch: Snapshot::from(opened.batch),
        unread_columns: opened.unread_columns,
        misplaced: opened.misplaced,
        places,
        profile: String::new(),
        checked: Box::new(checked),
    })))
}

/// A JSON file imported. Its text (past a byte-order mark) is the draft's body as it is, since
/// it opens to the same batch: it is stored while the file is parsed and checked. A file that
/// does not open, or an import cancelled, leaves no draft.
fn import_json(
    path: &Path,
    name: String,
    progress: &Progress,
    drafts: &Drafts,
) -> Result<Finished<Box<Imported>>, CoreError> {
    progress.start(Stage::Reading, 0);
    let bytes = read_file_bytes(path)?;
    if progress.is_cancelled() {
        return Ok(Finished::Cancelled);
    }
    progress.start(Stage::Checking, 0);
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    // Bytes that are not UTF-8 text do not parse either: nothing is stored.
    let text = std::str::from_utf8(bytes).ok();
    let (opened, created) = std::thread::scope(|s| {
        let storing = text.map(|text| s.spawn(|| drafts.create(&name, text, "{}", now_ms())));
        let opened = parse_order_file(bytes).map(|batch| {
            let checked = checked_in_text(&batch, text.unwrap_or_default());
            (batch, checked)
        });
        (opened, storing.map(|t| t.join()))
    });
    let created = match created {
        Some(Ok(created)) => Some(created.map_err(|e| DraftsError::Db(e).into())),
        Some(Err(_)) => Some(Err(DraftsError::NotStored.into())),
        None => None,
    };
    let forget = |created: Option<Result<i64, CoreError>>| {
        if let Some(Ok(id)) = created
            && let Err(e) = drafts.delete(id)
        {
            tracing::warn!(error = %e, "a draft of a file that was not imported stayed");
        }
    };
    let (batch, (checked, places)) = match opened {
        Ok(opened) if !progress.is_cancelled() => opened,
        Ok(_) => {
            forget(created);
            return Ok(Finished::Cancelled);
        }
        Err(source) => {
            forget(created);
            let path = path.to_owned();
            return Err(FileError::NotABatch { path, source }.into());
        }
    };
    let draft_id = match created {
        Some(created) => created?,
        // Not text, and yet it parsed: the batch is written anew.
        None => {
            let body = batch_to_json(&batch, false).map_err(FileError::Json)?;
            drafts
                .create(&name, &body, "{}", now_ms())
                .map_err(DraftsError::Db)?
        }
    };
    Ok(Finished::Done(Box::new(Imported {
        draft_id,
        name,
        batch: Snapshot::from(batch),
        unread_columns: Vec::new(),
        misplaced: Vec::new(),
        places,
        profile: String::new(),
        checked: Box::new(checked),
    })))
}

/// A stored draft's batch, as it opens.
#[derive(Debug, Clone, PartialEq)]
pub enum StoredBatch {
    Opened(Snapshot),
    /// What is stored opens, but is not UTF-8 text (something else wrote it): never taken
    /// as a batch, so that nothing saves over it.
    NotText,
    /// The text does not open (a damaged disk, another program): where, and why.
    Broken(NotABatch),
}

/// The batch a stored draft holds.
pub fn open_stored(draft: &super::Draft) -> StoredBatch {
    let stored = draft.body_bytes.as_deref().unwrap_or(draft.body.as_bytes());
    match parse_order_file(stored) {
        Ok(_) if draft.body_bytes.is_some() => StoredBatch::NotText,
        Ok(batch) => StoredBatch::Opened(Snapshot::from(batch)),
        Err(e) => StoredBatch::Broken(e),
    }
}

/// Opens a batch order whole: only a file that is not JSON, or not an object, is refused.
pub fn parse_order_file(bytes: &[u8]) -> Result<BatchOrderRequest, NotABatch> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    BatchOrderRequest::from_json(bytes).map_err(|e: ParseError| {
        // serde_json ends its message with the place, which is said first here.
        let message = match e.message.rfind(" at line ") {
            Some(at) => e.message[..at].to_owned(),
            None => e.message.clone(),
        };
        let what = if e.path.is_empty() {
            message
        } else {
            format!("{}: {message}", e.path)
        };
        NotABatch {
            line: e.line,
            column: e.column,
            what,
        }
    })
}

/// The file types of each purpose, as the OS dialog filters them and the window's own browser
/// lists them: a batch opens from JSON or any sheet calamine reads; it is exported as JSON; the
/// template is an `.xlsx` workbook.
pub const OPEN_TYPES: &[&str] = &["json", "xlsx", "xlsm", "xls", "xlsb", "ods", "csv"];
pub const EXPORT_TYPES: &[&str] = &["json"];
pub const TEMPLATE_TYPES: &[&str] = &["xlsx"];
/// A profile's CA file: PEM, under the names CAs give it.
pub const CERT_TYPES: &[&str] = &["pem", "crt", "cer"];
/// A catalog is written as JSON or as a workbook.
pub const CATALOG_TYPES: &[&str] = &["json", "xlsx"];

/// Where xdg-desktop-portal looks for its backends' `.portal` files unless told otherwise.
const PORTALS_DIR: &str = "/usr/share/xdg-desktop-portal/portals";

/// The portal interface a backend must implement for rfd's dialogs to open.
const FILE_CHOOSER: &str = "org.freedesktop.impl.portal.FileChooser";

/// An OS dialog returning nothing sooner than this was never shown: no person cancels that
/// fast, and a portal without a file chooser answers at once.
pub const NO_DIALOG_WITHIN: std::time::Duration = std::time::Duration::from_millis(300);

/// Whether an OS file dialog can answer. Windows and macOS always have one; on Linux rfd asks
/// the XDG portal, then runs zenity: with neither able to show one (no portal on the session
/// bus, or no backend of it with a file chooser; no zenity), nothing would open, and the
/// window offers its own instead.
pub fn os_dialog_present() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let on_path = |name: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
    };
    let portals = std::env::var_os("XDG_DESKTOP_PORTAL_DIR")
        .map_or_else(|| PathBuf::from(PORTALS_DIR), PathBuf::from);
    let portal = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        && [
            "/usr/libexec/xdg-desktop-portal",
            "/usr/lib/xdg-desktop-portal",
        ]
        .iter()
        .any(|p| Path::new(p).is_file())
        && file_chooser_in(&portals);
    portal || on_path("zenity")
}

/// What an OS dialog's answer after `took` means: nothing, at once, is no dialog shown (a
/// portal whose backend failed), not the user cancelling.
pub fn dialog_answer(picked: Option<PathBuf>, took: std::time::Duration) -> Picked {
    if picked.is_none() && took < NO_DIALOG_WITHIN {
        return Picked::NoDialog {
            closed_at_once: true,
        };
    }
    Picked::File(picked)
}

/// Whether a backend described in `dir` (its `*.portal` files) implements the file chooser:
/// the portal itself is installed with no backend, or with one that has none (as
/// xdg-desktop-portal-wlr), and then answers every dialog with nothing at once.
pub fn file_chooser_in(dir: &Path) -> bool {
    let Ok(list) = std::fs::read_dir(dir) else {
        return false;
    };
    list.flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "portal"))
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .any(|text| {
            text.lines().any(|line| {
                line.trim()
                    .strip_prefix("Interfaces")
                    .and_then(|rest| rest.trim_start().strip_prefix('='))
                    .is_some_and(|list| list.split(';').any(|i| i.trim() == FILE_CHOOSER))
            })
        })
}

/// The OS's open or save dialog. None when the user cancels or there is no dialog service (a
/// desktop without an XDG portal): the console then offers a typed path and drag and drop.
pub async fn pick_file(pick: FilePick) -> Option<PathBuf> {
    let mut dialog = rfd::AsyncFileDialog::new();
    for (name, types) in pick.filters() {
        dialog = dialog.add_filter(name, types);
    }
    let handle = match pick.suggested() {
        Some(name) => dialog.set_file_name(name).save_file().await,
        None if pick.saves() => dialog.save_file().await,
        None => dialog.pick_file().await,
    };
    handle.map(|h| h.path().to_owned())
}

/// What a file dialog is asked for: it decides the dialog's filters, whether it saves, and
/// the name it starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilePick {
    /// An order file or sheet to read: a batch to import, or what a catalog learns from.
    OpenOrders,
    /// The batch, written as JSON under this name.
    SaveBatch(String),
    /// The order sheet template, under this name (the UI's language's).
    SaveTemplate(String),
    /// The catalog, written as JSON or, named `.xlsx`, as a workbook.
    SaveCatalog,
    /// A profile's CA file.
    OpenCaFile,
}

impl FilePick {
    pub fn saves(&self) -> bool {
        matches!(
            self,
            Self::SaveBatch(_) | Self::SaveTemplate(_) | Self::SaveCatalog
        )
    }

    /// The file types the window's own browser lists.
    pub fn types(&self) -> &'static [&'static str] {
        match self {
            Self::OpenOrders => OPEN_TYPES,
            Self::SaveBatch(_) => EXPORT_TYPES,
            Self::SaveTemplate(_) => TEMPLATE_TYPES,
            Self::SaveCatalog => CATALOG_TYPES,
            Self::OpenCaFile => CERT_TYPES,
        }
    }

    /// The OS dialog's filters, named.
    fn filters(&self) -> Vec<(&'static str, &'static [&'static str])> {
        match self {
            Self::OpenOrders => vec![
                ("JSON, Excel, OpenDocument, CSV", OPEN_TYPES),
                ("JSON", EXPORT_TYPES),
            ],
            Self::SaveBatch(_) => vec![("JSON", EXPORT_TYPES)],
            Self::SaveTemplate(_) => vec![("Excel", TEMPLATE_TYPES)],
            Self::SaveCatalog => vec![("JSON", EXPORT_TYPES), ("Excel", TEMPLATE_TYPES)],
            Self::OpenCaFile => vec![("PEM", CERT_TYPES)],
        }
    }

    /// The name a save dialog starts with.
    pub fn suggested(&self) -> Option<String> {
        match self {
            Self::SaveBatch(name) | Self::SaveTemplate(name) => Some(name.clone()),
            Self::SaveCatalog => Some("catalog.json".to_owned()),
            Self::OpenOrders | Self::OpenCaFile => None,
        }
    }
}

#[cfg(test)]
mod dialog_tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::{Picked, dialog_answer, file_chooser_in};

    /// Nothing within 300 ms is no dialog; nothing later is a cancel; a file is a file.
    #[test]
    fn an_empty_answer_at_once_is_no_dialog() {
        let at_once = dialog_answer(None, Duration::from_millis(40));
        assert!(matches!(
            at_once,
            Picked::NoDialog {
                closed_at_once: true
            }
        ));
        let cancelled = dialog_answer(None, Duration::from_secs(4));
        assert!(matches!(cancelled, Picked::File(None)));
        let path = PathBuf::from("/tmp/batch.json");
        let chosen = dialog_answer(Some(path.clone()), Duration::from_millis(40));
        assert!(matches!(chosen, Picked::File(Some(p)) if p == path));
    }

    /// Only a backend that lists the file chooser among its interfaces counts; a missing
    /// folder, other files and other interfaces do not.
    #[test]
    fn a_portal_counts_only_with_a_file_chooser_backend() {
        let dir = tempfile::tempdir().expect("dir");
        assert!(!file_chooser_in(&dir.path().join("absent")));
        let write = |name: &str, text: &str| {
            std::fs::write(dir.path().join(name), text).expect("write");
        };
        write(
            "wlr.portal",
            "[portal]\nDBusName=org.freedesktop.impl.portal.desktop.wlr\n\
             Interfaces=org.freedesktop.impl.portal.Screenshot;org.freedesktop.impl.portal.ScreenCast;\n",
        );
        write(
            "notes.txt",
            "Interfaces=org.freedesktop.impl.portal.FileChooser;\n",
        );
        assert!(!file_chooser_in(dir.path()));
        write(
            "gtk.portal",
            "[portal]\nDBusName=org.freedesktop.impl.portal.desktop.gtk\n\
             Interfaces = org.freedesktop.impl.portal.FileChooser;org.freedesktop.impl.portal.AppChooser;\n\
             UseIn=gnome\n",
        );
        assert!(file_chooser_in(dir.path()));
    }
}

#[cfg(test)]
mod place_tests {
    use super::FilePlace;

    #[test]
    fn a_sheet_place_is_a_cell_or_a_whole_row() {
        assert_eq!(
            FilePlace::of_sheet("Orders!F12".into()),
            FilePlace::Cell("Orders!F12".into())
        );
        assert_eq!(
            FilePlace::of_sheet("订单!12".into()),
            FilePlace::Row {
                sheet: "订单".into(),
                row: 12
            }
        );
    }
}
