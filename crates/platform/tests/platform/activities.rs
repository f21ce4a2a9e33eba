//! The activity group: claims over HTTP against an activities file.

use std::io::Write;

use platform::{Config, Server};
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Platform, Reply, assert_resets, batch_of, new_buy};

const CLAIM: &str = "/activity/services/activity";
const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
const DAY: i64 = 24 * 3600 * 1000;

fn now_ms() -> i64 {
    support::clock::now_ms()
}

/// Activities around the current time: open, sold out, not started, ended, and a race.
fn definitions() -> Value {
    let now = now_ms();
    let unit = |id: &str,
                max: u32,
                stock: Option<u64>,
                kinds: Option<Vec<&str>>,
                products: Value| {
        let mut u = json!({"id": id, "name": format!("单元 {id}"), "maxClaimsPerIdentity": max, "products": products});
        if let Some(s) = stock {
            u["stock"] = json!(s);
        }
        if let Some(k) = kinds {
            u["identityKinds"] = json!(k);
        }
        u
    };
    let basic = json!([{"productUri": "gms:1001", "validDays": 365, "activateType": "0"},
                       {"productUri": "gms:1002", "validDays": 30, "activateType": "1"}]);
    let one = json!([{"productUri": "gms:3001", "validDays": 7, "activateType": "0"}]);
    json!({"activities": [
        {"id": "A1", "label": "spring-2026", "name": "春季活动", "startTime": now - DAY, "endTime": now + 30 * DAY,
         "sources": ["crm.example.com"], "branches": ["北京分公司"],
         "units": [unit("U1", 1, Some(1000), None, basic),
                   unit("U2", 2, None, Some(vec!["enterprise", "lock"]),
                        json!([{"productUri": "gms:2001", "validDays": 90, "activateType": "0"}]))]},
        {"id": "A2", "label": "sold-out", "name": "售罄", "startTime": now - DAY, "endTime": now + DAY,
         "units": [unit("U1", 1, Some(0), None, one.clone())]},
        {"id": "A3", "label": "future", "name": "未来", "startTime": now + DAY, "endTime": now + 2 * DAY,
         "units": [unit("U1", 1, None, None, one.clone())]},
        {"id": "A4", "label": "past", "name": "过去", "startTime": now - 2 * DAY, "endTime": now - DAY,
         "units": [unit("U1", 1, None, None, one.clone())]},
        {"id": "A5", "label": "race", "name": "抢购", "startTime": now - DAY, "endTime": now + DAY,
         "units": [unit("U1", 1, Some(5), None, one)]}
    ]})
}

fn write_file(dir: &std::path::Path, value: &Value) -> std::path::PathBuf {
    let path = dir.join("activities.json");
    let mut f = std::fs::File::create(&path).expect("file");
    f.write_all(
        serde_json::to_string_pretty(value)
            .expect("json")
            .as_bytes(),
    )
    .expect("write");
    path
}

pub async fn platform() -> (Platform, tempfile::TempDir) {
    let files = tempfile::tempdir().expect("dir");
    let path = write_file(files.path(), &definitions());
    let p = Platform::start_with(|c| c.activities = Some(path)).await;
    (p, files)
}

pub fn body(identity: &str, label: &str) -> Value {
    json!({"identity": identity, "activityLabel": label, "source": "crm.example.com", "branch": "北京分公司"})
}

pub async fn claim(p: &Platform, body: Value) -> Reply {
    p.call(Method::POST, CLAIM, &[], Some(body)).await
}

#[track_caller]
fn assert_result(r: &Reply, code: &str, message: &str) {
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["resultCode"], json!(code), "{}", r.body);
    assert_eq!(r.body["resultMessage"], json!(message), "{}", r.body);
}

