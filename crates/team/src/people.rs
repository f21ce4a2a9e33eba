//! The people who sign in: their names, roles and branches, and their passwords when the
//! account is local. Every change that takes something away (a role, the account, the
//! password) ends the person's sessions at once.

use std::ops::ControlFlow;

use db::sql::{Row, StoreError, Tx};
use serde::Serialize;

use crate::custom_roles::permissions_of;
use crate::error::TeamError;
use crate::identity::name_key;
use crate::password;
use crate::roles::Permission;
use crate::store::TeamStore;

/// Where a person's password is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Source {
    Local,
    Ldap,
}

impl Source {
    fn name(self) -> &'static str {
        self.into()
    }
}

pub use wire::team::Branch;

/// A person as stored (never the password's hash).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    pub name: String,
    pub display_name: String,
    pub role: String,
    pub branch: Option<Branch>,
    pub source: Source,
    pub disabled: bool,
    /// A directory person's stable id in the directory (`entryUUID`, `objectGUID` as hex),
    /// bound at their first sign-in; `None` for a local account or one not yet signed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub directory_id: Option<String>,
    /// Where they are mailed when a request waits for them, if anywhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    pub created_at: i64,
    pub changed_at: i64,
}

/// A person to add.
#[derive(Debug, Clone)]
pub struct NewPerson {
    pub name: String,
    pub display_name: Option<String>,
    pub role: String,
    pub branch: Option<Branch>,
    /// A local account's password; `None` for an LDAP person.
    pub password: Option<String>,
    pub email: Option<String>,
}

/// What `team user edit` changes; `None` keeps the field.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    pub display_name: Option<String>,
    pub role: Option<String>,
    /// `Some(None)` removes the branch.
    pub branch: Option<Option<Branch>>,
    /// `Some(None)` removes the address.
    pub email: Option<Option<String>>,
}

/// A person's columns, in [`person`]'s order, then the rest of the statement.
macro_rules! people {
    ($rest:literal) => {
        concat!(
            "SELECT name, display_name, role, branch_code, branch_name, source, \
             disabled_at IS NOT NULL, directory_id, created_at, changed_at, email FROM people ",
            $rest
        )
    };
}

/// Makes the first administrator of an empty server.
pub async fn init(store: &TeamStore, admin: NewPerson) -> Result<Person, TeamError> {
    let admin = NewPerson {
        role: "admin".to_owned(),
        ..admin
    };
    insert(store, admin, true).await
}

/// Adds a person.
pub async fn add(store: &TeamStore, person: NewPerson) -> Result<Person, TeamError> {
    insert(store, person, false).await
}

async fn insert(store: &TeamStore, new: NewPerson, first: bool) -> Result<Person, TeamError> {
    let name = checked_name(&new.name)?;
    let display_name = checked_display_name(new.display_name.as_deref().unwrap_or(&name))?;
    let role = new.role.trim().to_lowercase();
    let branch = new.branch.map(checked_branch).transpose()?;
    let email = new.email.as_deref().map(checked_email).transpose()?;
    needs_branch(&role, branch.as_ref())?;
    let (source, hash) = match &new.password {
        Some(pw) => {
            password::check_policy(&name, pw)?;
            (Source::Local, Some(password::hash(pw)?))
        }
        None => (Source::Ldap, None),
    };
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            tx.serialize_on("people")?;
            if first && any_person(tx)? {
                return Err(TeamError::AlreadyInitialized);
            }
            permissions_of(tx, &role)?;
            if find(tx, &name)?.is_some() {
                return Err(TeamError::PersonExists(name.clone()));
            }
            tx.execute(
                "INSERT INTO people(name, display_name, role, branch_code, branch_name, source, \
                     password_hash, sessions_revoked_at, created_at, changed_at, email) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?8, ?9)",
                &[
                    (&name).into(),
                    (&display_name).into(),
                    (&role).into(),
                    branch.as_ref().map(|b| b.code.as_str()).into(),
                    branch.as_ref().map(|b| b.name.as_str()).into(),
                    source.name().into(),
                    hash.as_deref().into(),
                    now.into(),
                    email.as_deref().into(),
                ],
            )?;
            existing(tx, &name)
        })
        .await
}

