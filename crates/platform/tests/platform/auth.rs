//! The token endpoint, the order group's 401 and 403, and `g_nonce` (DESIGN: "Tokens",
//! "Auth failures", "g_nonce").

use std::time::Duration;

use platform::apps::AppCredentials;
use platform::auth::{self, TOKEN_RECHECK};
use reqwest::header::{CACHE_CONTROL, WWW_AUTHENTICATE};
use serde_json::{Value, json};

use crate::common::{Platform, Reply, nonce};

const TOKEN: &str = "/v3/api/oauth2/token";
const SHELLNUMS: &str = "/order/api/order/v1/shellnums";
const QUERY: &str = "/order/api/order/v1/enterprise/user/query";

/// A token request as given: status, the two headers that matter, and the JSON body.
struct TokenReply {
    status: u16,
    cache_control: Option<String>,
    www_authenticate: Option<String>,
    body: Value,
}

async fn token_request(req: reqwest::RequestBuilder) -> TokenReply {
    let r = req.send().await.expect("token request");
    let header = |name| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let cache_control = header(CACHE_CONTROL);
    let www_authenticate = header(WWW_AUTHENTICATE);
    let status = r.status().as_u16();
    let body = r.json().await.expect("token endpoint answers JSON");
    TokenReply {
        status,
        cache_control,
        www_authenticate,
        body,
    }
}

async fn ask_token(p: &Platform, key: &str, secret: &str, form: &[(&str, &str)]) -> TokenReply {
    let req = p
        .http
        .post(format!("{}{TOKEN}", p.base))
        .basic_auth(key, Some(secret))
        .form(form);
    token_request(req).await
}

const CLIENT_CREDENTIALS: &[(&str, &str)] = &[("grant_type", "client_credentials")];

#[track_caller]
fn assert_invalid_client(r: &TokenReply) {
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.body["error"], "invalid_client", "{}", r.body);
    assert!(r.body["error_description"].is_string(), "{}", r.body);
    assert!(
        r.www_authenticate
            .as_deref()
            .is_some_and(|v| v.starts_with("Basic")),
        "a 401 of the token endpoint carries WWW-Authenticate: {:?}",
        r.www_authenticate
    );
    assert!(r.body.get("access_token").is_none(), "{}", r.body);
}

/// A call of operation 9 (shellnums, size 1) with the given token and query, made by hand.
async fn shellnums_with(p: &Platform, token: Option<&str>, query: &[(&str, &str)]) -> Reply {
    let mut req = p
        .http
        .post(format!("{}{SHELLNUMS}", p.base))
        .query(query)
        .json(&json!({"size": 1}));
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    p.raw(req).await
}

/// The same with a fresh nonce.
async fn shellnums_as(p: &Platform, token: &str) -> Reply {
    let n = nonce();
    shellnums_with(p, Some(token), &[("g_nonce", n.as_str())]).await
}

#[track_caller]
fn assert_one_number(r: &Reply) {
    let data = r.data().as_array().expect("a list of asset numbers");
    assert_eq!(data.len(), 1, "{}", r.body);
}

#[track_caller]
fn assert_refused(r: &Reply, status: u16) {
    assert_eq!(r.status, status, "{}", r.body);
    assert_eq!(r.body["code"], json!(status.to_string()), "{}", r.body);
    assert!(
        r.body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{}",
        r.body
    );
    assert!(r.body["cause"].is_string(), "{}", r.body);
    assert!(r.body.get("data").is_none(), "{}", r.body);
}

