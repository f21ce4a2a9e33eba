//! Spreadsheets as batch orders: an order sheet read (`.xlsx`, `.csv`), its rows grouped into
//! orders, assets, packages and products, every problem placed at its cell.

pub mod build;
pub mod columns;
pub mod read;
pub mod template;

use std::collections::HashMap;
use std::path::Path;

use crate::core::progress::{Progress, Stage};
use wire::BatchOrderRequest;
use wire::open::{Source, open_object};
use wire::validate::FieldPath;

use read::Grid;

pub use read::ReadError;

/// A sheet opened as a batch: values that do not fit are held in it verbatim, like a JSON
/// file's; each node knows its rows, each value its cell.
pub struct Sheeted {
    pub batch: BatchOrderRequest,
    /// `Orders!K1: Foo`: headers that name no column (their cells were not read).
    pub unknown_headers: Vec<String>,
    /// Packages whose parent number placed them nowhere: kept at their asset's top level.
    pub misplaced: Vec<build::Misplaced>,
    grid: Grid,
    places: HashMap<String, build::NodePlace>,
    header: Vec<(columns::Level, &'static str, usize)>,
}

impl Sheeted {
    /// Where a problem is: its field's cell (`Orders!F12`; for a field left empty, the cell
    /// of its column in the node's first row), else the first row of the nearest node.
    pub fn place_of(&self, path: &FieldPath) -> String {
        let mut at = path.to_string();
        loop {
            if let Some(node) = self.places.get(&at) {
                return self.grid.row_name(node.row);
            }
            let Some(cut) = at.rfind('.') else {
                return match self.places.get("") {
                    Some(batch) => self.field_place(batch, &at),
                    None => self.grid.sheet.clone(),
                };
            };
            if let Some(node) = self.places.get(&at[..cut]) {
                return self.field_place(node, &at[cut + 1..]);
            }
            at.truncate(cut);
        }
    }

    fn field_place(&self, node: &build::NodePlace, field: &str) -> String {
        let field = field.split('[').next().unwrap_or_default();
        if let Some((_, row, col)) = node.cells.iter().find(|(f, ..)| *f == field) {
            return self.grid.cell_name(*row, *col);
        }
        let column = self
            .header
            .iter()
            .find(|(level, f, _)| Some(*level) == node.level && *f == field);
        match column {
            Some((.., col)) => self.grid.cell_name(node.row, *col),
            None => self.grid.row_name(node.row),
        }
    }
}

/// Reads an order sheet: a CSV file, or a workbook's sheet (the one named, else the first).
/// How far it has come is told to `progress`, which can also stop it.
pub fn read_sheet(
    path: &Path,
    sheet: Option<&str>,
    progress: &Progress,
) -> Result<Sheeted, ReadError> {
    let mut grid = read::read_grid(path, sheet, progress)?;
    let built = build::build(&grid, progress)?;
    progress.start(Stage::Checking, 0);
    // Only the names are needed to place problems: the cells can go.
    grid.rows = Vec::new();
    Ok(Sheeted {
        batch: open_object(built.batch, Source::Sheet),
        unknown_headers: built.unknown_headers,
        misplaced: built.misplaced,
        grid,
        places: built.places,
        header: built.header,
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

#[cfg(test)]
mod tests {
    use super::read_sheet;
    use crate::core::progress::{Progress, Stage};
    use crate::core::sheet::ReadError;

    const ROWS: usize = 2_000;

    /// Two thousand rows of one order, as a workbook and as CSV.
    fn sheets(dir: &std::path::Path) -> [std::path::PathBuf; 2] {
        let xlsx = dir.join("orders.xlsx");
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        let mut csv = String::from("Order,Asset numbers,Product\n");
        for (c, header) in ["Order", "Asset numbers", "Product"].iter().enumerate() {
            sheet.write_string(0, c as u16, *header).expect("header");
        }
        for r in 1..=ROWS {
            let (asset, product) = (format!("8{r:09}"), format!("gms:{r}"));
            sheet.write_number(r as u32, 0, 1.0).expect("cell");
            sheet.write_string(r as u32, 1, &asset).expect("cell");
            sheet.write_string(r as u32, 2, &product).expect("cell");
            csv.push_str(&format!("1,{asset},{product}\n"));
        }
        book.save(&xlsx).expect("save");
        let csv_path = dir.join("orders.csv");
        std::fs::write(&csv_path, csv).expect("csv");
        [xlsx, csv_path]
    }

    #[test]
    fn every_row_is_counted_and_a_cancel_stops_the_read() {
        let dir = tempfile::tempdir().expect("dir");
        for path in sheets(dir.path()) {
            let progress = Progress::default();
            let sheeted = read_sheet(&path, None, &progress).expect("read");
            assert_eq!(sheeted.batch.order_list[0].assets.len(), ROWS, "{path:?}");
            assert_eq!(progress.snapshot().stage, Stage::Checking);
            // The rows were counted as they became orders.
            let progress = Progress::default();
            let grid = super::read::read_grid(&path, None, &progress).expect("read");
            super::build::build(&grid, &progress).expect("built");
            let seen = progress.snapshot();
            assert_eq!(seen.stage, Stage::Building);
            assert_eq!(seen.total, ROWS as u64 + 1);
            assert!(seen.done >= 1_536, "{seen:?}");

            let cancelled = Progress::default();
            cancelled.cancel();
            let read = read_sheet(&path, None, &cancelled);
            assert!(matches!(read, Err(ReadError::Cancelled(_))), "{path:?}");
        }
    }
}
