//! Operation 9: asset numbers never repeat, across concurrent callers and restarts.

use std::collections::HashSet;

use platform::Region;
use serde_json::json;

use crate::common::Platform;

const SHELLNUMS: &str = "/order/api/order/v1/shellnums";

fn numbers(reply: &crate::common::Reply) -> Vec<String> {
    reply
        .data()
        .as_array()
        .expect("array")
        .iter()
        .map(|v| v.as_str().expect("string").to_owned())
        .collect()
}

#[tokio::test]
async fn ten_digits_region_first_counting_up() {
    let p = Platform::start().await;
    let first = numbers(&p.post(SHELLNUMS, json!({"size": 3})).await);
    assert_eq!(first, ["8000000001", "8000000002", "8000000003"]);
    let next = numbers(&p.post(SHELLNUMS, json!({"size": 1000})).await);
    assert_eq!(next.len(), 1000);
    assert_eq!(next[0], "8000000004");
    assert_eq!(next[999], "8000001003");
    assert!(
        next.iter()
            .all(|n| n.len() == 10 && n.bytes().all(|b| b.is_ascii_digit()))
    );

    p.post(SHELLNUMS, json!({"size": 0}))
        .await
        .assert_13004("size: must be between 1 and 1000");
    p.post(SHELLNUMS, json!({"size": 1001}))
        .await
        .assert_13004("size: must be between 1 and 1000");
    p.post(SHELLNUMS, json!({}))
        .await
        .assert_13004("size: required");
}

#[tokio::test]
async fn singapore_region_and_exhaustion() {
    let p = Platform::start_with(|c| c.region = Region::Singapore).await;
    assert_eq!(
        numbers(&p.post(SHELLNUMS, json!({"size": 1})).await),
        ["6000000001"]
    );
    // Bring the counter near its end, as years of use would.
    p.execute("UPDATE counters SET value = 999999998 WHERE name = 'shellnum'")
        .await;
    p.post(SHELLNUMS, json!({"size": 2}))
        .await
        .assert_13004("size: only 1 asset numbers are left");
    assert_eq!(
        numbers(&p.post(SHELLNUMS, json!({"size": 1})).await),
        ["6999999999"]
    );
}

#[tokio::test]
async fn eight_concurrent_callers_get_distinct_numbers_and_restart_continues() {
    let mut p = Platform::start().await;
    let mut calls = Vec::new();
    for _ in 0..8 {
        calls.push(p.post(SHELLNUMS, json!({"size": 250})));
    }
    let replies = futures::future::join_all(calls).await;
    let mut seen = HashSet::new();
    for reply in &replies {
        for n in numbers(reply) {
            assert!(seen.insert(n.clone()), "{n} handed out twice");
        }
    }
    assert_eq!(seen.len(), 2000);
    let highest = seen.iter().max().expect("some").clone();
    assert_eq!(highest, "8000002000", "no gaps either");

    p.restart().await;
    assert_eq!(
        numbers(&p.post(SHELLNUMS, json!({"size": 1})).await),
        ["8000002001"]
    );
}
