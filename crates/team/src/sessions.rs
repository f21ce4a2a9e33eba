//! Sign-in and sessions. A sign-in answers a random token; only its SHA-256 is stored. A
//! session ends when the person signs out, after 30 idle minutes, 12 hours after it began, and
//! at once when the person is disabled or loses their role or password
//! (`people.sessions_revoked_at`). Which attempts are judged at all is the gate's
//! (`crate::gate`): no name is ever locked. Every failure is answered alike, whether the name
//! exists or not, and takes as long (an Argon2 verification is always made).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use db::sql::{StoreError, Tx};

use crate::checkers::Checkers;
use crate::custom_roles::permissions_of;
use crate::error::TeamError;
use crate::gate::SignInLimits;
use crate::identity::name_key;
use crate::ldap::{self, DirectoryPerson, LdapConfig, LdapError};
use crate::people::{self, Person, Source};
use crate::roles::Permissions;
use crate::store::TeamStore;

/// How long sessions last and how sign-ins are limited.
#[derive(Debug, Clone)]
pub struct SessionRules {
    pub idle: Duration,
    pub absolute: Duration,
    /// How long an instance trusts a session it has checked (another instance's sign-out or
    /// revocation is seen within it).
    pub trusted_for: Duration,
    pub sign_ins: SignInLimits,
    /// The time sessions and sign-in limits are judged by.
    pub clock: support::clock::Clock,
}

impl Default for SessionRules {
    fn default() -> Self {
        Self {
            idle: Duration::from_secs(30 * 60),
            absolute: Duration::from_secs(12 * 3600),
            trusted_for: Duration::from_secs(2),
            sign_ins: SignInLimits::default(),
            clock: support::clock::Clock::system(),
        }
    }
}

/// A person behind a valid session, with what their role permits now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub person: Person,
    pub permissions: Permissions,
}

/// An answered sign-in.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// The bearer token: shown to the person once, stored nowhere.
    pub token: String,
    pub caller: Caller,
    /// When the session ends at the latest (epoch milliseconds).
    pub expires_at: i64,
}

/// Why a sign-in or a session was refused, in words for the person.
#[derive(Debug, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum SessionError {
    /// The same for an unknown name and a wrong password.
    #[error("wrong name or password")]
    WrongNameOrPassword,
    #[error("this account is disabled; ask an administrator")]
    Disabled,
    #[error("{0:?} signs in through LDAP, and this server has no LDAP directory configured")]
    NoDirectory(String),
    /// The directory cannot be reached or failed; local accounts still sign in.
    #[error("{0}; local accounts can still sign in")]
    Directory(String),
    #[error("your directory account is in no group this server admits; ask an administrator")]
    NoGroup,
    #[error(
        "your directory account is not on this server; ask an administrator to add you \
         (team user add NAME --ldap --role ROLE)"
    )]
    NotAdded,
    #[error(
        "your role needs a branch and none is set for you on this server; ask an \
         administrator (team user add|edit NAME --branch CODE --branch-name NAME)"
    )]
    NoBranch,
    /// The name from this address, or this address, has used its attempts for now (429).
    #[error("too many sign-in attempts: try again in {0} s")]
    Slowed(u64),
    /// Every password check's turn is taken (503).
    #[error("the team server is busy checking other sign-ins: try again in {0} s")]
    Busy(u64),
    #[error(
        "your directory account is not the one {0:?} on this server belongs to; ask an \
         administrator"
    )]
    OtherDirectoryPerson(String),
    #[error("no session: sign in first")]
    Missing,
    #[error("the session has ended (signed out, expired, or the account changed): sign in again")]
    Ended,
    #[error(transparent)]
    Team(#[from] TeamError),
}

impl SessionError {
    /// The record's note of a sign-in refused for this: its kind, and when to try again.
    pub fn note(&self) -> wire::team::RecordNote {
        let retry_seconds = match self {
            SessionError::Slowed(s) | SessionError::Busy(s) => Some(*s),
            _ => None,
        };
        wire::team::RecordNote::SignInRefused {
            why: <&str>::from(self).to_owned(),
            retry_seconds,
        }
    }
}

