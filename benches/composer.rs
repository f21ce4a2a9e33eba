//! The order composer with a 10,000-order file: the time from dropping the file on the window
//! to the batch shown (read and parsed on the core's threads, validated, its tree listed and a
//! frame drawn), and the time of a frame of the composer with it open, beside plain `serde_json`
//! parsing of the same file, measured in the same run.
//!
//! Then a 100,000-row order spreadsheet (1,000 orders of 10 assets of 10 products): its import
//! (read, grouped, opened with every value typed or held), and the same sheet dropped on the
//! composer until shown, beside calamine's own read of the same workbook in the same run.
//!
//! `cargo bench --bench composer`

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use calamine::Reader;
use egui::DroppedFile;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::sheet::{columns::COLUMNS, read_sheet};
use license_desk::core::{Core, CoreOptions, FileDialogChoice, KeyringChoice};
use license_desk::ui::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
use rust_xlsxwriter::Workbook;
use serde_json::json;

const ORDERS: usize = 10_000;
const RUNS: usize = 5;

#[derive(Debug)]
struct FileOnDisk(PathBuf);

impl DroppedFile for FileOnDisk {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("ten-thousand.json");
    let bytes = order_file();
    std::fs::write(&file, &bytes).expect("file");
    println!(
        "a batch of {ORDERS} orders, {:.1} MB; {RUNS} runs",
        bytes.len() as f64 / 1e6
    );

    let mut parse = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        let value: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        parse.push(start.elapsed());
        std::hint::black_box(value);
    }

    // What an undo step costs beside the frame: a copy of the batch, and comparing two copies.
    let batch = license_desk::core::files::parse_order_file(&bytes).expect("batch");
    let (mut copies, mut compares, mut saves) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let start = Instant::now();
        let copy = batch.clone();
        copies.push(start.elapsed());
        let start = Instant::now();
        assert!(std::hint::black_box(&copy) == &batch);
        compares.push(start.elapsed());
        let start = Instant::now();
        let body = license_desk::core::wire::open::batch_to_json(&batch, false).expect("json");
        saves.push(start.elapsed());
        std::hint::black_box(body);
    }

    let mut shown = Vec::new();
    let mut frames = Vec::new();
    let mut longest = Vec::new();
    let (mut steps, mut undos) = (Vec::new(), Vec::new());
    for run in 0..RUNS {
        let home = dir.path().join(format!("run-{run}"));
        let mut harness = app(&home);
        wait_for(&mut harness, "Batch LD-");
        let start = Instant::now();
        harness
            .input_mut()
            .dropped_files
            .push(Arc::new(FileOnDisk(file.clone())));
        longest.push(wait_for(&mut harness, "Batch BENCH-10K"));
        shown.push(start.elapsed());
        for _ in 0..20 {
            let start = Instant::now();
            harness.step();
            frames.push(start.elapsed());
        }
        let (step, undo) = undo_frames(&mut harness);
        steps.push(step);
        undos.push(undo);
    }

    let parse_ms = median(&mut parse);
    let shown_ms = median(&mut shown);
    let frame_ms = median(&mut frames);
    let longest_ms = median(&mut longest);
    println!("| step | median | ratio |");
    println!("|---|---|---|");
    println!(
        "| plain serde_json parse of the file (serde_json::Value) | {parse_ms:.1} ms | 1.0× |"
    );
    println!(
        "| composer: dropped file → read, parsed, validated, tree listed, frame drawn | {shown_ms:.1} ms | {:.1}× |",
        shown_ms / parse_ms
    );
    println!(
        "| composer: the longest frame while it loads (the UI thread's share) | {longest_ms:.1} ms | {:.1}× |",
        longest_ms / parse_ms
    );
    println!("| composer: one frame with the batch open | {frame_ms:.2} ms | — |");
    println!(
        "| a copy of the batch (one undo state) | {:.1} ms | — |",
        median(&mut copies)
    );
    println!(
        "| comparing two equal copies of the batch | {:.1} ms | — |",
        median(&mut compares)
    );
    println!(
        "| the batch written as JSON for its autosave | {:.1} ms | — |",
        median(&mut saves)
    );
    println!(
        "| composer: the frame that makes typing an undo step (the batch copied) | {:.1} ms | — |",
        median(&mut steps)
    );
    println!(
        "| composer: the frame of an Undo (the batch replaced, checked, listed) | {:.1} ms | — |",
        median(&mut undos)
    );
    println!();
    sheet_import(dir.path());
}

const SHEET_ORDERS: usize = 1_000;
const SHEET_ASSETS: usize = 10;
const SHEET_PRODUCTS: usize = 10;
const SHEET_RUNS: usize = 3;

