//! The Approvals screen on a team server's profile, driven like a user would (egui_kittest):
//! a clerk's deletes are held by the real team server; the administrator sees one's preview,
//! approves it with one click and rejects the other with a reason; the clerk then reads what
//! became of both. The keyring is the mock store.

use test_support::desk;
use test_support::team_remote;
use test_support::window;

use desk::CallOn;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use license_desk::core::team::{self, Decision};
use license_desk::core::{ApiError, Call, CoreError, Secret};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Screen};
use serde_json::json;
use team_remote::{PASSWORD, TeamRemote};
use window::{app, click, settle, shown_labels, type_into};

fn on(profile: &str, call: Call) -> CallOn {
    CallOn {
        profile: profile.to_owned(),
        call,
    }
}

fn batch(kind: &str, id: &str) -> Call {
    let products = match kind {
        "new_buy" => json!([{"productUri": "gms:1"}]),
        _ => json!([]),
    };
    let batch = json!({
        "channelCode": "CRM", "channelOrderId": id, "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "CRM-C",
            "licenseType": "normal_recover_usbkey", "orderType": kind,
            "assets": [{"assetNos": ["8000000001"], "products": products}]}]
    });
    Call::BatchOrder(serde_json::from_value(batch).expect("a batch"))
}

/// Profiles `branch` (li, staff) and `boss` (wang, admin), both signed in.
fn both_signed_in(harness: &Harness<'static, DeskApp>, team: &TeamRemote) {
    let core = harness.state().core();
    for (name, user) in [("branch", "li"), ("boss", "wang")] {
        let profile = team.profile(name, user);
        desk::run(
            core,
            license_desk::core::profiles::requests::Save {
                previous: None,
                profile,
                app_secret: None,
            },
        );
        let sign_in = team::SignIn {
            profile: name.to_owned(),
            password: Secret::new(PASSWORD),
        };
        desk::run(core, sign_in);
    }
}

/// wang binds a customer and buys it an asset (8000000001); the enterprise's global id.
fn customer_with_asset(core: &license_desk::core::Core) -> String {
    let customer = json!({"channelCode": "CRM", "channelCustomerId": "CRM-C",
        "customerName": "上海测试客户", "enterpriseName": "上海测试公司",
        "passwordMobile": "13800000000"});
    let bind = Call::Bind(serde_json::from_value(customer).expect("a customer"));
    let desk::Answer::Customer(bound) = desk::run(core, on("boss", bind)) else {
        panic!("not bound");
    };
    desk::run(core, on("boss", batch("new_buy", "B-1")));
    bound.enterprise_global_id
}

/// wang approves request `id` as he reads it.
fn wang_approves(core: &license_desk::core::Core, id: i64) {
    let read = team::ReadRequest {
        profile: "boss".to_owned(),
        id,
    };
    let r = desk::run(core, read);
    let approve = team::Decide {
        profile: "boss".to_owned(),
        id,
        decision: Decision::Approve {
            body_hash: r.body_hash,
        },
    };
    desk::run(core, approve);
}

/// Profiles `branch` (li, staff) and `boss` (wang, admin), both signed in; a customer with an
/// asset bought by wang; two deletes of it filed by li, held as. Wang's profile
/// is the active one.
fn two_held_deletes(harness: &Harness<'static, DeskApp>, team: &TeamRemote) {
    both_signed_in(harness, team);
    let core = harness.state().core();
    customer_with_asset(core);
    for (id, request) in [("D-1", "R-1"), ("D-2", "R-2")] {
        match core.run(on("branch", batch("delete_asset", id)), desk::WAIT) {
            Err(CoreError::Api(ApiError::Held { request_id, .. })) => {
                assert_eq!(request_id, request);
            }
            other => panic!("held, not {other:?}"),
        }
    }
    let boss = license_desk::core::profiles::requests::Activate {
        name: "boss".to_owned(),
    };
    desk::run(core, boss);
}

