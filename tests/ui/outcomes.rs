//! Writes whose answer is lost or never comes, on a platform behind a fault proxy: unknown outcomes
//! checked and settled, a call cancelled in flight, a batch kept to send later.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Call, Secret};
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;
use platform::Region;

use test_support::desk::{self, Answer, CallOn};
use test_support::fault_proxy;
use test_support::remote::Remote;
use test_support::window::{app, app_with_store, click, settle, type_into};

use crate::{open_composer, staging_profile};

/// Staging, a remote platform behind a fault proxy, active, with an enterprise (its global id
/// answered); the composer open on a batch buying `gms:1` on lock `8100000777` with
/// channelOrderId `UNK-1`.
fn staging_behind_proxy(
    harness: &mut Harness<'static, DeskApp>,
    remote: &Remote,
    proxy: &fault_proxy::FaultProxy,
    dir: &std::path::Path,
) -> String {
    let staging = staging_profile(&proxy.base, &remote.app_key, false);
    let wait = Duration::from_secs(60);
    let core = harness.state().core();
    core.run(
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: staging,
            app_secret: Some(Secret::new(remote.app_secret.clone())),
        },
        wait,
    )
    .expect("profile saved");
    let enterprise = license_desk::core::wire::EnterpriseRequest {
        crm_customer_id: Some("CRM-U".into()),
        customer_name: Some("结果未知测试企业".into()),
        branch_name: None,
        address: None,
    };
    let created = core
        .run(
            CallOn {
                profile: "Staging".into(),
                call: Call::CreateEnterprise(enterprise),
            },
            wait,
        )
        .expect("enterprise");
    let Answer::Enterprise(created) = created else {
        panic!("{created:?}");
    };
    core.run(
        license_desk::core::profiles::requests::Activate {
            name: "Staging".into(),
        },
        wait,
    )
    .expect("activated");
    let file = dir.join("unknown.json");
    let batch = serde_json::json!({"channelCode": "CRM", "channelOrderId": "UNK-1",
        "syncMode": "sync", "orderList": [{"sequence": 1, "channelCustomerId": "CRM-U",
        "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
        "assets": [{"assetNos": ["8100000777"], "products": [{"productUri": "gms:1"}]}]}]});
    std::fs::write(&file, batch.to_string()).expect("write");
    open_composer(harness);
    type_into(harness, "File", &file.display().to_string());
    click(harness, "Import");
    settle(harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
    created.enterprise_global_id
}

/// License orders the remote platform holds.
fn remote_orders(remote: &Remote) -> i64 {
    let db = remote.dir.path().join("platform.sqlite3");
    rusqlite::Connection::open(db)
        .expect("platform db")
        .query_row("SELECT count(*) FROM license_orders", [], |r| r.get(0))
        .expect("count")
}

