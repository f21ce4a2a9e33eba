//! The customer page (step 6), over the same real platform behind the fault proxy: it holds
//! exactly what the platform and the journal hold for the enterprise, nothing of another; it
//! is kept, and shown kept (marked) when the platform stops answering; a name several
//! enterprises fit is answered with them. And `license-desk customer show`.

use std::sync::Arc;

use license_desk::core::customer::{self, Opened, Page, What};
use license_desk::core::renewals::{ReadState, Source};
use license_desk::core::{Call, WriteState, now_ms};
use serde_json::{Value, json};
use wire::OrderType;

use super::fault_proxy::Fault;
use super::{DAY, PROFILE, desk::run, directory, on_branch, order, served, setup};

fn read_page(core: &license_desk::core::Core, id: &str) -> Opened {
    run(
        core,
        customer::ReadPage {
            profile: PROFILE.to_owned(),
            id: id.to_owned(),
        },
    )
}

fn the_page(opened: Opened) -> Arc<Page> {
    match opened {
        Opened::Page(page) => page,
        other => panic!("not a page: {other:?}"),
    }
}

#[test]
fn the_page_holds_exactly_what_the_platform_and_the_journal_hold_for_the_customer() {
    let s = setup();
    let now = now_ms();
    let a = order(
        &s.core,
        "P-1",
        json!([
            {"assetNos": ["8400000001"], "products": [
                {"productUri": "gms:1", "productName": "云计价", "limitStartDate": now - 300 * DAY,
                 "limitEndDate": now + 10 * DAY},
                {"productUri": "gms:2", "limitEndDate": now + 200 * DAY}]},
            {"assetNos": ["8400000002"], "products": [{"productUri": "gms:3"}]}
        ]),
    );
    let b = order(
        &s.core,
        "P-2",
        super::one_asset("8400000009", now + 5 * DAY),
    );
    run(
        &s.core,
        on_branch(Call::Lock {
            nums: vec!["8400000002".to_owned()],
            operator: Some("王芳".to_owned()),
        }),
    );
    directory(
        &s.core,
        s.dir.path(),
        json!([
            {"enterpriseGlobalId": a, "channelCode": "SHOP", "channelCustomerId": "P-1",
             "enterpriseName": "杭州页面有限公司", "branchName": "杭州分公司"},
            {"enterpriseGlobalId": b, "channelCode": "SHOP", "channelCustomerId": "P-2",
             "enterpriseName": "杭州页面二公司"}
        ]),
    );

    let page = the_page(read_page(&s.core, "P-1"));
    assert_eq!(
        (page.profile.as_str(), page.global_id.as_str()),
        (PROFILE, a.as_str())
    );
    assert_eq!(page.name(), Some("杭州页面有限公司"));
    assert_eq!(page.customers_state, ReadState::Read);
    let customers: Vec<(&str, &str)> = page
        .customers
        .iter()
        .map(|c| {
            (
                c.channel_customer_id.as_str(),
                c.enterprise_global_id.as_str(),
            )
        })
        .collect();
    assert_eq!(customers, [("P-1", a.as_str())]);
    let assets: Vec<(&str, bool, u32)> = page
        .assets
        .iter()
        .map(|h| (h.asset_num.as_str(), h.locked, h.products))
        .collect();
    assert_eq!(assets, [("8400000001", false, 2), ("8400000002", true, 1)]);
    let mut rows: Vec<(&str, Option<&str>, i64, Source)> = page
        .holdings
        .table
        .iter()
        .map(|r| (r.asset_num(), r.product_uri(), r.end(), r.source()))
        .collect();
    rows.sort_by_key(|r| (r.0, r.1));
    assert_eq!(
        rows,
        [
            ("8400000001", Some("gms:1"), now + 10 * DAY, Source::Product),
            (
                "8400000001",
                Some("gms:2"),
                now + 200 * DAY,
                Source::Product
            )
        ]
    );
    let today = jiff::Zoned::now().date();
    assert_eq!(
        page.ends_within(today, &jiff::tz::TimeZone::system()),
        [1, 1, 2]
    );

    // Newest first: the lock, the batch, the binding; nothing of P-2's.
    let timeline: Vec<(&str, Option<WriteState>, &What)> = page
        .timeline
        .iter()
        .map(|e| (e.operation.as_str(), e.state, &e.what))
        .collect();
    let batch = What::Batch {
        channel_order_id: "RENEW-P-1".to_owned(),
        kinds: vec![OrderType::NewBuy],
        orders: 1,
        assets: vec!["8400000001".to_owned(), "8400000002".to_owned()],
        products: vec!["gms:2".to_owned(), "gms:3".to_owned(), "云计价".to_owned()],
    };
    let locks = What::Locks {
        disable: true,
        assets: vec!["8400000002".to_owned()],
    };
    let bound = What::Customer {
        name: "P-1".to_owned(),
    };
    assert_eq!(
        timeline,
        [
            ("lock", Some(WriteState::Done), &locks),
            ("batch_order", Some(WriteState::Done), &batch),
            ("bind", Some(WriteState::Done), &bound),
        ]
    );

    // Kept: the same page opens from the file.
    let cached = run(
        &s.core,
        customer::Cached {
            profile: PROFILE.to_owned(),
            global_id: a.clone(),
        },
    );
    assert_eq!(cached.as_deref(), Some(page.as_ref()));

    // The platform stops answering: the kept page, marked, and nothing of it lost.
    s.proxy
        .then(&[Fault::ResetBeforeForward, Fault::ResetBeforeForward]);
    let unreached = the_page(read_page(&s.core, &a));
    assert!(unreached.unreachable.is_some(), "{unreached:?}");
    let mut unmarked = unreached.as_ref().clone();
    unmarked.unreachable = None;
    assert_eq!(&unmarked, page.as_ref());
}

