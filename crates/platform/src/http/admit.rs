//! Admission of a call, before any business logic: the bearer token (401), the group's scope
//! (403), the `g_nonce` (format, then single use), and the body (size, type, JSON shape).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};

use crate::apps;
use crate::auth::{self, Caller};
use crate::error::OpError;
use crate::pg::{PgStore, StoreFailure};
use crate::shared::{AppState, Shared, SqliteStores, Stores};
use crate::sql::{self, StoreError};
use support::clock::now_ms;
use wire::parse::FromJson;

/// Largest request body: a batch of 10,000 orders with a few products each fits.
pub const MAX_BODY: usize = 16 * 1024 * 1024;

/// Why a call is not admitted or not carried out.
#[derive(Debug)]
pub enum Refusal {
    /// 401: no token, or an unknown or expired one.
    Unauthorized(String),
    /// 403: the token's application lacks the group's scope.
    Forbidden(String),
    /// 13004 / 500 (order group), 1001 / 1002 (activity group).
    Op(OpError),
}

impl From<OpError> for Refusal {
    fn from(e: OpError) -> Self {
        Self::Op(e)
    }
}

/// The query string's pairs, decoded.
#[derive(Debug, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    fn parse(raw: Option<&str>) -> Self {
        Self(
            form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
                .into_owned()
                .collect(),
        )
    }

    /// The parameter's value; a parameter given twice is refused rather than guessed.
    pub fn get(&self, name: &str) -> Result<Option<&str>, OpError> {
        let mut found = self.0.iter().filter(|(k, _)| k == name);
        let first = found.next();
        if found.next().is_some() {
            return Err(OpError::invalid(name, "given more than once"));
        }
        Ok(first.map(|(_, v)| v.as_str()))
    }
}

/// A call whose token, scope and nonce format passed; its nonce is not spent yet. A call that
/// writes spends it in the same transaction as the operation ([`Admission::run`]), so it costs
/// one write; a call that only reads spends it in the token and nonce store
/// ([`Admission::spend_alone`]), so it never waits behind a long write.
pub struct Admission {
    pub caller: Caller,
    pub query: Query,
    nonce: String,
}

/// Checks the token and scope, then the nonce's format. A token seen before is checked in
/// memory; a new one costs one primary-key read on a WAL reader, which never waits for the
/// writer, so it runs inline rather than paying two thread hand-offs.
pub async fn admit(
    state: &AppState,
    parts: &Parts,
    scope: &'static str,
) -> Result<Admission, Refusal> {
    let token = bearer(&parts.headers)?;
    let query = Query::parse(parts.uri.query());
    let now = now_ms();
    let caller = match &state.stores {
        Stores::Sqlite(stores) => state
            .tokens
            .verify(&token, now, |hash| caller_of(stores, hash, now))?,
        Stores::Postgres(pg) => verify_on(state, pg, &token, now).await?,
    };
    if let Some(caller) = &caller {
        super::NamedApp::note(parts, &caller.app_key);
    }
    let Some(caller) = caller else {
        return Err(Refusal::Unauthorized(
            "Authorization: the token is unknown or has expired; get a new one from /v3/api/oauth2/token".to_owned(),
        ));
    };
    if !caller.has_scope(scope) {
        return Err(Refusal::Forbidden(format!(
            "the application {} does not hold the scope {scope}",
            caller.app_key
        )));
    }
    // Judged only after the token and scope: auth failures come first.
    let nonce = query.get("g_nonce")?.unwrap_or_default().to_owned();
    if let Some(why) = auth::nonce_problem(&nonce) {
        return Err(Refusal::Op(OpError::invalid("g_nonce", why)));
    }
    Ok(Admission {
        caller,
        query,
        nonce,
    })
}

