//! Sign-in and sessions on both stores: a session works until it is ended, by sign-out,
//! expiry, or a change to its person; failures are answered alike and never lock a name (the
//! gate slows attempts over HTTP: tests/sign_in_limits.rs); every spelling of a name is one
//! person.

use test_support::team_rig;

use std::time::Duration;

use team::people::{self, Edit, NewPerson};
use team::roles::Permission;
use team::sessions::{SessionError, SessionRules, Sessions, token_hash};
use team::{TeamError, TeamStore};

const PASSWORD: &str = "长城长城 correct horse";
const WRONG: &str = "wrong name or password";

/// Rules whose checks are never cached, so each check reads the store.
fn uncached() -> SessionRules {
    SessionRules {
        trusted_for: Duration::ZERO,
        ..SessionRules::default()
    }
}

async fn team_of_two(store: &TeamStore) {
    let person = |name: &str, role: &str, branch| NewPerson {
        name: name.to_owned(),
        display_name: None,
        role: role.to_owned(),
        branch,
        password: Some(PASSWORD.to_owned()),
        email: None,
    };
    people::init(store, person("admin", "admin", None))
        .await
        .expect("init");
    let branch = team::people::Branch {
        code: "SH01".to_owned(),
        name: "上海".to_owned(),
    };
    people::add(store, person("lisi", "staff", Some(branch)))
        .await
        .expect("add");
}

fn said<T>(r: Result<T, SessionError>) -> Result<T, String> {
    r.map_err(|e| e.to_string())
}

#[tokio::test]
async fn a_session_works_until_its_person_signs_out() {
    for (kind, store, _dir) in team_rig::stores().await {
        team_of_two(&store).await;
        let sessions = Sessions::new(store.clone(), uncached());
        let signed = sessions.sign_in("LiSi", PASSWORD).await.expect(kind);
        assert_eq!(signed.token.len(), 43, "{kind}: 32 bytes, base64url");
        let caller = sessions.check(&signed.token).await.expect(kind);
        assert_eq!(caller.person.name, "lisi", "{kind}");
        assert!(caller.permissions.has(Permission::Purchase), "{kind}");
        assert!(!caller.permissions.has(Permission::Locks), "{kind}");

        let token = signed.token.clone();
        let stored: Vec<String> = store
            .read(move |tx| {
                let mut all = Vec::new();
                tx.query_each("SELECT token_hash FROM sessions", &[], &mut |row| {
                    all.push(row.text(0)?);
                    Ok(std::ops::ControlFlow::Continue(()))
                })?;
                Ok::<_, TeamError>(all)
            })
            .await
            .expect(kind);
        assert_eq!(
            stored,
            [token_hash(&token)],
            "{kind}: only the hash is kept"
        );

        sessions.sign_out(&signed.token).await.expect(kind);
        assert_eq!(
            said(sessions.check(&signed.token).await.map(|c| c.person.name)),
            Err(
                "the session has ended (signed out, expired, or the account changed): sign \
                 in again"
                    .to_owned()
            ),
            "{kind}: a replayed token after sign-out"
        );
        assert!(matches!(
            sessions.check("made-up").await,
            Err(SessionError::Ended)
        ));
    }
}

#[tokio::test]
async fn every_failure_reads_the_same_and_none_locks_the_name() {
    for (kind, store, _dir) in team_rig::stores().await {
        team_of_two(&store).await;
        let sessions = Sessions::new(store.clone(), uncached());
        let unknown = said(sessions.sign_in("nobody", PASSWORD).await.map(|_| ()));
        assert_eq!(unknown, Err(WRONG.to_owned()), "{kind}");
        for _ in 0..6 {
            let wrong = said(
                sessions
                    .sign_in("lisi", "not the password")
                    .await
                    .map(|_| ()),
            );
            assert_eq!(wrong, Err(WRONG.to_owned()), "{kind}");
        }
        let me = sessions
            .sign_in("lisi", PASSWORD)
            .await
            .expect("the right password after six wrong ones");
        assert_eq!(me.caller.person.name, "lisi", "{kind}");
    }
}

/// A local account never becomes a directory person's, whatever name the directory gives.
#[tokio::test]
async fn a_local_account_is_never_bound_to_a_directory_entry() {
    for (kind, store, _dir) in team_rig::stores().await {
        team_of_two(&store).await;
        let bound = people::bind_directory_id(&store, "admin", "0f1e-uuid").await;
        assert!(
            matches!(&bound, Err(TeamError::OtherDirectoryPerson(n)) if n == "admin"),
            "{kind}: {bound:?}"
        );
        let person = people::get(&store, "admin").await.expect(kind);
        assert_eq!(person.directory_id, None, "{kind}: nothing written");
        let found = people::by_directory_id(&store, "0f1e-uuid")
            .await
            .expect(kind);
        assert_eq!(found, None, "{kind}");
    }
}

