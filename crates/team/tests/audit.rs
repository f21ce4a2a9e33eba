//! The audit log's chain on both stores: whole as written, and broken at exactly the entry
//! that was changed or removed; retention keeps what is left provable; two instances append
//! one chain.

use test_support::team_rig;

use team::audit::{self, Record, Verified};
use team::{TeamError, TeamStore};

fn record(i: usize) -> Record {
    Record {
        person: format!("p{}", i % 3),
        role: "staff".to_owned(),
        branch: Some("SH01".to_owned()),
        operation: "lock".to_owned(),
        request: Some(format!("{{\"assetNums\":[\"80000000{i:02}\"]}}")),
        outcome: "done".to_owned(),
        ..Record::default()
    }
}

async fn execute(store: &TeamStore, sql: &'static str) {
    store
        .write(move |tx| tx.execute(sql, &[]).map_err(TeamError::from))
        .await
        .expect(sql);
}

/// Where verification stopped: (entry, why), or the count when whole.
async fn verified(store: &TeamStore) -> Result<u64, (i64, String)> {
    match audit::verify(store).await.expect("verify") {
        Verified::Whole(n) => Ok(n),
        Verified::Broken { entry, why } => Err((entry.seq, why)),
        Verified::Contradicted { why } => Err((0, why)),
    }
}

#[tokio::test]
async fn a_changed_or_missing_entry_is_named() {
    for (kind, store, _dir) in team_rig::stores().await {
        for i in 1..=6 {
            assert_eq!(
                audit::append(&store, record(i), None).await.expect(kind),
                i as i64
            );
        }
        assert_eq!(verified(&store).await, Ok(6), "{kind}");

        execute(
            &store,
            "UPDATE audit SET request = replace(request, '8', '9') WHERE seq = 4",
        )
        .await;
        assert_eq!(
            verified(&store).await,
            Err((
                4,
                "its hash does not follow from entry 3 and its own content".to_owned()
            )),
            "{kind}: one byte changed"
        );
        execute(
            &store,
            "UPDATE audit SET request = replace(request, '9', '8') WHERE seq = 4",
        )
        .await;
        assert_eq!(verified(&store).await, Ok(6), "{kind}: changed back");

        execute(&store, "DELETE FROM audit WHERE seq = 2").await;
        assert_eq!(
            verified(&store).await,
            Err((3, "entry 2 is missing before it".to_owned())),
            "{kind}"
        );
    }
}

#[tokio::test]
async fn retention_drops_from_the_start_and_what_is_left_still_proves() {
    for (kind, store, _dir) in team_rig::stores().await {
        for i in 1..=3 {
            audit::append(&store, record(i), None).await.expect(kind);
        }
        let cut = support::clock::now_ms() + 1;
        while support::clock::now_ms() < cut + 1 {
            tokio::task::yield_now().await;
        }
        for i in 4..=5 {
            audit::append(&store, record(i), None).await.expect(kind);
        }
        assert_eq!(
            audit::drop_before(&store, cut, None).await.expect(kind),
            3,
            "{kind}"
        );
        // Retention is an entry of the chain itself: the start it moved is accounted for.
        assert_eq!(verified(&store).await, Ok(3), "{kind}");
        let sealed = audit::verify_sealed(&store, None, Vec::new()).await;
        assert_eq!(sealed.expect(kind), Verified::Whole(3), "{kind}");
        assert_eq!(
            audit::append(&store, record(6), None).await.expect(kind),
            7,
            "{kind}"
        );
        assert_eq!(verified(&store).await, Ok(4), "{kind}");
        let last = audit::last_of(&store, "p0", 100).await.expect(kind);
        let seqs: Vec<i64> = last.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [7], "{kind}: p0's entries left, newest first");
    }
}

/// Two instances on one PostgreSQL database appending at once: one chain, whole.
#[tokio::test]
async fn two_instances_append_one_chain() {
    let Some(url) = test_support::pg_cluster::database().await else {
        return;
    };
    let one = team_rig::postgres(&url).await;
    let two = team_rig::postgres(&url).await;
    let mut tasks = Vec::new();
    for i in 0..40 {
        let store = if i % 2 == 0 { one.clone() } else { two.clone() };
        tasks.push(tokio::spawn(async move {
            audit::append(&store, record(i), None).await
        }));
    }
    for task in tasks {
        task.await.expect("task").expect("appended");
    }
    assert_eq!(verified(&one).await, Ok(40));
}

/// 300 appends at once through the group-committing writer: each answered with its own
/// place, the places one unbroken run, and the chain whole (both stores).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_at_once_are_committed_in_groups_into_one_chain() {
    for (name, store, _dir) in team_rig::stores().await {
        let appender = team::appender::Appender::start(store.clone(), None);
        let mut all = tokio::task::JoinSet::new();
        for i in 0..300 {
            let appender = appender.clone();
            all.spawn(async move { appender.append(record(i)).await });
        }
        let mut seqs = Vec::new();
        while let Some(done) = all.join_next().await {
            seqs.push(done.expect("joined").expect("appended"));
        }
        seqs.sort_unstable();
        assert_eq!(seqs, (1..=300).collect::<Vec<i64>>(), "{name}");
        assert_eq!(verified(&store).await, Ok(300), "{name}");
    }
}

/// A time range, everyone's or one person's, on both stores (`team audit export` reads it).
#[tokio::test]
async fn a_range_is_read_whole_or_for_one_person() {
    for (kind, store, _dir) in team_rig::stores().await {
        for i in 0..6 {
            audit::append(&store, record(i), None).await.expect(kind);
        }
        let all = audit::range(&store, 0, i64::MAX, None).await.expect(kind);
        assert_eq!(all.len(), 6, "{kind}");
        let p1 = audit::range(&store, 0, i64::MAX, Some("p1".to_owned()))
            .await
            .expect(kind);
        let seqs: Vec<i64> = p1.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [2, 5], "{kind}");
    }
}
