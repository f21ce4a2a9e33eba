//! People and roles on the team server's store, on SQLite and PostgreSQL: what is written is
//! read back, each refusal says why, and nothing is left half-done.

use test_support::team_rig;

use team::people::{self, Branch, Edit, NewPerson, Source};
use team::{TeamError, TeamStore, custom_roles, password};

const PASSWORD: &str = "长城长城 correct horse";

fn local(name: &str, role: &str, branch: Option<(&str, &str)>) -> NewPerson {
    NewPerson {
        name: name.to_owned(),
        display_name: None,
        role: role.to_owned(),
        branch: branch.map(|(code, name)| Branch {
            code: code.to_owned(),
            name: name.to_owned(),
        }),
        password: Some(PASSWORD.to_owned()),
        email: None,
    }
}

async fn stored_hash(store: &TeamStore, name: &str) -> Option<String> {
    let name = name.to_owned();
    store
        .read(move |tx| {
            tx.query_one(
                "SELECT password_hash FROM people WHERE name = ?1",
                &[(&name).into()],
                |row| row.opt_text(0),
            )
            .map_err(TeamError::from)
        })
        .await
        .expect("read the hash")
}

async fn revoked_at(store: &TeamStore, name: &str) -> i64 {
    let name = name.to_owned();
    store
        .read(move |tx| {
            tx.query_one(
                "SELECT sessions_revoked_at FROM people WHERE name = ?1",
                &[(&name).into()],
                |row| row.i64(0),
            )
            .map_err(TeamError::from)
        })
        .await
        .expect("read the revocation time")
}

#[tokio::test]
async fn init_makes_one_administrator_once() {
    for (kind, store, _dir) in team_rig::stores().await {
        let mut admin = local("Wang.Admin", "viewer", None);
        admin.display_name = Some("王管理".to_owned());
        let made = people::init(&store, admin).await.expect(kind);
        assert_eq!(
            (
                made.name.as_str(),
                made.display_name.as_str(),
                made.role.as_str()
            ),
            ("wang.admin", "王管理", "admin"),
            "{kind}: init always makes an administrator"
        );
        assert_eq!(made.source, Source::Local, "{kind}");
        let hash = stored_hash(&store, "wang.admin").await.expect(kind);
        assert!(hash.starts_with("$argon2id$"), "{kind}: {hash}");
        assert!(password::verify(PASSWORD, &hash), "{kind}");

        let again = people::init(&store, local("other", "admin", None)).await;
        assert!(
            matches!(again, Err(TeamError::AlreadyInitialized)),
            "{kind}: {again:?}"
        );
        let all = people::list(&store).await.expect(kind);
        assert_eq!(all, vec![made], "{kind}: the second init wrote nothing");
    }
}

#[tokio::test]
async fn people_are_added_read_back_and_refused_with_reasons() {
    for (kind, store, _dir) in team_rig::stores().await {
        people::init(&store, local("admin", "admin", None))
            .await
            .expect(kind);
        let li = people::add(&store, local("LiSi", "staff", Some(("SH01", "上海"))))
            .await
            .expect(kind);
        assert_eq!(
            li.branch,
            Some(Branch {
                code: "SH01".to_owned(),
                name: "上海".to_owned()
            }),
            "{kind}"
        );
        let said =
            |r: Result<people::Person, TeamError>| r.map(|p| p.name).map_err(|e| e.to_string());
        assert_eq!(
            said(people::add(&store, local("lisi", "viewer", None)).await),
            Err("a person named \"lisi\" already exists".to_owned()),
            "{kind}: names are compared without case"
        );
        assert_eq!(
            said(people::add(&store, local("zhao", "staff", None)).await),
            Err(
                "branch: branch staff order for their own branch; give --branch CODE and \
                 --branch-name NAME"
                    .to_owned()
            ),
            "{kind}"
        );
        assert_eq!(
            said(people::add(&store, local("zhao", "boss", None)).await),
            Err(
                "no role is named \"boss\"; the roles are viewer, staff, approver, admin"
                    .to_owned()
            ),
            "{kind}"
        );
        let mut short = local("zhao", "viewer", None);
        short.password = Some("short".to_owned());
        assert_eq!(
            said(people::add(&store, short).await),
            Err("password: 5 characters; at least 12 are needed".to_owned()),
            "{kind}"
        );
        assert_eq!(
            said(people::add(&store, local("zhao san", "viewer", None)).await),
            Err(
                "name: \"zhao san\" is not a sign-in name (1 to 64 characters, no spaces)"
                    .to_owned()
            ),
            "{kind}"
        );
        let mut ldap = local("Chen", "approver", None);
        ldap.password = None;
        let chen = people::add(&store, ldap).await.expect(kind);
        assert_eq!(chen.source, Source::Ldap, "{kind}");
        assert_eq!(stored_hash(&store, "chen").await, None, "{kind}");

        let names: Vec<String> = people::list(&store)
            .await
            .expect(kind)
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(
            names,
            ["admin", "chen", "lisi"],
            "{kind}: the refused wrote nothing"
        );
    }
}

