//! The console driven like a user would, with egui_kittest: the real core (Sandbox on loopback,
//! keyring-core's mock store), widgets found by their accessible labels.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Core, CoreOptions, KeyringChoice};
use license_desk::ui::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};

fn app(dir: &std::path::Path, lang: Lang) -> Harness<'static, DeskApp> {
    let store = keyring_core::mock::Store::new().expect("mock keyring");
    let core = Core::start(CoreOptions {
        config_dir: dir.join("config"),
        data_dir: dir.join("data"),
        keyring: KeyringChoice::Store(store),
    })
    .expect("core");
    let prefs = Prefs {
        lang,
        screen: Screen::Customers,
        dark: false,
    };
    let ctx = egui::Context::default();
    let app = DeskApp::new(core, prefs, &ctx);
    Harness::builder()
        .with_size(egui::vec2(1100.0, 720.0))
        .with_context_setup(license_desk::ui::fonts::install)
        .build_ui_state(|ui, app: &mut DeskApp| app.root_ui(ui), app)
}

#[test]
fn navigation_shows_each_screen_and_the_sandbox_profile() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run();
    harness.get_by_label("Sandbox");
    // The navigation's entry and the screen's heading.
    assert_eq!(harness.get_all_by_label("Customers").count(), 2);
    harness.get_by_label("History").click();
    harness.run();
    assert_eq!(harness.state().prefs.screen, Screen::History);
    harness.get_by_label(
        "Every call in a table: filter by operation and code, see the redacted request and answer, export to CSV.",
    );
}

#[test]
fn switching_to_chinese_relabels_the_window() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run();
    harness.get_by_label("Settings").click();
    harness.run();
    harness.get_by_label("中文").click();
    harness.run();
    assert_eq!(harness.state().prefs.lang, Lang::Zh);
    harness.get_by_label("客户");
    assert_eq!(harness.get_all_by_label("设置").count(), 2);
    harness.get_by_label("沙箱");
    assert!(harness.query_by_label("Customers").is_none());
}
