//! `license-desk renewals`: what ends in the next days across the profile's whole directory,
//! for the weekly report a sales office schedules (docs/customers.md). One row per asset and
//! product, soonest first; what could not be read is said on standard error.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use license_desk::core::progress::Progress;
use license_desk::core::renewals::{self, Read, ReadState, Stop};

use crate::cli::call::{RunSecret, open_core};
use crate::cli::output::{self, Failure, Format};

/// A whole national directory is read in minutes; a platform that stops answering ends the
/// read long before this.
const READ_PATIENCE: Duration = Duration::from_secs(3 * 3600);

#[derive(Args)]
pub struct RenewalsArgs {
    /// The profile whose directory is read [default: the active one].
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    secret: RunSecret,
    /// Rows that end within this many days from today (in this computer's time zone).
    #[arg(long, value_name = "DAYS", default_value_t = 90,
          value_parser = clap::value_parser!(i64).range(0..=36_600))]
    within: i64,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Also write the rows as a spreadsheet (headers in Chinese and English).
    #[arg(long, value_name = "FILE")]
    xlsx: Option<PathBuf>,
}

/// Exit codes as in the manual's table: 0 every enterprise read (those the platform refused
/// listed on standard error); 1 the read could not start, or stopped before the end (the rows
/// read are printed all the same).
pub fn run(args: RenewalsArgs) -> ExitCode {
    match execute(args) {
        Ok(text) => {
            output::print(&text);
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn execute(args: RenewalsArgs) -> Result<String, Failure> {
    let (core, profile) = open_core(args.profile, args.secret.secret_file.as_deref())?;
    let request = renewals::ReadAll {
        profile: profile.name.clone(),
        progress: Progress::default(),
    };
    let read = core.run(request, READ_PATIENCE)?;
    let now = jiff::Zoned::now();
    let due = read.due_within(now.date(), now.time_zone(), args.within);
    if let Some(path) = &args.xlsx {
        renewals::write_xlsx(&due, path).map_err(Failure::failed)?;
    }
    let text = match args.format {
        Format::Csv => renewals::csv_text(&due, false).trim_end().to_owned(),
        format => output::render(output::json_text(&due)?, format).map_err(Failure::failed)?,
    };
    tell_unread(&read);
    match &read.stop {
        None => Ok(text),
        Some(stop) => {
            output::print(&text);
            let (done, all) = read.read_count();
            Err(Failure::failed(format!(
                "{}; {done} of {all} enterprises read, the rows above are theirs",
                stopped(stop)
            )))
        }
    }
}

/// Each enterprise the platform refused, on standard error.
fn tell_unread(read: &Read) {
    for e in &read.enterprises {
        if let ReadState::Refused { code, message } = &e.state {
            eprintln!(
                "warning: {} was not read: the platform refused: {code}: {message}",
                e.global_id
            );
        }
    }
}

fn stopped(stop: &Stop) -> String {
    let at = |ms: i64| {
        jiff::Timestamp::from_millisecond(ms)
            .map(|t| {
                t.to_zoned(jiff::tz::TimeZone::system())
                    .strftime("%H:%M")
                    .to_string()
            })
            .unwrap_or_default()
    };
    match stop {
        Stop::Cancelled { at: when } => format!("the read was cancelled at {}", at(*when)),
        Stop::NoAnswer { at: when, why } => format!(
            "read until {}, then the platform stopped answering ({why})",
            at(*when)
        ),
    }
}
