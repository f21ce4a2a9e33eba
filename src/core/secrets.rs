//! Secrets (app secrets, cached tokens) in the OS keyring; in memory for the session when no
//! keyring answers. Never in a file, never in a log.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use keyring_core::{CredentialStore, Error as KeyringError};
use serde::{Deserialize, Serialize};

use client::{CachedToken, Secret};

/// The keyring service name every entry is filed under.
const SERVICE: &str = "license-desk";

/// How long the OS store may take to open: a broken D-Bus set-up can hang for minutes.
const OPEN_TIMEOUT: Duration = Duration::from_secs(5);

/// Where secrets are kept, as the UI shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyringState {
    /// The OS keyring keeps them across sessions.
    Available { store: KeyringStore },
    /// No keyring: secrets are kept in memory until the app closes, and asked for again.
    MemoryOnly { reason: String },
}

/// Which keyring holds the secrets; the console names it in the user's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyringStore {
    /// GNOME Keyring, KWallet or another Secret Service.
    SecretService,
    /// The Linux kernel's keyutils: kept until logout.
    KernelKeyutils,
    WindowsCredentialManager,
    MacosKeychain,
    /// A store handed to the core (tests).
    Given,
}

impl KeyringState {
    pub fn is_available(&self) -> bool {
        matches!(self, Self::Available { .. })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum SecretKind {
    AppSecret,
    Token,
}

impl SecretKind {
    fn name(self) -> &'static str {
        self.into()
    }
}

/// The token as kept between sessions.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredToken {
    token: String,
    expires_at_ms: i64,
    scope: String,
    /// The token URL and app key it was issued for (absent in tokens kept before: those are
    /// not used again).
    #[serde(default)]
    issued_by: String,
}

/// Told when the keyring state changes during the session (the UI shows it).
type Listener = Box<dyn Fn(&KeyringState) + Send + Sync>;

pub struct Secrets {
    store: Option<Arc<CredentialStore>>,
    state: Mutex<KeyringState>,
    listener: Mutex<Option<Listener>>,
    /// Always written, so a keyring that fails later loses nothing of this session.
    memory: Mutex<HashMap<(String, SecretKind), String>>,
}

impl Secrets {
    /// Secrets in the given store (tests pass `keyring_core::mock::Store::new()`).
    pub fn with_store(store: Arc<CredentialStore>, kind: KeyringStore) -> Self {
        Self {
            store: Some(store),
            state: Mutex::new(KeyringState::Available { store: kind }),
            listener: Mutex::new(None),
            memory: Mutex::new(HashMap::new()),
        }
    }

    /// The reason of a keyring kept in memory because the settings ask for it (the window says
    /// it in its language; other reasons are the OS's words).
    pub const AS_CONFIGURED: &'static str = "memory only, as configured";

    pub fn memory_only(reason: impl Into<String>) -> Self {
        Self {
            store: None,
            state: Mutex::new(KeyringState::MemoryOnly {
                reason: reason.into(),
            }),
            listener: Mutex::new(None),
            memory: Mutex::new(HashMap::new()),
        }
    }

