//! Nothing twice, nothing unknown: the command line against a real `serve` through a
//! fault-injecting proxy, with the platform as it is (it recognises a repeated
//! `channelOrderId`) and with that switched off (standing for a production platform that
//! promises nothing). Each test asserts what the platform holds afterwards, what the ledger
//! says, and the exit code.

use test_support::fault_proxy;
use test_support::served;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fault_proxy::{Fault, FaultProxy};
use serde_json::{Value, json};
use served::{Run, Served, bin, last, ld};

/// The platform as it is, or standing for one that applies a repeated batch again.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Platform {
    Recognises,
    Forgets,
}

struct Bench {
    platform: Served,
    proxy: FaultProxy,
    home: tempfile::TempDir,
    files: tempfile::TempDir,
    secret: String,
}

impl Bench {
    /// A platform behind a proxy, a profile `team` on the proxy (short limits: 2 s an attempt,
    /// two retries), declared to recognise repeats when `declared`, and an enterprise.
    fn start(platform: Platform, declared: bool) -> Bench {
        let extra: &[&OsStr] = match platform {
            Platform::Recognises => &[],
            Platform::Forgets => &[OsStr::new("--test-forget-repeats")],
        };
        let served = Served::start(extra);
        let (key, secret) = served.app("auth_order");
        let proxy = FaultProxy::start(&served.base);
        let bench = Bench {
            platform: served,
            proxy,
            home: tempfile::tempdir().expect("home"),
            files: tempfile::tempdir().expect("files"),
            secret,
        };
        let declared = if declared { "true" } else { "false" };
        let added = ld(
            bench.home.path(),
            &[
                "profile",
                "add",
                "team",
                "--base-url",
                &bench.proxy.base,
                "--app-key",
                &key,
                "--no-secret",
                "--operator",
                "ops@example.com",
                "--attempt-secs",
                "2",
                "--batch-attempt-secs",
                "2",
                "--retries",
                "2",
                &format!("--recognises-repeats={declared}"),
            ],
            None,
            &[],
        );
        assert_eq!(added.code, Some(0), "{}", added.stderr);
        let body = bench.file(
            "enterprise.json",
            &json!({"crmCustomerId": "CRM-C", "customerName": "故障测试企业"}),
        );
        let created = bench.call(&["create", "--body", &body]);
        assert_eq!(created.code, Some(0), "{}", created.stderr);
        bench
    }

    fn file(&self, name: &str, value: &Value) -> String {
        let path = self.files.path().join(name);
        std::fs::write(&path, value.to_string()).expect("write");
        path.to_str().expect("utf-8").to_owned()
    }

