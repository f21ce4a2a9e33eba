//! A batch composed and submitted by keys alone (issue 39): `Tab` moves the focus, `Enter`
//! presses the focused button, `Ctrl+Enter` submits the composer's batch and opens its
//! confirmation, which only a deliberate press of its own button answers. No click, no
//! pointer: the window is driven as a clerk without a mouse drives it.

#[path = "support/desk.rs"]
mod desk;
#[path = "support/window.rs"]
mod window;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;
use window::{app, settle};

/// The accessible name of the widget that has the keyboard's focus.
fn focused(harness: &Harness<'static, DeskApp>) -> Option<String> {
    harness
        .root()
        .children_recursive()
        .find(|node| node.accesskit_node().is_focused())
        .and_then(|node| node.accesskit_node().label())
}

/// Presses `Tab` until the widget named `label` has the focus, as a user tabs through the
/// window; fails when a whole round of the window's widgets never reaches it.
fn tab_to(harness: &mut Harness<'static, DeskApp>, label: &str) {
    let mut visited = Vec::new();
    for _ in 0..400 {
        let now = focused(harness);
        if now.as_deref() == Some(label) {
            return;
        }
        visited.push(now.unwrap_or_else(|| "(nothing)".to_owned()));
        harness.key_press(Key::Tab);
        harness.run_ok();
    }
    visited.dedup();
    panic!("Tab never reached {label:?}; it went to {visited:?}");
}

/// Tabs to the button named `label` and presses Enter on it.
fn press(harness: &mut Harness<'static, DeskApp>, label: &str) {
    tab_to(harness, label);
    harness.key_press(Key::Enter);
    harness.run_ok();
}

#[test]
fn a_batch_is_composed_and_submitted_by_keys_alone() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();

    press(&mut harness, "Orders");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch LD-").next().is_some()
    });
    // The new purchase lacks only its asset numbers: its problem leads to the asset, whose
    // numbers the platform gives.
    press(
        &mut harness,
        "Order 1 › Asset 1 › Asset numbers: at least one asset number required",
    );
    press(&mut harness, "Get new asset numbers");
    settle(&mut harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });

    // Ctrl+Enter submits the batch: its confirmation opens, and Ctrl+Enter does not answer it.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    harness.run_ok();
    harness.get_by_label("Submit this batch to Sandbox?");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    harness.run_ok();
    // Still asking: an answered confirmation closes in the frame it is answered.
    harness.get_by_label("Submit this batch to Sandbox?");

    press(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Submitted to Sandbox: the platform recorded 1 license order.")
            .is_some()
    });
}
