//! `order check|from-sheet|preview|template`: batch order files on the command line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use super::output;

#[derive(Subcommand)]
pub enum OrderCommand {
    /// Check a batch order file with the rules the console and the platform share: prints each
    /// problem on its own line with its field path. Exit 0: none; 4: problems, or the file is
    /// not a batch order (not JSON, wrong shape); 1: the file cannot be read.
    Check {
        /// A JSON file holding operation 5's body.
        file: PathBuf,
    },
    /// Turn an order spreadsheet (.xlsx or .csv, headers in English or Chinese, one row per
    /// asset × product) into a batch order: the JSON on standard output, each problem on
    /// standard error as `Sheet!CELL: path: message`. Exit codes as `order check`.
    FromSheet {
        file: PathBuf,
        /// The sheet to read (default: the first).
        #[arg(long)]
        sheet: Option<String>,
    },
    /// What the file's delete orders would remove on a profile, as JSON: the profile's asset
    /// listings run through the platform's own removal rule. Sends nothing that changes
    /// anything. Exit 0: the preview is printed (see its `refused` and `unknown`); 3: the
    /// platform refused a listing; 1: the file cannot be read or the profile cannot be used.
    Preview {
        /// A JSON file holding operation 5's body.
        file: PathBuf,
        /// Profile the batch would go to [default: the active one]
        #[arg(long)]
        profile: Option<String>,
        #[command(flatten)]
        secret: super::call::RunSecret,
    },
    /// Write the order spreadsheet template (.xlsx): the headers in both languages, an example
    /// row per order type, and a sheet explaining each column.
    Template { file: PathBuf },
}

/// Runs an `order` command; its exit code as documented on each.
pub fn run(command: OrderCommand) -> ExitCode {
    match command {
        OrderCommand::Check { file } => order_check(&file),
        OrderCommand::FromSheet { file, sheet } => order_from_sheet(&file, sheet.as_deref()),
        OrderCommand::Preview {
            file,
            profile,
            secret,
        } => {
            super::logging::init("warn");
            super::call::preview(&file, profile, secret.secret_file.as_deref())
        }
        OrderCommand::Template { file } => {
            match license_desk::core::sheet::template::write_template(&file) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {}: {e}", file.display());
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Every problem of an order file, shape and rules together, in the file's order, each as
/// `FILE:LINE:COLUMN: path: message`. Exit 1 when there are any; 2 when the file cannot be
/// read, is not JSON or not an object.
fn order_check(file: &Path) -> ExitCode {
    use wire::open::{Locator, open_batch_file};
    let name = file.display();
    let bytes = match license_desk::core::files::read_file_bytes(file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(output::NOT_A_BATCH);
        }
    };
    let batch = match open_batch_file(&bytes) {
        Ok(batch) => batch,
        Err(e) => {
            let (line, column) = e.at();
            eprintln!("{name}:{line}:{column}: {}", e.what());
            return ExitCode::from(output::NOT_A_BATCH);
        }
    };
    let (problems, unknown) = wire::validate::console_check(&batch, &batch.order_list);
    let locator = Locator::new(&bytes);
    let mut placed: Vec<_> = problems
        .iter()
        .map(|p| (placed_at(&locator, p), p.to_string()))
        .collect();
    // Keys of no field (but those near a field's name, problems above): warnings, since the
    // platform ignores them; they do not change the exit code.
    placed.extend(unknown.into_iter().map(|u| {
        (
            locator.locate_key(&u.at, Some(&u.key)),
            format!("warning: {u}"),
        )
    }));
    placed.sort_by_key(|(at, _)| *at);
    let mut out = std::io::stdout().lock();
    for ((line, column), problem) in placed {
        // A closed pipe (`| head`) is not an error worth reporting.
        if writeln!(out, "{name}:{line}:{column}: {problem}").is_err() {
            break;
        }
    }
    if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(output::PROBLEMS)
    }
}

/// Where a problem is in the file: a misspelt key's problem at the key, the others at their
/// field (or the nearest node the file has).
fn placed_at(locator: &wire::open::Locator<'_>, p: &wire::validate::Problem) -> (usize, usize) {
    match &p.kind {
        wire::validate::ProblemKind::NearField { key, .. } => {
            let node =
                wire::validate::FieldPath(p.path.0[..p.path.0.len().saturating_sub(1)].to_vec());
            locator.locate_key(&node, Some(key))
        }
        _ => locator.locate(&p.path),
    }
}

/// A spreadsheet as a batch order on standard output; its problems, placed at their cells, on
/// standard error (headers not understood among them).
fn order_from_sheet(file: &Path, sheet: Option<&str>) -> ExitCode {
    let sheeted = match license_desk::core::sheet::read_sheet(file, sheet, &Default::default()) {
        Ok(sheeted) => sheeted,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::from(output::NOT_A_BATCH);
        }
    };
    let json = match wire::open::batch_to_json(&sheeted.batch, true) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::from(output::NOT_A_BATCH);
        }
    };
    println!("{json}");
    let problems = wire::validate::batch_order(&sheeted.batch);
    let headers = sheeted.unknown_headers.iter().map(|header| {
        format!("{header}: not a column of the order sheet; its cells were not read\n")
    });
    let misplaced = sheeted.misplaced.iter().map(|m| format!("{m}\n"));
    let problems_at = problems
        .iter()
        .map(|p| format!("{}: {p}\n", sheeted.place_of(&p.path)));
    let report: String = headers.chain(misplaced).chain(problems_at).collect();
    // A closed standard error has no one to tell; the exit code still says it.
    let _ = std::io::stderr().lock().write_all(report.as_bytes());
    if problems.is_empty() && sheeted.unknown_headers.is_empty() && sheeted.misplaced.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(output::PROBLEMS)
    }
}
