//! Operations 6 and 7: disabling (lock) and enabling (unlock) locks, one status per asset.

use serde_json::{Value, json};

use crate::common::{Platform, batch_of, new_buy};

const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
const LOCK: &str = "/order/api/order/v1/asset/lock";
const UNLOCK: &str = "/order/api/order/v1/asset/unlock";

const RECOVER: &str = "8100000001";
const RECOVER_LAN: &str = "8100000002";
const LARGE_CUSTOMER: &str = "8100000003";
const SOFTKEY: &str = "8100000004";
const UNRECOVER: &str = "8100000005";
const LARGE_CUSTOMER_LAN: &str = "8100000006";
const SOFTKEY_WITH_LIMITS: &str = "8100000007";
const UNKNOWN: &str = "8199999999";
/// 65 characters: longer than any asset number.
const TOO_LONG: &str = "81000000018100000001810000000181000000018100000001810000000181000";

/// An enterprise whose default customer holds one asset of each kind; returns its global id.
async fn enterprise_with_assets(p: &Platform) -> String {
    let created = p
        .post(
            CREATE,
            json!({"crmCustomerId": "CRM-L", "customerName": "锁测试企业"}),
        )
        .await;
    let egid = created.data()["enterpriseGlobalId"]
        .as_str()
        .expect("enterpriseGlobalId")
        .to_owned();
    let with_limits = |sequence: i32, license_type: &str, asset: &str| {
        let mut o = new_buy(sequence, "CRM-L", license_type, asset, &["P-1"]);
        o["assets"][0]["limitStartDate"] = json!(1_700_000_000_000_i64);
        o["assets"][0]["limitEndDate"] = json!(1_900_000_000_000_i64);
        o
    };
    let orders = vec![
        new_buy(1, "CRM-L", "normal_recover_usbkey", RECOVER, &["P-1"]),
        new_buy(
            2,
            "CRM-L",
            "normal_recover_lan_usbkey",
            RECOVER_LAN,
            &["P-1"],
        ),
        with_limits(3, "normal_unrecover_usbkey", LARGE_CUSTOMER),
        new_buy(4, "CRM-L", "softkey", SOFTKEY, &["P-1"]),
        new_buy(5, "CRM-L", "normal_unrecover_usbkey", UNRECOVER, &["P-1"]),
        with_limits(6, "normal_unrecover_lan_usbkey", LARGE_CUSTOMER_LAN),
        with_limits(7, "softkey", SOFTKEY_WITH_LIMITS),
    ];
    p.batch(batch_of("B-LOCKS", orders)).await.data();
    egid
}

fn lock_body(nums: &[&str], operator: &str) -> Value {
    json!({"assetNums": nums, "operatorIdentity": operator})
}

/// The expected answer: each number with its status, in the order given.
fn statuses(pairs: &[(&str, u8)]) -> Value {
    Value::Array(
        pairs
            .iter()
            .map(|(num, status)| json!({"assetNum": num, "status": status}))
            .collect(),
    )
}

/// `locked` of every asset in the enterprise's listing, by asset number.
async fn locked_flags(p: &Platform, egid: &str) -> Vec<(String, bool)> {
    let list = p
        .get(&format!("/order/api/order/v1/asset/{egid}/list"), &[])
        .await;
    list.data()
        .as_array()
        .expect("asset list")
        .iter()
        .map(|a| {
            (
                a["assetNum"].as_str().expect("assetNum").to_owned(),
                a["locked"].as_bool().expect("locked"),
            )
        })
        .collect()
}

fn flags(pairs: &[(&str, bool)]) -> Vec<(String, bool)> {
    pairs.iter().map(|(n, l)| ((*n).to_owned(), *l)).collect()
}

/// Lock events as (asset number, locked, operator, app key), oldest first.
fn events(p: &Platform) -> Vec<(String, bool, String, String)> {
    p.rows(
        "SELECT asset_num, locked, operator, app_key FROM lock_events ORDER BY id",
        &[],
    )
    .iter()
    .map(|r| (r.text(0), r.i64(1) != 0, r.text(2), r.text(3)))
    .collect()
}