/// Changes a person's display name, role or branch. A new role ends their sessions.
pub async fn edit(store: &TeamStore, name: &str, edit: Edit) -> Result<Person, TeamError> {
    let name = name_key(name);
    let display_name = edit
        .display_name
        .as_deref()
        .map(checked_display_name)
        .transpose()?;
    let role = edit.role.map(|r| r.trim().to_lowercase());
    let branch = match edit.branch {
        Some(b) => Some(b.map(checked_branch).transpose()?),
        None => None,
    };
    let email = match edit.email {
        Some(e) => Some(e.as_deref().map(checked_email).transpose()?),
        None => None,
    };
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            tx.serialize_on("people")?;
            let before = existing(tx, &name)?;
            let role = role.clone().unwrap_or_else(|| before.role.clone());
            let branch = branch.clone().unwrap_or_else(|| before.branch.clone());
            permissions_of(tx, &role)?;
            needs_branch(&role, branch.as_ref())?;
            let display_name = display_name.clone().unwrap_or(before.display_name);
            let email = email.clone().unwrap_or(before.email);
            tx.execute(
                "UPDATE people SET display_name = ?2, role = ?3, branch_code = ?4, \
                     branch_name = ?5, changed_at = ?6, email = ?7 WHERE name = ?1",
                &[
                    (&name).into(),
                    (&display_name).into(),
                    (&role).into(),
                    branch.as_ref().map(|b| b.code.as_str()).into(),
                    branch.as_ref().map(|b| b.name.as_str()).into(),
                    now.into(),
                    email.as_deref().into(),
                ],
            )?;
            if role != before.role {
                revoke_sessions(tx, &name, now)?;
            }
            keeps_an_administrator(tx, &name)?;
            existing(tx, &name)
        })
        .await
}

/// Disables (ending every session at once) or enables a person.
pub async fn set_disabled(
    store: &TeamStore,
    name: &str,
    disabled: bool,
) -> Result<Person, TeamError> {
    let name = name_key(name);
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            tx.serialize_on("people")?;
            existing(tx, &name)?;
            let sql = if disabled {
                "UPDATE people SET disabled_at = coalesce(disabled_at, ?2), changed_at = ?2 \
                 WHERE name = ?1"
            } else {
                "UPDATE people SET disabled_at = NULL, changed_at = ?2 WHERE name = ?1"
            };
            tx.execute(sql, &[(&name).into(), now.into()])?;
            if disabled {
                revoke_sessions(tx, &name, now)?;
                keeps_an_administrator(tx, &name)?;
            }
            existing(tx, &name)
        })
        .await
}

/// Gives a local account a new password: its sessions end.
pub async fn reset_password(
    store: &TeamStore,
    name: &str,
    new_password: &str,
) -> Result<Person, TeamError> {
    let name = name_key(name);
    password::check_policy(&name, new_password)?;
    let hash = password::hash(new_password)?;
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            tx.serialize_on("people")?;
            if existing(tx, &name)?.source == Source::Ldap {
                return Err(TeamError::Invalid(format!(
                    "{name:?} signs in through LDAP: their password is the directory's"
                )));
            }
            tx.execute(
                "UPDATE people SET password_hash = ?2, changed_at = ?3 WHERE name = ?1",
                &[(&name).into(), (&hash).into(), now.into()],
            )?;
            revoke_sessions(tx, &name, now)?;
            existing(tx, &name)
        })
        .await
}

/// Everyone, by name.
pub async fn list(store: &TeamStore) -> Result<Vec<Person>, TeamError> {
    store.read(|tx| Ok(all_in(tx)?)).await
}

/// Everyone, by name, in a transaction.
pub fn all_in(tx: &dyn Tx) -> Result<Vec<Person>, StoreError> {
    tx.query_vec(people!("ORDER BY name"), &[], person)
}

/// The person directory id `id` belongs to, if anyone.
pub async fn by_directory_id(store: &TeamStore, id: &str) -> Result<Option<Person>, TeamError> {
    let id = id.to_owned();
    store
        .read(move |tx| {
            Ok(tx.query_opt(
                people!("WHERE directory_id = ?1 AND source = 'ldap'"),
                &[(&id).into()],
                person,
            )?)
        })
        .await
}

/// Binds a directory person to their directory id, at their first sign-in; a local account,
/// or a person bound to another id already, is refused (the name is someone else's).
pub async fn bind_directory_id(
    store: &TeamStore,
    name: &str,
    id: &str,
) -> Result<Person, TeamError> {
    let (name, id) = (name_key(name), id.to_owned());
    store
        .write(move |tx| {
            tx.serialize_on("people")?;
            let before = existing(tx, &name)?;
            // A local account is never a directory person's, whatever name the directory gives.
            match (&before.directory_id, before.source) {
                (_, Source::Local) => return Err(TeamError::OtherDirectoryPerson(name.clone())),
                (Some(bound), _) if *bound == id => return Ok(before),
                (Some(_), _) => return Err(TeamError::OtherDirectoryPerson(name.clone())),
                (None, _) => {}
            }
            tx.execute(
                "UPDATE people SET directory_id = ?2 WHERE name = ?1",
                &[(&name).into(), (&id).into()],
            )?;
            existing(tx, &name)
        })
        .await
}

/// The person named `name` (any spelling of it: [`name_key`]).
pub async fn get(store: &TeamStore, name: &str) -> Result<Person, TeamError> {
    let name = name_key(name);
    store.read(move |tx| existing(tx, &name)).await
}