    /// The OS keyring, probed with a write and a read, or memory only with the reason. Blocks up
    /// to a few seconds: call it off the UI thread.
    pub fn native() -> Self {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // Past the time limit no one waits: the keyring is then memory only.
            let _ = tx.send(open_native());
        });
        match rx.recv_timeout(OPEN_TIMEOUT) {
            Ok(Ok((store, kind))) => Self::with_store(store, kind),
            Ok(Err(reason)) => Self::memory_only(reason.to_string()),
            Err(_) => Self::memory_only(format!(
                "the OS keyring did not answer within {} s",
                OPEN_TIMEOUT.as_secs()
            )),
        }
    }

    /// Calls `f` whenever the state changes from now on.
    pub fn on_change(&self, f: impl Fn(&KeyringState) + Send + Sync + 'static) {
        *self.listener.lock().unwrap_or_else(PoisonError::into_inner) = Some(Box::new(f));
    }

    pub fn state(&self) -> KeyringState {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn entry(&self, profile: &str, kind: SecretKind) -> Option<keyring_core::Entry> {
        let store = self.store.as_ref()?;
        if !self.state().is_available() {
            return None;
        }
        store
            .build(SERVICE, &format!("{profile}/{}", kind.name()), None)
            .ok()
    }

    fn degrade(&self, e: &KeyringError) {
        tracing::warn!(error = %e, "the OS keyring failed; secrets are kept in memory for this session");
        let state = KeyringState::MemoryOnly {
            reason: format!("the OS keyring failed: {e}"),
        };
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = state.clone();
        if let Some(listener) = self
            .listener
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            listener(&state);
        }
    }

    fn memory(&self) -> std::sync::MutexGuard<'_, HashMap<(String, SecretKind), String>> {
        self.memory.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn get(&self, profile: &str, kind: SecretKind) -> Option<String> {
        if let Some(v) = self.memory().get(&(profile.to_owned(), kind)) {
            return Some(v.clone());
        }
        let entry = self.entry(profile, kind)?;
        match entry.get_password() {
            Ok(v) => {
                self.memory().insert((profile.to_owned(), kind), v.clone());
                Some(v)
            }
            Err(KeyringError::NoEntry) => None,
            Err(e) => {
                self.degrade(&e);
                None
            }
        }
    }

    pub fn set(&self, profile: &str, kind: SecretKind, value: &str) {
        self.memory()
            .insert((profile.to_owned(), kind), value.to_owned());
        if let Some(entry) = self.entry(profile, kind)
            && let Err(e) = entry.set_password(value)
        {
            self.degrade(&e);
        }
    }

    pub fn delete(&self, profile: &str, kind: SecretKind) {
        self.memory().remove(&(profile.to_owned(), kind));
        if let Some(entry) = self.entry(profile, kind) {
            match entry.delete_credential() {
                Ok(()) | Err(KeyringError::NoEntry) => {}
                Err(e) => self.degrade(&e),
            }
        }
    }

    pub fn app_secret(&self, profile: &str) -> Option<Secret> {
        self.get(profile, SecretKind::AppSecret).map(Secret::new)
    }

    /// The profile's kept token, if it was issued by `issuer` (addresses and app key, see
    /// [`token_issuer`]): a token is never sent to a host other than the one that issued it,
    /// also after the profile's address was changed outside the program.
    pub fn token(&self, profile: &str, issuer: &str) -> Option<CachedToken> {
        let text = self.get(profile, SecretKind::Token)?;
        let t: StoredToken = serde_json::from_str(&text).ok()?;
        let ours = t.issued_by == issuer || legacy(issuer) == Some(t.issued_by.as_str());
        ours.then(|| CachedToken {
            token: Secret::new(t.token),
            expires_at_ms: t.expires_at_ms,
            scope: t.scope,
        })
    }

    /// Keeps the profile's token, with who issued it.
    pub fn set_token(&self, profile: &str, token: &CachedToken, issuer: &str) {
        let stored = StoredToken {
            token: token.token.expose().to_owned(),
            expires_at_ms: token.expires_at_ms,
            scope: token.scope.clone(),
            issued_by: issuer.to_owned(),
        };
        if let Ok(text) = serde_json::to_string(&stored) {
            self.set(profile, SecretKind::Token, &text);
        }
    }

    /// Forgets every secret of a profile (when it is removed).
    pub fn forget(&self, profile: &str) {
        self.delete(profile, SecretKind::AppSecret);
        self.delete(profile, SecretKind::Token);
    }
}

/// Who issues a client's tokens and who they are sent to: its app key, its exact token URL
/// and its base URL (a token kept for one base address is never sent to another, even when
/// the token URL was left as it was).
pub fn token_issuer(token_url: &str, base_url: &str, app_key: &str) -> String {
    format!("{app_key} {token_url} {base_url}")
}

