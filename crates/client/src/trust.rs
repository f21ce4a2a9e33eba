//! Which servers a profile's client trusts. reqwest verifies certificates with
//! rustls-platform-verifier: the operating system's trust store (Windows, macOS; on Linux the
//! system's CA bundle, e.g. /etc/ssl/certs). A profile may add the CA of its own platform from a
//! PEM file; nothing turns verification off.

use std::path::Path;

use tokio_rustls::rustls::{self};

use super::ApiError;

/// The certificates of a profile's CA file, each checked to be one a chain can end at.
pub fn extra_roots(path: &Path) -> Result<Vec<reqwest::Certificate>, ApiError> {
    let fail = |detail: String| ApiError::CaFile {
        path: path.display().to_string(),
        detail,
    };
    let (_, certs) = serve::pem::roots(path).map_err(|e| fail(e.to_string()))?;
    certs
        .iter()
        .map(|der| reqwest::Certificate::from_der(der).map_err(|e| fail(e.to_string())))
        .collect()
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
