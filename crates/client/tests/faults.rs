//! The client's own rules, against the real embedded platform behind a fault-injecting proxy:
//! a read is tried again after a failure that may or may not have reached the platform; a write
//! whose answer was lost is never sent again by itself unless its profile says the platform
//! recognises repeats, and is "outcome unknown" until then.

use std::sync::Arc;
use std::time::Duration;

use client::{ApiError, Client, ClientConfig, NoObserver, Operation, Secret};
use test_support::fault_proxy::{Fault, FaultProxy};
use test_support::platform_rig::Platform;
use wire::{BatchOrderRequest, CustomerQuery};

/// A platform, a proxy in front of it, and a client of the platform through the proxy.
async fn behind_proxy(repeats_recognised: bool) -> (Platform, FaultProxy, Client) {
    let platform = Platform::start().await;
    let base = platform.base.clone();
    let proxy = tokio::task::spawn_blocking(move || FaultProxy::start(&base))
        .await
        .expect("the proxy starts");
    let secret = Secret::new(platform.app.app_secret.clone());
    let mut config = ClientConfig::new(&proxy.base, &platform.app.app_key, secret);
    config.backoff = Duration::from_millis(10);
    config.repeats_recognised = repeats_recognised;
    let client = Client::new(config, Arc::new(NoObserver)).expect("a client");
    (platform, proxy, client)
}

/// A batch of one new purchase on two asset numbers the platform allocated.
async fn purchase(client: &Client, id: &str) -> BatchOrderRequest {
    let nums = client.shellnums(2).await.expect("asset numbers");
    serde_json::from_value(serde_json::json!({
        "channelCode": "SHOP",
        "channelOrderId": id,
        "syncMode": "sync",
        "orderList": [{
            "sequence": 1,
            "channelCustomerId": "C-1",
            "customerName": "上海客户",
            "licenseType": "normal_recover_usbkey",
            "orderType": "new_buy",
            "assets": [{
                "assetNos": nums,
                "limitEndDate": 1_798_761_599_999_i64,
                "products": [{"productUri": "gms:1001", "productName": "基础版", "limitConcurrent": 1}]
            }]
        }]
    }))
    .expect("a batch")
}

#[tokio::test]
async fn a_read_is_tried_again_after_a_reset_and_a_lost_answer() {
    let (_platform, proxy, client) = behind_proxy(false).await;
    proxy.then(&[Fault::ResetBeforeForward, Fault::DropAnswer]);
    let query = CustomerQuery {
        channel_code: Some("SHOP".to_owned()),
        channel_customer_id: Some("C-1".to_owned()),
        default_customer: None,
    };
    let found = client.query_customers(&query).await;
    assert!(found.is_ok(), "{found:?}");
    assert_eq!(
        proxy.received(),
        3,
        "two failed attempts and the third answered"
    );
    assert_eq!(
        proxy.forwarded(),
        2,
        "the reset one never reached the platform"
    );
    proxy.stop().await;
}

#[tokio::test]
async fn a_batch_whose_answer_was_lost_is_outcome_unknown_and_sent_once() {
    let (platform, proxy, client) = behind_proxy(false).await;
    let batch = purchase(&client, "LOST-1").await;
    let before = proxy.forwarded();
    proxy.then(&[Fault::DropAnswer]);
    let sent = client.batch_order(&batch).await;
    assert!(
        matches!(
            &sent,
            Err(ApiError::OutcomeUnknown { operation: Operation::BatchOrder, what, .. })
                if what == "the platform may have applied this license order"
        ),
        "{sent:?}"
    );
    assert_eq!(
        proxy.forwarded() - before,
        1,
        "sent once, never again by itself"
    );
    let orders = platform.rows(
        "SELECT COUNT(*) FROM license_orders o JOIN batches b ON b.id = o.batch_id \
         WHERE b.channel_order_id = $1",
        &["LOST-1"],
    );
    assert_eq!(orders[0].i64(0), 1, "the platform applied it, once");
    proxy.stop().await;
}

#[tokio::test]
async fn a_batch_is_sent_again_only_where_the_platform_recognises_repeats() {
    let (platform, proxy, client) = behind_proxy(true).await;
    let batch = purchase(&client, "REPEAT-1").await;
    let before = proxy.forwarded();
    proxy.then(&[Fault::DropAnswer]);
    let sent = client.batch_order(&batch).await;
    assert!(sent.as_ref().is_ok_and(|r| r.len() == 1), "{sent:?}");
    assert_eq!(
        proxy.forwarded() - before,
        2,
        "sent again after the lost answer"
    );
    let orders = platform.rows(
        "SELECT COUNT(*) FROM license_orders o JOIN batches b ON b.id = o.batch_id \
         WHERE b.channel_order_id = $1",
        &["REPEAT-1"],
    );
    assert_eq!(orders[0].i64(0), 1, "the repeat created nothing twice");
    proxy.stop().await;
}

/// A connection reset after the request was written: the client cannot know the platform
/// never saw it, so it does not send it again and says the outcome is unknown.
#[tokio::test]
async fn a_write_cut_after_it_was_written_is_unknown_even_when_it_never_arrived() {
    let (_platform, proxy, client) = behind_proxy(false).await;
    let batch = purchase(&client, "RESET-1").await;
    let (received, forwarded) = (proxy.received(), proxy.forwarded());
    proxy.then(&[Fault::ResetBeforeForward]);
    let sent = client.batch_order(&batch).await;
    assert!(
        matches!(&sent, Err(ApiError::OutcomeUnknown { .. })),
        "{sent:?}"
    );
    assert_eq!(proxy.received() - received, 1, "one attempt only");
    assert_eq!(
        proxy.forwarded() - forwarded,
        0,
        "which never reached the platform"
    );
    proxy.stop().await;
}
