//! Debian's `minisign` tool, as a company runs it to sign its releases (`apt install
//! minisign`): a key pair without a password, and a file signed with a trusted comment.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A key pair `dir/NAME.pub`, `dir/NAME.key` made by the tool; answers (public, secret).
pub fn keygen(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
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
    (public, secret)
}

/// `file` signed with `secret`, its trusted comment `comment` (none: the tool's own);
/// answers the `.minisig` file's text.
pub fn sign(secret: &Path, file: &Path, comment: Option<&str>) -> String {
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
