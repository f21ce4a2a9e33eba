//! `license-desk profile`, secrets for one run, output formats, the production guard and
//! completions, as a script runs them: separate processes on a fresh HOME without a keyring
//! (`LICENSE_DESK_KEYRING=memory`, as on a CI runner), against a platform started with `serve`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use test_support::served;

use served::{Run, Served as Platform, bin, last};

/// `served::ld` with the debug log on, so that a test sees that no secret reaches it.
fn ld(home: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
    let mut all = vec![("RUST_LOG", "debug")];
    all.extend_from_slice(env);
    served::ld(home, args, stdin, &all)
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {:?} / {:?}", run.stdout, run.stderr))
}

fn walk(dir: &Path) -> Vec<PathBuf> {
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

/// The token the platform hands this application now: while more than 12 hours remain it is
/// the one it gave the command line before.
async fn platform_token(base: &str, key: &str, secret: &str) -> String {
    let answer: Value = reqwest::Client::new()
        .post(format!("{base}/v3/api/oauth2/token"))
        .basic_auth(key, Some(secret))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("json");
    answer["access_token"].as_str().expect("token").to_owned()
}

/// As in CI: a profile added with no secret, then each run given the secret by its variable
/// or a file. Calls work, the production guard stops destructive ones, and afterwards neither
/// the secret nor the token is in any file of the home or any log line.
#[tokio::test]
async fn a_ci_run_gives_the_secret_by_environment_and_leaves_no_trace() {
    let platform = Platform::start(&[]);
    let (key, secret) = platform.app("auth_order");
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    let base = platform.base.as_str();
    let mut logs = String::new();

    let added = ld(
        home,
        &[
            "profile",
            "add",
            "ci",
            "--base-url",
            base,
            "--app-key",
            &key,
            "--no-secret",
        ],
        None,
        &[],
    );
    assert_eq!(added.code, Some(0), "{}", added.stderr);
    let added_json = json_of(&added);
    assert_eq!(added_json["secretEnv"], "LICENSE_DESK_SECRET_CI");
    assert_eq!(added_json["production"], false);
    let marked = ld(
        home,
        &[
            "profile",
            "edit",
            "ci",
            "--production",
            "--operator",
            "ci-bot",
        ],
        None,
        &[],
    );
    assert_eq!(json_of(&marked)["production"], true, "{}", marked.stderr);

    // No secret anywhere: said how to give one.
    let none = ld(
        home,
        &["call", "--profile", "ci", "shellnums", "2"],
        None,
        &[],
    );
    assert_eq!(none.code, Some(1));
    assert_eq!(
        Some(last(&none)),
        Some(
            "error: no app secret is known for the profile \"ci\": store one with `license-desk profile edit \"ci\" --secret-prompt` (or --secret-stdin), or give it to this run with LICENSE_DESK_SECRET_CI or --secret-file FILE"
        )
    );

    let env = [("LICENSE_DESK_SECRET_CI", secret.as_str())];
    let nums = ld(
        home,
        &["call", "--profile", "ci", "shellnums", "2"],
        None,
        &env,
    );
    assert_eq!(nums.code, Some(0), "{}", nums.stderr);
    assert_eq!(json_of(&nums), json!(["8000000001", "8000000002"]));
    logs.push_str(&nums.stderr);

    // Production: lock and a batch with a delete order need --yes; nothing is sent without.
    let lock = ld(
        home,
        &["call", "--profile", "ci", "lock", "8000000001"],
        None,
        &env,
    );
    assert_eq!(lock.code, Some(5));
    assert_eq!(
        Some(last(&lock)),
        Some(
            "error: \"ci\" is a production profile: disabling 1 lock(s) is sent there only with --yes; nothing was sent"
        )
    );
    let outside = tempfile::tempdir().expect("files kept outside the home");
    let batch = outside.path().join("delete.json");
    let delete = json!({"channelCode": "CI", "channelOrderId": "CI-DEL-1", "orderList": [{
        "sequence": 1, "enterpriseGlobalId": "EG1", "channelCustomerId": "C1",
        "licenseType": "normal_recover_usbkey", "orderType": "delete_asset",
        "assets": [{"assetNos": ["8000000001"]}]}]});
    std::fs::write(&batch, delete.to_string()).expect("write");
    let body = batch.to_str().expect("utf-8");
    let order = ld(
        home,
        &["call", "--profile", "ci", "order", "--body", body],
        None,
        &env,
    );
    assert_eq!(order.code, Some(5), "{}", order.stderr);
    assert!(
        order
            .stderr
            .contains("a batch with 1 delete order(s) is sent there only with --yes")
    );
    let journal = ld(
        home,
        &["call", "--profile", "ci", "history", "--operation", "lock"],
        None,
        &[],
    );
    assert_eq!(json_of(&journal), json!([]), "nothing was sent");
    let locked = ld(
        home,
        &["call", "--profile", "ci", "--yes", "lock", "8000000001"],
        None,
        &env,
    );
    // Answered, with the asset refused inside the answer (status 2): exit 3.
    assert_eq!(locked.code, Some(3), "{}", locked.stderr);
    assert_eq!(
        json_of(&locked),
        json!([{"assetNum": "8000000001", "status": 2}])
    );
    logs.push_str(&locked.stderr);

    // The same secret from a file, read once; the file is outside the home.
    let file = outside.path().join("secret");
    std::fs::write(&file, format!("{secret}\n")).expect("write");
    let path = file.to_str().expect("utf-8");
    let tested = ld(
        home,
        &["profile", "test", "ci", "--secret-file", path],
        None,
        &[],
    );
    assert_eq!(tested.code, Some(0), "{}", tested.stderr);
    let tested_json = json_of(&tested);
    assert_eq!(tested_json["profile"], "ci");
    assert_eq!(tested_json["scopes"], json!(["auth_order"]));
    let expires_at = tested_json["expiresAt"].as_i64().expect("ms");
    assert!(expires_at > support::clock::now_ms() + 6 * 24 * 3_600_000);
    logs.push_str(&tested.stderr);

    // The calls were journaled (so the files below are not empty of what they could leak).
    let history = ld(home, &["call", "--profile", "ci", "history"], None, &[]);
    let entries = json_of(&history);
    let operations: Vec<&str> = entries
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["operation"].as_str())
        .collect();
    assert!(operations.len() >= 3, "{operations:?}");

    let token = platform_token(base, &key, &secret).await;
    for file in walk(home) {
        let bytes = std::fs::read(&file).expect("read");
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(&secret), "the secret in {}", file.display());
        assert!(!text.contains(&token), "the token in {}", file.display());
    }
    assert!(!logs.contains(&secret) && !logs.contains(&token), "{logs}");
}

