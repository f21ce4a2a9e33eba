//! What ends within a window, as the sales office takes it: one row per asset and product with
//! its customer, enterprise, branch, dates and days left, soonest first; as CSV (the fields'
//! names as headers, for scripts) or xlsx (headers in Chinese and English, for people).

use std::path::Path;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use rust_xlsxwriter::{Format, Workbook, XlsxError};
use serde::Serialize;

use super::{Read, RowRef, Source, Window, days_left};
use crate::core::files::error::FileError;
use support::private_files::write_atomic;

/// A product (or a whole asset) that ends within the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Due {
    pub customer_id: String,
    pub customer_name: Option<String>,
    pub enterprise_global_id: String,
    pub enterprise_name: Option<String>,
    pub branch: Option<String>,
    pub asset_num: String,
    pub license_type: String,
    /// None for the asset's own validity.
    pub product_uri: Option<String>,
    pub product_name: Option<String>,
    /// Days in the console's time zone, `YYYY-MM-DD`.
    pub start_date: Option<String>,
    pub end_date: String,
    pub days_left: i64,
    pub locked: bool,
    pub source: Source,
    /// A later instance of the same product on the asset ends later: not due.
    pub renewed: bool,
}

/// The columns: the field, and its Chinese and English headers.
pub const COLUMNS: [(&str, &str, &str); 14] = [
    ("customerId", "客户编号", "Customer ID"),
    ("customerName", "客户名称", "Customer name"),
    ("enterpriseGlobalId", "企业全局编号", "Enterprise global ID"),
    ("enterpriseName", "企业名称", "Enterprise name"),
    ("branch", "分公司", "Branch"),
    ("assetNum", "资产编号", "Asset number"),
    ("licenseType", "授权类型", "License type"),
    ("productUri", "产品URI", "Product URI"),
    ("productName", "产品名称", "Product name"),
    ("startDate", "开始日期", "Start date"),
    ("endDate", "到期日期", "End date"),
    ("daysLeft", "剩余天数", "Days left"),
    ("locked", "已锁定", "Locked"),
    ("source", "日期来源", "Date from"),
];

impl Read {
    /// The rows that end within `days` of `today` (in `tz`), soonest first.
    pub fn due_within(&self, today: Date, tz: &TimeZone, days: i64) -> Vec<Due> {
        let Some(window) = Window::days(today, tz, days) else {
            return Vec::new();
        };
        let mut due: Vec<Due> = self
            .table
            .iter()
            .filter(|r| window.holds(r))
            .map(|r| self.due(&r, today, tz))
            .collect();
        due.sort_by(|a, b| {
            (
                a.days_left,
                &a.enterprise_global_id,
                &a.asset_num,
                &a.product_uri,
            )
                .cmp(&(
                    b.days_left,
                    &b.enterprise_global_id,
                    &b.asset_num,
                    &b.product_uri,
                ))
        });
        due
    }

    /// The row at `i`, as exported.
    pub fn due_at(&self, i: usize, today: Date, tz: &TimeZone) -> Due {
        self.due(&self.table.get(i), today, tz)
    }

    fn due(&self, r: &RowRef<'_>, today: Date, tz: &TimeZone) -> Due {
        let enterprise = self.enterprise_of(r);
        let name = |f: fn(&super::EnterpriseRead) -> &Option<String>| {
            enterprise.and_then(|e| f(e).clone())
        };
        Due {
            customer_id: r.customer_id().to_owned(),
            customer_name: name(|e| &e.customer_name),
            enterprise_global_id: enterprise.map(|e| e.global_id.clone()).unwrap_or_default(),
            enterprise_name: name(|e| &e.name),
            branch: name(|e| &e.branch),
            asset_num: r.asset_num().to_owned(),
            license_type: r.license_type().to_owned(),
            product_uri: r.product_uri().map(str::to_owned),
            product_name: r.product_name().map(str::to_owned),
            start_date: r.start().and_then(|ms| day(ms, tz)),
            end_date: day(r.end(), tz).unwrap_or_default(),
            days_left: days_left(r.end(), today, tz).unwrap_or_default(),
            locked: r.locked(),
            source: r.source(),
            renewed: r.trouble() == Some(super::Trouble::Renewed),
        }
    }
}

/// The day `ms` falls on in `tz`.
pub(crate) fn day(ms: i64, tz: &TimeZone) -> Option<String> {
    let at = Timestamp::from_millisecond(ms).ok()?;
    Some(at.to_zoned(tz.clone()).date().to_string())
}

fn cells(d: &Due) -> Vec<String> {
    let opt = |s: &Option<String>| s.clone().unwrap_or_default();
    vec![
        d.customer_id.clone(),
        opt(&d.customer_name),
        d.enterprise_global_id.clone(),
        opt(&d.enterprise_name),
        opt(&d.branch),
        d.asset_num.clone(),
        d.license_type.clone(),
        opt(&d.product_uri),
        opt(&d.product_name),
        opt(&d.start_date),
        d.end_date.clone(),
        d.days_left.to_string(),
        d.locked.to_string(),
        source_name(d.source).to_owned(),
    ]
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Product => "product",
        Source::Asset => "asset",
        Source::Sent => "sent",
    }
}

/// The rows as CSV, the fields' names as headers; with a byte-order mark when `bom` (a file
/// for a spreadsheet), without for a script's pipe.
pub fn csv_text(due: &[Due], bom: bool) -> String {
    let header: Vec<&str> = COLUMNS.iter().map(|c| c.0).collect();
    crate::core::csv_out::csv_text(&header, due.iter().map(cells), bom)
}

/// The rows as a workbook, headers in Chinese and English, the header row frozen and
/// filtered; written whole or not at all.
pub fn write_xlsx(due: &[Due], path: &Path) -> Result<(), FileError> {
    let bytes = workbook(due).map_err(FileError::workbook(path))?;
    write_atomic(path, &bytes).map_err(FileError::io(path))
}

fn workbook(due: &[Due]) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let sheet = book.add_worksheet();
    sheet.set_name("Renewals")?;
    for (x, (_, zh, en)) in COLUMNS.iter().enumerate() {
        sheet.write_string_with_format(0, x as u16, format!("{zh} {en}"), &bold)?;
    }
    for (y, d) in due.iter().enumerate() {
        let y = u32::try_from(y + 1).unwrap_or(u32::MAX);
        for (x, cell) in cells(d).iter().enumerate() {
            if x == 11 {
                sheet.write_number(y, x as u16, d.days_left as f64)?;
            } else {
                sheet.write_string(y, x as u16, cell)?;
            }
        }
    }
    let last = u32::try_from(due.len()).unwrap_or(u32::MAX);
    sheet.autofilter(0, 0, last, (COLUMNS.len() - 1) as u16)?;
    sheet.set_freeze_panes(1, 0)?;
    book.save_to_buffer()
}
