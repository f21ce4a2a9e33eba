//! The Activities screen: a claim, the claim limit, an unknown activity label.

use egui_kittest::kittest::Queryable;
use license_desk::ui::text::i18n::Lang;

use test_support::window::{app, click, settle, type_into};

#[test]
fn activities_claim_then_the_limit_then_an_unknown_label() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Activities");
    type_into(&mut harness, "Identity", "1380013");
    harness.get_by_label("a mobile number with digits missing (a mobile number has 11)");
    type_into(&mut harness, "Identity", "138-0013-8000");
    harness.get_by_label("a mobile number");
    assert_eq!(
        harness.get_by_label("Identity").value().as_deref(),
        Some("13800138000")
    );
    type_into(&mut harness, "Activity label", "spring-2026");
    type_into(&mut harness, "Source", "license-desk");
    type_into(&mut harness, "Branch", "北京分公司");
    click(&mut harness, "Claim");
    settle(&mut harness, |h| {
        h.query_by_label("Claimed: the products below were granted.")
            .is_some()
    });
    // By the names the catalog knows, the URI beside.
    settle(&mut harness, |h| h.query_by_label("计价软件").is_some());
    harness.get_by_label("gms:1001");
    harness.get_by_label("算量软件");
    harness.get_by_label("gms:1002");
    harness.get_by_label("to be activated separately");
    harness.get_by_label("Claim · done");
    assert!(harness.query_by_label_contains("0000").is_none());

    // Again: the unit's claim limit, and the other unit's stock, in words.
    click(&mut harness, "Claim");
    settle(&mut harness, |h| {
        h.query_by_label("Nothing could be claimed: each unit's reason is below.")
            .is_some()
    });
    harness.get_by_label("this identity has claimed it as often as allowed");
    harness.get_by_label("no stock left");
    harness.get_by_label_contains("14005: ");
    // Answered, and refused: the status bar does not say "done".
    harness.get_by_label("Claim · refused (3002)");

    type_into(&mut harness, "Activity label", "no-such-activity");
    click(&mut harness, "Claim");
    settle(&mut harness, |h| {
        h.query_by_label("There is no activity with this label.")
            .is_some()
    });
    harness.get_by_label_contains("3001: ");
    harness.get_by_label("Claim · refused (3001)");
    // The label the platform knew is offered again; the unknown one is not.
    assert_eq!(
        harness.state().prefs.claim.seen,
        vec!["spring-2026".to_owned()]
    );
    click(&mut harness, "Recent");
    click(&mut harness, "spring-2026");
    assert_eq!(
        harness.get_by_label("Activity label").value().as_deref(),
        Some("spring-2026")
    );
    // The form is remembered for the next run.
    assert_eq!(harness.state().prefs.claim.branch, "北京分公司");
}

/// Issue 56: the Sandbox's activities are listed beside the label's field (the interface lists
/// none), and one picked fills it.
#[test]
fn the_sandbox_s_activities_are_listed_and_one_fills_the_label() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.state_mut().prefs.screen = license_desk::ui::Screen::Activities;
    harness.run_ok();
    click(&mut harness, "The Sandbox's activities");
    harness.get_by_label("sold-out-2026 · 售罄活动");
    click(&mut harness, "spring-2026 · 春季活动");
    assert_eq!(
        harness.get_by_label("Activity label").value().as_deref(),
        Some("spring-2026")
    );
}