#[test]
fn an_approver_approves_one_delete_and_rejects_another_and_the_clerk_reads_both() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    two_held_deletes(&harness, &team);
    harness.state_mut().prefs.screen = Screen::Approvals;
    settle(&mut harness, |h| {
        h.query_all_by_label("R-1").next().is_some()
    });
    assert_eq!(
        harness.query_all_by_label("Waiting for approval").count(),
        2
    );
    // Rows an approver can tell apart: the batch's channel order id, and its customer by the
    // team directory's names.
    harness.get_by_label("Delete assets ×1 · 1 asset number · D-1");
    harness.get_by_label("Delete assets ×1 · 1 asset number · D-2");
    settle(&mut harness, |h| {
        h.query_all_by_label("上海测试客户 · 上海测试公司").count() == 2
    });

    click(&mut harness, "R-1");
    harness.get_by_label("What it removes");
    harness.get_by_label("R-1 · Delete assets ×1 · 1 asset number");
    assert!(
        harness.query_all_by_label_contains("8000000001").count() > 0,
        "the asset it removes"
    );
    click_when_enabled(&mut harness, "Approve");
    settle(&mut harness, |h| {
        h.query_all_by_label("Approved and done").next().is_some()
    });
    harness.get_by_label("Decided by wang");

    // R-2 deletes the same asset, gone now: its preview, read again, says what changed.
    click(&mut harness, "R-2");
    let changed = "What the platform holds changed since this request was filed: below is \
                   what it removes now.";
    settle(&mut harness, |h| h.query_by_label(changed).is_some());
    let reject = harness.get_by_label("Reject");
    assert!(
        reject.accesskit_node().is_disabled(),
        "no reason, no rejection"
    );
    type_into(&mut harness, "Reason", "wrong customer");
    click(&mut harness, "Reject");
    settle(&mut harness, |h| {
        h.query_all_by_label("Rejected").next().is_some()
    });

    // The clerk: their own requests, and what became of them.
    let branch = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(harness.state().core(), branch);
    // A requester sees what became of their requests, not only what waits.
    settle(&mut harness, |h| {
        h.query_all_by_label("R-2").next().is_some()
    });

    click(&mut harness, "R-2");
    harness.get_by_label("Reason: wrong customer");
    assert!(harness.query_by_label("Approve").is_none());
    assert!(
        harness
            .query_all_by_label("Approved and done")
            .next()
            .is_some()
    );
}

#[test]
fn approvals_read_in_chinese_and_one_s_own_request_is_not_one_s_to_decide() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    two_held_deletes(&harness, &team);
    harness.state_mut().prefs.screen = Screen::Approvals;
    settle(&mut harness, |h| {
        h.query_all_by_label("R-1").next().is_some()
    });
    // The screen's title, and the navigation with what waits for wang.
    assert_eq!(harness.query_all_by_label("审批").count(), 1);
    settle(&mut harness, |h| h.query_by_label("审批（2）").is_some());
    assert_eq!(harness.query_all_by_label("待审批").count(), 2);
    click(&mut harness, "R-1");
    harness.get_by_label("将删除的内容");
    click_when_enabled(&mut harness, "批准");
    settle(&mut harness, |h| {
        h.query_all_by_label("已批准并完成").next().is_some()
    });

    let branch = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(harness.state().core(), branch);
    settle(&mut harness, |h| {
        h.query_all_by_label("R-2").next().is_some()
    });
    click(&mut harness, "R-2");
    harness.get_by_label("这是您自己提交的请求，须由另一人审批。");
    assert!(harness.query_by_label("批准").is_none());
}

/// The clerk is told when their request is decided: a notice over the screens, until it is
/// dismissed.
#[test]
fn the_requester_is_told_when_a_request_is_decided() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    two_held_deletes(&harness, &team);
    let core = harness.state().core();
    let branch = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(core, branch);
    harness.state_mut().prefs.screen = Screen::Approvals;
    settle(&mut harness, |h| {
        h.query_all_by_label("R-1").next().is_some()
    });

    let core = harness.state().core();
    wang_approves(core, 1);
    click(&mut harness, "Refresh");
    let notice =
        "Your request R-1 (Delete assets ×1 · 1 asset number): Approved and done, by wang.";
    settle(&mut harness, |h| h.query_by_label(notice).is_some());
    harness.state_mut().prefs.screen = Screen::Orders;
    harness.run_ok();
    harness.get_by_label(notice);
    click(&mut harness, "Dismiss");
    assert!(harness.query_by_label(notice).is_none());
}