/// A batch whose answer is lost after the platform committed it: the composer says the outcome
/// is unknown and what may have happened, Check reads what the platform holds, Send again warns
/// of the risk on a platform not declared to recognise repeats, Mark as done is recorded in
/// History; and the draft knows it went to Staging, not to the Sandbox.
#[test]
fn an_unknown_outcome_is_shown_with_its_choices_checked_and_settled() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let wait = Duration::from_secs(60);
    staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());

    // The platform applies it; its answer never comes back.
    proxy.then(&[fault_proxy::Fault::DropAnswer]);
    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    let heading =
        "Sent to Staging, outcome unknown: the platform may have applied this license order.";
    settle(&mut harness, |h| h.query_by_label(heading).is_some());
    for choice in ["Check", "Mark as done", "Mark as not done", "Send again"] {
        harness.get_by_label(choice);
    }
    // The toast does not call it a failure.
    harness.get_by_label("Submit batch: Outcome unknown");
    for not_so in ["Submit batch: failed", "Submit batch: refused"] {
        assert!(harness.query_by_label(not_so).is_none());
    }
    assert_eq!(
        remote_orders(&remote),
        1,
        "applied once, and not sent again by itself"
    );

    // Check: the asset is listed with the product the batch asked for.
    click(&mut harness, "Check");
    settle(&mut harness, |h| {
        h.query_by_label("As the batch asked: 1 · not so: 0 · cannot tell: 0")
            .is_some()
    });
    harness.get_by_label_contains("8100000777: listed: gms:1");

    // Send again: the confirmation names the risk on this platform; cancelled.
    click(&mut harness, "Send again");
    harness.get_by_label_contains(
        "This draft was already sent to Staging with UNK-1 (Outcome unknown). Staging is not declared to recognise a repeated channel order id",
    );
    click(&mut harness, "Cancel");

    // Marked as done, as the evidence says; History shows the call so.
    click(&mut harness, "Mark as done");
    settle(&mut harness, |h| {
        h.query_by_label("Marked as done: recorded in History.")
            .is_some()
    });
    let writes = harness
        .state()
        .core()
        .run(
            license_desk::core::journal::requests::Writes {
                profile: Some("Staging".into()),
                state: None,
                limit: 0,
            },
            wait,
        )
        .expect("writes");
    assert_eq!(
        (
            writes[0].operation.name(),
            writes[0].state,
            writes[0].resolved_by.as_deref()
        ),
        (
            "batch_order",
            license_desk::core::WriteState::Done,
            Some("ops@example.com")
        )
    );
    click(&mut harness, "History");
    settle(&mut harness, |h| h.query_all_by_label("Done").count() == 2);
    assert!(harness.query_by_label("Outcome unknown").is_none());

    // On the Sandbox the draft was never sent: the confirmation says where it went.
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Activate {
                name: "Sandbox".into(),
            },
            wait,
        )
        .expect("activated");
    click(&mut harness, "Orders");
    settle(&mut harness, |h| h.query_by_label("Submit batch").is_some());
    assert!(
        harness.query_by_label(heading).is_none(),
        "another profile's outcome is not shown"
    );
    click(&mut harness, "Submit batch");
    harness.get_by_label("Sent before with this channel order id to Staging; not yet to Sandbox.");
}

/// A batch held by a platform that never answers: the status bar shows it running with a
/// Cancel; cancelled, it is an unknown outcome (it had left), settled as not done.
#[test]
fn a_call_in_flight_is_cancelled_from_the_status_bar() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());
    proxy.then(&[fault_proxy::Fault::Blackhole]);
    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        proxy.received() == 2 && h.query_by_label("Cancel call").is_some()
    });
    harness.get_by_label("Batch order on Staging…");
    click(&mut harness, "Cancel call");
    let heading =
        "Sent to Staging, outcome unknown: the platform may have applied this license order.";
    settle(&mut harness, |h| h.query_by_label(heading).is_some());
    assert!(harness.query_by_label("Cancel call").is_none());
    harness.get_by_label("cancelled by the user");
    assert_eq!(remote_orders(&remote), 0);
    click(&mut harness, "Mark as not done");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Marked as not done").is_some()
    });
    let writes = harness
        .state()
        .core()
        .run(
            license_desk::core::journal::requests::Writes {
                profile: Some("Staging".into()),
                state: None,
                limit: 1,
            },
            Duration::from_secs(60),
        )
        .expect("writes");
    assert_eq!(writes[0].state, license_desk::core::WriteState::NotSent);
    assert_eq!(writes[0].detail.as_deref(), Some("cancelled by the user"));
    assert_eq!(writes[0].resolved_by.as_deref(), Some("ops@example.com"));
}

