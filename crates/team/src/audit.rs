//! The record of every call through the server, as a hash chain: each entry carries the hash
//! of the one before it, so that an entry changed, removed or inserted in place breaks the
//! chain from there on, and [`verify`] names the first entry that does not follow.
//!
//! `hash = SHA-256(previous hash, hex ‖ the entry's canonical JSON)`: the entry's fields in
//! the fixed order of [`Entry`], serialized by serde_json (no spaces, strings escaped one
//! way). The first entry's previous hash is 64 zeros. Appending is serialized on one key
//! (`audit`), so the chain is one line across instances. Against whoever can write the store
//! the record is sealed besides (`crate::seal`): each entry's MAC under a key kept off the
//! database, checkpoints written elsewhere, and retention as an entry of the chain itself.

use std::ops::ControlFlow;

use db::sql::{Row, StoreError, Tx, Value};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::TeamError;
use crate::seal::{AuditKey, Checkpoint};
use crate::store::TeamStore;

/// The previous hash of the first entry.
pub const ZERO: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What an entry records (its place and hashes aside).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub person: String,
    pub role: String,
    pub branch: Option<String>,
    /// The operation (`lock`, `batch_order`, …) or the server's own action (`sign_in`,
    /// `user.add`, …).
    pub operation: String,
    pub call_id: Option<String>,
    pub request: Option<String>,
    pub outcome: String,
    pub code: Option<String>,
    pub message: Option<String>,
    pub answer: Option<String>,
}

/// An entry as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub seq: i64,
    pub at: i64,
    #[serde(flatten)]
    pub record: Record,
    pub prev_hash: String,
    pub hash: String,
    /// The hash's MAC under the record's key, when the writer had it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
}

/// The operation of the entry retention writes when it drops the chain's start.
pub const RETENTION: &str = "audit.retention";

/// The hashed part of an entry, in its fixed order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Hashed<'a> {
    seq: i64,
    at: i64,
    #[serde(flatten)]
    record: &'a Record,
}

/// SHA-256 of the previous hash and the entry's canonical JSON, hex.
pub fn hash_of(prev_hash: &str, seq: i64, at: i64, record: &Record) -> String {
    let json = serde_json::to_vec(&Hashed { seq, at, record }).unwrap_or_default();
    let mut h = Sha256::new();
    h.update(prev_hash.as_bytes());
    h.update(&json);
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Appends `record` at the end of the chain (its MAC made with `key` when given); answers its
/// sequence number.
pub async fn append(
    store: &TeamStore,
    record: Record,
    key: Option<AuditKey>,
) -> Result<i64, TeamError> {
    store
        .write(move |tx| append_in(tx, &record, support::clock::now_ms(), key.as_ref()))
        .await
}

/// [`append`] inside a transaction already open.
pub fn append_in(
    tx: &dyn Tx,
    record: &Record,
    at: i64,
    key: Option<&AuditKey>,
) -> Result<i64, TeamError> {
    tx.serialize_on("audit")?;
    let (last, prev) = chain_end(tx)?;
    let seq = last + 1;
    let hash = hash_of(&prev, seq, at, record);
    let mac = key.map(|k| k.entry_mac(&hash));
    tx.execute(
        "INSERT INTO audit(seq, at, person, role, branch, operation, call_id, request, \
             outcome, code, message, answer, prev_hash, hash, mac) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        &[
            seq.into(),
            at.into(),
            (&record.person).into(),
            (&record.role).into(),
            record.branch.as_deref().into(),
            (&record.operation).into(),
            record.call_id.as_deref().into(),
            record.request.as_deref().into(),
            (&record.outcome).into(),
            record.code.as_deref().into(),
            record.message.as_deref().into(),
            record.answer.as_deref().into(),
            (&prev).into(),
            (&hash).into(),
            mac.as_deref().into(),
        ],
    )?;
    Ok(seq)
}

/// The last entry's sequence number and hash, or where retention left the chain's start.
fn chain_end(tx: &dyn Tx) -> Result<(i64, String), StoreError> {
    let last = tx.query_opt(
        "SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1",
        &[],
        |row| Ok((row.i64(0)?, row.text(1)?)),
    )?;
    match last {
        Some(end) => Ok(end),
        None => chain_start(tx),
    }
}

fn chain_start(tx: &dyn Tx) -> Result<(i64, String), StoreError> {
    Ok(tx
        .query_opt("SELECT seq, hash FROM audit_start", &[], |row| {
            Ok((row.i64(0)?, row.text(1)?))
        })?
        .unwrap_or((0, ZERO.to_owned())))
}

