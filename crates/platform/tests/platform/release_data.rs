//! A data directory written by an earlier release (`crates/platform/tests/data/release-3b8b4a8`, made by
//! `scripts/make-release-fixture.sh` with that commit's binary) opens with this build: every
//! row it holds is read, its guarantees hold on, and it goes on from where it stopped.

use std::path::Path;

use platform::apps::AppCredentials;
use serde_json::{Value, json};

use crate::common::{Platform, batch_of};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/release-3b8b4a8");
const ORDERS: &str = "/order/api/order/v1";

fn read(name: &str) -> String {
    std::fs::read_to_string(Path::new(FIXTURE).join(name)).expect("fixture file")
}

/// The fixture copied to a temp dir (the test must not change the committed files).
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in std::fs::read_dir(FIXTURE).expect("fixture dir") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).expect("copy");
    }
    dir
}

async fn release_platform() -> Platform {
    let app: Value = serde_json::from_str(&read("app.json")).expect("app.json");
    let app = AppCredentials {
        app_key: app["appKey"].as_str().expect("key").to_owned(),
        app_secret: app["appSecret"].as_str().expect("secret").to_owned(),
    };
    let dir = copy();
    let activities = dir.path().join("activities.json");
    Platform::start_on(dir, app, |c| {
        c.activities = Some(activities);
        // Long enough that the release's nonces are still in the window whenever this runs.
        c.nonce_window = std::time::Duration::from_secs(100 * 365 * 24 * 3600);
    })
    .await
}

#[tokio::test]
async fn a_release_data_dir_is_read_whole_and_goes_on_from_where_it_stopped() {
    if crate::common::sqlite_only("the release's fixture is a SQLite data directory") {
        return;
    }
    let p = release_platform().await;
    let enterprise = read("enterprise.txt").trim().to_owned();

    // The enterprise, its bound customer and both batches' assets, the first one locked.
    let listed = p
        .get(&format!("{ORDERS}/asset/{enterprise}/list"), &[])
        .await;
    let mut assets: Vec<(String, bool)> = listed
        .data()
        .as_array()
        .expect("array")
        .iter()
        .map(|a| {
            assert_eq!(a["customerId"], "CU0000000001", "{a}");
            assert_eq!(a["licenseType"], "normal_recover_usbkey", "{a}");
            let a_num = a["assetNum"].as_str().expect("assetNum").to_owned();
            (a_num, a["locked"].as_bool().expect("locked"))
        })
        .collect();
    assets.sort();
    assert_eq!(
        assets,
        [
            ("8000000001".to_owned(), true),
            ("8000000002".to_owned(), false)
        ]
    );
    let customers = p
        .get(
            &format!("{ORDERS}/enterprise/user/query"),
            &[
                ("channelCode", "CRM"),
                ("channelCustomerId", "CRM-1"),
                ("defaultCustomer", "N"),
            ],
        )
        .await;
    assert_eq!(customers.data()[0]["enterpriseGlobalId"], enterprise);

    // The sync batch sent again is answered as the release answered it, and creates nothing.
    let answers: Vec<Value> = read("answers.json")
        .lines()
        .map(|l| serde_json::from_str(l).expect("answer"))
        .collect();
    let orders = p.count("license_orders");
    let order = json!({"sequence": 1, "channelCustomerId": "CRM-1", "customerName": "上海样例",
        "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
        "assets": [{"assetNos": ["8000000001"], "products": [
            {"productUri": "gms:1001", "productName": "产品", "limitConcurrent": 1}]}]});
    let again = p.batch(batch_of("SYNC-1", vec![order])).await;
    assert_eq!(again.data(), &answers[1]["data"]);
    assert_eq!(p.count("license_orders"), orders);

    // Asset numbers go on after the release's last one.
    let before: Value = serde_json::from_str(&read("shellnums.json")).expect("shellnums");
    assert_eq!(before["data"][2], "8000000003");
    let next = p
        .post(&format!("{ORDERS}/shellnums"), json!({"size": 2}))
        .await;
    assert_eq!(next.data(), &json!(["8000000004", "8000000005"]));

    // The once-only unit was claimed: its stock of one stays spent.
    let claim = p
        .post(
            "/activity/services/activity",
            json!({"identity": "13700137000", "activityLabel": "launch", "source": "crm",
                   "branch": "上海分公司"}),
        )
        .await;
    assert_eq!(claim.body["resultCode"], "3002", "{}", claim.body);
    assert_eq!(
        claim.body["activityDtoList"][0]["engineSubActivityDtos"][0]["errorCode"],
        json!(14004)
    );
}

#[tokio::test]
async fn the_release_nonces_stay_spent() {
    if crate::common::sqlite_only("the release's fixture is a SQLite data directory") {
        return;
    }
    let p = release_platform().await;
    // Spent by calls that wrote (creation) and by one that only read (the listing).
    let enterprise = read("enterprise.txt").trim().to_owned();
    let list = format!("{}{ORDERS}/asset/{enterprise}/list", p.base);
    for nonce in read("nonces.txt").lines() {
        let r = p
            .raw(
                p.http
                    .get(&list)
                    .bearer_auth(&p.token)
                    .query(&[("g_nonce", nonce)]),
            )
            .await;
        r.assert_13004(
            "g_nonce: already used by this application; send a fresh nonce with every call",
        );
    }
}