/// Makes every token expire, as time would, and waits until the platform refuses the test's
/// token (it trusts a token it verified for up to `TOKEN_RECHECK`): a call without a nonce,
/// which spends nothing, is tried until it is 401. Returns how many tokens there were.
async fn expire_tokens(p: &Platform) -> usize {
    let changed = p.execute_auth("UPDATE tokens SET expires_at = 0");
    let deadline = std::time::Instant::now() + TOKEN_RECHECK * 10;
    while shellnums_with(p, Some(&p.token), &[]).await.status != 401 {
        assert!(
            std::time::Instant::now() < deadline,
            "the expired token is still accepted"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    usize::try_from(changed).expect("rows")
}

/// Asset numbers handed out so far (the shellnums counter moves only on success).
fn numbers_handed_out(p: &Platform) -> i64 {
    p.row(
        "SELECT CAST(coalesce(sum(value), 0) AS bigint) FROM counters",
        &[],
    )
    .i64(0)
}

// ---------------------------------------------------------------------------------------------
// The token endpoint

#[tokio::test]
async fn token_answers_bearer_for_seven_days_and_is_reused() {
    let p = Platform::start().await;
    let first = ask_token(&p, &p.app.app_key, &p.app.app_secret, CLIENT_CREDENTIALS).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.cache_control.as_deref(), Some("no-store"));
    let token = first.body["access_token"]
        .as_str()
        .expect("access_token")
        .to_owned();
    assert!(!token.is_empty());
    assert_eq!(first.body["token_type"], "bearer");
    assert_eq!(first.body["scope"], "auth_order auth_activity");
    let expires_in = first.body["expires_in"].as_i64().expect("expires_in");
    assert!(
        (604_790..=604_800).contains(&expires_in),
        "7 days in seconds, less the seconds since it was issued: {expires_in}"
    );

    // The harness already asked once: every answer is the same token while it is fresh.
    assert_eq!(token, p.token, "the same token is handed out again");
    let second = ask_token(&p, &p.app.app_key, &p.app.app_secret, CLIENT_CREDENTIALS).await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.body["access_token"], json!(token));
    assert_eq!(second.cache_control.as_deref(), Some("no-store"));
    assert_eq!(p.count_auth("tokens"), 1, "no second token was stored");
    assert_one_number(&shellnums_as(&p, &token).await);
}

#[tokio::test]
async fn token_refusals_are_oauth_errors() {
    let p = Platform::start().await;
    let key = p.app.app_key.clone();

    let wrong_secret = ask_token(&p, &key, "not-the-secret", CLIENT_CREDENTIALS).await;
    assert_invalid_client(&wrong_secret);

    let unknown_key = ask_token(&p, "no-such-app", &p.app.app_secret, CLIENT_CREDENTIALS).await;
    assert_invalid_client(&unknown_key);

    let no_basic = token_request(
        p.http
            .post(format!("{}{TOKEN}", p.base))
            .form(CLIENT_CREDENTIALS),
    )
    .await;
    assert_invalid_client(&no_basic);

    let bearer_instead = token_request(
        p.http
            .post(format!("{}{TOKEN}", p.base))
            .bearer_auth(&p.token)
            .form(CLIENT_CREDENTIALS),
    )
    .await;
    assert_invalid_client(&bearer_instead);

    let not_base64 = token_request(
        p.http
            .post(format!("{}{TOKEN}", p.base))
            .header("Authorization", "Basic %%%not-base64%%%")
            .form(CLIENT_CREDENTIALS),
    )
    .await;
    assert_invalid_client(&not_base64);

    let no_grant = ask_token(&p, &key, &p.app.app_secret, &[]).await;
    assert_eq!(no_grant.status, 400, "{}", no_grant.body);
    assert_eq!(
        no_grant.body["error"], "invalid_request",
        "{}",
        no_grant.body
    );
    assert!(no_grant.body["error_description"].is_string());
    assert!(no_grant.body.get("access_token").is_none());

    let password = ask_token(
        &p,
        &key,
        &p.app.app_secret,
        &[
            ("grant_type", "password"),
            ("username", "u"),
            ("password", "p"),
        ],
    )
    .await;
    assert_eq!(password.status, 400, "{}", password.body);
    assert_eq!(
        password.body["error"], "unsupported_grant_type",
        "{}",
        password.body
    );
    assert!(password.body.get("access_token").is_none());

    assert_eq!(p.count_auth("tokens"), 1, "only the harness's token exists");
}

