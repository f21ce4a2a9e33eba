//! TLS to the database server (`sslmode`, `sslrootcert`; docs/postgres.md, "TLS to PostgreSQL"):
//! rustls on the aws-lc-rs provider, the stack the binary already carries for the console's calls and
//! `serve --tls-*`. The server's certificate is always verified, whatever the `sslmode`: an
//! unverified channel would hand the password (or a SCRAM exchange) and the licensing data to
//! whoever sits between.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_postgres_rustls::MakeRustlsConnect;
use tokio_rustls::rustls::client::WantsClientCert;
use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::{
    self, CertificateError, ClientConfig, ConfigBuilder, RootCertStore, WantsVerifier,
    crypto::aws_lc_rs,
};

/// The hint under every refused certificate.
const GIVE_THE_CA: &str =
    "give the CA that signed it with sslrootcert=/path/ca.pem in the --database URL";

#[derive(Debug, thiserror::Error)]
pub enum TlsSetupError {
    #[error("cannot read the CA file sslrootcert={}: {detail}", path.display())]
    CaFile { path: PathBuf, detail: String },
    #[error(
        "cannot verify the database server's certificate with the system's CAs ({0}): {GIVE_THE_CA}"
    )]
    SystemRoots(rustls::Error),
    #[error("cannot set up TLS to the database server: {0}")]
    Config(rustls::Error),
}

/// The connector for `sslmode=prefer|require`: certificates verified against `root_cert` (the
/// URL's `sslrootcert`) alone when given, as libpq does, else against the system's CAs.
///
/// The system's CAs through rustls-platform-verifier rather than a bundled webpki-roots list:
/// reqwest already links it for the console, it follows what the operator trusts (a company
/// CA installed on the machine, the Windows and macOS stores), and no list goes stale in the
/// binary.
pub fn connector(
    root_cert: Option<&Path>,
    require: bool,
) -> Result<MakeRustlsConnect, TlsSetupError> {
    let builder = ClientConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(TlsSetupError::Config)?;
    let verified = match root_cert {
        Some(path) => builder.with_root_certificates(read_roots(path)?),
        None => system_roots(builder, require)?,
    };
    Ok(MakeRustlsConnect::new(verified.with_no_client_auth()))
}

fn system_roots(
    builder: ConfigBuilder<ClientConfig, WantsVerifier>,
    require: bool,
) -> Result<ConfigBuilder<ClientConfig, WantsClientCert>, TlsSetupError> {
    use rustls_platform_verifier::Verifier;
    let provider = builder.crypto_provider().clone();
    match Verifier::new(provider) {
        Ok(verifier) => Ok(builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))),
        Err(e) if require => Err(TlsSetupError::SystemRoots(e)),
        // A machine without a CA bundle (a slim container) still reaches a server that offers
        // no TLS under `prefer`; one that offers it is refused, as no certificate can be
        // verified.
        Err(e) => {
            tracing::warn!(
                error = %e,
                "no system CAs to verify the database server with; a server offering TLS will be \
                 refused unless the URL gives sslrootcert"
            );
            Ok(builder.with_root_certificates(RootCertStore::empty()))
        }
    }
}

/// The CA file's certificates, each checked to be one a chain can end at.
fn read_roots(path: &Path) -> Result<RootCertStore, TlsSetupError> {
    let fail = |detail: String| TlsSetupError::CaFile {
        path: path.to_owned(),
        detail,
    };
    let ders = CertificateDer::pem_file_iter(path)
        .map_err(|e| fail(pem_problem(&e)))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(pem_problem(&e)))?;
    if ders.is_empty() {
        return Err(fail("no PEM certificate in it".to_owned()));
    }
    let mut roots = RootCertStore::empty();
    for der in ders {
        roots
            .add(der)
            .map_err(|e| fail(format!("not a usable certificate ({e})")))?;
    }
    Ok(roots)
}

fn pem_problem(e: &pem::Error) -> String {
    match e {
        pem::Error::Io(io) => io.to_string(),
        other => format!("not valid PEM ({other})"),
    }
}

/// What failed, in words, when a connection failed in its TLS part; `None` for other failures.
pub fn tls_failure(e: &tokio_postgres::Error) -> Option<String> {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        // tokio-postgres 0.7 gives this case no kind of its own, only its text
        // (connect_tls.rs); tests/pg_store.rs pins it.
        if s.to_string() == "server does not support TLS" {
            return Some(
                "the database server does not offer TLS and sslmode=require (or verify-ca, \
                 verify-full) refuses a plain connection"
                    .to_owned(),
            );
        }
        if let Some(tls) = rustls_error(s) {
            return Some(match tls {
                rustls::Error::InvalidCertificate(why) => format!(
                    "the database server's certificate is not trusted: {}; {GIVE_THE_CA}",
                    certificate_problem(why)
                ),
                other => format!("the TLS handshake with the database server failed: {other}"),
            });
        }
        source = s.source();
    }
    None
}

/// The rustls error in `e`, looking inside io::Errors: they hide what they wrap from
/// `source()`, and tokio-rustls wraps its error in one.
fn rustls_error<'a>(mut e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    loop {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        e = e.downcast_ref::<std::io::Error>()?.get_ref()?;
    }
}

fn certificate_problem(why: &CertificateError) -> String {
    match why {
        // rustls shows this one by its variant's name only.
        CertificateError::UnknownIssuer => {
            "it is not signed by a trusted CA (unknown issuer)".to_owned()
        }
        other => other.to_string(),
    }
}