/// A draft handed over in the composer: wang hands his to li, who finds it under *Handed to
/// me* and opens it as a draft of her own.
#[test]
fn a_draft_is_handed_to_a_colleague_in_the_composer() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    both_signed_in(&harness, &team);
    let boss = license_desk::core::profiles::requests::Activate {
        name: "boss".to_owned(),
    };
    desk::run(harness.state().core(), boss);
    harness.state_mut().prefs.screen = Screen::Orders;
    settle(&mut harness, |h| {
        h.query_by_label("Handed to me (0)").is_some()
    });
    click(&mut harness, "Hand over…");
    type_into(&mut harness, "To", "li");
    type_into(&mut harness, "Note", "请核对客户");
    click(&mut harness, "Hand over");
    settle(&mut harness, |h| {
        h.query_by_label("Hand this draft over").is_none()
    });

    let branch = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(harness.state().core(), branch);
    settle(&mut harness, |h| {
        h.query_by_label("Handed to me (1)").is_some()
    });
    click(&mut harness, "Handed to me (1)");
    harness
        .get_by_label_contains(" · wang · 请核对客户")
        .click();
    harness.run_ok();
    settle(&mut harness, |h| {
        h.query_by_label("Handed to me (0)").is_some()
    });
    // The composer opens it: its name (a field's value) says whom it came from.
    settle(&mut harness, |h| shown_labels(h).contains(" (wang) |"));
}

/// Profiles signed in as in [`both_signed_in`], a customer with an asset bought by wang, and
/// the clerk's profile active with a delete of that asset imported into the composer.
fn a_delete_in_the_clerk_s_composer(
    harness: &mut Harness<'static, DeskApp>,
    team: &TeamRemote,
    dir: &std::path::Path,
    lang: Lang,
) {
    both_signed_in(harness, team);
    let core = harness.state().core();
    customer_with_asset(core);
    let branch = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(core, branch);
    let Call::BatchOrder(delete) = batch("delete_asset", "D-1") else {
        unreachable!("a batch");
    };
    let file = dir.join("delete.json");
    std::fs::write(&file, serde_json::to_string(&delete).expect("json")).expect("file");
    harness.state_mut().prefs.screen = Screen::Orders;
    let batch = format!("{} LD-", words(lang, "batch"));
    settle(harness, |h| {
        h.query_all_by_label_contains(&batch).next().is_some()
    });
    type_into(
        harness,
        words(lang, "order-file"),
        &file.display().to_string(),
    );
    click(harness, words(lang, "import-file"));
    settle(harness, |h| {
        h.query_by_label(words(lang, "no-problems")).is_some()
    });
}

/// A message of the window's, in `lang` (one without variables).
fn words(lang: Lang, id: &str) -> &'static str {
    license_desk::ui::text::i18n::lookup(lang, id).expect("a message")
}

/// Sends the composer's batch through its confirmation (which says beforehand that it will be
/// held), once its delete preview is read.
fn submit_and_send(harness: &mut Harness<'static, DeskApp>, lang: Lang) {
    click(harness, words(lang, "submit-batch"));
    let send = words(lang, "send-for-approval");
    settle(harness, |h| {
        h.query_by_label(send)
            .is_some_and(|b| !b.accesskit_node().is_disabled())
    });
    click(harness, send);
}

