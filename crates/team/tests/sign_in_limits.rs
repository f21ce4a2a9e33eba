//! Sign-in limits over loopback with the real team server (issue 52): a burst for one name from
//! one address is counted before it is judged, so at most the free attempts are judged and the
//! right password sent among them does not sign in; the owner's right password gets through
//! once the pair's next turn comes, from the same address, and at once from another; password
//! checks run a bounded number at a time; only JSON sign-ins of bounded size are read; every
//! refusal, slowed ones too, is in the record.

use test_support::team_rig;

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use support::clock::Clock;

use serde_json::{Value, json};
use team::audit;
use team::gate::SignInLimits;
use team_rig::{PASSWORD, Reply, Rig};

/// The default rule, with room for every check at once unless a test says otherwise.
fn roomy() -> SignInLimits {
    SignInLimits {
        checks_at_once: 64,
        ..SignInLimits::default()
    }
}

async fn rig_with(limits: SignInLimits) -> Rig {
    rig_with_clock(limits, Clock::system()).await
}

/// A rig whose sessions and sign-in limits read `clock`.
async fn rig_with_clock(limits: SignInLimits, clock: Clock) -> Rig {
    Rig::start_adjusted(|c| {
        c.sessions.sign_ins = limits;
        c.sessions.clock = clock;
    })
    .await
}

/// A client whose connections come from `ip` (127.0.0.x are all loopback on Linux).
fn client_from(ip: [u8; 4]) -> reqwest::Client {
    let ip = IpAddr::V4(Ipv4Addr::from(ip));
    reqwest::Client::builder()
        .local_address(ip)
        .build()
        .expect("client")
}

async fn sign_in_from(client: &reqwest::Client, rig: &Rig, name: &str, password: &str) -> Reply {
    let form = json!({"name": name, "password": password});
    let resp = client
        .post(format!("{}/team/v1/session", rig.base))
        .json(&form)
        .send()
        .await
        .expect("the team server answers");
    reply(resp).await
}

async fn reply(resp: reqwest::Response) -> Reply {
    let status = resp.status().as_u16();
    let retry = resp.headers().get("retry-after").cloned();
    let mut body: Value = resp.json().await.unwrap_or(Value::Null);
    if let Some(retry) = retry {
        body["retryAfter"] = json!(retry.to_str().expect("ascii"));
    }
    Reply { status, body }
}

/// The sign-in entries of the record: (person, outcome, message).
async fn sign_ins(rig: &Rig) -> Vec<(String, String, String)> {
    let store = rig.team_store().await;
    let all = audit::range(&store, 0, i64::MAX, None)
        .await
        .expect("audit");
    all.into_iter()
        .filter(|e| e.record.operation == "sign_in")
        .map(|e| {
            let r = e.record;
            (r.person, r.outcome, r.message.unwrap_or_default())
        })
        .collect()
}

