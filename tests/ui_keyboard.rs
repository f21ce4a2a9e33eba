//! Everyday tasks by keys alone (issue 39): a batch composed and submitted, a claim, a failed
//! call found in History, a lock disabled. `Tab` moves the focus, `Enter` presses the focused
//! button, `Ctrl+Enter` submits the composer's batch and opens its
//! confirmation, which only a deliberate press of its own button answers. No click, no
//! pointer: the window is driven as a clerk without a mouse drives it.

use test_support::window;

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

/// Types `text` into the field that has the focus, as the keyboard does.
fn type_here(harness: &mut Harness<'static, DeskApp>, text: &str) {
    harness.event(egui::Event::Text(text.to_owned()));
    harness.run_ok();
}

/// Tabs to the field named `label` and types `text` into it.
fn fill(harness: &mut Harness<'static, DeskApp>, label: &str, text: &str) {
    tab_to(harness, label);
    type_here(harness, text);
}

/// A claim, then a refused one found in History, by keys alone: the form filled field by field
/// and sent by `Ctrl+Enter`; History's *Failures only* checked by `Space`; the failed call's
/// row opened by `Enter`.
#[test]
fn a_claim_and_a_failed_call_found_in_history_by_keys_alone() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    press(&mut harness, "Activities");
    fill(&mut harness, "Identity", "13800138000");
    fill(&mut harness, "Activity label", "spring-2026");
    fill(&mut harness, "Source", "license-desk");
    fill(&mut harness, "Branch", "北京分公司");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    settle(&mut harness, |h| {
        h.query_by_label("Claimed: the products below were granted.")
            .is_some()
    });
    // An activity the platform does not know: refused.
    tab_to(&mut harness, "Activity label");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    type_here(&mut harness, "no-such-activity");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    settle(&mut harness, |h| {
        h.query_by_label("There is no activity with this label.")
            .is_some()
    });

    press(&mut harness, "History");
    settle(&mut harness, |h| h.query_all_by_label("Claim").count() == 2);
    tab_to(&mut harness, "Failures only");
    harness.key_press(Key::Space);
    harness.run_ok();
    settle(&mut harness, |h| h.query_all_by_label("Claim").count() == 1);
    press(&mut harness, "Claim");
    // Its detail: the explanation first, then the request and the answer.
    settle(&mut harness, |h| {
        h.query_by_label("There is no activity with this label.")
            .is_some()
    });
    harness.get_by_label("activityLabel: no-such-activity");
    harness.get_by_label("resultCode: 3001");
}

/// A lock disabled by its number, by keys alone: the enterprise listed by `Enter` in its
/// field, *Disable or enable by numbers…* opened, the number typed, the question answered by
/// its own button.
#[test]
fn a_lock_is_disabled_by_keys_alone() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    press(&mut harness, "Assets");
    fill(&mut harness, "Enterprise global id", "EG0000000001");
    harness.key_press(Key::Enter);
    settle(&mut harness, |h| h.query_by_label("8900000001").is_some());
    press(&mut harness, "Disable or enable by numbers…");
    fill(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8900000001",
    );
    press(&mut harness, "Disable these");
    press(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 1 of 1 succeeded").is_some()
    });
}

/// Issue 56: a one-asset order by keys alone, counted: F6 skips the top bar and the navigation
/// (in the composer, to the tree), Ctrl+Enter submits from the tree, and the confirmation's Send
/// has the focus. At most 25 keys beyond the data typed.
#[test]
fn a_one_asset_order_by_keys_is_short() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let mut keys = 0;
    let tab_to_counted = |h: &mut Harness<'static, DeskApp>, label: &str, keys: &mut usize| {
        for _ in 0..400 {
            if focused(h).as_deref() == Some(label) {
                println!("{label}: {keys}");
                return;
            }
            h.key_press(Key::Tab);
            h.run_ok();
            *keys += 1;
        }
        panic!("Tab never reached {label:?}");
    };
    let key = |h: &mut Harness<'static, DeskApp>, k: Key, m: Modifiers, keys: &mut usize| {
        h.key_press_modifiers(m, k);
        h.run_ok();
        *keys += 1;
    };
    tab_to_counted(&mut harness, "Orders", &mut keys);
    key(&mut harness, Key::Enter, Modifiers::NONE, &mut keys);
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch LD-").next().is_some()
    });
    // F6: to the tree's chosen row.
    key(&mut harness, Key::F6, Modifiers::NONE, &mut keys);
    let row = focused(&harness).unwrap_or_default();
    assert!(row.starts_with("Batch LD-"), "{row:?}");
    // F6 again: to the problems; the first leads to the asset's numbers, and Shift+Tab from
    // there to the button that asks the platform for one.
    key(&mut harness, Key::F6, Modifiers::NONE, &mut keys);
    assert_eq!(
        focused(&harness).as_deref(),
        Some("Order 1 › Asset 1 › Asset numbers: at least one asset number required")
    );
    key(&mut harness, Key::Enter, Modifiers::NONE, &mut keys);
    for _ in 0..10 {
        if focused(&harness).as_deref() == Some("Get new asset numbers") {
            break;
        }
        key(&mut harness, Key::Tab, Modifiers::SHIFT, &mut keys);
    }
    assert_eq!(focused(&harness).as_deref(), Some("Get new asset numbers"));
    key(&mut harness, Key::Enter, Modifiers::NONE, &mut keys);
    settle(&mut harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
    // Ctrl+Enter from the tree.
    key(&mut harness, Key::F6, Modifiers::NONE, &mut keys);
    key(&mut harness, Key::Enter, Modifiers::COMMAND, &mut keys);
    harness.get_by_label("Submit this batch to Sandbox?");
    key(&mut harness, Key::Enter, Modifiers::NONE, &mut keys);
    settle(&mut harness, |h| {
        h.query_by_label("Submitted to Sandbox: the platform recorded 1 license order.")
            .is_some()
    });
    println!("a one-asset order by keys: {keys} keys");
    assert!(keys <= 25, "{keys} keys");
}
