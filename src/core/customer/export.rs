//! A page as a workbook, for the sales office: its assets with every dated product (and the
//! assets nothing dates), its timeline and its customers, each on a sheet; headers in Chinese
//! and English, the header rows frozen and filtered; written whole or not at all.

use std::path::Path;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use rust_xlsxwriter::{Format, Workbook, Worksheet, XlsxError};

use super::{Event, Page};
use crate::core::files::error::FileError;
use crate::core::renewals::Due;
use support::private_files::write_atomic;

const ASSETS: [(&str, &str); 11] = [
    ("资产编号", "Asset number"),
    ("授权类型", "License type"),
    ("客户编号", "Customer ID"),
    ("已禁用", "Disabled"),
    ("芯片", "Chip"),
    ("产品", "Product"),
    ("开始日期", "Start date"),
    ("到期日期", "End date"),
    ("剩余天数", "Days left"),
    ("日期来源", "Date from"),
    ("已续费", "Renewed"),
];
const TIMELINE: [(&str, &str); 7] = [
    ("时间", "Time"),
    ("人员", "Person"),
    ("操作", "Operation"),
    ("结果", "Outcome"),
    ("代码", "Code"),
    ("内容", "What"),
    ("平台消息", "Platform's message"),
];
const CUSTOMERS: [(&str, &str); 4] = [
    ("客户编号", "Customer ID"),
    ("渠道", "Channel"),
    ("渠道客户编号", "Channel customer ID"),
    ("默认", "Default"),
];

/// Writes the page to `path` as xlsx.
pub fn write_page_xlsx(
    page: &Page,
    today: Date,
    tz: &TimeZone,
    path: &Path,
) -> Result<(), FileError> {
    let bytes = workbook(page, today, tz).map_err(FileError::workbook(path))?;
    write_atomic(path, &bytes).map_err(FileError::io(path))
}

fn workbook(page: &Page, today: Date, tz: &TimeZone) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let report = page.report(today, tz);
    let mut rows: Vec<Vec<String>> = Vec::new();
    for a in &report.assets {
        let lead = [
            a.asset_num.to_owned(),
            a.license_type.to_owned(),
            a.customer_id.to_owned(),
            a.locked.to_string(),
            a.chip.to_string(),
        ];
        if a.products.is_empty() {
            rows.push(lead.to_vec());
        }
        rows.extend(a.products.iter().map(|d| [&lead[..], &product(d)].concat()));
    }
    sheet(book.add_worksheet(), "Assets", &ASSETS, &rows)?;
    let timeline: Vec<Vec<String>> = page.timeline.iter().map(|e| event(e, tz)).collect();
    sheet(book.add_worksheet(), "Timeline", &TIMELINE, &timeline)?;
    let customers: Vec<Vec<String>> = page
        .customers
        .iter()
        .map(|c| {
            vec![
                c.customer_id.clone(),
                c.channel_code.clone(),
                c.channel_customer_id.clone(),
                c.is_default.to_string(),
            ]
        })
        .collect();
    sheet(book.add_worksheet(), "Customers", &CUSTOMERS, &customers)?;
    book.save_to_buffer()
}

fn product(d: &Due) -> Vec<String> {
    let source = serde_json::to_value(d.source)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    vec![
        d.product_name
            .clone()
            .or(d.product_uri.clone())
            .unwrap_or_default(),
        d.start_date.clone().unwrap_or_default(),
        d.end_date.clone(),
        d.days_left.to_string(),
        source,
        d.renewed.to_string(),
    ]
}

fn event(e: &Event, tz: &TimeZone) -> Vec<String> {
    let at = jiff::Timestamp::from_millisecond(e.at)
        .map(|t| {
            t.to_zoned(tz.clone())
                .strftime("%Y-%m-%d %H:%M:%S")
                .to_string()
        })
        .unwrap_or_default();
    let state = e.state.map(|s| s.name().to_owned()).unwrap_or_default();
    vec![
        at,
        e.person.clone().unwrap_or_default(),
        e.operation.clone(),
        state,
        e.code.clone().unwrap_or_default(),
        e.what.summary(),
        e.message.clone().unwrap_or_default(),
    ]
}

fn sheet(
    sheet: &mut Worksheet,
    name: &str,
    columns: &[(&str, &str)],
    rows: &[Vec<String>],
) -> Result<(), XlsxError> {
    sheet.set_name(name)?;
    let bold = Format::new().set_bold();
    for (x, (zh, en)) in columns.iter().enumerate() {
        sheet.write_string_with_format(0, x as u16, format!("{zh} {en}"), &bold)?;
    }
    for (y, row) in rows.iter().enumerate() {
        let y = u32::try_from(y + 1).unwrap_or(u32::MAX);
        for (x, cell) in row.iter().enumerate() {
            sheet.write_string(y, x as u16, cell)?;
        }
    }
    let last = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    sheet.autofilter(0, 0, last, (columns.len() - 1) as u16)?;
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}