#[tokio::test]
async fn a_mobile_number_claims_once_then_sees_why_not() {
    let (p, _files) = platform().await;
    let before = now_ms();
    let r = claim(&p, body("13800138000", "spring-2026")).await;
    assert_result(&r, "0000", "success");
    let products = r.body["detail"]["products"]
        .as_array()
        .expect("products")
        .clone();
    // U2 accepts only enterprises and locks: only U1's two products are claimed.
    assert_eq!(products.len(), 2, "{products:?}");
    assert_eq!(products[0]["activityId"], "A1");
    assert_eq!(products[0]["subActivityId"], "U1");
    assert_eq!(products[0]["productUri"], "gms:1001");
    assert_eq!(products[0]["activateType"], "0");
    assert_eq!(products[1]["productUri"], "gms:1002");
    assert_eq!(products[1]["activateType"], "1");
    let start: i64 = products[0]["limitStartDate"]
        .as_str()
        .expect("string")
        .parse()
        .expect("ms");
    let end: i64 = products[0]["limitEndDate"]
        .as_str()
        .expect("string")
        .parse()
        .expect("ms");
    assert!(start >= before && start <= now_ms());
    assert_eq!(end - start, 365 * DAY);
    let end2: i64 = products[1]["limitEndDate"]
        .as_str()
        .expect("string")
        .parse()
        .expect("ms");
    assert_eq!(end2 - start, 30 * DAY);
    assert!(r.body.get("activityDtoList").is_none());

    let again = claim(&p, body("13800138000", "spring-2026")).await;
    assert_result(
        &again,
        "3002",
        "the participant meets the conditions of no unit of activity A1",
    );
    assert_eq!(
        again.body["activityDtoList"],
        json!([{"id": "A1", "name": "春季活动", "participateResult": false, "engineSubActivityDtos": [
            {"id": "U1", "name": "单元 U1", "participateResult": false, "errorCode": 14005,
             "errorMessage": "personal claim count exceeded: at most 1 per participant"},
            {"id": "U2", "name": "单元 U2", "participateResult": false, "errorCode": 14003,
             "errorMessage": "this unit does not accept mobile identities"}
        ]}])
    );
    assert_eq!(p.count("claims"), 1);

    // An e-mail is counted without regard to case.
    assert_result(
        &claim(&p, body("Li.Lei@Example.com", "spring-2026")).await,
        "0000",
        "success",
    );
    let r = claim(&p, body("li.lei@example.com", "spring-2026")).await;
    assert_eq!(r.body["resultCode"], "3002");
}

#[tokio::test]
async fn a_lock_claims_and_its_products_are_on_the_asset() {
    let (p, _files) = platform().await;
    let created = p
        .post(
            CREATE,
            json!({"crmCustomerId": "CRM-7", "customerName": "深圳锁客户"}),
        )
        .await;
    let egid = created.data()["enterpriseGlobalId"]
        .as_str()
        .expect("id")
        .to_owned();
    let order = new_buy(
        1,
        "CRM-7",
        "normal_recover_usbkey",
        "8000000777",
        &["gms:9"],
    );
    p.batch(batch_of("LOCK-1", vec![order])).await.data();

    let r = claim(&p, body("8000000777", "spring-2026")).await;
    assert_result(&r, "0000", "success");
    let uris: Vec<&str> = r.body["detail"]["products"]
        .as_array()
        .expect("products")
        .iter()
        .map(|p| p["productUri"].as_str().expect("uri"))
        .collect();
    assert_eq!(uris, ["gms:1001", "gms:1002", "gms:2001"]);

    let list = p
        .get(&format!("/order/api/order/v1/asset/{egid}/list"), &[])
        .await;
    let asset = &list.data()[0];
    assert_eq!(asset["assetNum"], "8000000777");
    let held = asset["products"].as_array().expect("products on the asset");
    let by_uri = |uri: &str| {
        held.iter()
            .find(|h| h["productUri"] == uri)
            .expect(uri)
            .clone()
    };
    assert_eq!(by_uri("gms:9")["licenseOrderId"], "LO0000000001");
    let claimed = by_uri("gms:1001");
    assert_eq!(claimed["activityId"], "A1");
    assert_eq!(claimed["subActivityId"], "U1");
    assert_eq!(claimed["awaitingActivation"], json!(false));
    let start = claimed["limitStartDate"].as_i64().expect("start");
    assert_eq!(
        claimed["limitEndDate"].as_i64().expect("end") - start,
        365 * DAY
    );
    assert_eq!(by_uri("gms:1002")["awaitingActivation"], json!(true));
    assert_eq!(by_uri("gms:2001")["subActivityId"], "U2");

    // The enterprise itself is an identity too, counted apart from its lock.
    let r = claim(&p, body(&egid, "spring-2026")).await;
    assert_result(&r, "0000", "success");
    // U2 allows two claims per identity: the lock claims it a second time; U1 is used up.
    let r = claim(&p, body("8000000777", "spring-2026")).await;
    assert_result(&r, "0000", "success");
    assert_eq!(r.body["detail"]["products"][0]["productUri"], "gms:2001");
}

