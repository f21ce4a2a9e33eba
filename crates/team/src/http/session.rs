//! `POST /team/v1/session` (sign in), `DELETE` (sign out), `GET /team/v1/me`.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::time::Duration;
use wire::approval::FourEyes;
use wire::envelope::{self, OrderEnvelope};

use axum::extract::RawQuery;
use wire::team::{Card, Events, Me, Session, SignIn};

use super::answer::{Fail, order_ok};
use super::{Team, bearer};
use crate::audit::Record;
use crate::gate::NotNow;
use crate::identity::name_key;
use crate::people::Person;
use crate::sessions::{Caller, SessionError};

/// What the caller is told of themself: who, what they may do, and when their calls wait for
/// a second person and who decides them.
async fn me_of(team: &Team, c: Caller) -> Result<Me, crate::TeamError> {
    let four_eyes = FourEyes {
        thresholds: crate::settings::thresholds(&team.store).await?,
        approvers: crate::requests::approvers_of(&team.store, &c.person).await?,
    };
    Ok(Me {
        permissions: c.permissions.list(),
        person: card(c.person),
        four_eyes: Some(four_eyes),
    })
}

fn card(p: Person) -> Card {
    Card {
        name: p.name,
        display_name: p.display_name,
        role: p.role,
        branch: p.branch,
    }
}

/// Longest sign-in name read: longer is refused before anything is judged or recorded.
pub const MAX_NAME_BYTES: usize = 256;

/// Largest sign-in body (a name, a password and JSON around them).
pub const MAX_SIGN_IN_BODY: usize = 4096;

/// Signs in, if the gate lets the attempt be judged now (`crate::gate`). Only a JSON body is
/// read: a cross-site form (`text/plain`) cannot make a browser spend a clerk's attempts.
pub async fn sign_in(
    State(team): State<Arc<Team>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if !is_json(&headers) {
        return Fail::BadBody("a sign-in is a JSON body (Content-Type: application/json)".into())
            .order();
    }
    let form: SignIn = match wire::parse::json(&body) {
        Ok(form) => form,
        Err(e) => return Fail::BadBody(e.to_string()).order(),
    };
    if form.name.len() > MAX_NAME_BYTES || form.password.len() > crate::password::MAX_BYTES {
        return Fail::BadBody(format!(
            "name: at most {MAX_NAME_BYTES} bytes; password: at most {} bytes",
            crate::password::MAX_BYTES
        ))
        .order();
    }
    let address = team.client_address(peer, &headers);
    let name = name_key(&form.name);
    let signed = match team.gate.admit(&name, &address).await {
        Ok(admitted) => {
            let signed = team.sessions.sign_in(&name, &form.password).await;
            if signed.is_ok() {
                admitted.succeeded();
            }
            signed
        }
        Err(NotNow::Slowed(wait)) => Err(SessionError::Slowed(seconds(wait))),
        Err(NotNow::Busy(wait)) => Err(SessionError::Busy(seconds(wait))),
    };
    if let Err(e) = &signed {
        tracing::warn!(address, name, error = %e, "sign-in refused");
    }
    if let Err(e) = record_sign_in(&team, &name, &address, &signed).await {
        return Fail::Team(e).order();
    }
    let signed = match signed {
        Ok(signed) => signed,
        Err(e) => return Fail::Session(e).order(),
    };
    match me_of(&team, signed.caller).await {
        Ok(me) => order_ok(Session {
            token: signed.token,
            expires_at: signed.expires_at,
            idle_minutes: team.sessions.rules().idle.as_secs() / 60,
            me,
        }),
        Err(e) => Fail::Team(e).order(),
    }
}

/// Whole seconds to wait, at least one (as `Retry-After` says it).
fn seconds(wait: std::time::Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

pub async fn sign_out(State(team): State<Arc<Team>>, headers: HeaderMap) -> Response {
    let Some(token) = bearer(&headers) else {
        return Fail::Session(SessionError::Missing).order();
    };
    let caller = team.sessions.check(token).await.ok();
    match team.sessions.sign_out(token).await {
        Ok(()) => {
            if let Some(caller) = caller {
                let record = Record {
                    person: caller.person.name.clone(),
                    role: caller.person.role.clone(),
                    branch: caller.person.branch.map(|b| b.code),
                    operation: "sign_out".to_owned(),
                    outcome: "done".to_owned(),
                    ..Record::default()
                };
                team.append(record).await;
            }
            super::answer::order_done()
        }
        Err(e) => Fail::Session(e).order(),
    }
}

pub async fn me(State(team): State<Arc<Team>>, headers: HeaderMap) -> Response {
    let caller = match team.caller(&headers).await {
        Ok(caller) => caller,
        Err(e) => return Fail::Session(e).order(),
    };
    match me_of(&team, caller).await {
        Ok(me) => order_ok(me),
        Err(e) => Fail::Team(e).order(),
    }
}

/// `GET /team/v1/events?after=CURSOR&wait=SECONDS`: answers once the requests changed from
/// `after` (at once when they did), or after `wait` (at most 25 s) with the same cursor.
pub async fn events(
    State(team): State<Arc<Team>>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    if let Err(e) = team.caller(&headers).await {
        return Fail::Session(e).order();
    }
    let (mut after, mut wait) = (String::new(), 20);
    for (key, value) in form_urlencoded::parse(q.as_deref().unwrap_or_default().as_bytes()) {
        match key.as_ref() {
            "after" => after = value.into_owned(),
            // An unreadable wait is the default one: the answer comes either way.
            "wait" => wait = value.parse().unwrap_or(20),
            _ => {}
        }
    }
    let cursor = team.events.after(&after, Duration::from_secs(wait)).await;
    order_ok(Events { cursor })
}

/// A console asking a team server for the platform's token: it signs in instead.
pub async fn no_token() -> Response {
    let body = OrderEnvelope::<()>::failure(
        envelope::NOT_FOUND,
        "this is a team server: it gives no platform token; sign in at POST /team/v1/session \
         and send the session's token as the bearer",
        wire::team::OWN_FAILURE_CAUSE,
    );
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

/// A sign-in, good or not, in the audit log (the address in its request; never a password),
/// before its answer leaves: a sign-in that cannot be recorded is not answered as done.
async fn record_sign_in(
    team: &Team,
    name: &str,
    address: &str,
    signed: &Result<crate::sessions::SignedIn, SessionError>,
) -> Result<(), crate::TeamError> {
    let answer = signed.as_ref().err().and_then(|e| e.note().to_answer());
    let (person, role, branch, outcome, message) = match signed {
        Ok(s) => {
            let p = &s.caller.person;
            let branch = p.branch.as_ref().map(|b| b.code.clone());
            (p.name.clone(), p.role.clone(), branch, "done", None)
        }
        Err(SessionError::Team(_)) => return Ok(()),
        Err(e) => (
            name.to_owned(),
            String::new(),
            None,
            "refused",
            Some(e.to_string()),
        ),
    };
    let record = Record {
        person,
        role,
        branch,
        operation: "sign_in".to_owned(),
        request: Some(serde_json::json!({ "address": address }).to_string()),
        outcome: outcome.to_owned(),
        message,
        answer,
        ..Record::default()
    };
    team.audit.append(record).await.map(|_| ())
}
