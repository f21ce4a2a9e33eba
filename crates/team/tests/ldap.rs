//! Sign-in through a real OpenLDAP `slapd`: a bind as the person, groups mapped to roles,
//! the person recorded at first sign-in; every refusal in words; a directory that is down
//! does not stop local accounts.

use test_support::team_rig;

use std::time::Duration;

use serde_json::json;
use team::ldap::LdapConfig;
use team::people::{self, Branch, NewPerson, Source};
use team_rig::Rig;
use test_support::slapd::{self, LDAP_PASSWORD, SUFFIX};
use wire::paths;

const WRONG: &str = "wrong name or password";

fn directory(url: &str) -> LdapConfig {
    LdapConfig {
        url: url.to_owned(),
        user_dn: format!("uid={{user}},ou=people,{SUFFIX}"),
        group_base: format!("ou=groups,{SUFFIX}"),
        roles: vec![
            (format!("cn=clerks,ou=groups,{SUFFIX}"), "staff".to_owned()),
            (format!("CN=Admins,OU=Groups,{SUFFIX}"), "admin".to_owned()),
        ],
        starttls: false,
        insecure: false,
        id_attribute: team::ldap::DEFAULT_ID_ATTRIBUTE.to_owned(),
        timeout: Duration::from_secs(5),
    }
}

