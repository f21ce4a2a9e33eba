//! `/team/v1/releases`: the console's releases this server distributes (issue 58), to people
//! signed in. The file is served as it was published, byte ranges and all (a download that
//! broke off resumes); the console checks it against the key it pinned before it runs it.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, Request, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeFile;
use wire::release::{ReleaseKeyInfo, Target};

use super::Team;
use super::answer::{Fail, order_ok};
use crate::TeamError;
use crate::releases::ReleaseError;
use crate::settings;

type Shared = State<Arc<Team>>;

pub async fn key(State(team): Shared, headers: HeaderMap) -> Response {
    let key = async {
        team.caller(&headers).await?;
        let key = settings::release_key(&team.store)
            .await?
            .ok_or(TeamError::Release(ReleaseError::NoKey))?;
        Ok::<_, Fail>(ReleaseKeyInfo {
            public_key: key.to_base64(),
            key_id: key.key_id(),
            fingerprint: key.fingerprint(),
        })
    }
    .await;
    match key {
        Ok(key) => order_ok(key),
        Err(fail) => fail.order(),
    }
}

pub async fn latest(
    State(team): Shared,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let latest = async {
        team.caller(&headers).await?;
        let target = target_of(query.as_deref().unwrap_or_default())?;
        let shelf = shelf(&team)?;
        let found = tokio::task::spawn_blocking(move || shelf.latest(target))
            .await
            .map_err(|e| Fail::Team(TeamError::Invalid(e.to_string())))?;
        found
            .map_err(TeamError::from)?
            .ok_or_else(|| Fail::Team(ReleaseError::NoneFor(target).into()))
    }
    .await;
    match latest {
        Ok(release) => order_ok(release),
        Err(fail) => fail.order(),
    }
}

pub async fn file(
    State(team): Shared,
    Path((target, version)): Path<(String, String)>,
    request: Request,
) -> Response {
    // The request's body is not Sync: its headers are awaited on apart.
    let headers = request.headers().clone();
    let found = async {
        team.caller(&headers).await?;
        let target = Target::parse(&target).map_err(|e| Fail::BadBody(format!("target: {e}")))?;
        Ok::<_, Fail>(
            shelf(&team)?
                .file(target, &version)
                .map_err(TeamError::from)?,
        )
    }
    .await;
    match found {
        // ServeFile answers ranges, If-Range and HEAD; its error type is Infallible.
        Ok((release, path)) => match ServeFile::new(path).oneshot(request).await {
            Ok(served) => {
                let mut response = served.into_response();
                let name = format!("attachment; filename=\"{}\"", release.file_name);
                if let Ok(value) = name.parse() {
                    response
                        .headers_mut()
                        .insert(axum::http::header::CONTENT_DISPOSITION, value);
                }
                response
            }
            Err(never) => match never {},
        },
        Err(fail) => fail.order(),
    }
}

fn shelf(team: &Team) -> Result<crate::releases::Shelf, Fail> {
    team.releases
        .clone()
        .ok_or(Fail::Team(TeamError::Release(ReleaseError::NotDistributed)))
}

/// `?target=T`, required.
fn target_of(query: &str) -> Result<Target, Fail> {
    let given = form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "target")
        .map(|(_, v)| v.into_owned())
        .ok_or_else(|| {
            Fail::BadBody("target: missing (windows-x86_64 or linux-x86_64)".to_owned())
        })?;
    Target::parse(&given).map_err(|e| Fail::BadBody(format!("target: {e}")))
}
