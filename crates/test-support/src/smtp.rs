//! A real SMTP server on a free loopback port for one test: Debian's `aiosmtpd`
//! (`python3-aiosmtpd`), requiring STARTTLS with a certificate of the test's own CA, and
//! keeping what it receives in a maildir. Dropping the guard stops it.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::tls_certs;

const AIOSMTPD: &str = "/usr/bin/aiosmtpd";

pub struct SmtpServer {
    pub port: u16,
    /// The CA its certificate is signed by (PEM).
    pub ca: PathBuf,
    maildir: PathBuf,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts one; fails saying what to install when aiosmtpd is not there.
pub fn start() -> SmtpServer {
    assert!(
        std::path::Path::new(AIOSMTPD).exists(),
        "aiosmtpd is not installed (apt-get install python3-aiosmtpd)"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let certs = tls_certs::make(dir.path());
    let maildir = dir.path().join("mail");
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let child = Command::new(AIOSMTPD)
        .arg("-n")
        .arg("-l")
        .arg(format!("127.0.0.1:{port}"))
        .arg("--tlscert")
        .arg(&certs.chain)
        .arg("--tlskey")
        .arg(&certs.key)
        .arg("-c")
        .arg("aiosmtpd.handlers.Mailbox")
        .arg(&maildir)
        .stdout(Stdio::null())
        .spawn()
        .expect("aiosmtpd starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "aiosmtpd did not listen on {port}"
        );
        std::thread::yield_now();
    }
    SmtpServer {
        port,
        ca: certs.ca,
        maildir,
        child,
        _dir: dir,
    }
}

impl SmtpServer {
    /// The mails received so far, as they arrived (whole messages, headers first).
    pub fn received(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.maildir.join("new")) else {
            return Vec::new();
        };
        let mut found: Vec<(std::time::SystemTime, String)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let at = e.metadata().and_then(|m| m.modified()).ok()?;
                Some((at, std::fs::read_to_string(e.path()).ok()?))
            })
            .collect();
        found.sort();
        found.into_iter().map(|(_, text)| text).collect()
    }

    /// Waits until `n` mails have arrived (or fails after 20 s): them.
    pub async fn wait_for(&self, n: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let found = self.received();
            if found.len() >= n {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "{n} mails did not arrive: {found:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}