// ---------------------------------------------------------------------------------------------
// 401 and 403 in the order group

#[tokio::test]
async fn order_group_refuses_missing_malformed_and_unknown_tokens_with_401() {
    let p = Platform::start().await;
    let before = numbers_handed_out(&p);
    let n = nonce();
    let q = [("g_nonce", n.as_str())];

    assert_refused(&shellnums_with(&p, None, &q).await, 401);

    let basic = p
        .http
        .post(format!("{}{SHELLNUMS}", p.base))
        .query(&q)
        .basic_auth(&p.app.app_key, Some(&p.app.app_secret))
        .json(&json!({"size": 1}));
    assert_refused(&p.raw(basic).await, 401);

    let bare_token = p
        .http
        .post(format!("{}{SHELLNUMS}", p.base))
        .query(&q)
        .header("Authorization", p.token.clone())
        .json(&json!({"size": 1}));
    assert_refused(&p.raw(bare_token).await, 401);

    assert_refused(&shellnums_with(&p, Some(""), &q).await, 401);
    assert_refused(
        &shellnums_with(&p, Some("not-a-token-of-this-platform"), &q).await,
        401,
    );
    // A token of the right shape but one character off.
    let mut off = p.token.clone();
    let last = off.pop().expect("token not empty");
    off.push(if last == 'A' { 'B' } else { 'A' });
    assert_refused(&shellnums_with(&p, Some(&off), &q).await, 401);

    // GET operations are guarded the same way.
    let get = p.http.get(format!("{}{QUERY}", p.base)).query(&[
        ("g_nonce", n.as_str()),
        ("channelCode", "CRM"),
        ("channelCustomerId", "1"),
    ]);
    assert_refused(&p.raw(get).await, 401);

    assert_eq!(numbers_handed_out(&p), before, "nothing was handed out");
    // None of these spent the nonce: it still works with the real token.
    assert_one_number(&shellnums_with(&p, Some(&p.token), &q).await);
}

#[tokio::test]
async fn expired_token_is_401_and_a_fresh_one_is_issued() {
    let p = Platform::start().await;
    assert_one_number(&shellnums_as(&p, &p.token).await);
    assert_eq!(expire_tokens(&p).await, 1);

    assert_refused(&shellnums_as(&p, &p.token).await, 401);

    // Asking again gives a new token, since the old one is no longer valid.
    let fresh = p.token_for(&p.app).await;
    assert_ne!(fresh, p.token);
    assert_one_number(&shellnums_as(&p, &fresh).await);
    assert_refused(&shellnums_as(&p, &p.token).await, 401);
}

#[tokio::test]
async fn token_without_the_order_scope_is_403() {
    let p = Platform::start().await;
    let activity_only = p.new_app(&["auth_activity"]).await;
    let asked = ask_token(
        &p,
        &activity_only.app_key,
        &activity_only.app_secret,
        CLIENT_CREDENTIALS,
    )
    .await;
    assert_eq!(asked.status, 200, "{}", asked.body);
    assert_eq!(asked.body["scope"], "auth_activity");
    let token = asked.body["access_token"]
        .as_str()
        .expect("token")
        .to_owned();

    let before = numbers_handed_out(&p);
    let refused = shellnums_as(&p, &token).await;
    assert_refused(&refused, 403);
    let message = refused.body["message"].as_str().expect("message");
    assert!(
        message.contains("auth_order"),
        "the message names the scope: {message}"
    );
    assert_eq!(numbers_handed_out(&p), before);
}

#[tokio::test]
async fn application_created_while_running_works_at_once() {
    let p = Platform::start().await;
    let late: AppCredentials = p.new_app(&["auth_order"]).await;
    let token = p.token_for(&late).await;
    assert_ne!(token, p.token);
    assert_one_number(&shellnums_as(&p, &token).await);
    // And the first application is unaffected.
    assert_one_number(&shellnums_as(&p, &p.token).await);
}

// ---------------------------------------------------------------------------------------------
// g_nonce

