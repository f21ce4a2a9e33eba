//! Reading a spreadsheet's cells: `.xlsx` (and the other formats calamine reads) or `.csv` in
//! UTF-8 (with or without a byte-order mark) or GB18030, which Chinese spreadsheet software
//! still writes.

use std::path::Path;

use calamine::{Data, Reader};
use jiff::civil::Date;

use crate::core::progress::{Cancelled, Progress, Stage};

/// One cell's value, as the spreadsheet holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    Text(String),
    Number(f64),
    Date(Date),
    Bool(bool),
}

impl Cell {
    pub fn is_empty(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(s) => s.trim().is_empty(),
            _ => false,
        }
    }

    /// The cell as text: numbers without a needless `.0`, dates as `YYYY-MM-DD`.
    pub fn text(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(s) => s.trim().to_owned(),
            Cell::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", *n as i64),
            Cell::Number(n) => n.to_string(),
            Cell::Date(d) => d.to_string(),
            Cell::Bool(b) => b.to_string(),
        }
    }
}

/// A sheet's cells: the name problems are placed by, and its rows from the first.
pub struct Grid {
    pub sheet: String,
    /// 1-based row number of `rows[0]`, and 0-based column of each row's first cell.
    pub first_row: usize,
    pub first_col: usize,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Io(String),
    #[error("not a spreadsheet this console reads: {0}")]
    Format(String),
    #[error(
        "the workbook unpacks to {unpacked} bytes; a spreadsheet may unpack to at most \
         {MAX_UNPACKED_BYTES} bytes (256 MiB)"
    )]
    TooLarge { unpacked: u64 },
    #[error("no sheet named {name}; the sheets are: {names}")]
    NoSuchSheet { name: String, names: String },
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// What a workbook may hold once unpacked: as much as a CSV file may be
/// (`files::MAX_FILE_BYTES`). A few megabytes of `.xlsx` can unpack to gigabytes, which the
/// reader would hold in memory; the sizes a workbook declares are checked before it is opened
/// (the unpacking then stops at each part's declared size).
pub const MAX_UNPACKED_BYTES: u64 = 256 * 1024 * 1024;

/// Progress is told, and a cancel looked for, every this many rows.
const ROWS_PER_STEP: usize = 512;

/// The cells of `path`: a CSV file, or a sheet of a workbook (the one named, else the first).
/// Rows read are told to `progress`; the reading stops when the user cancels.
pub fn read_grid(path: &Path, sheet: Option<&str>, progress: &Progress) -> Result<Grid, ReadError> {
    let csv = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv") || e.eq_ignore_ascii_case("txt"));
    progress.start(Stage::Reading, 0);
    if csv {
        let bytes = std::fs::read(path).map_err(|e| ReadError::Io(e.to_string()))?;
        let name = path
            .file_stem()
            .map_or_else(|| "csv".to_owned(), |s| s.to_string_lossy().into_owned());
        return csv_grid(&bytes, name, progress);
    }
    workbook_grid(path, sheet, progress)
}

fn workbook_grid(path: &Path, sheet: Option<&str>, progress: &Progress) -> Result<Grid, ReadError> {
    check_unpacked_size(path, MAX_UNPACKED_BYTES)?;
    let mut book =
        calamine::open_workbook_auto(path).map_err(|e| ReadError::Format(e.to_string()))?;
    let names = book.sheet_names();
    let name = match sheet {
        Some(wanted) => names
            .iter()
            .find(|n| n.as_str() == wanted)
            .cloned()
            .ok_or_else(|| ReadError::NoSuchSheet {
                name: wanted.to_owned(),
                names: names.join(", "),
            })?,
        None => names
            .first()
            .cloned()
            .ok_or_else(|| ReadError::Format("the workbook has no sheet".to_owned()))?,
    };
    progress.check()?;
    if let calamine::Sheets::Xlsx(xlsx) = &mut book {
        return xlsx_grid(xlsx, name, progress);
    }
    // The other formats are read whole: they are rare, and seldom large.
    let range = book
        .worksheet_range(&name)
        .map_err(|e| ReadError::Format(e.to_string()))?;
    let (first_row, first_col) = range.start().unwrap_or((0, 0));
    let rows = range
        .rows()
        .map(|row| row.iter().map(cell_of).collect())
        .collect();
    Ok(Grid {
        sheet: name,
        first_row: first_row as usize + 1,
        first_col: first_col as usize,
        rows,
    })
}

