//! `license-desk serve` as a child process: started on a free loopback port in a temp data
//! directory, its applications made with `app create`, its memory read from `/proc`.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;

/// How long a server may take to say it listens.
const START_PATIENCE: Duration = Duration::from_secs(60);

pub struct Server {
    child: Child,
    pub pid: u32,
    pub base: String,
    pub data: PathBuf,
    bin: PathBuf,
    /// Holds the data directory and the server's log; removed when the server is dropped.
    _dir: TempDir,
}

/// An application's credentials, as `app create` prints them.
#[derive(Clone)]
pub struct App {
    pub key: String,
    pub secret: String,
}

impl Server {
    /// A server with `flags` after `serve --listen 127.0.0.1:0 --data DIR`; with `nofile`, under
    /// `ulimit -n` (soft and hard) set in a shell that then becomes the server, so only the
    /// server is limited. Its log (warnings only) when it stops before listening.
    pub fn start(bin: &Path, flags: &[&str], nofile: Option<u32>) -> Result<Self, String> {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("platform");
        let log_path = dir.path().join("serve.log");
        let log = File::create(&log_path).expect("log file");
        let mut cmd = match nofile {
            Some(n) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("ulimit -n {n} && exec \"$0\" \"$@\""))
                    .arg(bin);
                c
            }
            None => Command::new(bin),
        };
        cmd.args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(&data)
            .args(flags)
            // One log line per request would cost the server time the figures should not carry.
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log);
        let mut child = cmd.spawn().expect("spawn license-desk serve");
        let pid = child.id();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(START_PATIENCE).unwrap_or_default();
        let Some(base) = line.trim().strip_prefix("listening on ") else {
            let _ = child.kill();
            let _ = child.wait();
            let said = std::fs::read_to_string(&log_path).unwrap_or_default();
            return Err(said.trim().to_owned());
        };
        Ok(Self {
            base: base.to_owned(),
            child,
            pid,
            data,
            bin: bin.to_owned(),
            _dir: dir,
        })
    }

    /// A new application with the given scopes (comma-separated).
    pub fn app(&self, name: &str, scopes: &str) -> App {
        let out = Command::new(&self.bin)
            .args(["app", "create", "--data"])
            .arg(&self.data)
            .args(["--name", name, "--scopes", scopes])
            .output()
            .expect("run app create");
        assert!(
            out.status.success(),
            "app create: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("app create prints JSON");
        let field = |k: &str| v[k].as_str().expect("appKey and appSecret").to_owned();
        App {
            key: field("appKey"),
            secret: field("appSecret"),
        }
    }

    /// A line of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`).
    pub fn status_kib(&self, key: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))
            .expect("/proc/PID/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    pub fn rss_kib(&self) -> u64 {
        self.status_kib("VmRSS")
    }

    /// Starts the kernel's high-water mark of the resident set (`VmHWM`) afresh from here.
    pub fn reset_peak(&self) {
        std::fs::write(format!("/proc/{}/clear_refs", self.pid), "5").expect("clear_refs");
    }

    /// The soft open-file limit the server runs with, from `/proc/PID/limits`.
    pub fn open_file_limit(&self) -> String {
        let limits = std::fs::read_to_string(format!("/proc/{}/limits", self.pid))
            .expect("/proc/PID/limits");
        limits
            .lines()
            .find_map(|l| l.strip_prefix("Max open files"))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("?")
            .to_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGKILL: the data is thrown away with the temp directory.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `license-desk ARGS --help` lists `flag`: which of issue 19's later options this
/// build has.
pub fn has_flag(bin: &Path, args: &[&str], flag: &str) -> bool {
    Command::new(bin)
        .args(args)
        .arg("--help")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(flag))
}

pub fn mib(kib: u64) -> String {
    format!("{:.0} MiB", kib as f64 / 1024.0)
}

/// The permission bits of `path`, as `0700`.
pub fn mode(path: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bits = std::fs::metadata(path).map_or(0, |m| m.permissions().mode() & 0o777);
    format!("{bits:04o}")
}