#[test]
fn a_name_several_enterprises_fit_is_answered_with_them_and_an_unknown_one_is_said() {
    let s = setup();
    directory(
        &s.core,
        s.dir.path(),
        json!([
            {"enterpriseGlobalId": "EG1", "enterpriseName": "宁波建工一公司"},
            {"enterpriseGlobalId": "EG2", "enterpriseName": "宁波建工二公司"}
        ]),
    );
    assert_eq!(
        read_page(&s.core, "宁波建工"),
        Opened::Choices(vec![
            ("EG1".to_owned(), "宁波建工一公司".to_owned()),
            ("EG2".to_owned(), "宁波建工二公司".to_owned())
        ])
    );
    let unknown = s.core.run(
        customer::ReadPage {
            profile: PROFILE.to_owned(),
            id: "无此客户".to_owned(),
        },
        super::desk::WAIT,
    );
    assert_eq!(
        unknown.map_err(|e| e.to_string()),
        Err("the directory of Branch knows no customer \"无此客户\"".to_owned())
    );
    assert_eq!(s.proxy.received(), 0, "nothing was asked of the platform");
}

#[test]
fn the_command_line_prints_the_sandbox_customer_s_page_as_json_and_text() {
    let home = tempfile::tempdir().expect("home");
    let now = now_ms();
    let batch = json!({"channelCode": "SHOP", "channelOrderId": "CLI-PAGE", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8600000001"], "products": [
                {"productUri": "gms:1001", "productName": "云计价", "limitEndDate": now + 20 * DAY}]}]}]});
    let file = home.path().join("batch.json");
    std::fs::write(&file, batch.to_string()).expect("batch file");
    let sent = served::ld(
        home.path(),
        &["call", "order", "--body", file.to_str().expect("path")],
        None,
        &[],
    );
    assert_eq!(sent.code, Some(0), "{}", sent.stderr);

    let xlsx = home.path().join("page.xlsx");
    let json = served::ld(
        home.path(),
        &[
            "customer",
            "show",
            "EG0000000001",
            "--format",
            "json",
            "--xlsx",
            xlsx.to_str().expect("path"),
        ],
        None,
        &[],
    );
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    let page: Value = serde_json::from_str(&json.stdout).expect("JSON page");
    assert_eq!(page["enterpriseGlobalId"], "EG0000000001");
    let asset = page["assets"]
        .as_array()
        .expect("assets")
        .iter()
        .find(|a| a["assetNum"] == "8600000001")
        .expect("the asset sent");
    assert_eq!(asset["products"][0]["productName"], "云计价");
    assert_eq!(asset["products"][0]["daysLeft"], 20);
    let first = &page["timeline"][0];
    assert_eq!(
        (
            &first["operation"],
            &first["what"]["batch"]["channelOrderId"]
        ),
        (&json!("batch_order"), &json!("CLI-PAGE"))
    );

    let text = served::ld(
        home.path(),
        &["customer", "show", "EG0000000001"],
        None,
        &[],
    );
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    assert!(text.stdout.contains("8600000001"), "{}", text.stdout);
    assert!(text.stdout.contains("云计价"), "{}", text.stdout);

    let unknown = served::ld(home.path(), &["customer", "show", "无此客户"], None, &[]);
    assert_eq!(unknown.code, Some(1));
    assert!(
        unknown.stderr.contains("knows no customer"),
        "{}",
        unknown.stderr
    );
}