/// The entries' columns, in [`entry`]'s order, then the rest of the statement (statements
/// are `&'static str`, so the list is joined at compile time).
macro_rules! entries {
    ($($rest:expr),+) => {
        concat!(
            "SELECT seq, at, person, role, branch, operation, call_id, request, outcome, code, \
             message, answer, prev_hash, hash, mac FROM audit ",
            $($rest),+
        )
    };
}

fn entry(row: &dyn Row) -> Result<Entry, StoreError> {
    Ok(Entry {
        seq: row.i64(0)?,
        at: row.i64(1)?,
        record: Record {
            person: row.text(2)?,
            role: row.text(3)?,
            branch: row.opt_text(4)?,
            operation: row.text(5)?,
            call_id: row.opt_text(6)?,
            request: row.opt_text(7)?,
            outcome: row.text(8)?,
            code: row.opt_text(9)?,
            message: row.opt_text(10)?,
            answer: row.opt_text(11)?,
        },
        prev_hash: row.text(12)?,
        hash: row.text(13)?,
        mac: row.opt_text(14)?,
    })
}

/// How a verification ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verified {
    /// Every entry follows from the one before: how many there are.
    Whole(u64),
    /// The first entry that does not follow, and why.
    Broken { entry: Box<Entry>, why: String },
    /// The chain follows, but contradicts a checkpoint or its own retention: cut, rewritten
    /// or dropped where no entry shows it.
    Contradicted { why: String },
}

/// Recomputes the chain from its start, reading the entries in order.
pub async fn verify(store: &TeamStore) -> Result<Verified, TeamError> {
    store.read(|tx| verify_in(tx, None)).await
}

