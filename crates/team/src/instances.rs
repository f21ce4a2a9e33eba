//! The running instances of a team server on one store, and the writes a stopped one left in
//! flight. Each instance records itself and is seen every [`BEAT`]; one not seen for
//! [`GONE_AFTER`] has stopped, and its writes still in flight are settled: `not_sent` when it
//! never marked them leaving, else `unknown` (the platform may have done them). An approved
//! request it was sending follows its write.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use platform::sql::StoreError;
use tokio::sync::watch;

use crate::checkpointer::Checkpointer;
use crate::seal::AuditKey;
use crate::store::TeamStore;

/// How often an instance says it still runs, and looks for stopped ones.
pub const BEAT: Duration = Duration::from_secs(10);
/// An instance not seen for this long has stopped.
pub const GONE_AFTER: Duration = Duration::from_secs(60);

/// What a settled write's detail says.
pub const STOPPED: &str = "the team server instance that sent it stopped before an answer came";

/// A new instance's id (random, base64url).
pub fn new_id() -> Result<String, StoreError> {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Failure(format!("no randomness for an instance id: {e}")))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// Records the instance as seen now, and settles the writes of instances gone.
pub async fn beat(store: &TeamStore, id: &str) -> Result<usize, StoreError> {
    let id = id.to_owned();
    let now = support::clock::now_ms();
    let gone_before = now - i64::try_from(GONE_AFTER.as_millis()).unwrap_or(i64::MAX);
    store
        .write(move |tx| {
            let seen = tx.execute(
                "UPDATE team_instances SET seen_at = ?2 WHERE id = ?1",
                &[(&id).into(), now.into()],
            )?;
            if seen == 0 {
                tx.execute(
                    "INSERT INTO team_instances(id, started_at, seen_at) VALUES (?1, ?2, ?2)",
                    &[(&id).into(), now.into()],
                )?;
            }
            let settled = tx.execute(
                "UPDATE team_writes SET \
                     state = CASE WHEN sending_at IS NULL THEN 'not_sent' ELSE 'unknown' END, \
                     detail = ?2, ended_at = ?3 \
                 WHERE state = 'in_flight' AND instance IN \
                     (SELECT id FROM team_instances WHERE seen_at < ?1)",
                &[gone_before.into(), STOPPED.into(), now.into()],
            )?;
            // An approved request whose sending was settled so follows its write.
            tx.execute(
                "UPDATE requests SET \
                     state = (SELECT w.state FROM team_writes w WHERE w.call_id = requests.call_id), \
                     message = ?1, ended_at = ?2 \
                 WHERE state = 'approved' AND call_id IN \
                     (SELECT call_id FROM team_writes WHERE state IN ('not_sent', 'unknown'))",
                &[STOPPED.into(), now.into()],
            )?;
            tx.execute(
                "DELETE FROM team_instances WHERE seen_at < ?1",
                &[gone_before.into()],
            )?;
            Ok(settled)
        })
        .await
}

/// Beats every [`BEAT`] until `stop` turns true; with a `retention`, drops the audit
/// entries older than it at each beat; then writes the record's checkpoint if it moved.
pub async fn keep_beating(
    store: TeamStore,
    id: String,
    retention: Option<Duration>,
    mut checkpoints: Checkpointer,
    key: Option<AuditKey>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        match beat(&store, &id).await {
            Ok(0) => {}
            Ok(n) => tracing::warn!(writes = n, "settled the writes of a stopped instance"),
            Err(e) => tracing::error!(error = %e, "cannot record this instance as running"),
        }
        if let Some(kept) = retention {
            let before =
                support::clock::now_ms() - i64::try_from(kept.as_millis()).unwrap_or(i64::MAX);
            match crate::audit::drop_before(&store, before, key.clone()).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(entries = n, "dropped audit entries past retention"),
                Err(e) => tracing::error!(error = %e, "cannot apply the audit log's retention"),
            }
        }
        if let Err(e) = checkpoints.beat(&store).await {
            tracing::error!(error = %e, "cannot write the audit log's checkpoint");
        }
        tokio::select! {
            () = tokio::time::sleep(BEAT) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
    }
}
