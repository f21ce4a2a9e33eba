//! What every form shares: Enter in its last field sends it.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;

use test_support::window::{app, click, settle, type_into};

/// Enter in a form's last field sends the form, on every form with a submit button.
#[test]
fn enter_sends_every_form() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let enter_in = |h: &mut Harness<'static, DeskApp>, label: &str| {
        h.get_by_label(label).focus();
        h.run_ok();
        h.key_press(egui::Key::Enter);
        h.run_ok();
    };
    // Query.
    type_into(&mut harness, "Channel code", "SHOP");
    type_into(&mut harness, "Channel customer id", "S-0001");
    enter_in(&mut harness, "Channel customer id");
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    // Create, then Update from it.
    click(&mut harness, "Create enterprise");
    type_into(&mut harness, "CRM customer id", "CRM-ENTER");
    type_into(&mut harness, "Customer name", "回车测试企业");
    enter_in(&mut harness, "Customer name");
    settle(&mut harness, |h| h.query_by_label("Created:").is_some());
    click(&mut harness, "Edit this enterprise");
    type_into(&mut harness, "Customer name", "回车测试企业二");
    enter_in(&mut harness, "Customer name");
    settle(&mut harness, |h| h.query_by_label("Updated.").is_some());
    // Claim.
    click(&mut harness, "Activities");
    type_into(&mut harness, "Identity", "13900139000");
    type_into(&mut harness, "Activity label", "spring-2026");
    type_into(&mut harness, "Source", "license-desk");
    type_into(&mut harness, "Branch", "北京分公司");
    enter_in(&mut harness, "Branch");
    settle(&mut harness, |h| h.query_by_label("Claim · done").is_some());
    // A profile's form: its problems are shown, as the Save button would.
    click(&mut harness, "Settings");
    click(&mut harness, "Add profile");
    enter_in(&mut harness, "Name");
    assert_eq!(harness.query_all_by_label("required").count(), 3);
}
