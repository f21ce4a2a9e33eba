//! The platform behind the server: one client of the console's own kind, holding the app key
//! and secret, and a ledger of the writes it forwards in the server's store. A write is
//! recorded before it leaves and ended with what the platform answered; with no answer it is
//! `unknown`, and it is never sent again by itself (the profile of the platform never
//! declares repeats recognised).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use client::ledger;
use client::{Client, ClientConfig, Kept, Observer, Secret, WriteBegun, WriteEnded};
use db::sql::{StoreError, Tx};

use crate::audit::{Record, append_in};
use crate::error::TeamError;
use crate::instances::{self, TABLE};
use crate::seal::AuditKey;
use crate::store::TeamStore;

tokio::task_local! {
    /// The person a forwarded call is made for: the ledger records it beside each write.
    pub static PERSON: String;
    /// The approved request a write sends: its steps are fenced on the request's claim.
    pub static HELD: i64;
    /// The write's `begun` entry, appended to the audit log in the commit that keeps its
    /// ledger row: a write is in both before it leaves, or in neither and not sent.
    pub static BEGUN: Option<Record>;
}

/// Why a write's step is refused: its claim was taken while the instance could not see it.
const CLAIM_TAKEN: &str = "another instance settled it meanwhile (this one was taken for stopped)";

/// Where the platform is and the application the server calls it as.
#[derive(Debug, Clone)]
pub struct UpstreamConfig {
    pub base_url: String,
    /// The token endpoint [default: the base URL's `/v3/api/oauth2/token`].
    pub token_url: Option<String>,
    pub app_key: String,
    pub app_secret: Secret,
    /// A CA trusted besides the system's.
    pub ca_file: Option<PathBuf>,
    /// Plain `http://` to another machine allowed (the secret would cross in clear).
    pub insecure_http: bool,
}

/// Builds the client the server forwards through; `instance` names this instance in the
/// ledger.
pub fn client(
    config: UpstreamConfig,
    store: TeamStore,
    instance: String,
    key: Option<AuditKey>,
) -> Result<Client, client::ApiError> {
    let mut c = ClientConfig::new(&config.base_url, &config.app_key, config.app_secret);
    if let Some(url) = config.token_url {
        c.token_url = url;
    }
    c.ca_file = config.ca_file;
    c.insecure_http = config.insecure_http;
    // A lost answer is an unknown outcome told to the person, never a silent re-send.
    c.repeats_recognised = false;
    let ledger = Ledger {
        store,
        instance,
        key,
    };
    Client::new(c, Arc::new(ledger))
}

/// The writes' ledger, in the team server's store.
struct Ledger {
    store: TeamStore,
    instance: String,
    /// Seals the `begun` entries the ledger appends.
    key: Option<AuditKey>,
}

impl Observer for Ledger {
    fn record(&self, _record: client::CallRecord) {}

    fn begin_write(&self, write: &WriteBegun) -> Kept {
        let store = self.store.clone();
        let w = write.clone();
        let person = PERSON.try_with(Clone::clone).unwrap_or_default();
        let instance = self.instance.clone();
        let held = HELD.try_with(|id| *id).ok();
        let entry = BEGUN.try_with(Clone::clone).ok().flatten();
        let key = self.key.clone();
        Box::pin(async move {
            store
                .write(move |tx| {
                    if let Some(id) = held {
                        tx.serialize_on(instances::SENDING)?;
                        if !claimed(tx, id, &w.call_id, &instance)? {
                            return Err(StoreError::Failure(CLAIM_TAKEN.to_owned()));
                        }
                    }
                    if let Some(entry) = &entry {
                        let at = support::clock::now_ms();
                        append_in(tx, entry, at, key.as_ref()).map_err(store_error)?;
                    }
                    ledger::begin(tx, &TABLE, &person, &instance, &w)?;
                    Ok::<_, StoreError>(())
                })
                .await
                .map_err(client::NotKept::from)
        })
    }

    /// Marks the write leaving only while it is still this instance's and in flight (and, for
    /// an approved request, its claim still holds): a compare-and-set, so that a write settled
    /// by another instance while this one paused is never sent.
    fn write_sending(&self, call_id: &str) -> Kept {
        let store = self.store.clone();
        let call_id = call_id.to_owned();
        let instance = self.instance.clone();
        let held = HELD.try_with(|id| *id).ok();
        Box::pin(async move {
            let now = support::clock::now_ms();
            store
                .write(move |tx| {
                    if let Some(id) = held {
                        tx.serialize_on(instances::SENDING)?;
                        if !claimed(tx, id, &call_id, &instance)? {
                            return Err(StoreError::Failure(CLAIM_TAKEN.to_owned()));
                        }
                    }
                    match ledger::sending(tx, &TABLE, &call_id, &instance, now)? {
                        true => Ok(()),
                        false => Err(StoreError::Failure(CLAIM_TAKEN.to_owned())),
                    }
                })
                .await
                .map_err(client::NotKept::from)
        })
    }

    fn end_write(&self, write: &WriteEnded) {
        let store = self.store.clone();
        let w = write.clone();
        // The answer goes back to the person meanwhile. The store may be away (a restart):
        // the end is kept once it is back, or the write would stay in flight while this
        // instance lives (the others settle only a stopped instance's writes).
        tokio::spawn(async move {
            let mut wait = END_FIRST_WAIT;
            let given_up = tokio::time::Instant::now() + END_TRIES_FOR;
            loop {
                let w = w.clone();
                let ended = store.write(move |tx| ledger::end(tx, &TABLE, &w)).await;
                match ended {
                    Ok(()) => return,
                    Err(e) if tokio::time::Instant::now() + wait > given_up => {
                        tracing::error!(error = %e, "a forwarded write's end could not be recorded");
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "a forwarded write's end waits for the store")
                    }
                }
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(END_MOST_WAIT);
            }
        });
    }
}

/// How a write's end is kept while the store is away: tried again after these waits, doubling,
/// for this long.
const END_FIRST_WAIT: Duration = Duration::from_millis(250);
const END_MOST_WAIT: Duration = Duration::from_secs(30);
const END_TRIES_FOR: Duration = Duration::from_secs(30 * 60);

/// Whether approved request `id` is still to be sent by `instance` under `call_id`.
fn claimed(tx: &dyn Tx, id: i64, call_id: &str, instance: &str) -> Result<bool, StoreError> {
    let found = tx.query_opt(
        "SELECT 1 FROM requests \
         WHERE seq = ?1 AND call_id = ?2 AND sender = ?3 AND state = 'approved'",
        &[id.into(), call_id.into(), instance.into()],
        |row| row.i64(0),
    )?;
    Ok(found.is_some())
}

/// A team error inside a store transaction: the store's own kept as it is (a conflict is
/// retried), anything else a failure.
fn store_error(e: TeamError) -> StoreError {
    match e {
        TeamError::Store(e) => e,
        other => StoreError::Failure(other.to_string()),
    }
}
