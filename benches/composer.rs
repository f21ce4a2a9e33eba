//! The order composer with a 10,000-order file: the time from dropping the file on the window
//! to the batch shown (read and parsed on the core's threads, validated, its tree listed and a
//! frame drawn), and the time of a frame of the composer with it open, beside plain `serde_json`
//! parsing of the same file, measured in the same run.
//!
//! `cargo bench --bench composer`

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::DroppedFile;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Core, CoreOptions, FileDialogChoice, KeyringChoice};
use license_desk::ui::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
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

    let mut shown = Vec::new();
    let mut frames = Vec::new();
    let mut longest = Vec::new();
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
