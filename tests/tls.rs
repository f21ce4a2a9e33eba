//! `serve --tls-cert --tls-key` as a team runs it, and remote profiles that verify its
//! certificate: a CA made in the test signs the server's certificate; a profile trusts it only
//! with that CA as its CA file. Real processes, a real handshake, a fresh HOME without a keyring.

use test_support::tls_certs;

use std::ffi::OsStr;
use std::io::Read;
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use test_support::served;

use served::{Run, Served, bin, last};

/// `serve` over TLS with the test's certificate and `extra` arguments.
fn serve_tls(certs: &tls_certs::TlsCerts, extra: &[&str]) -> Served {
    let mut args: Vec<&OsStr> = vec![
        "--tls-cert".as_ref(),
        certs.chain.as_os_str(),
        "--tls-key".as_ref(),
        certs.key.as_os_str(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    Served::start(&args)
}

fn ld(home: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    served::ld(home, args, stdin, &[])
}

fn ld_with(home: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
    served::ld(home, args, stdin, env)
}

const UNTRUSTED: &str = "error: the server's certificate is not trusted: ";

#[test]
fn a_profile_trusts_the_tls_platform_only_with_its_ca_file() {
    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let platform = serve_tls(&certs, &[]);
    assert!(
        platform.base.starts_with("https://127.0.0.1:"),
        "{}",
        platform.base
    );
    let (key, secret) = platform.app("auth_order");
    let home = tempfile::tempdir().expect("home");
    let home = home.path();
    let ca = certs.ca.to_str().expect("utf-8 path");
    let base = platform.base.as_str();
    let add = |name: &str, more: &[&str]| {
        let mut args = vec![
            "profile",
            "add",
            name,
            "--base-url",
            base,
            "--app-key",
            &key,
        ];
        args.extend(more);
        ld(home, &args, Some(&format!("{secret}\n")))
    };

    // With the CA file: a token over TLS, and the file kept with the profile.
    let trusted = add("trusted", &["--ca-file", ca, "--check"]);
    assert_eq!(trusted.code, Some(0), "{}", trusted.stderr);
    let docs: Vec<Value> = serde_json::Deserializer::from_str(&trusted.stdout)
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("two JSON documents");
    assert_eq!(docs[0]["caFile"], ca);
    assert_eq!(docs[1]["scopes"][0], "auth_order");

    // Without it: the system's CAs do not know the test's CA, and the call says so.
    let refused = add("plain", &["--check"]);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(last(&refused).starts_with(UNTRUSTED), "{}", refused.stderr);
    assert!(
        last(&refused).contains("UnknownIssuer"),
        "{}",
        refused.stderr
    );
    let kept = ld(home, &["profile", "list"], None);
    assert!(!kept.stdout.contains("\"plain\""), "{}", kept.stdout);

    // Kept without a check, the CA file given afterwards, then taken away again. Without a
    // keyring each run is given the secret.
    assert_eq!(add("plain", &["--no-secret"]).code, Some(0));
    let env = [("LICENSE_DESK_SECRET_PLAIN", secret.as_str())];
    let test = || ld_with(home, &["profile", "test", "plain"], None, &env);
    assert!(last(&test()).starts_with(UNTRUSTED));
    let edited = ld(home, &["profile", "edit", "plain", "--ca-file", ca], None);
    assert_eq!(edited.code, Some(0), "{}", edited.stderr);
    let now = test();
    assert_eq!(now.code, Some(0), "{}", now.stderr);
    let cleared = ld(home, &["profile", "edit", "plain", "--no-ca-file"], None);
    assert_eq!(cleared.code, Some(0), "{}", cleared.stderr);
    assert!(!cleared.stdout.contains("caFile"), "{}", cleared.stdout);
    assert!(last(&test()).starts_with(UNTRUSTED));
}

#[test]
fn a_ca_file_that_cannot_be_used_is_refused_in_words() {
    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let home = tempfile::tempdir().expect("home");
    let edit = |file: &Path| {
        let file = file.to_str().expect("utf-8 path");
        let args = [
            "profile",
            "add",
            "p",
            "--base-url",
            "https://127.0.0.1:9",
            "--app-key",
            "ak",
            "--no-secret",
            "--ca-file",
            file,
        ];
        ld(home.path(), &args, None)
    };
    let missing = dir.path().join("missing.pem");
    let run = edit(&missing);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        last(&run),
        format!(
            "error: cannot use the CA file {}: No such file or directory (os error 2)",
            missing.display()
        )
    );
    // A key is PEM, but not a certificate.
    let run = edit(&certs.key);
    assert_eq!(
        last(&run),
        format!(
            "error: cannot use the CA file {}: no PEM certificate in it",
            certs.key.display()
        )
    );
    // Nothing was kept.
    let listed = ld(home.path(), &["profile", "list"], None);
    assert!(!listed.stdout.contains("\"p\""), "{}", listed.stdout);
}

#[test]
fn serve_does_not_start_with_a_certificate_it_cannot_use() {
    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let serve = |cert: &Path, key: &Path| {
        let data = dir.path().join("data");
        let out = Command::new(bin())
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(&data)
            .arg("--tls-cert")
            .arg(cert)
            .arg("--tls-key")
            .arg(key)
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(out.stdout, b"", "nothing listens");
        String::from_utf8(out.stderr).expect("utf-8")
    };
    let missing = dir.path().join("missing.pem");
    let said = serve(&missing, &certs.key);
    assert!(
        said.contains(&format!(
            "error: cannot read the TLS certificate {}: No such file or directory",
            missing.display()
        )),
        "{said}"
    );
    let said = serve(&certs.chain, &missing);
    assert!(
        said.contains(&format!(
            "error: cannot read the TLS key {}: No such file",
            missing.display()
        )),
        "{said}"
    );
    let said = serve(&certs.key, &certs.key);
    assert!(
        said.contains(&format!(
            "error: cannot read the TLS certificate {}: no PEM certificate in it",
            certs.key.display()
        )),
        "{said}"
    );
    let said = serve(&certs.chain, &certs.ca);
    assert!(
        said.contains(&format!(
            "error: cannot read the TLS key {}: no PEM private key in it",
            certs.ca.display()
        )),
        "{said}"
    );
    let said = serve(&certs.chain, &certs.other_key);
    assert!(
        said.contains(&format!(
            "error: the TLS key {} does not belong to the certificate {}",
            certs.other_key.display(),
            certs.chain.display()
        )),
        "{said}"
    );
}

fn trusting(ca: &Path) -> reqwest::Client {
    let pem = std::fs::read(ca).expect("CA");
    reqwest::Client::builder()
        .tls_certs_only(reqwest::Certificate::from_pem_bundle(&pem).expect("PEM"))
        .build()
        .expect("client")
}

#[tokio::test]
async fn plain_http_to_the_tls_port_gets_no_answer() {
    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let platform = serve_tls(&certs, &[]);
    let plain = format!("http://127.0.0.1:{}/openapi.json", platform.port());
    let answer = reqwest::get(&plain).await;
    assert!(answer.is_err(), "an HTTP answer over TLS: {answer:?}");
    // The same path over TLS answers.
    let tls = trusting(&certs.ca)
        .get(format!("{}/openapi.json", platform.base))
        .send()
        .await
        .expect("answer");
    assert_eq!(tls.status(), 200);
    assert_eq!(tls.version(), reqwest::Version::HTTP_11);
}

/// A client that connects and never says hello holds its place for the header timeout, not
/// longer; meanwhile one connection too many is told so over TLS.
#[tokio::test]
async fn a_stalled_handshake_holds_a_place_only_for_the_header_timeout() {
    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let platform = serve_tls(&certs, &["--max-connections", "1", "--header-timeout", "3"]);
    let mut stalled = TcpStream::connect(("127.0.0.1", platform.port())).expect("connects");
    let client = trusting(&certs.ca);
    let url = format!("{}/openapi.json", platform.base);
    let refused = client.get(&url).send().await.expect("an answer");
    assert_eq!(refused.status(), 503);
    let body: Value = refused.json().await.expect("json");
    assert_eq!(body["cause"], "connection limit reached");
    // The platform closes the stalled connection by itself.
    stalled
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let mut buf = [0u8; 16];
    match stalled.read(&mut buf) {
        Ok(0) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        other => panic!("the stalled connection was not closed: {other:?}"),
    }
    // Its place is free again (the server may see the close a moment after the client does).
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let answer = client.get(&url).send().await.expect("an answer");
        if answer.status() == 200 {
            break;
        }
        assert_eq!(answer.status(), 503);
        assert!(
            std::time::Instant::now() < deadline,
            "the place stayed taken"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A stop lets a request in flight over TLS finish: its answer arrives whole after the
/// platform has stopped accepting.
#[tokio::test]
async fn a_stop_lets_a_request_in_flight_over_tls_finish() {
    use base64::Engine;
    use platform::{Config, Server, create_app};
    use serve::TlsFiles;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, pem::PemObject};
    use tokio_rustls::rustls::{ClientConfig, RootCertStore};

    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let data = dir.path().join("platform");
    let mut config = Config::new(&data, "127.0.0.1:0".parse().expect("addr"));
    config.tls = Some(TlsFiles {
        cert: certs.chain.clone(),
        key: certs.key.clone(),
    });
    let server = Server::start(config).await.expect("TLS platform");
    let addr = server.local_addr();
    let app = create_app(&data, "stop", &["auth_order".to_owned()]).expect("app");

    let mut roots = RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_file(&certs.ca).expect("CA"))
        .expect("root");
    let client = ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(client));
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let name = ServerName::try_from("127.0.0.1").expect("name");
    let mut tls = connector.connect(name, tcp).await.expect("handshake");

    // The head, and a request for the body: the platform says 100 Continue once it reads it.
    let body = "grant_type=client_credentials";
    let basic = base64::engine::general_purpose::STANDARD
        .encode(format!("{}:{}", app.app_key, app.app_secret));
    let head = format!(
        "POST /v3/api/oauth2/token HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Basic {basic}\r\n\
         content-type: application/x-www-form-urlencoded\r\ncontent-length: {}\r\n\
         expect: 100-continue\r\n\r\n",
        body.len()
    );
    tls.write_all(head.as_bytes()).await.expect("head");
    let mut read = vec![0u8; 256];
    let n = tls.read(&mut read).await.expect("100 Continue");
    assert!(
        read[..n].starts_with(b"HTTP/1.1 100 Continue"),
        "{:?}",
        String::from_utf8_lossy(&read[..n])
    );

    // Stopped while the body is awaited: new connections are refused at once...
    let stopping = tokio::spawn(server.shutdown());
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while tokio::net::TcpStream::connect(addr).await.is_ok() {
        assert!(std::time::Instant::now() < deadline, "still accepting");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // ...and the request in flight is answered whole.
    tls.write_all(body.as_bytes()).await.expect("body");
    let mut answer = Vec::new();
    tls.read_to_end(&mut answer)
        .await
        .expect("the answer, then the end");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(answer.contains("\"access_token\""), "{answer}");
    stopping.await.expect("stopped");
}
