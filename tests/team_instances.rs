//! Two team servers on one PostgreSQL database as processes, one of them with its clock 90 s
//! behind (`faketime`) or paused (SIGSTOP) while it sends an approved request: the request
//! reaches the platform once (issue 53). The platform applies a repeated batch again
//! (`--test-forget-repeats`), as a production platform may, so a second sending would show.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use test_support::fault_proxy;
use test_support::pg_cluster;
use test_support::served;

use fault_proxy::{Fault, FaultProxy};
use served::{Served, bin};

const PASSWORD: &str = "长城长城 correct horse";
const BEHIND_MS: i64 = 90_000;

/// `license-desk team ARGS --database URL` with `stdin` piped in: exit code, stdout, stderr.
fn team(database: &str, args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(bin())
        .arg("team")
        .args(args)
        .args(["--database", database])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("write stdin");
    drop(input);
    let out = child.wait_with_output().expect("ends");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// A team server process on `database` before `upstream`, its clock behind by `behind`
/// seconds when given: the child and its address.
fn team_serve(
    database: &str,
    upstream: &str,
    app: &(String, String),
    dir: &Path,
    behind: Option<i64>,
) -> (Child, String) {
    let secret_file = dir.join("secret");
    std::fs::write(&secret_file, format!("{}\n", app.1)).expect("secret file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let private = std::fs::Permissions::from_mode(0o600);
        std::fs::set_permissions(&secret_file, private).expect("chmod");
    }
    let mut command = match behind {
        Some(seconds) => {
            let mut c = Command::new("faketime");
            c.args(["-f", &format!("-{seconds}s")])
                .arg(bin())
                // Only the wall clock is behind, as on a machine whose clock drifted.
                .env("FAKETIME_DONT_FAKE_MONOTONIC", "1");
            c
        }
        None => Command::new(bin()),
    };
    let mut child = command
        .args([
            "team",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--app-key",
            &app.0,
        ])
        .args(["--upstream-url", upstream, "--database", database])
        .arg("--secret-file")
        .arg(&secret_file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawns (faketime is installed: apt-get install faketime)");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("a line");
    let base = line
        .trim_end()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    (child, base)
}

/// A call to a team server: its HTTP status and JSON body.
async fn send(base: &str, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let http = reqwest::Client::new();
    let mut request = http.post(format!("{base}{path}")).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let reply = request.send().await.expect("an answer");
    let status = reply.status().as_u16();
    (status, reply.json().await.expect("json"))
}

async fn sign_in(base: &str, name: &str) -> String {
    let (status, body) = send(
        base,
        "/team/v1/session",
        None,
        json!({"name": name, "password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["token"].as_str().expect("token").to_owned()
}

fn batch(kind: &str, id: &str) -> Value {
    let products = match kind {
        "new_buy" => json!([{"productUri": "gms:1"}]),
        _ => json!([]),
    };
    json!({
        "channelCode": "CRM", "channelOrderId": id, "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "CRM-C",
            "licenseType": "normal_recover_usbkey", "orderType": kind,
            "assets": [{"assetNos": ["8000000001"], "products": products}]}]
    })
}

fn order_path(id: &str) -> String {
    format!("/order/api/order/v1/licenseOrder/batchOrder?g_nonce={id}")
}

/// Delete orders the platform applied.
fn deletes_applied(platform: &Served) -> i64 {
    let db = rusqlite::Connection::open(platform.data.path().join("platform.sqlite3"))
        .expect("platform db");
    db.query_row(
        "SELECT count(*) FROM license_orders WHERE order_type = 'delete_asset'",
        [],
        |row| row.get(0),
    )
    .expect("count")
}

/// Two team servers on one database before one platform: `a` (its clock behind by `behind`
/// seconds when given) calls the platform through `proxy`, `b` directly. li's delete is
/// held as R-1, and wang is signed in on `a` with R-1's approval in hand.
struct Pair {
    runtime: tokio::runtime::Runtime,
    database: String,
    platform: Served,
    proxy: FaultProxy,
    a: (Child, String),
    b: (Child, String),
    /// wang's session on `a`, and the body approving R-1.
    approval: (String, Value),
    dir: tempfile::TempDir,
}

const APPROVE: &str = "/team/v1/requests/R-1/approve";

impl Pair {
    fn start(behind: Option<i64>) -> Option<Pair> {
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        let database = runtime.block_on(pg_cluster::database())?;
        let platform = Served::start(&["--test-forget-repeats".as_ref()]);
        let app = platform.app("auth_order,auth_activity");
        let proxy = FaultProxy::start(&platform.base);
        let dir = tempfile::tempdir().expect("temp dir");
        let (code, _, err) = team(&database, &["init", "--admin", "wang"], PASSWORD);
        assert_eq!(code, Some(0), "{err}");
        let li = ["user", "add", "li", "--role", "staff", "--branch", "SH01"];
        let li = [&li[..], &["--branch-name", "上海"]].concat();
        let (code, _, err) = team(&database, &li, PASSWORD);
        assert_eq!(code, Some(0), "{err}");
        let a = team_serve(&database, &proxy.base, &app, dir.path(), behind);
        let b = team_serve(&database, &platform.base, &app, dir.path(), None);
        let approval = runtime.block_on(held_delete(&a.1, &b.1));
        Some(Pair {
            runtime,
            database,
            platform,
            proxy,
            a,
            b,
            approval,
            dir,
        })
    }

    /// wang approves R-1 through `a`, whose first token request (the sending's) the proxy
    /// holds: the approval's answer, once it comes.
    fn approve_held_on_a(&self) -> tokio::task::JoinHandle<(u16, Value)> {
        self.proxy.then_token(&[Fault::Hold]);
        let (a, (wang, body)) = (self.a.1.clone(), self.approval.clone());
        let sending = self
            .runtime
            .spawn(async move { send(&a, APPROVE, Some(&wang), body).await });
        while self.proxy.holding() == 0 {
            std::thread::yield_now();
        }
        sending
    }

    /// wang approves R-1 again, through `b`.
    fn approve_on_b(&self) -> (u16, Value) {
        self.runtime.block_on(async {
            let wang = sign_in(&self.b.1, "wang").await;
            send(&self.b.1, APPROVE, Some(&wang), self.approval.1.clone()).await
        })
    }

    /// R-1's state, as `b` shows it.
    fn request_state(&self) -> String {
        self.runtime.block_on(async {
            let wang = sign_in(&self.b.1, "wang").await;
            let shown = reqwest::Client::new()
                .get(format!("{}/team/v1/requests/R-1", self.b.1))
                .bearer_auth(&wang)
                .send()
                .await
                .expect("shown");
            let shown: Value = shown.json().await.expect("json");
            shown["data"]["state"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
    }

    fn repair(&self) -> String {
        let (code, out, err) = team(&self.database, &["requests", "repair"], "");
        assert_eq!(code, Some(0), "{err}");
        out.trim().to_owned()
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        for child in [&mut self.a.0, &mut self.b.0] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// wang buys an asset through `b`, li's delete of it is held as R-1 there, and wang signs in
/// on `a`: his session there and the body approving R-1 as shown.
async fn held_delete(a: &str, b: &str) -> (String, Value) {
    let wang = sign_in(b, "wang").await;
    let (_, bought) = send(b, &order_path("B-1"), Some(&wang), batch("new_buy", "B-1")).await;
    assert_eq!(bought["code"], 0, "{bought}");
    let li = sign_in(b, "li").await;
    let delete = batch("delete_asset", "D-1");
    let held = send(b, &order_path("D-1"), Some(&li), delete).await;
    assert_eq!(held.0, 202, "{held:?}");
    let shown = reqwest::Client::new()
        .get(format!("{b}/team/v1/requests/R-1"))
        .bearer_auth(&wang)
        .send()
        .await
        .expect("shown");
    let shown: Value = shown.json().await.expect("json");
    let wang_on_a = sign_in(a, "wang").await;
    (wang_on_a, json!({ "bodyHash": shown["data"]["bodyHash"] }))
}

fn now_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970");
    i64::try_from(since.as_millis()).expect("ms")
}

#[test]
fn an_instance_whose_clock_is_behind_is_not_taken_for_stopped_and_sends_once() {
    let Some(pair) = Pair::start(Some(90)) else {
        return;
    };
    let sending = pair.approve_held_on_a();
    assert_eq!(
        pair.repair(),
        r#"{"writes":0,"requests":[]}"#,
        "nothing settled"
    );
    let again = pair.approve_on_b();
    assert_eq!(again.0, 409, "approved already: {again:?}");

    pair.proxy.release();
    let (status, sent) = pair.runtime.block_on(sending).expect("the sending ends");
    assert_eq!(
        (status, &sent["data"]["state"]),
        (200, &json!("done")),
        "{sent}"
    );
    assert_eq!(
        deletes_applied(&pair.platform),
        1,
        "the platform got the delete once"
    );
    let begun_at = pair.runtime.block_on(begun_at(&pair.database));
    assert!(
        now_ms() - begun_at > BEHIND_MS - 10_000,
        "the instance's clock was behind: begun at {begun_at}"
    );
}

/// An instance paused (SIGSTOP) while its sending's token request is held, for longer than
/// the others wait for it: they settle its request (not sent), it is approved again and sent
/// through another; when the paused one goes on (SIGCONT) its claim is taken and it sends
/// nothing. An instance is taken for stopped after 60 s unseen by the store's clock; rather
/// than wait that minute, the test moves the paused instance's last beat back past it, which
/// is all the others judge it by.
#[cfg(unix)]
#[test]
fn an_instance_paused_past_its_time_sends_nothing_once_its_claim_was_taken() {
    let Some(pair) = Pair::start(None) else {
        return;
    };
    let sending = pair.approve_held_on_a();
    let pid = libc::pid_t::try_from(pair.a.0.id()).expect("pid");
    // SAFETY: a signal to a child process this test started and still owns.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGSTOP) }, 0);
    let gone_ms = i64::try_from(team::instances::GONE_AFTER.as_millis()).expect("ms");
    pair.runtime
        .block_on(sender_unseen_for(&pair.database, gone_ms + 1_000));
    // Settled by `team requests repair` or by `b`'s own beat, whichever comes first.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while pair.request_state() != "not_sent" {
        assert!(std::time::Instant::now() < deadline, "never settled");
        pair.repair();
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let again = pair.approve_on_b();
    assert_eq!(
        (again.0, &again.1["data"]["state"]),
        (200, &json!("done")),
        "{again:?}"
    );

    pair.proxy.release();
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGCONT) }, 0);
    let (status, said) = pair.runtime.block_on(sending).expect("the sending ends");
    assert_eq!(
        (status, &said["cause"]),
        (409, &json!("claim_taken")),
        "{said}"
    );
    assert_eq!(
        deletes_applied(&pair.platform),
        1,
        "the platform got the delete once"
    );
}

/// Moves the last beat of R-1's sender back by `ms`, as if it had been unseen that much longer.
async fn sender_unseen_for(database: &str, ms: i64) {
    let (client, connection) = tokio_postgres::connect(database, tokio_postgres::NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    let moved = client
        .execute(
            "UPDATE team_instances SET seen_at = seen_at - $1 \
             WHERE id = (SELECT sender FROM requests WHERE seq = 1)",
            &[&ms],
        )
        .await
        .expect("moved");
    assert_eq!(moved, 1, "R-1's sender is listed");
}

/// When the sending's `begun` entry says it was written, by the clock of its instance.
async fn begun_at(database: &str) -> i64 {
    let (client, connection) = tokio_postgres::connect(database, tokio_postgres::NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    let row = client
        .query_one(
            "SELECT at FROM audit WHERE outcome = 'begun' AND message = 'R-1'",
            &[],
        )
        .await
        .expect("the begun entry");
    row.get(0)
}

/// The team server killed (SIGKILL) while the platform works on a batch, on PostgreSQL: the
/// batch is in the record, begun, naming its `channelOrderId`, `team audit verify` accepts the
/// record, and the platform holds the batch (issue 53; `cli_team.rs` does the same on SQLite).
#[cfg(unix)]
#[test]
fn a_team_server_on_postgresql_killed_mid_batch_leaves_the_batch_begun_in_its_record() {
    let Some(mut pair) = Pair::start(None) else {
        return;
    };
    pair.proxy.then(&[Fault::Hold]);
    let call = {
        let a = pair.a.1.clone();
        pair.runtime.spawn(async move {
            let wang = sign_in(&a, "wang").await;
            let http = reqwest::Client::new();
            let url = format!("{a}{}", order_path("K-1"));
            let mut batch = batch("new_buy", "K-1");
            batch["orderList"][0]["assets"][0]["assetNos"] = json!(["8000000002"]);
            http.post(url).bearer_auth(wang).json(&batch).send().await
        })
    };
    while pair.proxy.holding() == 0 {
        std::thread::yield_now();
    }
    pair.a.0.kill().expect("killed");
    let _ = pair.a.0.wait();
    pair.proxy.release();
    while pair.proxy.forwarded() == 0 {
        std::thread::yield_now();
    }
    let answered = pair.runtime.block_on(call).expect("ends");
    assert!(answered.is_err(), "no answer from a killed server");

    let csv = pair.dir.path().join("audit.csv");
    let export = ["audit", "export", "--output", csv.to_str().expect("path")];
    let (code, _, err) = team(&pair.database, &export, "");
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&csv).expect("csv");
    let begun: Vec<&str> = text.lines().filter(|l| l.contains("K-1")).collect();
    assert_eq!(begun.len(), 1, "{text}");
    assert!(begun[0].contains("begun"), "{text}");
    let (code, out, err) = team(&pair.database, &["audit", "verify"], "");
    assert_eq!(code, Some(0), "{out}{err}");
    // The platform applies the batch after the proxy forwarded it; nobody waits for its answer.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while batches_named(&pair.platform, "K-1") == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the platform never held the batch"
        );
        std::thread::yield_now();
    }
    assert_eq!(batches_named(&pair.platform, "K-1"), 1);
}

fn batches_named(platform: &Served, channel_order_id: &str) -> i64 {
    let db = rusqlite::Connection::open(platform.data.path().join("platform.sqlite3"))
        .expect("platform db");
    db.query_row(
        // The platform forgetting repeats keeps each under the id and a suffix of its own.
        "SELECT count(*) FROM batches \
         WHERE channel_order_id = ?1 OR channel_order_id LIKE ?1 || '#%'",
        [channel_order_id],
        |row| row.get(0),
    )
    .expect("count")
}