#[tokio::test]
async fn a_burst_is_counted_before_it_is_judged_and_the_owner_gets_through_after_it() {
    let clock = Clock::settable();
    let rig = rig_with_clock(roomy(), clock.clone()).await;
    let attacker = client_from([127, 0, 0, 1]);
    let wrong = (0..40).map(|i| {
        let attacker = attacker.clone();
        let rig = &rig;
        async move { sign_in_from(&attacker, rig, "admin", &format!("guess {i}")).await }
    });
    let answers = futures::future::join_all(wrong).await;
    let right_in_burst = sign_in_from(&attacker, &rig, "ADMIN", PASSWORD).await;

    let judged = answers.iter().filter(|r| r.status == 401).count();
    let slowed = answers.iter().filter(|r| r.status == 429).count();
    assert_eq!(judged + slowed, 40, "{answers:?}");
    assert!(judged <= 6, "at most the free five and one turn: {judged}");
    // The next turn is 30 s away, whatever the wall clock did meanwhile: the clock only
    // moves when the test moves it (and by the few milliseconds the test takes).
    assert_eq!(right_in_burst.status, 429, "{right_in_burst:?}");
    let wait = right_in_burst.body["retryAfter"]
        .as_str()
        .expect("Retry-After");
    assert!(["29", "30"].contains(&wait), "{right_in_burst:?}");
    let record = sign_ins(&rig).await;
    let wrong_in_record = record
        .iter()
        .filter(|(_, _, m)| m == "wrong name or password");
    assert_eq!(wrong_in_record.count(), judged, "{record:?}");
    // Its kind noted for the consoles to word (`RecordNote`), beside the English.
    let store = rig.team_store().await;
    let notes = audit::range(&store, 0, i64::MAX, None)
        .await
        .expect("audit")
        .into_iter()
        .filter_map(|e| wire::team::RecordNote::of_answer(e.record.answer.as_deref()))
        .collect::<Vec<_>>();
    let slowed_noted = notes.iter().any(|n| {
        matches!(n, wire::team::RecordNote::SignInRefused { why, retry_seconds: Some(29 | 30) }
            if why == "slowed")
    });
    assert!(slowed_noted, "{notes:?}");
    let slowed_in_record = record.iter().filter(|(p, o, m)| {
        p == "admin" && o == "refused" && m.starts_with("too many sign-in attempts")
    });
    assert!(slowed_in_record.count() >= slowed, "{record:?}");

    // Another address is another pair: the owner signs in there at once.
    let elsewhere = sign_in_from(&client_from([127, 0, 0, 2]), &rig, "admin", PASSWORD).await;
    assert_eq!(elsewhere.status, 200, "{elsewhere:?}");

    // From the attacker's own address (a branch's NAT), once the pair's turn comes: not a
    // moment before it, and at it.
    clock.advance(Duration::from_secs(25));
    let early = sign_in_from(&attacker, &rig, "admin", PASSWORD).await;
    assert_eq!(early.status, 429, "{early:?}");
    let wait: u64 = early.body["retryAfter"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("Retry-After");
    assert!((4..=5).contains(&wait), "{early:?}");
    clock.advance(Duration::from_secs(wait));
    let on_time = sign_in_from(&attacker, &rig, "admin", PASSWORD).await;
    assert_eq!(on_time.status, 200, "{on_time:?}");
}

#[tokio::test]
async fn password_checks_run_a_bounded_number_at_a_time() {
    let limits = SignInLimits {
        checks_at_once: 1,
        waiting_at_most: 0,
        ..roomy()
    };
    let rig = rig_with(limits).await;
    let many = (0..24u8).map(|i| {
        let rig = &rig;
        // Each from its own address: only the turns can hold them back.
        let client = client_from([127, 0, 1, i + 1]);
        async move { sign_in_from(&client, rig, &format!("ghost{i}"), "guess").await }
    });
    let answers = futures::future::join_all(many).await;
    let busy: Vec<&Reply> = answers.iter().filter(|r| r.status == 503).collect();
    assert!(!busy.is_empty(), "one check at a time: {answers:?}");
    for reply in &busy {
        assert_eq!(reply.body["retryAfter"], "1", "{reply:?}");
        assert_eq!(
            reply.body["message"],
            "the team server is busy checking other sign-ins: try again in 1 s"
        );
    }
    assert!(answers.iter().all(|r| [401, 503].contains(&r.status)));
}

#[tokio::test]
async fn only_json_sign_ins_of_bounded_size_are_read_and_none_of_them_counts() {
    let rig = rig_with(roomy()).await;
    let http = reqwest::Client::new();
    let url = format!("{}/team/v1/session", rig.base);
    let form = json!({"name": "admin", "password": "a cross-site guess"}).to_string();
    for _ in 0..10 {
        let resp = http
            .post(&url)
            .header("content-type", "text/plain")
            .body(form.clone())
            .send()
            .await
            .expect("answers");
        let refused = reply(resp).await;
        assert_eq!(
            refused.body["message"], "a sign-in is a JSON body (Content-Type: application/json)",
            "{refused:?}"
        );
    }
    let long = "a".repeat(257);
    let too_long = rig.try_sign_in(&long, PASSWORD).await;
    assert_eq!(
        too_long.body["message"], "name: at most 256 bytes; password: at most 1024 bytes",
        "{too_long:?}"
    );
    let huge = rig.try_sign_in(&"a".repeat(64 * 1024), PASSWORD).await;
    assert_eq!(huge.status, 413, "{huge:?}");
    assert_eq!(sign_ins(&rig).await, [], "none of them judged or recorded");
    rig.sign_in("admin").await;
}

#[tokio::test]
async fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
    let spoofed = |rig: &Rig, i: usize| {
        let http = rig.http.clone();
        let url = format!("{}/team/v1/session", rig.base);
        async move {
            let form = json!({"name": "admin", "password": format!("guess {i}")});
            let resp = http
                .post(url)
                .header("x-forwarded-for", format!("10.9.0.{i}"))
                .json(&form)
                .send()
                .await
                .expect("answers");
            reply(resp).await.status
        }
    };
    // Not trusted: each "forwarded" address is the peer, so the pair is one and is slowed.
    let rig = rig_with(roomy()).await;
    let mut statuses = Vec::new();
    for i in 0..6 {
        statuses.push(spoofed(&rig, i).await);
    }
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429]);
    // Behind a trusted proxy (loopback here), each forwarded address is a client of its own.
    let trusted = Rig::start_adjusted(|c| {
        c.sessions.sign_ins = roomy();
        c.trusted_proxies = vec!["127.0.0.0/8".parse().expect("cidr")];
    })
    .await;
    let mut statuses = Vec::new();
    for i in 0..6 {
        statuses.push(spoofed(&trusted, i).await);
    }
    assert_eq!(statuses, [401; 6]);
}

/// Half-sent sign-ins (finding 9): one address holds at most its share of connections, and a
/// body that does not arrive in time is cut off, so others still sign in meanwhile and the
/// same address does after.
#[tokio::test]
async fn half_sent_bodies_hold_neither_the_server_nor_the_address_for_long() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rig = Rig::start_adjusted(|c| {
        c.connections.per_address = 8;
        c.connections.body_timeout = Duration::from_secs(1);
    })
    .await;
    let addr = rig.team.local_addr();
    let half_sent = || async move {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind("127.0.0.3:0".parse().expect("addr"))
            .expect("bind");
        let mut stream = socket.connect(addr).await.expect("connects");
        let head = "POST /team/v1/session HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
                    content-length: 100\r\n\r\n{\"name\":";
        stream.write_all(head.as_bytes()).await.expect("writes");
        stream
    };
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(half_sent().await);
    }
    // The address's ninth connection is turned away at once…
    let mut ninth = half_sent().await;
    let mut answer = String::new();
    ninth.read_to_string(&mut answer).await.expect("reads");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    // …while another address signs in.
    let other = sign_in_from(&client_from([127, 0, 0, 4]), &rig, "admin", PASSWORD).await;
    assert_eq!(other.status, 200, "{other:?}");
    // Each held body is cut off at its deadline: an answer, then the connection closes.
    for mut stream in held {
        let mut answer = String::new();
        let read =
            tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut answer));
        read.await
            .expect("closed within the deadline")
            .expect("reads");
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    }
    assert_eq!(
        sign_ins(&rig).await.len(),
        1,
        "only the whole sign-in was judged"
    );
    let again = sign_in_from(&client_from([127, 0, 0, 3]), &rig, "admin", PASSWORD).await;
    assert_eq!(again.status, 200, "{again:?}");
}