/// Issue 55: a clerk's delete held by the team server is news, not a failure — the toast, the
/// status bar and History say it waits for approval as R-1, in no error words; Open R-1 shows
/// it; sending the same draft again says beforehand that it already waits, and answers the
/// same request (the server holds one).
#[test]
fn a_held_delete_is_news_and_sending_it_again_is_the_same_request() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    a_delete_in_the_clerk_s_composer(&mut harness, &team, dir.path(), Lang::En);
    submit_and_send(&mut harness, Lang::En);
    let title = "Submit batch: waiting for approval as R-1";
    settle(&mut harness, |h| h.query_by_label(title).is_some());
    harness.get_by_label("Submit batch · waiting for approval as R-1");
    for failed in ["Submit batch: failed", "Submit batch · failed"] {
        assert!(harness.query_by_label(failed).is_none(), "{failed}");
    }
    assert_eq!(
        harness
            .query_all_by_label_contains("held for approval as R-1")
            .count(),
        1,
        "the server's words once, not repeated: {}",
        shown_labels(&harness)
    );

    submit_and_send_again(&mut harness);
    let core = harness.state().core();
    let pending = team::ListRequests {
        profile: "boss".to_owned(),
        query: license_desk::core::wire::approval::RequestQuery {
            mine: false,
            state: Some(license_desk::core::wire::approval::State::Pending),
            limit: None,
            before: None,
        },
    };
    let pending = desk::run(core, pending);
    assert_eq!(
        pending.iter().map(|r| r.id).collect::<Vec<_>>(),
        [1],
        "one batch, one request"
    );

    click(&mut harness, "Open R-1");
    settle(&mut harness, |h| {
        h.query_all_by_label("Waiting for approval")
            .next()
            .is_some()
    });
    harness.get_by_label("R-1 · Delete assets ×1 · 1 asset number");

    // The team's record, and this computer's calls: waiting, not failed or not sent.
    click(&mut harness, "History");
    settle(&mut harness, |h| {
        h.query_all_by_label("waiting for approval").count() == 2
    });
    click(&mut harness, "This computer's calls");
    settle(&mut harness, |h| {
        h.query_all_by_label("Waiting for approval").count() == 2
    });
    for not_so in ["Not sent", "× 202", "failed"] {
        assert!(harness.query_by_label(not_so).is_none(), "{not_so}");
    }

    // Decided, R-1 is no longer "kept" in the composer: its notice tells what became of it.
    harness.state_mut().prefs.screen = Screen::Orders;
    let kept = "Kept by the team server of";
    settle(&mut harness, |h| h.query_by_label_contains(kept).is_some());
    wang_approves(harness.state().core(), 1);
    settle(&mut harness, |h| {
        h.query_by_label_contains("Approved and done, by wang")
            .is_some()
    });
    assert!(harness.query_by_label_contains(kept).is_none());
}

/// The confirmation of a draft already held says so, and its answer is the same request.
fn submit_and_send_again(harness: &mut Harness<'static, DeskApp>) {
    click(harness, "Submit batch");
    harness.get_by_label("Who can approve it: wang.");
    assert!(
        harness.query_by_label("Send").is_none(),
        "its button says where it goes"
    );
    let already = "This draft already waits for approval on branch as R-1 (channel order id \
                   D-1): sent again, it answers the same request and files nothing new.";
    settle(harness, |h| h.query_by_label(already).is_some());
    settle(harness, |h| {
        h.query_by_label("Send for approval")
            .is_some_and(|b| !b.accesskit_node().is_disabled())
    });
    click(harness, "Send for approval");
    // Answered once the submit button is free again; the news is told once, not twice.
    settle(harness, |h| {
        h.query_by_label("Submit batch")
            .is_some_and(|b| !b.accesskit_node().is_disabled())
    });
    let toasts = harness.query_all_by_label("Submit batch: waiting for approval as R-1");
    assert_eq!(toasts.count(), 1);
}