#[tokio::test]
async fn nonce_is_required_and_well_formed() {
    let p = Platform::start().await;
    let token = Some(p.token.as_str());
    let before = numbers_handed_out(&p);

    shellnums_with(&p, token, &[])
        .await
        .assert_13004("g_nonce: required on every call");
    shellnums_with(&p, token, &[("g_nonce", "")])
        .await
        .assert_13004("g_nonce: required on every call");

    let long = "x".repeat(129);
    shellnums_with(&p, token, &[("g_nonce", long.as_str())])
        .await
        .assert_13004("g_nonce: at most 128 characters");

    for bad in ["has space", "tab\there", "ключ", "é", "new\nline"] {
        shellnums_with(&p, token, &[("g_nonce", bad)])
            .await
            .assert_13004("g_nonce: only visible ASCII characters (no spaces)");
    }

    let a = nonce();
    let b = nonce();
    shellnums_with(
        &p,
        token,
        &[("g_nonce", a.as_str()), ("g_nonce", b.as_str())],
    )
    .await
    .assert_13004("g_nonce: given more than once");
    shellnums_with(
        &p,
        token,
        &[("g_nonce", a.as_str()), ("g_nonce", a.as_str())],
    )
    .await
    .assert_13004("g_nonce: given more than once");
    assert_eq!(numbers_handed_out(&p), before, "nothing was handed out");

    // The edges: exactly 128 characters, one character, and every visible ASCII character.
    let edge = format!("{}{}", nonce(), "y".repeat(128));
    let edge = &edge[..128];
    assert_one_number(&shellnums_with(&p, token, &[("g_nonce", edge)]).await);
    assert_one_number(&shellnums_with(&p, token, &[("g_nonce", "1")]).await);
    let visible: String = (b'!'..=b'~').map(char::from).collect();
    assert_one_number(&shellnums_with(&p, token, &[("g_nonce", visible.as_str())]).await);

    // The refused ones were not spent: `a` still works once.
    assert_one_number(&shellnums_with(&p, token, &[("g_nonce", a.as_str())]).await);
}

#[tokio::test]
async fn nonce_is_accepted_once_per_application() {
    let p = Platform::start().await;
    let n = nonce();
    let q = [("g_nonce", n.as_str())];
    assert_one_number(&shellnums_with(&p, Some(&p.token), &q).await);
    let before = numbers_handed_out(&p);
    let reused = shellnums_with(&p, Some(&p.token), &q).await;
    reused.assert_13004(
        "g_nonce: already used by this application; send a fresh nonce with every call",
    );
    assert_eq!(numbers_handed_out(&p), before, "a replay does nothing");

    // Another application may use the same nonce, once.
    let other = p.new_app(&["auth_order"]).await;
    let other_token = p.token_for(&other).await;
    assert_one_number(&shellnums_with(&p, Some(&other_token), &q).await);
    shellnums_with(&p, Some(&other_token), &q)
        .await
        .assert_13004(
            "g_nonce: already used by this application; send a fresh nonce with every call",
        );

    // A new token of the same application does not reset its nonces.
    expire_tokens(&p).await;
    let renewed = p.token_for(&p.app).await;
    shellnums_with(&p, Some(&renewed), &q).await.assert_13004(
        "g_nonce: already used by this application; send a fresh nonce with every call",
    );
}

#[tokio::test]
async fn nonce_is_spent_even_when_the_body_is_refused() {
    let p = Platform::start().await;
    let n = nonce();
    let refused = p
        .raw(
            p.http
                .post(format!("{}{SHELLNUMS}", p.base))
                .bearer_auth(&p.token)
                .query(&[("g_nonce", n.as_str())])
                .json(&json!({"size": 0})),
        )
        .await;
    refused.assert_13004("size: must be between 1 and 1000");

    let not_json = p
        .raw(
            p.http
                .post(format!("{}{SHELLNUMS}", p.base))
                .bearer_auth(&p.token)
                .query(&[("g_nonce", "spent-by-bad-json")])
                .header("Content-Type", "application/json")
                .body("{"),
        )
        .await;
    assert_eq!(not_json.status, 299, "{}", not_json.body);
    assert_eq!(not_json.body["code"], "13004");

    for spent in [n.as_str(), "spent-by-bad-json"] {
        shellnums_with(&p, Some(&p.token), &[("g_nonce", spent)])
            .await
            .assert_13004(
                "g_nonce: already used by this application; send a fresh nonce with every call",
            );
    }
}

