//! A team server's own calls (`wire::team`, `wire::approval`): sign in, who am I, the audit
//! log, requests and their decisions, sign out. The platform's
//! operations go through it as through a platform, with the session as the bearer.
//!
//! Neither the password nor the session's token is journaled: the journal never sees these
//! calls, and the server's audit log records the sign-ins.

use reqwest::{Method, header};
use serde::de::DeserializeOwned;
use support::clock::now_ms;
use wire::approval::{self, Approve, Reject, Request, RequestQuery};
use wire::handover::{self, HandOver, Handed};
use wire::knowledge::{self, Changes, Put};
use wire::team::{AuditEntry, AuditQuery, Events, Me, Session, SignIn, paths};

use super::decode::{decode_order, decode_order_done};
use super::{ApiError, CachedToken, Client, Decode, session_token};

impl Client {
    /// Signs `password` in as the profile's person; the session becomes the bearer of every
    /// call, and is handed to the observer to keep (`token_issued`).
    pub async fn sign_in(&self, password: &str) -> Result<Me, ApiError> {
        let body = serde_json::to_vec(&SignIn {
            name: self.config.app_key.clone(),
            password: password.to_owned(),
        })
        .map_err(|e| ApiError::Config(format!("cannot encode the sign-in: {e}")))?;
        let session: Session = self
            .team_call(
                Method::POST,
                self.url(paths::SESSION),
                None,
                Some(body),
                decode_order,
            )
            .await?;
        let token = CachedToken {
            token: super::Secret::new(session.token),
            expires_at_ms: session.expires_at,
            scope: String::new(),
        };
        self.observer.token_issued(&token);
        *self.token.lock().await = Some(token);
        Ok(session.me)
    }

    /// The person signed in and their permissions, as the server has them now.
    pub async fn me(&self) -> Result<Me, ApiError> {
        let token = self.session().await?;
        self.team_call(
            Method::GET,
            self.url(paths::ME),
            Some(&token),
            None,
            decode_order,
        )
        .await
    }

    /// The audit log's latest entries the person may see, newest first.
    pub async fn audit(&self, query: &AuditQuery) -> Result<Vec<AuditEntry>, ApiError> {
        let token = self.session().await?;
        let mut pairs = Vec::new();
        if let Some(person) = &query.person {
            pairs.push(("person", person.clone()));
        }
        if let Some(before) = query.before {
            pairs.push(("before", before.to_string()));
        }
        if let Some(limit) = query.limit {
            pairs.push(("limit", limit.to_string()));
        }
        let url = self.url(paths::AUDIT);
        let url = reqwest::Url::parse_with_params(url.as_str(), &pairs)
            .map_err(|e| ApiError::Config(format!("the audit's address: {e}")))?;
        self.team_call(Method::GET, url, Some(&token), None, decode_order)
            .await
    }

    /// Requests that wait for a second person, newest first: everyone's for an approver, else
    /// one's own.
    pub async fn requests(&self, query: &RequestQuery) -> Result<Vec<Request>, ApiError> {
        let token = self.session().await?;
        let mut pairs = Vec::new();
        if query.mine {
            pairs.push(("mine", "true".to_owned()));
        }
        if let Some(state) = query.state {
            pairs.push(("state", state.name().to_owned()));
        }
        if let Some(limit) = query.limit {
            pairs.push(("limit", limit.to_string()));
        }
        if let Some(before) = query.before {
            pairs.push(("before", before.to_string()));
        }
        let url = self.url(approval::paths::REQUESTS);
        let url = reqwest::Url::parse_with_params(url.as_str(), &pairs)
            .map_err(|e| ApiError::Config(format!("the requests' address: {e}")))?;
        self.team_call(Method::GET, url, Some(&token), None, decode_order)
            .await
    }

