//! The roles a company adds beside the built-in ones, and how a role's name becomes its
//! permissions.

use std::ops::ControlFlow;

use db::sql::{StoreError, Tx};
use serde::Serialize;

use crate::error::TeamError;
use crate::roles::{self, Permissions};
use crate::store::TeamStore;

/// A role as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleSummary {
    pub name: String,
    /// Comma-separated, as [`Permissions::names`].
    pub permissions: String,
    pub built_in: bool,
}

/// Every role, built-in ones first (lowest first), then the company's by name.
pub async fn list(store: &TeamStore) -> Result<Vec<RoleSummary>, TeamError> {
    store.read(|tx| list_in(tx)).await
}

fn list_in(tx: &dyn Tx) -> Result<Vec<RoleSummary>, TeamError> {
    let mut all: Vec<RoleSummary> = roles::BUILT_IN
        .iter()
        .map(|(name, list)| RoleSummary {
            name: (*name).to_owned(),
            permissions: Permissions::of(list).names(),
            built_in: true,
        })
        .collect();
    tx.query_each(
        "SELECT name, permissions FROM roles ORDER BY name",
        &[],
        &mut |row| {
            all.push(RoleSummary {
                name: row.text(0)?,
                permissions: row.text(1)?,
                built_in: false,
            });
            Ok(ControlFlow::Continue(()))
        },
    )?;
    Ok(all)
}

/// Adds a role made of `permissions` (names, comma-separated).
pub async fn add(
    store: &TeamStore,
    name: &str,
    permissions: &str,
) -> Result<RoleSummary, TeamError> {
    let name = checked_name(name)?;
    let permissions = Permissions::parse(permissions)
        .map_err(|why| TeamError::Invalid(format!("permissions: {why}")))?;
    if roles::built_in(&name).is_some() {
        return Err(TeamError::RoleExists(name));
    }
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            tx.serialize_on("people")?;
            let exists = tx
                .query_opt(
                    "SELECT 1 FROM roles WHERE name = ?1",
                    &[(&name).into()],
                    |_| Ok(()),
                )?
                .is_some();
            if exists {
                return Err(TeamError::RoleExists(name.clone()));
            }
            tx.execute(
                "INSERT INTO roles(name, permissions, created_at) VALUES (?1, ?2, ?3)",
                &[(&name).into(), (&permissions.names()).into(), now.into()],
            )?;
            Ok(RoleSummary {
                name: name.clone(),
                permissions: permissions.names(),
                built_in: false,
            })
        })
        .await
}

/// Removes a company's role that nobody holds.
pub async fn remove(store: &TeamStore, name: &str) -> Result<(), TeamError> {
    let name = name.trim().to_lowercase();
    if roles::built_in(&name).is_some() {
        return Err(TeamError::Invalid(format!(
            "role: {name:?} is built in and stays"
        )));
    }
    store
        .write(move |tx| {
            tx.serialize_on("people")?;
            let mut holders = Vec::new();
            tx.query_each(
                "SELECT name FROM people WHERE role = ?1 ORDER BY name",
                &[(&name).into()],
                &mut |row| {
                    holders.push(row.text(0)?);
                    Ok(ControlFlow::Continue(()))
                },
            )?;
            if !holders.is_empty() {
                return Err(TeamError::RoleInUse {
                    role: name.clone(),
                    held_by: holders.join(", "),
                });
            }
            match tx.execute("DELETE FROM roles WHERE name = ?1", &[(&name).into()])? {
                0 => Err(no_such_role(tx, &name)),
                _ => Ok(()),
            }
        })
        .await
}

/// The permissions of the role named `name`.
pub fn permissions_of(tx: &dyn Tx, name: &str) -> Result<Permissions, TeamError> {
    if let Some(p) = roles::built_in(name) {
        return Ok(p);
    }
    let stored = tx.query_opt(
        "SELECT permissions FROM roles WHERE name = ?1",
        &[name.into()],
        |row| row.text(0),
    )?;
    match stored {
        Some(names) => Permissions::parse(&names).map_err(|why| {
            TeamError::Store(StoreError::Failure(format!(
                "the stored role {name:?} is damaged: {why}"
            )))
        }),
        None => Err(no_such_role(tx, name)),
    }
}

/// "No role is named …", with the roles there are.
fn no_such_role(tx: &dyn Tx, name: &str) -> TeamError {
    let known = match list_in(tx) {
        Ok(all) => all
            .into_iter()
            .map(|r| r.name)
            .collect::<Vec<_>>()
            .join(", "),
        Err(e) => return e,
    };
    TeamError::NoSuchRole(format!("no role is named {name:?}; the roles are {known}"))
}

/// A role's name: lower-case letters, digits, `-` and `_`, 1 to 32 of them.
fn checked_name(name: &str) -> Result<String, TeamError> {
    let name = name.trim().to_lowercase();
    let fits = (1..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if fits {
        Ok(name)
    } else {
        Err(TeamError::Invalid(format!(
            "role: {name:?} is not a role name (1 to 32 letters, digits, - or _)"
        )))
    }
}
