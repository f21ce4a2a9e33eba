//! The command line as separate processes: `serve` on a loopback port, and `license-desk ARGS`
//! on a fresh HOME without a keyring. Shared by the test binaries that run the real program.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The `license-desk` binary beside the test binary that runs (`target/debug/`), which cargo
/// builds before a package's integration tests.
pub fn bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        let target = exe
            .parent()
            .and_then(Path::parent)
            .expect("the target folder");
        let bin = target.join(format!("license-desk{}", std::env::consts::EXE_SUFFIX));
        assert!(bin.is_file(), "no {} (built by cargo test)", bin.display());
        bin
    })
}

/// Starts `serve` on `data` with `extra` arguments; returns it with its base URL, read from its
/// one stdout line, and that stdout (dropping it would close the pipe under the server).
pub fn spawn_serve(
    data: &Path,
    extra: &[&OsStr],
    stderr: Stdio,
) -> (Child, String, BufReader<ChildStdout>) {
    let mut child = Command::new(bin())
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(stderr)
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
    (child, base, stdout)
}

/// A platform run by `serve` on a fresh data dir, stopped when dropped.
pub struct Served {
    pub child: Child,
    pub base: String,
    pub data: tempfile::TempDir,
    _stdout: BufReader<ChildStdout>,
}

impl Served {
    pub fn start(extra: &[&OsStr]) -> Served {
        let data = tempfile::tempdir().expect("data dir");
        let (child, base, stdout) = spawn_serve(data.path(), extra, Stdio::null());
        Served {
            child,
            base,
            data,
            _stdout: stdout,
        }
    }

    pub fn port(&self) -> u16 {
        let (_, port) = self.base.rsplit_once(':').expect("a port");
        port.parse().expect("port")
    }

    /// A new application: (appKey, appSecret).
    pub fn app(&self, scopes: &str) -> (String, String) {
        let out = Command::new(bin())
            .args([
                "app", "create", "--name", "test", "--scopes", scopes, "--data",
            ])
            .arg(self.data.path())
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        let field = |k: &str| v[k].as_str().expect("field").to_owned();
        (field("appKey"), field("appSecret"))
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// `license-desk ARGS` on `home` with no keyring (`LICENSE_DESK_KEYRING=memory`, as on a CI
/// runner), no secret from this process's environment, the given environment, and `stdin`
/// piped in (none: no standard input at all, as in CI).
pub fn ld(home: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(bin());
    command
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("LICENSE_DESK_KEYRING", "memory")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("LICENSE_DESK_SECRET_")) {
        command.env_remove(k);
    }
    command.envs(env.iter().copied());
    let mut child = command.spawn().expect("spawns");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(text.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("utf-8"),
        stderr: String::from_utf8(out.stderr).expect("utf-8"),
    }
}

/// The last line on stderr: the error, after any log lines.
pub fn last(run: &Run) -> &str {
    run.stderr.lines().last().unwrap_or("")
}

/// A fresh `g_nonce`.
pub fn nonce() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "t-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// `license-desk team ARGS --data DATA` with `stdin` piped in: exit code, stdout, stderr.
pub fn team_cli(data: &Path, args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let team = std::iter::once(OsStr::new("team")).chain(args.iter().map(OsStr::new));
    piped(team.chain([OsStr::new("--data"), data.as_os_str()]), stdin)
}

/// `license-desk ARGS` with `stdin` piped in: exit code, stdout, stderr.
pub fn piped(
    args: impl IntoIterator<Item = impl AsRef<OsStr>>,
    stdin: &str,
) -> (Option<i32>, String, String) {
    let mut child = Command::new(bin())
        .args(args)
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
