//! A team server's releases (`wire::release`): the key it trusts, the newest release for a
//! target, and a release's file downloaded, resumed from what an earlier attempt left. What is
//! downloaded is not trusted here: the console checks it against the key it pinned.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use reqwest::{Method, StatusCode, header};
use wire::release::{self, Release, ReleaseKeyInfo, Target};

use super::decode::decode_order;
use super::{ApiError, Client};

/// The server's cause when it has no such release, or distributes none.
const NO_RELEASE: &str = "no_release";

impl Client {
    /// The key the team trusts for its releases; none when it has not set one.
    pub async fn release_key(&self) -> Result<Option<ReleaseKeyInfo>, ApiError> {
        let token = self.session().await?;
        let url = self.url(release::KEY);
        none_if_absent(
            self.team_call(Method::GET, url, Some(&token), None, decode_order)
                .await,
        )
    }

    /// The newest release for `target` the server offers, if any.
    pub async fn latest_release(&self, target: Target) -> Result<Option<Release>, ApiError> {
        let token = self.session().await?;
        let url = self.url(release::LATEST);
        let url = reqwest::Url::parse_with_params(url.as_str(), &[("target", target.as_ref())])
            .map_err(|e| ApiError::Config(format!("the release's address: {e}")))?;
        none_if_absent(
            self.team_call(Method::GET, url, Some(&token), None, decode_order)
                .await,
        )
    }

    /// `release`'s file into `partial`, from where an earlier attempt left it (a byte range);
    /// `progress` is told the bytes there are and the whole size as they come. Each wait (the
    /// answer, each chunk) has the attempt's time limit, not the whole download.
    pub async fn download_release(
        &self,
        release: &Release,
        partial: &Path,
        progress: &(dyn Fn(u64, u64) + Send + Sync),
    ) -> Result<(), ApiError> {
        let written = |e: std::io::Error| {
            ApiError::Config(format!("cannot write {}: {e}", partial.display()))
        };
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(partial)
            .map_err(written)?;
        let mut have = file.metadata().map_err(written)?.len();
        if have > release.size {
            have = 0;
        }
        let limit = self.config.limits.attempt(false);
        let Some((mut answer, from)) = self.release_answer(release, have, limit).await? else {
            return Ok(());
        };
        have = from;
        file.set_len(have).map_err(written)?;
        file.seek(SeekFrom::Start(have)).map_err(written)?;
        progress(have, release.size);
        loop {
            let chunk = tokio::time::timeout(limit, answer.chunk())
                .await
                .map_err(|_| ApiError::Timeout(limit.as_secs()))?
                .map_err(|e| ApiError::cut(e, 200, limit.as_secs()))?;
            let Some(chunk) = chunk else {
                break;
            };
            have += chunk.len() as u64;
            // Never more than the release's size: a server cannot fill the disk.
            if have > release.size {
                return Err(ApiError::Unexpected {
                    http_status: 206,
                    detail: format!("more than the release's {} bytes", release.size),
                });
            }
            file.write_all(&chunk).map_err(written)?;
            progress(have, release.size);
        }
        file.sync_all().map_err(written)
    }

    /// The answer to a request for `release`'s file from byte `have`, and where its body
    /// starts (0 when the server sends it whole); none when it is all here already.
    async fn release_answer(
        &self,
        release: &Release,
        have: u64,
        limit: std::time::Duration,
    ) -> Result<Option<(reqwest::Response, u64)>, ApiError> {
        let token = self.session().await?;
        let url = self.url(&release::file_path(release.target, &release.version));
        let mut asked = self
            .http
            .request(Method::GET, url)
            .bearer_auth(token.token.expose());
        if have > 0 {
            asked = asked.header(header::RANGE, format!("bytes={have}-"));
        }
        let answer = tokio::time::timeout(limit, asked.send())
            .await
            .map_err(|_| ApiError::Timeout(limit.as_secs()))?
            .map_err(|e| ApiError::transport(e, limit.as_secs()))?;
        match answer.status() {
            StatusCode::PARTIAL_CONTENT if range_start(&answer) == Some(have) => {
                Ok(Some((answer, have)))
            }
            StatusCode::PARTIAL_CONTENT => Err(ApiError::Unexpected {
                http_status: 206,
                detail: format!("a range that does not start at byte {have}"),
            }),
            // The whole file: what was there is written over.
            StatusCode::OK => Ok(Some((answer, 0))),
            // Asked from its end: it is all here already.
            StatusCode::RANGE_NOT_SATISFIABLE if have == release.size => Ok(None),
            status => {
                let bytes = answer.bytes().await.unwrap_or_default();
                Err(decode_order::<serde_json::Value>(status.as_u16(), &bytes)
                    .err()
                    .unwrap_or_else(|| ApiError::Unexpected {
                        http_status: status.as_u16(),
                        detail: "not the release's file".to_owned(),
                    }))
            }
        }
    }
}

/// Where a 206's `Content-Range: bytes START-END/SIZE` starts.
fn range_start(answer: &reqwest::Response) -> Option<u64> {
    let range = answer.headers().get(header::CONTENT_RANGE)?.to_str().ok()?;
    let (start, _) = range.strip_prefix("bytes ")?.split_once('-')?;
    start.parse().ok()
}

/// The server's "no such release" as nothing, anything else as it is.
fn none_if_absent<T>(answer: Result<T, ApiError>) -> Result<Option<T>, ApiError> {
    match answer {
        Ok(found) => Ok(Some(found)),
        Err(ApiError::Platform {
            cause: Some(cause), ..
        }) if cause == NO_RELEASE => Ok(None),
        Err(e) => Err(e),
    }
}
