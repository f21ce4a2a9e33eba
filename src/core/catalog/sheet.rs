//! The catalog as a spreadsheet, in the order sheet's own columns and headers (English and
//! Chinese), so that one person keeps it in Excel: a row per product, a package's products on
//! rows carrying its number (and its parent's, for a sub-package). Read back, the sheet is read
//! as an order sheet and learned like a batch.

use std::path::Path;

use rust_xlsxwriter::{Format, Workbook, XlsxError};
use serde_json::{Map, Value};

use crate::core::sheet::columns::{COLUMNS, Level};
use crate::private_files::write_atomic;
use crate::wire::{MerchandiseEntry, ProductEntry};

/// Cells of one row, by column.
type Cells = Vec<(usize, Value)>;

/// Writes the catalog's products and packages; answers how many rows.
pub fn write_catalog_sheet(
    path: &Path,
    products: &[ProductEntry],
    packages: &[MerchandiseEntry],
) -> Result<usize, XlsxError> {
    let mut rows: Vec<Cells> = products
        .iter()
        .map(|p| product_cells(p, Vec::new()))
        .collect();
    for m in packages {
        package_rows(m, None, &mut rows);
    }
    // Only the columns something is written in.
    let mut used: Vec<usize> = rows.iter().flatten().map(|(c, _)| *c).collect();
    used.sort_unstable();
    used.dedup();
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let sheet = book.add_worksheet();
    sheet.set_name("Catalog")?;
    for (x, c) in used.iter().enumerate() {
        let column = &COLUMNS[*c];
        let head = format!("{} / {}", column.en, column.zh);
        sheet.write_string_with_format(0, x as u16, head, &bold)?;
        sheet.set_column_width(x as u16, 18)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for (r, cells) in rows.iter().enumerate() {
        let row = r as u32 + 1;
        for (c, value) in cells {
            let Some(x) = used.iter().position(|u| u == c) else {
                continue;
            };
            let x = x as u16;
            match value {
                Value::Number(n) => sheet.write_number(row, x, n.as_f64().unwrap_or_default())?,
                Value::String(s) => sheet.write_string(row, x, s)?,
                Value::Bool(b) => sheet.write_string(row, x, if *b { "yes" } else { "no" })?,
                other => sheet.write_string(row, x, other.to_string())?,
            };
        }
    }
    // Whole or not at all: a failed export leaves the file that was there as it was.
    let bytes = book.save_to_buffer()?;
    write_atomic(path, &bytes).map_err(XlsxError::IoError)?;
    Ok(rows.len())
}

/// The cells of a level's columns from a node's JSON (scalars only).
fn cells_of(level: Level, node: &Map<String, Value>, into: &mut Cells) {
    for (c, column) in COLUMNS.iter().enumerate() {
        if column.level != level {
            continue;
        }
        if let Some(v) = node.get(column.field).filter(|v| is_scalar(v)) {
            into.push((c, v.clone()));
        }
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

fn object<T: serde::Serialize>(node: &T) -> Map<String, Value> {
    match serde_json::to_value(node) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

fn product_cells(p: &ProductEntry, mut cells: Cells) -> Cells {
    cells_of(Level::Product, &object(p), &mut cells);
    cells
}

/// A package's rows: its products (or itself alone when it has none), then its sub-packages'.
fn package_rows(m: &MerchandiseEntry, parent: Option<&str>, rows: &mut Vec<Cells>) {
    let mut own = Cells::new();
    let mut node = object(m);
    if let Some(parent) = parent {
        node.insert(
            "parentMerchandiseNum".into(),
            Value::String(parent.to_owned()),
        );
    }
    cells_of(Level::Package, &node, &mut own);
    if m.license_order_product_list.is_empty() {
        rows.push(own.clone());
    }
    for p in &m.license_order_product_list {
        rows.push(product_cells(p, own.clone()));
    }
    for child in m.children.iter().flatten() {
        package_rows(child, m.merchandise_num.as_deref(), rows);
    }
}