    /// A batch buying `gms:1` on a new lock `num`.
    fn batch(&self, id: &str, num: &str) -> String {
        self.file(
            &format!("{id}.json"),
            &json!({"channelCode": "CRM", "channelOrderId": id, "syncMode": "sync",
                "orderList": [{"sequence": 1, "channelCustomerId": "CRM-C",
                    "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                    "assets": [{"assetNos": [num], "products": [{"productUri": "gms:1"}]}]}]}),
        )
    }

    fn call(&self, args: &[&str]) -> Run {
        let mut all = vec!["call", "--profile", "team"];
        all.extend_from_slice(args);
        ld(
            self.home.path(),
            &all,
            None,
            &[("LICENSE_DESK_SECRET_TEAM", &self.secret)],
        )
    }

    /// The ledger as `call writes` prints it, newest first.
    fn writes(&self) -> Vec<Value> {
        let run = self.call(&["writes"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        serde_json::from_str::<Vec<Value>>(&run.stdout).expect("json")
    }

    fn count(&self, sql: &str) -> i64 {
        let conn = rusqlite::Connection::open(self.platform.data.path().join("platform.sqlite3"))
            .expect("open");
        conn.busy_timeout(Duration::from_secs(10))
            .expect("busy timeout");
        conn.query_row(sql, [], |r| r.get(0)).expect("count")
    }

    /// License orders the platform created, and products it granted.
    fn held(&self) -> (i64, i64) {
        (
            self.count("SELECT count(*) FROM license_orders"),
            self.count("SELECT count(*) FROM products"),
        )
    }

    fn journal_path(&self) -> PathBuf {
        self.home
            .path()
            .join(".local/share/license-desk/journal.sqlite3")
    }
}

/// The ledger's newest write: operation, state, attempts.
fn newest(writes: &[Value]) -> (String, String, i64) {
    let w = &writes[0];
    (
        w["operation"].as_str().expect("operation").to_owned(),
        w["state"].as_str().expect("state").to_owned(),
        w["attempts"].as_i64().expect("attempts"),
    )
}

fn expect_unknown(run: &Run, what: &str) {
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "error: sent, outcome unknown: {what}, and no answer came back"
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn a_batch_whose_answer_is_lost_after_commit_is_never_sent_twice_to_a_platform_that_forgets() {
    let bench = Bench::start(Platform::Forgets, false);
    bench.proxy.then(&[Fault::DropAnswer]);
    let batch = bench.batch("LOST-1", "8100000001");
    let run = bench.call(&["order", "--body", &batch]);
    expect_unknown(&run, "the platform may have applied this license order");
    assert!(!run.stderr.contains("g_nonce"), "{}", run.stderr);
    // Sent once, applied once: nothing was sent again by itself.
    assert_eq!(
        bench.proxy.forwarded(),
        2,
        "the enterprise, then the batch once"
    );
    assert_eq!(bench.held(), (1, 1));
    let writes = bench.writes();
    assert_eq!(
        newest(&writes),
        ("batch_order".to_owned(), "unknown".to_owned(), 1)
    );
    assert_eq!(writes[0]["channelOrderId"], "LOST-1");

    // The history says the same of the call's one attempt.
    let history = bench.call(&["history", "--operation", "batch_order"]);
    let entries: Vec<Value> = serde_json::from_str(&history.stdout).expect("json");
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["state"], "unknown");
    assert_eq!(entries[0]["callId"], writes[0]["callId"]);

    // Checked by the user and settled: done, by the profile's operator.
    let call_id = writes[0]["callId"].as_str().expect("id");
    let settled = bench.call(&["resolve", call_id, "--done"]);
    assert_eq!(settled.code, Some(0), "{}", settled.stderr);
    let settled: Value = serde_json::from_str(&settled.stdout).expect("json");
    assert_eq!(settled["state"], "done");
    assert!(
        settled["resolvedBy"]
            .as_str()
            .expect("by")
            .starts_with("ops@example.com (command line"),
        "{settled}"
    );
    // Once settled, it is not settled again.
    let again = bench.call(&["resolve", call_id, "--not-done"]);
    assert_eq!(again.code, Some(1));
    assert!(
        last(&again).contains("whose outcome is unknown"),
        "{}",
        again.stderr
    );
}

#[test]
fn a_batch_whose_answer_is_lost_is_sent_again_only_where_the_profile_declares_repeats_recognised() {
    // Declared, and true: the same channelOrderId again, answered with the first result.
    let bench = Bench::start(Platform::Recognises, true);
    bench.proxy.then(&[Fault::DropAnswer]);
    let batch = bench.batch("LOST-2", "8100000002");
    let run = bench.call(&["order", "--body", &batch]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let results: Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(results.as_array().map(Vec::len), Some(1));
    assert_eq!(
        bench.proxy.forwarded(),
        3,
        "the enterprise, the batch twice"
    );
    assert_eq!(bench.held(), (1, 1));
    assert_eq!(
        newest(&bench.writes()),
        ("batch_order".to_owned(), "done".to_owned(), 2)
    );

    // Not declared, on the same kind of platform: not sent again, outcome unknown.
    let bench = Bench::start(Platform::Recognises, false);
    bench.proxy.then(&[Fault::DropAnswer]);
    let batch = bench.batch("LOST-3", "8100000003");
    let run = bench.call(&["order", "--body", &batch]);
    expect_unknown(&run, "the platform may have applied this license order");
    assert_eq!(bench.proxy.forwarded(), 2);
    assert_eq!(bench.held(), (1, 1));
}

#[test]
fn a_refused_connection_is_tried_again_and_ends_as_not_sent() {
    for platform in [Platform::Recognises, Platform::Forgets] {
        let bench = Bench::start(platform, false);
        // The profile now points at a port nobody listens on: port 1 (tcpmux), never served
        // here. A free port let go of could be taken by another test's server meanwhile.
        let port = 1;
        let edited = ld(
            bench.home.path(),
            &[
                "profile",
                "edit",
                "team",
                "--base-url",
                &format!("http://127.0.0.1:{port}"),
            ],
            None,
            &[],
        );
        assert_eq!(edited.code, Some(0), "{}", edited.stderr);
        let batch = bench.batch("REFUSED-1", "8100000004");
        let run = bench.call(&["order", "--body", &batch]);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert!(
            last(&run).starts_with("error: not sent: the platform could not be reached"),
            "{}",
            run.stderr
        );
        assert!(
            !run.stderr.contains(&format!("127.0.0.1:{port}")),
            "no URL: {}",
            run.stderr
        );
        assert_eq!(bench.held(), (0, 0));
        // The token was never had: the batch did not leave, in one attempt.
        let writes = bench.writes();
        assert_eq!(
            newest(&writes),
            ("batch_order".to_owned(), "not_sent".to_owned(), 1)
        );
    }
}

#[test]
fn faults_after_the_request_left_end_as_unknown_and_nothing_is_applied_twice() {
    // (fault, what reaches the platform, a word of the error)
    let cases = [
        (Fault::ResetBeforeForward, 0, "no answer from the platform"),
        (Fault::CutBody, 1, "the answer (HTTP 200) was cut off"),
        (Fault::Html502, 1, "unexpected answer (HTTP 502)"),
        (Fault::Blackhole, 0, "no answer within 2 s"),
    ];
    for platform in [Platform::Recognises, Platform::Forgets] {
        for (i, (fault, reached, words)) in cases.iter().enumerate() {
            let bench = Bench::start(platform, false);
            bench.proxy.then(&[*fault]);
            let id = format!("FAULT-{i}");
            let batch = bench.batch(&id, &format!("810000010{i}"));
            let run = bench.call(&["order", "--body", &batch]);
            expect_unknown(&run, "the platform may have applied this license order");
            assert!(run.stderr.contains(words), "{fault:?}: {}", run.stderr);
            assert_eq!(bench.proxy.received(), 2, "{fault:?}: sent once");
            assert_eq!(bench.held(), (*reached, *reached), "{fault:?}");
            assert_eq!(
                newest(&bench.writes()),
                ("batch_order".to_owned(), "unknown".to_owned(), 1),
                "{fault:?}"
            );
        }
    }
}

#[test]
fn a_read_is_tried_again_after_a_proxy_s_html_page() {
    let bench = Bench::start(Platform::Forgets, false);
    bench.proxy.then(&[Fault::Html502, Fault::DropAnswer]);
    let run = bench.call(&[
        "query",
        "--channel-code",
        "CRM",
        "--channel-customer-id",
        "CRM-C",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let customers: Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(customers[0]["enterpriseName"], "故障测试企业");
    assert_eq!(
        bench.proxy.received(),
        4,
        "the enterprise, then three attempts"
    );
}

#[test]
fn locks_and_numbers_whose_answer_is_lost_say_what_may_have_happened() {
    let bench = Bench::start(Platform::Forgets, false);
    bench.proxy.then(&[Fault::DropAnswer]);
    let run = bench.call(&["shellnums", "3"]);
    expect_unknown(&run, "the platform may have handed out 3 asset numbers");
    assert_eq!(
        bench.count("SELECT value FROM counters WHERE name = 'shellnum'"),
        3
    );

    let batch = bench.batch("LOCKS-1", "8100000201");
    assert_eq!(bench.call(&["order", "--body", &batch]).code, Some(0));
    bench.proxy.then(&[Fault::DropAnswer]);
    let run = bench.call(&["--yes", "lock", "8100000201"]);
    expect_unknown(&run, "the platform may have disabled this lock");
    assert_eq!(
        bench.count("SELECT count(*) FROM lock_events"),
        1,
        "applied once, not again"
    );
    let states: Vec<(String, String)> = bench
        .writes()
        .iter()
        .map(|w| {
            (
                w["operation"].as_str().expect("op").to_owned(),
                w["state"].as_str().expect("state").to_owned(),
            )
        })
        .collect();
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    };
    assert_eq!(
        states,
        pairs(&[
            ("lock", "unknown"),
            ("batch_order", "done"),
            ("shellnums", "unknown"),
            ("create_enterprise", "done"),
        ])
    );
}

#[test]
fn a_command_line_killed_while_its_batch_is_in_flight_leaves_it_unknown_at_the_next_start() {
    let bench = Bench::start(Platform::Forgets, false);
    bench.proxy.then(&[Fault::Blackhole]);
    let batch = bench.batch("KILLED-1", "8100000301");
    let mut child = Command::new(bin())
        .args(["call", "--profile", "team", "order", "--body", &batch])
        .env("HOME", bench.home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("LICENSE_DESK_KEYRING", "memory")
        .env("LICENSE_DESK_SECRET_TEAM", &bench.secret)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawns");
    // In flight: the proxy holds the batch, and the ledger has it before it left.
    let deadline = Instant::now() + Duration::from_secs(30);
    while bench.proxy.received() < 2 {
        assert!(
            Instant::now() < deadline,
            "the batch never reached the proxy"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let in_flight: String = rusqlite::Connection::open(bench.journal_path())
        .expect("journal")
        .query_row(
            "SELECT state FROM writes WHERE operation = 'batch_order'",
            [],
            |r| r.get(0),
        )
        .expect("recorded before it left");
    assert_eq!(in_flight, "in_flight");
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");

    // The next start settles it: outcome unknown, with why.
    let writes = bench.writes();
    assert_eq!(
        newest(&writes),
        ("batch_order".to_owned(), "unknown".to_owned(), 0)
    );
    assert_eq!(
        writes[0]["detail"],
        "the program ended while the call was being sent; no answer was read"
    );
    assert_eq!(writes[0]["channelOrderId"], "KILLED-1");
    assert_eq!(bench.held(), (0, 0));
    let unknown = bench.call(&["writes", "--unknown"]);
    let unknown: Vec<Value> = serde_json::from_str(&unknown.stdout).expect("json");
    assert_eq!(unknown.len(), 1);
    // `call history` has it too, recorded before it left (issue 53).
    let history = bench.call(&["history"]);
    let history: Vec<Value> = serde_json::from_str(&history.stdout).expect("json");
    let killed: Vec<&Value> = history
        .iter()
        .filter(|e| e["operation"] == "batch_order")
        .collect();
    assert_eq!(killed.len(), 1, "{history:?}");
    assert_eq!(killed[0]["callId"], unknown[0]["callId"], "{history:?}");
    assert_eq!(killed[0]["state"], "unknown", "{history:?}");
}

#[test]
fn a_platform_killed_mid_batch_leaves_the_batch_whole_or_absent_and_the_outcome_unknown() {
    let bench = Bench::start(Platform::Forgets, false);
    // Large enough to be under way when the platform is killed: 2,000 orders.
    let orders: Vec<Value> = (0..2000)
        .map(|i| {
            json!({"sequence": i + 1, "channelCustomerId": "CRM-C",
                "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                "assets": [{"assetNos": [format!("82{i:08}")],
                    "products": [{"productUri": "gms:1"}, {"productUri": "gms:2"}]}]})
        })
        .collect();
    let batch = bench.file(
        "big.json",
        &json!({"channelCode": "CRM", "channelOrderId": "KILLED-PLATFORM",
            "syncMode": "sync", "orderList": orders}),
    );
    let child = Command::new(bin())
        .args(["call", "--profile", "team", "order", "--body", &batch])
        .env("HOME", bench.home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("LICENSE_DESK_KEYRING", "memory")
        .env("LICENSE_DESK_SECRET_TEAM", &bench.secret)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let deadline = Instant::now() + Duration::from_secs(30);
    while bench.proxy.received() < 2 {
        assert!(
            Instant::now() < deadline,
            "the batch never reached the proxy"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // The platform dies with the batch in its hands.
    let mut platform = bench.platform;
    platform.child.kill().expect("SIGKILL");
    platform.child.wait().expect("reaped");
    let out = child.wait_with_output().expect("call ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains(
            "sent, outcome unknown: the platform may have applied these 2000 license orders"
        ),
        "{stderr}"
    );

    // Started again on its data: the batch is there whole, or not at all; never twice.
    let data = platform.data.path().to_owned();
    let (mut again, _base, _stdout) = served::spawn_serve(&data, &[], Stdio::null());
    let conn = rusqlite::Connection::open(data.join("platform.sqlite3")).expect("open");
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).expect("count") };
    let held = (
        count("SELECT count(*) FROM license_orders"),
        count("SELECT count(*) FROM products"),
    );
    assert!(held == (0, 0) || held == (2000, 4000), "{held:?}");
    let _ = again.kill();
    let _ = again.wait();
}

/// A token endpoint that answers 200 with something that is not JSON (here the token as a form)
/// never puts the token on the terminal or in the journal.
#[test]
fn a_token_answer_that_is_not_json_leaks_no_token() {
    let bench = Bench::start(Platform::Recognises, false);
    // The profile's cached token is gone: a fresh run asks the endpoint again.
    let secret_token = "tok-SECRET-7f3a9c";
    bench.proxy.then_token(&[Fault::Answer200(
        "access_token=tok-SECRET-7f3a9c&token_type=bearer&expires_in=604800",
    )]);
    let run = bench.call(&["token"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        last(&run).starts_with("error: unexpected answer (HTTP 200): not a token answer"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(secret_token), "{}", run.stderr);
    let history = bench.call(&["history", "--operation", "token"]);
    assert!(!history.stdout.contains(secret_token), "{}", history.stdout);
    let journal = std::fs::read(bench.journal_path()).expect("journal");
    assert!(
        !journal
            .windows(secret_token.len())
            .any(|w| w == secret_token.as_bytes()),
        "the journal's file holds the token"
    );
}