#[tokio::test]
async fn each_asset_gets_its_own_status_in_input_order() {
    let p = Platform::start().await;
    let egid = enterprise_with_assets(&p).await;
    let all_unlocked = flags(&[
        (RECOVER, false),
        (RECOVER_LAN, false),
        (LARGE_CUSTOMER, false),
        (SOFTKEY, false),
        (UNRECOVER, false),
        (LARGE_CUSTOMER_LAN, false),
        (SOFTKEY_WITH_LIMITS, false),
    ]);
    assert_eq!(locked_flags(&p, &egid).await, all_unlocked);

    let nums = [
        SOFTKEY,
        RECOVER,
        UNKNOWN,
        "has space",
        RECOVER_LAN,
        "",
        UNRECOVER,
        LARGE_CUSTOMER,
        "   ",
        LARGE_CUSTOMER_LAN,
        SOFTKEY_WITH_LIMITS,
        TOO_LONG,
    ];
    let locked = p.post(LOCK, lock_body(&nums, "张三")).await;
    assert_eq!(
        locked.data(),
        &statuses(&[
            (SOFTKEY, 4),
            (RECOVER, 1),
            (UNKNOWN, 2),
            ("has space", 3),
            (RECOVER_LAN, 1),
            ("", 3),
            (UNRECOVER, 4),
            (LARGE_CUSTOMER, 1),
            ("   ", 3),
            (LARGE_CUSTOMER_LAN, 1),
            (SOFTKEY_WITH_LIMITS, 4),
            (TOO_LONG, 3),
        ])
    );
    assert_eq!(
        locked_flags(&p, &egid).await,
        flags(&[
            (RECOVER, true),
            (RECOVER_LAN, true),
            (LARGE_CUSTOMER, true),
            (SOFTKEY, false),
            (UNRECOVER, false),
            (LARGE_CUSTOMER_LAN, true),
            (SOFTKEY_WITH_LIMITS, false),
        ])
    );
    let key = p.app.app_key.clone();
    let ev = events(&p);
    assert_eq!(ev.len(), 4, "{ev:?}");
    for (num, (asset, is_locked, operator, app_key)) in
        [RECOVER, RECOVER_LAN, LARGE_CUSTOMER, LARGE_CUSTOMER_LAN]
            .iter()
            .zip(&ev)
    {
        assert_eq!(asset, num);
        assert!(is_locked);
        assert_eq!(operator, "张三");
        assert_eq!(app_key, &key);
    }
    let in_db = p
        .row("SELECT count(*) FROM assets WHERE locked", &[])
        .i64(0);
    assert_eq!(in_db, 4);

    // Locking again: still success, still locked.
    let again = p
        .post(
            LOCK,
            lock_body(&[RECOVER, LARGE_CUSTOMER], "admin@example.com"),
        )
        .await;
    assert_eq!(
        again.data(),
        &statuses(&[(RECOVER, 1), (LARGE_CUSTOMER, 1)])
    );
    assert!(
        locked_flags(&p, &egid)
            .await
            .contains(&(RECOVER.to_owned(), true))
    );

    // Unlock: the same statuses, and locked is false again.
    let unlocked = p.post(UNLOCK, lock_body(&nums, "13800138000")).await;
    assert_eq!(
        unlocked.data(),
        &statuses(&[
            (SOFTKEY, 4),
            (RECOVER, 1),
            (UNKNOWN, 2),
            ("has space", 3),
            (RECOVER_LAN, 1),
            ("", 3),
            (UNRECOVER, 4),
            (LARGE_CUSTOMER, 1),
            ("   ", 3),
            (LARGE_CUSTOMER_LAN, 1),
            (SOFTKEY_WITH_LIMITS, 4),
            (TOO_LONG, 3),
        ])
    );
    assert_eq!(locked_flags(&p, &egid).await, all_unlocked);
    let ev = events(&p);
    let unlocks: Vec<_> = ev.iter().filter(|e| !e.1).collect();
    assert_eq!(unlocks.len(), 4, "{ev:?}");
    for e in &unlocks {
        assert_eq!(e.2, "13800138000");
        assert_eq!(e.3, key);
    }
    let mut unlocked_nums: Vec<&str> = unlocks.iter().map(|e| e.0.as_str()).collect();
    unlocked_nums.sort_unstable();
    assert_eq!(
        unlocked_nums,
        [RECOVER, RECOVER_LAN, LARGE_CUSTOMER, LARGE_CUSTOMER_LAN]
    );

    // Unlocking an enabled lock is success too.
    let twice = p.post(UNLOCK, lock_body(&[RECOVER_LAN], "张三")).await;
    assert_eq!(twice.data(), &statuses(&[(RECOVER_LAN, 1)]));
    assert_eq!(locked_flags(&p, &egid).await, all_unlocked);
}

