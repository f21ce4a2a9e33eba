//! The running instances of a team server on one store, and the writes a stopped one left in
//! flight. Each instance records itself and is seen every [`BEAT`]; one not seen for
//! [`GONE_AFTER`] has stopped, and its writes still in flight are settled: `not_sent` when it
//! never marked them leaving, else `unknown` (the platform may have done them). An approved
//! request it was to send follows its write, or is `not_sent` when no write of it began (and
//! may be approved again). Liveness is judged by the store's clock, and the settling is
//! ordered with the claims of a sending (`requests::sending`, the ledger's fenced steps), so
//! that an instance that paused finds its work settled and sends nothing.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use std::ops::ControlFlow;

use client::ledger::{self, Settling};
use db::sql::{Dialect, StoreError, Tx};
use serde::Serialize;
use serde_json::json;
use tokio::sync::watch;
use wire::approval;

use crate::audit::{self, Record};
use crate::checkpointer::Checkpointer;
use crate::error::TeamError;
use crate::seal::AuditKey;
use crate::store::TeamStore;

/// How often an instance says it still runs, and looks for stopped ones.
pub const BEAT: Duration = Duration::from_secs(10);
/// An instance not seen for this long has stopped.
pub const GONE_AFTER: Duration = Duration::from_secs(60);

/// The lock that orders the settling of stopped instances' work and the claims of a sending.
pub const SENDING: &str = "license-desk:team-sending";

/// The team's ledger table: a write is made for a person and sent by an instance.
pub const TABLE: ledger::Table = client::ledger_table!("team_writes", "person", "instance");

/// The operation of the entry that records a request settled for a stopped sender.
pub const SETTLED: &str = "request.settled";

/// What a settled write's detail says.
pub const STOPPED: &str = "the team server instance that sent it stopped before an answer came";

/// A new instance's id (random, base64url).
pub fn new_id() -> Result<String, StoreError> {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Failure(format!("no randomness for an instance id: {e}")))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// The store's own time (epoch milliseconds): every instance judges liveness by this one
/// clock, never by its own, so that an instance whose clock is behind is not taken for
/// stopped, nor a stopped one for running.
pub fn store_now(tx: &dyn Tx) -> Result<i64, StoreError> {
    let sql = match tx.dialect() {
        Dialect::Sqlite => "SELECT CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
        Dialect::Postgres => "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
    };
    let now = tx.query_opt(sql, &[], |row| row.i64(0))?;
    now.ok_or_else(|| StoreError::Failure("the store has no time".to_owned()))
}

/// What a settling of stopped instances' work did.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct Settled {
    /// Writes left in flight, settled as not sent or unknown.
    pub writes: usize,
    /// Approved requests settled, with the state each was given.
    pub requests: Vec<SettledRequest>,
}

/// A request settled for its stopped sender: `R-3`, `not_sent`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettledRequest {
    pub request: String,
    pub state: String,
}

/// Records the instance as seen now, and settles the work of instances gone.
pub async fn beat(
    store: &TeamStore,
    id: &str,
    key: Option<&AuditKey>,
) -> Result<Settled, TeamError> {
    let id = id.to_owned();
    let key = key.cloned();
    store
        .write(move |tx| {
            // One settling at a time, and none while an instance claims a sending.
            tx.serialize_on(SENDING)?;
            let now = store_now(tx)?;
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
            settle_in(tx, now, key.as_ref())
        })
        .await
}

/// Settles the work of instances gone, without being one (`team requests repair`).
pub async fn repair(store: &TeamStore, key: Option<&AuditKey>) -> Result<Settled, TeamError> {
    let key = key.cloned();
    store
        .write(move |tx| {
            tx.serialize_on(SENDING)?;
            let now = store_now(tx)?;
            settle_in(tx, now, key.as_ref())
        })
        .await
}

/// The writes in flight of instances not seen for [`GONE_AFTER`] (or no longer listed: one
/// taken for stopped and removed may have gone on, begun a write and died), then their approved
/// requests, each settled request an entry of the record.
fn settle_in(tx: &dyn Tx, now: i64, key: Option<&AuditKey>) -> Result<Settled, TeamError> {
    let gone_before = now - i64::try_from(GONE_AFTER.as_millis()).unwrap_or(i64::MAX);
    let live = tx.query_vec(
        "SELECT id FROM team_instances WHERE seen_at >= ?1",
        &[gone_before.into()],
        |row| row.text(0),
    )?;
    let why = Settling {
        left: STOPPED,
        not_left: STOPPED,
    };
    let mut writes = 0;
    for owner in ledger::in_flight_owners(tx, &TABLE)? {
        if !live.contains(&owner) {
            writes += ledger::settle(tx, &TABLE, &owner, why, now)?;
        }
    }
    let requests = settle_requests(tx, gone_before, now, key)?;
    tx.execute(
        "DELETE FROM team_instances WHERE seen_at < ?1",
        &[gone_before.into()],
    )?;
    Ok(Settled { writes, requests })
}

/// The approved requests of instances gone: each follows its write once that ended (done,
/// refused, unknown, not sent), and is not sent when no write of it was ever begun. A request
/// whose sender still runs is left to it.
fn settle_requests(
    tx: &dyn Tx,
    gone_before: i64,
    now: i64,
    key: Option<&AuditKey>,
) -> Result<Vec<SettledRequest>, TeamError> {
    let mut found = Vec::new();
    tx.query_each(
        "SELECT r.seq, COALESCE(w.state, 'not_sent'), r.call_id FROM requests r \
             LEFT JOIN team_writes w ON w.call_id = r.call_id \
         WHERE r.state = 'approved' \
             AND (r.sender IS NULL OR r.sender NOT IN \
                 (SELECT id FROM team_instances WHERE seen_at >= ?1)) \
             AND (w.call_id IS NULL OR w.state <> 'in_flight') ORDER BY r.seq",
        &[gone_before.into()],
        &mut |row| {
            found.push((row.i64(0)?, row.text(1)?, row.opt_text(2)?));
            Ok(ControlFlow::Continue(()))
        },
    )?;
    for (seq, state, call_id) in &found {
        tx.execute(
            "UPDATE requests SET state = ?2, message = ?3, ended_at = ?4 \
             WHERE seq = ?1 AND state = 'approved'",
            &[(*seq).into(), state.into(), STOPPED.into(), now.into()],
        )?;
        let record = Record {
            person: "(team server)".to_owned(),
            operation: SETTLED.to_owned(),
            call_id: call_id.clone(),
            request: Some(json!({ "requestId": approval::name(*seq) }).to_string()),
            outcome: state.clone(),
            message: Some(STOPPED.to_owned()),
            ..Record::default()
        };
        audit::append_in(tx, &record, now, key)?;
    }
    Ok(found
        .into_iter()
        .map(|(seq, state, _)| SettledRequest {
            request: approval::name(seq),
            state,
        })
        .collect())
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
        match beat(&store, &id, key.as_ref()).await {
            Ok(s) if s == Settled::default() => {}
            Ok(s) => tracing::warn!(
                writes = s.writes,
                requests = s.requests.len(),
                "settled the work of a stopped instance"
            ),
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
