//! `serve --tls-cert FILE --tls-key FILE` (and `team serve`'s): the certificate chain and key read at start, with an
//! error naming the file that is wrong. rustls with the aws-lc-rs provider, the one reqwest
//! already links for the console's calls, so the binary carries a single TLS stack.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_rustls::TlsAcceptor;

use crate::pem;
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

/// The acceptor for `files`, when the server speaks TLS: a certificate that cannot be used
/// stops the start.
pub fn acceptor(files: Option<&TlsFiles>) -> Result<Option<TlsAcceptor>, crate::StartError> {
    Ok(files.map(TlsFiles::acceptor).transpose()?)
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
        // The servers speak HTTP/1.1 only (listen/): said in the handshake, so a client
        // offering h2 falls back at once.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(TlsAcceptor::from(Arc::new(config)))
    }
}

fn read_chain(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    pem::certificates(path).map_err(|e| TlsError::Cert {
        path: path.to_owned(),
        detail: e.to_string(),
    })
}

fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    pem::private_key(path).map_err(|e| TlsError::Key {
        path: path.to_owned(),
        detail: e.to_string(),
    })
}
