//! Two team servers on one PostgreSQL database as processes, one of them with its clock 90 s
//! behind (`faketime`): it is not taken for stopped, and an approved request it sends reaches
//! the platform once (issue 53). The platform applies a repeated batch again
//! (`--test-forget-repeats`), as a production platform may, so a second sending would show.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

#[path = "support/fault_proxy.rs"]
mod fault_proxy;
#[path = "../crates/platform/tests/support/pg_cluster.rs"]
mod pg_cluster;
#[path = "support/served.rs"]
mod served;

use fault_proxy::{Fault, FaultProxy};
use served::{BIN, Served};

const PASSWORD: &str = "长城长城 correct horse";
const BEHIND_MS: i64 = 90_000;

/// `license-desk team ARGS --database URL` with `stdin` piped in: exit code, stdout, stderr.
fn team(database: &str, args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
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
            c.args(["-f", &format!("-{seconds}s"), BIN])
                // Only the wall clock is behind, as on a machine whose clock drifted.
                .env("FAKETIME_DONT_FAKE_MONOTONIC", "1");
            c
        }
        None => Command::new(BIN),
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

#[test]
fn an_instance_whose_clock_is_behind_is_not_taken_for_stopped_and_sends_once() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let Some(database) = runtime.block_on(pg_cluster::database()) else {
        return;
    };
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
    let (mut behind, a) = team_serve(&database, &proxy.base, &app, dir.path(), Some(90));
    let (mut on_time, b) = team_serve(&database, &platform.base, &app, dir.path(), None);

    let held = runtime.block_on(async {
        let wang = sign_in(&b, "wang").await;
        let (_, bought) = send(&b, &order_path("B-1"), Some(&wang), batch("new_buy", "B-1")).await;
        assert_eq!(bought["code"], 0, "{bought}");
        let li = sign_in(&b, "li").await;
        let delete = batch("delete_asset", "D-1");
        send(&b, &order_path("D-1"), Some(&li), delete).await
    });
    assert_eq!(held.0, 202, "{held:?}");
    let path = "/team/v1/requests/R-1/approve";
    let approve = runtime.block_on(async {
        let wang = sign_in(&a, "wang").await;
        let http = reqwest::Client::new();
        let shown = http
            .get(format!("{b}/team/v1/requests/R-1"))
            .bearer_auth(&wang)
            .send()
            .await
            .expect("shown");
        let shown: Value = shown.json().await.expect("json");
        (wang, json!({ "bodyHash": shown["data"]["bodyHash"] }))
    });

    // The instance behind fetches its first token for the sending; the proxy holds it.
    proxy.then_token(&[Fault::Hold]);
    let sending = {
        let (a, (wang, body)) = (a.clone(), approve.clone());
        runtime.spawn(async move { send(&a, path, Some(&wang), body).await })
    };
    while proxy.holding() == 0 {
        std::thread::yield_now();
    }
    let (code, out, err) = team(&database, &["requests", "repair"], "");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out.trim(),
        r#"{"writes":0,"requests":[]}"#,
        "nothing settled"
    );
    let again = runtime.block_on(async {
        let wang = sign_in(&b, "wang").await;
        send(&b, path, Some(&wang), approve.1.clone()).await
    });
    assert_eq!(again.0, 409, "approved already: {again:?}");

    proxy.release();
    let (status, sent) = runtime.block_on(sending).expect("the sending ends");
    assert_eq!(
        (status, &sent["data"]["state"]),
        (200, &json!("done")),
        "{sent}"
    );
    assert_eq!(
        deletes_applied(&platform),
        1,
        "the platform got the delete once"
    );
    let begun_at = runtime.block_on(begun_at(&database));
    let now = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_millis(),
    )
    .expect("ms");
    assert!(
        now - begun_at > BEHIND_MS - 10_000,
        "the instance's clock was behind: begun at {begun_at}, now {now}"
    );
    for child in [&mut behind, &mut on_time] {
        let _ = child.kill();
        let _ = child.wait();
    }
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
