//! A console's core on a team server's profile (docs/team.md, "The console"): the real team
//! server in front of a real platform, over loopback; the keyring is the mock store.

use test_support::desk;
use test_support::fault_proxy;
use test_support::team_remote;

use std::path::Path;

use desk::{Answer, CallOn, WAIT, mock_store, run, start_core};
use license_desk::core::team::{self, Permission, Session};
use license_desk::core::{ApiError, Call, Core, CoreError, KeyringChoice, Secret};
use team_remote::{PASSWORD, TeamRemote};

fn sign_in(profile: &str, password: &str) -> team::SignIn {
    team::SignIn {
        profile: profile.to_owned(),
        password: Secret::new(password),
    }
}

fn numbers(core: &Core) -> Result<Answer, CoreError> {
    let call = Call::Shellnums(1);
    core.run(
        CallOn {
            profile: "branch".to_owned(),
            call,
        },
        WAIT,
    )
}

fn session(core: &Core) -> Option<Session> {
    core.state().sessions.get("branch").cloned()
}

/// Nothing the console wrote holds the password, nor the platform's app secret (which only
/// the team server has).
fn no_secret_in(dir: &Path, app_secret: &str) {
    for entry in walkdir(dir) {
        // A database's journal file may go as the core closes it: nothing is kept in it.
        let Ok(bytes) = std::fs::read(&entry) else {
            continue;
        };
        for secret in [PASSWORD, app_secret] {
            let found = bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
            assert!(!found, "{} holds a secret", entry.display());
        }
    }
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walkdir(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Signed out until the person signs in once; the session then serves this core and the next
/// (from the keyring), the role's limits come back as the missing permission, and a person
/// disabled on the server is signed out at the next call, the session gone from the keyring.
#[test]
fn a_team_profile_signs_in_once_and_calls_as_its_person() {
    let team = TeamRemote::start();
    let root = tempfile::tempdir().expect("dir");
    let store = mock_store();
    let core = start_core(
        root.path(),
        KeyringChoice::Store(std::sync::Arc::clone(&store)),
    );
    run(
        &core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: team.profile("branch", "li"),
            app_secret: None,
        },
    );
    let unsigned = numbers(&core);
    assert!(
        matches!(&unsigned, Err(CoreError::Api(ApiError::SignedOut(_)))),
        "{unsigned:?}"
    );
    assert_eq!(session(&core), Some(Session::SignedOut));
    let wrong = core.run(sign_in("branch", "not the password"), WAIT);
    assert!(
        matches!(&wrong, Err(CoreError::Api(e)) if e.sign_in_refused() && !e.session_ended()),
        "{wrong:?}"
    );

    let me = run(&core, sign_in("branch", PASSWORD));
    assert_eq!(
        (me.person.name.as_str(), me.person.role.as_str()),
        ("li", "staff")
    );
    assert_eq!(
        me.person.branch.as_ref().map(|b| b.name.as_str()),
        Some("上海")
    );
    assert!(me.may(Permission::Purchase) && !me.may(Permission::Locks));
    assert_eq!(session(&core), Some(Session::SignedIn(me.clone())));
    assert!(matches!(numbers(&core), Ok(Answer::Shellnums(n)) if n.len() == 1));
    let lock = core.run(
        CallOn {
            profile: "branch".to_owned(),
            call: Call::Lock {
                nums: vec!["8000000001".to_owned()],
                operator: None,
            },
        },
        WAIT,
    );
    match &lock {
        Err(CoreError::Api(e)) => assert_eq!(e.missing_permission(), Some(Permission::Locks)),
        other => panic!("not refused: {other:?}"),
    }
    core.shutdown();

    // The next run starts from the session in the keyring: no password asked.
    let core = start_core(
        root.path(),
        KeyringChoice::Store(std::sync::Arc::clone(&store)),
    );
    assert!(matches!(numbers(&core), Ok(Answer::Shellnums(_))));
    let again = run(
        &core,
        team::WhoAmI {
            profile: "branch".to_owned(),
        },
    );
    assert_eq!(again, me);

    team.with_store(async |store| {
        ::team::people::set_disabled(store, "li", true)
            .await
            .expect("disabled")
    });
    // The server trusts a checked session for 2 s: wait until it has looked again.
    let deadline = std::time::Instant::now() + WAIT;
    let ended = loop {
        let answer = numbers(&core);
        if answer.is_err() || std::time::Instant::now() > deadline {
            break answer;
        }
        std::thread::yield_now();
    };
    assert!(
        matches!(&ended, Err(CoreError::Api(e)) if e.session_ended()),
        "{ended:?}"
    );
    assert_eq!(session(&core), Some(Session::SignedOut));
    core.shutdown();
    let core = start_core(root.path(), KeyringChoice::Store(store));
    assert!(
        matches!(numbers(&core), Err(CoreError::Api(ApiError::SignedOut(_)))),
        "the ended session left the keyring"
    );
    core.shutdown();
    no_secret_in(root.path(), &team.remote.app_secret);
}

/// A batch whose answer is lost between the team server and the platform: the console is
/// told the outcome is unknown in its ledger's words, and nothing is sent again, neither by
/// the server nor by the console.
#[test]
fn a_batch_whose_answer_is_lost_upstream_is_an_unknown_outcome_sent_once() {
    let team = TeamRemote::start_proxied();
    let proxy = team.proxy.as_ref().expect("a proxy");
    let root = tempfile::tempdir().expect("dir");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    run(
        &core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: team.profile("branch", "wang"),
            app_secret: None,
        },
    );
    run(&core, sign_in("branch", PASSWORD));
    let batch = serde_json::from_value(serde_json::json!({
        "channelCode": "CRM", "channelOrderId": "T-LOST-1", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "CRM-C",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8000000001"], "products": [{"productUri": "gms:1"}]}]}]
    }))
    .expect("a batch");
    proxy.then(&[fault_proxy::Fault::DropAnswer]);
    let sent = core.run(
        CallOn {
            profile: "branch".to_owned(),
            call: Call::BatchOrder(batch),
        },
        WAIT,
    );
    match &sent {
        Err(CoreError::Api(ApiError::OutcomeUnknown { what, .. })) => {
            assert_eq!(what, "the platform may have applied this license order");
        }
        other => panic!("not an unknown outcome: {other:?}"),
    }
    assert_eq!(proxy.forwarded(), 1, "sent once, and once only");
    let writes = run(
        &core,
        license_desk::core::journal::requests::Writes {
            profile: Some("branch".to_owned()),
            state: None,
            limit: 0,
        },
    );
    let states: Vec<_> = writes.iter().map(|w| w.state).collect();
    assert_eq!(states, [license_desk::core::WriteState::Unknown]);
    core.shutdown();
}

