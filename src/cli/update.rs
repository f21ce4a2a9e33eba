//! `license-desk update check|download|apply|trust-key`: a newer release from the profile's team
//! server, downloaded and checked against the release key this console pinned (docs/team.md,
//! "Rolling out").

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use license_desk::core::update::{
    ApplyUpdate, CheckUpdate, DownloadUpdate, Installed, TrustReleaseKey,
};

use crate::cli::call::{RunSecret, open_core};
use crate::cli::output::{self, Failure};

#[derive(Args)]
pub struct UpdateArgs {
    /// The team server's profile [default: the active one].
    #[arg(long, global = true)]
    profile: Option<String>,
    #[command(flatten)]
    secret: RunSecret,
    #[command(subcommand)]
    op: UpdateOp,
}

#[derive(Subcommand)]
enum UpdateOp {
    /// Is a newer release offered? JSON: current, available (with its notes), the trusted
    /// key's fingerprint, and whether it was pinned now (the first check of a server).
    Check,
    /// Download the newer release into DIR, checked against the pinned key before it is kept:
    /// a file that fails is deleted (exit 1). Prints where it is.
    Download {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Install the newer release, downloaded and checked as `download` does (a file downloaded
    /// before is checked again and used): on Windows its installer runs silently for this user
    /// over the installed copy; on Debian and Ubuntu the package needs root, and the command
    /// that installs it is printed.
    Apply {
        /// Start the new console window once installed (Windows).
        #[arg(long)]
        start: bool,
    },
    /// Trust the team server's new release key (after the company changed it): give the
    /// fingerprint the company announced; it must be the one the server offers.
    TrustKey {
        #[arg(long, value_name = "SHA256:…")]
        fingerprint: String,
    },
}

/// How long a download may take in all (each wait has the profile's own limit).
const DOWNLOAD: Duration = Duration::from_secs(6 * 3600);
const ASK: Duration = Duration::from_secs(120);

pub fn run(args: UpdateArgs) -> ExitCode {
    match execute(args) {
        Ok(text) => {
            output::print(&text);
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn execute(args: UpdateArgs) -> Result<String, Failure> {
    let (core, profile) = open_core(args.profile, args.secret.secret_file.as_deref())?;
    let profile = profile.name;
    let done = match args.op {
        UpdateOp::Check => {
            let check = core.run(CheckUpdate { profile }, ASK)?;
            output::json_text(&check).map_err(Failure::failed)?
        }
        UpdateOp::Download { out } => {
            let progress = Default::default();
            let request = DownloadUpdate {
                profile,
                out_dir: Some(out),
                progress,
            };
            core.run(request, DOWNLOAD)?.display().to_string()
        }
        UpdateOp::Apply { start } => {
            let request = ApplyUpdate {
                profile,
                progress: Default::default(),
            };
            let installed = core.run(request, DOWNLOAD)?;
            // Started once this run's core has closed its files, detached from this terminal.
            core.shutdown();
            if let (true, Installed::Program { program, .. }) = (start, &installed) {
                start_program(program)?;
            }
            return Ok(installed_words(&installed));
        }
        UpdateOp::TrustKey { fingerprint } => {
            let trusted = core.run(
                TrustReleaseKey {
                    profile,
                    fingerprint,
                },
                ASK,
            )?;
            format!("trusted {trusted}")
        }
    };
    core.shutdown();
    Ok(done)
}

fn start_program(program: &std::path::Path) -> Result<(), Failure> {
    std::process::Command::new(program)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| Failure::failed(format!("{}: {e}", program.display())))
}

/// What `apply` did, in words.
fn installed_words(installed: &Installed) -> String {
    match installed {
        Installed::Program {
            version, program, ..
        } => format!("installed License Desk {version}: {}", program.display()),
        Installed::Command {
            version, command, ..
        } => format!(
            "License Desk {version} is downloaded and checked against the pinned key. A \
             package needs root: install it with\n{command}"
        ),
    }
}