#[tokio::test]
async fn every_spelling_of_a_name_is_one_person() {
    for (kind, store, _dir) in team_rig::stores().await {
        team_of_two(&store).await;
        let sessions = Sessions::new(store.clone(), uncached());
        for spelling in ["LiSi", "ｌｉｓｉ", "ＬＩＳＩ", " lisi ", "li\u{ad}si"] {
            let signed = sessions.sign_in(spelling, PASSWORD).await.expect(spelling);
            assert_eq!(signed.caller.person.name, "lisi", "{kind}: {spelling:?}");
        }
        let added = people::add(
            &store,
            NewPerson {
                name: "ｌｉｓｉ".to_owned(),
                display_name: None,
                role: "viewer".to_owned(),
                branch: None,
                password: Some(PASSWORD.to_owned()),
                email: None,
            },
        )
        .await;
        assert!(
            matches!(&added, Err(TeamError::PersonExists(n)) if n == "lisi"),
            "{kind}: {added:?}"
        );
        people::set_disabled(&store, "ＬＩＳＩ", true)
            .await
            .expect(kind);
        let disabled = said(sessions.sign_in("LISI", PASSWORD).await.map(|_| ()));
        assert_eq!(
            disabled,
            Err("this account is disabled; ask an administrator".to_owned()),
            "{kind}"
        );
    }
}

#[tokio::test]
async fn disabling_or_re_roling_a_person_ends_their_sessions_at_once() {
    for (kind, store, _dir) in team_rig::stores().await {
        team_of_two(&store).await;
        let sessions = Sessions::new(store.clone(), uncached());
        let first = sessions.sign_in("lisi", PASSWORD).await.expect(kind);
        people::set_disabled(&store, "lisi", true)
            .await
            .expect(kind);
        assert!(matches!(
            sessions.check(&first.token).await,
            Err(SessionError::Ended)
        ));
        assert_eq!(
            said(sessions.sign_in("lisi", PASSWORD).await.map(|_| ())),
            Err("this account is disabled; ask an administrator".to_owned()),
            "{kind}"
        );
        people::set_disabled(&store, "lisi", false)
            .await
            .expect(kind);
        assert!(
            matches!(sessions.check(&first.token).await, Err(SessionError::Ended)),
            "{kind}: enabling again does not bring old sessions back"
        );

        let second = sessions.sign_in("lisi", PASSWORD).await.expect(kind);
        sessions.check(&second.token).await.expect(kind);
        let edit = Edit {
            role: Some("viewer".to_owned()),
            ..Edit::default()
        };
        wait_for_next_ms().await;
        people::edit(&store, "lisi", edit).await.expect(kind);
        assert!(matches!(
            sessions.check(&second.token).await,
            Err(SessionError::Ended)
        ));
        let third = sessions.sign_in("lisi", PASSWORD).await.expect(kind);
        let caller = sessions.check(&third.token).await.expect(kind);
        assert!(
            !caller.permissions.has(Permission::Purchase),
            "{kind}: the new role's"
        );
    }
}

#[tokio::test]
async fn an_idle_session_expires() {
    for (kind, store, _dir) in team_rig::stores().await {
        team_of_two(&store).await;
        let clock = support::clock::Clock::settable();
        let rules = SessionRules {
            clock: clock.clone(),
            ..uncached()
        };
        let sessions = Sessions::new(store.clone(), rules);
        let signed = sessions.sign_in("lisi", PASSWORD).await.expect(kind);
        // Each use keeps it: 58 minutes after sign-in, used 29 minutes ago.
        for _ in 0..2 {
            clock.advance(Duration::from_secs(29 * 60));
            sessions.check(&signed.token).await.expect(kind);
        }
        // Idle for 30 minutes and a second since the last use.
        clock.advance(Duration::from_secs(30 * 60 + 1));
        assert!(
            matches!(
                sessions.check(&signed.token).await,
                Err(SessionError::Ended)
            ),
            "{kind}"
        );
    }
}

/// A check trusted for a while on one instance; another instance sees a sign-out at once.
#[tokio::test]
async fn a_second_instance_sees_a_sign_out_within_its_trust() {
    for (kind, store, _dir) in team_rig::stores().await {
        team_of_two(&store).await;
        let trusting = SessionRules {
            trusted_for: Duration::from_secs(600),
            ..SessionRules::default()
        };
        let one = Sessions::new(store.clone(), trusting);
        let two = Sessions::new(store.clone(), uncached());
        let signed = one.sign_in("lisi", PASSWORD).await.expect(kind);
        one.check(&signed.token).await.expect(kind);
        two.sign_out(&signed.token).await.expect(kind);
        assert!(
            one.check(&signed.token).await.is_ok(),
            "{kind}: trusted for a while on the instance that checked it"
        );
        let fresh = Sessions::new(store.clone(), uncached());
        assert!(matches!(
            fresh.check(&signed.token).await,
            Err(SessionError::Ended)
        ));
    }
}

async fn wait_for_next_ms() {
    let start = support::clock::now_ms();
    while support::clock::now_ms() == start {
        tokio::task::yield_now().await;
    }
}
