//! Operations 1 to 4.

use serde_json::json;

use crate::common::Platform;

const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
const BIND: &str = "/order/api/order/v1/enterprise/user/bind";
const QUERY: &str = "/order/api/order/v1/enterprise/user/query";
const UPDATE: &str = "/order/api/order/v1/enterprise/user/update";

#[tokio::test]
async fn create_then_query_update_and_bind() {
    let p = Platform::start().await;
    let created = p
        .post(
            CREATE,
            json!({"crmCustomerId": "CRM-1", "customerName": "北京测试有限公司", "branchName": "北京分公司", "address": "北京市海淀区"}),
        )
        .await;
    let data = created.data().clone();
    let egid = data["enterpriseGlobalId"]
        .as_str()
        .expect("global id")
        .to_owned();
    assert_eq!(data["defaultType"], json!(true));
    let members = data["members"].as_array().expect("members");
    assert_eq!(members.len(), 2);
    assert_eq!(members[0]["memberIdentity"], "gxxp-admin");
    assert_eq!(members[1]["memberIdentity"], "cloud-staff");
    assert_ne!(members[0]["memberGlobalId"], members[1]["memberGlobalId"]);

    // The default customer is found by channel CRM and the CRM id.
    let all = p
        .get(
            QUERY,
            &[
                ("channelCode", "CRM"),
                ("channelCustomerId", "CRM-1"),
                ("defaultCustomer", "N"),
            ],
        )
        .await;
    let all = all.data().as_array().expect("list").clone();
    assert_eq!(
        all.len(),
        2,
        "default and industrial-information customers: {all:?}"
    );
    assert_eq!(all[0]["isDefault"], json!(true));
    assert_eq!(all[0]["channelCode"], "CRM");
    assert_eq!(all[0]["enterpriseGlobalId"], json!(egid));
    assert_eq!(all[0]["enterpriseName"], "北京测试有限公司");
    assert_eq!(all[1]["channelCode"], "GXXP");
    assert_eq!(all[1]["isDefault"], json!(false));

    // Bind a channel customer to the enterprise by its name.
    let bound = p
        .post(
            BIND,
            json!({"channelCode": "SHOP", "channelCustomerId": "S-9", "customerName": "北京测试有限公司",
                   "branchName": "北京分公司", "enterpriseName": "北京测试有限公司", "passwordMobile": "13800138000"}),
        )
        .await;
    let bound = bound.data().clone();
    assert_eq!(bound["enterpriseGlobalId"], json!(egid));
    assert_eq!(bound["isDefault"], json!(false));
    assert_eq!(bound["channelCustomerId"], "S-9");
    assert!(
        bound["customerId"]
            .as_str()
            .is_some_and(|s| s.starts_with("CU"))
    );

    let all = p
        .get(
            QUERY,
            &[("channelCode", "SHOP"), ("channelCustomerId", "S-9")],
        )
        .await;
    assert_eq!(
        all.data().as_array().expect("list").len(),
        3,
        "absent defaultCustomer means all"
    );
    let only_default = p
        .get(
            QUERY,
            &[
                ("channelCode", "SHOP"),
                ("channelCustomerId", "S-9"),
                ("defaultCustomer", "Y"),
            ],
        )
        .await;
    let only_default = only_default.data().as_array().expect("list").clone();
    assert_eq!(only_default.len(), 1);
    assert_eq!(only_default[0]["channelCode"], "CRM");

    // Binding again is harmless and returns the same customer.
    let again = p
        .post(
            BIND,
            json!({"channelCode": "SHOP", "channelCustomerId": "S-9", "customerName": "北京测试有限公司", "enterpriseName": "北京测试有限公司"}),
        )
        .await;
    assert_eq!(again.data()["customerId"], bound["customerId"]);

    // Update: no data field; the new name shows in queries.
    let updated = p
        .post(UPDATE, json!({"crmCustomerId": "CRM-1", "customerName": "北京新名有限公司", "address": "北京市朝阳区"}))
        .await;
    assert_eq!(updated.status, 200);
    assert_eq!(updated.body, json!({"code": 0, "message": "success"}));
    let after = p
        .get(
            QUERY,
            &[("channelCode", "SHOP"), ("channelCustomerId", "S-9")],
        )
        .await;
    for c in after.data().as_array().expect("list") {
        assert_eq!(c["enterpriseName"], "北京新名有限公司");
    }
    let address = p
        .row(
            "SELECT address FROM enterprises WHERE global_id = ?1",
            &[&egid],
        )
        .text(0);
    assert_eq!(address, "北京市朝阳区");
}

