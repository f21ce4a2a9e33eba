//! Requests that wait for a second person (issue 37), on both stores: filed pending with the
//! body's hash; decided once and by someone else; a changed body, a disabled requester, an
//! empty reason refused in words; two instances deciding at once on PostgreSQL: one wins.

use test_support::team_rig;

use team::people::{self, NewPerson};
use team::requests::{self, Decision, NewRequest, Settled, State};
use team::{TeamError, TeamStore};

const PASSWORD: &str = "长城长城 correct horse";

async fn people_of(store: &TeamStore) {
    let person = |name: &str, role: &str| NewPerson {
        name: name.to_owned(),
        display_name: None,
        role: role.to_owned(),
        branch: None,
        password: Some(PASSWORD.to_owned()),
        email: None,
    };
    people::init(store, person("wang", "admin"))
        .await
        .expect("wang");
    for (name, role) in [("li", "approver"), ("zhao", "approver"), ("chen", "staff")] {
        let mut p = person(name, role);
        if role == "staff" {
            p.branch = Some(people::Branch {
                code: "SH01".to_owned(),
                name: "上海".to_owned(),
            });
        }
        people::add(store, p).await.expect("a person");
    }
}

fn delete_by(requester: &str) -> NewRequest {
    delete_of(requester, "O-1", "8000000001")
}