/// The same in Chinese: the toast, the status bar and both records say 等待审批, and no word
/// of failure; the team's record words the held call itself (the server's English stays only
/// in the toast's verbatim line), and once wang has approved it, what became of it; no
/// English word of the server's is left in the record (a listing's size is 个资产).
#[test]
fn a_held_delete_reads_as_news_in_chinese() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    a_delete_in_the_clerk_s_composer(&mut harness, &team, dir.path(), Lang::Zh);
    click(&mut harness, words(Lang::Zh, "submit-batch"));
    harness.get_by_label("可审批的人：wang。");
    click(&mut harness, "取消");
    submit_and_send(&mut harness, Lang::Zh);
    let title = "提交批量订单：等待审批（R-1）";
    settle(&mut harness, |h| h.query_by_label(title).is_some());
    harness.get_by_label("提交批量订单 · 等待审批（R-1）");
    harness.get_by_label("打开 R-1");
    assert!(harness.query_by_label("提交批量订单：失败").is_none());

    click(&mut harness, words(Lang::Zh, "history"));
    settle(&mut harness, |h| {
        h.query_by_label("等待审批（R-1）").is_some()
    });
    assert_eq!(harness.query_all_by_label("等待审批").count(), 1);
    assert!(harness.query_by_label("held").is_none());
    wang_approves(harness.state().core(), 1);
    // The decision's notice comes by itself; the record is read again once it is on screen, so
    // that nothing moves between finding Refresh and clicking it.
    let notice = "您的请求 R-1（删除资产 ×1 · 1 个资产编号）：已批准并完成，审批人：wang。";
    settle(&mut harness, |h| h.query_by_label(notice).is_some());
    let record_tab = harness.get_by_label("团队服务器记录");
    assert_eq!(
        record_tab.accesskit_node().toggled(),
        Some(egui::accesskit::Toggled::True)
    );
    click(&mut harness, words(Lang::Zh, "refresh"));
    settle(&mut harness, |h| {
        h.query_by_label("等待审批（R-1） → 已批准并完成").is_some()
    });
    assert!(harness.query_all_by_label("1 个资产").next().is_some());
    // The toast's verbatim line is the server's own English, said as such: closed first (and
    // the decision's notice: it has a 关闭 of its own).
    for _ in 0..3 {
        let Some(close) = harness.query_all_by_label("关闭").next() else {
            break;
        };
        close.click();
        harness.run_ok();
    }
    let shown = shown_labels(&harness);
    for english in [
        "held",
        "asset",
        "changes up to",
        "approve",
        "knowledge",
        "list_assets",
    ] {
        assert!(!shown.contains(english), "{english:?} in {shown}");
    }
    click(&mut harness, words(Lang::Zh, "history-this-computer"));
    settle(&mut harness, |h| h.query_by_label("等待审批").is_some());
}

/// A decision made while another profile was active is told on coming back, and the list
/// beneath the notice says the same (issue 55).
#[test]
fn a_decision_made_while_away_is_told_on_coming_back_and_the_list_agrees() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    two_held_deletes(&harness, &team);
    let activate = |name: &str| license_desk::core::profiles::requests::Activate {
        name: name.to_owned(),
    };
    desk::run(harness.state().core(), activate("branch"));
    harness.state_mut().prefs.screen = Screen::Approvals;
    settle(&mut harness, |h| {
        h.query_all_by_label("Waiting for approval").count() == 2
    });

    desk::run(harness.state().core(), activate("boss"));
    settle(&mut harness, |h| {
        h.query_by_label("wang · administrator").is_some()
    });
    let core = harness.state().core();
    wang_approves(core, 1);

    desk::run(harness.state().core(), activate("branch"));
    let notice =
        "Your request R-1 (Delete assets ×1 · 1 asset number): Approved and done, by wang.";
    settle(&mut harness, |h| h.query_by_label(notice).is_some());
    settle(&mut harness, |h| {
        h.query_all_by_label("Approved and done").next().is_some()
    });
    assert_eq!(
        harness.query_all_by_label("Waiting for approval").count(),
        1,
        "R-2 only: {}",
        shown_labels(&harness)
    );
}

/// Clicks `label` once it is enabled (an approval waits for its preview to be read again).
fn click_when_enabled(harness: &mut Harness<'static, DeskApp>, label: &str) {
    settle(harness, |h| {
        h.query_by_label(label)
            .is_some_and(|b| !b.accesskit_node().is_disabled())
    });
    click(harness, label);
}

