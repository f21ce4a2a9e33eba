//! The CPU time of a frame of the Assets screen with 100,000 assets listed (from the Sandbox,
//! through the real core), while scrolling and while typing in the filter, beside a bare
//! `egui_extras` table of the same rows with the same columns (and, for filtering, a plain
//! substring filter over the same rows), measured in the same run with the same window.
//!
//! `cargo bench --bench assets_frame`

use std::time::{Duration, Instant};

use egui_extras::{Column, TableBuilder};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::calls::requests as calls;
use license_desk::core::wire::{Asset, BatchOrderRequest};
use license_desk::core::{Core, CoreOptions, FileDialogChoice, KeyringChoice};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
use serde_json::json;

const ASSETS: usize = 100_000;
const PER_BATCH: usize = 10_000;
const FRAMES: usize = 300;
const FILTER_KEYS: &str = "8000000123";

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = keyring_core::mock::Store::new().expect("mock keyring");
    let core = Core::start(CoreOptions {
        config_dir: dir.path().join("config"),
        data_dir: dir.path().join("data"),
        keyring: KeyringChoice::Store(store),
        file_dialog: FileDialogChoice::InWindow,
    })
    .expect("core");
    let started = Instant::now();
    for b in 0..ASSETS / PER_BATCH {
        let nums: Vec<String> = (0..PER_BATCH)
            .map(|i| format!("7{:09}", b * PER_BATCH + i))
            .collect();
        let batch: BatchOrderRequest = serde_json::from_value(json!({
            "channelCode": "SHOP", "channelOrderId": format!("FRAME-{b}"), "syncMode": "sync",
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
    let listed = core
        .run(
            calls::Assets {
                profile: "Sandbox".into(),
                enterprise_global_id: "EG0000000001".into(),
                extend_code: None,
            },
            Duration::from_secs(600),
        )
        .expect("listing");
    let assets = listed.to_assets();
    println!(
        "{} assets listed through the core in {:.1} s (set-up, not measured)",
        assets.len(),
        started.elapsed().as_secs_f64()
    );

    // The console: the real window on the Assets screen, listing through its own button.
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
    desk.step();
    desk.get_by_label("Enterprise global id").focus();
    desk.step();
    desk.get_by_label("Enterprise global id")
        .type_text("EG0000000001");
    desk.step();
    desk.get_by_label("List assets").click();
    let deadline = Instant::now() + Duration::from_secs(600);
    while desk
        .query_by_label_contains(&format!("of {} assets", assets.len()))
        .is_none()
    {
        assert!(Instant::now() < deadline, "never listed");
        desk.step();
        std::thread::sleep(Duration::from_millis(5));
    }

    // The baseline: a bare table of the same rows.
    let bare = Bare::new(assets);
    let mut plain = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_context_setup(license_desk::ui::kit::fonts::install_with_theme)
        .build_ui_state(|ui, bare: &mut Bare| bare.ui(ui), bare);
    plain.step();

    let desk_scroll = scroll_frames(&mut desk);
    let bare_scroll = scroll_frames(&mut plain);
    let desk_filter = filter_frames(&mut desk);
    let bare_filter = filter_frames(&mut plain);

    println!(
        "| frame, {ASSETS} assets | Assets screen median | p99 | bare egui_extras table median | p99 | ratio (median) |"
    );
    println!("|---|---|---|---|---|---|");
    for (what, ours, base) in [
        ("scrolling", desk_scroll, bare_scroll),
        ("typing in the filter", desk_filter, bare_filter),
    ] {
        println!(
            "| {what} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {:.2}× |",
            ours.0,
            ours.1,
            base.0,
            base.1,
            ours.0 / base.0
        );
    }
}

/// Frames with the wheel turning over the table: (median, p99) in ms.
fn scroll_frames<S>(h: &mut Harness<'_, S>) -> (f64, f64) {
    h.event(egui::Event::PointerMoved(egui::pos2(700.0, 500.0)));
    h.step();
    let mut times = Vec::with_capacity(FRAMES);
    for i in 0..FRAMES {
        // Down, then back up, so that the view keeps moving.
        let dy = if i < FRAMES / 2 { -120.0 } else { 120.0 };
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, dy),
            phase: egui::TouchPhase::Move,
            modifiers: egui::Modifiers::default(),
            source: egui::MouseWheelSource::Wheel,
        });
        let start = Instant::now();
        h.step();
        times.push(start.elapsed());
    }
    stats(&mut times)
}

/// Frames each with one key typed into (or erased from) the filter: (median, p99) in ms.
fn filter_frames<S>(h: &mut Harness<'_, S>) -> (f64, f64) {
    h.get_by_label("Filter").focus();
    h.step();
    let mut times = Vec::new();
    for _ in 0..10 {
        for c in FILTER_KEYS.chars() {
            h.event(egui::Event::Text(c.to_string()));
            let start = Instant::now();
            h.step();
            times.push(start.elapsed());
        }
        for _ in FILTER_KEYS.chars() {
            h.key_press(egui::Key::Backspace);
            let start = Instant::now();
            h.step();
            times.push(start.elapsed());
        }
    }
    stats(&mut times)
}

fn stats(times: &mut [Duration]) -> (f64, f64) {
    times.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (
        ms(times[times.len() / 2]),
        ms(times[times.len() * 99 / 100]),
    )
}

/// The nearest thing to the limit: egui_extras' own table over the same rows and columns, with
/// a substring filter, and nothing else.
struct Bare {
    assets: Vec<Asset>,
    lower: Vec<String>,
    filter: String,
    view: Vec<usize>,
}

impl Bare {
    fn new(assets: Vec<Asset>) -> Self {
        let lower = assets
            .iter()
            .map(|a| format!("{} {} {}", a.asset_num, a.license_type, a.customer_id).to_lowercase())
            .collect();
        let view = (0..assets.len()).collect();
        Self {
            assets,
            lower,
            filter: String::new(),
            view,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            let label = ui.label("Filter");
            if ui
                .text_edit_singleline(&mut self.filter)
                .labelled_by(label.id)
                .changed()
            {
                let needle = self.filter.to_lowercase();
                self.view = (0..self.assets.len())
                    .filter(|&i| self.lower[i].contains(&needle))
                    .collect();
            }
            TableBuilder::new(ui)
                .striped(true)
                .columns(Column::initial(120.0), 8)
                .header(24.0, |mut h| {
                    for title in [
                        "number",
                        "type",
                        "chip",
                        "customer",
                        "state",
                        "validity",
                        "extensions",
                        "products",
                    ] {
                        h.col(|ui| {
                            ui.label(title);
                        });
                    }
                })
                .body(|body| {
                    body.rows(22.0, self.view.len(), |mut row| {
                        let a = &self.assets[self.view[row.index()]];
                        row.col(|ui| {
                            ui.label(&a.asset_num);
                        });
                        row.col(|ui| {
                            ui.label(&a.license_type);
                        });
                        row.col(|ui| {
                            ui.label(a.key_chip_type.to_string());
                        });
                        row.col(|ui| {
                            ui.label(&a.customer_id);
                        });
                        row.col(|ui| {
                            ui.label(if a.locked { "locked" } else { "" });
                        });
                        row.col(|ui| {
                            ui.label(format!("{:?}", a.limit_end_time));
                        });
                        row.col(|ui| {
                            ui.label(a.asset_extends.len().to_string());
                        });
                        row.col(|ui| {
                            ui.label(a.products.len().to_string());
                        });
                    });
                });
        });
    }
}
