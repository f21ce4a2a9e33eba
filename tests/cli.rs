//! The command line as a user runs it: `serve` and `app create`, as separate processes.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_license-desk");

fn app_create(data: &std::path::Path, scopes: &str) -> Value {
    let out = Command::new(BIN)
        .args([
            "app", "create", "--name", "cli test", "--scopes", scopes, "--data",
        ])
        .arg(data)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(stdout.lines().count(), 1, "one line: {stdout}");
    let v: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert!(v["appKey"].as_str().is_some_and(|k| k.starts_with("ak_")));
    assert!(v["appSecret"].as_str().is_some_and(|s| s.len() >= 40));
    assert_eq!(v.as_object().expect("object").len(), 2);
    v
}

/// Starts `serve` and returns it with its base URL, read from its one stdout line.
fn serve(data: &std::path::Path) -> (Child, String, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("a line");
    let base = line
        .trim_end()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    (child, base, stdout)
}

fn wait_exit(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        assert!(start.elapsed() < within, "did not exit within {within:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[tokio::test]
async fn serve_answers_apps_created_while_it_runs_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, base, mut stdout) = serve(dir.path());

    // Created after the server started, on the same data dir.
    let app = app_create(dir.path(), "auth_order");
    let http = reqwest::Client::new();
    let token: Value = http
        .post(format!("{base}/v3/api/oauth2/token"))
        .basic_auth(
            app["appKey"].as_str().expect("key"),
            app["appSecret"].as_str(),
        )
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("json");
    assert_eq!(token["scope"], "auth_order");
    let nums: Value = http
        .post(format!("{base}/order/api/order/v1/shellnums"))
        .query(&[("g_nonce", "cli-1")])
        .bearer_auth(token["access_token"].as_str().expect("token"))
        .json(&json!({"size": 2}))
        .send()
        .await
        .expect("call")
        .json()
        .await
        .expect("json");
    assert_eq!(
        nums,
        json!({"code": 0, "message": "success", "data": ["8000000001", "8000000002"]})
    );

    // A second server on the same data dir is refused.
    let second = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert!(!second.status.success());
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(
        err.contains("another platform already runs on the data directory"),
        "{err}"
    );

    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = wait_exit(&mut child, Duration::from_secs(10));
    assert!(status.success(), "clean exit on SIGTERM: {status:?}");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("rest of stdout");
    assert_eq!(rest, "", "exactly one line on stdout");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert!(stderr.contains("stopped"), "{stderr}");
    assert!(
        !stderr.contains(token["access_token"].as_str().expect("token")),
        "no token in the log"
    );
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().expect("dir");
    let out = Command::new(BIN)
        .args([
            "app",
            "create",
            "--name",
            "x",
            "--scopes",
            "auth_order,admin",
            "--data",
        ])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: unknown scope \"admin\": use auth_order and/or auth_activity"
    );
    let out = Command::new(BIN)
        .args(["serve", "--region", "7", "--data"])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("the region is 8 (domestic) or 6 (Singapore)")
    );
    let both = app_create(dir.path(), "auth_order, auth_activity");
    assert_ne!(both["appKey"], Value::Null);
}
