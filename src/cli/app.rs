//! `app create|quota|list|rotate|revoke` and `app tokens revoke`: the applications of a
//! platform, on its data directory or its PostgreSQL database, while a server runs on it or
//! not.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use platform::apps::{self, AppSummary, Change};
use platform::error::OpError;
use platform::sql::Tx;
use platform::{self, pg::DatabaseUrl};
use serde_json::json;

use crate::cli::output::Failure;
use crate::cli::serve::{command_runtime, default_data_dir, parse_database};
use support::clock::now_ms;

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
pub(crate) enum AppCommand {
    /// Register an application and print its {"appKey","appSecret"}; the secret is shown once.
    Create {
        /// Data directory of the platform [default: as for serve]
        #[arg(long)]
        data: Option<PathBuf>,
        /// The platform's PostgreSQL database instead (as for serve)
        #[arg(long, value_name = "URL", value_parser = parse_database, conflicts_with = "data")]
        database: Option<platform::pg::DatabaseUrl>,
        /// Name of the application.
        #[arg(long)]
        name: String,
        /// Comma-separated scopes: auth_order, auth_activity.
        #[arg(long)]
        scopes: String,
        #[command(flatten)]
        quota: QuotaArgs,
    },
    /// Show or change an application's own quotas on asset numbers (operation 9), and print
    /// them as {"appKey","quotaNumbersPerMinute","quotaNumbersPerDay"}; null is the platform's
    /// default. Works while a server runs on the data directory; its next call is judged by
    /// the new quotas.
    Quota {
        /// Data directory of the platform [default: as for serve]
        #[arg(long)]
        data: Option<PathBuf>,
        /// The platform's PostgreSQL database instead (as for serve)
        #[arg(long, value_name = "URL", value_parser = parse_database, conflicts_with = "data")]
        database: Option<platform::pg::DatabaseUrl>,
        /// The application's key (ak_…).
        app_key: String,
        #[command(flatten)]
        quota: QuotaArgs,
    },
    /// List the applications, one JSON object a line: key, name, scopes, when created, whether
    /// revoked, quotas. Never a secret.
    List {
        #[command(flatten)]
        place: Place,
    },
    /// Give an application a new secret and print {"appKey","appSecret"}: the old secret stops
    /// at once and the tokens issued with it end (within 2 seconds on a running server).
    Rotate {
        #[command(flatten)]
        place: Place,
        /// The application's key (ak_…).
        app_key: String,
    },
    /// Revoke an application for good: its secret gets no token and its tokens end (within 2
    /// seconds on a running server). Its orders stay.
    Revoke {
        #[command(flatten)]
        place: Place,
        /// The application's key (ak_…).
        app_key: String,
    },
    /// An application's tokens.
    #[command(subcommand)]
    Tokens(TokensCommand),
}

/// One application's quotas on asset numbers; absent: the platform's default (create) or
/// unchanged (quota).
#[derive(Args)]
pub(crate) struct QuotaArgs {
    /// Asset numbers the application may take in a clock minute, or `default` for the
    /// platform's (serve --quota-numbers-per-minute).
    #[arg(long, value_name = "N|default", value_parser = parse_quota)]
    quota_numbers_per_minute: Option<QuotaValue>,
    /// Asset numbers the application may take in a UTC day, or `default` for the platform's
    /// (serve --quota-numbers-per-day).
    #[arg(long, value_name = "N|default", value_parser = parse_quota)]
    quota_numbers_per_day: Option<QuotaValue>,
}

impl QuotaArgs {
    fn change(&self) -> platform::QuotaChange {
        platform::QuotaChange {
            numbers_per_minute: self.quota_numbers_per_minute.map(|q| q.0),
            numbers_per_day: self.quota_numbers_per_day.map(|q| q.0),
        }
    }
}

/// A quota as given on the command line: a number, or `None` for the platform's default.
#[derive(Clone, Copy)]
struct QuotaValue(Option<u32>);

fn parse_quota(s: &str) -> Result<QuotaValue, String> {
    if s == "default" {
        return Ok(QuotaValue(None));
    }
    s.parse::<u32>().map(|n| QuotaValue(Some(n))).map_err(|_| {
        format!(
            "{s:?}: a quota is a whole number of asset numbers (0 to {}) or `default`",
            u32::MAX
        )
    })
}

