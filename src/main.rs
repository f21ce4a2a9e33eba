//! The command line: no sub-command opens the console; `serve` runs the embedded
//! platform headless; `app create` registers an application, `app quota` changes its quotas;
//! `call`, `order`, `catalog` and `profile` do the window's work for scripts. Exit codes are
//! shared by all of them (`output`, and the README's table).

// On Windows a GUI program, so that the Start menu opens the console without a terminal window
// behind it; `terminal` gives the sub-commands back the terminal they were started from.
#![cfg_attr(windows, windows_subsystem = "windows")]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

mod app_cli;
mod call;
mod catalog_cli;
mod logging;
mod output;
mod platform_cli;
mod profile_cli;
mod secret_input;
#[cfg(windows)]
mod terminal;

use clap::{CommandFactory, Parser, Subcommand};
use license_desk::platform;

#[derive(Parser)]
#[command(
    name = "license-desk",
    version,
    about = "License Desk: a console for license administrators, with an embedded licensing platform"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the embedded platform headless, as a shared training or test server.
    Serve(platform_cli::ServeArgs),
    /// Manage the applications that may call a platform's data directory.
    #[command(subcommand)]
    App(app_cli::AppCommand),
    /// Run one operation through the console's core and print the answer (JSON, a table or
    /// CSV).
    Call(call::CallArgs),
    /// The profiles, as in Settings: add, edit, remove, list, use, test.
    #[command(subcommand)]
    Profile(profile_cli::ProfileCommand),
    /// Work with batch order files.
    #[command(subcommand)]
    Order(OrderCommand),
    /// The catalog of products and packages, and the directories of customers.
    #[command(subcommand)]
    Catalog(catalog_cli::CatalogCommand),
    /// Print the shell completion script, e.g. `license-desk completions bash >
    /// ~/.local/share/bash-completion/completions/license-desk`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the platform's OpenAPI 3.1 document (JSON), as `serve` publishes it at
    /// /openapi.json: import it into Postman, Apifox or any OpenAPI tool.
    Openapi,
}

#[derive(Subcommand)]
enum OrderCommand {
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
        secret: call::RunSecret,
    },
    /// Write the order spreadsheet template (.xlsx): the headers in both languages, an example
    /// row per order type, and a sheet explaining each column.
    Template { file: PathBuf },
}

fn main() -> ExitCode {
    #[cfg(windows)]
    terminal::attach();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            logging::init("warn");
            let opened = license_desk::ui::run();
            #[cfg(windows)]
            if let Err(message) = &opened {
                // Started from the Start menu there is no terminal to print to.
                terminal::show_error(message);
            }
            opened
        }
        Some(Command::Serve(args)) => platform_cli::serve(args),
        Some(Command::App(command)) => app_cli::run_app(command),
        Some(Command::Call(args)) => {
            logging::init("warn");
            return call::run(args);
        }
        Some(Command::Catalog(command)) => {
            logging::init("warn");
            return catalog_cli::run(command);
        }
        Some(Command::Openapi) => {
            println!("{}", platform::openapi_json());
            Ok(())
        }
        Some(Command::Order(OrderCommand::Check { file })) => return order_check(&file),
        Some(Command::Order(OrderCommand::FromSheet { file, sheet })) => {
            return order_from_sheet(&file, sheet.as_deref());
        }
        Some(Command::Order(OrderCommand::Preview {
            file,
            profile,
            secret,
        })) => {
            logging::init("warn");
            return call::preview(&file, profile, secret.secret_file.as_deref());
        }
        Some(Command::Profile(command)) => {
            logging::init("warn");
            return profile_cli::run(command);
        }
        Some(Command::Completions { shell }) => {
            // Into memory first: clap_complete panics when its writer fails (`| head`).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "license-desk", &mut script);
            let _ = std::io::stdout().lock().write_all(&script);
            Ok(())
        }
        Some(Command::Order(OrderCommand::Template { file })) => {
            license_desk::core::sheet::template::write_template(&file)
                .map_err(|e| format!("{}: {e}", file.display()))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Every problem of an order file, shape and rules together, in the file's order, each as
/// `FILE:LINE:COLUMN: path: message`. Exit 1 when there are any; 2 when the file cannot be
/// read, is not JSON or not an object.
fn order_check(file: &std::path::Path) -> ExitCode {
    use license_desk::wire::open::{Locator, open_batch_file};
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
    let problems = license_desk::wire::validate::batch_order(&batch);
    let locator = Locator::new(&bytes);
    let mut placed: Vec<_> = problems
        .iter()
        .map(|p| (locator.locate(&p.path), p.to_string()))
        .collect();
    // Keys of no field: warnings, since the platform ignores them; they do not change the
    // exit code.
    placed.extend(
        license_desk::wire::validate::unknown_keys(&batch)
            .into_iter()
            .map(|u| {
                (
                    locator.locate_key(&u.at, Some(&u.key)),
                    format!("warning: {u}"),
                )
            }),
    );
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

/// A spreadsheet as a batch order on standard output; its problems, placed at their cells, on
/// standard error (headers not understood among them).
fn order_from_sheet(file: &std::path::Path, sheet: Option<&str>) -> ExitCode {
    let sheeted = match license_desk::core::sheet::read_sheet(file, sheet, &Default::default()) {
        Ok(sheeted) => sheeted,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::from(output::NOT_A_BATCH);
        }
    };
    let json = match license_desk::wire::open::batch_to_json(&sheeted.batch, true) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::from(output::NOT_A_BATCH);
        }
    };
    println!("{json}");
    let problems = license_desk::wire::validate::batch_order(&sheeted.batch);
    let mut err = std::io::stderr().lock();
    for header in &sheeted.unknown_headers {
        let _ = writeln!(
            err,
            "{header}: not a column of the order sheet; its cells were not read"
        );
    }
    for misplaced in &sheeted.misplaced {
        let _ = writeln!(err, "{misplaced}");
    }
    for problem in &problems {
        let _ = writeln!(err, "{}: {problem}", sheeted.place_of(&problem.path));
    }
    if problems.is_empty() && sheeted.unknown_headers.is_empty() && sheeted.misplaced.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(output::PROBLEMS)
    }
}
