//! Which servers a profile's client trusts. reqwest verifies certificates with
//! rustls-platform-verifier: the operating system's trust store (Windows, macOS; on Linux the
//! system's CA bundle, e.g. /etc/ssl/certs). A profile may add the CA of its own platform from a
//! PEM file; nothing turns verification off.

use std::path::Path;

use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::{self, RootCertStore};

use super::ApiError;

/// The certificates of a profile's CA file, each checked to be one a chain can end at.
pub fn extra_roots(path: &Path) -> Result<Vec<reqwest::Certificate>, ApiError> {
    let fail = |detail: String| ApiError::CaFile {
        path: path.display().to_string(),
        detail,
    };
    let ders = CertificateDer::pem_file_iter(path)
        .map_err(|e| fail(pem_problem(&e)))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(pem_problem(&e)))?;
    if ders.is_empty() {
        return Err(fail("no PEM certificate in it".to_owned()));
    }
    let mut store = RootCertStore::empty();
    let mut roots = Vec::with_capacity(ders.len());
    for der in ders {
        store
            .add(der.clone())
            .map_err(|e| fail(format!("not a usable certificate ({e})")))?;
        roots.push(reqwest::Certificate::from_der(&der).map_err(|e| fail(e.to_string()))?);
    }
    Ok(roots)
}

fn pem_problem(e: &pem::Error) -> String {
    match e {
        pem::Error::Io(io) => io.to_string(),
        other => format!("not valid PEM ({other})"),
    }
}

/// The verifier's words when a call failed because the server's certificate was refused.
pub fn untrusted_cause(e: &reqwest::Error) -> Option<String> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(why) = refused_certificate(s) {
            return Some(why);
        }
        source = s.source();
    }
    None
}

/// The certificate error in `e`, looking inside io::Errors: they hide what they wrap from
/// `source()`, and the TLS connector wraps one in another.
fn refused_certificate(mut e: &(dyn std::error::Error + 'static)) -> Option<String> {
    loop {
        if let Some(rustls::Error::InvalidCertificate(why)) = e.downcast_ref::<rustls::Error>() {
            return Some(why.to_string());
        }
        let inner = e.downcast_ref::<std::io::Error>()?.get_ref()?;
        e = inner;
    }
}
