//! The command line's tree and dispatch: no sub-command opens the console; `serve` runs the
//! embedded platform headless; `app` manages its applications; `call`, `order`, `catalog` and
//! `profile` do the window's work for scripts. Each command lives in `cli/`; exit codes are
//! shared by all of them (`cli::output`, and the manual's table).

// On Windows a GUI program, so that the Start menu opens the console without a terminal window
// behind it; `cli::terminal` gives the sub-commands back the terminal they were started from.
#![cfg_attr(windows, windows_subsystem = "windows")]
#![warn(clippy::too_many_lines)]

use std::io::Write;
use std::process::ExitCode;

mod cli;

use clap::{CommandFactory, Parser, Subcommand};

use crate::cli::output::Failure;

#[derive(Parser)]
#[command(
    name = "license-desk",
    version = license_desk::core::update::CURRENT,
    about = "License Desk: a console for license administrators, with an embedded licensing platform"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the embedded platform headless, as a shared training or test server.
    Serve(cli::serve::ServeArgs),
    /// The team server's people and roles (docs/team.md).
    #[command(subcommand)]
    Team(cli::team::TeamCommand),
    /// Manage the applications that may call a platform's data directory.
    #[command(subcommand)]
    App(cli::app::AppCommand),
    /// Run one operation through the console's core and print the answer (JSON, a table or
    /// CSV).
    Call(cli::call::CallArgs),
    /// Requests waiting for a second person on a team server: list, show, approve, reject.
    Request(cli::request::RequestArgs),
    /// What ends in the next days across the profile's whole directory: one row per asset
    /// and product (a table, CSV or JSON; and an xlsx file).
    Renewals(cli::renewals::RenewalsArgs),
    /// A customer's page: its customers, assets, what ends soon, and what this console sent
    /// for it.
    #[command(subcommand)]
    Customer(cli::customer::CustomerOp),
    /// The profiles, as in Settings: add, edit, remove, list, use, test.
    #[command(subcommand)]
    Profile(cli::profile::ProfileCommand),
    /// Work with batch order files.
    #[command(subcommand)]
    Order(cli::order::OrderCommand),
    /// The catalog of products and packages, and the directories of customers.
    #[command(subcommand)]
    Catalog(cli::catalog::CatalogOp),
    /// This computer's License Desk in one file, restored on another.
    #[command(subcommand)]
    Backup(cli::backup::BackupCommand),
    /// The company's release key and signatures (minisign's format), made off the team server.
    #[command(subcommand)]
    Release(cli::release::ReleaseCommand),
    /// Updates from the profile's team server: check, download (checked against the pinned
    /// release key), trust a new key.
    Update(cli::update::UpdateArgs),
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

fn main() -> ExitCode {
    #[cfg(windows)]
    cli::terminal::attach();
    // What an update set aside the last time (docs/team.md, "Rolling out"); before the
    // arguments are read, which may end the program (`--version`).
    #[cfg(windows)]
    license_desk::core::update::clear_old_program();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            cli::logging::init("warn");
            let opened = license_desk::ui::run();
            #[cfg(windows)]
            if let Err(e) = &opened {
                // Started from the Start menu there is no terminal to print to.
                cli::terminal::show_error(&e.to_string());
            }
            opened.map_err(Failure::from)
        }
        Some(Command::Serve(args)) => cli::serve::serve(args),
        Some(Command::App(command)) => cli::app::run_app(command),
        Some(Command::Team(command)) => return cli::team::run(command),
        Some(Command::Call(args)) => {
            cli::logging::init("warn");
            return cli::call::run(args);
        }
        Some(Command::Request(args)) => {
            cli::logging::init("warn");
            return cli::request::run(args);
        }
        Some(Command::Renewals(args)) => {
            cli::logging::init("warn");
            return cli::renewals::run(args);
        }
        Some(Command::Customer(op)) => {
            cli::logging::init("warn");
            return cli::customer::run(op);
        }
        Some(Command::Catalog(command)) => {
            cli::logging::init("warn");
            return cli::catalog::run(command);
        }
        Some(Command::Openapi) => {
            println!("{}", platform::openapi_json());
            Ok(())
        }
        Some(Command::Order(command)) => return cli::order::run(command),
        Some(Command::Backup(command)) => {
            cli::logging::init("warn");
            return cli::backup::run(command);
        }
        Some(Command::Release(command)) => {
            cli::logging::init("warn");
            return cli::release::run(command);
        }
        Some(Command::Update(args)) => {
            cli::logging::init("warn");
            return cli::update::run(args);
        }
        Some(Command::Profile(command)) => {
            cli::logging::init("warn");
            return cli::profile::run(command);
        }
        Some(Command::Completions { shell }) => {
            // Into memory first: clap_complete panics when its writer fails (`| head`).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "license-desk", &mut script);
            // A closed pipe (`| head`) is no error worth reporting.
            let _ = std::io::stdout().lock().write_all(&script);
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
