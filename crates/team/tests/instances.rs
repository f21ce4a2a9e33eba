//! Writes left in flight by an instance that stopped are settled by the others, and those of
//! a running instance are not; on both stores.

use test_support::team_rig;

use db::sql::Value;
use team::TeamError;
use team::instances::{self, STOPPED};
use team::requests::State;

/// Also the writes of an instance no longer listed at all (issue 53: one taken for stopped and
/// removed would otherwise leave the writes it began after it went on in flight for ever).
#[tokio::test]
async fn a_stopped_instance_s_writes_are_settled_as_not_sent_or_unknown() {
    for (kind, store, _dir) in team_rig::stores().await {
        let now = support::clock::now_ms();
        store
            .write(move |tx| {
                for (id, seen) in [("stopped", 0), ("running", now)] {
                    tx.execute(
                        "INSERT INTO team_instances(id, started_at, seen_at) VALUES (?1, 0, ?2)",
                        &[id.into(), seen.into()],
                    )?;
                }
                // "vanished" is no longer listed: it was taken for stopped and removed, went
                // on (it was only paused), began a write and died before it beat again.
                let writes: [(&str, &str, Option<i64>); 4] = [
                    ("w-never-left", "stopped", None),
                    ("w-left", "stopped", Some(1)),
                    ("w-running", "running", Some(1)),
                    ("w-vanished", "vanished", Some(1)),
                ];
                for (call, instance, sending) in writes {
                    tx.execute(
                        "INSERT INTO team_writes(call_id, instance, person, operation, \
                             body_hash, items, state, sending_at, started_at) \
                         VALUES (?1, ?2, 'lisi', 'lock', 'h', 1, 'in_flight', ?3, 0)",
                        &[call.into(), instance.into(), Value::from(sending)],
                    )?;
                }
                Ok::<_, TeamError>(())
            })
            .await
            .expect(kind);

        let settled = instances::beat(&store, "me", None).await.expect(kind);
        assert_eq!(settled.writes, 3, "{kind}");
        let rows = store
            .read(|tx| {
                let mut rows = Vec::new();
                tx.query_each(
                    "SELECT call_id, state, detail FROM team_writes ORDER BY call_id",
                    &[],
                    &mut |row| {
                        rows.push((row.text(0)?, row.text(1)?, row.opt_text(2)?));
                        Ok(std::ops::ControlFlow::Continue(()))
                    },
                )?;
                Ok::<_, TeamError>(rows)
            })
            .await
            .expect(kind);
        let stopped = Some(STOPPED.to_owned());
        assert_eq!(
            rows,
            [
                ("w-left".to_owned(), "unknown".to_owned(), stopped.clone()),
                (
                    "w-never-left".to_owned(),
                    "not_sent".to_owned(),
                    stopped.clone()
                ),
                ("w-running".to_owned(), "in_flight".to_owned(), None),
                ("w-vanished".to_owned(), "unknown".to_owned(), stopped),
            ],
            "{kind}"
        );
    }
}

/// An approved request an instance was sending when it stopped follows its write: unknown
/// when the write may have left, not sent (and so may be approved again) when it never did.
#[tokio::test]
async fn a_stopped_instance_s_approved_requests_follow_their_writes() {
    for (kind, store, _dir) in team_rig::stores().await {
        store
            .write(|tx| {
                tx.execute(
                    "INSERT INTO team_instances(id, started_at, seen_at) VALUES ('gone', 0, 0)",
                    &[],
                )?;
                for (seq, call, sending) in [(1, "w-left", Some(1)), (2, "w-never-left", None)] {
                    tx.execute(
                        "INSERT INTO team_writes(call_id, instance, person, operation, \
                             body_hash, items, state, sending_at, started_at) \
                         VALUES (?1, 'gone', 'li', 'batch_order', 'h', 1, 'in_flight', ?2, 0)",
                        &[call.into(), Value::from(sending)],
                    )?;
                    tx.execute(
                        "INSERT INTO requests(seq, requester, role, operation, body, body_hash, \
                             summary, state, created_at, decided_by, call_id) \
                         VALUES (?1, 'li', 'staff', 'batch_order', '{}', 'h', 's', 'approved', \
                             0, 'wang', ?2)",
                        &[Value::from(seq), call.into()],
                    )?;
                }
                Ok::<_, TeamError>(())
            })
            .await
            .expect(kind);
        instances::beat(&store, "me", None).await.expect(kind);
        for (id, state) in [(1, State::Unknown), (2, State::NotSent)] {
            let r = team::requests::get(&store, id).await.expect(kind);
            assert_eq!(r.state, state, "{kind}: R-{id}");
            assert_eq!(r.message.as_deref(), Some(STOPPED), "{kind}");
        }
    }
}

/// No request stays approved for ever: one whose sender stopped before any write of it began
/// is not sent (and may be approved again), one whose write ended follows it (also done), and
/// one whose sender still runs is left to it.
#[tokio::test]
async fn a_stopped_sender_s_approved_requests_are_settled_whatever_its_writes_became() {
    for (kind, store, _dir) in team_rig::stores().await {
        let now = support::clock::now_ms();
        store
            .write(move |tx| {
                for (id, seen) in [("gone", 0), ("running", now)] {
                    tx.execute(
                        "INSERT INTO team_instances(id, started_at, seen_at) VALUES (?1, 0, ?2)",
                        &[id.into(), seen.into()],
                    )?;
                }
                tx.execute(
                    "INSERT INTO team_writes(call_id, instance, person, operation, body_hash, \
                         items, state, sending_at, started_at) \
                     VALUES ('w-done', 'gone', 'li', 'batch_order', 'h', 1, 'done', 1, 0)",
                    &[],
                )?;
                let requests: [(i64, &str, Option<&str>); 4] = [
                    (1, "gone", None),
                    (2, "gone", Some("w-never-begun")),
                    (3, "gone", Some("w-done")),
                    (4, "running", None),
                ];
                for (seq, sender, call) in requests {
                    tx.execute(
                        "INSERT INTO requests(seq, requester, role, operation, body, body_hash, \
                             summary, state, created_at, decided_by, call_id, sender) \
                         VALUES (?1, 'li', 'staff', 'batch_order', '{}', 'h', 's', 'approved', \
                             0, 'wang', ?2, ?3)",
                        &[Value::from(seq), Value::from(call), sender.into()],
                    )?;
                }
                Ok::<_, TeamError>(())
            })
            .await
            .expect(kind);
        let settled = instances::beat(&store, "me", None).await.expect(kind);
        let said = |id: &str, state: &str| instances::SettledRequest {
            request: id.to_owned(),
            state: state.to_owned(),
        };
        assert_eq!(
            settled.requests,
            [
                said("R-1", "not_sent"),
                said("R-2", "not_sent"),
                said("R-3", "done")
            ],
            "{kind}"
        );
        let recorded = team::audit::range(&store, 0, i64::MAX, None)
            .await
            .expect(kind);
        let recorded: Vec<(&str, &str)> = recorded
            .iter()
            .map(|e| (e.record.operation.as_str(), e.record.outcome.as_str()))
            .collect();
        assert_eq!(
            recorded,
            [
                (instances::SETTLED, "not_sent"),
                (instances::SETTLED, "not_sent"),
                (instances::SETTLED, "done")
            ],
            "{kind}: each settled request is in the record"
        );
        let states = [State::NotSent, State::NotSent, State::Done, State::Approved];
        for (id, state) in (1..).zip(states) {
            let r = team::requests::get(&store, id).await.expect(kind);
            assert_eq!(r.state, state, "{kind}: R-{id}");
        }
    }
}
