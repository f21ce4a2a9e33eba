//! Drafts handed over (table `handed_drafts`): kept with their text verbatim until the
//! receiver opens one (it then leaves the server) or either side takes it back.

use std::ops::ControlFlow;

use db::sql::{Row, StoreError, Tx};
use wire::handover::{APPROVERS, HandOver, Handed, MAX_BODY};

use crate::error::TeamError;
use crate::store::TeamStore;

macro_rules! drafts {
    ($rest:literal) => {
        concat!(
            "SELECT seq, owner, name, handed_to, note, created_at, body FROM handed_drafts ",
            $rest
        )
    };
}

fn handed(row: &dyn Row, with_body: bool) -> Result<Handed, StoreError> {
    Ok(Handed {
        id: row.i64(0)?,
        owner: row.text(1)?,
        name: row.text(2)?,
        handed_to: row.text(3)?,
        note: row.text(4)?,
        created_at: row.i64(5)?,
        body: if with_body { Some(row.text(6)?) } else { None },
    })
}

/// Keeps `draft` for its receiver: a person other than `owner`, active, or the approvers.
pub async fn hand_over(
    store: &TeamStore,
    owner: &str,
    draft: HandOver,
) -> Result<Handed, TeamError> {
    let owner = owner.to_owned();
    let to = crate::identity::name_key(&draft.handed_to);
    let name = draft.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(TeamError::Invalid(
            "name: between 1 and 200 characters".to_owned(),
        ));
    }
    if draft.body.len() > MAX_BODY {
        return Err(TeamError::Invalid(format!(
            "body: {MAX_BODY} bytes at most"
        )));
    }
    let now = support::clock::now_ms();
    store
        .write(move |tx| {
            receiver_ok(tx, &owner, &to)?;
            tx.serialize_on("handed_drafts")?;
            let last = tx.query_opt("SELECT MAX(seq) FROM handed_drafts", &[], |r| r.opt_i64(0))?;
            let id = last.flatten().unwrap_or(0) + 1;
            tx.execute(
                "INSERT INTO handed_drafts(seq, owner, name, body, handed_to, note, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                &[
                    id.into(),
                    (&owner).into(),
                    (&name).into(),
                    (&draft.body).into(),
                    (&to).into(),
                    draft.note.trim().into(),
                    now.into(),
                ],
            )?;
            get_in(tx, id, false)
        })
        .await
}

/// The receiver is the approvers, or an active person other than the owner.
fn receiver_ok(tx: &dyn Tx, owner: &str, to: &str) -> Result<(), TeamError> {
    if to == APPROVERS {
        return Ok(());
    }
    if to == owner {
        return Err(TeamError::Invalid(
            "handedTo: yourself; hand it to a colleague or to the approvers".to_owned(),
        ));
    }
    let disabled = tx.query_opt(
        "SELECT disabled_at FROM people WHERE name = ?1",
        &[to.into()],
        |row| row.opt_i64(0),
    )?;
    match disabled {
        Some(None) => Ok(()),
        Some(Some(_)) => Err(TeamError::Invalid(format!(
            "handedTo: {to:?} is disabled on this server"
        ))),
        None => Err(TeamError::Invalid(format!(
            "handedTo: nobody is named {to:?} on this server (or give {APPROVERS:?})"
        ))),
    }
}

/// The drafts `me` handed over, and those handed to them (to the approvers too when
/// `approver`), newest first.
pub async fn list(store: &TeamStore, me: &str, approver: bool) -> Result<Vec<Handed>, TeamError> {
    let me = me.to_owned();
    store
        .read(move |tx| {
            let mut all = Vec::new();
            let approvers = if approver { APPROVERS } else { "" };
            tx.query_each(
                drafts!(
                    "WHERE owner = ?1 OR handed_to = ?1 OR handed_to = ?2 \
                     ORDER BY seq DESC LIMIT 200"
                ),
                &[(&me).into(), approvers.into()],
                &mut |row| {
                    all.push(handed(row, false)?);
                    Ok(ControlFlow::Continue(()))
                },
            )?;
            Ok(all)
        })
        .await
}

/// One handed draft, its text included.
pub async fn get(store: &TeamStore, id: i64) -> Result<Handed, TeamError> {
    store.read(move |tx| get_in(tx, id, true)).await
}

fn get_in(tx: &dyn Tx, id: i64, with_body: bool) -> Result<Handed, TeamError> {
    tx.query_opt(drafts!("WHERE seq = ?1"), &[id.into()], |row| {
        handed(row, with_body)
    })?
    .ok_or(TeamError::NoSuchDraft(id))
}

/// Takes a handed draft off the server.
pub async fn take(store: &TeamStore, id: i64) -> Result<(), TeamError> {
    store
        .write(move |tx| {
            let gone = tx.execute("DELETE FROM handed_drafts WHERE seq = ?1", &[id.into()])?;
            if gone == 0 {
                return Err(TeamError::NoSuchDraft(id));
            }
            Ok(())
        })
        .await
}
