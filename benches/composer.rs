//! The order composer with a 10,000-order file: the time from dropping the file on the window
//! to the batch shown (read, opened whole, checked, stored as a draft and shared on the core's
//! threads; its tree listed and a frame drawn), each of the core's steps alone, and the time of
//! a frame of the composer with it open, beside a plain `serde_json::Value` parse of the same
//! file, measured in the same run (before each drop, once the app's in-process Sandbox has
//! started). The window's frames are paced as a real window's (`common::wait_for`). The
//! frames of editing, saving, checking and exporting with it open are
//! `benches/composer_frames.rs`.
//!
//! Then a 100,000-row order spreadsheet (1,000 orders of 10 assets of 10 products): its import
//! (read, grouped, opened with every value typed or held), and the same sheet dropped on the
//! composer until shown, beside calamine's own read of the same workbook in the same run.
//!
//! `cargo bench --bench composer`

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use calamine::Reader;
use common::{FileOnDisk, ORDERS, app, median, order_file, wait_for};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::catalog::learn::Learned;
use license_desk::core::catalog::store::{Catalog, SHARED};
use license_desk::core::drafts::Drafts;
use license_desk::core::files::{import_file, parse_order_file, read_file_bytes};
use license_desk::core::sheet::{columns::COLUMNS, read_sheet};
use license_desk::core::snapshot::{Checked, Snapshot};
use license_desk::core::{SANDBOX, SandboxState};
use license_desk::ui::DeskApp;
use rust_xlsxwriter::Workbook;

const RUNS: usize = 5;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("ten-thousand.json");
    let bytes = order_file();
    std::fs::write(&file, &bytes).expect("file");
    println!(
        "a batch of {ORDERS} orders, {:.1} MB; {RUNS} runs",
        bytes.len() as f64 / 1e6
    );
    let steps = core_steps(&file, dir.path());

    let (mut parse, mut shown, mut frames, mut longest) = (vec![], vec![], vec![], vec![]);
    let (mut steps_typed, mut undos) = (Vec::new(), Vec::new());
    for run in 0..RUNS {
        // The baseline beside each drop, so that both see the same load of the machine.
        let start = Instant::now();
        let value: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
        parse.push(start.elapsed());
        std::hint::black_box(value);

        let home = dir.path().join(format!("run-{run}"));
        let mut harness = app(&home);
        wait_for(&mut harness, "Batch LD-");
        wait_for_sandbox(&mut harness);
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
        steps_typed.push(step);
        undos.push(undo);
    }

    let parse_ms = median(&mut parse);
    let shown_ms = median(&mut shown);
    let row = |what: &str, ms: f64| println!("| {what} | {ms:.1} ms | {:.2}× |", ms / parse_ms);
    println!("| step | median | ratio to the plain parse |");
    println!("|---|---|---|");
    row(
        "plain serde_json parse of the file (serde_json::Value)",
        parse_ms,
    );
    row(
        "composer: dropped file → read, opened whole, checked, stored as a draft, tree listed, frame drawn",
        shown_ms,
    );
    row(
        "composer: the longest frame while it loads (the window's thread's share)",
        median(&mut longest),
    );
    for (what, mut samples) in steps {
        row(
            &format!("· on the core's threads: {what}"),
            median(&mut samples),
        );
    }
    row(
        "composer: one frame with the batch open",
        median(&mut frames),
    );
    row(
        "composer: the frame that makes typing an undo step",
        median(&mut steps_typed),
    );
    row(
        "composer: the frame of an Undo (the state kept becomes the batch, as it is)",
        median(&mut undos),
    );
    println!();
    sheet_import(dir.path());
}

/// The import's steps one by one, as the core runs them for a dropped file (each `RUNS`
/// times): read, opened whole, checked, stored as a draft (its text as read), and shared
/// (the window's snapshot); then what an edit costs the snapshot, and a pointer copy of it.
fn core_steps(file: &Path, dir: &Path) -> Vec<(&'static str, Vec<Duration>)> {
    let drafts = Drafts::open(&dir.join("steps.db")).expect("drafts");
    let mut steps: Vec<(&'static str, Vec<Duration>)> = [
        "read the file",
        "opened whole (typed, every value kept)",
        "checked (the shared validation)",
        "stored as a draft (its text as read)",
        "the window's batch (each order moved behind an Arc)",
        "a deep copy of the batch (for comparison: what the import used to make for the window)",
        "all of the import as the core runs it (files::import_file)",
        "what the file teaches worked out (Learned::of_orders)",
        "learned by the catalog and the directory (Catalog::learn, a fresh catalog)",
        "learned again (the same file dropped a second time)",
    ]
    .into_iter()
    .map(|what| (what, Vec::new()))
    .collect();
    for _ in 0..RUNS {
        let mut time = |i: usize, start: Instant| steps[i].1.push(start.elapsed());
        let start = Instant::now();
        let bytes = read_file_bytes(file).expect("read");
        time(0, start);
        let start = Instant::now();
        let batch = parse_order_file(&bytes).expect("batch");
        time(1, start);
        let start = Instant::now();
        std::hint::black_box(Checked::of(&batch));
        time(2, start);
        let start = Instant::now();
        let text = String::from_utf8(bytes).expect("text");
        drafts.create("steps", &text, "{}", 0).expect("draft");
        time(3, start);
        let start = Instant::now();
        let batch = std::hint::black_box(Snapshot::from(batch));
        time(4, start);
        let start = Instant::now();
        std::hint::black_box(batch.to_batch(None));
        time(5, start);
        let start = Instant::now();
        let progress = Default::default();
        std::hint::black_box(import_file(file, &progress, &drafts).expect("import"));
        time(6, start);
        let start = Instant::now();
        let learned = Learned::of_orders(batch.head(), batch.orders());
        time(7, start);
        let catalog =
            Catalog::open(&dir.join(format!("catalog-{}.db", steps[8].1.len()))).expect("catalog");
        for step in [8, 9] {
            let start = Instant::now();
            std::hint::black_box(catalog.learn(SHARED, SANDBOX, &learned, 1).expect("learn"));
            steps[step].1.push(start.elapsed());
        }
    }
    steps
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
        wait_for_sandbox(&mut harness);
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

/// Steps frames until the in-process Sandbox has started and provisioned its demo records: a
/// drop measured meanwhile would share the two cores with the app's own start, not only the
/// baseline's load.
fn wait_for_sandbox(harness: &mut Harness<'static, DeskApp>) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        match harness.state().core().state().sandbox {
            SandboxState::Ready { .. } => return,
            SandboxState::Failed(why) => panic!("the Sandbox did not start: {why}"),
            _ => {}
        }
        assert!(Instant::now() < deadline, "the Sandbox never started");
        harness.step();
        // Polled, not spun: the frames would take the cores the Sandbox starts on.
        std::thread::sleep(Duration::from_millis(10));
    }
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
