//! Four eyes over loopback, with a real embedded platform upstream: a delete, a large batch
//! and a large lock change are kept as requests (HTTP 202) and nothing reaches the platform;
//! an approver sees the delete's preview and approves or rejects; an approved request is sent
//! once and its outcome kept for the requester. On SQLite and PostgreSQL; with two instances
//! on one PostgreSQL database, one decision and one sending.

use test_support::team_rig;

use serde_json::{Value, json};
use team_rig::{Reply, Rig};
use test_support::fault_proxy::Fault;
use wire::paths;

fn batch(kind: &str, channel_order_id: &str) -> Value {
    let mut batch = json!({
        "channelCode": "CRM",
        "channelOrderId": channel_order_id,
        "syncMode": "sync",
        "orderList": [{
            "sequence": 1,
            "channelCustomerId": "C-1",
            "customerName": "上海测试客户",
            "licenseType": "normal_recover_usbkey",
            "orderType": kind,
            "assets": [{"assetNos": ["8000000001"], "products": [{"productUri": "gms:1"}]}]
        }]
    });
    if kind == "delete_asset" {
        // Whole assets: no products named.
        batch["orderList"][0]["assets"][0]["products"] = json!([]);
    }
    batch
}

/// An asset bought by the administrator, then its delete filed by the clerk: the request's
/// number.
async fn filed_delete(rig: &Rig, base: &str, staff: &str, admin: &str) -> Reply {
    let customer = json!({"channelCode": "CRM", "channelCustomerId": "C-1", "customerName": "上海测试客户", "enterpriseName": "上海测试公司", "passwordMobile": "13800000000"});
    let bound = rig
        .send_to(base, "POST", paths::BIND, Some(admin), Some(customer))
        .await;
    assert_eq!(bound.body["code"], 0, "{bound:?}");
    let bought = rig
        .send_to(
            base,
            "POST",
            paths::BATCH_ORDER,
            Some(admin),
            Some(batch("new_buy", "buy-1")),
        )
        .await;
    assert_eq!(bought.body["code"], 0, "{bought:?}");
    rig.send_to(
        base,
        "POST",
        paths::BATCH_ORDER,
        Some(staff),
        Some(batch("delete_asset", "del-1")),
    )
    .await
}

fn assert_held(reply: &Reply, id: &str) {
    assert_eq!(reply.status, 202, "{reply:?}");
    assert_eq!(reply.body["code"], "202", "{reply:?}");
    assert_eq!(reply.body["cause"], format!("request:{id}"), "{reply:?}");
    assert_eq!(reply.body["data"]["requestId"], id, "{reply:?}");
    let message = reply.body["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!("held for approval as {id}")),
        "{message}"
    );
}

async fn listed_assets(rig: &Rig, token: &str, enterprise: &str) -> String {
    let path = format!("/order/api/order/v1/asset/{enterprise}/list");
    let reply = rig.send("GET", &path, Some(token), None).await;
    assert_eq!(reply.body["code"], 0, "{reply:?}");
    reply.body["data"].to_string()
}