/// Refuses a zipped workbook (`.xlsx`, `.xlsm`, `.xlsb`, `.ods`) whose parts add up to more
/// than `limit` ([`MAX_UNPACKED_BYTES`]); other files are left to the reader.
fn check_unpacked_size(path: &Path, limit: u64) -> Result<(), ReadError> {
    let file = std::fs::File::open(path).map_err(|e| ReadError::Io(e.to_string()))?;
    let Ok(mut archive) = zip::ZipArchive::new(std::io::BufReader::new(file)) else {
        return Ok(());
    };
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let part = archive
            .by_index_raw(i)
            .map_err(|e| ReadError::Format(e.to_string()))?;
        total = total.saturating_add(part.size());
    }
    if total > limit {
        return Err(ReadError::TooLarge { unpacked: total });
    }
    Ok(())
}

/// An `.xlsx` sheet read cell by cell, so that its rows are counted as they come and a cancel
/// is heard within a few hundred rows.
fn xlsx_grid<R: std::io::Read + std::io::Seek>(
    book: &mut calamine::Xlsx<R>,
    name: String,
    progress: &Progress,
) -> Result<Grid, ReadError> {
    let format = |e: calamine::XlsxError| ReadError::Format(e.to_string());
    let mut cells = book.worksheet_cells_reader(&name).map_err(format)?;
    let size = cells.dimensions();
    progress.start(
        Stage::Reading,
        u64::from(size.end.0.saturating_sub(size.start.0)) + 1,
    );
    let mut found: Vec<(u32, u32, Cell)> = Vec::new();
    let mut told = 0;
    while let Some(cell) = cells.next_cell().map_err(format)? {
        let (row, col) = cell.get_position();
        let value = cell_of(&Data::from(cell.get_value().clone()));
        if !value.is_empty() {
            found.push((row, col, value));
        }
        if row as usize >= told + ROWS_PER_STEP {
            told = row as usize;
            progress.at(u64::from(row.saturating_sub(size.start.0)))?;
        }
    }
    Ok(grid_of_cells(name, found))
}

/// The rows of a sheet from its non-empty cells, from the first row and column that hold one.
fn grid_of_cells(sheet: String, cells: Vec<(u32, u32, Cell)>) -> Grid {
    let first_row = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let first_col = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    for (row, col, value) in cells {
        let (r, c) = ((row - first_row) as usize, (col - first_col) as usize);
        if rows.len() <= r {
            rows.resize_with(r + 1, Vec::new);
        }
        let line = &mut rows[r];
        if line.len() <= c {
            line.resize(c + 1, Cell::Empty);
        }
        line[c] = value;
    }
    Grid {
        sheet,
        first_row: first_row as usize + 1,
        first_col: first_col as usize,
        rows,
    }
}

fn cell_of(data: &Data) -> Cell {
    match data {
        Data::Empty | Data::Error(_) => Cell::Empty,
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => Cell::Text(s.clone()),
        Data::Int(i) => Cell::Number(*i as f64),
        Data::Float(f) => Cell::Number(*f),
        Data::Bool(b) => Cell::Bool(*b),
        Data::DateTime(dt) if dt.is_datetime() => {
            let (y, m, d, ..) = dt.to_ymd_hms_milli();
            match Date::new(y as i16, m as i8, d as i8) {
                Ok(date) => Cell::Date(date),
                Err(_) => Cell::Number(dt.as_f64()),
            }
        }
        Data::DateTime(dt) => Cell::Number(dt.as_f64()),
    }
}