/// An approver learns of a request at once, without opening Approvals: the navigation counts
/// a second request as soon as the clerk files it (the console waits on the team server's
/// changes; its regular reading is 30 s apart), and a notice over the screen names it (the
/// one waiting before the console looked is no news); its link opens it on Approvals, and the
/// notice is gone. In English and in Chinese (issue 55).
#[test]
fn an_approver_s_navigation_counts_a_new_request_at_once() {
    let cases = [
        (
            Lang::En,
            "Approvals (1)",
            "Approvals (2)",
            "R-2 waits for your approval: li · Delete assets ×1 · 1 asset number.",
            "Open R-2",
        ),
        (
            Lang::Zh,
            "审批（1）",
            "审批（2）",
            "R-2 等待您审批：li · 删除资产 ×1 · 1 个资产编号。",
            "打开 R-2",
        ),
    ];
    for (lang, one, two, news, open) in cases {
        let team = TeamRemote::start();
        let dir = tempfile::tempdir().expect("dir");
        let mut harness = app(dir.path(), lang);
        harness.run_ok();
        both_signed_in(&harness, &team);
        let file = |harness: &Harness<'static, DeskApp>, id: &str, request: &str| {
            let core = harness.state().core();
            match core.run(on("branch", batch("delete_asset", id)), desk::WAIT) {
                Err(CoreError::Api(ApiError::Held { request_id, .. })) => {
                    assert_eq!(request_id, request)
                }
                other => panic!("held, not {other:?}"),
            }
        };
        file(&harness, "D-1", "R-1");
        let boss = license_desk::core::profiles::requests::Activate {
            name: "boss".to_owned(),
        };
        desk::run(harness.state().core(), boss);
        settle(&mut harness, |h| h.query_by_label(one).is_some());
        // The news comes in a strip at the bottom: the screen under the pointer stays still.
        harness.state_mut().prefs.screen = Screen::Assets;
        let field = if lang == Lang::En {
            "Enterprise global id"
        } else {
            "企业全局编号"
        };
        settle(&mut harness, |h| h.query_by_label(field).is_some());
        let before = harness.get_by_label(field).rect();
        file(&harness, "D-2", "R-2");
        window::step_until(&mut harness, std::time::Duration::from_secs(20), |h| {
            h.query_by_label(two).is_some()
        });
        settle(&mut harness, |h| h.query_by_label(news).is_some());
        assert_eq!(harness.get_by_label(field).rect(), before);
        let shown = shown_labels(&harness);
        assert!(
            !shown.contains("R-1 waits") && !shown.contains("R-1 等待"),
            "{shown}"
        );
        click(&mut harness, open);
        assert_eq!(harness.state().prefs.screen, Screen::Approvals);
        settle(&mut harness, |h| h.query_by_label(news).is_none());
    }
}

/// `profile` made active, and the Assets screen listing `enterprise` (wang's asset shown).
fn assets_listed_on(harness: &mut Harness<'static, DeskApp>, profile: &str, enterprise: &str) {
    let active = license_desk::core::profiles::requests::Activate {
        name: profile.to_owned(),
    };
    desk::run(harness.state().core(), active);
    harness.state_mut().prefs.screen = Screen::Assets;
    settle(harness, |h| {
        h.query_by_label("Enterprise global id").is_some()
    });
    type_into(harness, "Enterprise global id", enterprise);
    click(harness, "List assets");
    settle(harness, |h| h.query_by_label("8000000001").is_some());
}

/// Waits until the team server's directory holds the channel customer `id` (wang's console
/// shares what it learns in the background, after the call's answer): read on the server, so
/// that no console has pulled it yet.
fn shared_with_the_team(team: &TeamRemote, id: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let changes = team
            .with_store(async |store| ::team::knowledge::changes(store, 0).await.expect("changes"));
        let known = changes.changes.iter().any(|c| {
            c.value
                .as_ref()
                .is_some_and(|v| v["channelCustomerId"] == id)
        });
        if known {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{id} never shared");
        std::thread::yield_now();
    }
}