#[tokio::test]
async fn a_delete_waits_for_a_second_person_and_is_sent_once() {
    let database = test_support::pg_cluster::database().await;
    for database in [None, database.as_deref()] {
        let rig = Rig::start(database).await;
        let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
        let held = filed_delete(&rig, &rig.base, &staff, &admin).await;
        assert_held(&held, "R-1");
        assert_eq!(
            rig.settled_writes().await.len(),
            2,
            "only the binding and the purchase reached the platform"
        );

        // The clerk sees their own request; the approver sees what it removes.
        let mine = rig
            .send("GET", "/team/v1/requests?mine", Some(&staff), None)
            .await;
        assert_eq!(mine.body["data"][0]["state"], "pending", "{mine:?}");
        assert_eq!(mine.body["data"][0]["requester"], "staff", "{mine:?}");
        let shown = rig
            .send("GET", "/team/v1/requests/R-1", Some(&admin), None)
            .await;
        let r = &shown.body["data"];
        assert_eq!(r["summary"], "delete_asset ×1; 1 asset number", "{shown:?}");
        let order = &r["preview"]["orders"][0];
        assert_eq!(order["assetsRemoved"], json!(["8000000001"]), "{shown:?}");
        let enterprise = order["enterpriseGlobalId"].as_str().expect("placed");
        assert!(
            listed_assets(&rig, &admin, enterprise)
                .await
                .contains("8000000001")
        );

        // A clerk cannot approve; a stale hash is refused; the right one sends it.
        let hash = r["bodyHash"].as_str().expect("hash").to_owned();
        let approve = |h: &str| json!({ "bodyHash": h });
        let path = "/team/v1/requests/R-1/approve";
        let clerk = rig
            .send("POST", path, Some(&staff), Some(approve(&hash)))
            .await;
        assert_eq!(
            (clerk.status, clerk.body["cause"].clone()),
            (403, json!("permission:approve")),
            "{clerk:?}"
        );
        let stale = rig
            .send("POST", path, Some(&admin), Some(approve(&"0".repeat(64))))
            .await;
        assert_eq!(
            (stale.status, stale.body["cause"].clone()),
            (409, json!("request_changed")),
            "{stale:?}"
        );
        let sent = rig
            .send("POST", path, Some(&admin), Some(approve(&hash)))
            .await;
        assert_eq!(sent.status, 200, "{sent:?}");
        let r = &sent.body["data"];
        assert_eq!(
            (r["state"].clone(), r["decidedBy"].clone()),
            (json!("done"), json!("admin")),
            "{sent:?}"
        );
        assert!(
            r["answer"].is_array(),
            "the platform's answer is kept: {sent:?}"
        );
        assert!(
            !listed_assets(&rig, &admin, enterprise)
                .await
                .contains("8000000001")
        );

        // Approved twice: the second is told, and nothing is sent again.
        let again = rig
            .send("POST", path, Some(&admin), Some(approve(&hash)))
            .await;
        assert_eq!(again.status, 409, "{again:?}");
        assert_eq!(
            again.body["message"], "R-1 is done already (decided by \"admin\")",
            "{again:?}"
        );
        let writes = rig.settled_writes().await;
        let states: Vec<(&str, &str)> = writes
            .iter()
            .map(|(person, _, state)| (person.as_str(), state.as_str()))
            .collect();
        assert_eq!(
            states,
            [("admin", "done"), ("admin", "done"), ("staff", "done")],
            "{database:?}"
        );

        // The requester reads the outcome.
        let own = rig
            .send("GET", "/team/v1/requests/1", Some(&staff), None)
            .await;
        assert_eq!(own.body["data"]["state"], "done", "{own:?}");
    }
}

#[tokio::test]
async fn one_s_own_request_is_decided_by_another_and_a_rejection_says_why() {
    let rig = Rig::start(None).await;
    let (approver, admin) = (rig.sign_in("approver").await, rig.sign_in("admin").await);
    let held = filed_delete(&rig, &rig.base, &approver, &admin).await;
    assert_held(&held, "R-1");
    let own = rig.approve_shown(&approver, "R-1").await;
    assert_eq!(
        (own.status, own.body["cause"].clone()),
        (403, json!("own_request"))
    );
    assert_eq!(
        own.body["message"],
        "R-1 is your own request: another person decides it"
    );
    let bare = rig
        .send(
            "POST",
            "/team/v1/requests/R-1/reject",
            Some(&admin),
            Some(json!({ "reason": " " })),
        )
        .await;
    assert_eq!(
        (bare.status, bare.body["code"].clone()),
        (299, json!("13004"))
    );
    let rejected = rig
        .send(
            "POST",
            "/team/v1/requests/R-1/reject",
            Some(&admin),
            Some(json!({ "reason": "wrong customer" })),
        )
        .await;
    let r = &rejected.body["data"];
    assert_eq!(
        (r["state"].clone(), r["reason"].clone()),
        (json!("rejected"), json!("wrong customer")),
        "{rejected:?}"
    );
    assert_eq!(rig.settled_writes().await.len(), 2, "the delete never left");
    let audit = rig
        .send("GET", "/team/v1/audit?person=admin", Some(&admin), None)
        .await;
    let last = &audit.body["data"][0];
    assert_eq!(
        (last["operation"].clone(), last["message"].clone()),
        (json!("reject"), json!("wrong customer")),
        "{audit:?}"
    );
}

