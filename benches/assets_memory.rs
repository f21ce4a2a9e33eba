//! The memory of the console (the real window's state and core, with the embedded Sandbox in the
//! same process, as `cargo run` has it) idle, with 100,000 assets listed on the Assets screen,
//! and after the listing is closed, in one run. Memory is the process's PSS and RSS
//! (`/proc/self/smaps_rollup`); the window is drawn by egui_kittest without a GPU renderer, so
//! the figures are the console's own, without the graphics driver's (see `dist/measure.sh` for
//! the whole program under Xvfb).
//!
//! The 100,000 assets are ordered by a child process (this bench run again with
//! `ASSETS_MEMORY_SEED=DIR`) so that the measured process starts as a user's console does: on a
//! platform that already holds them.
//!
//! `cargo bench --bench assets_memory`

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::calls::requests as calls;
use license_desk::core::wire::BatchOrderRequest;
use license_desk::core::{Core, CoreOptions, FileDialogChoice, KeyringChoice};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
use serde_json::json;

const ASSETS: usize = 100_000;
const PER_BATCH: usize = 10_000;
const SEED: &str = "ASSETS_MEMORY_SEED";

fn main() {
    if let Some(dir) = std::env::var_os(SEED) {
        seed(Path::new(&dir));
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let status = std::process::Command::new(std::env::current_exe().expect("this bench"))
        .env(SEED, dir.path())
        .status()
        .expect("the seeding child");
    assert!(status.success(), "seeding failed");

    let core = start_core(dir.path());
    let prefs = Prefs {
        lang: Lang::En,
        screen: Screen::Assets,
        ..Prefs::default()
    };
    let ctx = egui::Context::default();
    let app = DeskApp::new(core, prefs, &ctx);
    let mut desk = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_context_setup(license_desk::ui::kit::fonts::install_with_theme)
        .build_ui_state(|ui, app: &mut DeskApp| app.root_ui(ui), app);
    // Idle: the Assets screen drawn and the Sandbox started.
    wait_for(&mut desk, "Sandbox ready");
    settle(&mut desk);
    let idle = memory();

    list(
        &mut desk,
        "EG0000000001",
        &format!("of {} assets", ASSETS + 8),
    );
    settle(&mut desk);
    let listed = memory();

    if let Some(close) = desk.query_by_label("Close the listing") {
        close.click();
    }
    settle(&mut desk);
    let closed = memory();

    println!("| console, PSS (RSS) | idle | {ASSETS} assets listed | listing closed |");
    println!("|---|---|---|---|");
    println!(
        "| this run | {} | {} ({:.2}× idle) | {} ({:.2}× idle) |",
        idle,
        listed,
        listed.pss / idle.pss,
        closed,
        closed.pss / idle.pss
    );
}

fn start_core(dir: &Path) -> Core {
    let store = keyring_core::mock::Store::new().expect("mock keyring");
    Core::start(CoreOptions {
        config_dir: dir.join("config"),
        data_dir: dir.join("data"),
        keyring: KeyringChoice::Store(store),
        file_dialog: FileDialogChoice::InWindow,
    })
    .expect("core")
}

/// Orders the assets in batches of 10,000 locks for the demo enterprise's customer `S-0001`.
fn seed(dir: &Path) {
    let core = start_core(dir);
    for b in 0..ASSETS / PER_BATCH {
        let nums: Vec<String> = (0..PER_BATCH)
            .map(|i| format!("7{:09}", b * PER_BATCH + i))
            .collect();
        let batch: BatchOrderRequest = serde_json::from_value(json!({
            "channelCode": "SHOP", "channelOrderId": format!("MEMORY-{b}"), "syncMode": "sync",
            "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
                "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                "assets": [{"assetNos": nums, "products": [{"productUri": "gms:1001"}]}]}]
        }))
        .expect("batch");
        core.run(
            calls::BatchOrder {
                profile: "Sandbox".into(),
                batch,
            },
            Duration::from_secs(600),
        )
        .expect("batch order");
    }
}

/// Lists an enterprise through the screen's own field and button, and waits for its count.
fn list(desk: &mut Harness<'_, DeskApp>, enterprise: &str, count: &str) {
    desk.get_by_label("Enterprise global id").focus();
    desk.step();
    desk.get_by_label("Enterprise global id")
        .type_text(enterprise);
    desk.step();
    desk.get_by_label("List assets").click();
    wait_for(desk, count);
}

fn wait_for(desk: &mut Harness<'_, DeskApp>, label: &str) {
    let deadline = Instant::now() + Duration::from_secs(600);
    while desk.query_by_label_contains(label).is_none() {
        assert!(Instant::now() < deadline, "never saw {label}");
        desk.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A few frames, then a moment for the core's threads to finish what the last answer started.
fn settle(desk: &mut Harness<'_, DeskApp>) {
    for _ in 0..10 {
        desk.step();
    }
    std::thread::sleep(Duration::from_secs(1));
    desk.step();
}

#[derive(Clone, Copy)]
struct Memory {
    pss: f64,
    rss: f64,
}

impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.1} MiB ({:.1} MiB)", self.pss, self.rss)
    }
}

/// This process's PSS and RSS in MiB.
fn memory() -> Memory {
    let text = std::fs::read_to_string("/proc/self/smaps_rollup").expect("smaps_rollup");
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kb| kb.parse::<f64>().ok())
            .expect("a field of smaps_rollup")
            / 1024.0
    };
    Memory {
        pss: field("Pss:"),
        rss: field("Rss:"),
    }
}