/// A held delete of batch `order` removing `asset`.
fn delete_of(requester: &str, order: &str, asset: &str) -> NewRequest {
    NewRequest {
        requester: requester.to_owned(),
        role: "staff".to_owned(),
        branch: Some("SH01".to_owned()),
        operation: wire::Operation::BatchOrder,
        body: format!(
            r#"{{"channelCode":"CRM","channelOrderId":"{order}","orderList":[{{"orderType":"delete_asset","assetNum":"{asset}"}}]}}"#
        ),
        preview: Some(r#"{"orders":[]}"#.to_owned()),
        summary: "delete 1 asset".to_owned(),
        channel_order: Some(("CRM".to_owned(), order.to_owned())),
    }
}

/// One batch, one request (issue 55): the same batch sent again while it waits is the request
/// already filed; the same order id with another body is refused naming it; once it is
/// decided, the same batch may be filed anew.
#[tokio::test]
async fn the_same_batch_sent_twice_is_one_request() {
    for (kind, store, _dir) in team_rig::stores().await {
        people_of(&store).await;
        let first = requests::file(&store, delete_by("chen")).await.expect(kind);
        let again = requests::file(&store, delete_by("chen")).await.expect(kind);
        assert_eq!((first.request.id, again.request.id), (1, 1), "{kind}");
        assert_eq!((first.new, again.new), (true, false), "{kind}: filed once");
        let other = requests::file(&store, delete_of("chen", "O-1", "8000000002")).await;
        assert!(
            matches!(other, Err(TeamError::FiledOtherwise(1))),
            "{kind}: {other:?}"
        );
        assert_eq!(
            other.map(|r| r.request.id).unwrap_err().to_string(),
            "R-1 already waits for approval with this channelOrderId and another body: send \
             this batch with another channelOrderId, or wait until R-1 is decided"
        );
        let colleague = requests::file(&store, delete_by("wang"))
            .await
            .expect(kind)
            .request;
        assert_eq!(colleague.id, 2, "{kind}: another requester's is their own");
        let reject = Decision::Reject {
            reason: "not now".to_owned(),
        };
        requests::decide(&store, 1, "li", None, "test", reject)
            .await
            .expect(kind);
        let anew = requests::file(&store, delete_by("chen"))
            .await
            .expect(kind)
            .request;
        assert_eq!((anew.id, anew.state), (3, State::Pending), "{kind}");
        let listing = requests::Listing {
            requester: Some("chen".to_owned()),
            state: Some(State::Pending),
            limit: 10,
            ..requests::Listing::default()
        };
        let waiting = requests::list(&store, listing).await.expect(kind);
        assert_eq!(waiting.len(), 1, "{kind}");
    }
}

#[tokio::test]
async fn a_request_is_decided_once_by_someone_else() {
    for (kind, store, _dir) in team_rig::stores().await {
        people_of(&store).await;
        let filed = requests::file(&store, delete_by("chen"))
            .await
            .expect(kind)
            .request;
        assert_eq!((filed.id, filed.state), (1, State::Pending), "{kind}");
        let hash = filed.body_hash.clone();
        let approve = || Decision::Approve {
            body_hash: hash.clone(),
        };

        let own = requests::decide(&store, 1, "CHEN", None, "test", approve()).await;
        assert!(
            matches!(own, Err(TeamError::OwnRequest(1))),
            "{kind}: {own:?}"
        );
        let stale = Decision::Approve {
            body_hash: "0".repeat(64),
        };
        let changed = requests::decide(&store, 1, "li", None, "test", stale).await;
        assert!(
            matches!(changed, Err(TeamError::RequestChanged(1))),
            "{kind}: {changed:?}"
        );
        let no_reason = Decision::Reject {
            reason: "  ".to_owned(),
        };
        let bare = requests::decide(&store, 1, "li", None, "test", no_reason).await;
        assert!(
            matches!(bare, Err(TeamError::Invalid(_))),
            "{kind}: {bare:?}"
        );

        let approved = requests::decide(&store, 1, "li", None, "test", approve())
            .await
            .expect(kind);
        assert_eq!(approved.state, State::Approved);
        assert_eq!(approved.decided_by.as_deref(), Some("li"));
        let late = requests::decide(&store, 1, "zhao", None, "test", approve()).await;
        match late {
            Err(e @ TeamError::AlreadyDecided { .. }) => {
                assert_eq!(e.to_string(), "R-1 is approved already (decided by \"li\")");
            }
            other => panic!("{kind}: {other:?}"),
        }
        requests::sending(&store, 1, "test", "c-1")
            .await
            .expect(kind);
        let settled = Settled {
            state: State::Done,
            call_id: "c-1".to_owned(),
            code: None,
            message: None,
            answer: Some(r#"[{"sequence":1}]"#.to_owned()),
        };
        let sent = requests::settle(&store, 1, settled).await.expect(kind);
        assert_eq!(
            (sent.state, sent.call_id.as_deref()),
            (State::Done, Some("c-1"))
        );
        assert_eq!(sent.answer, Some(serde_json::json!([{"sequence": 1}])));

        // Rejected with a reason; a request of someone disabled since is not approved.
        let second = requests::file(&store, delete_by("chen"))
            .await
            .expect(kind)
            .request;
        let reason = Decision::Reject {
            reason: "wrong customer".to_owned(),
        };
        let rejected = requests::decide(&store, second.id, "zhao", None, "test", reason)
            .await
            .expect(kind);
        assert_eq!(rejected.reason.as_deref(), Some("wrong customer"));
        let third = requests::file(&store, delete_by("chen"))
            .await
            .expect(kind)
            .request;
        people::set_disabled(&store, "chen", true)
            .await
            .expect("disabled");
        let approve_third = Decision::Approve {
            body_hash: third.body_hash.clone(),
        };
        let refused = requests::decide(&store, third.id, "li", None, "test", approve_third).await;
        assert!(
            matches!(refused, Err(TeamError::RequesterDisabled(3, _))),
            "{kind}: {refused:?}"
        );
        let listing = requests::Listing {
            requester: Some("chen".to_owned()),
            limit: 10,
            ..requests::Listing::default()
        };
        let mine = requests::list(&store, listing).await.expect(kind);
        let states: Vec<State> = mine.iter().map(|r| r.state).collect();
        assert_eq!(
            states,
            [State::Pending, State::Rejected, State::Done],
            "{kind}"
        );
    }
}

/// Two instances on one PostgreSQL database, approvers deciding the same requests at once:
/// each request has exactly one decision, and every other approver is told it was taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_deciding_at_once_take_one_decision() {
    let Some(url) = test_support::pg_cluster::database().await else {
        return;
    };
    let one = team_rig::postgres(&url).await;
    let two = team_rig::postgres(&url).await;
    people_of(&one).await;
    let mut ids = Vec::new();
    for i in 0..10 {
        let filed = requests::file(&one, delete_of("chen", &format!("O-{i}"), "8000000001"))
            .await
            .expect("filed")
            .request;
        ids.push((filed.id, filed.body_hash));
    }
    let mut all = tokio::task::JoinSet::new();
    for (id, hash) in &ids {
        for (store, approver) in [(&one, "li"), (&two, "zhao"), (&one, "wang")] {
            let (store, approver, id) = (store.clone(), approver.to_owned(), *id);
            let decision = match approver.as_str() {
                "zhao" => Decision::Reject {
                    reason: "no".to_owned(),
                },
                _ => Decision::Approve {
                    body_hash: hash.clone(),
                },
            };
            all.spawn(async move {
                requests::decide(&store, id, &approver, None, "test", decision).await
            });
        }
    }
    let (mut won, mut told) = (0, 0);
    while let Some(done) = all.join_next().await {
        match done.expect("joined") {
            Ok(_) => won += 1,
            Err(TeamError::AlreadyDecided { .. }) => told += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!((won, told), (10, 20));
    for (id, _) in ids {
        let r = requests::get(&two, id).await.expect("kept");
        assert_ne!(r.state, State::Pending, "R-{id}");
    }
}

/// A sender paused past its time cannot end a request another instance approved again and
/// claimed meanwhile: its late outcome is refused (its claim was taken) and the other's
/// sending goes on untouched, so the request cannot end `not_sent` while it is being sent
/// (and be approved a third time). Issue 53.
#[tokio::test]
async fn a_late_sender_cannot_end_a_request_claimed_by_another() {
    for (kind, store, _dir) in team_rig::stores().await {
        people_of(&store).await;
        let filed = requests::file(&store, delete_by("chen"))
            .await
            .expect(kind)
            .request;
        let approve = || Decision::Approve {
            body_hash: filed.body_hash.clone(),
        };
        requests::decide(&store, 1, "li", None, "paused", approve())
            .await
            .expect(kind);
        requests::sending(&store, 1, "paused", "c-paused")
            .await
            .expect(kind);
        // "paused" is not seen: "other" settles its request, and approves and claims it again.
        let settled = team::instances::beat(&store, "other", None)
            .await
            .expect(kind);
        assert_eq!(settled.requests.len(), 1, "{kind}");
        requests::decide(&store, 1, "zhao", None, "other", approve())
            .await
            .expect(kind);
        requests::sending(&store, 1, "other", "c-other")
            .await
            .expect(kind);

        let late = Settled {
            state: State::NotSent,
            call_id: "c-paused".to_owned(),
            code: None,
            message: Some("claim taken".to_owned()),
            answer: None,
        };
        let refused = requests::settle(&store, 1, late).await;
        assert!(
            matches!(refused, Err(TeamError::ClaimTaken(1))),
            "{kind}: {refused:?}"
        );
        let now = requests::get(&store, 1).await.expect(kind);
        assert_eq!(
            (now.state, now.call_id.as_deref()),
            (State::Approved, Some("c-other")),
            "{kind}"
        );
    }
}
