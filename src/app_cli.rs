//! `app list|rotate|revoke` and `app tokens revoke`: the applications of a platform, on its
//! data directory or its PostgreSQL database, while a server runs on it or not.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use license_desk::platform::apps::{self, AppSummary, Change};
use license_desk::platform::error::OpError;
use license_desk::platform::sql::Tx;
use license_desk::platform::{self, pg::DatabaseUrl};
use serde_json::json;

use crate::platform_cli::{AppCommand, command_runtime, default_data_dir, parse_database};
use license_desk::clock::now_ms;

/// Where the platform's applications are.
#[derive(Args)]
pub(crate) struct Place {
    /// Data directory of the platform [default: as for serve]
    #[arg(long)]
    data: Option<PathBuf>,
    /// The platform's PostgreSQL database instead (as for serve)
    #[arg(long, value_name = "URL", value_parser = parse_database, conflicts_with = "data")]
    database: Option<DatabaseUrl>,
}

#[derive(Subcommand)]
pub(crate) enum TokensCommand {
    /// End every token the application holds (within 2 seconds on a running server); its
    /// secret still gets new ones.
    Revoke {
        #[command(flatten)]
        place: Place,
        /// The application's key (ak_…).
        app_key: String,
    },
}

/// The `app` commands of this module; the others are the caller's.
pub(crate) fn run(command: AppCommand) -> Result<(), String> {
    let line = match command {
        AppCommand::List { place } => {
            let listed = on(&place, |tx| Ok(apps::list(tx)?))?;
            listed.iter().map(list_line).collect::<Vec<_>>().join("\n")
        }
        AppCommand::Rotate { place, app_key } => {
            let key = app_key.trim().to_owned();
            let rotated = on(&place, move |tx| apps::rotate(tx, &key, now_ms()))?;
            let credentials = done(rotated, app_key.trim())?;
            serde_json::to_string(&credentials).map_err(|e| e.to_string())?
        }
        AppCommand::Revoke { place, app_key } => {
            let key = app_key.trim().to_owned();
            done(
                on(&place, move |tx| Ok(apps::revoke(tx, &key, now_ms())?))?,
                &app_key,
            )?;
            json!({"appKey": app_key.trim(), "revoked": true}).to_string()
        }
        AppCommand::Tokens(TokensCommand::Revoke { place, app_key }) => {
            let key = app_key.trim().to_owned();
            let ended = on(&place, move |tx| {
                Ok(apps::revoke_tokens(tx, &key, now_ms())?)
            })?;
            done(ended, &app_key)?;
            json!({"appKey": app_key.trim(), "tokensRevoked": true}).to_string()
        }
        AppCommand::Create { .. } | AppCommand::Quota { .. } => {
            return Err("not a command of app_cli".to_owned());
        }
    };
    if !line.is_empty() {
        println!("{line}");
    }
    Ok(())
}

/// Runs `f` as one write where the applications are.
fn on<T: Send + 'static>(
    place: &Place,
    f: impl FnMut(&dyn Tx) -> Result<T, OpError> + Send + 'static,
) -> Result<T, String> {
    match &place.database {
        Some(database) => {
            command_runtime()?.block_on(platform::write_apps_in_database(database, f))
        }
        None => {
            let data = place.data.clone().map_or_else(default_data_dir, Ok)?;
            platform::write_apps(&data, f)
        }
    }
    .map_err(|e| e.to_string())
}

fn done<T>(change: Change<T>, app_key: &str) -> Result<T, String> {
    match change {
        Change::Done(t) => Ok(t),
        Change::NoSuchApp => Err(format!("no application {:?}", app_key.trim())),
        Change::Revoked => Err(format!(
            "the application {:?} is revoked; create a new one with `app create`",
            app_key.trim()
        )),
    }
}

/// One application as a JSON line, its times in RFC 3339 (UTC).
fn list_line(app: &AppSummary) -> String {
    let time = |ms: i64| {
        jiff::Timestamp::from_millisecond(ms)
            .map(|t| t.to_string())
            .unwrap_or_else(|_| ms.to_string())
    };
    json!({
        "appKey": app.app_key,
        "name": app.name,
        "scopes": app.scopes,
        "createdAt": time(app.created_at),
        "revokedAt": app.revoked_at.map(time),
        "tokensRevokedAt": app.tokens_revoked_at.map(time),
        "quotaNumbersPerMinute": app.quota_numbers_per_minute,
        "quotaNumbersPerDay": app.quota_numbers_per_day,
    })
    .to_string()
}