#[tokio::test]
async fn auth_failures_come_before_nonce_checks() {
    let p = Platform::start().await;
    // No token and no nonce; no token and a malformed one.
    assert_refused(&shellnums_with(&p, None, &[]).await, 401);
    assert_refused(
        &shellnums_with(&p, None, &[("g_nonce", "has space")]).await,
        401,
    );
    // Unknown token with a missing, a malformed or an over-long nonce.
    let unknown = Some("unknown-token");
    assert_refused(&shellnums_with(&p, unknown, &[]).await, 401);
    assert_refused(
        &shellnums_with(&p, unknown, &[("g_nonce", "has space")]).await,
        401,
    );
    let long = "x".repeat(129);
    assert_refused(
        &shellnums_with(&p, unknown, &[("g_nonce", long.as_str())]).await,
        401,
    );

    // Expired token with a reused nonce: 401, not 13004.
    let n = nonce();
    let q = [("g_nonce", n.as_str())];
    assert_one_number(&shellnums_with(&p, Some(&p.token), &q).await);
    expire_tokens(&p).await;
    assert_refused(&shellnums_with(&p, Some(&p.token), &q).await, 401);

    // A token without the scope, with no nonce: 403.
    let activity_only = p.new_app(&["auth_activity"]).await;
    let token = p.token_for(&activity_only).await;
    assert_refused(&shellnums_with(&p, Some(&token), &[]).await, 403);
    assert_refused(
        &shellnums_with(&p, Some(&token), &[("g_nonce", "has space")]).await,
        403,
    );
}

/// A `g_nonce` given twice is a nonce problem like any other: it must not be judged before
/// the token is (DESIGN "Auth failures": refused before any business logic).
#[tokio::test]
async fn auth_failures_come_before_a_doubled_nonce() {
    let p = Platform::start().await;
    let twice = [("g_nonce", "a"), ("g_nonce", "b")];
    // No token: the bearer header is read first, so this is 401.
    assert_refused(&shellnums_with(&p, None, &twice).await, 401);
    // An unknown token.
    assert_refused(
        &shellnums_with(&p, Some("unknown-token"), &twice).await,
        401,
    );
    // An expired token.
    expire_tokens(&p).await;
    assert_refused(&shellnums_with(&p, Some(&p.token), &twice).await, 401);
    // A token without the scope.
    let activity_only = p.new_app(&["auth_activity"]).await;
    let token = p.token_for(&activity_only).await;
    assert_refused(&shellnums_with(&p, Some(&token), &twice).await, 403);
}

/// Used nonces are kept in generations: one rotation later a nonce is still refused (it is
/// remembered for at least the window), two rotations later it is forgotten (at most twice the
/// window). The pruner rotates every minute; here the rotations are run at chosen times.
#[tokio::test]
async fn nonces_are_remembered_for_at_least_the_window_and_then_forgotten() {
    let p = Platform::start().await;
    let n = nonce();
    let q = [("g_nonce", n.as_str())];
    assert_one_number(&shellnums_with(&p, Some(&p.token), &q).await);
    let rotate = |at: i64| {
        let p = &p;
        async move { p.write(move |tx| auth::prune(tx, at, WINDOW_MS)).await.rows }
    };
    let logged = |p: &Platform| p.count("nonce_log");
    const WINDOW_MS: i64 = 60_000;
    let reused = "g_nonce: already used by this application; send a fresh nonce with every call";
    let now = support::clock::now_ms();

    // Within the window: nothing rotates.
    assert_eq!(rotate(now + WINDOW_MS / 2).await, 0);
    shellnums_with(&p, Some(&p.token), &q)
        .await
        .assert_13004(reused);

    // One window on: a new generation; the nonce is in the one before, still refused.
    let before = logged(&p);
    assert_eq!(
        rotate(now + WINDOW_MS).await,
        0,
        "the generation before the first is empty"
    );
    assert_eq!(logged(&p), before);
    shellnums_with(&p, Some(&p.token), &q)
        .await
        .assert_13004(reused);

    // Two windows on: its generation is dropped; the nonce is forgotten and works once more.
    assert!(rotate(now + 2 * WINDOW_MS).await >= 1);
    assert_one_number(&shellnums_with(&p, Some(&p.token), &q).await);
    shellnums_with(&p, Some(&p.token), &q)
        .await
        .assert_13004(reused);
}

