//! A CA of the test's own and a server certificate it signed for 127.0.0.1 and localhost,
//! written as PEM files (rcgen, with the aws-lc-rs provider the binary uses).

use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};

pub struct TlsCerts {
    /// The CA's certificate: what a profile's CA file holds.
    pub ca: PathBuf,
    /// The server's certificate, then the CA's (a chain as a CA hands it out).
    pub chain: PathBuf,
    pub key: PathBuf,
    /// A key of another certificate.
    pub other_key: PathBuf,
}

pub fn make(dir: &Path) -> TlsCerts {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "License Desk test CA");
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_key = KeyPair::generate().expect("CA key");
    let ca_cert = ca_params.self_signed(&ca_key).expect("CA certificate");
    let issuer = Issuer::new(ca_params, ca_key);

    let mut params = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .expect("server params");
    params
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    params.use_authority_key_identifier_extension = true;
    let key = KeyPair::generate().expect("server key");
    let cert = params.signed_by(&key, &issuer).expect("server certificate");

    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write PEM");
        path
    };
    TlsCerts {
        ca: write("ca.pem", ca_cert.pem()),
        chain: write("server.pem", format!("{}{}", cert.pem(), ca_cert.pem())),
        key: write("server-key.pem", key.serialize_pem()),
        other_key: write(
            "other-key.pem",
            KeyPair::generate().expect("key").serialize_pem(),
        ),
    }
}
