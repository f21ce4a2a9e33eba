//! The console in egui_kittest's harness for a test: the real core (keyring-core's mock
//! store), and the moves a user makes, each finding widgets by their accessible labels.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use license_desk::core::KeyringChoice;
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};

use crate::desk;

pub fn app(dir: &std::path::Path, lang: Lang) -> Harness<'static, DeskApp> {
    app_with_store(dir, lang, desk::mock_store())
}

pub fn app_with_store(
    dir: &std::path::Path,
    lang: Lang,
    store: std::sync::Arc<keyring_core::CredentialStore>,
) -> Harness<'static, DeskApp> {
    app_sized(dir, lang, store, egui::vec2(1100.0, 720.0))
}

pub fn app_sized(
    dir: &std::path::Path,
    lang: Lang,
    store: std::sync::Arc<keyring_core::CredentialStore>,
    size: egui::Vec2,
) -> Harness<'static, DeskApp> {
    let core = desk::start_core(dir, KeyringChoice::Store(store));
    let prefs = Prefs {
        lang,
        screen: Screen::Customers,
        theme: license_desk::ui::kit::theme::ThemeChoice::Light,
        ..Prefs::default()
    };
    let ctx = egui::Context::default();
    let app = DeskApp::new(core, prefs, &ctx);
    Harness::builder()
        .with_size(size)
        .with_context_setup(license_desk::ui::kit::fonts::install_with_theme)
        .build_ui_state(|ui, app: &mut DeskApp| app.root_ui(ui), app)
}

/// Steps the window until `done` holds, or fails after `timeout`: answers come from the core's
/// threads, so frames run until the condition, never for a fixed time. A failure names the
/// test's line that waited.
#[track_caller]
pub fn step_until(
    harness: &mut Harness<'static, DeskApp>,
    timeout: Duration,
    mut done: impl FnMut(&Harness<'static, DeskApp>) -> bool,
) {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        // A spinner animates while a call runs; `run_ok` steps a bounded number of frames.
        harness.run_ok();
        if done(harness) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the window did not get there within {timeout:?} (waited at {}); it showed: {}",
            std::panic::Location::caller(),
            shown_labels(harness)
        );
        // Yield to the core's threads between frames.
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Every label and value the window shows, for a test that gave up waiting.
pub fn shown_labels(harness: &Harness<'static, DeskApp>) -> String {
    use egui_kittest::kittest::NodeT as _;
    let root = harness.root();
    let mut shown = Vec::new();
    for node in root.children_recursive() {
        let node = node.accesskit_node();
        shown.extend(node.label().filter(|l| !l.is_empty()));
        shown.extend(node.value().filter(|v| !v.is_empty()));
    }
    shown.join(" | ")
}

/// `step_until` with a bound generous enough for a loaded CI machine.
#[track_caller]
pub fn settle(
    harness: &mut Harness<'static, DeskApp>,
    done: impl FnMut(&Harness<'static, DeskApp>) -> bool,
) {
    step_until(harness, Duration::from_secs(60), done);
}

/// Focuses the field with this accessible label, selects what it holds and types `text` over it.
pub fn type_into(harness: &mut Harness<'static, DeskApp>, label: &str, text: &str) {
    harness.get_by_label(label).focus();
    harness.run_ok();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run_ok();
    if text.is_empty() {
        harness.key_press(egui::Key::Backspace);
    } else {
        harness.get_by_label(label).type_text(text);
    }
    harness.run_ok();
}

/// Clicks the widget named `label`, scrolled into view first as a user would.
pub fn click(harness: &mut Harness<'static, DeskApp>, label: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run_ok();
    harness.get_by_label(label).click();
    harness.run_ok();
}

/// Clicks the composer tree's row whose name starts with `row` ("Batch LD-", "#1 New
/// purchase"), not its open/close button, whose name holds the row's words too.
pub fn click_tree_row(harness: &mut Harness<'static, DeskApp>, row: &str) {
    harness
        .query_all_by_label_contains(row)
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with(row))
        })
        .unwrap_or_else(|| panic!("the tree's row {row}"))
        .click();
    harness.run_ok();
}
