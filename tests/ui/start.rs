//! The start page and the navigation: where a new user lands, and each screen one click away.

use egui_kittest::kittest::Queryable;
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{Prefs, Screen};

use test_support::window::{app, click, settle, type_into};

#[test]
fn navigation_shows_each_screen_and_the_sandbox_profile() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run();
    harness.get_by_label("Sandbox");
    // The navigation's entry and the screen's heading.
    assert_eq!(harness.get_all_by_label("Customers").count(), 2);
    harness.get_by_label("Assets").click();
    harness.run();
    assert_eq!(harness.state().prefs.screen, Screen::Assets);
    harness.get_by_label("List assets");
}

/// A new user starts on the start page: where calls go, what the Sandbox holds, one click to
/// each (the reads sent, the claim only filled in).
#[test]
fn the_start_page_leads_to_the_demo_data() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    assert_eq!(Prefs::default().screen, Screen::Start);
    click(&mut harness, "Start");
    harness.get_by_label("You are working on: Sandbox");
    // On the page and in the status bar.
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Sandbox ready · http://127.0.0.1:")
            .count()
            == 2
    });

    click(&mut harness, "Query it");
    assert_eq!(harness.state().prefs.screen, Screen::Customers);
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    harness.get_by_label("北京示例科技有限公司");
    // Results of another question than the form's are marked as such.
    assert!(
        harness
            .query_by_label_contains("The form has changed")
            .is_none()
    );
    type_into(&mut harness, "Channel customer id", "S-0002");
    harness.get_by_label_contains("The form has changed since this query");

    click(&mut harness, "Start");
    click(&mut harness, "List them");
    assert_eq!(harness.state().prefs.screen, Screen::Assets);
    settle(&mut harness, |h| h.query_by_label("8900000006").is_some());
    type_into(&mut harness, "Enterprise global id", "EG0000000002");
    harness.get_by_label(
        "The assets below are those of EG0000000001: list again to see the enterprise typed.",
    );

    click(&mut harness, "Start");
    click(&mut harness, "Fill in the claim");
    assert_eq!(harness.state().prefs.screen, Screen::Activities);
    assert_eq!(
        harness.get_by_label("Identity").value().as_deref(),
        Some("13800138000")
    );
    // Filled in, not sent: a claim is a write.
    assert!(
        harness
            .query_by_label("Claimed: the products below were granted.")
            .is_none()
    );

    click(&mut harness, "Start");
    click(&mut harness, "Compose");
    assert_eq!(harness.state().prefs.screen, Screen::Orders);
}