    /// Waits until the server's requests change from `after` (a cursor it answered before;
    /// none answers at once), at most a little less than this profile's attempt limit; answers
    /// the cursor now.
    pub async fn events(&self, after: Option<&str>) -> Result<String, ApiError> {
        let token = self.session().await?;
        let limit = self.config.limits.attempt(false).as_secs();
        // Answered before the attempt's own limit cuts it: a wait out is no failure.
        let wait = limit.saturating_sub(5).min(25);
        let mut pairs = vec![("wait", wait.to_string())];
        if let Some(after) = after {
            pairs.push(("after", after.to_owned()));
        }
        let url = self.url(paths::EVENTS);
        let url = reqwest::Url::parse_with_params(url.as_str(), &pairs)
            .map_err(|e| ApiError::Config(format!("the events' address: {e}")))?;
        let events: Events = self
            .team_call(Method::GET, url, Some(&token), None, decode_order)
            .await?;
        Ok(events.cursor)
    }

    /// One request, with what it does and what became of it.
    pub async fn request(&self, id: i64) -> Result<Request, ApiError> {
        let token = self.session().await?;
        let url = self.url(&approval::paths::of(approval::paths::REQUEST, id));
        self.team_call(Method::GET, url, Some(&token), None, decode_order)
            .await
    }

    /// Approves a request as seen (its body's hash); the server then sends it once. An
    /// answer lost on the way back leaves the request's state to say what happened: it is
    /// never approved again by itself.
    pub async fn approve(&self, id: i64, body_hash: &str) -> Result<Request, ApiError> {
        let body = Approve {
            body_hash: body_hash.to_owned(),
        };
        self.decide(approval::paths::APPROVE, id, &body).await
    }

    /// Rejects a request, saying why to its requester.
    pub async fn reject(&self, id: i64, reason: &str) -> Result<Request, ApiError> {
        let body = Reject {
            reason: reason.to_owned(),
        };
        self.decide(approval::paths::REJECT, id, &body).await
    }

    async fn decide(
        &self,
        path: &str,
        id: i64,
        body: &impl serde::Serialize,
    ) -> Result<Request, ApiError> {
        let token = self.session().await?;
        let body = serde_json::to_vec(body)
            .map_err(|e| ApiError::Config(format!("cannot encode the decision: {e}")))?;
        let url = self.url(&approval::paths::of(path, id));
        self.team_call(Method::POST, url, Some(&token), Some(body), decode_order)
            .await
    }

    /// The team's catalog and directory as the changes after `since`.
    pub async fn knowledge(&self, since: i64) -> Result<Changes, ApiError> {
        let token = self.session().await?;
        let url = self.url(knowledge::PATH);
        let url = reqwest::Url::parse_with_params(url.as_str(), &[("since", since.to_string())])
            .map_err(|e| ApiError::Config(format!("the knowledge's address: {e}")))?;
        self.team_call(Method::GET, url, Some(&token), None, decode_order)
            .await
    }

    /// Writes items of the team's catalog or directory; answers the last change's number.
    pub async fn put_knowledge(&self, puts: &[Put]) -> Result<i64, ApiError> {
        #[derive(serde::Deserialize)]
        struct Written {
            last: i64,
        }
        let token = self.session().await?;
        let body = serde_json::to_vec(puts)
            .map_err(|e| ApiError::Config(format!("cannot encode the items: {e}")))?;
        let url = self.url(knowledge::PATH);
        let written: Written = self
            .team_call(Method::POST, url, Some(&token), Some(body), decode_order)
            .await?;
        Ok(written.last)
    }

    /// Hands a draft over to a colleague or to the approvers.
    pub async fn hand_over(&self, draft: &HandOver) -> Result<Handed, ApiError> {
        let token = self.session().await?;
        let body = serde_json::to_vec(draft)
            .map_err(|e| ApiError::Config(format!("cannot encode the draft: {e}")))?;
        let url = self.url(handover::PATH);
        self.team_call(Method::POST, url, Some(&token), Some(body), decode_order)
            .await
    }