fn verify_in(tx: &dyn Tx, key: Option<&AuditKey>) -> Result<Verified, TeamError> {
    let (mut seq, mut prev) = chain_start(tx)?;
    let mut count = 0;
    let mut broken = None;
    tx.query_each(entries!("ORDER BY seq"), &[], &mut |row| {
        let e = entry(row)?;
        // Every entry after the key was made carries its MAC: one without is as wrong.
        let mac_wrong = key.is_some_and(|k| {
            e.seq > k.sealed_after() && e.mac.as_deref() != Some(k.entry_mac(&e.hash).as_str())
        });
        let why = if e.seq != seq + 1 {
            Some(format!("entry {} is missing before it", seq + 1))
        } else if e.prev_hash != prev {
            Some(format!(
                "it does not name entry {seq}'s hash as the one before it"
            ))
        } else if hash_of(&prev, e.seq, e.at, &e.record) != e.hash {
            Some(format!(
                "its hash does not follow from entry {seq} and its own content"
            ))
        } else if mac_wrong {
            Some(
                "its MAC is not this server's key's: the chain was recomputed from here".to_owned(),
            )
        } else {
            None
        };
        if let Some(why) = why {
            broken = Some(Verified::Broken {
                entry: Box::new(e),
                why,
            });
            return Ok(ControlFlow::Break(()));
        }
        (seq, prev) = (e.seq, e.hash);
        count += 1;
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(broken.unwrap_or(Verified::Whole(count)))
}

/// Entries in a time range (epoch ms, `from` included, `to` excluded), oldest first,
/// optionally one person's.
pub async fn range(
    store: &TeamStore,
    from: i64,
    to: i64,
    person: Option<String>,
) -> Result<Vec<Entry>, TeamError> {
    store
        .read(move |tx| {
            let mut all = Vec::new();
            let mut push = |row: &dyn Row| {
                all.push(entry(row)?);
                Ok(ControlFlow::Continue(()))
            };
            let params: [Value<'_>; 3] = [from.into(), to.into(), person.as_deref().into()];
            tx.query_each(
                entries!(
                    "WHERE at >= ?1 AND at < ?2 AND (CAST(?3 AS TEXT) IS NULL OR person = ?3) \
                     ORDER BY seq"
                ),
                &params,
                &mut push,
            )?;
            Ok(all)
        })
        .await
}

/// A person's last `n` entries, newest first.
pub async fn last_of(store: &TeamStore, person: &str, n: i64) -> Result<Vec<Entry>, TeamError> {
    latest(store, Some(person.to_owned()), None, n).await
}

/// What the ledger says of each call (`not_sent` when it has no row: the call never left).
pub async fn ledger_states(
    store: &TeamStore,
    call_ids: Vec<String>,
) -> Result<Vec<(String, String)>, TeamError> {
    store
        .read(move |tx| {
            let mut found = Vec::new();
            for call_id in call_ids {
                let state = tx.query_opt(
                    "SELECT state FROM team_writes WHERE call_id = ?1",
                    &[(&call_id).into()],
                    |row| row.text(0),
                )?;
                found.push((call_id, state.unwrap_or_else(|| "not_sent".to_owned())));
            }
            Ok::<_, TeamError>(found)
        })
        .await
}

/// The latest `n` entries before `before` (a `seq`), newest first, optionally one person's.
/// One person's are read through the index on (person, seq), however old they are.
pub async fn latest(
    store: &TeamStore,
    person: Option<String>,
    before: Option<i64>,
    n: i64,
) -> Result<Vec<Entry>, TeamError> {
    read_latest(store, person, before, n, false).await
}

/// [`latest`] as a reader means it: a write's `begun` entry left out once its outcome's entry
/// is in the record (one entry a call).
pub async fn listed(
    store: &TeamStore,
    person: Option<String>,
    before: Option<i64>,
    n: i64,
) -> Result<Vec<Entry>, TeamError> {
    read_latest(store, person, before, n, true).await
}

/// The entries a `begun` entry is left out of a listing for.
macro_rules! ended {
    () => {
        "AND NOT (outcome = 'begun' AND EXISTS (SELECT 1 FROM audit ended \
         WHERE ended.call_id = audit.call_id AND ended.outcome <> 'begun')) "
    };
}

async fn read_latest(
    store: &TeamStore,
    person: Option<String>,
    before: Option<i64>,
    n: i64,
    folded: bool,
) -> Result<Vec<Entry>, TeamError> {
    let before = before.unwrap_or(i64::MAX);
    store
        .read(move |tx| {
            let mut all = Vec::new();
            let mut push = |row: &dyn Row| {
                all.push(entry(row)?);
                Ok(ControlFlow::Continue(()))
            };
            let sql = match (&person, folded) {
                (Some(_), false) => {
                    entries!("WHERE person = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3")
                }
                (Some(_), true) => entries!(
                    "WHERE person = ?1 AND seq < ?2 ",
                    ended!(),
                    "ORDER BY seq DESC LIMIT ?3"
                ),
                (None, false) => entries!("WHERE seq < ?1 ORDER BY seq DESC LIMIT ?2"),
                (None, true) => entries!("WHERE seq < ?1 ", ended!(), "ORDER BY seq DESC LIMIT ?2"),
            };
            match &person {
                Some(person) => {
                    tx.query_each(sql, &[person.into(), before.into(), n.into()], &mut push)?
                }
                None => tx.query_each(sql, &[before.into(), n.into()], &mut push)?,
            }
            Ok(all)
        })
        .await
}

impl From<Entry> for wire::team::AuditEntry {
    fn from(e: Entry) -> Self {
        let r = e.record;
        wire::team::AuditEntry {
            seq: e.seq,
            at: e.at,
            person: r.person,
            role: r.role,
            branch: r.branch,
            operation: r.operation,
            call_id: r.call_id,
            outcome: r.outcome,
            code: r.code,
            message: r.message,
            request: r.request,
            answer: r.answer,
        }
    }
}

/// Drops the entries older than `before` (epoch ms) from the start of the chain, keeping the
/// last one dropped as the chain's new start, and says so in an entry of the chain (so that a
/// start moved without one is seen as a head dropped); answers how many were dropped.
pub async fn drop_before(
    store: &TeamStore,
    before: i64,
    key: Option<AuditKey>,
) -> Result<u64, TeamError> {
    store
        .write(move |tx| {
            tx.serialize_on("audit")?;
            let last_old = tx.query_opt(
                "SELECT seq, hash FROM audit WHERE at < ?1 ORDER BY seq DESC LIMIT 1",
                &[before.into()],
                |row| Ok((row.i64(0)?, row.text(1)?)),
            )?;
            let Some((seq, hash)) = last_old else {
                return Ok(0);
            };
            // Written first: the last entry may be among those dropped.
            let record = Record {
                person: "(team server)".to_owned(),
                operation: RETENTION.to_owned(),
                request: Some(serde_json::json!({"droppedThrough": seq, "hash": hash}).to_string()),
                outcome: "done".to_owned(),
                ..Record::default()
            };
            append_in(tx, &record, support::clock::now_ms(), key.as_ref())?;
            let dropped = tx.execute("DELETE FROM audit WHERE seq <= ?1", &[seq.into()])?;
            tx.execute("DELETE FROM audit_start", &[])?;
            tx.execute(
                "INSERT INTO audit_start(seq, hash) VALUES (?1, ?2)",
                &[seq.into(), (&hash).into()],
            )?;
            Ok(u64::try_from(dropped).unwrap_or_default())
        })
        .await
}

/// Whether any entry carries a MAC (the record is sealed with a key).
pub async fn any_sealed(store: &TeamStore) -> Result<bool, TeamError> {
    store
        .read(|tx| {
            Ok(tx
                .query_opt(
                    "SELECT 1 FROM audit WHERE mac IS NOT NULL LIMIT 1",
                    &[],
                    |_| Ok(()),
                )?
                .is_some())
        })
        .await
}

/// The record's last entry now (where a key made now starts sealing).
pub async fn chain_end_now(store: &TeamStore) -> Result<i64, TeamError> {
    store.read(|tx| Ok(chain_end(tx)?.0)).await
}

/// The record as it is now, for a checkpoint (unsigned).
pub async fn checkpoint(store: &TeamStore) -> Result<Checkpoint, TeamError> {
    store
        .read(|tx| {
            let (start_seq, start_hash) = chain_start(tx)?;
            let (seq, hash) = chain_end(tx)?;
            Ok(Checkpoint {
                at: support::clock::now_ms(),
                seq,
                hash,
                start_seq,
                start_hash,
                mac: None,
            })
        })
        .await
}

/// [`verify`], and against the seal: every entry's MAC under `key` (those after the key's
/// `sealed-after`: an older store's entries have none), the chain's start where a checkpoint
/// or a retention entry puts it, and every checkpoint's entry still there with the hash it saw.
pub async fn verify_sealed(
    store: &TeamStore,
    key: Option<AuditKey>,
    checkpoints: Vec<Checkpoint>,
) -> Result<Verified, TeamError> {
    if let Some(k) = &key
        && let Some(cp) = checkpoints.iter().find(|cp| !cp.signed_by(k))
    {
        return Ok(Verified::Contradicted {
            why: format!(
                "the checkpoint of {} is not signed with this server's key: the checkpoints \
                 were changed",
                when(cp.at)
            ),
        });
    }
    store
        .read(move |tx| {
            let chain = verify_in(tx, key.as_ref())?;
            if !matches!(chain, Verified::Whole(_)) {
                return Ok(chain);
            }
            if let Some(why) = against_checkpoints(tx, &checkpoints)? {
                return Ok(Verified::Contradicted { why });
            }
            Ok(chain)
        })
        .await
}

/// What contradicts the checkpoints, if anything.
fn against_checkpoints(
    tx: &dyn Tx,
    checkpoints: &[Checkpoint],
) -> Result<Option<String>, TeamError> {
    let (start_seq, start_hash) = chain_start(tx)?;
    let (end, _) = chain_end(tx)?;
    let retained = retention_starts(tx)?;
    let start_seen = (start_seq, start_hash.as_str()) == (0, ZERO)
        || retained.contains(&(start_seq, start_hash.clone()))
        || checkpoints
            .iter()
            .any(|cp| (cp.start_seq, cp.start_hash.as_str()) == (start_seq, start_hash.as_str()));
    if !start_seen {
        return Ok(Some(format!(
            "the record starts after entry {start_seq}, and neither a retention entry nor a \
             checkpoint puts its start there: its head was dropped"
        )));
    }
    for cp in checkpoints {
        if end < cp.seq {
            return Ok(Some(format!(
                "the record ends at entry {end}, but the checkpoint of {} saw entry {}: its tail \
                 was cut",
                when(cp.at),
                cp.seq
            )));
        }
        if cp.seq <= start_seq {
            continue;
        }
        let hash = tx.query_opt(
            "SELECT hash FROM audit WHERE seq = ?1",
            &[cp.seq.into()],
            |row| row.text(0),
        )?;
        if hash.as_deref() != Some(cp.hash.as_str()) {
            return Ok(Some(format!(
                "entry {} is not the one the checkpoint of {} saw: the chain was rewritten",
                cp.seq,
                when(cp.at)
            )));
        }
    }
    Ok(None)
}

/// A checkpoint's time as people read it (UTC, RFC 3339).
fn when(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms).map_or_else(|_| format!("{ms} ms"), |t| t.to_string())
}

/// The starts retention entries of the chain name.
fn retention_starts(tx: &dyn Tx) -> Result<Vec<(i64, String)>, TeamError> {
    let mut starts = Vec::new();
    tx.query_each(
        "SELECT request FROM audit WHERE operation = ?1",
        &[RETENTION.into()],
        &mut |row| {
            let said: serde_json::Value =
                serde_json::from_str(&row.opt_text(0)?.unwrap_or_default()).unwrap_or_default();
            if let (Some(seq), Some(hash)) =
                (said["droppedThrough"].as_i64(), said["hash"].as_str())
            {
                starts.push((seq, hash.to_owned()));
            }
            Ok(ControlFlow::Continue(()))
        },
    )?;
    Ok(starts)
}
