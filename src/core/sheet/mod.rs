//! Spreadsheets as batch orders: an order sheet read (`.xlsx`, `.csv`), its rows grouped into
//! orders, assets, packages and products, every problem placed at its cell.

pub mod build;
pub mod columns;
pub mod read;
pub mod template;

use std::collections::HashMap;
use std::path::Path;

use crate::wire::BatchOrderRequest;
use crate::wire::open::{Source, open_object};
use crate::wire::validate::FieldPath;

pub use read::ReadError;

/// A sheet opened as a batch: values that do not fit are held in it verbatim, like a JSON
/// file's; each field knows its cell.
pub struct Sheeted {
    pub batch: BatchOrderRequest,
    places: HashMap<String, String>,
    /// `Orders!K1: Foo`: headers that name no column (their cells were not read).
    pub unknown_headers: Vec<String>,
}

impl Sheeted {
    /// Where a problem is: its field's cell, else the first row of the nearest node.
    pub fn place_of(&self, path: &FieldPath) -> String {
        let mut at = path.to_string();
        loop {
            if let Some(place) = self.places.get(&at) {
                return place.clone();
            }
            match at.rfind(['.', '[']) {
                Some(cut) => at.truncate(cut),
                None => return self.places.get("").cloned().unwrap_or_default(),
            }
        }
    }
}

/// Reads an order sheet: a CSV file, or a workbook's sheet (the one named, else the first).
pub fn read_sheet(path: &Path, sheet: Option<&str>) -> Result<Sheeted, ReadError> {
    let grid = read::read_grid(path, sheet)?;
    let built = build::build(&grid);
    Ok(Sheeted {
        batch: open_object(built.batch, Source::Sheet),
        places: built.places,
        unknown_headers: built.unknown_headers,
    })
}

/// Whether a path names a spreadsheet (by its extension) rather than a JSON file.
pub fn is_sheet(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["xlsx", "xlsm", "xls", "xlsb", "ods", "csv"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    })
}