#[tokio::test]
async fn large_batches_and_lock_changes_wait_and_small_ones_do_not() {
    let rig = Rig::start(None).await;
    let store = rig.team_store().await;
    team::settings::set_thresholds(&store, Some(1), Some(1))
        .await
        .expect("thresholds");
    let staff = rig.sign_in("staff").await;
    let admin = rig.sign_in("admin").await;
    let small = rig
        .send(
            "POST",
            paths::BATCH_ORDER,
            Some(&staff),
            Some(batch("new_buy", "s-1")),
        )
        .await;
    assert_eq!(small.body["code"], 0, "one asset is not above 1: {small:?}");
    let mut large = batch("new_buy", "l-1");
    large["orderList"][0]["assets"][0]["assetNos"] = json!(["8000000002", "8000000003"]);
    let held = rig
        .send("POST", paths::BATCH_ORDER, Some(&staff), Some(large))
        .await;
    assert_held(&held, "R-1");
    let locks = json!({"assetNums": ["8000000001", "8000000002"]});
    let held = rig
        .send("POST", paths::LOCK, Some(&admin), Some(locks))
        .await;
    assert_held(&held, "R-2");
    let r = rig
        .send("GET", "/team/v1/requests/R-2", Some(&admin), None)
        .await;
    assert_eq!(r.body["data"]["summary"], "lock 2 assets", "{r:?}");
    assert_eq!(r.body["data"]["body"]["operatorIdentity"], "admin", "{r:?}");
    let pending = rig
        .send("GET", "/team/v1/requests?state=pending", Some(&admin), None)
        .await;
    assert_eq!(pending.body["data"].as_array().map(Vec::len), Some(2));
    let bad = rig
        .send("GET", "/team/v1/requests?state=waiting", Some(&admin), None)
        .await;
    assert!(
        bad.body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("state: \"waiting\" is none of")),
        "{bad:?}"
    );
}