#[tokio::test]
async fn repeated_numbers_and_deleted_assets() {
    let p = Platform::start().await;
    enterprise_with_assets(&p).await;
    let reply = p
        .post(
            LOCK,
            lock_body(&[RECOVER, RECOVER, SOFTKEY, SOFTKEY], "张三"),
        )
        .await;
    assert_eq!(
        reply.data(),
        &statuses(&[(RECOVER, 1), (RECOVER, 1), (SOFTKEY, 4), (SOFTKEY, 4)])
    );

    // Once the asset is deleted, it does not exist for lock and unlock.
    let mut delete = new_buy(1, "CRM-L", "normal_recover_usbkey", RECOVER, &[]);
    delete["orderType"] = json!("delete_asset");
    p.batch(batch_of("B-DEL", vec![delete])).await.data();
    let reply = p.post(UNLOCK, lock_body(&[RECOVER], "张三")).await;
    assert_eq!(reply.data(), &statuses(&[(RECOVER, 2)]));
    // Its history is kept.
    assert!(events(&p).iter().any(|e| e.0 == RECOVER && e.1));
}

#[tokio::test]
async fn refusals_are_whole_calls_and_change_nothing() {
    let p = Platform::start().await;
    let egid = enterprise_with_assets(&p).await;
    let before = locked_flags(&p, &egid).await;

    for path in [LOCK, UNLOCK] {
        p.post(path, json!({"assetNums": [RECOVER]}))
            .await
            .assert_13004("operatorIdentity: required");
        p.post(
            path,
            json!({"assetNums": [RECOVER], "operatorIdentity": "  "}),
        )
        .await
        .assert_13004("operatorIdentity: required");
        p.post(path, json!({"assetNums": [], "operatorIdentity": "张三"}))
            .await
            .assert_13004("assetNums: at least one asset number required");
        p.post(path, json!({"operatorIdentity": "张三"}))
            .await
            .assert_13004("assetNums: at least one asset number required");
        let mut too_many: Vec<String> = (0..10_000).map(|i| format!("82{i:08}")).collect();
        too_many.push(RECOVER.to_owned());
        p.post(
            path,
            json!({"assetNums": too_many, "operatorIdentity": "张三"}),
        )
        .await
        .assert_13004("assetNums: at most 10000 asset numbers per call");
    }
    assert_eq!(locked_flags(&p, &egid).await, before);
    assert_eq!(p.count("lock_events"), 0);

    // Exactly 10,000 is allowed: each number answered.
    let mut many: Vec<String> = (0..9_999).map(|i| format!("82{i:08}")).collect();
    many.push(RECOVER.to_owned());
    let reply = p
        .post(LOCK, json!({"assetNums": many, "operatorIdentity": "张三"}))
        .await;
    let answer = reply.data().as_array().expect("results");
    assert_eq!(answer.len(), 10_000);
    assert!(answer[..9_999].iter().all(|r| r["status"] == json!(2)));
    assert_eq!(answer[9_999], json!({"assetNum": RECOVER, "status": 1}));
    assert_eq!(answer[17]["assetNum"], "8200000017");
    assert_eq!(p.count("lock_events"), 1);
}
