//! Two `serve` instances on one PostgreSQL database behave as one platform: hammered together,
//! they keep every guarantee one instance keeps. PostgreSQL only (`LICENSE_DESK_STORE=postgres`).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use futures::future::join_all;
use serde_json::{Value, json};

use crate::activities::{body, claim};
use crate::common::{Platform, Reply, batch_of, new_buy, on_postgres};

const SHELLNUMS: &str = "/order/api/order/v1/shellnums";
const REUSED: &str =
    "g_nonce: already used by this application; send a fresh nonce with every call";

/// On SQLite there is nothing to test: one process owns a data directory (its lock).
fn skipped() -> bool {
    if !on_postgres() {
        eprintln!("skipped on SQLite: two instances share a PostgreSQL database");
    }
    !on_postgres()
}

/// A platform and a second instance on its database.
async fn two(p: Platform) -> [Platform; 2] {
    let twin = p.twin().await;
    [p, twin]
}

fn numbers(reply: &Reply) -> Vec<String> {
    reply
        .data()
        .as_array()
        .expect("array")
        .iter()
        .map(|v| v.as_str().expect("string").to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn asset_numbers_from_both_instances_never_repeat_and_none_is_lost() {
    if skipped() {
        return;
    }
    let both = two(Platform::start().await).await;
    // 2 instances × 6 callers × 10 calls of 7 numbers, all at once.
    let calls = (0..12).map(|caller| {
        let p = &both[caller % 2];
        async move {
            let mut got = Vec::new();
            for _ in 0..10 {
                let n = numbers(&p.post(SHELLNUMS, json!({"size": 7})).await);
                assert_eq!(n.len(), 7);
                let first: u64 = n[0].parse().expect("number");
                let expected: Vec<String> = (first..first + 7).map(|x| x.to_string()).collect();
                assert_eq!(n, expected, "one call's numbers are contiguous");
                got.extend(n);
            }
            got
        }
    });
    let all: Vec<String> = join_all(calls).await.into_iter().flatten().collect();
    assert_eq!(all.len(), 12 * 10 * 7);
    let distinct: HashSet<&String> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "a number was handed out twice");
    // None lost: exactly 8000000001 ..= 8000000840 were handed out.
    let expected: HashSet<String> = (8_000_000_001u64..=8_000_000_840)
        .map(|n| n.to_string())
        .collect();
    assert_eq!(distinct, expected.iter().collect());
    let counter = both[0]
        .row("SELECT value FROM counters WHERE name = 'shellnum'", &[])
        .i64(0);
    assert_eq!(counter, 840);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_once_only_unit_claimed_on_both_instances_is_won_once() {
    if skipped() {
        return;
    }
    let (p, _files) = crate::activities::platform().await;
    let both = two(p).await;
    // One participant, 10 claims on each instance at once, a unit of one claim each.
    let same = (0..20).map(|i| claim(&both[i % 2], body("13700137000", "race")));
    let replies = join_all(same).await;
    let won = replies
        .iter()
        .filter(|r| r.body["resultCode"] == "0000")
        .count();
    assert_eq!(won, 1, "{replies:?}");
    for r in replies.iter().filter(|r| r.body["resultCode"] != "0000") {
        assert_eq!(
            r.body["activityDtoList"][0]["engineSubActivityDtos"][0]["errorCode"], 14005,
            "{}",
            r.body
        );
    }
    // 30 participants on both at once, a stock of 5 (one gone): exactly 4 more.
    let many = (0..30).map(|i| claim(&both[i % 2], body(&format!("136{i:08}"), "race")));
    let replies = join_all(many).await;
    let won = replies
        .iter()
        .filter(|r| r.body["resultCode"] == "0000")
        .count();
    assert_eq!(won, 4, "stock 5, one claimed before");
    assert_eq!(both[1].count("claims"), 5);
}

fn one_order_batch(id: &str, asset: &str) -> Value {
    batch_of(
        id,
        vec![new_buy(1, "C-1", "normal_recover_usbkey", asset, &["P-1"])],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_same_batch_sent_to_both_at_once_is_created_once_with_one_answer() {
    if skipped() {
        return;
    }
    let both = two(Platform::start().await).await;
    for round in 0..5 {
        let id = format!("TWICE-{round}");
        let body = one_order_batch(&id, &format!("80000009{round:02}"));
        let replies = join_all((0..4).map(|i| both[i % 2].batch(body.clone()))).await;
        let first = replies[0].data().clone();
        for r in &replies {
            assert_eq!(r.data(), &first, "every sender gets the one answer");
        }
        assert_eq!(
            both[0]
                .row(
                    "SELECT count(*) FROM batches WHERE channel_order_id = ?1",
                    &[&id]
                )
                .i64(0),
            1
        );
    }
    assert_eq!(both[0].count("license_orders"), 5);
    assert_eq!(both[0].count("assets"), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn async_batches_sent_to_both_are_each_applied_exactly_once() {
    if skipped() {
        return;
    }
    let both = two(Platform::start().await).await;
    let n = 20;
    let sent = (0..n).map(|i| {
        let mut body = one_order_batch(&format!("ASYNC-{i}"), &format!("80000007{i:02}"));
        body["syncMode"] = json!("async");
        both[i % 2].batch(body)
    });
    for r in join_all(sent).await {
        r.data();
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let states = both[0].rows("SELECT state FROM batches ORDER BY id", &[]);
        assert_eq!(states.len(), n);
        if states.iter().all(|s| s.text(0) != "pending") {
            let applied = states.iter().filter(|s| s.text(0) == "applied").count();
            assert_eq!(applied, n, "every batch applied, none failed");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "batches still pending after 30 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Applied once each: one license order and one asset per batch, no more.
    assert_eq!(both[1].count("license_orders"), n as i64);
    assert_eq!(both[1].count("assets"), n as i64);
}

async fn shellnum_with(p: &Platform, nonce: &str) -> Reply {
    p.raw(
        p.http
            .post(format!("{}{SHELLNUMS}", p.base))
            .bearer_auth(&p.token)
            .query(&[("g_nonce", nonce)])
            .json(&json!({"size": 1})),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_nonce_sent_to_both_is_accepted_once() {
    if skipped() {
        return;
    }
    let both = two(Platform::start().await).await;
    for round in 0..10 {
        let nonce = format!("twin-{round}-{}", crate::common::nonce());
        let (a, b) = tokio::join!(
            shellnum_with(&both[0], &nonce),
            shellnum_with(&both[1], &nonce)
        );
        let (won, lost) = if a.status == 200 && a.body["code"] == json!(0) {
            (a, b)
        } else {
            (b, a)
        };
        assert_eq!(numbers(&won).len(), 1, "{}", won.body);
        lost.assert_13004(REUSED);
    }
    assert_eq!(both[0].count("nonce_log"), 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_quota_is_counted_once_across_both_instances() {
    if skipped() {
        return;
    }
    let both = two(Platform::start().await).await;
    let quota = platform::OwnQuota {
        quota_numbers_per_minute: Some(5),
        quota_numbers_per_day: None,
    };
    let app = both[0].new_app_with_quota(&["auth_order"], quota).await;
    let token = both[0].token_for(&app).await;
    crate::common::within_one_minute(15).await;
    // 12 calls of one number each, half on each instance, all at once: exactly 5 fit.
    let calls = (0..12).map(|i| both[i % 2].post_as(&token, SHELLNUMS, json!({"size": 1})));
    let replies = join_all(calls).await;
    let given = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(given, 5, "{replies:?}");
    for refused in replies.iter().filter(|r| r.status != 200) {
        assert_eq!(refused.body["code"], json!("13004"), "{}", refused.body);
    }
    let counter = both[1]
        .row("SELECT value FROM counters WHERE name = 'shellnum'", &[])
        .i64(0);
    assert_eq!(counter, 5, "refused calls burned no number");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn locks_changed_on_both_instances_at_once_are_recorded_once_per_change() {
    if skipped() {
        return;
    }
    let both = two(Platform::start().await).await;
    let nums: Vec<String> = (1..=5).map(|i| format!("82000000{i:02}")).collect();
    let orders = nums
        .iter()
        .enumerate()
        .map(|(i, num)| {
            new_buy(
                i as i32 + 1,
                "TWIN-L",
                "normal_recover_usbkey",
                num,
                &["P-1"],
            )
        })
        .collect();
    both[0].batch(batch_of("B-TWIN-LOCKS", orders)).await.data();
    // 24 calls over the same five locks, lock and unlock alternately, on both instances at once:
    // each is answered success for every lock, and each lock's events alternate (no change is
    // recorded twice) and end in its stored state.
    let calls = (0..24).map(|i| {
        let path = if i % 2 == 0 {
            "/order/api/order/v1/asset/lock"
        } else {
            "/order/api/order/v1/asset/unlock"
        };
        let body = json!({"assetNums": nums, "operatorIdentity": format!("op{i}")});
        both[(i / 2) % 2].post(path, body)
    });
    for reply in join_all(calls).await {
        let statuses: Vec<i64> = reply
            .data()
            .as_array()
            .expect("statuses")
            .iter()
            .map(|s| s["status"].as_i64().expect("status"))
            .collect();
        assert_eq!(statuses, vec![1; 5], "{}", reply.body);
    }
    for num in &nums {
        let events: Vec<bool> = both[1]
            .rows(
                "SELECT locked FROM lock_events WHERE asset_num = $1 ORDER BY id",
                &[num],
            )
            .iter()
            .map(|r| r.i64(0) != 0)
            .collect();
        assert!(!events.is_empty(), "{num} was never changed");
        assert!(
            events.windows(2).all(|w| w[0] != w[1]),
            "{num}: a change recorded twice: {events:?}"
        );
        let stored = both[1]
            .row("SELECT locked FROM assets WHERE asset_num = $1", &[num])
            .i64(0)
            != 0;
        assert_eq!(events.last(), Some(&stored), "{num}");
    }
}