#[tokio::test]
async fn what_takes_something_away_ends_the_sessions() {
    for (kind, store, _dir) in team_rig::stores().await {
        people::init(&store, local("admin", "admin", None))
            .await
            .expect(kind);
        people::add(&store, local("lisi", "staff", Some(("SH01", "上海"))))
            .await
            .expect(kind);
        let created = revoked_at(&store, "lisi").await;
        tick().await;
        let renamed = Edit {
            display_name: Some("李四".to_owned()),
            ..Edit::default()
        };
        let li = people::edit(&store, "LISI", renamed).await.expect(kind);
        assert_eq!(li.display_name, "李四", "{kind}");
        assert_eq!(
            revoked_at(&store, "lisi").await,
            created,
            "{kind}: a new name ends nothing"
        );

        let promoted = Edit {
            role: Some("approver".to_owned()),
            ..Edit::default()
        };
        let li = people::edit(&store, "lisi", promoted).await.expect(kind);
        assert_eq!(
            (li.role.as_str(), li.branch.is_some()),
            ("approver", true),
            "{kind}"
        );
        let promoted_at = revoked_at(&store, "lisi").await;
        assert!(
            promoted_at > created,
            "{kind}: a new role ends the sessions"
        );

        tick().await;
        let li = people::set_disabled(&store, "lisi", true)
            .await
            .expect(kind);
        assert!(li.disabled, "{kind}");
        let disabled_at = revoked_at(&store, "lisi").await;
        assert!(
            disabled_at > promoted_at,
            "{kind}: disabling ends the sessions"
        );
        let li = people::set_disabled(&store, "lisi", false)
            .await
            .expect(kind);
        assert!(!li.disabled, "{kind}");

        tick().await;
        let before = stored_hash(&store, "lisi").await.expect(kind);
        people::reset_password(&store, "lisi", "another long password")
            .await
            .expect(kind);
        let after = stored_hash(&store, "lisi").await.expect(kind);
        assert!(password::verify("another long password", &after), "{kind}");
        assert!(!password::verify(PASSWORD, &after), "{kind}");
        assert_ne!(before, after, "{kind}");
        assert!(
            revoked_at(&store, "lisi").await > disabled_at,
            "{kind}: a new password ends the sessions"
        );
    }
}

