//! TLS to the database server (`sslmode`, `sslrootcert`; docs/postgres.md, "TLS to PostgreSQL"):
//! rustls on the aws-lc-rs provider, the stack the binary already carries for the console's calls and
//! `serve --tls-*`. The server's certificate is always verified, whatever the `sslmode`: an
//! unverified channel would hand the password (or a SCRAM exchange) and the licensing data to
//! whoever sits between.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::sql::pg_failure::GIVE_THE_CA;

use tokio_postgres_rustls::MakeRustlsConnect;
use tokio_rustls::rustls::client::WantsClientCert;
use tokio_rustls::rustls::{
    self, ClientConfig, ConfigBuilder, RootCertStore, WantsVerifier, crypto::aws_lc_rs,
};

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
    let (roots, _) = serve::pem::roots(path).map_err(|e| TlsSetupError::CaFile {
        path: path.to_owned(),
        detail: e.to_string(),
    })?;
    Ok(roots)
}
