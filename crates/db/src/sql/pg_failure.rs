//! What went wrong with a connection to PostgreSQL, in words: the store's errors say it,
//! whichever part of a server met them.

use tokio_rustls::rustls::{self, CertificateError};

/// The hint under every refused certificate.
pub const GIVE_THE_CA: &str =
    "give the CA that signed it with sslrootcert=/path/ca.pem in the --database URL";

/// What failed, in words, when a connection failed in its TLS part; `None` for other failures.
pub fn tls_failure(e: &tokio_postgres::Error) -> Option<String> {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        // tokio-postgres 0.7 gives this case no kind of its own, only its text
        // (connect_tls.rs); crates/platform/tests/pg_store.rs pins it.
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