/// What the role lacks is drawn disabled with the reason on the customer page too: a clerk
/// may not change locks, so Disable and Enable say why on hover; the page knows the customer
/// a colleague bound from the team's directory, and its delete is a draft ready to send
/// (issue 55).
#[test]
fn the_customer_page_disables_for_a_clerk_what_the_role_lacks() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    both_signed_in(&harness, &team);
    let core = harness.state().core();
    let enterprise = customer_with_asset(core);
    shared_with_the_team(&team, "CRM-C");
    assets_listed_on(&mut harness, "branch", &enterprise);
    settle(&mut harness, |h| {
        h.query_by_label("Customer page").is_some()
    });
    click(&mut harness, "Customer page");
    settle(&mut harness, |h| {
        h.query_by_label("Choose 8000000001").is_some()
    });
    click(&mut harness, "Choose 8000000001");
    let disable = harness.get_by_label("Disable the chosen (1)…");
    assert!(disable.accesskit_node().is_disabled());
    disable.hover();
    harness.run_ok();
    harness.get_by_label(
        "Your role (branch staff) does not have the permission “locks” that this needs.",
    );
    let delete = harness.get_by_label("Delete the chosen (1)…");
    assert!(
        !delete.accesskit_node().is_disabled(),
        "a clerk files a delete for approval"
    );
    // The team's directory places the enterprise wang bound: its name and its customer.
    harness.get_by_label("Customers (1)");
    assert!(harness.query_by_label("(no name known)").is_none());
    // The delete it composes names the customer holding the asset: ready to send.
    click(&mut harness, "Delete the chosen (1)…");
    settle(&mut harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
}

/// A lock change above the team server's threshold is said beforehand on the Assets grid's
/// confirmation, with who may approve it, and its button sends it for approval; it is then
/// held, not failed (issue 55).
#[test]
fn a_lock_change_above_the_threshold_says_beforehand_that_it_waits() {
    let team = TeamRemote::start();
    team.with_store(async |store| {
        ::team::settings::set_thresholds(store, None, Some(0))
            .await
            .expect("locks threshold");
    });
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    both_signed_in(&harness, &team);
    let core = harness.state().core();
    let enterprise = customer_with_asset(core);
    assets_listed_on(&mut harness, "boss", &enterprise);
    click(&mut harness, "8000000001");
    click(&mut harness, "Disable selected");
    harness.get_by_label(
        "boss will keep this change of 1 lock for a second person's approval: nothing reaches \
         the platform until then (a change of more locks than the team server's threshold \
         waits).",
    );
    harness.get_by_label_contains("Nobody on this team server can approve your requests yet");
    harness.get_by_label("Operator: wang (the team server records the person signed in)");
    click(&mut harness, "Send for approval");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("waiting for approval as R-1")
            .next()
            .is_some()
    });
    assert!(harness.query_by_label("Disable: failed").is_none());
}

/// A team whose catalog is empty says so where products are added, and what an
/// administrator does to fill it (issue 55).
#[test]
fn an_empty_team_catalog_says_so_where_products_are_added() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    both_signed_in(&harness, &team);
    let branch = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(harness.state().core(), branch);
    harness.state_mut().prefs.screen = Screen::Orders;
    settle(&mut harness, |h| h.query_by_label("New").is_some());
    click(&mut harness, "New");
    // The problem's link selects the asset, where products are added.
    click(
        &mut harness,
        "Order 1 › Asset 1 › Asset numbers: at least one asset number required",
    );
    let empty = "The team's catalog has no products yet, so Add product adds an empty one to \
                 fill in by hand. An administrator fills it for everyone: Catalog → Import a \
                 catalog file, or Learn from the platform's listings; every batch sent \
                 through the team server teaches it too.";
    settle(&mut harness, |h| h.query_by_label(empty).is_some());
    harness.get_by_label("Add product");
}

