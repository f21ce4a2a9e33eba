//! Importing a 100,000-row order spreadsheet (1,000 orders of 10 assets of 10 products) as a
//! batch (read, grouped, opened with every value typed or held) beside calamine's own read of
//! the same workbook, measured in the same run.
//!
//! `cargo bench --bench sheet`

use std::time::{Duration, Instant};

use calamine::Reader;
use license_desk::core::sheet::{columns::COLUMNS, read_sheet};
use rust_xlsxwriter::Workbook;

const ORDERS: usize = 1_000;
const ASSETS: usize = 10;
const PRODUCTS: usize = 10;
const RUNS: usize = 3;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("orders.xlsx");
    write_sheet(&file);
    let size = std::fs::metadata(&file).expect("file").len();
    println!(
        "{} rows, {:.1} MB; {RUNS} runs",
        ORDERS * ASSETS * PRODUCTS,
        size as f64 / 1e6
    );
    let mut own = Vec::new();
    let mut ours = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        let mut book = calamine::open_workbook_auto(&file).expect("workbook");
        let range = book.worksheet_range("Orders").expect("sheet");
        own.push(start.elapsed());
        std::hint::black_box(range);

        let start = Instant::now();
        let sheeted = read_sheet(&file, None).expect("sheet");
        ours.push(start.elapsed());
        assert_eq!(sheeted.batch.order_list.len(), ORDERS);
        std::hint::black_box(sheeted);
    }
    let (own, ours) = (median(own), median(ours));
    println!("| 100,000-row sheet | calamine's read | License Desk's import | ratio |");
    println!("|---|---|---|---|");
    println!(
        "| median | {:.0} ms | {:.0} ms | {:.2}× |",
        own.as_secs_f64() * 1e3,
        ours.as_secs_f64() * 1e3,
        ours.as_secs_f64() / own.as_secs_f64()
    );
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn write_sheet(path: &std::path::Path) {
    let col = |en: &str| COLUMNS.iter().position(|c| c.en == en).expect("column") as u16;
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name("Orders").expect("name");
    for (c, column) in COLUMNS.iter().enumerate() {
        sheet.write_string(0, c as u16, column.en).expect("header");
    }
    let mut row = 1u32;
    for o in 0..ORDERS {
        for a in 0..ASSETS {
            for p in 0..PRODUCTS {
                let cells = [
                    ("Channel code", "SHOP".to_owned()),
                    ("Channel order id", "BENCH-1".to_owned()),
                    ("Order type", "new_buy".to_owned()),
                    ("License type", "normal_recover_usbkey".to_owned()),
                    ("Channel customer id", format!("S-{o:05}")),
                    ("Customer name", format!("客户 {o}")),
                    ("Asset numbers", format!("8{:09}", o * ASSETS + a)),
                    ("Product", format!("gms:{}", 1000 + p)),
                    ("Product name", format!("产品 {p}")),
                ];
                for (header, value) in cells {
                    sheet.write_string(row, col(header), value).expect("cell");
                }
                sheet
                    .write_number(row, col("Order"), (o + 1) as f64)
                    .expect("cell");
                sheet
                    .write_number(row, col("Concurrent nodes"), 1.0)
                    .expect("cell");
                row += 1;
            }
        }
    }
    book.save(path).expect("save");
}
