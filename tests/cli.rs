//! The command line as a user runs it: `serve` and `app create`, as separate processes.

use std::io::BufReader;
#[cfg(unix)]
use std::io::Read;
use std::process::{Child, Command, Stdio};
#[cfg(unix)]
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use test_support::served;

use served::bin;

fn app_create(data: &std::path::Path, scopes: &str) -> Value {
    let out = Command::new(bin())
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

/// Starts `serve` and returns it with its base URL and its stdout, stderr kept.
fn serve(data: &std::path::Path) -> (Child, String, BufReader<std::process::ChildStdout>) {
    let (child, base, stdout) = served::spawn_serve(data, &[], Stdio::piped());
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    (child, base, stdout)
}

#[cfg(unix)]
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
    // A wrong secret, and an app key that tries to forge a log line.
    let forged = "ak_x\nFORGED INFO all is well";
    for key in [app["appKey"].as_str().expect("key"), forged] {
        let refused = http
            .post(format!("{base}/v3/api/oauth2/token"))
            .basic_auth(key, Some("wrong"))
            .form(&[("grant_type", "client_credentials")])
            .send()
            .await
            .expect("token");
        assert_eq!(refused.status(), 401);
    }

    // A second server on the same data dir is refused.
    let second = Command::new(bin())
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
    let key = app["appKey"].as_str().expect("key");
    assert!(
        stderr.lines().any(|l| l.contains("token request refused")
            && l.contains("address=\"127.0.0.1\"")
            && l.contains(&format!("app_key=\"{key}\""))),
        "failed token requests are logged with address and app key: {stderr}"
    );
    assert!(
        stderr.lines().any(|l| l.contains("request")
            && l.contains("path=\"/order/api/order/v1/shellnums\"")
            && l.contains(&format!("app_key=\"{key}\""))
            && l.contains("address=127.0.0.1")),
        "the access log names the address and app key: {stderr}"
    );
    assert!(
        !stderr.lines().any(|l| l.starts_with("FORGED")),
        "a line break in a request is escaped in the log: {stderr}"
    );
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let dir = tempfile::tempdir().expect("dir");
    let out = Command::new(bin())
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
    let out = Command::new(bin())
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

/// `--database` is a PostgreSQL URL, never beside `--data`, and its password is never shown:
/// not by a refusal, nor when the database cannot be reached (port 1: nothing listens).
#[test]
fn database_arguments_are_refused_with_a_reason_and_no_password() {
    let dir = tempfile::tempdir().expect("dir");
    let stderr = |args: &[&str]| {
        let out = Command::new(bin())
            .args(args)
            .env("PGPASSWORD", "pw-from-env")
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let data = dir.path().to_str().expect("utf-8 path");
    let err = stderr(&["serve", "--data", data, "--database", "postgresql://d@h/db"]);
    assert!(
        err.contains("the argument '--data <DATA>' cannot be used with '--database <URL>'"),
        "{err}"
    );
    let err = stderr(&[
        "app",
        "create",
        "--name",
        "x",
        "--scopes",
        "auth_order",
        "--database",
        data,
    ]);
    assert!(
        err.contains("--database takes a PostgreSQL URL, postgresql://USER@HOST[:PORT]/DATABASE"),
        "{err}"
    );
    let err = stderr(&["serve", "--database-pool", "4"]);
    assert!(err.contains("--database <URL>"), "{err}");
    let err = stderr(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--database",
        "postgresql://desk:pw-in-url@127.0.0.1:1/license",
    ]);
    assert!(
        err.contains("cannot use the database postgresql://desk@127.0.0.1:1/license: "),
        "{err}"
    );
    assert!(
        !err.contains("pw-in-url") && !err.contains("pw-from-env"),
        "{err}"
    );
    assert!(
        std::fs::read_dir(dir.path()).expect("dir").next().is_none(),
        "nothing written to the data directory"
    );
}

/// `license-desk call` on a fresh HOME: the Sandbox starts, is provisioned, and answers.
fn call(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(bin())
        .arg("call")
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("LICENSE_DESK_KEYRING", "memory")
        .env("RUST_LOG", "debug")
        .output()
        .expect("runs")
}

#[test]
fn call_runs_operations_on_the_sandbox_of_a_fresh_home() {
    let home = tempfile::tempdir().expect("home");
    let out = call(home.path(), &["shellnums", "3"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let nums: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(nums, json!(["8000000001", "8000000002", "8000000003"]));

    // The demo locks: re-issuable, not lockable, unknown.
    let out = call(
        home.path(),
        &["lock", "8900000001", "8900000006", "8999999999"],
    );
    // Two of the three refused inside the answer: printed whole, and exit 3 with why.
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).lines().last(),
        Some("error: the platform answered with a refusal: status 2: 1 of 3, status 4: 1 of 3")
    );
    // As CSV, a number a spreadsheet would run as a formula is written as text.
    let csv = call(
        home.path(),
        &["--format", "csv", "lock", "=1+1", "@SUM(A1)", "8900000001"],
    );
    assert_eq!(csv.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&csv.stdout),
        "assetNum,status\n'=1+1,2\n'@SUM(A1),2\n8900000001,1\n"
    );
    // A terminal never gets a platform's control characters: an escape sequence in an asset
    // number comes back escaped in a table.
    let table = call(
        home.path(),
        &["--format", "table", "lock", "\u{1b}[2J\u{1b}[31mRED"],
    );
    assert_eq!(table.status.code(), Some(3));
    assert!(!table.stdout.contains(&0x1b), "{:?}", table.stdout);
    assert_eq!(
        String::from_utf8_lossy(&table.stdout),
        "assetNum                status\n\\u{1b}[2J\\u{1b}[31mRED  3\n"
    );
    // A claim answered 3002 (no unit left) is a refusal too: the answer, then why, exit 3.
    let claimed = call(
        home.path(),
        &[
            "claim",
            "--identity",
            "13800138000",
            "--label",
            "sold-out-2026",
            "--source",
            "license-desk",
            "--branch",
            "北京分公司",
        ],
    );
    assert_eq!(claimed.status.code(), Some(3));
    let claim: Value = serde_json::from_slice(&claimed.stdout).expect("json");
    assert_eq!(claim["resultCode"], "3002");
    assert_eq!(
        String::from_utf8_lossy(&claimed.stderr).lines().last(),
        Some(
            "error: the platform answered with a refusal: 3002: the participant meets the conditions of no unit of activity A-SOLDOUT"
        )
    );
    let locks: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        locks,
        json!([{"assetNum": "8900000001", "status": 1}, {"assetNum": "8900000006", "status": 4},
               {"assetNum": "8999999999", "status": 2}])
    );

    // A refusal: exit code 3, the platform's code and message verbatim.
    let out = call(home.path(), &["shellnums", "0"]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: the platform refused: 13004: size: must be between 1 and 1000"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    // Everything is in the journal, newest first; exported as CSV too.
    let out = call(home.path(), &["history", "--operation", "shellnums"]);
    let history: Value = serde_json::from_slice(&out.stdout).expect("json");
    let codes: Vec<&str> = history
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, ["13004", "0"]);
    let csv = home.path().join("calls.csv");
    let out = call(
        home.path(),
        &["history", "--csv", csv.to_str().expect("utf-8")],
    );
    assert!(out.status.success());
    let text = std::fs::read_to_string(&csv).expect("csv");
    assert!(
        text.starts_with("id,at,profile,operation,method,path,nonce,httpStatus,code"),
        "{text}"
    );

    // No secret in the files written or the debug log: the Sandbox's app secret is only in
    // memory (LICENSE_DESK_KEYRING=memory), so look for the token the log could have leaked.
    let out = call(home.path(), &["token"]);
    assert!(out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(tokens_in_clear(&log), 0, "{log}");
    let mut redacted = 0;
    for entry in walk(home.path()) {
        let bytes = std::fs::read(&entry).expect("read");
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(tokens_in_clear(&text), 0, "a token in {}", entry.display());
        redacted += text.matches(r#""access_token":"***""#).count();
    }
    assert!(redacted > 0, "the token answers are journaled, redacted");
}

/// Occurrences of `"access_token":"` followed by anything but `***`.
fn tokens_in_clear(text: &str) -> usize {
    text.match_indices(r#""access_token":""#)
        .filter(|(i, m)| !text[i + m.len()..].starts_with(r#"***""#))
        .count()
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `order check` (the console's validation) and the platform give the same verdict on the same
/// files: both accept the valid ones; on the others the platform's 13004 names the first problem
/// `order check` lists and counts all of them; a file that is not a batch order is exit 2 for
/// `order check` and a 13004 naming the same field for the platform.
#[tokio::test]
async fn order_check_and_the_platform_agree_on_the_same_files() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, base, _stdout) = serve(dir.path());
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
    let token = token["access_token"].as_str().expect("token").to_owned();

    let files = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/orders");
    let mut names: Vec<_> = std::fs::read_dir(&files)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    assert_eq!(names.len(), 7);
    for (n, file) in names.iter().enumerate() {
        let check = Command::new(bin())
            .args(["order", "check"])
            .arg(file)
            .output()
            .expect("runs");
        let all = String::from_utf8(check.stdout).expect("utf-8");
        // Keys of no field are warnings: the platform ignores them, so they neither make the
        // file wrong nor are in its 13004.
        let (warnings, listed): (Vec<&str>, Vec<&str>) =
            all.lines().partition(|l| l.contains(": warning: "));
        for w in &warnings {
            assert!(
                w.ends_with(": not a field of the interface; kept and sent as is"),
                "{w}"
            );
        }
        let listed = listed.join("\n");
        let body = std::fs::read(file).expect("file");
        let answer: Value = http
            .post(format!("{base}/order/api/order/v1/licenseOrder/batchOrder"))
            .query(&[
                ("g_nonce", format!("verdict-{n}").as_str()),
                ("appKey", app["appKey"].as_str().expect("key")),
            ])
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("call")
            .json()
            .await
            .expect("json");
        let name = file.file_name().expect("name").to_string_lossy();
        match check.status.code() {
            Some(0) => {
                assert!(listed.is_empty(), "{name}: {listed}");
                assert_eq!(answer["code"], json!(0), "{name}: {answer}");
            }
            Some(1) => {
                // `FILE:LINE:COLUMN: path: message`, in the file's order.
                let prefix = format!("{}:", file.display());
                let problems: Vec<&str> = listed
                    .lines()
                    .map(|l| {
                        let placed = l.strip_prefix(&prefix).expect("the file's name first");
                        let mut parts = placed.splitn(3, ':');
                        let (line, column) = (parts.next(), parts.next());
                        assert!(line.and_then(|l| l.parse::<usize>().ok()).is_some(), "{l}");
                        assert!(
                            column.and_then(|c| c.parse::<usize>().ok()).is_some(),
                            "{l}"
                        );
                        parts.next().expect("problem").trim_start()
                    })
                    .collect();
                assert_eq!(answer["code"], "13004", "{name}: {answer}");
                let message = answer["message"].as_str().expect("message");
                assert!(problems.contains(&message), "{name}: {message}");
                let cause = answer["cause"].as_str().expect("cause");
                assert!(
                    cause.contains(&format!("{} problem", problems.len())),
                    "{name}: {cause}"
                );
                for p in &problems {
                    assert!(cause.contains(p), "{name}: {p} not in {cause}");
                }
            }
            // Not a batch at all: stdout empty, the place on stderr.
            Some(2) => {
                // Not JSON: the same place and words for both.
                let stderr = String::from_utf8_lossy(&check.stderr);
                let placed = stderr
                    .trim_end()
                    .strip_prefix(&format!("{}:", file.display()))
                    .expect("the file's name first");
                let mut parts = placed.splitn(3, ':');
                let (line, column) = (parts.next().expect("line"), parts.next().expect("column"));
                let what = parts.next().expect("what").trim_start();
                assert_eq!(answer["code"], "13004", "{name}: {answer}");
                let message = answer["message"].as_str().expect("message");
                assert!(
                    message.contains(&format!("line {line} column {column}")),
                    "{name}: {message}"
                );
                assert!(what.starts_with("not JSON: "), "{what}");
            }
            other => panic!("{name}: exit {other:?}"),
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A file with five problems of different kinds (an unknown value, a wrong type, a missing
/// A device or a pipe is refused at once, saying so (reading one would never end); the exit
/// code is that of a file that is not an order (2).
#[cfg(unix)]
#[test]
fn order_check_refuses_what_is_not_a_regular_file_at_once() {
    let dir = tempfile::tempdir().expect("dir");
    let fifo = dir.path().join("pipe.json");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for path in [std::path::Path::new("/dev/zero"), fifo.as_path()] {
        let out = Command::new(bin())
            .args(["order", "check"])
            .arg(path)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{path:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim_end(),
            format!(
                "{}: not a regular file (a folder, a device or a pipe); an order file is a file on disk",
                path.display()
            )
        );
    }
}

/// A file with a problem in each of five places (an unknown value, a wrong type, a missing
/// field, a rule, a wrong type nested in a package) gives all five, each with its field path and
/// its line and column, in the file's order; exit 1.
#[test]
fn order_check_lists_every_problem_of_a_file_with_its_place() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/orders/five-problems.json");
    let out = Command::new(bin())
        .args(["order", "check"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let listed = String::from_utf8(out.stdout).expect("utf-8");
    let prefix = format!("{}:", file.display());
    let lines: Vec<&str> = listed
        .lines()
        .map(|l| l.strip_prefix(&prefix).expect("the file's name first"))
        .collect();
    let m = "orderList[0].assets[0].merchandises[0]";
    assert_eq!(
        lines,
        [
            "9:22: orderList[0].licenseType: golden_usbkey is not a value the interface lists for this field".to_owned(),
            "14:27: orderList[0].assets[0].limitEndDate: must be a date as epoch milliseconds (a whole number)".to_owned(),
            format!("17:13: {m}.merchandiseNum: required"),
            format!("19:41: {m}.timeDurationExpression: must be years-months-days, as 1-0-0 for one year or 0-6-0 for six months"),
            format!("21:63: {m}.licenseOrderProductList[0].limitConcurrent: must be a whole number"),
        ]
    );
}

fn sheets() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sheets")
}

fn from_sheet(file: &std::path::Path) -> (Option<i32>, Value, String) {
    let out = Command::new(bin())
        .args(["order", "from-sheet"])
        .arg(file)
        .output()
        .expect("runs");
    let json = serde_json::from_slice(&out.stdout).expect("a batch as JSON");
    let err = String::from_utf8(out.stderr).expect("utf-8");
    (out.status.code(), json, err)
}

/// A workbook with Chinese headers: rows grouped into orders and assets, a package from its
/// number, the spreadsheet date as the last millisecond of that day, and no problem.
#[test]
fn a_chinese_sheet_becomes_a_batch() {
    let (code, batch, err) = from_sheet(&sheets().join("orders-zh.xlsx"));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(batch["channelOrderId"], "SHEET-ZH-1");
    let orders = batch["orderList"].as_array().expect("orders");
    assert_eq!(orders.len(), 2);
    let asset = &orders[0]["assets"][0];
    assert_eq!(asset["assetNos"], json!(["8100000011", "8100000012"]));
    let end = jiff::civil::date(2027, 12, 31);
    assert_eq!(
        asset["limitEndDate"],
        json!(support::clock::day_ms(end, true).expect("ms"))
    );
    assert_eq!(
        asset["products"],
        json!([{"productUri": "gms:1001", "productName": "基础版", "limitConcurrent": 2}])
    );
    let package = &asset["merchandises"][0];
    assert_eq!(package["merchandiseNum"], "PKG-1");
    assert_eq!(
        package["licenseOrderProductList"][0]["productUri"],
        "gms:2001"
    );
    assert_eq!(orders[1]["licenseType"], "softkey");
    assert_eq!(orders[1]["customerName"], "上海示例有限公司");
}

/// Every problem of a sheet at its cell (`Orders!E2`), a header that names no column among
/// them; the batch is still written, with what did not fit kept as it was.
#[test]
fn a_sheet_s_problems_point_at_their_cells() {
    let (code, batch, err) = from_sheet(&sheets().join("problems-en.xlsx"));
    assert_eq!(code, Some(1));
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "Orders!K1: Colour: not a column of the order sheet; its cells were not read",
            "Orders!E2: orderList[0].licenseType: golden_usbkey is not a value the interface lists for this field",
            "Orders!H2: orderList[0].assets[0].limitEndDate: must be a date: year-month-day, as 2027-11-23",
            "Orders!J2: orderList[0].assets[0].products[0].limitConcurrent: must be a whole number",
            "Orders!I3: orderList[1].assets[0].products[0].productUri: required for new_buy",
        ]
    );
    assert_eq!(batch["orderList"][0]["licenseType"], "golden_usbkey");
    assert_eq!(
        batch["orderList"][0]["assets"][0]["limitEndDate"],
        "31/12/2027 noon"
    );
}

/// The same CSV in UTF-8 (with a byte-order mark) and in GB18030 gives the same batch; order
/// and license types may be written in words.
#[test]
fn csv_in_utf8_and_gb18030_give_the_same_batch() {
    let (code, utf8, err) = from_sheet(&sheets().join("orders-utf8.csv"));
    assert_eq!(code, Some(0), "{err}");
    let (code, gb, err) = from_sheet(&sheets().join("orders-gb18030.csv"));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(utf8, gb);
    assert_eq!(utf8["orderList"][0]["customerName"], "广州示例有限公司");
    // Words in place of codes, as the window shows them (half-width brackets too).
    assert_eq!(utf8["orderList"][0]["orderType"], "new_buy");
    assert_eq!(utf8["orderList"][0]["licenseType"], "normal_recover_usbkey");
    let products = utf8["orderList"][0]["assets"][0]["products"]
        .as_array()
        .expect("products");
    assert_eq!(products.len(), 2);
    assert_eq!(utf8["orderList"][0]["assets"][0]["borrowedUsbKey"], false);
}

/// The template's example rows, one per order type, on their own sheet, make a batch `order
/// check` accepts; its first sheet, the one read by default, holds no order.
#[test]
fn the_template_s_examples_pass_order_check() {
    let dir = tempfile::tempdir().expect("dir");
    let template = dir.path().join("template.xlsx");
    let out = Command::new(bin())
        .args(["order", "template"])
        .arg(&template)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, batch, _) = from_sheet(&template);
    assert_eq!(code, Some(1));
    assert_eq!(batch["orderList"], json!([]));
    let out = Command::new(bin())
        .args(["order", "from-sheet", "--sheet", "Examples 示例"])
        .arg(&template)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let batch: Value = serde_json::from_slice(&out.stdout).expect("a batch as JSON");
    let types: Vec<&str> = batch["orderList"]
        .as_array()
        .expect("orders")
        .iter()
        .map(|o| o["orderType"].as_str().expect("type"))
        .collect();
    assert_eq!(types, ["new_buy", "delete_asset", "delete_product"]);
    let json = dir.path().join("batch.json");
    std::fs::write(&json, batch.to_string()).expect("write");
    let check = Command::new(bin())
        .args(["order", "check"])
        .arg(&json)
        .output()
        .expect("runs");
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

fn catalog(home: &std::path::Path, args: &[&str]) -> (bool, Value, String) {
    let out = Command::new(bin())
        .arg("catalog")
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("LICENSE_DESK_KEYRING", "memory")
        .output()
        .expect("runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.success(), json, err)
}

#[test]
fn catalog_lists_searches_exports_and_imports_on_a_fresh_home() {
    let home = tempfile::tempdir().expect("home");
    let (ok, found, err) = catalog(home.path(), &["list", "--search", "jjrj"]);
    assert!(ok, "{err}");
    let names: Vec<&str> = found
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|k| k["item"]["productName"].as_str())
        .collect();
    assert_eq!(names, ["计价软件", "计价软件 网络版"]);
    let (ok, customers, err) = catalog(home.path(), &["list", "customers", "--search", "上海"]);
    assert!(ok, "{err}");
    assert_eq!(customers[0]["item"]["enterpriseGlobalId"], "EG0000000002");

    let file = home.path().join("branch-catalog.json");
    let path = file.display().to_string();
    let (ok, exported, err) = catalog(home.path(), &["export", &path]);
    assert!(ok, "{err}");
    assert_eq!(exported["exported"], 8, "7 products and a package");
    let written: Value =
        serde_json::from_slice(&std::fs::read(&file).expect("file")).expect("json");
    assert_eq!(written["packages"][0]["merchandiseNum"], "PKG-STARTER");
    // The directory goes only where it is asked for.
    assert!(written.get("customers").is_none());

    // Another home, whose catalog starts with one of the products renamed: the import says
    // what it would change, changes nothing on a dry run, then changes it.
    let other = tempfile::tempdir().expect("another home");
    let mut renamed = written.clone();
    renamed["products"][0]["productName"] = json!("改过的名称");
    let renamed_path = other.path().join("renamed.json");
    std::fs::write(&renamed_path, renamed.to_string()).expect("write");
    let renamed_path = renamed_path.display().to_string();
    let (ok, _, err) = catalog(other.path(), &["import", &renamed_path]);
    assert!(ok, "{err}");
    let counts = |new: u64, changed: u64, unchanged: u64| json!({"new": new, "changed": changed, "unchanged": unchanged, "kept": 0});
    let (ok, looked, err) = catalog(other.path(), &["import", "--dry-run", &path]);
    assert!(ok, "{err}");
    assert_eq!(
        looked,
        json!({"applied": false, "products": counts(0, 1, 6), "packages": counts(0, 0, 1),
               "customers": counts(0, 0, 0)})
    );
    let (ok, again, _) = catalog(other.path(), &["import", "--dry-run", &path]);
    assert!(ok);
    assert_eq!(again, looked, "a dry run changed nothing");
    let (ok, imported, err) = catalog(other.path(), &["import", &path]);
    assert!(ok, "{err}");
    assert_eq!(imported["applied"], true);
    assert_eq!(imported["products"], counts(0, 1, 6));
    let (ok, _, err) = catalog(other.path(), &["import", "/no/such/catalog.json"]);
    assert!(!ok && err.contains("/no/such/catalog.json"), "{err}");
}

/// `order preview` prints what a delete would remove, changes nothing, and is what the
/// platform then does.
#[test]
fn order_preview_prints_what_a_delete_removes_and_changes_nothing() {
    let home = tempfile::tempdir().expect("home");
    let file = home.path().join("delete.json");
    let delete = json!({"channelCode": "CRM", "channelOrderId": "DEL-CLI", "orderList": [{
        "sequence": 1, "enterpriseGlobalId": "EG0000000001", "channelCustomerId": "CRM-DEMO",
        "licenseType": "normal_recover_usbkey", "orderType": "delete_product",
        "assets": [{"assetNos": ["8900000001", "8900000002"],
                    "products": [{"productUri": "gms:1001"}]}]}]});
    std::fs::write(&file, delete.to_string()).expect("write");
    let holds = |home: &std::path::Path, num: &str, uri: &str| {
        let out = call(home, &["assets", "EG0000000001"]);
        let assets: Value = serde_json::from_slice(&out.stdout).expect("json");
        let asset = assets
            .as_array()
            .expect("array")
            .iter()
            .find(|a| a["assetNum"] == num)
            .cloned()
            .unwrap_or(Value::Null);
        asset["products"]
            .as_array()
            .is_some_and(|ps| ps.iter().any(|p| p["productUri"] == uri))
    };
    let out = Command::new(bin())
        .args(["order", "preview"])
        .arg(&file)
        .env("HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("LICENSE_DESK_KEYRING", "memory")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let preview: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(preview["refused"], false);
    assert_eq!(preview["unknown"], false);
    assert_eq!(preview["productsRemoved"], 2);
    assert_eq!(preview["assetsRemoved"], 0);
    let order = &preview["orders"][0];
    assert_eq!(order["orderType"], "delete_product");
    assert_eq!(order["removed"][0]["assetNum"], "8900000001");
    assert_eq!(order["removed"][0]["productUri"], "gms:1001");
    assert_eq!(order["removed"][0]["productName"], "计价软件");
    assert_eq!(order["warnings"], json!([{"kind": "allOrdersOfCustomer"}]));
    assert!(
        holds(home.path(), "8900000001", "gms:1001"),
        "nothing changed"
    );

    let body = file.to_str().expect("utf-8 path");
    let out = call(home.path(), &["order", "--body", body]);
    assert!(out.status.success());
    assert!(!holds(home.path(), "8900000001", "gms:1001"));
    assert!(!holds(home.path(), "8900000002", "gms:1001"));
    assert!(holds(home.path(), "8900000001", "gms:1002"));
}

/// Runs `license-desk` with `args`; its exit status, stdout and stderr.
fn run(args: &[&str], data: &std::path::Path) -> (bool, String, String) {
    let out = Command::new(bin())
        .args(args)
        .arg("--data")
        .arg(data)
        .output()
        .expect("runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

#[tokio::test]
async fn an_app_s_own_quota_is_set_at_create_and_changed_while_the_server_runs() {
    let dir = tempfile::tempdir().expect("dir");
    let (ok, out, err) = run(
        &[
            "app",
            "create",
            "--name",
            "quota",
            "--scopes",
            "auth_order",
            "--quota-numbers-per-minute",
            "2",
            "--quota-numbers-per-day",
            "1000",
        ],
        dir.path(),
    );
    assert!(ok, "{err}");
    let app: Value = serde_json::from_str(&out).expect("one JSON object");
    let key = app["appKey"].as_str().expect("key").to_owned();
    let (mut child, base, _stdout) = serve(dir.path());

    let http = reqwest::Client::new();
    let token: Value = http
        .post(format!("{base}/v3/api/oauth2/token"))
        .basic_auth(&key, app["appSecret"].as_str())
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("json");
    let token = token["access_token"].as_str().expect("token").to_owned();
    let shellnums = |nonce: &'static str| {
        let request = http
            .post(format!("{base}/order/api/order/v1/shellnums"))
            .query(&[("g_nonce", nonce)])
            .bearer_auth(&token)
            .json(&json!({"size": 3}))
            .send();
        async move {
            let r = request.await.expect("call");
            (r.status().as_u16(), r.json::<Value>().await.expect("json"))
        }
    };
    let (status, refused) = shellnums("quota-1").await;
    assert_eq!(status, 299, "{refused}");
    assert_eq!(refused["code"], "13004");
    let message = refused["message"].as_str().expect("message");
    assert!(
        message.starts_with("size: over the quota of asset numbers, 2 a minute for this application: 3 asked, 2 left; the quota resets at ")
            && message.ends_with(" s"),
        "{message}"
    );

    let (ok, out, err) = run(&["app", "quota", &key], dir.path());
    assert!(ok, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&out).expect("json"),
        json!({"appKey": key, "quotaNumbersPerMinute": 2, "quotaNumbersPerDay": 1000})
    );
    let (ok, out, err) = run(
        &[
            "app",
            "quota",
            &key,
            "--quota-numbers-per-minute",
            "default",
        ],
        dir.path(),
    );
    assert!(ok, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&out).expect("json"),
        json!({"appKey": key, "quotaNumbersPerMinute": null, "quotaNumbersPerDay": 1000})
    );
    // The running server judges the next call by the new quota (the default, 20,000 a minute).
    let (status, given) = shellnums("quota-2").await;
    assert_eq!(status, 200, "{given}");
    assert_eq!(
        given["data"],
        json!(["8000000001", "8000000002", "8000000003"])
    );

    let (ok, _, err) = run(&["app", "quota", "ak_nope"], dir.path());
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "error: no application \"ak_nope\" in {}",
            dir.path().display()
        )
    );
    let (ok, _, err) = run(
        &["app", "quota", &key, "--quota-numbers-per-day", "lots"],
        dir.path(),
    );
    assert!(!ok);
    assert!(
        err.contains(
            "\"lots\": a quota is a whole number of asset numbers (0 to 4294967295) or `default`"
        ),
        "{err}"
    );
    child.kill().expect("kill");
    child.wait().expect("wait");
}

/// A workbook of one order whose packages are given by `packages` (number, parent number,
/// product), written in `dir`.
fn package_sheet(dir: &std::path::Path, packages: &[(&str, &str, &str)]) -> std::path::PathBuf {
    let path = dir.join("packages.xlsx");
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet().set_name("Orders").expect("name");
    let header = [
        "Channel code",
        "Channel order id",
        "Order",
        "Order type",
        "License type",
        "Channel customer id",
        "Customer name",
        "Asset numbers",
        "Package number",
        "Parent package number",
        "Product",
        "Product name",
    ];
    for (c, h) in header.iter().enumerate() {
        sheet.write_string(0, c as u16, *h).expect("header");
    }
    for (r, (num, parent, product)) in packages.iter().enumerate() {
        let row = [
            "CRM",
            "SHEET-1",
            "1",
            "new_buy",
            "softkey",
            "C-1",
            "客户",
            "8100000001",
            num,
            parent,
            product,
            "产品",
        ];
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                sheet
                    .write_string(r as u32 + 1, c as u16, *v)
                    .expect("cell");
            }
        }
    }
    book.save(&path).expect("save");
    path
}

/// The product URIs of a package tree, depth first, each with its depth.
fn package_tree(packages: &Value, depth: usize, out: &mut Vec<(usize, String, String)>) {
    for p in packages.as_array().into_iter().flatten() {
        let num = p["merchandiseNum"].as_str().expect("num").to_owned();
        let uri = p["licenseOrderProductList"][0]["productUri"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        out.push((depth, num, uri));
        package_tree(&p["children"], depth + 1, out);
    }
}

/// A sub-package goes under the package its parent number names; packages naming each other
/// and a parent number naming no package are said at the parent number's cell, and every
/// package is still in the batch with its product.
#[test]
fn a_sheet_s_packages_nest_by_parent_and_none_is_lost() {
    let dir = tempfile::tempdir().expect("dir");
    let nested = package_sheet(
        dir.path(),
        &[
            ("P1", "", "gms:1"),
            ("P2", "P1", "gms:2"),
            ("P3", "P2", "gms:3"),
        ],
    );
    let (code, batch, err) = from_sheet(&nested);
    assert_eq!(code, Some(0), "{err}");
    let mut tree = Vec::new();
    package_tree(
        &batch["orderList"][0]["assets"][0]["merchandises"],
        0,
        &mut tree,
    );
    let want = |rows: &[(usize, &str, &str)]| -> Vec<(usize, String, String)> {
        rows.iter()
            .map(|(d, n, u)| (*d, (*n).to_owned(), (*u).to_owned()))
            .collect()
    };
    assert_eq!(
        tree,
        want(&[(0, "P1", "gms:1"), (1, "P2", "gms:2"), (2, "P3", "gms:3")])
    );

    let broken = package_sheet(
        dir.path(),
        &[
            ("P1", "P2", "gms:1"),
            ("P2", "P1", "gms:2"),
            ("P3", "P9", "gms:3"),
        ],
    );
    let (code, batch, err) = from_sheet(&broken);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [
            "Orders!J2: package P1 names parent package P2, whose parents lead back to P1; the cycle is cut and kept from the top level of the asset",
            "Orders!J3: package P2 names parent package P1, whose parents lead back to P2; the cycle is cut and kept from the top level of the asset",
            "Orders!J4: package P3 names parent package P9, which is no package of its asset; it is kept at the top level of the asset",
        ]
    );
    let mut tree = Vec::new();
    package_tree(
        &batch["orderList"][0]["assets"][0]["merchandises"],
        0,
        &mut tree,
    );
    assert_eq!(
        tree,
        want(&[(0, "P3", "gms:3"), (0, "P1", "gms:1"), (1, "P2", "gms:2")])
    );
}

/// `--sheet NAME` reads the named sheet of a workbook, not the first; a name the workbook does
/// not have is refused with the names it has.
#[test]
fn from_sheet_reads_the_sheet_named() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("two-sheets.xlsx");
    let mut book = rust_xlsxwriter::Workbook::new();
    for (name, order_id) in [("Notes", "FIRST-1"), ("Batch", "SECOND-1")] {
        let sheet = book.add_worksheet().set_name(name).expect("name");
        let rows = [
            ["Channel code", "Channel order id", "Order", "Product"],
            ["CRM", order_id, "1", "gms:1"],
        ];
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                sheet.write_string(r as u32, c as u16, *v).expect("cell");
            }
        }
    }
    book.save(&path).expect("save");
    let run = |args: &[&str]| {
        Command::new(bin())
            .args(["order", "from-sheet"])
            .arg(&path)
            .args(args)
            .output()
            .expect("runs")
    };
    let first: Value = serde_json::from_slice(&run(&[]).stdout).expect("json");
    assert_eq!(first["channelOrderId"], "FIRST-1");
    let named: Value = serde_json::from_slice(&run(&["--sheet", "Batch"]).stdout).expect("json");
    assert_eq!(named["channelOrderId"], "SECOND-1");
    let missing = run(&["--sheet", "Orders"]);
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8(missing.stderr).expect("utf-8");
    assert!(err.contains("Notes") && err.contains("Batch"), "{err}");
}