#[tokio::test]
async fn refusals_have_their_codes_and_reasons() {
    let (p, _files) = platform().await;
    assert_result(
        &claim(&p, body("hello", "spring-2026")).await,
        "1004",
        "identity: \"hello\" is not a mobile number (1 and 10 digits), an e-mail address, a known enterprise global id or a known lock asset number",
    );
    let mut wrong_source = body("13800138000", "spring-2026");
    wrong_source["source"] = json!("shop.example.com");
    assert_result(
        &claim(&p, wrong_source).await,
        "2001",
        "source: \"shop.example.com\" is not among the sources allowed for activity A1 (crm.example.com)",
    );
    let mut wrong_branch = body("13800138000", "spring-2026");
    wrong_branch["branch"] = json!("上海分公司");
    assert_result(
        &claim(&p, wrong_branch).await,
        "2001",
        "branch: \"上海分公司\" is not among the branches allowed for activity A1 (北京分公司)",
    );
    assert_result(
        &claim(&p, body("13800138000", "winter")).await,
        "3001",
        "activityLabel: no activity is labelled \"winter\"; the administrator must create it",
    );
    assert_result(
        &claim(&p, body(" ", "spring-2026")).await,
        "1001",
        "identity: required",
    );
    assert_result(
        &claim(
            &p,
            json!({"identity": "13800138000", "activityLabel": "spring-2026", "source": "s"}),
        )
        .await,
        "1001",
        "branch: required",
    );

    for (label, code, message) in [
        ("sold-out", 14004, "no stock: this unit has nothing to give"),
        ("past", 14002, ""),
        ("future", 14001, ""),
    ] {
        let r = claim(&p, body("13800138000", label)).await;
        assert_eq!(r.body["resultCode"], "3002", "{}", r.body);
        let unit = &r.body["activityDtoList"][0]["engineSubActivityDtos"][0];
        assert_eq!(unit["errorCode"], json!(code), "{label}");
        if !message.is_empty() {
            assert_eq!(unit["errorMessage"], json!(message));
        }
    }
    assert_eq!(p.count("claims"), 0, "no refusal wrote a claim");

    // extParams: an object or a string holding JSON.
    let mut with_ext = body("13900139000", "spring-2026");
    with_ext["extParams"] = json!({"mode": "sync"});
    assert_result(&claim(&p, with_ext).await, "0000", "success");
    let mut with_ext = body("13900139001", "spring-2026");
    with_ext["extParams"] = json!("{\"mode\":\"sync\"}");
    assert_result(&claim(&p, with_ext).await, "0000", "success");
    let mut with_ext = body("13900139002", "spring-2026");
    with_ext["extParams"] = json!(5);
    assert_result(
        &claim(&p, with_ext).await,
        "1001",
        "extParams: must be an object or a string holding JSON",
    );
}

#[tokio::test]
async fn auth_and_nonce_in_the_groups_envelope() {
    let (p, _files) = platform().await;
    // An app without auth_activity.
    let orders_only = p.new_app(&["auth_order"]).await;
    let token = p.token_for(&orders_only).await;
    let r = p
        .raw(
            p.http
                .post(format!("{}{CLAIM}", p.base))
                .query(&[("g_nonce", "x1")])
                .bearer_auth(&token)
                .json(&body("13800138000", "spring-2026")),
        )
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(r.body["resultCode"], "403");
    assert!(
        r.body["resultMessage"]
            .as_str()
            .expect("message")
            .contains("auth_activity")
    );

    let r = p
        .raw(
            p.http
                .post(format!("{}{CLAIM}", p.base))
                .json(&body("13800138000", "spring-2026")),
        )
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(r.body["resultCode"], "401");

    let r = p
        .raw(
            p.http
                .post(format!("{}{CLAIM}", p.base))
                .bearer_auth(&p.token)
                .json(&body("13800138000", "spring-2026")),
        )
        .await;
    assert_result(&r, "1001", "g_nonce: required on every call");
    let r = p
        .raw(
            p.http
                .post(format!("{}{CLAIM}", p.base))
                .query(&[("g_nonce", "{")])
                .bearer_auth(&p.token)
                .header("content-type", "application/json")
                .body("{\"identity\": "),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["resultCode"], "1001");
    assert!(
        r.body["resultMessage"]
            .as_str()
            .expect("m")
            .starts_with("identity: EOF while parsing a value at line 1 column 13")
    );
}

