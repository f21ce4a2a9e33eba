//! A production profile: a delete, or more than ten locks at once, waits for the profile's name.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;
use platform::Region;

use test_support::remote::Remote;
use test_support::window::{app, click, settle, type_into};

use crate::{open_composer, save_staging};

/// Saves the remote platform as the production profile "Staging" and makes it the active one.
fn use_production_staging(harness: &mut Harness<'static, DeskApp>, remote: &Remote) {
    save_staging(harness, remote, true);
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Activate {
                name: "Staging".into(),
            },
            Duration::from_secs(60),
        )
        .expect("activated");
    settle(harness, |h| h.query_by_label("PRODUCTION").is_some());
}

/// A delete order on a production profile is sent only once the profile's name is typed.
#[test]
fn a_delete_on_production_waits_for_the_profile_s_name() {
    use egui_kittest::kittest::NodeT as _;
    let remote = Remote::start(Region::default());
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("delete.json");
    std::fs::write(
        &file,
        r#"{"channelCode": "SHOP", "channelOrderId": "GUARD-1", "orderList": [
             {"sequence": 1, "channelCustomerId": "S-0001", "licenseType": "normal_recover_usbkey",
              "orderType": "delete_asset", "assets": [{"assetNos": ["8900000001"]}]}]}"#,
    )
    .expect("file");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    use_production_staging(&mut harness, &remote);
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch GUARD-1")
            .next()
            .is_some()
    });
    click(&mut harness, "Submit batch");
    let guard = "This is the production profile. Type its name, Staging, to go on:";
    harness.get_by_label(guard);
    assert!(harness.get_by_label("Send").accesskit_node().is_disabled());
    type_into(&mut harness, guard, "staging");
    assert!(
        harness.get_by_label("Send").accesskit_node().is_disabled(),
        "the name exactly"
    );
    type_into(&mut harness, guard, "Staging");
    // The new platform's directory does not know the customer's enterprise: what the delete
    // removes is unknown, and sending takes one more click.
    let unknown = "Send without knowing exactly what is removed";
    settle(&mut harness, |h| h.query_by_label(unknown).is_some());
    harness.get_by_label(
        "Order #1 names no enterprise, and the directory does not know its customer's: what it \
         removes is unknown. Bind the customer to an enterprise on Customers › Bind customer, or \
         put the enterprise's global id in the order, and preview again.",
    );
    harness.get_by_label("What this batch removes is not known (see below).");
    assert!(harness.get_by_label("Send").accesskit_node().is_disabled());
    click(&mut harness, unknown);
    assert!(!harness.get_by_label("Send").accesskit_node().is_disabled());
    click(&mut harness, "Cancel");
    // Asked again, the name must be typed and the unknown accepted again.
    click(&mut harness, "Submit batch");
    settle(&mut harness, |h| h.query_by_label(unknown).is_some());
    type_into(&mut harness, guard, "Staging");
    assert!(harness.get_by_label("Send").accesskit_node().is_disabled());
}

/// On a production profile, more than ten locks at once wait for the profile's name; ten do not.
#[test]
fn eleven_locks_on_production_wait_for_the_profile_s_name() {
    use egui_kittest::kittest::NodeT as _;
    let remote = Remote::start(Region::default());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    use_production_staging(&mut harness, &remote);
    click(&mut harness, "Assets");
    let numbers = |n: u64| -> String {
        (1..=n)
            .map(|i| format!("{}", 8_900_000_100 + i))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let field = "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons";
    let guard = "This is the production profile. Type its name, Staging, to go on:";
    click(&mut harness, "Disable or enable by numbers…");
    type_into(&mut harness, field, &numbers(11));
    click(&mut harness, "Disable these");
    harness.get_by_label(guard);
    assert!(
        harness
            .get_by_label("Disable 11 locks")
            .accesskit_node()
            .is_disabled()
    );
    type_into(&mut harness, guard, "Staging");
    assert!(
        !harness
            .get_by_label("Disable 11 locks")
            .accesskit_node()
            .is_disabled()
    );
    click(&mut harness, "Cancel");

    click(&mut harness, "Disable or enable by numbers…");
    type_into(&mut harness, field, &numbers(10));
    click(&mut harness, "Disable these");
    assert!(harness.query_by_label(guard).is_none());
    assert!(
        !harness
            .get_by_label("Disable 10 locks")
            .accesskit_node()
            .is_disabled()
    );
}
