//! What the composer's benches share: a 10,000-order file, a real app in a test window, a
//! file dropped on it, and frames stepped until something is shown.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, LazyLock, Mutex};
use std::time::{Duration, Instant};

use egui::DroppedFile;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Core, CoreOptions, FileDialogChoice, KeyringChoice};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
use serde_json::json;

pub const ORDERS: usize = 10_000;

#[derive(Debug)]
pub struct FileOnDisk(pub PathBuf);

impl DroppedFile for FileOnDisk {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

pub fn app(home: &Path) -> Harness<'static, DeskApp> {
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
        theme: license_desk::ui::kit::theme::ThemeChoice::Light,
        ..Prefs::default()
    };
    let ctx = egui::Context::default();
    let app = DeskApp::new(core, prefs, &ctx);
    let harness = Harness::builder()
        .with_size(egui::vec2(1100.0, 720.0))
        .with_context_setup(license_desk::ui::kit::fonts::install_with_theme)
        .build_ui_state(|ui, app: &mut DeskApp| app.root_ui(ui), app);
    // The core wakes this test window, as it wakes a real one.
    harness.state().core().set_repaint(|| {
        let (woken, wake) = &*WAKE;
        *woken.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
    });
    harness
}

/// Set by the core when it has something for the window.
static WAKE: LazyLock<(Mutex<bool>, Condvar)> =
    LazyLock::new(|| (Mutex::new(false), Condvar::new()));

/// A display's frame: a window that animates (a spinner, a bar) draws at most this often.
const DISPLAY_FRAME: Duration = Duration::from_micros(16_667);

/// Steps frames until a widget whose label contains `label` is shown, paced as a real window
/// paces them: a frame when the core wakes it, and otherwise one a display frame after the
/// last began (a window that animates while it waits). Frames stepped back to back would
/// take a core of the two the import runs on. Answers the longest frame meanwhile (what the
/// user would feel as a stall).
pub fn wait_for(harness: &mut Harness<'static, DeskApp>, label: &str) -> Duration {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut longest = Duration::ZERO;
    while harness.query_all_by_label_contains(label).next().is_none() {
        assert!(Instant::now() < deadline, "{label} never shown");
        let start = Instant::now();
        harness.step();
        longest = longest.max(start.elapsed());
        // Shown by this frame: the time ends with it, not a display frame later.
        if harness.query_all_by_label_contains(label).next().is_some() {
            break;
        }
        let (woken, wake) = &*WAKE;
        let woken = woken.lock().unwrap_or_else(|e| e.into_inner());
        let wait = DISPLAY_FRAME.saturating_sub(start.elapsed());
        let (mut woken, _) = wake
            .wait_timeout_while(woken, wait, |woken| !*woken)
            .unwrap_or_else(|e| e.into_inner());
        *woken = false;
    }
    longest
}

/// A batch of `ORDERS` new purchases, each with an asset, two products and a package.
pub fn order_file() -> Vec<u8> {
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

/// The median, in milliseconds.
pub fn median(samples: &mut [Duration]) -> f64 {
    samples.sort_unstable();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
}