/// A clerk's composer on a team profile picks the customer a colleague bound, with its
/// platform customer id, from the team's directory (issue 55).
#[test]
fn a_clerk_picks_a_colleague_s_new_customer_with_its_platform_id() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    both_signed_in(&harness, &team);
    let core = harness.state().core();
    customer_with_asset(core);
    shared_with_the_team(&team, "CRM-C");
    let branch = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(core, branch);
    harness.state_mut().prefs.screen = Screen::Orders;
    settle(&mut harness, |h| h.query_by_label("New").is_some());
    click(&mut harness, "New");
    click(&mut harness, "#1 New purchase · S-0001 (1)");
    type_into(&mut harness, "Customer from the directory", "上海测试");
    let found = "上海测试客户 · 上海测试公司 · CRM-C · CU0000000001 · EG0000000001";
    settle(&mut harness, |h| h.query_by_label(found).is_some());
    click(&mut harness, found);
    settle(&mut harness, |h| {
        h.query_by_label("#1 New purchase · CRM-C (1)").is_some()
    });
    let shown = shown_labels(&harness);
    assert!(shown.contains("| CU0000000001 |"), "{shown}");
    assert!(
        !shown.contains("required when the channel customer id is empty"),
        "{shown}"
    );
}

/// Issue 56: with the team server down, a call on a team profile says so — the team server
/// could not be reached — not that the platform could not.
#[test]
fn a_team_server_that_is_down_is_named_as_such() {
    let mut team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    both_signed_in(&harness, &team);
    let active = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(harness.state().core(), active);
    let server = team.server.take().expect("the server");
    team.remote.runtime.block_on(server.shutdown());
    harness.state_mut().prefs.screen = Screen::Assets;
    settle(&mut harness, |h| {
        h.query_by_label("Enterprise global id").is_some()
    });
    type_into(&mut harness, "Enterprise global id", "EG0000000001");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| {
        h.query_by_label_contains("The team server could not be reached: nothing was sent.")
            .is_some()
    });
    assert!(
        harness
            .query_by_label_contains("The platform could not be reached")
            .is_none()
    );
}

/// Issue 56: at 900×600 on a team profile (its person and role in the top bar) Help and the
/// rest of the top bar are whole in the window, in both languages: the bar takes a second line
/// rather than cutting them.
#[test]
fn help_stays_in_a_narrow_window_on_a_team_profile() {
    for (lang, help) in [(Lang::En, "Help"), (Lang::Zh, "帮助")] {
        let team = TeamRemote::start();
        let dir = tempfile::tempdir().expect("dir");
        let size = egui::vec2(900.0, 600.0);
        let mut harness = window::app_sized(dir.path(), lang, desk::mock_store(), size);
        harness.run_ok();
        both_signed_in(&harness, &team);
        let active = license_desk::core::profiles::requests::Activate {
            name: "branch".to_owned(),
        };
        desk::run(harness.state().core(), active);
        settle(&mut harness, |h| {
            h.query_by_label_contains("li · ").is_some()
        });
        let keyring = if lang == Lang::En {
            "given store"
        } else {
            "指定的存储"
        };
        for label in [help, keyring] {
            let rect = harness.get_by_label_contains(label).rect();
            assert!(
                rect.right() <= 900.0 && rect.width() > 0.0,
                "{label} at {rect:?}"
            );
        }
    }
}

/// Issue 56: the Sandbox's hints are the Sandbox's: on a team profile the Assets screen does not
/// send the clerk to the demo enterprise.
#[test]
fn a_team_profile_gets_no_sandbox_hint_on_assets() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    both_signed_in(&harness, &team);
    let active = license_desk::core::profiles::requests::Activate {
        name: "branch".to_owned(),
    };
    desk::run(harness.state().core(), active);
    harness.state_mut().prefs.screen = Screen::Assets;
    let remote = "Enter an enterprise global id and list its assets (a customer's page, or \
                  Customers › Query, gives it).";
    settle(&mut harness, |h| h.query_by_label(remote).is_some());
    assert!(harness.query_by_label_contains("Sandbox's demo").is_none());
}