/// A lock whose answer is lost: the screen says what may have happened, reads the listing
/// again on the lock's profile, and shows the state the platform lists.
#[test]
fn a_lock_with_an_unknown_outcome_is_followed_by_a_read_of_the_state() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let enterprise = staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());
    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Submitted to Staging: the platform recorded 1 license order.")
            .is_some()
    });
    click(&mut harness, "Assets");
    type_into(&mut harness, "Enterprise global id", &enterprise);
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8100000777").is_some());
    assert!(harness.query_by_label("disabled").is_none());

    proxy.then(&[fault_proxy::Fault::DropAnswer]);
    click(&mut harness, "8100000777");
    click(&mut harness, "Disable selected");
    click(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label_contains("As the platform lists them now:")
            .is_some()
    });
    harness.get_by_label(
        "Sent to Staging, outcome unknown: the platform may have disabled this lock.",
    );
    harness.get_by_label(
        "As the platform lists them now: 1 disabled, 0 enabled, 0 not listed. The grid shows this state.",
    );
    harness.get_by_label("disabled");

    // The platform away: enabling it sends nothing, and it can be kept to send later.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let away = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    point_staging_at(&harness, &remote, &away);
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8100000777",
    );
    click(&mut harness, "Enable these");
    click(&mut harness, "Enable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label("Staging could not be reached: nothing was sent.")
            .is_some()
    });
    click(&mut harness, "Keep to send later");
    settle(&mut harness, |h| {
        h.query_by_label("Send later (1)").is_some()
    });
}

/// Staging's profile pointed at `base` (a closed port: unreachable).
fn point_staging_at(harness: &Harness<'static, DeskApp>, remote: &Remote, base: &str) {
    let staging = staging_profile(base, &remote.app_key, false);
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Save {
                previous: Some("Staging".into()),
                profile: staging,
                app_secret: None,
            },
            Duration::from_secs(60),
        )
        .expect("profile saved");
}

/// A batch whose platform cannot be reached is kept to send later from the composer; the queue
/// survives a restart of the window and is sent once, to its own profile, when it answers.
#[test]
fn a_batch_kept_to_send_later_survives_a_restart_and_is_sent_once() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let store: std::sync::Arc<keyring_core::CredentialStore> = desk::mock_store();
    let mut harness = app_with_store(dir.path(), Lang::En, std::sync::Arc::clone(&store));
    harness.run_ok();
    staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let away = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    point_staging_at(&harness, &remote, &away);

    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Staging could not be reached: nothing was sent.")
            .is_some()
    });
    // Clicked again while the panel settles (a click during its first frames can land beside
    // the button); a kept call disables it, so it is kept once.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while harness
        .query_by_label_contains("Kept to send later")
        .is_none()
    {
        assert!(std::time::Instant::now() < deadline, "never kept");
        if harness.query_by_label("Keep to send later").is_some() {
            click(&mut harness, "Keep to send later");
        }
        harness.step();
    }
    settle(&mut harness, |h| {
        h.query_by_label("Send later (1)").is_some()
    });
    drop(harness);

    // The window again: the call is still there, and goes once the platform is back (by the
    // half-minute sending or by Send now, whichever comes first).
    let mut harness = app_with_store(dir.path(), Lang::En, store);
    point_staging_at(&harness, &remote, &proxy.base);
    // The navigation's item, clicked until its screen is open (a click in the window's first
    // frames can land beside it).
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while harness.query_by_label("Send now").is_none() {
        assert!(std::time::Instant::now() < deadline, "never opened");
        if let Some(item) = harness.get_all_by_label_contains("Send later").next() {
            item.click();
        }
        harness.step();
    }
    settle(&mut harness, |h| {
        h.query_by_label("Batch order: 1 order, UNK-1").is_some()
    });
    settle(&mut harness, |h| {
        use egui_kittest::kittest::NodeT as _;
        h.query_by_label("Done").is_some()
            || !h.get_by_label("Send now").accesskit_node().is_disabled()
    });
    if harness.query_by_label("Done").is_none() {
        click(&mut harness, "Send now");
    }
    settle(&mut harness, |h| {
        h.query_by_label("Done").is_some() && h.query_by_label("Send later (1)").is_none()
    });
    assert_eq!(remote_orders(&remote), 1);
    click(&mut harness, "Send now");
    settle(&mut harness, |h| {
        use egui_kittest::kittest::NodeT as _;
        !h.get_by_label("Send now").accesskit_node().is_disabled()
    });
    assert_eq!(remote_orders(&remote), 1, "sent once");
}
