//! `license-desk release keygen|sign`: the company's release key, and a release signed with it
//! in minisign's format (the files Debian's `minisign` tool makes and checks), on a computer
//! that is not the team server (docs/team.md, "Rolling out"). The secret key is kept encrypted
//! with a password, read from standard input or a hidden prompt, never an argument.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use minisign::{KeyPair, PublicKey, SecretKey, SecretKeyBox};
use support::release_sig::{ReleaseKey, trusted_comment};
use wire::release::Target;

use crate::cli::output::{self, Failure};
use crate::cli::secret_input;

#[derive(Subcommand)]
pub(crate) enum ReleaseCommand {
    /// Make the company's release key pair: the secret key encrypted with a password (typed
    /// twice, or on standard input), the public key for `team settings
    /// --release-public-key`. Prints the public key's fingerprint.
    Keygen {
        /// Where the secret key goes (refused if it exists; private to the user).
        #[arg(long, value_name = "FILE")]
        secret_key: PathBuf,
        /// Where the public key goes.
        #[arg(long, value_name = "FILE")]
        public_key: PathBuf,
    },
    /// Sign a release: FILE.minisig, its trusted comment naming the version and target.
    Sign {
        file: PathBuf,
        /// The secret key (its password asked, or on standard input).
        #[arg(long, value_name = "KEY")]
        key: PathBuf,
        #[arg(long, value_name = "X.Y.Z")]
        version: String,
        #[arg(long, value_name = "TARGET", value_parser = Target::parse)]
        target: Target,
    },
}

pub(crate) fn run(command: ReleaseCommand) -> ExitCode {
    let done = match command {
        ReleaseCommand::Keygen {
            secret_key,
            public_key,
        } => keygen(&secret_key, &public_key),
        ReleaseCommand::Sign {
            file,
            key,
            version,
            target,
        } => sign(&file, &key, &version, target),
    };
    match done {
        Ok(text) => {
            output::print(&text);
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn keygen(secret_path: &Path, public_path: &Path) -> Result<String, Failure> {
    for path in [secret_path, public_path] {
        if path.exists() {
            return Err(Failure::failed(format!(
                "{}: exists already; a key is never written over",
                path.display()
            )));
        }
    }
    let password = secret_input::new_password("the release key")?;
    let KeyPair { pk, sk } =
        KeyPair::generate_encrypted_keypair(Some(password.expose().to_owned()))
            .map_err(Failure::failed)?;
    let secret = sk
        .to_box(Some("License Desk release key (encrypted)"))
        .map_err(Failure::failed)?;
    let public = pk.to_box().map_err(Failure::failed)?;
    new_file(secret_path, secret.to_string().as_bytes())?;
    new_file(public_path, public.to_string().as_bytes())?;
    let key = ReleaseKey::parse(&public.to_string()).map_err(Failure::failed)?;
    Ok(format!("key {} ({})", key.key_id(), key.fingerprint()))
}

fn sign(file: &Path, key_path: &Path, version: &str, target: Target) -> Result<String, Failure> {
    let version = semver::Version::parse(version)
        .map_err(|_| Failure::failed(format!("version: {version:?} is not a version X.Y.Z")))?
        .to_string();
    let text = std::fs::read_to_string(key_path)
        .map_err(|e| Failure::failed(format!("{}: {e}", key_path.display())))?;
    let boxed = SecretKeyBox::from_string(&text)
        .map_err(|e| Failure::failed(format!("{}: {e}", key_path.display())))?;
    let password = secret_input::key_password(key_path)?;
    let secret = SecretKey::from_box(boxed, Some(password.expose().to_owned()))
        .map_err(|_| Failure::failed("the password does not open this key"))?;
    let public = PublicKey::from_secret_key(&secret).map_err(Failure::failed)?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let comment = trusted_comment(&name, &version, target.as_ref(), now_secs());
    let reader = std::fs::File::open(file)
        .map_err(|e| Failure::failed(format!("{}: {e}", file.display())))?;
    let signature = minisign::sign(Some(&public), &secret, reader, Some(&comment), None)
        .map_err(Failure::failed)?;
    let out = team::releases::signature_path(file);
    std::fs::write(&out, signature.to_string())
        .map_err(|e| Failure::failed(format!("{}: {e}", out.display())))?;
    Ok(out.display().to_string())
}

fn now_secs() -> u64 {
    u64::try_from(jiff::Timestamp::now().as_second()).unwrap_or_default()
}

/// A file made anew, private to the user; one that appeared meanwhile is not written over.
fn new_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(path)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .map_err(|e| Failure::failed(format!("{}: {e}", path.display())))
}
