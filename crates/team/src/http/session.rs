//! `POST /team/v1/session` (sign in), `DELETE` (sign out), `GET /team/v1/me`.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use std::net::SocketAddr;
use std::time::Instant;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use wire::envelope::{self, OrderEnvelope};
use wire::team::{Card, Me, Session, SignIn};

use super::answer::{Fail, order_ok};
use super::{Team, bearer};
use crate::audit::Record;
use crate::people::Person;
use crate::sessions::{Caller, SessionError};

impl From<Caller> for Me {
    fn from(c: Caller) -> Self {
        Me {
            permissions: c.permissions.list(),
            person: card(c.person),
        }
    }
}

fn card(p: Person) -> Card {
    Card {
        name: p.name,
        display_name: p.display_name,
        role: p.role,
        branch: p.branch,
    }
}

/// Signs in, unless this address failed too often lately: then refused without a look at the
/// name or password (which says nothing of whether the name exists).
pub async fn sign_in(
    State(team): State<Arc<Team>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Response {
    let form: SignIn = match wire::parse::json(&body) {
        Ok(form) => form,
        Err(e) => return Fail::BadBody(e.to_string()).order(),
    };
    let address = peer.ip().to_string();
    if let Some(wait) = team.sign_in_failures.wait(&address, Instant::now()) {
        tracing::warn!(
            address,
            "sign-in throttled: too many failures from this address"
        );
        return Fail::Session(SessionError::Throttled(wait.as_secs().max(1))).order();
    }
    let signed = team.sessions.sign_in(&form.name, &form.password).await;
    if let Err(SessionError::WrongNameOrPassword(..)) = &signed {
        tracing::warn!(address, "sign-in refused: wrong name or password");
        team.sign_in_failures.failed(&address, Instant::now());
    }
    record_sign_in(&team, &form.name, &address, &signed).await;
    match signed {
        Ok(signed) => order_ok(Session {
            token: signed.token,
            expires_at: signed.expires_at,
            idle_minutes: team.sessions.rules().idle.as_secs() / 60,
            me: signed.caller.into(),
        }),
        Err(e) => Fail::Session(e).order(),
    }
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
    match team.caller(&headers).await {
        Ok(caller) => order_ok(Me::from(caller)),
        Err(e) => Fail::Session(e).order(),
    }
}

/// A console asking a team server for the platform's token: it signs in instead.
pub async fn no_token() -> Response {
    let body = OrderEnvelope::<()>::failure(
        envelope::NOT_FOUND,
        "this is a team server: it gives no platform token; sign in at POST /team/v1/session \
         and send the session's token as the bearer",
        "team server",
    );
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

/// A sign-in, good or not, in the audit log (the address in its request; never a password).
async fn record_sign_in(
    team: &Team,
    name: &str,
    address: &str,
    signed: &Result<crate::sessions::SignedIn, SessionError>,
) {
    let (person, role, branch, outcome, message) = match signed {
        Ok(s) => {
            let p = &s.caller.person;
            let branch = p.branch.as_ref().map(|b| b.code.clone());
            (p.name.clone(), p.role.clone(), branch, "done", None)
        }
        Err(SessionError::Team(_)) => return,
        Err(e) => (
            name.trim().to_lowercase(),
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
        ..Record::default()
    };
    team.append(record).await;
}