/// A CSV file's cells. Its encoding is UTF-8 when it reads as UTF-8, else GB18030; its
/// separator the comma, or the tab or semicolon when the first line has more of them.
pub fn csv_grid(bytes: &[u8], sheet: String, progress: &Progress) -> Result<Grid, ReadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => encoding_rs::GB18030.decode(bytes).0,
    };
    let first_line = text.lines().next().unwrap_or_default();
    let delimiter = [b',', b'\t', b';']
        .into_iter()
        .max_by_key(|d| first_line.bytes().filter(|b| b == d).count())
        .unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    // The total is in bytes here: the rows are not known until read.
    progress.start(Stage::Reading, text.len() as u64);
    let mut rows = Vec::new();
    let mut records = reader.records();
    while let Some(record) = records.next() {
        let row = record
            .map(|r| r.iter().map(|s| Cell::Text(s.to_owned())).collect())
            .unwrap_or_default();
        rows.push(row);
        if rows.len() % ROWS_PER_STEP == 0 {
            progress.at(records.reader().position().byte())?;
        }
    }
    Ok(Grid {
        sheet,
        first_row: 1,
        first_col: 0,
        rows,
    })
}

impl Grid {
    /// `Orders!F12` for a row and column of `rows`.
    pub fn cell_name(&self, row: usize, col: usize) -> String {
        format!(
            "{}!{}{}",
            self.sheet,
            column_letters(self.first_col + col),
            self.first_row + row
        )
    }

    /// `Orders!12` for a row of `rows`.
    pub fn row_name(&self, row: usize) -> String {
        format!("{}!{}", self.sheet, self.first_row + row)
    }
}

/// `A`, `B`, …, `Z`, `AA`, … for a 0-based column.
pub fn column_letters(mut col: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'A' + (col % 26) as u8);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    letters.reverse();
    String::from_utf8_lossy(&letters).into_owned()
}

#[cfg(test)]
mod tests {
    use super::{Cell, ReadError, check_unpacked_size, column_letters, csv_grid};
    use crate::core::progress::Progress;

    /// A workbook of 2 MB of text (packed to far less) against a 1 MiB limit: refused before
    /// it is opened, saying the size; under the real limit it passes.
    #[test]
    fn a_workbook_that_unpacks_past_the_limit_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("bomb.xlsx");
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        let text = "0".repeat(1000);
        for row in 0..2000 {
            sheet
                .write_string(row, 0, format!("{row}{text}"))
                .expect("cell");
        }
        book.save(&path).expect("save");
        let packed = std::fs::metadata(&path).expect("meta").len();
        assert!(packed < 200_000, "packed to {packed} bytes");
        let refused = check_unpacked_size(&path, 1024 * 1024);
        let Err(ReadError::TooLarge { unpacked }) = refused else {
            panic!("{refused:?}");
        };
        assert!(unpacked > 2_000_000, "{unpacked}");
        assert_eq!(
            ReadError::TooLarge {
                unpacked: 300_000_000
            }
            .to_string(),
            "the workbook unpacks to 300000000 bytes; a spreadsheet may unpack to at most \
             268435456 bytes (256 MiB)"
        );
        assert!(check_unpacked_size(&path, super::MAX_UNPACKED_BYTES).is_ok());
    }

    #[test]
    fn columns_are_lettered_as_spreadsheets_do() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(27), "AB");
        assert_eq!(column_letters(701), "ZZ");
        assert_eq!(column_letters(702), "AAA");
    }

    #[test]
    fn csv_reads_in_utf8_with_a_bom_and_in_gb18030() {
        let text = "订单,客户名称\n1,北京示例科技有限公司\n";
        let (gb, _, _) = encoding_rs::GB18030.encode(text);
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(text.as_bytes());
        for bytes in [text.as_bytes().to_vec(), bom, gb.into_owned()] {
            let grid = csv_grid(&bytes, "orders".into(), &Progress::default()).expect("read");
            assert_eq!(grid.rows[0][0], Cell::Text("订单".into()));
            assert_eq!(grid.rows[1][1], Cell::Text("北京示例科技有限公司".into()));
        }
    }
}