impl Admission {
    /// Runs `op`, if the body was readable and valid, and spends the nonce, in one write
    /// transaction. The nonce stays spent when the body or the operation is refused (a refused
    /// call cannot be replayed later); a reused nonce or a storage failure writes nothing.
    ///
    /// The nonce is spent after the operation, so that a successful call needs no savepoint
    /// of its own around the operation: a reused nonce then undoes the operation with the
    /// whole write, and a refused operation is undone likewise and its nonce spent in a
    /// second, small write. `op` borrows the body, so that a store that retries the write
    /// can run it again.
    pub async fn run<B, T>(
        self,
        state: &AppState,
        body: Result<B, OpError>,
        mut op: impl FnMut(&dyn sql::Tx, &Shared, &Caller, &B) -> Result<T, OpError> + Send + 'static,
    ) -> Result<T, OpError>
    where
        B: Send + 'static,
        T: Send + 'static,
    {
        let Admission { caller, nonce, .. } = self;
        if seen_by_the_other_store(state, Spender::Write, &caller.app_key, &nonce)? {
            return Err(reused());
        }
        // Shared by the write and the spending after a refusal: copied for neither.
        let who = Arc::new(Spending { caller, nonce });
        let body = match body {
            Ok(body) => body,
            Err(refused) => {
                // Nothing to run: the nonce alone is spent (a reused one is answered as such).
                state.write(move |tx, _| who.spend(tx)).await?;
                return Err(refused);
            }
        };
        let me = Arc::clone(state);
        let spender = Arc::clone(&who);
        let attempt = state
            .stores
            .write(move |tx| match op(tx, &me, &spender.caller, &body) {
                Ok(value) => {
                    spender.spend(tx).map_err(Undo::Answer)?;
                    Ok(value)
                }
                Err(refused @ OpError::Invalid { .. }) => Err(Undo::SpendThenAnswer(refused)),
                Err(failure) => Err(Undo::Answer(failure)),
            })
            .await;
        match attempt {
            Ok(value) => Ok(value),
            Err(Undo::Answer(e)) => Err(e),
            Err(Undo::SpendThenAnswer(refused)) => {
                // A reused nonce is answered as such, as if it had been judged first.
                state.write(move |tx, _| who.spend(tx)).await?;
                Err(refused)
            }
        }
    }

    /// Spends the nonce on its own (calls that only read), in the token and nonce store, so
    /// that such a call never waits behind a long write of business data.
    pub async fn spend_alone(self, state: &AppState) -> Result<(Caller, Query), OpError> {
        let Admission {
            caller,
            query,
            nonce,
        } = self;
        if seen_by_the_other_store(state, Spender::Read, &caller.app_key, &nonce)? {
            return Err(reused());
        }
        let app_key = caller.app_key.clone();
        state
            .write_auth(move |tx, _| spend(tx, &app_key, &nonce))
            .await?;
        Ok((caller, query))
    }
}

/// A write undone whole: the answer, and whether the nonce must still be spent.
enum Undo {
    Answer(OpError),
    SpendThenAnswer(OpError),
}

impl From<StoreError> for Undo {
    fn from(e: StoreError) -> Self {
        Self::Answer(OpError::from(e))
    }
}

impl StoreFailure for Undo {
    fn store_error(&self) -> Option<&StoreError> {
        match self {
            Self::Answer(e) => e.store_error(),
            Self::SpendThenAnswer(_) => None,
        }
    }
}

/// The caller of a call that writes and the nonce it is to spend.
struct Spending {
    caller: Caller,
    nonce: String,
}

impl Spending {
    fn spend(&self, tx: &dyn sql::Tx) -> Result<(), OpError> {
        spend(tx, &self.caller.app_key, &self.nonce)
    }
}

fn spend(tx: &dyn sql::Tx, app_key: &str, nonce: &str) -> Result<(), OpError> {
    if auth::consume_nonce(tx, app_key, nonce)? {
        Ok(())
    } else {
        Err(reused())
    }
}

fn reused() -> OpError {
    OpError::refusal(
        "g_nonce",
        wire::refusal::Refusal::NonceReused,
        "; send a fresh nonce with every call",
    )
}

/// Which kind of call spends a nonce, so which store keeps it.
#[derive(Clone, Copy)]
enum Spender {
    /// In the business database, in the operation's own transaction.
    Write,
    /// In the token and nonce store.
    Read,
}

/// Whether the nonce was spent in the other kind's store (SQLite keeps two logs): a nonce is
/// single use across both. Its fingerprints in memory answer a sure "no" for nearly every
/// call; a "maybe" costs a primary-key read on a WAL reader, which never waits for a writer.
/// Only two calls of different kinds racing with one nonce could both pass it. The nonce's
/// fingerprint is then added to this kind's own, before it is spent.
///
/// On PostgreSQL there is one log, whose primary key alone keeps a nonce single use across
/// every instance: nothing to check here.
fn seen_by_the_other_store(
    state: &AppState,
    spender: Spender,
    app_key: &str,
    nonce: &str,
) -> Result<bool, OpError> {
    let Stores::Sqlite(stores) = &state.stores else {
        return Ok(false);
    };
    let (spent, other, own) = match spender {
        Spender::Write => (
            &stores.spent_by_reads,
            &stores.auth,
            &stores.spent_by_writes,
        ),
        Spender::Read => (
            &stores.spent_by_writes,
            &stores.store,
            &stores.spent_by_reads,
        ),
    };
    if spent.may_hold(app_key, nonce) && other.read(|tx| auth::nonce_seen(tx, app_key, nonce))? {
        return Ok(true);
    }
    own.insert(app_key, nonce);
    Ok(false)
}

