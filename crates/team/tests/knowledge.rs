//! The team's shared catalog and directory over loopback, on SQLite and PostgreSQL: what one
//! person writes the next reads at once, as the changes since the number they last read;
//! a removal is read too; a viewer cannot write; a bad item is refused naming its field.

use test_support::team_rig;

use serde_json::json;
use team_rig::Rig;

const PATH: &str = "/team/v1/knowledge";

#[tokio::test]
async fn what_one_console_writes_the_next_reads_as_changes() {
    let database = test_support::pg_cluster::database().await;
    for database in [None, database.as_deref()] {
        let rig = Rig::start(database).await;
        let (staff, approver) = (rig.sign_in("staff").await, rig.sign_in("approver").await);
        let items = json!([
            {"shelf": "products", "key": "gms:2001", "value": {"productUri": "gms:2001", "productName": "云计价"}},
            {"shelf": "customers", "key": "CRM/C-1", "value": {"customerName": "上海测试客户", "channelCustomerId": "C-1"}}
        ]);
        let written = rig.send("POST", PATH, Some(&staff), Some(items)).await;
        assert_eq!(written.body["data"]["last"], 2, "{written:?}");

        let read = rig.send("GET", PATH, Some(&approver), None).await;
        let changes = &read.body["data"]["changes"];
        assert_eq!(changes[0]["value"]["productName"], "云计价", "{read:?}");
        assert_eq!(changes[1]["shelf"], "customers", "{read:?}");
        assert_eq!(changes[1]["changedBy"], "staff", "{read:?}");
        assert_eq!(read.body["data"]["last"], 2);

        let renamed = json!([
            {"shelf": "products", "key": "gms:2001", "value": {"productUri": "gms:2001", "productName": "云计价 专业版"}},
            {"shelf": "customers", "key": "CRM/C-1", "value": null}
        ]);
        rig.send("POST", PATH, Some(&approver), Some(renamed)).await;
        let since = rig
            .send("GET", &format!("{PATH}?since=2"), Some(&staff), None)
            .await;
        let changes = since.body["data"]["changes"]
            .as_array()
            .expect("changes")
            .clone();
        assert_eq!(changes.len(), 2, "{since:?}");
        assert_eq!(changes[0]["value"]["productName"], "云计价 专业版");
        assert_eq!(
            (changes[1]["key"].clone(), changes[1]["value"].clone()),
            (json!("CRM/C-1"), json!(null)),
            "the removal is read"
        );
        let all = rig.send("GET", PATH, Some(&staff), None).await;
        assert_eq!(
            all.body["data"]["changes"].as_array().map(Vec::len),
            Some(2),
            "one row per item, at its last change: {all:?} ({database:?})"
        );
    }
}

#[tokio::test]
async fn a_viewer_cannot_write_and_a_bad_item_is_refused_by_its_field() {
    let rig = Rig::start(None).await;
    let (viewer, staff) = (rig.sign_in("viewer").await, rig.sign_in("staff").await);
    let item = json!([{"shelf": "customers", "key": "k", "value": {"customerName": "甲"}}]);
    let refused = rig.send("POST", PATH, Some(&viewer), Some(item)).await;
    assert_eq!(
        (refused.status, refused.body["cause"].clone()),
        (403, json!("permission:customers")),
        "{refused:?}"
    );
    let bad = json!([
        {"shelf": "products", "key": "p", "value": {"productUri": "p"}},
        {"shelf": "packages", "key": " ", "value": {}}
    ]);
    let refused = rig.send("POST", PATH, Some(&staff), Some(bad)).await;
    assert_eq!(refused.body["code"], "13004", "{refused:?}");
    assert_eq!(
        refused.body["message"],
        "[1].key: between 1 and 200 characters"
    );
    let none = rig.send("GET", PATH, Some(&staff), None).await;
    assert_eq!(none.body["data"]["changes"], json!([]), "nothing written");
    let shelf = json!([{"shelf": "drafts", "key": "k", "value": {}}]);
    let refused = rig.send("POST", PATH, Some(&staff), Some(shelf)).await;
    assert!(
        refused.body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("[0].shelf")),
        "{refused:?}"
    );
}

/// A directory entry written again with fewer fields (a batch naming only the customer's
/// channel id) keeps what its binding taught: fields are added, a product is replaced whole.
#[tokio::test]
async fn a_customer_written_again_keeps_the_fields_it_had() {
    let rig = Rig::start(None).await;
    let staff = rig.sign_in("staff").await;
    let bound = json!([{"shelf": "customers", "key": "customer:CU-1", "value": {
        "customerId": "CU-1", "customerName": "上海测试客户", "enterpriseGlobalId": "EG-1"}}]);
    rig.send("POST", PATH, Some(&staff), Some(bound)).await;
    let again = json!([
        {"shelf": "customers", "key": "customer:CU-1", "value": {
            "customerId": "CU-1", "channelCustomerId": "C-1", "customerName": null}},
        {"shelf": "products", "key": "gms:1", "value": {"productUri": "gms:1", "productName": "甲"}},
        {"shelf": "products", "key": "gms:1", "value": {"productUri": "gms:1"}}
    ]);
    rig.send("POST", PATH, Some(&staff), Some(again)).await;
    let read = rig.send("GET", PATH, Some(&staff), None).await;
    let changes = &read.body["data"]["changes"];
    assert_eq!(
        changes[0]["value"],
        json!({"customerId": "CU-1", "customerName": "上海测试客户",
            "enterpriseGlobalId": "EG-1", "channelCustomerId": "C-1"}),
        "{read:?}"
    );
    assert_eq!(
        changes[1]["value"],
        json!({"productUri": "gms:1"}),
        "{read:?}"
    );
}
