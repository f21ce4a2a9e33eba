//! `license-desk backup create|restore`: this computer's License Desk in one file, and that
//! file restored on another (docs/manual.md, "Moving to another computer").

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use license_desk::core::CoreOptions;
use license_desk::core::backup::{self, Places};

use crate::cli::output::{self, Failure};

#[derive(Subcommand)]
pub(crate) enum BackupCommand {
    /// Everything but secrets and sessions in one file: profiles, drafts, catalog and
    /// directories, the send-later queue, the journal and ledger, settings, the window's
    /// state. Prints the manifest (JSON).
    Create { file: PathBuf },
    /// Restore a backup made on another computer (close the console first): every part is
    /// checked before anything is written. Prints what was restored and what to enter again.
    Restore {
        file: PathBuf,
        /// Replace the data already here, which is kept beside it.
        #[arg(long)]
        force: bool,
    },
}

pub(crate) fn run(command: BackupCommand) -> ExitCode {
    match execute(command) {
        Ok(text) => {
            output::print(&text);
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn execute(command: BackupCommand) -> Result<String, Failure> {
    let options = CoreOptions::for_user()?;
    let places = Places {
        config_dir: options.config_dir,
        data_dir: options.data_dir,
        window_dir: eframe::storage_dir("license-desk"),
    };
    let text = match command {
        BackupCommand::Create { file } => {
            let manifest = backup::create(&places, &file).map_err(Failure::failed)?;
            output::json_text(&manifest)
        }
        BackupCommand::Restore { file, force } => {
            let restored = backup::restore(&places, &file, force).map_err(Failure::failed)?;
            output::json_text(&restored)
        }
    };
    text.map_err(Failure::failed)
}