#[tokio::test]
async fn concurrent_claims_are_counted_exactly_and_survive_a_restart() {
    let (mut p, _files) = platform().await;
    // 20 claims by one participant at once on a unit of one claim per participant.
    let same: Vec<_> = (0..20)
        .map(|_| claim(&p, body("13700137000", "race")))
        .collect();
    let replies = futures::future::join_all(same).await;
    let won = replies
        .iter()
        .filter(|r| r.body["resultCode"] == "0000")
        .count();
    assert_eq!(won, 1);
    for r in replies.iter().filter(|r| r.body["resultCode"] != "0000") {
        assert_eq!(
            r.body["activityDtoList"][0]["engineSubActivityDtos"][0]["errorCode"],
            14005
        );
    }
    // 30 participants at once on a stock of 5 (one is already gone).
    let many: Vec<_> = (0..30)
        .map(|i| claim(&p, body(&format!("136{i:08}"), "race")))
        .collect();
    let replies = futures::future::join_all(many).await;
    let won = replies
        .iter()
        .filter(|r| r.body["resultCode"] == "0000")
        .count();
    assert_eq!(won, 4, "stock 5, one claimed before");
    assert_eq!(p.count("claims"), 5);

    p.restart().await;
    let r = claim(&p, body("13700137000", "race")).await;
    assert_eq!(r.body["resultCode"], "3002");
    let unit = &r.body["activityDtoList"][0]["engineSubActivityDtos"][0];
    assert_eq!(
        unit["errorCode"], 14004,
        "stock is used up, also after a restart"
    );
}

#[tokio::test]
async fn a_bad_file_is_refused_with_line_and_field_and_a_reload_keeps_the_old() {
    let files = tempfile::tempdir().expect("dir");
    let data = tempfile::tempdir().expect("dir");
    let mut bad = definitions();
    bad["activities"][0]["units"][1]["identityKinds"] = json!(["enterprise", "fax"]);
    let path = write_file(files.path(), &bad);
    let mut config = Config::new(data.path(), "127.0.0.1:0".parse().expect("addr"));
    config.activities = Some(path.clone());
    let err = Server::start(config.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("activities[0].units[1].identityKinds[1]: unknown variant `fax`"),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).expect("read");
    let line = text
        .lines()
        .position(|l| l.contains("\"fax\""))
        .expect("fax")
        + 1;
    assert!(err.contains(&format!("at line {line} column")), "{err}");

    let mut bad = definitions();
    bad["activities"][1]["endTime"] = json!(0);
    write_file(files.path(), &bad);
    let err = Server::start(config.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("activities[1]: activity A2: endTime is before startTime"),
        "{err}"
    );

    write_file(files.path(), &definitions());
    let server = Server::start(config).await.expect("starts");
    assert_eq!(server.reload_activities().ok(), Some(5));
    std::fs::write(&path, "{\"activities\": [").expect("write");
    let err = server.reload_activities().expect_err("refused").to_string();
    assert!(err.contains("EOF while parsing"), "{err}");
    let mut more = definitions();
    more["activities"][4]["label"] = json!("race-2");
    write_file(files.path(), &more);
    assert_eq!(server.reload_activities().ok(), Some(5));
    server.shutdown().await;
}

#[tokio::test]
async fn claims_past_30_a_minute_by_one_identity_are_refused_until_the_minute_ends() {
    let (p, _files) = platform().await;
    let first_sent = now_ms();
    let first = claim(&p, body("Wang.Fang@example.com", "spring-2026")).await;
    let first_answered = now_ms();
    assert_result(&first, "0000", "success");
    // Every attempt counts, refused ones too; an address is one identity in any case.
    for i in 1..30 {
        let identity = if i % 2 == 0 {
            "wang.fang@example.com"
        } else {
            "WANG.FANG@example.com"
        };
        let r = claim(
            &p,
            body(identity, if i < 10 { "spring-2026" } else { "nope" }),
        )
        .await;
        assert_ne!(
            r.body["resultCode"],
            "2001",
            "attempt {}: {}",
            i + 1,
            r.body
        );
    }
    let claims = p.count("claims");

    let sent = now_ms();
    let r = claim(&p, body("wang.fang@example.com", "spring-2026")).await;
    let answered = now_ms();
    assert_eq!(r.status, 200);
    assert_eq!(r.body["resultCode"], "2001", "{}", r.body);
    assert_resets(
        r.body["resultMessage"].as_str().expect("message"),
        "identity: too many claims by this identity, at most 30 a minute; the count resets at ",
        (first_sent + 60_000, first_answered + 60_000),
        (sent, answered),
    );
    assert!(r.body.get("detail").is_none() && r.body.get("activityDtoList").is_none());
    assert_eq!(
        p.count("claims"),
        claims,
        "a refused attempt claims nothing"
    );

    // Other identities are counted apart.
    let other = claim(&p, body("li.na@example.com", "spring-2026")).await;
    assert_result(&other, "0000", "success");
}