/// What the Settings screen does, on the command line: add with the secret on standard input
/// (checked with a token before it is kept), edit some fields, use, list, test, remove.
#[test]
fn profiles_are_added_edited_used_listed_and_removed() {
    let platform = Platform::start(&[]);
    let (key, secret) = platform.app("auth_order,auth_activity");
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    let base = platform.base.as_str();
    let with_slash = format!("{base}/");
    let add = |name: &str, stdin: &str| {
        let args = [
            "profile",
            "add",
            name,
            "--base-url",
            &with_slash,
            "--app-key",
            &key,
        ];
        let mut args = args.to_vec();
        args.extend(["--operator", "ops@example.com", "--check"]);
        ld(home, &args, Some(stdin), &[])
    };

    // A wrong secret: the platform refuses the token, and the profile is not kept.
    let wrong = add("wrong", "not-the-secret\n");
    assert_eq!(wrong.code, Some(3), "{}", wrong.stderr);
    assert!(
        wrong.stderr.contains("error: the platform refused: "),
        "{}",
        wrong.stderr
    );

    let added = add("Team test", &format!("{secret}\n"));
    assert_eq!(added.code, Some(0), "{}", added.stderr);
    let docs: Vec<Value> = serde_json::Deserializer::from_str(&added.stdout)
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("two JSON documents");
    assert_eq!(
        docs[0],
        json!({"name": "Team test", "active": false, "kind": "remote", "baseUrl": base,
               "tokenUrl": format!("{base}/v3/api/oauth2/token"), "appKey": key,
               "operator": "ops@example.com", "production": false, "ownCatalog": false,
               "recognisesRepeats": false, "connectSecs": 10, "attemptSecs": 30,
               "batchAttemptSecs": 120, "retries": 3,
               "secretEnv": "LICENSE_DESK_SECRET_TEAM_TEST"})
    );
    assert_eq!(docs[1]["scopes"], json!(["auth_order", "auth_activity"]));
    assert!(
        added
            .stderr
            .contains("warning: no keyring: the app secret was kept for this run only")
    );
    let again = add("Team test", "x\n");
    assert_eq!(again.code, Some(1));
    assert!(
        again
            .stderr
            .contains("a profile named \"Team test\" exists already")
    );
    let bad = ld(
        home,
        &[
            "profile",
            "add",
            "bad",
            "--base-url",
            "ftp://x",
            "--app-key",
            "k",
            "--no-secret",
        ],
        None,
        &[],
    );
    assert_eq!(
        (bad.code, last(&bad)),
        (
            Some(1),
            "error: baseUrl: an http:// or https:// address is required; tokenUrl: an http:// or https:// address is required"
        )
    );

    // Only the fields given change; a usual token URL follows the address.
    let edited = ld(
        home,
        &[
            "profile",
            "edit",
            "Team test",
            "--rename",
            "team",
            "--production",
            "--base-url",
            "http://127.0.0.1:9",
        ],
        None,
        &[],
    );
    assert_eq!(edited.code, Some(0), "{}", edited.stderr);
    let edited = json_of(&edited);
    assert_eq!(edited["tokenUrl"], "http://127.0.0.1:9/v3/api/oauth2/token");
    assert_eq!(
        (edited["operator"].as_str(), edited["production"].as_bool()),
        (Some("ops@example.com"), Some(true))
    );
    let back = ld(
        home,
        &["profile", "edit", "team", "--base-url", base],
        None,
        &[],
    );
    assert_eq!(
        json_of(&back)["tokenUrl"],
        format!("{base}/v3/api/oauth2/token")
    );

    let own = ld(
        home,
        &["profile", "edit", "team", "--own-catalog"],
        None,
        &[],
    );
    assert_eq!(json_of(&own)["ownCatalog"], true, "{}", own.stderr);
    let used = ld(home, &["profile", "use", "team"], None, &[]);
    assert_eq!((used.code, used.stdout.as_str()), (Some(0), ""));
    let table = ld(home, &["profile", "list", "--format", "table"], None, &[]);
    let token_url = format!("{base}/v3/api/oauth2/token");
    let pad = |s: &str, w: usize| format!("{s:w$}");
    let (bw, tw, kw) = (base.len().max(7), token_url.len(), key.len());
    assert_eq!(
        table.stdout,
        format!(
            "name     active  kind     {}  {}  {}  operator         production  ownCatalog  recognisesRepeats  connectSecs  attemptSecs  batchAttemptSecs  retries  secretEnv\n\
             Sandbox  false   sandbox  {}  {}  {}  sandbox-admin    false       false       true               10           30           120               3\n\
             team     true    remote   {}  {}  {}  ops@example.com  true        true        false              10           30           120               3        LICENSE_DESK_SECRET_TEAM\n",
            pad("baseUrl", bw),
            pad("tokenUrl", tw),
            pad("appKey", kw),
            pad("", bw),
            pad("", tw),
            pad("", kw),
            pad(base, bw),
            pad(&token_url, tw),
            pad(&key, kw),
        )
    );
    let csv = ld(home, &["profile", "list", "--format", "csv"], None, &[]);
    assert_eq!(
        csv.stdout,
        format!(
            "name,active,kind,baseUrl,tokenUrl,appKey,operator,production,ownCatalog,recognisesRepeats,connectSecs,attemptSecs,batchAttemptSecs,retries,secretEnv\n\
             Sandbox,false,sandbox,,,,sandbox-admin,false,false,true,10,30,120,3,\n\
             team,true,remote,{base},{token_url},{key},ops@example.com,true,true,false,10,30,120,3,LICENSE_DESK_SECRET_TEAM\n"
        )
    );

    // Secrets are never arguments: without a terminal to ask on, or with nothing piped in.
    let prompt = ld(
        home,
        &["profile", "edit", "team", "--secret-prompt"],
        None,
        &[],
    );
    assert_eq!(
        (prompt.code, last(&prompt)),
        (
            Some(2),
            "error: no terminal to ask on: give the secret on standard input (--secret-stdin)"
        )
    );
    let empty = ld(
        home,
        &["profile", "edit", "team", "--secret-stdin"],
        Some(""),
        &[],
    );
    assert_eq!(
        (empty.code, last(&empty)),
        (Some(1), "error: standard input: the app secret is empty")
    );
    let sandbox = ld(
        home,
        &["profile", "edit", "Sandbox", "--app-key", "k"],
        None,
        &[],
    );
    assert_eq!(
        last(&sandbox),
        "error: the Sandbox is the embedded platform: only its --operator and --own-catalog can change"
    );

    let removed = ld(home, &["profile", "remove", "Sandbox"], None, &[]);
    assert_eq!(
        (removed.code, last(&removed)),
        (
            Some(1),
            "error: the Sandbox is built in and cannot be removed (it is the embedded platform)"
        )
    );
    let guarded = ld(home, &["profile", "remove", "team"], None, &[]);
    assert_eq!(
        (guarded.code, last(&guarded)),
        (
            Some(5),
            "error: \"team\" is a production profile: it and its secret are removed only with --yes"
        )
    );
    let removed = ld(home, &["profile", "remove", "team", "--yes"], None, &[]);
    assert_eq!(removed.code, Some(0), "{}", removed.stderr);
    let listed = json_of(&ld(home, &["profile", "list"], None, &[]));
    let names: Vec<(&str, bool)> = listed
        .as_array()
        .expect("list")
        .iter()
        .map(|p| {
            (
                p["name"].as_str().expect("name"),
                p["active"].as_bool().expect("active"),
            )
        })
        .collect();
    assert_eq!(names, [("Sandbox", true)]);

    // The Sandbox tests like any profile.
    let tested = ld(home, &["profile", "test"], None, &[]);
    assert_eq!(tested.code, Some(0), "{}", tested.stderr);
    assert_eq!(json_of(&tested)["profile"], "Sandbox");
}