fn find(tx: &dyn Tx, name: &str) -> Result<Option<Person>, StoreError> {
    tx.query_opt(people!("WHERE name = ?1"), &[name.into()], person)
}

fn existing(tx: &dyn Tx, name: &str) -> Result<Person, TeamError> {
    find(tx, name)?.ok_or_else(|| TeamError::NoSuchPerson(name.to_owned()))
}

fn any_person(tx: &dyn Tx) -> Result<bool, StoreError> {
    Ok(tx
        .query_opt("SELECT 1 FROM people LIMIT 1", &[], |_| Ok(()))?
        .is_some())
}

fn person(row: &dyn Row) -> Result<Person, StoreError> {
    let branch = match (row.opt_text(3)?, row.opt_text(4)?) {
        (Some(code), Some(name)) => Some(Branch { code, name }),
        _ => None,
    };
    Ok(Person {
        name: row.text(0)?,
        display_name: row.text(1)?,
        role: row.text(2)?,
        branch,
        source: if row.text(5)? == "ldap" {
            Source::Ldap
        } else {
            Source::Local
        },
        disabled: row.bool(6)?,
        directory_id: row.opt_text(7)?,
        created_at: row.i64(8)?,
        changed_at: row.i64(9)?,
        email: row.opt_text(10)?,
    })
}

/// Ends every session the person has begun, also one begun in this very millisecond: the
/// revocation is set after the newest session's start (a session is valid from its start on
/// if it began at or after the revocation).
fn revoke_sessions(tx: &dyn Tx, name: &str, now: i64) -> Result<(), StoreError> {
    let newest = tx.query_opt(
        "SELECT MAX(created_at) FROM sessions WHERE person = ?1",
        &[name.into()],
        |row| row.opt_i64(0),
    )?;
    let at = newest.flatten().map_or(now, |newest| now.max(newest + 1));
    tx.execute(
        "UPDATE people SET sessions_revoked_at = ?2 WHERE name = ?1",
        &[name.into(), at.into()],
    )?;
    Ok(())
}

/// Refuses a change after which no active person may manage people (`changed` is whom it
/// took the permission from).
fn keeps_an_administrator(tx: &dyn Tx, changed: &str) -> Result<(), TeamError> {
    let mut roles = Vec::new();
    tx.query_each(
        "SELECT DISTINCT role FROM people WHERE disabled_at IS NULL",
        &[],
        &mut |row| {
            roles.push(row.text(0)?);
            Ok(ControlFlow::Continue(()))
        },
    )?;
    for role in roles {
        if permissions_of(tx, &role)?.has(Permission::Users) {
            return Ok(());
        }
    }
    Err(TeamError::LastAdministrator(changed.to_owned()))
}

/// A branch clerk orders for one branch: the built-in `staff` role needs one.
fn needs_branch(role: &str, branch: Option<&Branch>) -> Result<(), TeamError> {
    if role == "staff" && branch.is_none() {
        return Err(TeamError::NoBranch);
    }
    Ok(())
}

/// A sign-in name: 1 to 64 characters, no spaces or control characters, kept lower-cased.
fn checked_name(name: &str) -> Result<String, TeamError> {
    let name = name_key(name);
    let fits = (1..=64).contains(&name.chars().count())
        && !name.chars().any(|c| c.is_whitespace() || c.is_control());
    if fits {
        Ok(name)
    } else {
        Err(TeamError::Invalid(format!(
            "name: {name:?} is not a sign-in name (1 to 64 characters, no spaces)"
        )))
    }
}

fn checked_display_name(name: &str) -> Result<String, TeamError> {
    bounded_text("display name", name, 100)
}

/// An address mail can be sent to (`name@domain`), as the mailer will parse it.
fn checked_email(email: &str) -> Result<String, TeamError> {
    let email = bounded_text("email", email, 254)?;
    match email.parse::<lettre::Address>() {
        Ok(_) => Ok(email),
        Err(e) => Err(TeamError::Invalid(format!(
            "email: {email:?} is not an address: {e}"
        ))),
    }
}

fn checked_branch(branch: Branch) -> Result<Branch, TeamError> {
    Ok(Branch {
        code: bounded_text("branch code", &branch.code, 64)?,
        name: bounded_text("branch name", &branch.name, 100)?,
    })
}

/// Trimmed text of 1 to `most` characters, none of them a control character.
fn bounded_text(field: &str, text: &str, most: usize) -> Result<String, TeamError> {
    let text = text.trim();
    let count = text.chars().count();
    if count == 0 || count > most || text.chars().any(char::is_control) {
        return Err(TeamError::Invalid(format!(
            "{field}: {text:?} must be 1 to {most} characters, without control characters"
        )));
    }
    Ok(text.to_owned())
}