/// A console on the team server, signed in as `user`, its profile named "branch".
fn console_of(team: &TeamRemote, dir: &Path, user: &str) -> Core {
    let core = start_core(dir, KeyringChoice::Store(mock_store()));
    run(
        &core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: team.profile("branch", user),
            app_secret: None,
        },
    );
    run(&core, sign_in("branch", PASSWORD));
    core
}

fn on_branch(call: Call) -> CallOn {
    CallOn {
        profile: "branch".to_owned(),
        call,
    }
}

/// A customer's page on a team profile: the timeline holds the calls of everyone the person
/// may see in the server's audit log (an administrator: all), each with its person; a call of
/// this console is one event, opening in its journal, and another console's has no entry here.
#[test]
fn a_team_profile_s_customer_page_shows_each_person_s_calls_from_the_server_s_log() {
    use license_desk::core::WriteState;
    use license_desk::core::customer::{self, Opened};
    use license_desk::core::customer::{TeamLog, What};
    let team = TeamRemote::start();
    let root = tempfile::tempdir().expect("dir");
    // li, branch staff, binds a customer and buys a lock for it from her console.
    let li = console_of(&team, &root.path().join("li"), "li");
    let bind = wire::BindRequest {
        channel_code: Some("SHOP".to_owned()),
        channel_customer_id: Some("T-1".to_owned()),
        customer_name: Some("团队客户".to_owned()),
        enterprise_name: Some("团队客户企业".to_owned()),
        ..Default::default()
    };
    let Answer::Customer(bound) = run(&li, on_branch(Call::Bind(bind))) else {
        panic!("not bound");
    };
    let enterprise = bound.enterprise_global_id;
    let batch = serde_json::from_value(serde_json::json!({
        "channelCode": "SHOP", "channelOrderId": "TEAM-PAGE", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "T-1",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8500000001"], "products": [{"productUri": "gms:1"}]}]}]
    }))
    .expect("a batch");
    run(&li, on_branch(Call::BatchOrder(batch)));

    // wang, an administrator, disables the lock from his console and opens the page.
    let wang = console_of(&team, &root.path().join("wang"), "wang");
    run(
        &wang,
        on_branch(Call::Lock {
            nums: vec!["8500000001".to_owned()],
            operator: None,
        }),
    );
    let read = customer::ReadPage {
        profile: "branch".to_owned(),
        id: enterprise.clone(),
    };
    let Opened::Page(page) = run(&wang, read) else {
        panic!("no page");
    };
    assert!(
        matches!(page.team_log, Some(TeamLog::Read { entries }) if entries >= 3),
        "{:?}",
        page.team_log
    );
    let seen: Vec<(&str, Option<&str>, bool, Option<WriteState>)> = page
        .timeline
        .iter()
        .map(|e| {
            let ours = e.entry_id.is_some();
            (e.operation.as_str(), e.person.as_deref(), ours, e.state)
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("lock", Some("wang"), true, Some(WriteState::Done)),
            ("batch_order", Some("li"), false, Some(WriteState::Done)),
            ("bind", Some("li"), false, Some(WriteState::Done)),
        ]
    );
    assert!(
        matches!(&page.timeline[1].what, What::Batch { channel_order_id, .. }
        if channel_order_id == "TEAM-PAGE")
    );
}

