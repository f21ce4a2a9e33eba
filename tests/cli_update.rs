//! `license-desk update` against a real team server process: a release signed with Debian's
//! `minisign` tool is published, offered, downloaded byte for byte (resumed where a download
//! broke off) and checked against the key the console pinned; a file altered on the server is
//! refused and deleted, and a changed key is refused until a person confirms it.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;
use test_support::minisign_tool::keygen;
use test_support::served::{Run, Served, bin, ld, team_cli as team};

const PASSWORD: &str = "长城长城 correct horse";
const VERSION: &str = "99.0.0";
const TARGET: &str = "linux-x86_64";

/// A team server process on `data` (its releases in `data/releases`) in front of `platform`,
/// with li (a viewer: any person signed in may update) to sign in; the child and its address.
fn team_server(platform: &Served, dir: &Path, data: &Path) -> (Child, String) {
    let (key, secret) = platform.app("auth_order,auth_activity");
    let (code, _, err) = team(data, &["init", "--admin", "wang"], PASSWORD);
    assert_eq!(code, Some(0), "{err}");
    let li = ["user", "add", "li", "--role", "viewer"];
    let (code, _, err) = team(data, &li, PASSWORD);
    assert_eq!(code, Some(0), "{err}");
    let secret_file = dir.join("secret");
    std::fs::write(&secret_file, format!("{secret}\n")).expect("secret file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let private = std::fs::Permissions::from_mode(0o600);
        std::fs::set_permissions(&secret_file, private).expect("chmod");
    }
    let mut child = Command::new(bin())
        .args([
            "team",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--app-key",
            &key,
        ])
        .args(["--upstream-url", &platform.base, "--data"])
        .arg(data)
        .arg("--secret-file")
        .arg(&secret_file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawns");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("a line");
    let base = line
        .trim_end()
        .strip_prefix("listening on ")
        .expect("address");
    (child, base.to_owned())
}

fn sign(secret: &Path, file: &Path) {
    let comment = format!("license-desk version:{VERSION} target:{TARGET}");
    test_support::minisign_tool::sign(secret, file, Some(&comment));
}

fn json(run: &Run) -> Value {
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("json")
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_signed_release_is_offered_downloaded_and_checked_against_the_pinned_key() {
    let platform = Served::start(&[]);
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("team");
    let (mut server, base) = team_server(&platform, dir.path(), &data);
    let home = dir.path().join("home");
    let added = ld(
        &home,
        &["profile", "add", "branch", "--team", &base, "--user", "li"],
        Some(PASSWORD),
        &[],
    );
    assert_eq!(added.code, Some(0), "{}", added.stderr);
    let password = dir.path().join("password");
    std::fs::write(&password, PASSWORD).expect("password file");
    let update = |args: &[&str]| {
        let file = password.to_str().expect("utf-8");
        let args = [
            &["update", "--profile", "branch", "--secret-file", file][..],
            args,
        ]
        .concat();
        ld(&home, &args, None, &[])
    };

    let none = update(&["check"]);
    assert_eq!(none.code, Some(1), "{}", none.stderr);
    assert!(
        none.stderr.contains("has no release key set"),
        "{}",
        none.stderr
    );

    // The company's key, and a release of 300 KB signed with it.
    let (public, secret) = keygen(dir.path(), "company");
    let key = public.to_str().expect("path");
    let (code, out, err) = team(&data, &["settings", "--release-public-key", key], "");
    assert_eq!(code, Some(0), "{err}");
    let fingerprint: Value = serde_json::from_str(out.trim()).expect("json");
    let fingerprint = fingerprint["releasePublicKey"]["fingerprint"].clone();
    let package = dir.path().join(format!("license-desk_{VERSION}_amd64.deb"));
    let bytes: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&package, &bytes).expect("package");
    sign(&secret, &package);
    let publish = [
        "release",
        "publish",
        "--version",
        VERSION,
        "--target",
        TARGET,
    ];
    let (code, _, err) = team(
        &data,
        &[&publish[..], &[package.to_str().expect("path")]].concat(),
        "",
    );
    assert_eq!(code, Some(0), "{err}");

    let check = json(&update(&["check"]));
    assert_eq!(check["available"]["version"], VERSION);
    assert_eq!(check["keyFingerprint"], fingerprint);
    assert_eq!(check["pinnedNow"], true, "the first check pins the key");
    assert_eq!(json(&update(&["check"]))["pinnedNow"], false);

    // Downloaded whole, then resumed from a part an earlier attempt left.
    let out = dir.path().join("downloads");
    std::fs::create_dir(&out).expect("dir");
    let file_name = format!("license-desk_{VERSION}_amd64.deb");
    let got = update(&["download", "--out", out.to_str().expect("path")]);
    assert_eq!(got.code, Some(0), "{}", got.stderr);
    assert_eq!(
        got.stdout.trim(),
        out.join(&file_name).display().to_string()
    );
    assert_eq!(std::fs::read(out.join(&file_name)).expect("file"), bytes);
    std::fs::remove_file(out.join(&file_name)).expect("removed");
    // The part lives in the console's own folder, named by the release's hash.
    let updates = home.join(".local/share/license-desk/updates");
    std::fs::remove_file(updates.join(&file_name)).expect("kept there too");
    let part = updates.join(format!(".{}.part", &sha256_hex(&bytes)[..16]));
    std::fs::write(&part, &bytes[..100_000]).expect("part");
    let got = update(&["download", "--out", out.to_str().expect("path")]);
    assert_eq!(got.code, Some(0), "{}", got.stderr);
    assert_eq!(std::fs::read(out.join(&file_name)).expect("file"), bytes);
    assert_eq!(names_in(&out), std::slice::from_ref(&file_name));

    // Applied on Linux: the package needs root, so the command is said, for the file kept and
    // checked again. One spoiled on this disk since is deleted and fetched anew first.
    let mut spoiled = bytes.clone();
    spoiled[7] ^= 1;
    std::fs::write(updates.join(&file_name), &spoiled).expect("spoiled");
    let applied = update(&["apply"]);
    assert_eq!(applied.code, Some(0), "{}", applied.stderr);
    let command = format!("sudo dpkg -i '{}'", updates.join(&file_name).display());
    assert_eq!(applied.stdout.lines().last(), Some(command.as_str()));
    assert!(
        applied
            .stdout
            .contains(&format!("License Desk {VERSION} is downloaded"))
    );
    assert_eq!(
        std::fs::read(updates.join(&file_name)).expect("file"),
        bytes
    );

    // A part spoiled on this disk is resumed, not fetched again, and so refused and deleted.
    std::fs::remove_file(out.join(&file_name)).expect("removed");
    std::fs::remove_file(updates.join(&file_name)).expect("removed");
    let mut spoiled = bytes[..100_000].to_vec();
    spoiled[5] ^= 1;
    std::fs::write(&part, &spoiled).expect("part");
    let refused = update(&["download", "--out", out.to_str().expect("path")]);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("refused and deleted"),
        "{}",
        refused.stderr
    );
    assert!(names_in(&out).is_empty(), "{:?}", names_in(&out));
    assert!(names_in(&updates).is_empty(), "{:?}", names_in(&updates));

    // Altered on the server after publishing, its recorded hash altered with it: the
    // signature refuses it, and nothing is left.
    let kept = data.join(format!("releases/{TARGET}/{VERSION}"));
    let mut altered = bytes.clone();
    altered[150_000] ^= 0xff;
    std::fs::write(kept.join(&file_name), &altered).expect("altered");
    let record = kept.join("release.json");
    let mut release: Value =
        serde_json::from_slice(&std::fs::read(&record).expect("record")).expect("json");
    release["sha256"] = Value::String(sha256_hex(&altered));
    std::fs::write(&record, serde_json::to_vec(&release).expect("json")).expect("record");
    let refused = update(&["download", "--out", out.to_str().expect("path")]);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("the signature does not match"),
        "{}",
        refused.stderr
    );
    assert!(names_in(&out).is_empty(), "{:?}", names_in(&out));
    assert!(names_in(&updates).is_empty(), "{:?}", names_in(&updates));

    // The team's key changed: refused until a person confirms the new one's fingerprint.
    let (other, _) = keygen(dir.path(), "other");
    let other = other.to_str().expect("path");
    let (code, out_text, err) = team(&data, &["settings", "--release-public-key", other], "");
    assert_eq!(code, Some(0), "{err}");
    let new: Value = serde_json::from_str(out_text.trim()).expect("json");
    let new = new["releasePublicKey"]["fingerprint"]
        .as_str()
        .expect("fp")
        .to_owned();
    let changed = update(&["check"]);
    assert_eq!(changed.code, Some(1), "{}", changed.stderr);
    assert!(
        changed.stderr.contains("release key changed"),
        "{}",
        changed.stderr
    );
    assert!(changed.stderr.contains(&new), "{}", changed.stderr);
    let wrong = update(&["trust-key", "--fingerprint", "SHA256:not-it"]);
    assert_eq!(wrong.code, Some(1), "{}", wrong.stderr);
    assert!(
        wrong.stderr.contains("nothing was changed"),
        "{}",
        wrong.stderr
    );
    assert_eq!(update(&["check"]).code, Some(1), "still refused");
    let trusted = update(&["trust-key", "--fingerprint", &new]);
    assert_eq!(trusted.code, Some(0), "{}", trusted.stderr);
    assert_eq!(json(&update(&["check"]))["keyFingerprint"], new.as_str());

    let _ = server.kill();
    let _ = server.wait();
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
