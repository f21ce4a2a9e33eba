//! `serve --tls-cert FILE --tls-key FILE`: the certificate chain and key read at start, with an
//! error naming the file that is wrong. rustls with the aws-lc-rs provider, the one reqwest
//! already links for the console's calls, so the binary carries a single TLS stack.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, ServerConfig, crypto::aws_lc_rs};

/// Where the certificate chain and its private key are (PEM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// The server's certificate first, then any intermediates.
    pub cert: PathBuf,
    /// PKCS#8, PKCS#1 (RSA) or SEC1 (EC).
    pub key: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot read the TLS certificate {path}: {detail}")]
    Cert { path: PathBuf, detail: String },
    #[error("cannot read the TLS key {path}: {detail}")]
    Key { path: PathBuf, detail: String },
    #[error("the TLS key {key} does not belong to the certificate {cert}: {detail}")]
    Mismatch {
        cert: PathBuf,
        key: PathBuf,
        detail: String,
    },
}

impl TlsFiles {
    /// Reads both files and checks that the key is the certificate's.
    pub fn acceptor(&self) -> Result<TlsAcceptor, TlsError> {
        let certs = read_chain(&self.cert)?;
        let key = read_key(&self.key)?;
        let provider = Arc::new(aws_lc_rs::default_provider());
        let mismatch = |e: rustls::Error| TlsError::Mismatch {
            cert: self.cert.clone(),
            key: self.key.clone(),
            detail: e.to_string(),
        };
        let mut config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(mismatch)?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(mismatch)?;
        // The platform speaks HTTP/1.1 only (listen.rs): said in the handshake, so a client
        // offering h2 falls back at once.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

fn read_chain(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let fail = |detail: String| TlsError::Cert {
        path: path.to_owned(),
        detail,
    };
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| fail(pem_problem(&e)))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(pem_problem(&e)))?;
    if certs.is_empty() {
        return Err(fail("no PEM certificate in it".to_owned()));
    }
    Ok(certs)
}

fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    PrivateKeyDer::from_pem_file(path).map_err(|e| TlsError::Key {
        path: path.to_owned(),
        detail: match e {
            pem::Error::NoItemsFound => "no PEM private key in it".to_owned(),
            other => pem_problem(&other),
        },
    })
}

fn pem_problem(e: &pem::Error) -> String {
    match e {
        pem::Error::Io(io) => io.to_string(),
        other => format!("not valid PEM ({other})"),
    }
}
