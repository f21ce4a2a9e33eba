//! The order sheet template: the headers in both languages on an empty first sheet, the one an
//! import reads; an example row per order type on a sheet of their own (their batch passes the
//! shared rules); and a sheet explaining each column. The examples are apart so that importing
//! the template as it is teaches the catalog nothing and makes no batch that could be sent: a
//! user copies the rows they want to the first sheet and makes them theirs.

use std::path::Path;

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, XlsxError};

use super::columns::COLUMNS;
use support::private_files::write_atomic;

/// The example rows: (column's English header, value). Dates are written as real dates.
const EXAMPLES: &[&[(&str, &str)]] = &[
    &[
        ("Channel code", "SHOP"),
        ("Channel order id", "TEMPLATE-0001"),
        ("Sync mode", "sync"),
        ("Order", "1"),
        ("Order type", "new_buy"),
        ("License type", "normal_recover_usbkey"),
        ("Channel customer id", "S-0001"),
        ("Customer name", "北京示例科技有限公司"),
        ("Branch name", "北京分公司"),
        ("Asset numbers", "8000000001"),
        ("Valid until", "2027-12-31"),
        ("Product", "gms:1001"),
        ("Product name", "计价软件"),
        ("Concurrent nodes", "1"),
    ],
    &[
        ("Order", "1"),
        ("Asset numbers", "8000000001"),
        ("Package number", "PKG-1"),
        ("Package name", "专业版套餐"),
        ("Package duration", "1-0-0"),
        ("Product", "gms:2001"),
        ("Product name", "专业版"),
    ],
    &[
        ("Order", "2"),
        ("Order type", "delete_asset"),
        ("License type", "normal_recover_usbkey"),
        ("Channel customer id", "S-0001"),
        ("Asset numbers", "8000000002"),
    ],
    &[
        ("Order", "3"),
        ("Order type", "delete_product"),
        ("License type", "normal_recover_usbkey"),
        ("Channel customer id", "S-0001"),
        ("Asset numbers", "8000000003"),
        ("Product", "gms:1001"),
        ("Strict match on delete", "no"),
    ],
];

/// The sheet of the example rows.
pub const EXAMPLES_SHEET: &str = "Examples 示例";

pub fn write_template(path: &Path) -> Result<(), XlsxError> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    for name in ["Orders", EXAMPLES_SHEET] {
        let sheet = book.add_worksheet();
        sheet.set_name(name)?;
        for (col, c) in COLUMNS.iter().enumerate() {
            let col = col as u16;
            sheet.write_string_with_format(0, col, format!("{} / {}", c.en, c.zh), &bold)?;
            sheet.set_column_width(col, 18)?;
        }
        sheet.set_freeze_panes(1, 0)?;
    }
    let examples = book.worksheet_from_name(EXAMPLES_SHEET)?;
    for (r, example) in EXAMPLES.iter().enumerate() {
        let row = r as u32 + 1;
        for (header, value) in example.iter() {
            let Some(col) = COLUMNS.iter().position(|c| c.en == *header) else {
                continue;
            };
            let col = col as u16;
            if header.starts_with("Valid") {
                let day = ExcelDateTime::parse_from_str(value)?;
                examples.write_datetime_with_format(row, col, &day, &date)?;
            } else {
                examples.write_string(row, col, *value)?;
            }
        }
    }
    let help = book.add_worksheet();
    help.set_name("Columns 说明")?;
    for (col, head) in ["Column", "列", "Field", "Explanation", "说明"]
        .iter()
        .enumerate()
    {
        help.write_string_with_format(0, col as u16, *head, &bold)?;
    }
    for (r, c) in COLUMNS.iter().enumerate() {
        let row = r as u32 + 1;
        help.write_string(row, 0, c.en)?;
        help.write_string(row, 1, c.zh)?;
        help.write_string(row, 2, c.field)?;
        help.write_string(row, 3, c.help_en)?;
        help.write_string(row, 4, c.help_zh)?;
    }
    help.set_column_width(0, 24)?;
    help.set_column_width(1, 16)?;
    help.set_column_width(2, 22)?;
    help.set_column_width(3, 60)?;
    help.set_column_width(4, 50)?;
    // Whole or not at all: a failed write leaves the file that was there as it was.
    let bytes = book.save_to_buffer()?;
    write_atomic(path, &bytes).map_err(XlsxError::IoError)
}