/// Keys the interface does not define are warnings at their place, and leave the exit code 0:
/// the platform ignores them (`order_check_and_the_platform_agree_on_the_same_files`).
#[test]
fn order_check_warns_of_keys_of_no_field() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/orders/unknown-keys.json");
    let out = Command::new(bin())
        .args(["order", "check"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let listed = String::from_utf8(out.stdout).expect("utf-8");
    let kept = "not a field of the interface; kept and sent as is";
    let name = file.display();
    assert_eq!(
        listed.lines().collect::<Vec<_>>(),
        [
            format!("{name}:4:20: warning: crmExportedBy: {kept}"),
            format!("{name}:11:17: warning: orderList[0].remark: {kept}"),
            format!("{name}:18:105: warning: orderList[0].assets[0].products[0].remark: {kept}"),
            format!(
                "{name}:25:75: warning: orderList[0].assets[0].merchandises[0].children[0].colour: {kept}"
            ),
        ]
    );
}

/// `license-desk app ARGS --data DIR`: its exit success, stdout and stderr.
fn app_command(data: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let args: Vec<&str> = std::iter::once("app").chain(args.iter().copied()).collect();
    run(&args, data)
}

/// The token endpoint's HTTP status for a key and secret, and the token when it gave one.
async fn token_of(base: &str, key: &str, secret: &str) -> (u16, Option<String>) {
    let r = reqwest::Client::new()
        .post(format!("{base}/v3/api/oauth2/token"))
        .basic_auth(key, Some(secret))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("token");
    let status = r.status().as_u16();
    let body: Value = r.json().await.expect("json");
    (status, body["access_token"].as_str().map(str::to_owned))
}

/// The HTTP status of a read (shellnums of size 1) with `token`.
async fn call_status(base: &str, token: &str) -> u16 {
    reqwest::Client::new()
        .post(format!("{base}/order/api/order/v1/shellnums"))
        .query(&[("g_nonce", served::nonce().as_str())])
        .bearer_auth(token)
        .json(&json!({"size": 1}))
        .send()
        .await
        .expect("call")
        .status()
        .as_u16()
}

/// Waits until a call with `token` is refused with 401 (a server trusts a checked token for
/// up to 2 seconds).
async fn until_refused(base: &str, token: &str) {
    let start = std::time::Instant::now();
    while call_status(base, token).await != 401 {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "the token is still accepted"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Rotate, revoke tokens and revoke, against a running server: the old secret stops and the
/// new one works at once; ended tokens are refused; a revoked app gets nothing; `app list`
/// shows it all and never a secret.
#[tokio::test]
async fn apps_are_rotated_and_revoked_while_the_server_runs() {
    let served = served::Served::start(&[]);
    let (base, data) = (served.base.as_str(), served.data.path());
    let (a, a_secret) = served.app("auth_order");
    let (b, b_secret) = served.app("auth_order,auth_activity");
    let (_, a_token) = token_of(base, &a, &a_secret).await;
    let a_token = a_token.expect("a token");
    assert_eq!(call_status(base, &a_token).await, 200);

    let (ok, out, err) = app_command(data, &["list"]);
    assert!(ok, "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["appKey"], a.as_str());
    assert_eq!(lines[0]["scopes"], "auth_order");
    assert_eq!(lines[0]["revokedAt"], Value::Null);
    assert!(!out.contains(&a_secret) && !out.contains("ecret"), "{out}");

    // Rotate: the old secret stops, the new one works, the old token ends.
    let (ok, out, err) = app_command(data, &["rotate", &a]);
    assert!(ok, "{err}");
    let rotated: Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(rotated["appKey"], a.as_str());
    let new_secret = rotated["appSecret"].as_str().expect("secret").to_owned();
    assert_ne!(new_secret, a_secret);
    assert_eq!(token_of(base, &a, &a_secret).await.0, 401);
    let (status, new_token) = token_of(base, &a, &new_secret).await;
    assert_eq!(status, 200);
    let new_token = new_token.expect("a token");
    assert_ne!(
        new_token, a_token,
        "not the token issued before the rotation"
    );
    until_refused(base, &a_token).await;
    assert_eq!(call_status(base, &new_token).await, 200);

    // B's tokens end; its secret still gets a new one.
    let b_token = token_of(base, &b, &b_secret).await.1.expect("b's token");
    let (ok, _, err) = app_command(data, &["tokens", "revoke", &b]);
    assert!(ok, "{err}");
    until_refused(base, &b_token).await;
    let b_again = token_of(base, &b, &b_secret)
        .await
        .1
        .expect("a new token for b");
    assert_eq!(call_status(base, &b_again).await, 200);

    // A revoked: its token ends, its secret gets nothing, it cannot be rotated.
    let (ok, _, err) = app_command(data, &["revoke", &a]);
    assert!(ok, "{err}");
    until_refused(base, &new_token).await;
    assert_eq!(token_of(base, &a, &new_secret).await.0, 401);
    let (ok, _, err) = app_command(data, &["rotate", &a]);
    assert!(!ok);
    assert!(
        err.contains(&format!("the application {a:?} is revoked")),
        "{err}"
    );
    let (ok, _, err) = app_command(data, &["revoke", "ak_nobody"]);
    assert!(!ok);
    assert!(err.contains("no application \"ak_nobody\""), "{err}");
    let (_, out, _) = app_command(data, &["list"]);
    let first: Value = serde_json::from_str(out.lines().next().expect("a line")).expect("json");
    assert!(first["revokedAt"].as_str().is_some(), "{out}");
    assert_eq!(call_status(base, &b_again).await, 200, "b is not touched");
}

/// `--data DIR`: a missing folder is made private; an existing one keeps its mode (it may be
/// shared on purpose; the files in it are private); one anyone may write in is refused.
#[cfg(unix)]
#[test]
fn an_existing_data_folder_keeps_its_mode_and_a_world_writable_one_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).expect("meta").permissions().mode();
    let root = tempfile::tempdir().expect("dir");

    let fresh = root.path().join("fresh");
    app_create(&fresh, "auth_order");
    assert_eq!(mode(&fresh) & 0o7777, 0o700);

    let shared = root.path().join("shared");
    std::fs::create_dir(&shared).expect("mkdir");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o750)).expect("chmod");
    app_create(&shared, "auth_order");
    assert_eq!(mode(&shared) & 0o7777, 0o750, "not tightened");
    assert_eq!(mode(&shared.join("platform.sqlite3")) & 0o777, 0o600);

    let open = root.path().join("open");
    std::fs::create_dir(&open).expect("mkdir");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    for args in [
        vec!["serve", "--listen", "127.0.0.1:0", "--data"],
        vec![
            "app",
            "create",
            "--name",
            "x",
            "--scopes",
            "auth_order",
            "--data",
        ],
    ] {
        let out = Command::new(bin())
            .args(&args)
            .arg(&open)
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("every user may write in it (mode 1777); give a folder of your own"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(mode(&open) & 0o7777, 0o1777, "not changed");
    assert_eq!(
        std::fs::read_dir(&open).expect("dir").count(),
        0,
        "nothing written"
    );
}

/// Two License Desks starting together on a home whose `sandbox.url` is stale (it names a port
/// another program now listens on): both work on the one Sandbox, and neither sends the
/// Sandbox's app key or secret to the stale address.
#[cfg(target_os = "linux")]
#[test]
fn two_consoles_starting_together_send_no_secret_to_a_stale_sandbox_address() {
    use std::io::Read as _;
    let home = tempfile::tempdir().expect("home");
    let sandbox = home.path().join(".local/share/license-desk/sandbox");
    std::fs::create_dir_all(&sandbox).expect("dir");
    let stranger = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = stranger.local_addr().expect("addr").port();
    std::fs::write(
        sandbox.join("sandbox.url"),
        format!("http://127.0.0.1:{port}"),
    )
    .expect("stale url");
    let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
    let kept = std::sync::Arc::clone(&heard);
    std::thread::spawn(move || {
        for conn in stranger.incoming() {
            let Ok(mut conn) = conn else { return };
            let _ = conn.set_read_timeout(Some(Duration::from_millis(300)));
            let mut buf = [0u8; 4096];
            while let Ok(n) = conn.read(&mut buf) {
                if n == 0 {
                    break;
                }
                kept.lock().expect("heard").extend_from_slice(&buf[..n]);
            }
        }
    });
    let start = || {
        Command::new(bin())
            .args(["call", "shellnums", "1"])
            .env("HOME", home.path())
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env("LICENSE_DESK_KEYRING", "memory")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns")
    };
    // The command line's program and a console (this process's core, which keeps its Sandbox
    // while it runs) start together; either may start the Sandbox.
    let cli = start();
    let core = license_desk::core::Core::start(license_desk::core::CoreOptions {
        config_dir: home.path().join(".config/license-desk"),
        data_dir: home.path().join(".local/share/license-desk"),
        keyring: license_desk::core::KeyringChoice::MemoryOnly,
        file_dialog: license_desk::core::FileDialogChoice::InWindow,
    })
    .expect("the core starts");
    let called = core.run(
        license_desk::core::calls::requests::Shellnums {
            profile: "Sandbox".to_owned(),
            size: 1,
        },
        Duration::from_secs(60),
    );
    let out = cli.wait_with_output().expect("waits");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The console's call worked, unless the command line ran the Sandbox and has since ended:
    // then it was refused unsent, either at the address or because the address never proved
    // itself once that program was gone.
    if let Err(e) = &called {
        let said = e.to_string();
        assert!(
            said.contains("could not be reached") || said.contains("did not prove to be it"),
            "{e}"
        );
    }
    core.shutdown();
    let heard = String::from_utf8_lossy(&heard.lock().expect("heard")).into_owned();
    assert!(
        !heard.contains("Authorization") && !heard.contains("oauth2"),
        "the stale address was sent: {heard}"
    );
}

/// The document `serve` publishes is the one `license-desk openapi` prints, byte for byte.
#[tokio::test]
async fn the_published_document_is_what_the_openapi_command_prints() {
    let served = served::Served::start(&[]);
    let url = format!("{}{}", served.base, platform::OPENAPI_PATH);
    let published = reqwest::get(url)
        .await
        .expect("document request")
        .text()
        .await
        .expect("text");
    let out = Command::new(bin()).arg("openapi").output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(printed, format!("{published}\n"));
}