/// A team profile's batch kept to send later while the platform behind the team server is
/// down: the server says nothing was sent, so it waits (not refused) and is sent once when the
/// platform is back (issue 53).
#[test]
fn a_team_profile_s_queued_batch_waits_while_the_platform_is_down_and_is_sent_once() {
    use license_desk::core::queue;
    use license_desk::core::queue::QueueState;
    let team = TeamRemote::start_proxied();
    let proxy = team.proxy.as_ref().expect("a proxy");
    let root = tempfile::tempdir().expect("dir");
    let core = console_of(&team, root.path(), "wang");
    let batch: wire::BatchOrderRequest = serde_json::from_value(serde_json::json!({
        "channelCode": "CRM", "channelOrderId": "T-LATER-1", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "CRM-L",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8000000001"], "products": [{"productUri": "gms:1"}]}]}]
    }))
    .expect("a batch");
    proxy.go_away();
    let sent = core.run(on_branch(Call::BatchOrder(batch.clone())), WAIT);
    match &sent {
        Err(CoreError::Api(e @ ApiError::NotSent(_))) => assert!(
            e.to_string()
                .starts_with("not sent: the team server says: "),
            "{e}"
        ),
        other => panic!("not a call that was not sent: {other:?}"),
    }
    let add = queue::Add {
        profile: "branch".to_owned(),
        call: Call::BatchOrder(batch),
    };
    let queued = run(&core, add);
    assert_eq!(queued.len(), 1);
    let states = |core: &Core| -> Vec<QueueState> {
        let entries = run(core, queue::SendWaiting);
        entries.iter().map(|e| e.state).collect()
    };
    assert_eq!(
        states(&core),
        [QueueState::Waiting],
        "waits while the platform is down"
    );
    assert_eq!(proxy.forwarded(), 0);

    proxy.come_back();
    assert_eq!(states(&core), [QueueState::Done], "sent when it is back");
    assert_eq!(states(&core), [QueueState::Done], "and once");
    assert_eq!(proxy.forwarded(), 1, "the platform got it once");
    core.shutdown();
}

/// A clerk's delete kept to send later and then held by the team server: the queue is done
/// with it (handed over for approval, the request named), the entry after it is sent, and
/// nothing is sent again on the next round (issue 55).
#[test]
fn a_queued_delete_held_for_approval_is_handed_over_and_the_queue_goes_on() {
    use license_desk::core::queue;
    use license_desk::core::queue::QueueState;
    let team = TeamRemote::start();
    let root = tempfile::tempdir().expect("dir");
    let core = console_of(&team, root.path(), "li");
    let batch = |kind: &str, id: &str| -> wire::BatchOrderRequest {
        let products = match kind {
            "new_buy" => serde_json::json!([{"productUri": "gms:1"}]),
            _ => serde_json::json!([]),
        };
        serde_json::from_value(serde_json::json!({
            "channelCode": "CRM", "channelOrderId": id, "syncMode": "sync",
            "orderList": [{"sequence": 1, "channelCustomerId": "CRM-Q",
                "licenseType": "normal_recover_usbkey", "orderType": kind,
                "assets": [{"assetNos": ["8000000009"], "products": products}]}]
        }))
        .expect("a batch")
    };
    let bind = wire::BindRequest {
        channel_code: Some("CRM".to_owned()),
        channel_customer_id: Some("CRM-Q".to_owned()),
        customer_name: Some("排队客户".to_owned()),
        enterprise_name: Some("排队企业".to_owned()),
        ..Default::default()
    };
    run(&core, on_branch(Call::Bind(bind)));
    run(&core, on_branch(Call::BatchOrder(batch("new_buy", "Q-1"))));
    for call in [batch("delete_asset", "Q-2"), batch("new_buy", "Q-3")] {
        let add = queue::Add {
            profile: "branch".to_owned(),
            call: Call::BatchOrder(call),
        };
        run(&core, add);
    }
    let entries = run(&core, queue::SendWaiting);
    let states: Vec<QueueState> = entries.iter().map(|e| e.state).collect();
    assert_eq!(states, [QueueState::Held, QueueState::Done]);
    let held = entries.iter().find(|e| e.state == QueueState::Held);
    let detail = held.and_then(|e| e.detail.as_deref()).unwrap_or_default();
    assert!(detail.starts_with("held for approval as R-1"), "{detail}");
    let again = run(&core, queue::SendWaiting);
    let states: Vec<QueueState> = again.iter().map(|e| e.state).collect();
    assert_eq!(
        states,
        [QueueState::Held, QueueState::Done],
        "nothing sent again"
    );
    core.shutdown();
}