/// The issuer a token was kept under before the base URL was part of it: still the
/// profile's when its token URL is under its base URL (an edited base URL moves both apart).
/// Keeps a team profile's session across the upgrade.
fn legacy(issuer: &str) -> Option<&str> {
    let (before, base) = issuer.rsplit_once(' ')?;
    let (_, token_url) = before.rsplit_once(' ')?;
    token_url
        .strip_prefix(base)
        .is_some_and(|rest| rest.starts_with('/'))
        .then_some(before)
}

/// Why the OS keyring cannot be used (the console then keeps secrets in memory only).
#[derive(Debug, thiserror::Error)]
pub enum NoKeyring {
    #[error("{0}")]
    Refused(#[from] KeyringError),
    #[error("the keyring did not give back what was stored")]
    Forgetful,
    #[error("no OS keyring is supported on this system")]
    Unsupported,
    #[error("Secret Service: {secret_service}; kernel keyutils: {keyutils}")]
    Neither {
        secret_service: Box<NoKeyring>,
        keyutils: Box<NoKeyring>,
    },
}

#[cfg(target_os = "linux")]
fn open_native() -> Result<(Arc<CredentialStore>, KeyringStore), NoKeyring> {
    let secret_service = zbus_secret_service_keyring_store::Store::new()
        .map_err(NoKeyring::from)
        .and_then(|store| probe(store.clone()).map(|()| store));
    let secret_service = match secret_service {
        Ok(store) => return Ok((store as Arc<CredentialStore>, KeyringStore::SecretService)),
        Err(e) => e,
    };
    let keyutils = linux_keyutils_keyring_store::Store::new()
        .map_err(NoKeyring::from)
        .and_then(|store| probe(store.clone()).map(|()| store));
    match keyutils {
        Ok(store) => Ok((store as Arc<CredentialStore>, KeyringStore::KernelKeyutils)),
        Err(keyutils) => Err(NoKeyring::Neither {
            secret_service: Box::new(secret_service),
            keyutils: Box::new(keyutils),
        }),
    }
}

#[cfg(target_os = "windows")]
fn open_native() -> Result<(Arc<CredentialStore>, KeyringStore), NoKeyring> {
    let store = windows_native_keyring_store::Store::new()?;
    probe(store.clone())?;
    Ok((
        store as Arc<CredentialStore>,
        KeyringStore::WindowsCredentialManager,
    ))
}

#[cfg(target_os = "macos")]
fn open_native() -> Result<(Arc<CredentialStore>, KeyringStore), NoKeyring> {
    let store = apple_native_keyring_store::keychain::Store::new()?;
    probe(store.clone())?;
    Ok((store as Arc<CredentialStore>, KeyringStore::MacosKeychain))
}

#[cfg(not(any(target_os = "linux", target_os = "windows", target_os = "macos")))]
fn open_native() -> Result<(Arc<CredentialStore>, KeyringStore), NoKeyring> {
    Err(NoKeyring::Unsupported)
}

/// A write, a read and a delete: a locked keyring opens but fails writes.
#[cfg(any(target_os = "linux", target_os = "windows", target_os = "macos"))]
fn probe(store: Arc<CredentialStore>) -> Result<(), NoKeyring> {
    let entry = store.build(SERVICE, "probe", None)?;
    entry.set_password("probe")?;
    let back = entry.get_password()?;
    // The probe's entry is harmless if it stays.
    let _ = entry.delete_credential();
    if back == "probe" {
        Ok(())
    } else {
        Err(NoKeyring::Forgetful)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_kept_before_the_base_url_counted_is_kept_only_under_that_base() {
        let base = "https://team.example.com";
        let issuer = token_issuer(&format!("{base}/team/v1/session"), base, "zhang san");
        assert_eq!(
            legacy(&issuer),
            Some("zhang san https://team.example.com/team/v1/session")
        );
        let moved = token_issuer(&format!("{base}/team/v1/session"), "https://x.example", "k");
        assert_eq!(legacy(&moved), None);
        let apart = token_issuer("https://team.example.com.evil/t", base, "k");
        assert_eq!(legacy(&apart), None);
    }
}
