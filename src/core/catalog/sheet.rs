//! The catalog as a spreadsheet, in the order sheet's own columns and headers (English and
//! Chinese), so that one person keeps it in Excel: a row per product, a package's products on
//! rows carrying its number (and its parent's, for a sub-package). Read back, the sheet is read
//! as an order sheet and learned like a batch. A profile's directory, when it is exported too,
//! is on a second sheet, *Customers*, a row per customer, read back on import.

use std::path::Path;

use rust_xlsxwriter::{Format, Workbook, XlsxError};
use serde_json::{Map, Value};

use super::DirectoryEntry;
use crate::core::progress::Progress;
use crate::core::sheet::columns::{COLUMNS, Level};
use crate::core::sheet::read::{ReadError, read_grid};
use support::private_files::write_atomic;
use wire::{MerchandiseEntry, ProductEntry};

/// The name of the directory's sheet.
pub const CUSTOMER_SHEET: &str = "Customers";

/// The directory's columns: the field, and its English and Chinese headers.
const CUSTOMER_COLUMNS: [(&str, &str, &str); 16] = [
    ("customerName", "Customer name", "客户名称"),
    ("enterpriseName", "Enterprise name", "企业名称"),
    ("channelCode", "Channel code", "渠道编码"),
    ("channelCustomerId", "Channel customer ID", "渠道客户编号"),
    ("customerId", "Customer ID", "客户编号"),
    ("crmCustomerId", "CRM customer ID", "CRM客户编号"),
    ("enterpriseGlobalId", "Enterprise global ID", "企业全局编号"),
    ("customerType", "Customer type", "客户类型"),
    ("branchCode", "Branch code", "分公司编码"),
    ("branchName", "Branch name", "分公司名称"),
    ("adminName", "Administrator", "管理员姓名"),
    ("adminAccount", "Administrator account", "管理员账号"),
    ("adminEmail", "Administrator e-mail", "管理员邮箱"),
    ("adminCellNumber", "Administrator mobile", "管理员手机"),
    ("passwordMobile", "Mobile for passwords", "接收密码手机"),
    ("address", "Address", "地址"),
];

/// Cells of one row, by column.
type Cells = Vec<(usize, Value)>;

/// Writes the catalog's products and packages, and the customers (when any) on their own sheet;
/// answers how many rows.
pub fn write_catalog_sheet(
    path: &Path,
    products: &[ProductEntry],
    packages: &[MerchandiseEntry],
    customers: &[DirectoryEntry],
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
    if !customers.is_empty() {
        customer_sheet(&mut book, customers)?;
    }
    // Whole or not at all: a failed export leaves the file that was there as it was.
    let bytes = book.save_to_buffer()?;
    write_atomic(path, &bytes).map_err(XlsxError::IoError)?;
    Ok(rows.len() + customers.len())
}

fn customer_sheet(book: &mut Workbook, customers: &[DirectoryEntry]) -> Result<(), XlsxError> {
    let bold = Format::new().set_bold();
    let sheet = book.add_worksheet();
    sheet.set_name(CUSTOMER_SHEET)?;
    for (x, (_, en, zh)) in CUSTOMER_COLUMNS.iter().enumerate() {
        sheet.write_string_with_format(0, x as u16, format!("{en} / {zh}"), &bold)?;
        sheet.set_column_width(x as u16, 18)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for (r, c) in customers.iter().enumerate() {
        let node = object(c);
        for (x, (field, _, _)) in CUSTOMER_COLUMNS.iter().enumerate() {
            if let Some(Value::String(text)) = node.get(*field) {
                // Written as text: an id of digits stays an id, not a number.
                sheet.write_string(r as u32 + 1, x as u16, text)?;
            }
        }
    }
    Ok(())
}

/// The customers of a catalog workbook's *Customers* sheet; none when it has no such sheet
/// (an order sheet, a CSV file). A header is taken in either language or as the field's name.
pub fn read_customer_sheet(path: &Path) -> Result<Vec<DirectoryEntry>, ReadError> {
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"))
    {
        return Ok(Vec::new());
    }
    let grid = match read_grid(path, Some(CUSTOMER_SHEET), &Progress::default()) {
        Ok(grid) => grid,
        Err(ReadError::NoSuchSheet { .. }) => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut rows = grid.rows.iter();
    let Some(header) = rows.next() else {
        return Ok(Vec::new());
    };
    let fields: Vec<Option<&str>> = header
        .iter()
        .map(|cell| customer_field(&cell.text()))
        .collect();
    let mut out = Vec::new();
    for row in rows {
        let mut node = Map::new();
        for (cell, field) in row.iter().zip(&fields) {
            let text = cell.text();
            if let (Some(field), false) = (field, text.is_empty()) {
                node.insert((*field).to_owned(), Value::String(text));
            }
        }
        // A row the directory cannot take (an unknown customer type) is not a customer.
        if let Ok(entry) = serde_json::from_value::<DirectoryEntry>(Value::Object(node)) {
            out.push(entry);
        }
    }
    Ok(out)
}

fn customer_field(header: &str) -> Option<&'static str> {
    let header = header.trim();
    CUSTOMER_COLUMNS
        .iter()
        .find(|(field, en, zh)| {
            header == *field
                || header.eq_ignore_ascii_case(en)
                || header == *zh
                || header == format!("{en} / {zh}")
        })
        .map(|(field, _, _)| *field)
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
