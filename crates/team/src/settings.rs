//! The server's settings (table `team_settings`): what makes a call wait for a second person
//! (issue 37), and the key its releases are signed with (issue 58). Kept in the store, so that
//! every instance on one database applies the same.

pub use wire::approval::Thresholds;

use support::release_sig::ReleaseKey;

use crate::error::TeamError;
use crate::store::TeamStore;

const BATCH_ASSETS: &str = "approval.batch-assets";
const LOCKS: &str = "approval.locks";
const RELEASE_KEY: &str = "release.public-key";

/// The thresholds in force: those set, else the defaults.
pub async fn thresholds(store: &TeamStore) -> Result<Thresholds, TeamError> {
    store
        .read(|tx| {
            let mut t = Thresholds::default();
            for (name, slot) in [(BATCH_ASSETS, &mut t.batch_assets), (LOCKS, &mut t.locks)] {
                let kept = tx.query_opt(
                    "SELECT value FROM team_settings WHERE name = ?1",
                    &[name.into()],
                    |row| row.text(0),
                )?;
                if let Some(value) = kept {
                    *slot = value.parse().map_err(|_| {
                        TeamError::Invalid(format!("{name}: {value:?} is kept, not a number"))
                    })?;
                }
            }
            Ok(t)
        })
        .await
}

/// Sets the thresholds given (the others stay); answers those in force.
pub async fn set_thresholds(
    store: &TeamStore,
    batch_assets: Option<u64>,
    locks: Option<u64>,
) -> Result<Thresholds, TeamError> {
    let given = [(BATCH_ASSETS, batch_assets), (LOCKS, locks)];
    store
        .write(move |tx| {
            for (name, value) in given {
                if let Some(value) = value {
                    let value = value.to_string();
                    tx.execute("DELETE FROM team_settings WHERE name = ?1", &[name.into()])?;
                    tx.execute(
                        "INSERT INTO team_settings(name, value) VALUES (?1, ?2)",
                        &[name.into(), (&value).into()],
                    )?;
                }
            }
            Ok::<_, TeamError>(())
        })
        .await?;
    thresholds(store).await
}

/// The key the team trusts for its releases, if one is set.
pub async fn release_key(store: &TeamStore) -> Result<Option<ReleaseKey>, TeamError> {
    let kept = store
        .read(|tx| {
            tx.query_opt(
                "SELECT value FROM team_settings WHERE name = ?1",
                &[RELEASE_KEY.into()],
                |row| row.text(0),
            )
            .map_err(TeamError::from)
        })
        .await?;
    kept.map(|line| {
        ReleaseKey::parse(&line)
            .map_err(|e| TeamError::Invalid(format!("{RELEASE_KEY}: the kept key is refused: {e}")))
    })
    .transpose()
}

/// Sets the key the team trusts for its releases (a release published before stays).
pub async fn set_release_key(store: &TeamStore, key: &ReleaseKey) -> Result<(), TeamError> {
    let line = key.to_base64();
    store
        .write(move |tx| {
            tx.execute(
                "DELETE FROM team_settings WHERE name = ?1",
                &[RELEASE_KEY.into()],
            )?;
            tx.execute(
                "INSERT INTO team_settings(name, value) VALUES (?1, ?2)",
                &[RELEASE_KEY.into(), (&line).into()],
            )?;
            Ok::<_, TeamError>(())
        })
        .await
}
