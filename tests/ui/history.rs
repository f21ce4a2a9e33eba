//! The History screen: the calls listed, one shown, filtered and exported.

use std::time::Duration;

use egui_kittest::kittest::Queryable;
use license_desk::core::Call;
use license_desk::ui::text::i18n::Lang;

use test_support::desk::{Answer, CallOn};
use test_support::window::{app, settle};

#[test]
fn history_lists_the_calls_shows_one_and_exports_them() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    let core = harness.state().core();
    let nums = core
        .run(
            CallOn {
                profile: "Sandbox".into(),
                call: Call::Shellnums(2),
            },
            Duration::from_secs(60),
        )
        .expect("shellnums");
    assert_eq!(
        nums,
        Answer::Shellnums(vec!["8000000001".into(), "8000000002".into()])
    );
    let refused = core.run(
        CallOn {
            profile: "Sandbox".into(),
            call: Call::Shellnums(0),
        },
        Duration::from_secs(60),
    );
    assert!(refused.is_err());

    harness.get_by_label("History").click();
    settle(&mut harness, |h| {
        h.query_all_by_label("New asset numbers").count() == 2
    });
    // Operations in words; success said as such, a failure marked with its code.
    harness.get_by_label("Token");
    assert_eq!(harness.query_all_by_label("OK").count(), 2);
    harness.get_by_label("× 13004");
    // The newest first: the refused call; its detail explains it and shows the platform's
    // words verbatim.
    harness
        .get_all_by_label("New asset numbers")
        .next()
        .expect("row")
        .click();
    harness.run();
    harness.get_by_label("13004: size: must be between 1 and 1000");
    harness.get_by_label_contains("The platform refused the request");

    // Filter by code, applied as typed.
    harness.get_by_label("Filter by code").focus();
    harness.run();
    harness.get_by_label("Filter by code").type_text("13004");
    settle(&mut harness, |h| {
        h.query_all_by_label("New asset numbers").count() == 1
    });
    assert!(harness.query_by_label("Token").is_none());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.key_press(egui::Key::Backspace);
    settle(&mut harness, |h| h.query_by_label("Token").is_some());

    // Failures only.
    harness.get_by_label("Failures only").click();
    settle(&mut harness, |h| h.query_by_label("Token").is_none());
    assert_eq!(harness.query_all_by_label("New asset numbers").count(), 1);
    harness.get_by_label("× 13004");

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

/// History is read again each time it is opened: a call made while another screen was shown
/// is listed without asking (issue 56).
#[test]
fn history_opened_again_lists_what_was_done_meanwhile() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    let numbers = |harness: &egui_kittest::Harness<'static, license_desk::ui::DeskApp>| {
        let call = CallOn {
            profile: "Sandbox".into(),
            call: Call::Shellnums(1),
        };
        harness
            .state()
            .core()
            .run(call, Duration::from_secs(60))
            .expect("shellnums");
    };
    numbers(&harness);
    harness.get_by_label("History").click();
    settle(&mut harness, |h| {
        h.query_all_by_label("New asset numbers").count() == 1
    });
    harness.get_by_label("Start").click();
    harness.run();
    numbers(&harness);
    harness.get_by_label("History").click();
    settle(&mut harness, |h| {
        h.query_all_by_label("New asset numbers").count() == 2
    });
}
