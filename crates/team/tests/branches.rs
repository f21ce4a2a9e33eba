//! Branches bind what a call touches: a person bound to a branch cannot change, order into,
//! lock, list or overwrite another branch's customer, enterprise, lock or directory entry,
//! whoever created it; the head office acts for any branch. Over loopback, with the real
//! embedded platform behind the team server.

use test_support::team_rig;

use serde_json::{Value, json};
use team::audit;
use team_rig::{Reply, Rig};
use wire::paths;

const KNOWLEDGE: &str = wire::knowledge::PATH;

fn refusal(reply: &Reply) -> (u16, String, String, String) {
    let text = |k: &str| reply.body[k].as_str().unwrap_or_default().to_owned();
    (reply.status, text("code"), text("message"), text("cause"))
}

fn other_branch(message: &str) -> (u16, String, String, String) {
    (
        403,
        "403".to_owned(),
        format!("{message} belongs to branch 上海; you act for branch 北京 only"),
        "branch:上海".to_owned(),
    )
}

fn order(order_id: &str, customer: Value, asset: &str) -> Value {
    let mut entry = json!({
        "sequence": 1,
        "customerName": "客户",
        "licenseType": "normal_recover_usbkey",
        "orderType": "new_buy",
        "assets": [{"assetNos": [asset], "products": [{"productUri": "p1", "productName": "产品", "limitConcurrent": 1}]}]
    });
    for (k, v) in customer.as_object().expect("fields") {
        entry[k] = v.clone();
    }
    json!({"channelCode": "CRM", "channelOrderId": order_id, "syncMode": "sync", "orderList": [entry]})
}

fn data(reply: &Reply) -> &Value {
    assert_eq!(reply.body["code"], 0, "{reply:?}");
    &reply.body["data"]
}

#[tokio::test]
async fn another_branch_s_customers_enterprises_locks_and_entries_are_refused() {
    let database = test_support::pg_cluster::database().await;
    for database in [None, database.as_deref()] {
        refused_on(Rig::start(database).await).await;
    }
}

async fn refused_on(rig: Rig) {
    let head = rig.sign_in("admin").await;
    let shanghai = rig.sign_in("staff").await;
    let beijing = rig.sign_in("bj-staff").await;

    // The head office creates an enterprise for SH01: SH01 holds it.
    let enterprise = json!({"crmCustomerId": "crm-sh", "customerName": "上海甲", "branchName": "上海", "address": "上海"});
    let created = rig
        .send("POST", paths::CREATE, Some(&head), Some(enterprise))
        .await;
    let global_id = data(&created)["enterpriseGlobalId"]
        .as_str()
        .expect("id")
        .to_owned();
    // SH01 buys a lock for a customer of its own.
    let bought = rig
        .send(
            "POST",
            paths::BATCH_ORDER,
            Some(&shanghai),
            Some(order(
                "sh-1",
                json!({"channelCustomerId": "C-1"}),
                "8000000001",
            )),
        )
        .await;
    let customer_id = data(&bought)[0]["customerId"]
        .as_str()
        .expect("id")
        .to_owned();
    // The head office binds a customer into SH01's enterprise without naming a branch.
    let unnamed = order(
        "hq-1",
        json!({"channelCustomerId": "C-7", "enterpriseGlobalId": global_id}),
        "8000000007",
    );
    data(
        &rig.send("POST", paths::BATCH_ORDER, Some(&head), Some(unnamed))
            .await,
    );
    let orders_before = rig
        .platform_rows("SELECT license_order_id FROM license_orders")
        .len();

    let rename = json!({"crmCustomerId": "crm-sh", "customerName": "北京改名", "address": "北京"});
    let reply = rig
        .send("POST", paths::UPDATE, Some(&beijing), Some(rename.clone()))
        .await;
    assert_eq!(
        refusal(&reply),
        other_branch("crmCustomerId: the CRM customer crm-sh")
    );
    let into = order("bj-1", json!({"customerId": customer_id}), "8000000002");
    let reply = rig
        .send("POST", paths::BATCH_ORDER, Some(&beijing), Some(into))
        .await;
    assert_eq!(
        refusal(&reply),
        other_branch(&format!("orderList[0].customerId: customer {customer_id}"))
    );
    let by_channel = order("bj-2", json!({"channelCustomerId": "C-1"}), "8000000003");
    let reply = rig
        .send("POST", paths::BATCH_ORDER, Some(&beijing), Some(by_channel))
        .await;
    assert_eq!(
        refusal(&reply),
        other_branch("orderList[0].channelCustomerId: the channel's customer CRM/C-1")
    );
    // Held by no branch by its channel: the platform tells which enterprise it is in.
    let resolved = order("bj-3", json!({"channelCustomerId": "C-7"}), "8000000004");
    let reply = rig
        .send("POST", paths::BATCH_ORDER, Some(&beijing), Some(resolved))
        .await;
    assert_eq!(
        refusal(&reply),
        other_branch(&format!(
            "orderList[0].channelCustomerId: enterprise master account {global_id}"
        ))
    );
    let lock = json!({"assetNums": ["8000000001"]});
    let beijing_admin = rig.sign_in("bj-admin").await;
    let reply = rig
        .send(
            "POST",
            paths::LOCK,
            Some(&beijing_admin),
            Some(lock.clone()),
        )
        .await;
    assert_eq!(
        refusal(&reply),
        other_branch("assetNums[0]: lock 8000000001")
    );
    let listing = paths::asset_list(&global_id);
    let reply = rig.send("GET", &listing, Some(&beijing), None).await;
    assert_eq!(
        refusal(&reply),
        other_branch(&format!(
            "enterpriseGlobalId: enterprise master account {global_id}"
        ))
    );
    let query = format!("{}?channelCode=CRM&channelCustomerId=C-7", paths::QUERY);
    let reply = rig.send("GET", &query, Some(&beijing), None).await;
    assert_eq!(
        refusal(&reply),
        other_branch(&format!("data[0]: enterprise master account {global_id}"))
    );
    assert_eq!(
        rig.platform_rows("SELECT license_order_id FROM license_orders")
            .len(),
        orders_before,
        "nothing was ordered"
    );
    let names = rig.platform_rows(
        "SELECT DISTINCT customer_name FROM customers WHERE crm_customer_id = 'crm-sh'",
    );
    assert_eq!(names, [[Some("上海甲".to_owned())]], "not renamed");

    // SH01 does all of it.
    data(
        &rig.send("POST", paths::UPDATE, Some(&shanghai), Some(rename))
            .await,
    );
    data(&rig.send("POST", paths::LOCK, Some(&head), Some(lock)).await);
    data(&rig.send("GET", &listing, Some(&shanghai), None).await);
    // What BJ01 buys for a customer no branch holds is BJ01's from then on.
    let own = order("bj-4", json!({"channelCustomerId": "B-1"}), "8000000005");
    data(
        &rig.send("POST", paths::BATCH_ORDER, Some(&beijing), Some(own))
            .await,
    );
    let theirs = order("sh-2", json!({"channelCustomerId": "B-1"}), "8000000006");
    let reply = rig
        .send("POST", paths::BATCH_ORDER, Some(&shanghai), Some(theirs))
        .await;
    assert_eq!(
        refusal(&reply).2,
        "orderList[0].channelCustomerId: the channel's customer CRM/B-1 belongs to branch 北京; \
         you act for branch 上海 only"
    );
}