/// A call the operation itself refuses (a business rule, judged after the body) spends its
/// nonce too: the same nonce on a call that would succeed is refused and creates nothing.
#[tokio::test]
async fn nonce_is_spent_when_the_operation_refuses() {
    const UPDATE: &str = "/order/api/order/v1/enterprise/user/update";
    const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
    let p = Platform::start().await;
    let n = nonce();
    let post = |path: &'static str, body: Value| {
        p.raw(
            p.http
                .post(format!("{}{path}", p.base))
                .bearer_auth(&p.token)
                .query(&[("g_nonce", n.as_str())])
                .json(&body),
        )
    };
    post(
        UPDATE,
        json!({"crmCustomerId": "CRM-NOBODY", "customerName": "无此客户"}),
    )
    .await
    .assert_13004(
        "crmCustomerId: no enterprise master account exists for the CRM customer \"CRM-NOBODY\"",
    );

    let enterprises = p.count("enterprises");
    post(
        CREATE,
        json!({"crmCustomerId": "CRM-NEW", "customerName": "上海新客户有限公司"}),
    )
    .await
    .assert_13004("g_nonce: already used by this application; send a fresh nonce with every call");
    assert_eq!(
        p.count("enterprises"),
        enterprises,
        "a replay creates nothing"
    );

    // With a fresh nonce the same creation works.
    let created = p
        .post(
            CREATE,
            json!({"crmCustomerId": "CRM-NEW", "customerName": "上海新客户有限公司"}),
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(p.count("enterprises"), enterprises + 1);
}

