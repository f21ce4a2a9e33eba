//! `team settings --release-public-key` and `team release publish|list|withdraw` as an
//! administrator runs them, with releases signed by Debian's `minisign` tool.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use test_support::minisign_tool::keygen;
use test_support::served::team_cli as team;

const PASSWORD: &str = "长城长城 correct horse";

fn line(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).expect("a JSON line")
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&next) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(dir).expect("under");
                all.push(relative.display().to_string());
            }
        }
    }
    all.sort();
    all
}

const COMMENT: &str = "license-desk version:0.2.0 target:windows-x86_64";

fn publish(data: &Path, version: &str, file: &Path) -> (Option<i32>, String, String) {
    let file = file.to_str().expect("path");
    team(
        data,
        &[
            "release",
            "publish",
            "--version",
            version,
            "--target",
            "windows-x86_64",
            "--notes",
            "更快的导入",
            file,
        ],
        "",
    )
}

#[test]
fn a_release_signed_with_the_team_s_key_is_published_and_any_other_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("team");
    let (code, _, err) = team(&data, &["init", "--admin", "wang"], PASSWORD);
    assert_eq!(code, Some(0), "{err}");
    let installer = dir.path().join("license-desk-0.2.0-setup.exe");
    std::fs::write(&installer, b"MZ an installer's bytes").expect("file");

    // No key set yet: nothing is published.
    let (public, secret) = keygen(dir.path(), "company");
    sign_as(&secret, &installer, COMMENT);
    let (code, _, err) = publish(&data, "0.2.0", &installer);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no release key is set"), "{err}");

    let key = public.to_str().expect("path");
    let (code, out, err) = team(&data, &["settings", "--release-public-key", key], "");
    assert_eq!(code, Some(0), "{err}");
    let shown = line(&out)["releasePublicKey"].clone();
    let public_text = std::fs::read_to_string(&public).expect("key");
    assert_eq!(
        shown["publicKey"],
        public_text.lines().nth(1).expect("line")
    );
    let key_id = shown["keyId"].as_str().expect("key id");
    // Debian's tool prints the id without its leading zeros (one key in sixteen has one).
    let printed = key_id.trim_start_matches('0');
    assert!(
        public_text.contains(printed),
        "{public_text} names {key_id}"
    );
    assert!(
        shown["fingerprint"]
            .as_str()
            .expect("fp")
            .starts_with("SHA256:")
    );

    let (code, out, err) = publish(&data, "0.2.0", &installer);
    assert_eq!(code, Some(0), "{err}");
    let release = line(&out);
    assert_eq!(release["version"], "0.2.0");
    assert_eq!(release["target"], "windows-x86_64");
    assert_eq!(release["fileName"], "license-desk-0.2.0-setup.exe");
    assert_eq!(release["size"], 23);
    assert_eq!(release["notes"], "更快的导入");
    assert_eq!(release["withdrawn"], false);
    let kept = data.join("releases/windows-x86_64/0.2.0");
    assert_eq!(
        std::fs::read(kept.join("license-desk-0.2.0-setup.exe")).expect("kept"),
        std::fs::read(&installer).expect("file"),
        "kept as it is"
    );

    // Published once: the same version again is refused.
    let (code, _, err) = publish(&data, "0.2.0", &installer);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("0.2.0 for windows-x86_64 is already published"),
        "{err}"
    );

    // Signed as 0.2.0, offered as 0.3.0; signed by another key; not signed: each refused,
    // and nothing of them is kept.
    let before = files_under(&data.join("releases"));
    let (code, _, err) = publish(&data, "0.3.0", &installer);
    assert_eq!(code, Some(1));
    assert!(err.contains("signed as version 0.2.0, not 0.3.0"), "{err}");
    let (_, other_secret) = keygen(dir.path(), "someone");
    let forged = dir.path().join("forged.exe");
    std::fs::write(&forged, b"MZ something else").expect("file");
    sign_as(
        &other_secret,
        &forged,
        "version:0.4.0 target:windows-x86_64",
    );
    let (code, _, err) = publish(&data, "0.4.0", &forged);
    assert_eq!(code, Some(1));
    assert!(err.contains("not with the trusted key"), "{err}");
    let unsigned = dir.path().join("unsigned.exe");
    std::fs::write(&unsigned, b"MZ").expect("file");
    let (code, _, err) = publish(&data, "0.5.0", &unsigned);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("unsigned.exe.minisig: no signature beside the file"),
        "{err}"
    );
    assert_eq!(files_under(&data.join("releases")), before);

    let (code, out, _) = team(&data, &["release", "list"], "");
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 1, "{out}");
    let (code, out, err) = team(
        &data,
        &[
            "release",
            "withdraw",
            "--version",
            "0.2.0",
            "--target",
            "windows-x86_64",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(line(&out)["withdrawn"], true);

    // init, the key, the release, its withdrawal: each in the record.
    let (code, out, err) = team(&data, &["audit", "verify"], "");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("4 entries"), "{out}");
}

/// `license-desk ARGS` with `stdin` piped in: exit code, stdout, stderr.
fn ld(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    test_support::served::piped(args, stdin)
}

#[test]
fn a_key_made_and_a_release_signed_here_are_checked_by_debian_s_minisign_tool() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (secret, public) = (
        dir.path().join("release.key"),
        dir.path().join("release.pub"),
    );
    let path = |p: &Path| p.to_str().expect("path").to_owned();
    let keygen = [
        "release",
        "keygen",
        "--secret-key",
        &path(&secret),
        "--public-key",
        &path(&public),
    ];
    let (code, out, err) = ld(&keygen, &format!("{PASSWORD}\n"));
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("SHA256:"), "{out}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&secret)
            .expect("key")
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "the secret key is private: {mode:o}");
    }
    let (code, _, err) = ld(&keygen, &format!("{PASSWORD}\n"));
    assert_eq!(code, Some(1));
    assert!(err.contains("exists already"), "{err}");

    let installer = dir.path().join("LicenseDesk-0.2.0-setup.exe");
    std::fs::write(&installer, b"MZ the installer").expect("file");
    let sign = [
        "release",
        "sign",
        &path(&installer),
        "--key",
        &path(&secret),
        "--version",
        "0.2.0",
        "--target",
        "windows-x86_64",
    ];
    let (code, _, err) = ld(&sign, "not the password\n");
    assert_eq!(code, Some(1));
    assert!(err.contains("the password does not open this key"), "{err}");
    let (code, out, err) = ld(&sign, &format!("{PASSWORD}\n"));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.trim().ends_with("LicenseDesk-0.2.0-setup.exe.minisig"),
        "{out}"
    );

    // Debian's tool checks it and prints the trusted comment.
    let checked = Command::new("minisign")
        .args(["-V", "-p", &path(&public), "-m", &path(&installer)])
        .output()
        .expect("minisign");
    let said = String::from_utf8_lossy(&checked.stdout).into_owned();
    assert!(checked.status.success(), "{checked:?}");
    assert!(
        said.contains("version:0.2.0\ttarget:windows-x86_64"),
        "{said}"
    );

    // And the team publishes it.
    let data = dir.path().join("team");
    let (code, _, err) = team(&data, &["init", "--admin", "wang"], PASSWORD);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = team(
        &data,
        &["settings", "--release-public-key", &path(&public)],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = publish(&data, "0.2.0", &installer);
    assert_eq!(code, Some(0), "{err}");
}

fn sign_as(secret: &Path, file: &Path, comment: &str) {
    test_support::minisign_tool::sign(secret, file, Some(comment));
}