#[tokio::test]
async fn another_branch_s_directory_entries_are_refused_and_every_write_is_recorded() {
    let rig = Rig::start(None).await;
    let shanghai = rig.sign_in("staff").await;
    let beijing = rig.sign_in("bj-staff").await;
    let entry = |key: &str, branch: &str| json!([{"shelf": "customers", "key": key, "value": {"channelCode": "CRM", "customerName": "甲", "branchName": branch}}]);
    data(
        &rig.send(
            "POST",
            KNOWLEDGE,
            Some(&shanghai),
            Some(entry("crm:sh-9", "上海")),
        )
        .await,
    );

    let reply = rig
        .send(
            "POST",
            KNOWLEDGE,
            Some(&beijing),
            Some(entry("crm:sh-9", "北京")),
        )
        .await;
    assert_eq!(
        refusal(&reply),
        other_branch("[0].key: the directory entry crm:sh-9")
    );
    let reply = rig
        .send(
            "POST",
            KNOWLEDGE,
            Some(&beijing),
            Some(entry("crm:new", "上海")),
        )
        .await;
    assert_eq!(
        refusal(&reply),
        other_branch("[0].value: the directory entry crm:new")
    );
    let removal = json!([{"shelf": "customers", "key": "crm:sh-9", "value": null}]);
    let reply = rig
        .send("POST", KNOWLEDGE, Some(&beijing), Some(removal))
        .await;
    assert_eq!(refusal(&reply).0, 403, "{reply:?}");
    data(
        &rig.send(
            "POST",
            KNOWLEDGE,
            Some(&beijing),
            Some(entry("crm:bj-1", "北京")),
        )
        .await,
    );

    let store = rig.team_store().await;
    let said = |person: &str| {
        let store = store.clone();
        let person = person.to_owned();
        async move {
            let entries = audit::last_of(&store, &person, 10).await.expect("audit");
            entries
                .into_iter()
                .filter(|e| e.record.operation == "knowledge.put")
                .map(|e| (e.record.outcome, e.record.request.unwrap_or_default()))
                .collect::<Vec<_>>()
        }
    };
    let keys = |k: &str| format!("[\"customers/{k}\"]");
    let mut beijing_said = said("bj-staff").await;
    beijing_said.sort();
    assert_eq!(
        beijing_said,
        [
            ("denied".to_owned(), keys("crm:new")),
            ("denied".to_owned(), keys("crm:sh-9")),
            ("denied".to_owned(), keys("crm:sh-9")),
            ("ok".to_owned(), keys("crm:bj-1")),
        ]
    );
    assert_eq!(said("staff").await, [("ok".to_owned(), keys("crm:sh-9"))]);
}
