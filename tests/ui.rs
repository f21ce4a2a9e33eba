//! The console driven like a user would, with egui_kittest: the real core (Sandbox on loopback,
//! keyring-core's mock store), widgets found by their accessible labels.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Call, Command, Core, CoreOptions, KeyringChoice, Outcome};
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
    harness.get_by_label("Orders").click();
    harness.run();
    assert_eq!(harness.state().prefs.screen, Screen::Orders);
    harness.get_by_label(
        "Compose batch license orders visually or import order JSON from a file, see every problem before sending, and submit.",
    );
}

/// Waits (a bounded number of frames, each after a short sleep) until `done` holds.
fn settle(
    harness: &mut Harness<'static, DeskApp>,
    mut done: impl FnMut(&Harness<'static, DeskApp>) -> bool,
) {
    for _ in 0..100 {
        harness.run();
        if done(harness) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the window did not get there");
}

#[test]
fn history_lists_the_calls_shows_one_and_exports_them() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    let core = harness.state().core();
    let nums = core
        .run(Command::Call(Call::Shellnums(2)), Duration::from_secs(60))
        .expect("shellnums");
    assert_eq!(
        nums,
        Outcome::Shellnums(vec!["8000000001".into(), "8000000002".into()])
    );
    let refused = core.run(Command::Call(Call::Shellnums(0)), Duration::from_secs(60));
    assert!(refused.is_err());

    harness.get_by_label("History").click();
    settle(&mut harness, |h| {
        h.query_all_by_label("shellnums").count() == 2
    });
    harness.get_by_label("token");
    // The newest first: the refused call; its detail shows the platform's words verbatim.
    harness
        .get_all_by_label("shellnums")
        .next()
        .expect("row")
        .click();
    harness.run();
    harness.get_by_label("13004: size: must be between 1 and 1000");

    // Filter by code.
    harness.get_by_label("Filter by code").focus();
    harness.run();
    harness.get_by_label("Filter by code").type_text("13004");
    harness.get_by_label("Refresh").click();
    settle(&mut harness, |h| {
        h.query_all_by_label("shellnums").count() == 1
    });
    assert!(harness.query_by_label("token").is_none());

    // Export what is shown to CSV.
    let csv = dir.path().join("calls.csv");
    harness.get_by_label("Export to").focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run();
    harness
        .get_by_label("Export to")
        .type_text(&csv.display().to_string());
    harness.run();
    harness.get_by_label("Export CSV").click();
    settle(&mut harness, |_| csv.exists());
    let text = std::fs::read_to_string(&csv).expect("csv");
    assert_eq!(
        text.lines().count(),
        2,
        "header and the one 13004 call: {text}"
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