/// `call`'s answers as a table or CSV; JSON stays the default.
#[test]
fn call_answers_print_as_a_table_or_csv() {
    let home = tempfile::tempdir().expect("home");
    let csv = ld(
        home.path(),
        &["call", "shellnums", "2", "--format", "csv"],
        None,
        &[],
    );
    assert_eq!(csv.code, Some(0), "{}", csv.stderr);
    assert_eq!(csv.stdout, "value\n8000000001\n8000000002\n");
    let table = ld(
        home.path(),
        &[
            "call",
            "--format",
            "table",
            "lock",
            "8900000001",
            "8900000006",
        ],
        None,
        &[],
    );
    assert_eq!(
        table.stdout,
        "assetNum    status\n8900000001  1\n8900000006  4\n"
    );
    let json = ld(home.path(), &["call", "unlock", "8900000001"], None, &[]);
    assert_eq!(
        json.stdout,
        "[\n  {\n    \"assetNum\": \"8900000001\",\n    \"status\": 1\n  }\n]\n"
    );
}

/// Each shell's completion script names the sub-commands.
#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = Command::new(bin())
            .args(["completions", shell])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).expect("utf-8");
        for word in [
            "license-desk",
            "profile",
            "completions",
            "secret-file",
            "format",
        ] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    let out = Command::new(bin())
        .args(["completions", "tcsh"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "a usage error");
}

