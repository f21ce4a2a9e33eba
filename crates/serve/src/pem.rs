//! The one reader of PEM files: a certificate chain, a CA's certificates checked to be ones a
//! chain can end at, and a private key. The problem is in words; the caller's error names the
//! file and what it was for.

use std::path::Path;

use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, RootCertStore};

#[derive(Debug, thiserror::Error)]
pub enum PemError {
    #[error("{0}")]
    Io(std::io::Error),
    #[error("not valid PEM ({0})")]
    NotPem(pem::Error),
    #[error("no PEM certificate in it")]
    NoCertificate,
    #[error("no PEM private key in it")]
    NoKey,
    #[error("not a usable certificate ({0})")]
    Unusable(rustls::Error),
}

impl From<pem::Error> for PemError {
    fn from(e: pem::Error) -> Self {
        match e {
            pem::Error::Io(io) => Self::Io(io),
            other => Self::NotPem(other),
        }
    }
}

/// The certificates of a PEM file, in order; at least one.
pub fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, PemError> {
    let certs = CertificateDer::pem_file_iter(path)?.collect::<Result<Vec<_>, _>>()?;
    if certs.is_empty() {
        return Err(PemError::NoCertificate);
    }
    Ok(certs)
}

/// A CA file's certificates, each checked to be one a chain can end at: the store of them,
/// and the certificates themselves.
pub fn roots(path: &Path) -> Result<(RootCertStore, Vec<CertificateDer<'static>>), PemError> {
    let certs = certificates(path)?;
    let mut store = RootCertStore::empty();
    for cert in &certs {
        store.add(cert.clone()).map_err(PemError::Unusable)?;
    }
    Ok((store, certs))
}

/// The private key of a PEM file: PKCS#8, PKCS#1 (RSA) or SEC1 (EC).
pub fn private_key(path: &Path) -> Result<PrivateKeyDer<'static>, PemError> {
    PrivateKeyDer::from_pem_file(path).map_err(|e| match e {
        pem::Error::NoItemsFound => PemError::NoKey,
        other => other.into(),
    })
}