/// The caller behind a token's hash: the token from the token store, the app's scopes from
/// the main one. Both are primary-key reads on WAL readers, which never wait for a writer.
fn caller_of(
    stores: &SqliteStores,
    hash: &[u8],
    now: i64,
) -> Result<Option<(Caller, i64)>, OpError> {
    let Some(token) = stores.auth.read(|tx| auth::lookup(tx, hash, now))? else {
        return Ok(None);
    };
    let scopes = stores
        .store
        .read(|tx| apps::token_scopes(tx, &token.app_key, token.issued_at))?;
    Ok(scopes.map(|scopes| {
        (
            Caller {
                app_key: token.app_key,
                scopes,
            },
            token.expires_at,
        )
    }))
}

/// [`Tokens::verify`](auth::Tokens::verify) on PostgreSQL: a token not trusted from memory is
/// looked up with its app's scopes in one read, off the async threads.
async fn verify_on(
    state: &AppState,
    pg: &PgStore,
    token: &str,
    now: i64,
) -> Result<Option<Caller>, OpError> {
    let hash = auth::token_hash(token);
    if let Some(caller) = state.tokens.trusted(&hash, now) {
        return Ok(Some(caller));
    }
    let key = hash.clone();
    let found = pg
        .read(move |tx| {
            let Some(token) = auth::lookup(tx, &key, now)? else {
                return Ok::<_, OpError>(None);
            };
            let scopes = apps::token_scopes(tx, &token.app_key, token.issued_at)?;
            Ok(scopes.map(|scopes| {
                (
                    Caller {
                        app_key: token.app_key,
                        scopes,
                    },
                    token.expires_at,
                )
            }))
        })
        .await?;
    Ok(state.tokens.remember(hash, found, now))
}

fn bearer(headers: &HeaderMap) -> Result<String, Refusal> {
    let missing = || {
        Refusal::Unauthorized(
            "Authorization: a header \"Bearer <APP_ACCESS_TOKEN>\" is required".to_owned(),
        )
    };
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(missing)?;
    let (scheme, token) = value.trim().split_once(' ').ok_or_else(missing)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(missing());
    }
    Ok(token.to_owned())
}

/// A request body as read: the value or why not, and whether it was left unread (then the
/// connection must close after the answer).
pub struct JsonBody<T> {
    pub value: Result<T, OpError>,
    pub unread: bool,
}

/// Reads and parses a JSON body, naming the field path of any error. A body that has not
/// arrived within `timeout` is refused (and the connection closed, freeing what was read).
pub async fn json_body<T: FromJson>(
    headers: &HeaderMap,
    body: Body,
    timeout: Duration,
) -> JsonBody<T> {
    let unread = |e| JsonBody {
        value: Err(e),
        unread: true,
    };
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let media = content_type.split(';').next().unwrap_or_default().trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return unread(OpError::invalid(
            "Content-Type",
            format!("must be application/json, not {content_type:?}"),
        ));
    }
    // A compressed body would be read as JSON and fail with a confusing message; the
    // platform reads bodies as sent.
    let encoding = headers
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap_or("(not text)").trim());
    if let Some(encoding) = encoding.filter(|e| !e.eq_ignore_ascii_case("identity")) {
        return unread(OpError::invalid(
            "Content-Encoding",
            format!("must be identity (an uncompressed body), not {encoding:?}"),
        ));
    }
    let too_large = || {
        OpError::invalid(
            "body",
            format!("larger than the limit of {} MiB", MAX_BODY >> 20),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return unread(too_large());
    }
    let bytes = match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) if !serve::listen::too_slow(&e) => return unread(too_large()),
        _ => {
            return unread(OpError::invalid(
                "body",
                format!(
                    "did not arrive within {}; send it whole at once",
                    seconds(timeout)
                ),
            ));
        }
    };
    // serde reads a struct from an array by position; the interface's bodies are objects.
    let value = if bytes.trim_ascii_start().first() == Some(&b'[') {
        Err(OpError::invalid(
            "body",
            "must be a JSON object, not an array",
        ))
    } else {
        T::from_json(&bytes).map_err(|e| {
            let path = if e.path.is_empty() {
                "body".to_owned()
            } else {
                e.path
            };
            OpError::invalid(path, e.message)
        })
    };
    JsonBody {
        value,
        unread: false,
    }
}

/// `30 s`, `0.3 s`.
pub fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}