/// A user name or password in an address is refused: when a profile is added (its problems
/// named), and when a hand-edited profiles file has one (said without the address, which holds
/// the password; nothing is sent).
#[test]
fn an_address_with_a_password_is_refused_and_never_printed() {
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    let added = ld(
        home,
        &[
            "profile",
            "add",
            "x",
            "--base-url",
            "http://user:hunter2@127.0.0.1:9",
            "--app-key",
            "ak_x",
            "--no-secret",
        ],
        None,
        &[],
    );
    assert_eq!(added.code, Some(1));
    assert_eq!(
        last(&added),
        "error: baseUrl: an address with a user name or password (user:pass@) is refused: the app secret goes in its own field; tokenUrl: an address with a user name or password (user:pass@) is refused: the app secret goes in its own field"
    );

    // Written by hand into the profiles file: the call refuses it before anything is sent.
    let fine = ld(
        home,
        &[
            "profile",
            "add",
            "x",
            "--base-url",
            "http://127.0.0.1:9",
            "--app-key",
            "ak_x",
            "--no-secret",
        ],
        None,
        &[],
    );
    assert_eq!(fine.code, Some(0), "{}", fine.stderr);
    let file = home.join(".config/license-desk/profiles.json");
    let text = std::fs::read_to_string(&file).expect("profiles");
    std::fs::write(
        &file,
        text.replace("http://127.0.0.1:9", "http://user:hunter2@127.0.0.1:9"),
    )
    .expect("edited");
    let called = ld(
        home,
        &["call", "--profile", "x", "shellnums", "1"],
        None,
        &[("LICENSE_DESK_SECRET_X", "s3cret")],
    );
    assert_eq!(called.code, Some(1));
    assert!(!called.stderr.contains("hunter2"), "{}", called.stderr);
    assert!(
        last(&called).contains("carries a user name or password (user:pass@): refused"),
        "{}",
        called.stderr
    );
}

