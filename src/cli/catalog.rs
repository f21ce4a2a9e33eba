//! `license-desk catalog`: the catalog and the directories from the command line, through the
//! console's core (the same files and rules as the window).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Subcommand, ValueEnum};
use license_desk::core::catalog::store::Import;
use license_desk::core::catalog::{self, Exported};
use license_desk::core::catalog::{CatalogView, Known};
use license_desk::core::{Core, CoreError, CoreOptions};
use serde::Serialize;

use crate::cli::output::Failure;

#[derive(Subcommand)]
pub enum CatalogOp {
    /// Print the catalog's products or packages, or a profile's customers, as JSON.
    List {
        #[arg(value_enum, default_value_t = Listed::Products)]
        what: Listed,
        /// Only what this finds (words of names or ids; Chinese names also by pinyin).
        #[arg(long)]
        search: Option<String>,
        /// The profile whose customers are listed [default: the active one].
        #[arg(long)]
        profile: Option<String>,
    },
    /// Add a catalog file's products and packages (and its customers, to the profile's
    /// directory); what is known already is updated, except what the platform said of a
    /// customer. Prints what changed, shelf by shelf.
    Import {
        file: PathBuf,
        #[arg(long)]
        profile: Option<String>,
        /// Only print what the import would change; change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Let the file overwrite what the platform said of a customer (kept otherwise).
        #[arg(long)]
        overwrite_platform: bool,
    },
    /// Write the catalog as a file others can import: the active profile's catalog (its own,
    /// or the shared one); with --profile, that profile's catalog and its customers too.
    Export {
        file: PathBuf,
        #[arg(long)]
        profile: Option<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Listed {
    Products,
    Packages,
    Customers,
}

pub fn run(command: CatalogOp) -> ExitCode {
    match execute(command) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn execute(command: CatalogOp) -> Result<String, Failure> {
    let failed = Failure::failed;
    let core = Core::start(CoreOptions::for_user().map_err(failed)?).map_err(failed)?;
    let json = answer(&core, command);
    core.shutdown();
    json
}

/// Runs the operation on the core and writes its reply as JSON.
fn answer(core: &Core, command: CatalogOp) -> Result<String, Failure> {
    let active = || core.state().profiles.active;
    let wait = Duration::from_secs(300);
    // Each failure exits 1, whatever its kind.
    let failed = |e: CoreError| Failure::failed(e);
    let json = match command {
        CatalogOp::List {
            what,
            search,
            profile,
        } => {
            let profile = profile.unwrap_or_else(active);
            let view = core.run(catalog::Load { profile }, wait).map_err(failed)?;
            listing(&view, what, &search.unwrap_or_default())
        }
        CatalogOp::Import {
            file,
            profile,
            dry_run,
            overwrite_platform,
        } => {
            let import = catalog::ImportFile {
                path: file,
                profile: profile.unwrap_or_else(active),
                import: Import {
                    apply: !dry_run,
                    overwrite: overwrite_platform,
                },
            };
            let report = core.run(import, wait).map_err(failed)?;
            serde_json::to_string_pretty(&serde_json::json!({
                "applied": !dry_run,
                "products": report.products,
                "packages": report.packages,
                "customers": report.customers,
            }))
        }
        CatalogOp::Export { file, profile } => {
            let export = catalog::ExportFile {
                path: file,
                customers: profile.is_some(),
                profile: profile.unwrap_or_else(active),
            };
            let Exported { path, count } = core.run(export, wait).map_err(failed)?;
            serde_json::to_string_pretty(&serde_json::json!({ "exported": count, "path": path }))
        }
    };
    Ok(json?)
}

/// What was asked for, in the order a search finds it (all of it without a search).
fn listing(view: &CatalogView, what: Listed, search: &str) -> serde_json::Result<String> {
    fn pick<T: Serialize>(items: &[Known<T>], found: Vec<usize>) -> serde_json::Result<String> {
        let picked: Vec<&Known<T>> = found.into_iter().map(|i| &items[i]).collect();
        serde_json::to_string_pretty(&picked)
    }
    match what {
        Listed::Products => pick(&view.products, view.product_index.find(search, usize::MAX)),
        Listed::Packages => pick(&view.packages, view.package_index.find(search, usize::MAX)),
        Listed::Customers => pick(
            &view.customers,
            view.customer_index.find(search, usize::MAX),
        ),
    }
}