impl From<StoreError> for SessionError {
    fn from(e: StoreError) -> Self {
        Self::Team(TeamError::Store(e))
    }
}

impl db::pg::StoreFailure for SessionError {
    fn store_error(&self) -> Option<&StoreError> {
        match self {
            Self::Team(TeamError::Store(e)) => Some(e),
            _ => None,
        }
    }
}

/// The sessions of one server instance: the store, and what it checked lately.
pub struct Sessions {
    store: TeamStore,
    rules: SessionRules,
    directory: Option<LdapConfig>,
    checked: Mutex<HashMap<String, (Caller, Instant)>>,
    checkers: Checkers,
}

/// A session as stored, with its person's state.
struct Stored {
    person: String,
    created_at: i64,
    last_seen_at: i64,
    ended: bool,
    revoked_at: i64,
}

impl Sessions {
    pub fn new(store: TeamStore, rules: SessionRules) -> Self {
        Self::with_directory(store, rules, None)
    }

    /// Sessions whose directory accounts are checked by `directory`.
    pub fn with_directory(
        store: TeamStore,
        rules: SessionRules,
        directory: Option<LdapConfig>,
    ) -> Self {
        Self {
            store,
            directory,
            checkers: Checkers::start(rules.sign_ins.checks_at_once),
            checked: Mutex::new(HashMap::new()),
            rules,
        }
    }

    pub fn rules(&self) -> &SessionRules {
        &self.rules
    }

    /// Checks a password (a local account's, or by a bind to the directory) and begins a
    /// session.
    pub async fn sign_in(&self, name: &str, password: &str) -> Result<SignedIn, SessionError> {
        let name = name_key(name);
        let found = match people::get(&self.store, &name).await {
            Ok(person) => Some(person),
            Err(TeamError::NoSuchPerson(_)) => None,
            Err(e) => return Err(e.into()),
        };
        let local = found.as_ref().is_some_and(|p| p.source == Source::Local);
        match (&self.directory, local) {
            (Some(directory), false) => self.sign_in_ldap(directory, &name, password).await,
            (None, false) if found.is_some() => Err(SessionError::NoDirectory(name)),
            _ => self.sign_in_local(found, &name, password).await,
        }
    }

    /// A local account: its Argon2id hash (or a dummy one for a name unknown).
    async fn sign_in_local(
        &self,
        found: Option<Person>,
        name: &str,
        password: &str,
    ) -> Result<SignedIn, SessionError> {
        // Read for an unknown name too, so that the time taken does not tell names apart.
        let hash = self.stored_hash(name).await?;
        let matches = self.checkers.verify(password.to_owned(), hash).await;
        match found {
            Some(person) if matches && person.disabled => Err(SessionError::Disabled),
            Some(person) if matches => self.begin(person).await,
            _ => Err(SessionError::WrongNameOrPassword),
        }
    }

    /// A directory account: a bind as the person, who is then found by the directory's id
    /// (whatever spelling of the name bound), their role from their groups when the server
    /// maps groups (else the role stored), recorded here at first sign-in.
    async fn sign_in_ldap(
        &self,
        directory: &LdapConfig,
        name: &str,
        password: &str,
    ) -> Result<SignedIn, SessionError> {
        let seen = match ldap::authenticate(directory, name, password).await {
            Ok(seen) => seen,
            Err(LdapError::Refused) => return Err(SessionError::WrongNameOrPassword),
            Err(e) => return Err(SessionError::Directory(e.to_string())),
        };
        let mapped = self.mapped_role(directory, &seen).await?;
        let stored = seen.name.as_deref().map(name_key);
        let name = stored.as_deref().unwrap_or(name);
        let person = match self.directory_person(name, &seen).await? {
            Some(p) if p.disabled => return Err(SessionError::Disabled),
            Some(p) => match mapped {
                Some(role) if p.role != role => {
                    let edit = people::Edit {
                        role: Some(role),
                        ..people::Edit::default()
                    };
                    people::edit(&self.store, &p.name, edit)
                        .await
                        .map_err(no_branch)?
                }
                _ => p,
            },
            None => self.first_sign_in(name, &seen, mapped).await?,
        };
        self.begin(person).await
    }

