//! Release signatures made by Debian's `minisign` tool, checked by [`ReleaseKey`].

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::release_sig::{ReleaseKey, SigError};

/// A key pair made by the tool, without a password (`-W`); answers the public key.
fn keygen(dir: &Path, name: &str) -> (ReleaseKey, PathBuf) {
    let (public, secret) = (
        dir.join(format!("{name}.pub")),
        dir.join(format!("{name}.key")),
    );
    let made = Command::new("minisign")
        .args(["-G", "-W", "-p"])
        .arg(&public)
        .arg("-s")
        .arg(&secret)
        .output()
        .expect("Debian's minisign tool (apt install minisign)");
    assert!(made.status.success(), "{made:?}");
    let text = std::fs::read_to_string(&public).expect("public key");
    (ReleaseKey::parse(&text).expect("key"), secret)
}

/// `file` signed by the tool with `secret`, its trusted comment `comment` (none: the tool's
/// own); answers the signature's text.
fn sign(secret: &Path, file: &Path, comment: Option<&str>) -> String {
    let mut command = Command::new("minisign");
    command
        .args(["-S", "-W", "-s"])
        .arg(secret)
        .arg("-m")
        .arg(file);
    if let Some(comment) = comment {
        command.args(["-t", comment]);
    }
    let signed = command.output().expect("minisign");
    assert!(signed.status.success(), "{signed:?}");
    let mut sig = file.as_os_str().to_owned();
    sig.push(".minisig");
    std::fs::read_to_string(sig).expect("signature")
}

fn verify(key: &ReleaseKey, file: &Path, sig: &str, version: &str) -> Result<(), SigError> {
    key.verify(
        File::open(file).expect("file"),
        sig,
        version,
        "windows-x86_64",
    )
}

#[test]
fn a_release_signed_by_the_tool_verifies_and_every_change_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (key, secret) = keygen(dir.path(), "company");
    let file = dir.path().join("license-desk-setup.exe");
    std::fs::write(&file, b"an installer's bytes").expect("file");
    let comment = "license-desk version:0.2.0 target:windows-x86_64";
    let sig = sign(&secret, &file, Some(comment));

    verify(&key, &file, &sig, "0.2.0").expect("verified");
    // Signed as 0.2.0: not offered as another version.
    let other = verify(&key, &file, &sig, "0.3.0").expect_err("another version");
    assert_eq!(
        other.to_string(),
        "signed as version 0.2.0, not 0.3.0",
        "{other:?}"
    );
    let wrong_target = key.verify(
        File::open(&file).expect("file"),
        &sig,
        "0.2.0",
        "linux-x86_64",
    );
    assert!(
        matches!(
            wrong_target,
            Err(SigError::SignedAsOther { what: "target", .. })
        ),
        "{wrong_target:?}"
    );

    // One byte of the file changed.
    std::fs::write(&file, b"an installer's bytez").expect("file");
    let altered = verify(&key, &file, &sig, "0.2.0");
    assert!(matches!(altered, Err(SigError::Altered)), "{altered:?}");
    std::fs::write(&file, b"an installer's bytes").expect("file");

    // The trusted comment changed to name another version: its own signature fails.
    let forged = sig.replace("version:0.2.0", "version:0.9.0");
    assert_ne!(forged, sig);
    let forged = verify(&key, &file, &forged, "0.9.0");
    assert!(matches!(forged, Err(SigError::Altered)), "{forged:?}");
}

#[test]
fn another_key_and_an_unnamed_release_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (key, _) = keygen(dir.path(), "company");
    let (other, other_secret) = keygen(dir.path(), "someone");
    let file = dir.path().join("license-desk.deb");
    std::fs::write(&file, b"a package").expect("file");

    let sig = sign(
        &other_secret,
        &file,
        Some("version:0.2.0 target:windows-x86_64"),
    );
    let refused = verify(&key, &file, &sig, "0.2.0").expect_err("another key");
    assert_eq!(
        refused.to_string(),
        format!(
            "signed with key {}, not with the trusted key {}",
            other.key_id(),
            key.key_id()
        )
    );
    verify(&other, &file, &sig, "0.2.0").expect("its own key");

    // The tool's own trusted comment (a timestamp and the file's name) names no release.
    let (_, secret) = keygen(dir.path(), "plain");
    let plain =
        ReleaseKey::parse(&std::fs::read_to_string(dir.path().join("plain.pub")).expect("key"))
            .expect("key");
    let sig = sign(&secret, &file, None);
    let unnamed = verify(&plain, &file, &sig, "0.2.0");
    assert!(
        matches!(unnamed, Err(SigError::Unnamed { what: "version" })),
        "{unnamed:?}"
    );
}

#[test]
fn a_key_reads_from_its_file_or_its_line_and_shows_a_fingerprint() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (key, _) = keygen(dir.path(), "company");
    let text = std::fs::read_to_string(dir.path().join("company.pub")).expect("key");
    // The tool's comment line names the key id as this does, without its leading zeros (one
    // key in sixteen has one).
    let printed = key.key_id().trim_start_matches('0').to_owned();
    assert!(text.contains(&printed), "{text} / {}", key.key_id());
    let line = text.lines().nth(1).expect("base64 line");
    assert_eq!(ReleaseKey::parse(line).expect("line"), key);
    assert_eq!(key.to_base64(), line);
    assert!(
        key.fingerprint().starts_with("SHA256:"),
        "{}",
        key.fingerprint()
    );
    assert_eq!(key.fingerprint().len(), "SHA256:".len() + 43);
    let refused = ReleaseKey::parse("untrusted comment: x\nnot a key").expect_err("refused");
    assert!(matches!(refused, SigError::Key(_)), "{refused:?}");
}
