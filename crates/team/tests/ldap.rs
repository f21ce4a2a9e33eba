//! Sign-in through a real OpenLDAP `slapd`: a bind as the person, groups mapped to roles,
//! the person recorded at first sign-in; every refusal in words; a directory that is down
//! does not stop local accounts.

mod common;

use std::time::Duration;

use common::rig::Rig;
use common::slapd::{self, LDAP_PASSWORD, SUFFIX};
use team::ldap::LdapConfig;
use team::people::{self, Branch, NewPerson, Source};

const WRONG: &str = "wrong name or password (after 5 failures in a row a name is locked for 15 \
                     minutes)";

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
        timeout: Duration::from_secs(5),
    }
}

fn message(reply: &common::rig::Reply) -> String {
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