    /// The drafts handed to the person and by them, newest first (without their text).
    pub async fn handed(&self) -> Result<Vec<Handed>, ApiError> {
        let token = self.session().await?;
        let url = self.url(handover::PATH);
        self.team_call(Method::GET, url, Some(&token), None, decode_order)
            .await
    }

    /// One handed draft, its text included.
    pub async fn handed_draft(&self, id: i64) -> Result<Handed, ApiError> {
        let token = self.session().await?;
        let url = self.url(&handover::one(id));
        self.team_call(Method::GET, url, Some(&token), None, decode_order)
            .await
    }

    /// Takes a handed draft off the server.
    pub async fn take_draft(&self, id: i64) -> Result<(), ApiError> {
        let token = self.session().await?;
        let url = self.url(&handover::one(id));
        self.team_call(Method::DELETE, url, Some(&token), None, decode_order_done)
            .await
    }

    /// Ends the session on the server and forgets it here, whatever the server answers.
    pub async fn sign_out(&self) -> Result<(), ApiError> {
        let token = self.session().await;
        *self.token.lock().await = None;
        let token = token?;
        self.team_call(
            Method::DELETE,
            self.url(paths::SESSION),
            Some(&token),
            None,
            decode_order_done,
        )
        .await
    }

    pub(super) async fn session(&self) -> Result<CachedToken, ApiError> {
        session_token(self.token.lock().await.as_ref(), now_ms())
    }

    /// One attempt: these calls change nothing on the platform, and a person retries a
    /// sign-in themselves.
    pub(super) async fn team_call<T: DeserializeOwned>(
        &self,
        method: Method,
        url: reqwest::Url,
        bearer: Option<&CachedToken>,
        body: Option<Vec<u8>>,
        decode: Decode<T>,
    ) -> Result<T, ApiError> {
        if !self.config.session {
            return Err(ApiError::Config(
                "this profile's server is a platform, not a team server".to_owned(),
            ));
        }
        // An approval sends the request's batch before it answers.
        let timeout = self.config.limits.attempt(method == Method::POST);
        let mut builder = self.http.request(method, url).timeout(timeout);
        if let Some(token) = bearer {
            builder = builder.bearer_auth(token.token.expose());
        }
        if let Some(body) = body {
            builder = builder
                .header(header::CONTENT_TYPE, "application/json")
                .body(body);
        }
        let answer = builder
            .send()
            .await
            .map_err(|e| ApiError::transport(e, timeout.as_secs()))?;
        let status = answer.status().as_u16();
        let bytes = answer
            .bytes()
            .await
            .map_err(|e| ApiError::cut(e, status, timeout.as_secs()))?;
        decode(status, &bytes)
    }
}

/// How a "not sent" a team server said begins: the server was reached, the platform behind
/// it (or its own record) was not.
pub const TEAM_SAYS: &str = "the team server says: ";

/// A team server's own answers in the client's terms: "not sent" is nothing sent (and may be
/// sent again), and its HTTP 504 "outcome unknown" is said in its words, not as an answer of no
/// known shape.
pub(super) fn own_words(e: ApiError, bytes: &[u8]) -> ApiError {
    match e {
        ApiError::Platform {
            cause: Some(cause),
            message,
            ..
        } if cause == wire::team::NOT_SENT_CAUSE => {
            let why = message.strip_prefix("not sent: ").unwrap_or(&message);
            ApiError::NotSent(format!("{TEAM_SAYS}{why}"))
        }
        ApiError::Unexpected {
            http_status: 504, ..
        } => match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(said) if said["outcome"] == "unknown" => ApiError::Unexpected {
                http_status: 504,
                detail: format!(
                    "the team server could not learn the outcome: {}",
                    said["message"].as_str().unwrap_or_default()
                ),
            },
            _ => e,
        },
        e => e,
    }
}
