//! Quotas on asset numbers (operation 9), per application, per minute and per UTC day: a call
//! over a quota is refused whole, the counts are exact under concurrency and survive restarts.

use platform::OwnQuota;
use serde_json::{Value, json};
use support::clock::now_ms;

use crate::common::{Platform, Reply, assert_resets, day_end, minute_end, within_one_minute};

const SHELLNUMS: &str = "/order/api/order/v1/shellnums";

/// Seconds a test's calls may take and still fall in one minute.
const MARGIN_S: i64 = 15;

fn quota(per_minute: Option<u32>, per_day: Option<u32>) -> OwnQuota {
    OwnQuota {
        quota_numbers_per_minute: per_minute,
        quota_numbers_per_day: per_day,
    }
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

/// The asset-number counter as stored: how many numbers were ever handed out.
fn counter(p: &Platform) -> i64 {
    p.row(
        "SELECT coalesce((SELECT value FROM counters WHERE name = 'shellnum'), 0)",
        &[],
    )
    .i64(0)
}

/// An application of `p` with its own quotas, and its token.
async fn app_with(p: &Platform, own: OwnQuota) -> String {
    let app = p.new_app_with_quota(&["auth_order"], own).await;
    p.token_for(&app).await
}

/// Takes `size` asset numbers as the app of `token`, noting when the call was sent and answered.
async fn take(p: &Platform, token: &str, size: u32) -> (Reply, (i64, i64)) {
    let before = now_ms();
    let reply = p.post_as(token, SHELLNUMS, json!({"size": size})).await;
    (reply, (before, now_ms()))
}

/// Asserts a 13004 refusal over a quota, with its message exact but for the reset time.
#[track_caller]
fn assert_over(reply: &Reply, prefix: &str, resets: i64, sent: (i64, i64)) {
    assert_eq!(reply.status, 299, "{}", reply.body);
    assert_eq!(reply.body["code"], json!("13004"), "{}", reply.body);
    assert_eq!(
        reply.body["cause"],
        json!("quota exceeded; nothing was allocated")
    );
    assert!(reply.body.get("data").is_none(), "{}", reply.body);
    let message = reply.body["message"].as_str().expect("message");
    assert_resets(message, prefix, (resets, resets), sent);
}

#[tokio::test]
async fn a_call_over_the_minute_quota_is_refused_whole() {
    let p = Platform::start().await;
    let token = app_with(&p, quota(Some(5), None)).await;
    within_one_minute(MARGIN_S).await;

    let (first, _) = take(&p, &token, 3).await;
    assert_eq!(numbers(&first), ["8000000001", "8000000002", "8000000003"]);
    let (over, sent) = take(&p, &token, 3).await;
    assert_over(
        &over,
        "size: over the quota of asset numbers, 5 a minute for this application: 3 asked, 2 left; the quota resets at ",
        minute_end(sent.0),
        sent,
    );
    assert_eq!(counter(&p), 3, "nothing allocated by the refused call");

    // The next numbers follow the last ones given: the refusal took none.
    let (rest, _) = take(&p, &token, 2).await;
    assert_eq!(numbers(&rest), ["8000000004", "8000000005"]);
    let (empty, sent) = take(&p, &token, 1).await;
    assert_over(
        &empty,
        "size: over the quota of asset numbers, 5 a minute for this application: 1 asked, 0 left; the quota resets at ",
        minute_end(sent.0),
        sent,
    );
    // Another application's numbers are its own (the default quota: 20,000 a minute).
    assert_eq!(
        numbers(&p.post(SHELLNUMS, json!({"size": 1000})).await).len(),
        1000
    );
    assert_eq!(counter(&p), 1005);
}

#[tokio::test]
async fn concurrent_calls_never_take_more_than_the_quota() {
    let p = Platform::start().await;
    let token = app_with(&p, quota(Some(5), None)).await;
    within_one_minute(MARGIN_S).await;

    let calls: Vec<_> = (0..8)
        .map(|_| p.post_as(&token, SHELLNUMS, json!({"size": 1})))
        .collect();
    let replies = futures::future::join_all(calls).await;
    let given = replies.iter().filter(|r| r.status == 200).count();
    let refused: Vec<&Reply> = replies.iter().filter(|r| r.status != 200).collect();
    assert_eq!(given, 5, "{replies:?}");
    for r in refused {
        assert_eq!(r.body["code"], json!("13004"), "{}", r.body);
        let message = r.body["message"].as_str().expect("message");
        assert!(
            message.starts_with("size: over the quota of asset numbers, 5 a minute for this application: 1 asked, 0 left; "),
            "{message}"
        );
    }
    assert_eq!(counter(&p), 5);
}

#[tokio::test]
async fn quotas_hold_across_a_restart_and_the_day_s_is_named_when_both_are_over() {
    let mut p = Platform::start().await;
    let minute_app = p
        .new_app_with_quota(&["auth_order"], quota(Some(5), Some(100)))
        .await;
    let day_app = p
        .new_app_with_quota(&["auth_order"], quota(None, Some(3)))
        .await;
    let both_app = p
        .new_app_with_quota(&["auth_order"], quota(Some(2), Some(2)))
        .await;
    within_one_minute(MARGIN_S).await;
    let (minute_token, day_token, both_token) = (
        p.token_for(&minute_app).await,
        p.token_for(&day_app).await,
        p.token_for(&both_app).await,
    );
    assert_eq!(numbers(&take(&p, &minute_token, 5).await.0).len(), 5);
    assert_eq!(numbers(&take(&p, &day_token, 3).await.0).len(), 3);
    assert_eq!(numbers(&take(&p, &both_token, 2).await.0).len(), 2);

    p.restart().await;
    // Tokens outlive a restart; the counts are in the database.
    let (over, sent) = take(&p, &minute_token, 1).await;
    assert_over(
        &over,
        "size: over the quota of asset numbers, 5 a minute for this application: 1 asked, 0 left; the quota resets at ",
        minute_end(sent.0),
        sent,
    );
    let (over, sent) = take(&p, &day_token, 1).await;
    assert_over(
        &over,
        "size: over the quota of asset numbers, 3 a day (UTC) for this application: 1 asked, 0 left; the quota resets at ",
        day_end(sent.0),
        sent,
    );
    // Waiting for the minute would not help: the refusal names the day.
    let (over, sent) = take(&p, &both_token, 1).await;
    assert_over(
        &over,
        "size: over the quota of asset numbers, 2 a day (UTC) for this application: 1 asked, 0 left; the quota resets at ",
        day_end(sent.0),
        sent,
    );
    assert_eq!(counter(&p), 10);
    let stored: Vec<(String, i64)> = usage(&p, &minute_app.app_key);
    assert_eq!(
        stored,
        [
            ("numbers/day".to_owned(), 5),
            ("numbers/minute".to_owned(), 5)
        ]
    );
}

/// What the platform has counted for an application, by window kind.
fn usage(p: &Platform, app_key: &str) -> Vec<(String, i64)> {
    p.rows(
        "SELECT window_kind, used FROM app_usage WHERE app_key = ?1 ORDER BY window_kind",
        &[app_key],
    )
    .iter()
    .map(|r| (r.text(0), r.i64(1)))
    .collect()
}

#[tokio::test]
async fn a_refused_call_still_spends_its_nonce() {
    let p = Platform::start().await;
    let token = app_with(&p, quota(Some(0), None)).await;
    let nonce = crate::common::nonce();
    let send = || {
        p.raw(
            p.http
                .post(format!("{}{SHELLNUMS}", p.base))
                .bearer_auth(&token)
                .query(&[("g_nonce", nonce.as_str())])
                .json(&json!({"size": 1})),
        )
    };
    let first = send().await;
    let message: &Value = &first.body["message"];
    assert!(
        message
            .as_str()
            .is_some_and(|m| m.starts_with("size: over the quota of asset numbers, 0 a minute")),
        "{}",
        first.body
    );
    send().await.assert_13004(
        "g_nonce: already used by this application; send a fresh nonce with every call",
    );
    assert_eq!(counter(&p), 0);
}