/// `app create|quota|list|rotate|revoke|tokens`.
pub(crate) fn run_app(command: AppCommand) -> Result<(), Failure> {
    match command {
        AppCommand::Create {
            data,
            database,
            name,
            scopes,
            quota,
        } => app_create(data, database, &name, &scopes, &quota),
        AppCommand::Quota {
            data,
            database,
            app_key,
            quota,
        } => app_quota(data, database, &app_key, &quota),
        AppCommand::List { place } => app_list(&place),
        AppCommand::Rotate { place, app_key } => app_rotate(&place, app_key.trim()),
        AppCommand::Revoke { place, app_key } => app_revoke(&place, app_key.trim()),
        AppCommand::Tokens(TokensCommand::Revoke { place, app_key }) => {
            tokens_revoke(&place, app_key.trim())
        }
    }
}

fn app_create(
    data: Option<PathBuf>,
    database: Option<platform::pg::DatabaseUrl>,
    name: &str,
    scopes: &str,
    quota: &QuotaArgs,
) -> Result<(), Failure> {
    let scopes = platform::apps::parse_scopes(scopes)?;
    if name.trim().is_empty() {
        return Err("--name must not be blank".to_owned().into());
    }
    let own = quota.change().apply(platform::OwnQuota::default());
    let created = match database {
        Some(database) => command_runtime()?.block_on(platform::create_app_in_database(
            &database,
            name.trim(),
            &scopes,
            own,
        )),
        None => {
            let data = data.map_or_else(default_data_dir, Ok)?;
            platform::create_app_with_quota(&data, name.trim(), &scopes, own)
        }
    }?;
    let line = serde_json::to_string(&created)?;
    println!("{line}");
    Ok(())
}

fn app_quota(
    data: Option<PathBuf>,
    database: Option<platform::pg::DatabaseUrl>,
    app_key: &str,
    quota: &QuotaArgs,
) -> Result<(), Failure> {
    let (changed, place) = match database {
        Some(database) => (
            command_runtime()?.block_on(platform::change_app_quota_in_database(
                &database,
                app_key.trim(),
                quota.change(),
            )),
            database.to_string(),
        ),
        None => {
            let data = data.map_or_else(default_data_dir, Ok)?;
            if !data.join(platform::store::DB_FILE).exists() {
                return Err(format!("{} holds no platform", data.display()).into());
            }
            (
                platform::change_app_quota(&data, app_key.trim(), quota.change()),
                data.display().to_string(),
            )
        }
    };
    let own = changed?.ok_or_else(|| format!("no application {app_key:?} in {place}"))?;
    let line = serde_json::json!({
        "appKey": app_key.trim(),
        "quotaNumbersPerMinute": own.quota_numbers_per_minute,
        "quotaNumbersPerDay": own.quota_numbers_per_day,
    });
    println!("{line}");
    Ok(())
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

fn app_list(place: &Place) -> Result<(), Failure> {
    for app in on(place, |tx| Ok(apps::list(tx)?))? {
        println!("{}", list_line(&app));
    }
    Ok(())
}

fn app_rotate(place: &Place, app_key: &str) -> Result<(), Failure> {
    let key = app_key.to_owned();
    let rotated = done(
        on(place, move |tx| apps::rotate(tx, &key, now_ms()))?,
        app_key,
    )?;
    println!("{}", serde_json::to_string(&rotated)?);
    Ok(())
}

fn app_revoke(place: &Place, app_key: &str) -> Result<(), Failure> {
    let key = app_key.to_owned();
    done(
        on(place, move |tx| Ok(apps::revoke(tx, &key, now_ms())?))?,
        app_key,
    )?;
    println!("{}", json!({"appKey": app_key, "revoked": true}));
    Ok(())
}

fn tokens_revoke(place: &Place, app_key: &str) -> Result<(), Failure> {
    let key = app_key.to_owned();
    let ended = on(place, move |tx| {
        Ok(apps::revoke_tokens(tx, &key, now_ms())?)
    })?;
    done(ended, app_key)?;
    println!("{}", json!({"appKey": app_key, "tokensRevoked": true}));
    Ok(())
}

/// Runs `f` as one write where the applications are.
fn on<T: Send + 'static>(
    place: &Place,
    f: impl FnMut(&dyn Tx) -> Result<T, OpError> + Send + 'static,
) -> Result<T, Failure> {
    let changed = match &place.database {
        Some(database) => {
            command_runtime()?.block_on(platform::write_apps_in_database(database, f))
        }
        None => {
            let data = place.data.clone().map_or_else(default_data_dir, Ok)?;
            platform::write_apps(&data, f)
        }
    };
    Ok(changed?)
}

fn done<T>(change: Change<T>, app_key: &str) -> Result<T, Failure> {
    match change {
        Change::Done(t) => Ok(t),
        Change::NoSuchApp => Err(format!("no application {app_key:?}").into()),
        Change::Revoked => Err(format!(
            "the application {app_key:?} is revoked; create a new one with `app create`"
        )
        .into()),
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