/// Plain HTTP to another machine (in any case) sends nothing, secret nor token, unless the
/// profile allows it explicitly; loopback is not in question.
#[test]
fn plain_http_to_another_machine_sends_nothing_unless_allowed() {
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    let added = ld(
        home,
        &[
            "profile",
            "add",
            "far",
            "--base-url",
            "HTTP://no-such-host.invalid:8610",
            "--app-key",
            "ak_x",
            "--no-secret",
            "--connect-secs",
            "2",
            "--retries",
            "0",
        ],
        None,
        &[],
    );
    assert_eq!(added.code, Some(0), "{}", added.stderr);
    let env = [("LICENSE_DESK_SECRET_FAR", "s3cret")];
    let refused = ld(home, &["call", "--profile", "far", "token"], None, &env);
    assert_eq!(refused.code, Some(1));
    assert!(
        last(&refused).starts_with(
            "error: not sent: the base URL is plain http:// to another machine, so the app secret and the token would cross the network in clear"
        ),
        "{}",
        refused.stderr
    );
    let allowed = ld(
        home,
        &["profile", "edit", "far", "--insecure-http"],
        None,
        &[],
    );
    assert_eq!(allowed.code, Some(0), "{}", allowed.stderr);
    // Allowed, it is sent: here it finds no such host.
    let tried = ld(home, &["call", "--profile", "far", "token"], None, &env);
    assert_eq!(tried.code, Some(1));
    assert!(
        last(&tried).starts_with("error: not sent: the platform could not be reached"),
        "{}",
        tried.stderr
    );
}