fn message(reply: &team_rig::Reply) -> String {
    reply.body["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_directory_account_signs_in_with_the_role_of_its_groups() {
    let Some(ldap) = slapd::start() else { return };
    let config = directory(&ldap.url);
    let rig = Rig::start_adjusted(|c| c.ldap = Some(config)).await;

    let token = rig.sign_in_with("ZhangSan", LDAP_PASSWORD).await;
    let me = rig.send("GET", "/team/v1/me", Some(&token), None).await;
    assert_eq!(me.body["data"]["person"]["name"], "zhangsan", "{me:?}");
    assert_eq!(me.body["data"]["person"]["role"], "admin", "from cn=admins");
    let store = rig.team_store().await;
    let recorded = people::get(&store, "zhangsan")
        .await
        .expect("recorded at first sign-in");
    assert_eq!(recorded.source, Source::Ldap);

    let wrong = rig.try_sign_in("zhangsan", "not it").await;
    let unknown = rig.try_sign_in("nobody", LDAP_PASSWORD).await;
    let empty = rig.try_sign_in("zhangsan", "").await;
    for reply in [&wrong, &unknown, &empty] {
        assert_eq!(
            (reply.status, message(reply)),
            (401, WRONG.to_owned()),
            "{reply:?}"
        );
    }

    let visitor = rig.try_sign_in("wangwu", LDAP_PASSWORD).await;
    assert_eq!(
        message(&visitor),
        "your directory account is in no group this server admits; ask an administrator"
    );
    let clerk = rig.try_sign_in("lisi", LDAP_PASSWORD).await;
    assert_eq!(
        message(&clerk),
        "your role needs a branch and none is set for you on this server; ask an \
         administrator (team user add|edit NAME --branch CODE --branch-name NAME)"
    );
    let lisi = NewPerson {
        name: "lisi".to_owned(),
        display_name: Some("李四".to_owned()),
        role: "staff".to_owned(),
        branch: Some(Branch {
            code: "SH01".to_owned(),
            name: "上海".to_owned(),
        }),
        password: None,
        email: None,
    };
    people::add(&store, lisi)
        .await
        .expect("added by an administrator");
    let token = rig.sign_in_with("lisi", LDAP_PASSWORD).await;
    let me = rig.send("GET", "/team/v1/me", Some(&token), None).await;
    assert_eq!(
        me.body["data"]["person"]["branch"]["name"], "上海",
        "{me:?}"
    );
}

#[tokio::test]
async fn a_directory_that_is_down_is_said_and_local_accounts_still_sign_in() {
    let Some(ldap) = slapd::start() else { return };
    let config = directory(&ldap.url);
    let rig = Rig::start_adjusted(|c| c.ldap = Some(config)).await;
    ldap.stop();
    let reply = rig.try_sign_in("zhangsan", LDAP_PASSWORD).await;
    assert_eq!(
        (reply.status, reply.body["code"].as_str()),
        (299, Some("500")),
        "{reply:?}"
    );
    let said = message(&reply);
    assert!(
        said.starts_with("the LDAP directory cannot be reached: ")
            && said.ends_with("; local accounts can still sign in"),
        "{said}"
    );
    rig.sign_in("admin").await;
}

/// Every spelling the directory binds as one account is one person here (issue 52): known by
/// the entry's `entryUUID`, named as the directory names it, also after the directory renames
/// the account; so the same person cannot approve their own delete under another spelling,
/// nor get back in when disabled.
#[tokio::test]
async fn every_spelling_the_directory_accepts_is_one_person() {
    let Some(ldap) = slapd::start() else { return };
    let config = directory(&ldap.url);
    let rig = Rig::start_adjusted(|c| c.ldap = Some(config)).await;

    // The first sign-in is recorded under the directory's own spelling.
    let full_width = rig.sign_in_with("ｚｈａｎｇｓａｎ", LDAP_PASSWORD).await;
    let long_s = rig.sign_in_with("zhangſan", LDAP_PASSWORD).await;
    // Renamed in the directory (the same entry, the same entryUUID): still the same person.
    ldap.rename("zhangsan", "zhang.san", "admins");
    let renamed = rig.sign_in_with("Zhang.San", LDAP_PASSWORD).await;
    for token in [&full_width, &long_s, &renamed] {
        let me = rig.send("GET", "/team/v1/me", Some(token), None).await;
        assert_eq!(me.body["data"]["person"]["name"], "zhangsan", "{me:?}");
    }
    let store = rig.team_store().await;
    let everyone = people::list(&store).await.expect("people");
    let directory_people: Vec<_> = everyone
        .iter()
        .filter(|p| p.source == Source::Ldap)
        .collect();
    assert_eq!(directory_people.len(), 1, "{everyone:?}");
    let id = directory_people[0].directory_id.as_deref().expect("bound");
    assert_eq!(id.len(), 36, "an entryUUID: {id}");

    // A delete filed under one spelling is not approved under another.
    let customer = json!({"channelCode": "CRM", "channelCustomerId": "C-1", "customerName": "上海测试客户", "enterpriseName": "上海测试公司", "passwordMobile": "13800000000"});
    let bound = rig
        .send("POST", paths::BIND, Some(&full_width), Some(customer))
        .await;
    assert_eq!(bound.body["code"], 0, "{bound:?}");
    let delete = json!({
        "channelCode": "CRM", "channelOrderId": "del-1", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "C-1", "customerName": "上海测试客户",
            "licenseType": "normal_recover_usbkey", "orderType": "delete_asset",
            "assets": [{"assetNos": ["8000000001"], "products": []}]}]
    });
    let held = rig
        .send("POST", paths::BATCH_ORDER, Some(&full_width), Some(delete))
        .await;
    assert_eq!(held.status, 202, "{held:?}");
    let own = rig.approve_shown(&long_s, "R-1").await;
    assert_eq!(
        (own.status, own.body["cause"].clone()),
        (403, json!("own_request")),
        "{own:?}"
    );

    // Disabled under one spelling is disabled under all.
    people::set_disabled(&store, "ＺＨＡＮＧＳＡＮ", true)
        .await
        .expect("disabled");
    for spelling in ["zhang.san", "ｚｈａｎｇ．ｓａｎ", "ZHANG.SAN"] {
        let reply = rig.try_sign_in(spelling, LDAP_PASSWORD).await;
        assert_eq!(
            message(&reply),
            "this account is disabled; ask an administrator",
            "{spelling:?}"
        );
    }
}