fn sheet_import(dir: &Path) {
    let file = dir.join("orders.xlsx");
    write_sheet(&file);
    let size = std::fs::metadata(&file).expect("file").len();
    println!(
        "a sheet of {} rows, {:.1} MB; {SHEET_RUNS} runs",
        SHEET_ORDERS * SHEET_ASSETS * SHEET_PRODUCTS,
        size as f64 / 1e6
    );
    let (mut own, mut ours, mut shown, mut longest) = (vec![], vec![], vec![], vec![]);
    for run in 0..SHEET_RUNS {
        let start = Instant::now();
        let mut book = calamine::open_workbook_auto(&file).expect("workbook");
        let range = book.worksheet_range("Orders").expect("sheet");
        own.push(start.elapsed());
        std::hint::black_box(range);

        let start = Instant::now();
        let sheeted = read_sheet(&file, None, &Default::default()).expect("sheet");
        ours.push(start.elapsed());
        assert_eq!(sheeted.batch.order_list.len(), SHEET_ORDERS);
        std::hint::black_box(sheeted);

        let mut harness = app(&dir.join(format!("sheet-{run}")));
        wait_for(&mut harness, "Batch LD-");
        let start = Instant::now();
        harness
            .input_mut()
            .dropped_files
            .push(Arc::new(FileOnDisk(file.clone())));
        longest.push(wait_for(&mut harness, "Batch SHEET-100K"));
        shown.push(start.elapsed());
    }
    let own_ms = median(&mut own);
    let ours_ms = median(&mut ours);
    let shown_ms = median(&mut shown);
    let longest_ms = median(&mut longest);
    println!("| step | median | ratio |");
    println!("|---|---|---|");
    println!("| calamine's own read of the sheet (Range<Data>) | {own_ms:.0} ms | 1.0× |");
    println!(
        "| import: read, grouped into orders, opened | {ours_ms:.0} ms | {:.2}× |",
        ours_ms / own_ms
    );
    println!(
        "| composer: dropped sheet → imported, stored as a draft, validated, shown | {shown_ms:.0} ms | {:.2}× |",
        shown_ms / own_ms
    );
    println!(
        "| composer: the longest frame while it loads (the UI thread's share) | {longest_ms:.1} ms | — |"
    );
}

/// Types in a field of the open batch, steps frames until the typing has become an undo step
/// (0.7 s after it; a margin on top), then clicks Undo: answers the longest frame meanwhile
/// (the one that copies the batch) and the Undo's frame.
fn undo_frames(harness: &mut Harness<'static, DeskApp>) -> (Duration, Duration) {
    harness.get_by_label("Channel code").focus();
    harness.step();
    harness.get_by_label("Channel code").type_text("X");
    let typed = Instant::now();
    let mut longest = Duration::ZERO;
    while typed.elapsed() < Duration::from_millis(1_000) {
        let start = Instant::now();
        harness.step();
        longest = longest.max(start.elapsed());
    }
    harness.get_by_label("Undo").click();
    let start = Instant::now();
    harness.step();
    let undo = start.elapsed();
    harness.step();
    assert_eq!(
        harness.get_by_label("Channel code").value().as_deref(),
        Some("SHOP"),
        "undone"
    );
    (longest, undo)
}

fn app(home: &Path) -> Harness<'static, DeskApp> {
    let store = keyring_core::mock::Store::new().expect("mock keyring");
    let core = Core::start(CoreOptions {
        config_dir: home.join("config"),
        data_dir: home.join("data"),
        keyring: KeyringChoice::Store(store),
        file_dialog: FileDialogChoice::InWindow,
    })
    .expect("core");
    let prefs = Prefs {
        lang: Lang::En,
        screen: Screen::Orders,
        dark: false,
        ..Prefs::default()
    };
    let ctx = egui::Context::default();
    let app = DeskApp::new(core, prefs, &ctx);
    Harness::builder()
        .with_size(egui::vec2(1100.0, 720.0))
        .with_context_setup(license_desk::ui::fonts::install)
        .build_ui_state(|ui, app: &mut DeskApp| app.root_ui(ui), app)
}

/// Steps frames (each a full frame of the window) until a row starting with `label` is shown;
/// answers the longest frame meanwhile (what the user would feel as a stall).
fn wait_for(harness: &mut Harness<'static, DeskApp>, label: &str) -> Duration {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut longest = Duration::ZERO;
    while harness.query_by_label_contains(label).is_none() {
        assert!(Instant::now() < deadline, "{label} never shown");
        let start = Instant::now();
        harness.step();
        longest = longest.max(start.elapsed());
    }
    longest
}

fn order_file() -> Vec<u8> {
    let orders: Vec<_> = (0..ORDERS)
        .map(|i| {
            json!({
                "sequence": i + 1,
                "channelCustomerId": format!("C-{:05}", i % 500),
                "customerName": "北京示例科技有限公司",
                "licenseType": "normal_recover_usbkey",
                "orderType": "new_buy",
                "assets": [{
                    "assetNos": [format!("81{:08}", i)],
                    "limitEndDate": 1798761599999i64,
                    "products": [
                        {"productUri": "gms:1001", "productName": "基础版", "limitConcurrent": 1},
                        {"productUri": "gms:1002", "productName": "高级版", "limitConcurrent": 5}
                    ],
                    "merchandises": [{
                        "merchandiseNum": format!("PKG-{i}"),
                        "licenseOrderProductList": [{"productUri": "gms:2001"}],
                        "children": null
                    }]
                }]
            })
        })
        .collect();
    serde_json::to_vec(&json!({
        "channelCode": "SHOP",
        "channelOrderId": "BENCH-10K",
        "syncMode": "async",
        "orderList": orders
    }))
    .expect("json")
}

fn median(samples: &mut [Duration]) -> f64 {
    samples.sort_unstable();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
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
    for o in 0..SHEET_ORDERS {
        for a in 0..SHEET_ASSETS {
            for p in 0..SHEET_PRODUCTS {
                let cells = [
                    ("Channel code", "SHOP".to_owned()),
                    ("Channel order id", "SHEET-100K".to_owned()),
                    ("Order type", "new_buy".to_owned()),
                    ("License type", "normal_recover_usbkey".to_owned()),
                    ("Channel customer id", format!("S-{o:05}")),
                    ("Customer name", format!("客户 {o}")),
                    ("Asset numbers", format!("8{:09}", o * SHEET_ASSETS + a)),
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
