//! Drafts handed over on the team server, over loopback on SQLite and PostgreSQL: to a
//! colleague or to the approvers, read by the owner and the receiver only, taken off once
//! opened; a receiver who does not exist, or oneself, refused by the field.

use test_support::team_rig;

use serde_json::json;
use team_rig::Rig;

const PATH: &str = "/team/v1/drafts";

#[tokio::test]
async fn a_draft_goes_to_a_colleague_or_to_the_approvers() {
    let database = test_support::pg_cluster::database().await;
    for database in [None, database.as_deref()] {
        let rig = Rig::start(database).await;
        let staff = rig.sign_in("staff").await;
        let (approver, viewer) = (rig.sign_in("approver").await, rig.sign_in("viewer").await);
        // Not a valid batch yet: a draft's text goes as it was written.
        let body = r#"{"orderList": [{"customerName": "杭州示例",}"#;
        let draft =
            json!({"name": "杭州续费", "body": body, "handedTo": "approvers", "note": "请核对"});
        let handed = rig.send("POST", PATH, Some(&staff), Some(draft)).await;
        assert_eq!(handed.body["data"]["id"], 1, "{handed:?} ({database:?})");
        assert!(handed.body["data"].get("body").is_none(), "{handed:?}");

        let mine = rig.send("GET", PATH, Some(&approver), None).await;
        assert_eq!(mine.body["data"][0]["name"], "杭州续费", "{mine:?}");
        let none = rig.send("GET", PATH, Some(&viewer), None).await;
        assert_eq!(none.body["data"], json!([]), "not the viewer's: {none:?}");
        let hidden = rig
            .send("GET", "/team/v1/drafts/1", Some(&viewer), None)
            .await;
        assert_eq!(hidden.status, 404, "{hidden:?}");

        let opened = rig
            .send("GET", "/team/v1/drafts/1", Some(&approver), None)
            .await;
        assert_eq!(opened.body["data"]["body"], body, "verbatim: {opened:?}");
        assert_eq!(opened.body["data"]["note"], "请核对");
        let taken = rig
            .send("DELETE", "/team/v1/drafts/1", Some(&approver), None)
            .await;
        assert_eq!(taken.body["code"], 0, "{taken:?}");
        let gone = rig.send("GET", PATH, Some(&staff), None).await;
        assert_eq!(gone.body["data"], json!([]), "{gone:?}");
    }
}

#[tokio::test]
async fn a_draft_for_nobody_or_for_oneself_is_refused_by_its_field() {
    let rig = Rig::start(None).await;
    let staff = rig.sign_in("staff").await;
    for (to, message) in [
        (
            "ghost",
            "handedTo: nobody is named \"ghost\" on this server (or give \"approvers\")",
        ),
        (
            "Staff",
            "handedTo: yourself; hand it to a colleague or to the approvers",
        ),
    ] {
        let draft = json!({"name": "x", "body": "{}", "handedTo": to});
        let refused = rig.send("POST", PATH, Some(&staff), Some(draft)).await;
        assert_eq!(
            (
                refused.body["code"].clone(),
                refused.body["message"].clone()
            ),
            (json!("13004"), json!(message)),
            "{refused:?}"
        );
    }
    let viewer = rig.sign_in("viewer").await;
    let draft = json!({"name": "x", "body": "{}", "handedTo": "staff"});
    let refused = rig.send("POST", PATH, Some(&viewer), Some(draft)).await;
    assert_eq!(refused.body["cause"], "permission:purchase", "{refused:?}");
}
