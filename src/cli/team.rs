//! `team init|user|role`: the team server's people and roles (docs/team.md), on its data
//! directory or its PostgreSQL database, while the server runs or not. Passwords come from
//! standard input or a hidden prompt, never an argument.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::json;
use support::release_sig::ReleaseKey;
use team::checkpointer::Checkpointer;
use team::people::{self, Branch, Edit, NewPerson};
use team::{custom_roles, instances, settings};

use crate::cli::output::Failure;
use crate::cli::secret_input;
use crate::cli::serve::command_runtime;
use crate::cli::team_data::{Data, open, open_to_change};
use crate::cli::team_record::{print_lines, recorded, refused};

#[derive(Subcommand)]
pub(crate) enum TeamCommand {
    /// Make the team server's store and its first administrator (the password on standard
    /// input, or typed twice at a hidden prompt). Runs once.
    Init {
        #[command(flatten)]
        data: Data,
        /// The administrator's sign-in name.
        #[arg(long, value_name = "NAME")]
        admin: String,
        /// The name shown for them [default: the sign-in name].
        #[arg(long, value_name = "TEXT")]
        display_name: Option<String>,
    },
    /// The people who sign in.
    #[command(subcommand)]
    User(UserCommand),
    /// The roles: four built in (viewer, staff, approver, admin) and the company's own.
    #[command(subcommand)]
    Role(RoleCommand),
    /// Run the team server in front of one platform.
    Serve(Box<crate::cli::team_serve::TeamServeArgs>),
    /// The audit log: verify its chain, export a time range.
    #[command(subcommand)]
    Audit(crate::cli::team_audit::AuditCommand),
    /// Requests that wait for a second person, and what a stopped server left of them.
    #[command(subcommand)]
    Requests(RequestsCommand),
    /// The console's releases it distributes, each signed with the company's key.
    #[command(subcommand)]
    Release(crate::cli::team_release::ReleaseCommand),
    /// Show the server's settings as JSON, and change those given: above these thresholds a
    /// call waits for a second person's approval (every delete does); and the key releases
    /// must be signed with.
    Settings {
        #[command(flatten)]
        data: Data,
        /// A batch of more assets than this waits for approval [default: 1000].
        #[arg(long, value_name = "N")]
        batch_assets: Option<u64>,
        /// A lock or unlock of more assets than this waits for approval [default: 50].
        #[arg(long, value_name = "N")]
        locks: Option<u64>,
        /// The company's release key (minisign's `.pub` file): releases must be signed with it,
        /// and consoles pin it. Shown with its fingerprint.
        #[arg(long, value_name = "FILE")]
        release_public_key: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
pub(crate) enum RequestsCommand {
    /// Settle what stopped (or crashed) server instances left: their writes in flight (not
    /// sent, or outcome unknown once they may have left) and their approved requests (as their
    /// writes ended, or not sent when none began, and then may be approved again), each
    /// settled request an entry of the record. Only the work of instances not seen for 60 s is
    /// touched, so it is safe while servers run; the servers do the same every 10 s.
    Repair {
        #[command(flatten)]
        data: Data,
    },
}

/// A person's branch: both or neither.
#[derive(Args)]
pub(crate) struct BranchArgs {
    /// Branch code the person orders for (the orders' branchCode).
    #[arg(long, value_name = "CODE", requires = "branch_name")]
    branch: Option<String>,
    /// Branch name (the orders' branchName, the customers' branchName).
    #[arg(long, value_name = "NAME", requires = "branch")]
    branch_name: Option<String>,
}

impl BranchArgs {
    fn branch(&self) -> Option<Branch> {
        Some(Branch {
            code: self.branch.clone()?,
            name: self.branch_name.clone()?,
        })
    }
}

#[derive(Subcommand)]
pub(crate) enum UserCommand {
    /// Add a person and print them as JSON. A local account's password is read from standard
    /// input or a hidden prompt; `--ldap` people sign in with their directory password.
    Add {
        #[command(flatten)]
        data: Data,
        /// Sign-in name (compared without case).
        name: String,
        /// viewer, staff, approver, admin, or a role added with `team role add`.
        #[arg(long)]
        role: String,
        #[command(flatten)]
        branch: BranchArgs,
        /// The name shown for them [default: the sign-in name].
        #[arg(long, value_name = "TEXT")]
        display_name: Option<String>,
        /// Signs in through LDAP: no password is kept here.
        #[arg(long)]
        ldap: bool,
        /// Where they are mailed when a request waits for their approval (`team serve
        /// --mail-server`).
        #[arg(long, value_name = "ADDRESS")]
        email: Option<String>,
    },
    /// Change a person's role, branch or shown name; a new role ends their sessions.
    Edit {
        #[command(flatten)]
        data: Data,
        name: String,
        #[arg(long)]
        role: Option<String>,
        #[command(flatten)]
        branch: BranchArgs,
        /// Remove the person's branch (they then order for any branch).
        #[arg(long, conflicts_with_all = ["branch", "branch_name"])]
        no_branch: bool,
        #[arg(long, value_name = "TEXT")]
        display_name: Option<String>,
        /// Where they are mailed when a request waits for their approval.
        #[arg(long, value_name = "ADDRESS")]
        email: Option<String>,
        /// Mail them no more.
        #[arg(long, conflicts_with = "email")]
        no_email: bool,
    },
    /// Disable a person: their sessions end at once and they cannot sign in.
    Disable {
        #[command(flatten)]
        data: Data,
        name: String,
    },
    /// Let a disabled person sign in again.
    Enable {
        #[command(flatten)]
        data: Data,
        name: String,
    },
    /// Everyone, one JSON object a line (never a password's hash).
    List {
        #[command(flatten)]
        data: Data,
    },
    /// Give a local account a new password (standard input or a hidden prompt): their sessions
    /// end and a lock-out after failed sign-ins is lifted.
    ResetPassword {
        #[command(flatten)]
        data: Data,
        name: String,
    },
}

#[derive(Subcommand)]
pub(crate) enum RoleCommand {
    /// Add a role made of permissions: read, customers, purchase, numbers, claim, locks,
    /// delete, approve, users.
    Add {
        #[command(flatten)]
        data: Data,
        name: String,
        /// Comma-separated, e.g. read,locks.
        #[arg(long)]
        permissions: String,
    },
    /// Every role and its permissions, one JSON object a line.
    List {
        #[command(flatten)]
        data: Data,
    },
    /// Remove a role nobody holds.
    Remove {
        #[command(flatten)]
        data: Data,
        name: String,
    },
}

pub(crate) fn run(command: TeamCommand) -> ExitCode {
    if let TeamCommand::Serve(args) = command {
        crate::cli::logging::init("info");
        return match crate::cli::team_serve::serve(*args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(failure) => failure.report(),
        };
    }
    crate::cli::logging::init("warn");
    match run_command(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

fn run_command(command: TeamCommand) -> Result<(), Failure> {
    let runtime = command_runtime()?;
    match command {
        TeamCommand::Init {
            data,
            admin,
            display_name,
        } => {
            let password = secret_input::new_password(&admin)?;
            let admin = NewPerson {
                name: admin,
                display_name,
                role: "admin".to_owned(),
                branch: None,
                password: Some(password.expose().to_owned()),
                email: None,
            };
            let store = runtime.block_on(open_to_change(&data))?;
            let made = runtime.block_on(people::init(&store, admin));
            print_lines(&[runtime.block_on(recorded(&data, &store, "init", made))?]);
        }
        TeamCommand::User(command) => runtime.block_on(user(command))?,
        TeamCommand::Role(command) => runtime.block_on(role(command))?,
        TeamCommand::Audit(command) => {
            runtime.block_on(crate::cli::team_audit::run(command))?;
        }
        TeamCommand::Settings {
            data,
            batch_assets,
            locks,
            release_public_key,
        } => {
            let key = release_public_key.as_deref().map(read_key).transpose()?;
            runtime.block_on(settings(&data, batch_assets, locks, key))?;
        }
        TeamCommand::Release(command) => {
            runtime.block_on(crate::cli::team_release::run(command))?;
        }
        TeamCommand::Requests(RequestsCommand::Repair { data }) => {
            runtime.block_on(repair(&data))?;
        }
        TeamCommand::Serve(_) => {}
    }
    Ok(())
}

/// `team requests repair`: prints what was settled, as one JSON line.
async fn repair(data: &Data) -> Result<(), Failure> {
    let store = open_to_change(data).await?;
    let key = data.audit_key(&store).await?;
    let settled = instances::repair(&store, key.as_ref())
        .await
        .map_err(refused)?;
    let mut checkpoints = Checkpointer::new(key, data.seal_places().checkpoints);
    checkpoints.beat(&store).await.map_err(|e| {
        Failure::failed(format!(
            "settled, but the audit log's checkpoint could not be written: {e}"
        ))
    })?;
    print_lines(&[settled]);
    Ok(())
}

async fn user(command: UserCommand) -> Result<(), Failure> {
    let person = match command {
        UserCommand::Add {
            data,
            name,
            role,
            branch,
            display_name,
            ldap,
            email,
        } => {
            let password = match ldap {
                true => None,
                false => Some(secret_input::new_password(&name)?.expose().to_owned()),
            };
            let new = NewPerson {
                name,
                display_name,
                role,
                branch: branch.branch(),
                password,
                email,
            };
            let store = open_to_change(&data).await?;
            recorded(&data, &store, "user.add", people::add(&store, new).await).await
        }
        UserCommand::Edit {
            data,
            name,
            role,
            branch,
            no_branch,
            display_name,
            email,
            no_email,
        } => {
            let edit = Edit {
                email: change(no_email, email),
                display_name,
                role,
                branch: change(no_branch, branch.branch()),
            };
            let store = open_to_change(&data).await?;
            recorded(
                &data,
                &store,
                "user.edit",
                people::edit(&store, &name, edit).await,
            )
            .await
        }
        UserCommand::Disable { data, name } => {
            let store = open_to_change(&data).await?;
            let done = people::set_disabled(&store, &name, true).await;
            recorded(&data, &store, "user.disable", done).await
        }
        UserCommand::Enable { data, name } => {
            let store = open_to_change(&data).await?;
            let done = people::set_disabled(&store, &name, false).await;
            recorded(&data, &store, "user.enable", done).await
        }
        UserCommand::List { data } => {
            print_lines(&people::list(&open(&data).await?).await.map_err(refused)?);
            return Ok(());
        }
        UserCommand::ResetPassword { data, name } => {
            let password = secret_input::new_password(&name)?;
            let store = open_to_change(&data).await?;
            let done = people::reset_password(&store, &name, password.expose()).await;
            recorded(&data, &store, "user.reset_password", done).await
        }
    };
    print_lines(&[person?]);
    Ok(())
}

/// What `--no-X` or `--X VALUE` asks of an optional field: removed (`Some(None)`), set, or
/// kept (`None`).
fn change<T>(remove: bool, given: Option<T>) -> Option<Option<T>> {
    if remove { Some(None) } else { given.map(Some) }
}

/// A release key's file, read.
fn read_key(path: &std::path::Path) -> Result<ReleaseKey, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::failed(format!("{}: {e}", path.display())))?;
    ReleaseKey::parse(&text).map_err(|e| Failure::failed(format!("{}: {e}", path.display())))
}

/// The settings as `team settings` prints them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Shown {
    #[serde(flatten)]
    thresholds: settings::Thresholds,
    release_public_key: Option<wire::release::ReleaseKeyInfo>,
}

/// Shows the settings, after changing those given (a change is in the audit log).
async fn settings(
    data: &Data,
    batch_assets: Option<u64>,
    locks: Option<u64>,
    key: Option<ReleaseKey>,
) -> Result<(), Failure> {
    let changes = batch_assets.is_some() || locks.is_some() || key.is_some();
    let store = match changes {
        false => open(data).await?,
        true => open_to_change(data).await?,
    };
    if batch_assets.is_some() || locks.is_some() {
        let set = settings::set_thresholds(&store, batch_assets, locks).await;
        recorded(data, &store, "settings", set).await?;
    }
    if let Some(key) = key {
        let set = settings::set_release_key(&store, &key).await;
        let info = set.map(|()| key_info(&key));
        recorded(data, &store, "settings.release_key", info).await?;
    }
    let shown = Shown {
        thresholds: settings::thresholds(&store).await.map_err(refused)?,
        release_public_key: settings::release_key(&store)
            .await
            .map_err(refused)?
            .map(|k| key_info(&k)),
    };
    print_lines(&[shown]);
    Ok(())
}

/// What is shown of a release key.
pub(crate) fn key_info(key: &ReleaseKey) -> wire::release::ReleaseKeyInfo {
    wire::release::ReleaseKeyInfo {
        public_key: key.to_base64(),
        key_id: key.key_id(),
        fingerprint: key.fingerprint(),
    }
}

async fn role(command: RoleCommand) -> Result<(), Failure> {
    match command {
        RoleCommand::Add {
            data,
            name,
            permissions,
        } => {
            let store = open_to_change(&data).await?;
            let role = custom_roles::add(&store, &name, &permissions).await;
            print_lines(&[recorded(&data, &store, "role.add", role).await?]);
        }
        RoleCommand::List { data } => {
            print_lines(
                &custom_roles::list(&open(&data).await?)
                    .await
                    .map_err(refused)?,
            );
        }
        RoleCommand::Remove { data, name } => {
            let store = open_to_change(&data).await?;
            let removed = custom_roles::remove(&store, &name)
                .await
                .map(|()| json!({"name": name}));
            recorded(&data, &store, "role.remove", removed).await?;
        }
    }
    Ok(())
}