/// The platform down when an approval is sent: provably not sent, and it may be approved
/// again. An answer lost on the way back: outcome unknown, and never sent again.
#[tokio::test]
async fn an_approval_the_platform_does_not_answer_is_told_truthfully() {
    let (rig, proxy) = Rig::start_proxied(None).await;
    let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
    assert_held(&filed_delete(&rig, &rig.base, &staff, &admin).await, "R-1");
    let shown = rig
        .send("GET", "/team/v1/requests/R-1", Some(&admin), None)
        .await;
    let approve = json!({ "bodyHash": shown.body["data"]["bodyHash"] });
    let path = "/team/v1/requests/R-1/approve";

    let before = proxy.forwarded();
    proxy.then(&[Fault::DropAnswer]);
    let lost = rig
        .send("POST", path, Some(&admin), Some(approve.clone()))
        .await;
    let r = &lost.body["data"];
    assert_eq!(r["state"], "unknown", "{lost:?}");
    assert!(
        r["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("sent, outcome unknown")),
        "{lost:?}"
    );
    assert_eq!(proxy.forwarded(), before + 1, "sent once");
    let again = rig.send("POST", path, Some(&admin), Some(approve)).await;
    assert_eq!(
        again.status, 409,
        "an unknown outcome is not sent again: {again:?}"
    );
    assert_eq!(proxy.forwarded(), before + 1);
    team_rig::drop_proxy(proxy).await;
}

#[tokio::test]
async fn a_request_whose_platform_is_down_is_not_sent_and_may_be_approved_again() {
    let mut rig = Rig::start(None).await;
    let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
    assert_held(&filed_delete(&rig, &rig.base, &staff, &admin).await, "R-1");
    let shown = rig
        .send("GET", "/team/v1/requests/R-1", Some(&admin), None)
        .await;
    let approve = json!({ "bodyHash": shown.body["data"]["bodyHash"] });
    rig.stop_platform().await;
    let path = "/team/v1/requests/R-1/approve";
    let down = rig
        .send("POST", path, Some(&admin), Some(approve.clone()))
        .await;
    let r = &down.body["data"];
    assert_eq!(r["state"], "not_sent", "{down:?}");
    assert!(
        r["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("not sent: the platform could not be reached")),
        "{down:?}"
    );
    let again = rig.send("POST", path, Some(&admin), Some(approve)).await;
    assert_eq!(
        again.body["data"]["state"], "not_sent",
        "approved again: {again:?}"
    );
}

/// Two approvers at two instances of one server on one PostgreSQL database, at once: one
/// decision wins, the other is told, and the platform receives the delete once.
#[tokio::test]
async fn two_instances_deciding_at_once_send_once() {
    let Some(database) = test_support::pg_cluster::database().await else {
        return;
    };
    let mut rig = Rig::start(Some(&database)).await;
    let second = rig.second_instance().await;
    let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
    let approver = rig.sign_in("approver").await;
    assert_held(&filed_delete(&rig, &second, &staff, &admin).await, "R-1");
    let shown = rig
        .send("GET", "/team/v1/requests/R-1", Some(&admin), None)
        .await;
    let approve = json!({ "bodyHash": shown.body["data"]["bodyHash"] });
    let path = "/team/v1/requests/R-1/approve";
    let (a, b) = tokio::join!(
        rig.send_to(&rig.base, "POST", path, Some(&admin), Some(approve.clone())),
        rig.send_to(
            &second,
            "POST",
            path,
            Some(&approver),
            Some(approve.clone())
        ),
    );
    let mut statuses = [a.status, b.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{a:?} {b:?}");
    let writes = rig.settled_writes().await;
    let deletes = writes.iter().filter(|(p, _, _)| p == "staff").count();
    assert_eq!(deletes, 1, "sent once: {writes:?}");
}

/// An approver bound to a branch approves that branch's requests only, and a requester whose
/// role lost what filing needed has nothing sent in their name (issue 52).
#[tokio::test]
async fn an_approver_decides_their_branch_s_requests_for_requesters_who_still_may() {
    let rig = Rig::start(None).await;
    let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
    let approver = rig.sign_in("approver").await;
    let nums: Vec<String> = (0..60)
        .map(|i| format!("{}", 8_000_000_001_u64 + i))
        .collect();
    let locks = json!({"assetNums": nums, "operatorIdentity": "wang"});
    let held = rig
        .send("POST", paths::LOCK, Some(&admin), Some(locks))
        .await;
    assert_held(&held, "R-1");
    // The head office's request is not shown to SH01's approver; approved blind, it is refused.
    let shown = rig
        .send("GET", "/team/v1/requests/R-1", Some(&admin), None)
        .await;
    let approve = json!({"bodyHash": shown.body["data"]["bodyHash"]});
    let path = "/team/v1/requests/R-1/approve";
    let other = rig.send("POST", path, Some(&approver), Some(approve)).await;
    assert_eq!(
        (other.status, other.body["cause"].clone()),
        (403, json!("other_branch")),
        "{other:?}"
    );
    assert_eq!(
        other.body["message"],
        "R-1 is branch (head office)'s request; you approve your own branch's only"
    );

    let held = rig
        .send(
            "POST",
            paths::BATCH_ORDER,
            Some(&staff),
            Some(batch("delete_asset", "del-2")),
        )
        .await;
    assert_held(&held, "R-2");
    let store = rig.team_store().await;
    let demoted = team::people::Edit {
        role: Some("viewer".to_owned()),
        ..team::people::Edit::default()
    };
    team::people::edit(&store, "staff", demoted)
        .await
        .expect("demoted");
    let lacks = rig.approve_shown(&approver, "R-2").await;
    assert_eq!(
        (lacks.status, lacks.body["cause"].clone()),
        (409, json!("requester_lacks")),
        "{lacks:?}"
    );
    assert_eq!(rig.settled_writes().await, [], "nothing was sent");
}

#[tokio::test]
async fn a_request_one_may_not_read_is_one_that_does_not_exist_and_listings_page() {
    let rig = Rig::start(None).await;
    let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
    let approver = rig.sign_in("approver").await;
    let (beijing, beijing_admin) = (rig.sign_in("bj-staff").await, rig.sign_in("bj-admin").await);
    assert_held(&filed_delete(&rig, &rig.base, &staff, &admin).await, "R-1");
    let del = Some(batch("delete_asset", "del-2"));
    assert_held(
        &rig.send("POST", paths::BATCH_ORDER, Some(&staff), del)
            .await,
        "R-2",
    );

    let said = |reply: &Reply| (reply.status, reply.body["message"].clone());
    let read = |token: String, id: &'static str| {
        let rig = &rig;
        async move {
            let path = format!("/team/v1/requests/{id}");
            rig.send("GET", &path, Some(&token), None).await
        }
    };
    let missing = read(beijing.clone(), "R-99").await;
    assert_eq!(said(&missing), (404, json!("there is no request R-99")));
    for token in [&beijing, &beijing_admin] {
        let other = read(token.clone(), "R-1").await;
        assert_eq!(said(&other), (404, json!("there is no request R-1")));
    }
    for token in [&staff, &approver, &admin] {
        assert_eq!(read(token.clone(), "R-1").await.status, 200);
    }

    let listed = |token: String, query: &'static str| {
        let rig = &rig;
        async move {
            let path = format!("/team/v1/requests?{query}");
            let reply = rig.send("GET", &path, Some(&token), None).await;
            let ids = reply.body["data"].as_array().cloned().unwrap_or_default();
            ids.iter()
                .map(|r| r["id"].as_i64().unwrap_or(0))
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(listed(beijing_admin.clone(), "").await, Vec::<i64>::new());
    assert_eq!(listed(approver.clone(), "").await, [2, 1]);
    assert_eq!(listed(admin.clone(), "limit=1").await, [2]);
    assert_eq!(listed(admin.clone(), "limit=1&before=R-2").await, [1]);
    assert_eq!(listed(admin.clone(), "before=1").await, Vec::<i64>::new());

    // A held body's passwords are kept for the platform, and shown to no one.
    let mut with_mobile = batch("delete_asset", "del-3");
    with_mobile["orderList"][0]["passwordMobile"] = json!("13800000000");
    let held = rig
        .send("POST", paths::BATCH_ORDER, Some(&staff), Some(with_mobile))
        .await;
    assert_held(&held, "R-3");
    let shown = read(approver.clone(), "R-3").await;
    assert_eq!(
        shown.body["data"]["body"]["orderList"][0]["passwordMobile"],
        "***"
    );
    let kept = team::requests::stored_body(&rig.team_store().await, 3)
        .await
        .expect("kept");
    assert!(kept.0.contains("13800000000"), "{}", kept.0);
    assert_eq!(shown.body["data"]["bodyHash"], kept.1);
}

/// An instance paused while it fetches the token for an approved request (as SIGSTOP would
/// hold it) is taken for stopped: the request is settled, approved again on another instance
/// and sent there. When the paused one goes on, its claim is taken and it sends nothing: the
/// platform gets the delete once.
#[tokio::test]
async fn an_instance_paused_mid_sending_sends_nothing_once_its_claim_was_taken() {
    let Some(database) = test_support::pg_cluster::database().await else {
        return;
    };
    let (mut rig, proxy) = Rig::start_proxied(Some(&database)).await;
    let second = rig.second_instance().await;
    let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
    let approver = rig.sign_in("approver").await;
    // Everything before goes through the second instance: the first has no token yet.
    assert_held(&filed_delete(&rig, &second, &staff, &admin).await, "R-1");
    let shown = rig
        .send_to(&second, "GET", "/team/v1/requests/R-1", Some(&admin), None)
        .await;
    let approve = json!({ "bodyHash": shown.body["data"]["bodyHash"] });
    let path = "/team/v1/requests/R-1/approve";

    proxy.then_token(&[Fault::Hold]);
    let paused = {
        let (base, approve) = (rig.base.clone(), approve.clone());
        let (http, token) = (reqwest::Client::new(), approver.clone());
        tokio::spawn(async move {
            let url = format!("{base}{path}?g_nonce=paused-approval-1");
            let sent = http
                .post(url)
                .bearer_auth(token)
                .json(&approve)
                .send()
                .await;
            sent.map(|r| r.status().as_u16())
        })
    };
    while proxy.holding() == 0 {
        tokio::task::yield_now().await;
    }
    // The first instance stops beating (as a paused process does); another settles its work.
    let store = rig.team_store().await;
    store
        .write(|tx| {
            tx.execute(
                "UPDATE team_instances SET seen_at = 0 WHERE id IN \
                     (SELECT instance FROM team_writes WHERE state = 'in_flight')",
                &[],
            )
        })
        .await
        .expect("aged");
    team::instances::beat(&store, "observer", None)
        .await
        .expect("beat");
    let settled = team::requests::get(&store, 1).await.expect("R-1");
    assert_eq!(settled.state, team::requests::State::NotSent);
    let again = rig
        .send_to(&second, "POST", path, Some(&approver), Some(approve))
        .await;
    assert_eq!(again.body["data"]["state"], "done", "{again:?}");
    let forwarded = proxy.forwarded();

    proxy.release();
    let status = paused.await.expect("the paused approval ends");
    assert!(status.is_ok(), "{status:?}");
    assert_eq!(
        proxy.forwarded(),
        forwarded,
        "the paused instance sent nothing"
    );
    let writes = rig.settled_writes().await;
    let deletes: Vec<&str> = writes
        .iter()
        .filter(|(p, _, _)| p == "staff")
        .map(|(_, _, state)| state.as_str())
        .collect();
    assert_eq!(deletes, ["not_sent", "done"], "{writes:?}");
    team_rig::drop_proxy(proxy).await;
}

/// A console waiting on `/team/v1/events` hears a request filed at once (issue 55): the long
/// poll answers with another cursor before its wait is out; with nothing new it answers the
/// same cursor once the wait is out.
#[tokio::test]
async fn a_console_waiting_for_events_hears_a_request_filed() {
    let rig = Rig::start(None).await;
    let admin = rig.sign_in("admin").await;
    let staff = rig.sign_in("staff").await;
    let now = rig
        .send("GET", "/team/v1/events?wait=0", Some(&admin), None)
        .await;
    let cursor = now.body["data"]["cursor"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(!cursor.is_empty(), "{now:?}");
    let quiet = format!("/team/v1/events?after={cursor}&wait=0");
    let same = rig.send("GET", &quiet, Some(&admin), None).await;
    assert_eq!(same.body["data"]["cursor"], cursor.as_str(), "{same:?}");

    let waiting = format!("/team/v1/events?after={cursor}&wait=25");
    let started = std::time::Instant::now();
    let (heard, filed) = tokio::join!(
        rig.send("GET", &waiting, Some(&admin), None),
        filed_delete(&rig, &rig.base, &staff, &admin)
    );
    assert_held(&filed, "R-1");
    assert_ne!(heard.body["data"]["cursor"], cursor.as_str(), "{heard:?}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "heard before the wait was out"
    );
    let signed_out = rig.send("GET", "/team/v1/events", None, None).await;
    assert_eq!(signed_out.status, 401, "{signed_out:?}");
}

/// `team serve --mail-server` (issue 55): a request filed is mailed once to each approver of
/// it who has an address (the requester's branch's and the head office's, not another
/// branch's), over STARTTLS to a real SMTP server on loopback; the same batch sent again
/// mails nobody.
#[tokio::test]
async fn approvers_are_mailed_once_when_a_request_waits() {
    let smtp = test_support::smtp::start();
    let (port, ca) = (smtp.port, smtp.ca.clone());
    let rig = Rig::start_adjusted(|config| {
        config.mail = Some(team::mail::MailConfig {
            server: "127.0.0.1".to_owned(),
            port,
            from: "License Desk <desk@team.example>".to_owned(),
            user: None,
            password: None,
            ca_file: Some(ca),
        });
    })
    .await;
    let store = rig.team_store().await;
    for (name, email) in [
        ("admin", "admin@team.example"),
        ("approver", "approver@sh.example"),
        ("bj-admin", "admin@bj.example"),
    ] {
        let edit = team::people::Edit {
            email: Some(Some(email.to_owned())),
            ..Default::default()
        };
        team::people::edit(&store, name, edit).await.expect("email");
    }
    let (staff, admin) = (rig.sign_in("staff").await, rig.sign_in("admin").await);
    assert_held(&filed_delete(&rig, &rig.base, &staff, &admin).await, "R-1");
    let again = rig
        .send(
            "POST",
            paths::BATCH_ORDER,
            Some(&staff),
            Some(batch("delete_asset", "del-1")),
        )
        .await;
    assert_held(&again, "R-1");
    let other = rig
        .send(
            "POST",
            paths::BATCH_ORDER,
            Some(&staff),
            Some(batch("delete_asset", "del-2")),
        )
        .await;
    assert_held(&other, "R-2");

    let mails = smtp.wait_for(4).await;
    let mut told: Vec<(String, String)> = mails.iter().map(|m| addressee_and_body(m)).collect();
    told.sort();
    let to: Vec<&str> = told.iter().map(|(to, _)| to.as_str()).collect();
    assert_eq!(
        to,
        [
            "admin <admin@team.example>",
            "admin <admin@team.example>",
            "approver <approver@sh.example>",
            "approver <approver@sh.example>"
        ],
        "{mails:?}"
    );
    let body = &told[0].1;
    assert!(
        body.starts_with("R-1 等待您审批。\nR-1 waits for your approval."),
        "{body}"
    );
    assert!(
        body.contains("申请人 / Requested by: staff (staff) · SH01 上海"),
        "{body}"
    );
    assert!(
        body.contains("内容 / What: delete_asset ×1; 1 asset number"),
        "{body}"
    );
    assert!(body.contains("渠道订单 / Channel order: del-1"), "{body}");
    assert!(
        told[1].1.contains("渠道订单 / Channel order: del-2"),
        "{told:?}"
    );
    assert_eq!(
        smtp.received().len(),
        4,
        "the same batch again mailed nobody"
    );
}

/// A mail's `To:` and its body, decoded (base64, lines ending as in Rust).
fn addressee_and_body(mail: &str) -> (String, String) {
    use base64::Engine;
    let (head, body) = mail.split_once("\n\n").expect("headers, then the body");
    let to = head
        .lines()
        .find_map(|l| l.strip_prefix("To: "))
        .expect("To:")
        .to_owned();
    let text: String = body.lines().collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .expect("base64");
    let text = String::from_utf8(bytes).expect("UTF-8");
    (to, text.replace("\r\n", "\n"))
}