#[tokio::test]
async fn bind_creates_an_enterprise_when_none_has_the_name() {
    let p = Platform::start().await;
    let bound = p
        .post(
            BIND,
            json!({"channelCode": "SHOP", "channelCustomerId": "A1", "customerName": "广州客户", "enterpriseName": "广州新企业"}),
        )
        .await;
    let bound = bound.data().clone();
    assert_eq!(
        bound["isDefault"],
        json!(true),
        "first customer of a new enterprise is its default"
    );
    assert_eq!(bound["enterpriseName"], "广州新企业");
    assert!(
        bound["enterpriseGlobalId"]
            .as_str()
            .is_some_and(|s| s.starts_with("EG"))
    );
    assert_eq!(p.count("enterprises"), 1);

    // The same channel customer cannot be bound to another enterprise.
    let other = p
        .post(
            BIND,
            json!({"channelCode": "SHOP", "channelCustomerId": "A1", "customerName": "广州客户", "enterpriseName": "深圳企业"}),
        )
        .await;
    other.assert_13004(&format!(
        "channelCustomerId: SHOP/A1 is already bound to the enterprise master account {} (广州新企业)",
        bound["enterpriseGlobalId"].as_str().expect("id")
    ));
    assert_eq!(
        p.count("enterprises"),
        1,
        "the refused bind created nothing"
    );
}

#[tokio::test]
async fn refusals_name_the_field_and_change_nothing() {
    let p = Platform::start().await;
    p.post(CREATE, json!({"customerName": "无编号"}))
        .await
        .assert_13004("crmCustomerId: required");
    p.post(CREATE, json!({"crmCustomerId": "  ", "customerName": "x"}))
        .await
        .assert_13004("crmCustomerId: required");
    p.post(BIND, json!({"channelCode": "S", "channelCustomerId": "1", "customerName": "c", "enterpriseName": "e", "passwordMobile": "12345"}))
        .await
        .assert_13004("passwordMobile: must be a mobile number: 1 followed by 10 digits");
    p.post(
        UPDATE,
        json!({"crmCustomerId": "nobody", "customerName": "x"}),
    )
    .await
    .assert_13004(
        "crmCustomerId: no enterprise master account exists for the CRM customer \"nobody\"",
    );
    p.get(QUERY, &[("channelCode", "CRM")])
        .await
        .assert_13004("channelCustomerId: required");
    p.get(
        QUERY,
        &[
            ("channelCode", "CRM"),
            ("channelCustomerId", "1"),
            ("defaultCustomer", "yes"),
        ],
    )
    .await
    .assert_13004(
        "defaultCustomer: must be Y (only the default customer) or N (all customers), not \"yes\"",
    );
    assert_eq!(p.count("customers"), 0);
    assert_eq!(p.count("enterprises"), 0);

    p.post(
        CREATE,
        json!({"crmCustomerId": "CRM-2", "customerName": "一"}),
    )
    .await
    .data();
    let twice = p
        .post(
            CREATE,
            json!({"crmCustomerId": "CRM-2", "customerName": "二"}),
        )
        .await;
    twice.assert_13004(
        "crmCustomerId: an enterprise master account (EG0000000001) already exists for this CRM customer; use operation 4 to change it",
    );
    assert_eq!(p.count("enterprises"), 1);

    // An unknown customer is an empty list, not an error.
    let none = p
        .get(
            QUERY,
            &[("channelCode", "CRM"), ("channelCustomerId", "nobody")],
        )
        .await;
    assert_eq!(none.data(), &json!([]));
}