/// Guessing secrets is slowed and never locks the owner out: past ten failures a minute for
/// an app key from one address, a wrong secret is refused with 429 and a time to wait, and the
/// right secret is still let through at once; another app key is not held up by it.
#[tokio::test]
async fn failed_token_requests_are_slowed_but_the_right_secret_goes_through() {
    let p = Platform::start().await;
    let key = p.app.app_key.clone();
    for _ in 0..10 {
        assert_invalid_client(&ask_token(&p, &key, "guess", CLIENT_CREDENTIALS).await);
    }
    for _ in 0..2 {
        let r = ask_token(&p, &key, "guess", CLIENT_CREDENTIALS).await;
        assert_eq!(r.status, 429, "{}", r.body);
        assert_eq!(r.body["error"], "too_many_attempts");
        let said = r.body["error_description"].as_str().expect("description");
        assert!(
            said.starts_with(
                "wrong secret, and too many failed attempts for this app key or from this address; try again in "
            ),
            "{said}"
        );
        assert!(r.body.get("access_token").is_none());
    }
    let r = ask_token(&p, &key, &p.app.app_secret, CLIENT_CREDENTIALS).await;
    assert_eq!(
        r.status, 200,
        "the right secret is never refused: {}",
        r.body
    );
    assert!(r.body["access_token"].is_string());
    let other = p.new_app(&["auth_order"]).await;
    let r = ask_token(&p, &other.app_key, &other.app_secret, CLIENT_CREDENTIALS).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// Thirty wrong secrets from one address (every client, behind a reverse proxy) lock out no
/// app: each app's right secret still gets its token.
#[tokio::test]
async fn failures_from_one_address_lock_out_no_app() {
    let p = Platform::start().await;
    for i in 0..31 {
        let r = ask_token(&p, &format!("ak_guess{i}"), "guess", CLIENT_CREDENTIALS).await;
        assert!(r.status == 401 || r.status == 429, "{}", r.body);
    }
    let r = ask_token(&p, "ak_guess0", "guess", CLIENT_CREDENTIALS).await;
    assert_eq!(r.status, 429, "{}", r.body);
    let r = ask_token(&p, &p.app.app_key, &p.app.app_secret, CLIENT_CREDENTIALS).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// Admission does not queue behind a long write: while another connection holds the business
/// database's write lock (as the largest batch would hold the writer), a token is issued, a
/// read is answered and spends its nonce, and a replay of it is refused.
#[tokio::test]
async fn calls_are_admitted_while_the_business_data_is_being_written() {
    if crate::common::sqlite_only("holds SQLite's one write lock; PostgreSQL has no such lock") {
        return;
    }
    let p = Platform::start().await;
    let app = p.new_app(&["auth_order"]).await;
    let mut db = p.db();
    let long_write = db
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .expect("hold the write lock");

    let token = p.token_for(&app).await;
    let n = nonce();
    let query = [
        ("g_nonce", n.as_str()),
        ("channelCode", "CRM"),
        ("channelCustomerId", "NOBODY"),
    ];
    let send = || {
        p.http
            .get(format!("{}{QUERY}", p.base))
            .bearer_auth(&token)
            .query(&query)
    };
    assert_eq!(p.raw(send()).await.data(), &json!([]));
    p.raw(send()).await.assert_13004(
        "g_nonce: already used by this application; send a fresh nonce with every call",
    );

    long_write.rollback().expect("release the lock");
    let after = p.post(SHELLNUMS, json!({"size": 1})).await;
    assert_eq!(
        after.data().as_array().map(Vec::len),
        Some(1),
        "{}",
        after.body
    );
}

/// Reads spend their nonce apart from writes (in `auth.sqlite3`), yet a nonce is single use
/// across both: one spent by a read is refused for a write, and the reverse.
#[tokio::test]
async fn a_nonce_spent_by_a_read_is_refused_for_a_write_and_the_reverse() {
    let mut p = Platform::start().await;
    let reused = "g_nonce: already used by this application; send a fresh nonce with every call";
    let query = |n: &str| {
        p.http
            .get(format!("{}{QUERY}", p.base))
            .bearer_auth(&p.token)
            .query(&[
                ("g_nonce", n),
                ("channelCode", "CRM"),
                ("channelCustomerId", "NOBODY"),
            ])
    };

    let read_first = nonce();
    assert_eq!(p.raw(query(&read_first)).await.data(), &json!([]));
    shellnums_with(&p, Some(&p.token), &[("g_nonce", read_first.as_str())])
        .await
        .assert_13004(reused);

    let write_first = nonce();
    assert_one_number(
        &shellnums_with(&p, Some(&p.token), &[("g_nonce", write_first.as_str())]).await,
    );
    p.raw(query(&write_first)).await.assert_13004(reused);

    // Also after a restart: what each store spent is known again from its log (the nonces
    // kept in memory, which spare most calls the other store's read, start from it).
    let read_before = nonce();
    let write_before = nonce();
    assert_eq!(p.raw(query(&read_before)).await.data(), &json!([]));
    assert_one_number(
        &shellnums_with(&p, Some(&p.token), &[("g_nonce", write_before.as_str())]).await,
    );
    p.restart().await;
    shellnums_with(&p, Some(&p.token), &[("g_nonce", read_before.as_str())])
        .await
        .assert_13004(reused);
    let replayed = p
        .http
        .get(format!("{}{QUERY}", p.base))
        .bearer_auth(&p.token)
        .query(&[
            ("g_nonce", write_before.as_str()),
            ("channelCode", "CRM"),
            ("channelCustomerId", "NOBODY"),
        ]);
    p.raw(replayed).await.assert_13004(reused);
}