    /// The person the directory's id is bound to; else the one of this name, bound to it now
    /// (an account added by an administrator before its first sign-in).
    async fn directory_person(
        &self,
        name: &str,
        seen: &DirectoryPerson,
    ) -> Result<Option<Person>, SessionError> {
        if let Some(person) = people::by_directory_id(&self.store, &seen.id).await? {
            return Ok(Some(person));
        }
        match people::bind_directory_id(&self.store, name, &seen.id).await {
            Ok(person) => Ok(Some(person)),
            Err(TeamError::OtherDirectoryPerson(_)) => {
                Err(SessionError::OtherDirectoryPerson(name.to_owned()))
            }
            Err(TeamError::NoSuchPerson(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The role the person's groups give, when the server maps groups to roles.
    async fn mapped_role(
        &self,
        directory: &LdapConfig,
        seen: &DirectoryPerson,
    ) -> Result<Option<String>, SessionError> {
        if directory.roles.is_empty() {
            return Ok(None);
        }
        let ranks = self.role_ranks().await?;
        let rank = |role: &str| ranks.iter().find(|(r, _)| r == role).map_or(0, |(_, n)| *n);
        ldap::role_of(directory, seen, rank)
            .map(|role| Some(role.to_owned()))
            .ok_or(SessionError::NoGroup)
    }

    /// A directory person seen for the first time, recorded with their directory id.
    async fn first_sign_in(
        &self,
        name: &str,
        seen: &DirectoryPerson,
        mapped: Option<String>,
    ) -> Result<Person, SessionError> {
        let role = mapped.ok_or(SessionError::NotAdded)?;
        let new = people::NewPerson {
            name: name.to_owned(),
            display_name: None,
            role,
            branch: None,
            password: None,
            email: None,
        };
        people::add(&self.store, new).await.map_err(no_branch)?;
        people::bind_directory_id(&self.store, name, &seen.id)
            .await
            .map_err(SessionError::from)
    }

    /// Every role's name and how many permissions it has.
    async fn role_ranks(&self) -> Result<Vec<(String, usize)>, SessionError> {
        let roles = crate::custom_roles::list(&self.store).await?;
        Ok(roles
            .into_iter()
            .map(|r| (r.name, r.permissions.split(',').count()))
            .collect())
    }

    /// The person behind `token`, if the session is valid now.
    pub async fn check(&self, token: &str) -> Result<Caller, SessionError> {
        let hash = token_hash(token);
        if let Some(caller) = self.recently_checked(&hash) {
            return Ok(caller);
        }
        let now = self.rules.clock.now_ms();
        let key = hash.clone();
        let stored = self
            .store
            .read(move |tx| stored_session(tx, &key))
            .await?
            .ok_or(SessionError::Ended)?;
        if !self.is_valid(&stored, now) {
            return Err(SessionError::Ended);
        }
        let person = people::get(&self.store, &stored.person).await?;
        if person.disabled {
            return Err(SessionError::Ended);
        }
        if now - stored.last_seen_at > self.seen_every() {
            self.seen(&hash, now).await?;
        }
        let caller = self.caller(person).await?;
        lock(&self.checked).insert(hash, (caller.clone(), self.rules.clock.instant()));
        Ok(caller)
    }

    /// Ends the session of `token` (signing out); ending one already over is no error.
    pub async fn sign_out(&self, token: &str) -> Result<(), SessionError> {
        let hash = token_hash(token);
        lock(&self.checked).remove(&hash);
        let now = self.rules.clock.now_ms();
        self.store
            .write(move |tx| {
                tx.execute(
                    "UPDATE sessions SET ended_at = ?2 WHERE token_hash = ?1 AND ended_at IS NULL",
                    &[(&hash).into(), now.into()],
                )?;
                Ok::<_, SessionError>(())
            })
            .await
    }

    /// How stale a session's last use may be before it is written again: a thirtieth of the
    /// idle time, a minute at most, so that a session ends at most that much before its idle
    /// time (a write per call would be a write per call).
    fn seen_every(&self) -> i64 {
        (millis(self.rules.idle) / 30).min(60_000)
    }

    fn is_valid(&self, s: &Stored, now: i64) -> bool {
        !s.ended
            && s.created_at >= s.revoked_at
            && now - s.last_seen_at <= millis(self.rules.idle)
            && now - s.created_at <= millis(self.rules.absolute)
    }

    fn recently_checked(&self, hash: &str) -> Option<Caller> {
        let mut checked = lock(&self.checked);
        match checked.get(hash) {
            Some((caller, at)) if self.rules.clock.instant() - *at < self.rules.trusted_for => {
                Some(caller.clone())
            }
            Some(_) => {
                checked.remove(hash);
                None
            }
            None => None,
        }
    }

    async fn stored_hash(&self, name: &str) -> Result<Option<String>, SessionError> {
        let name = name.to_owned();
        self.store
            .read(move |tx| {
                tx.query_opt(
                    "SELECT password_hash FROM people WHERE name = ?1",
                    &[(&name).into()],
                    |row| row.opt_text(0),
                )
                .map(Option::flatten)
                .map_err(SessionError::from)
            })
            .await
    }

    /// A new session, begun now: after any change the sign-in made to the person (which
    /// would end sessions begun before it).
    async fn begin(&self, person: Person) -> Result<SignedIn, SessionError> {
        let now = self.rules.clock.now_ms();
        let token = new_token()?;
        let hash = token_hash(&token);
        let name = person.name.clone();
        self.store
            .write(move |tx| {
                // Begun no earlier than the person's last revocation, which may lie a
                // millisecond ahead of the clock (`people::revoke_sessions`).
                let revoked = tx.query_opt(
                    "SELECT sessions_revoked_at FROM people WHERE name = ?1",
                    &[(&name).into()],
                    |row| row.i64(0),
                )?;
                let begun = revoked.map_or(now, |r| now.max(r));
                tx.execute(
                    "INSERT INTO sessions(token_hash, person, created_at, last_seen_at) \
                     VALUES (?1, ?2, ?3, ?3)",
                    &[(&hash).into(), (&name).into(), begun.into()],
                )?;
                Ok::<_, SessionError>(())
            })
            .await?;
        Ok(SignedIn {
            token,
            caller: self.caller(person).await?,
            expires_at: now + millis(self.rules.absolute),
        })
    }

    async fn caller(&self, person: Person) -> Result<Caller, SessionError> {
        let role = person.role.clone();
        let permissions = self.store.read(move |tx| permissions_of(tx, &role)).await?;
        Ok(Caller {
            person,
            permissions,
        })
    }

    async fn seen(&self, hash: &str, now: i64) -> Result<(), SessionError> {
        let hash = hash.to_owned();
        self.store
            .write(move |tx| {
                tx.execute(
                    "UPDATE sessions SET last_seen_at = ?2 WHERE token_hash = ?1",
                    &[(&hash).into(), now.into()],
                )?;
                Ok::<_, SessionError>(())
            })
            .await
    }
}

/// A branch the person's role needs and the server lacks, said as such.
fn no_branch(e: TeamError) -> SessionError {
    match e {
        TeamError::NoBranch => SessionError::NoBranch,
        e => SessionError::Team(e),
    }
}

fn stored_session(tx: &dyn Tx, hash: &str) -> Result<Option<Stored>, SessionError> {
    Ok(tx.query_opt(
        "SELECT s.person, s.created_at, s.last_seen_at, s.ended_at IS NOT NULL, \
             p.sessions_revoked_at \
         FROM sessions s JOIN people p ON p.name = s.person WHERE s.token_hash = ?1",
        &[hash.into()],
        |row| {
            Ok(Stored {
                person: row.text(0)?,
                created_at: row.i64(1)?,
                last_seen_at: row.i64(2)?,
                ended: row.bool(3)?,
                revoked_at: row.i64(4)?,
            })
        },
    )?)
}

/// 32 random bytes, base64url: what the person's console sends as its bearer.
fn new_token() -> Result<String, SessionError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        SessionError::Team(TeamError::Store(StoreError::Failure(format!(
            "no randomness for a session token: {e}"
        ))))
    })?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// What is stored of a token: its SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    client::write::body_hash(token.as_bytes())
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