#[tokio::test]
async fn the_last_administrator_stays() {
    for (kind, store, _dir) in team_rig::stores().await {
        people::init(&store, local("admin", "admin", None))
            .await
            .expect(kind);
        let refused = "\"admin\" is the last active person who may manage people (permission \
                       users): make another one first, or nobody could";
        let disabled = people::set_disabled(&store, "admin", true).await;
        assert_eq!(
            disabled.map(|_| ()).map_err(|e| e.to_string()),
            Err(refused.to_owned())
        );
        let demoted = Edit {
            role: Some("viewer".to_owned()),
            ..Edit::default()
        };
        let demoted = people::edit(&store, "admin", demoted).await;
        assert_eq!(
            demoted.map(|_| ()).map_err(|e| e.to_string()),
            Err(refused.to_owned())
        );
        let admin = people::get(&store, "admin").await.expect(kind);
        assert_eq!(
            (admin.role.as_str(), admin.disabled),
            ("admin", false),
            "{kind}: unchanged"
        );

        custom_roles::add(&store, "auditor", "users,read")
            .await
            .expect(kind);
        people::add(&store, local("audit", "auditor", None))
            .await
            .expect(kind);
        people::set_disabled(&store, "admin", true)
            .await
            .expect("a custom role with users is enough");
    }
}

#[tokio::test]
async fn a_company_adds_and_removes_roles() {
    for (kind, store, _dir) in team_rig::stores().await {
        people::init(&store, local("admin", "admin", None))
            .await
            .expect(kind);
        let role = custom_roles::add(&store, "Locksmith", "locks, read")
            .await
            .expect(kind);
        assert_eq!(
            (role.name.as_str(), role.permissions.as_str()),
            ("locksmith", "read,locks")
        );
        let said = |r: Result<(), TeamError>| r.map_err(|e| e.to_string());
        let again = custom_roles::add(&store, "locksmith", "read")
            .await
            .map(|_| ());
        assert_eq!(
            said(again),
            Err("a role named \"locksmith\" already exists".to_owned())
        );
        let built_in = custom_roles::add(&store, "admin", "read").await.map(|_| ());
        assert_eq!(
            said(built_in),
            Err("a role named \"admin\" already exists".to_owned())
        );

        people::add(&store, local("zhang", "locksmith", None))
            .await
            .expect(kind);
        assert_eq!(
            said(custom_roles::remove(&store, "locksmith").await),
            Err("the role \"locksmith\" is held by zhang; give them another role first".to_owned()),
            "{kind}"
        );
        people::edit(
            &store,
            "zhang",
            Edit {
                role: Some("viewer".to_owned()),
                ..Edit::default()
            },
        )
        .await
        .expect(kind);
        custom_roles::remove(&store, "locksmith").await.expect(kind);
        let names: Vec<String> = custom_roles::list(&store)
            .await
            .expect(kind)
            .into_iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(names, ["viewer", "staff", "approver", "admin"], "{kind}");
        assert_eq!(
            said(custom_roles::remove(&store, "locksmith").await),
            Err(
                "no role is named \"locksmith\"; the roles are viewer, staff, approver, admin"
                    .to_owned()
            ),
            "{kind}"
        );
    }
}

/// Two instances on one PostgreSQL database disabling the only two administrators at once:
/// exactly one succeeds, so someone may still manage people.
#[tokio::test]
async fn two_instances_never_disable_the_last_two_administrators() {
    let Some(url) = test_support::pg_cluster::database().await else {
        return;
    };
    let one = team_rig::postgres(&url).await;
    let two = team_rig::postgres(&url).await;
    people::init(&one, local("admin", "admin", None))
        .await
        .expect("init");
    people::add(&one, local("boss", "admin", None))
        .await
        .expect("add");
    for _ in 0..5 {
        let (a, b) = tokio::join!(
            people::set_disabled(&one, "admin", true),
            people::set_disabled(&two, "boss", true)
        );
        assert!(a.is_ok() != b.is_ok(), "exactly one wins: {a:?} {b:?}");
        let lost = a.err().or(b.err());
        assert!(
            matches!(lost, Some(TeamError::LastAdministrator(_))),
            "{lost:?}"
        );
        people::set_disabled(&one, "admin", false)
            .await
            .expect("enable");
        people::set_disabled(&one, "boss", false)
            .await
            .expect("enable");
    }
}

/// Times are milliseconds: wait until the clock has moved on, so a new revocation time differs.
async fn tick() {
    let start = support::clock::now_ms();
    while support::clock::now_ms() == start {
        tokio::task::yield_now().await;
    }
}
