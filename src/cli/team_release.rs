//! `team release publish|list|withdraw`: the console's releases a team server distributes,
//! each checked against the key the team trusts (`team settings --release-public-key`) before
//! it is kept (docs/team.md, "Rolling out").

use std::path::PathBuf;

use clap::Subcommand;
use team::releases::{Publish, Shelf};
use team::settings;
use wire::release::Target;

use crate::cli::output::Failure;
use crate::cli::team_data::{Data, open, open_to_change};
use crate::cli::team_record::{print_lines, recorded, refused};

#[derive(Subcommand)]
pub(crate) enum ReleaseCommand {
    /// Publish a release: FILE.minisig beside it must be the company key's signature of it,
    /// its trusted comment naming this version and target; a file that fails is refused and
    /// nothing is kept. Prints the release as JSON.
    Publish {
        #[command(flatten)]
        data: Data,
        /// X.Y.Z, as the program's --version says it.
        #[arg(long, value_name = "X.Y.Z")]
        version: String,
        #[arg(long, value_name = "TARGET", value_parser = Target::parse)]
        target: Target,
        /// What is new, shown to people on demand.
        #[arg(long, value_name = "TEXT", default_value = "")]
        notes: String,
        /// Mark it required: a console on Windows installs it as soon as its person is signed in;
        /// on Linux its line says so.
        #[arg(long)]
        required: bool,
        /// The installer (Windows) or package (Debian/Ubuntu).
        file: PathBuf,
    },
    /// Every release, newest first, one JSON object a line.
    List {
        #[command(flatten)]
        data: Data,
    },
    /// Stop offering a release (its files stay, for the record).
    Withdraw {
        #[command(flatten)]
        data: Data,
        #[arg(long, value_name = "X.Y.Z")]
        version: String,
        #[arg(long, value_name = "TARGET", value_parser = Target::parse)]
        target: Target,
    },
}

pub(crate) async fn run(command: ReleaseCommand) -> Result<(), Failure> {
    match command {
        ReleaseCommand::Publish {
            data,
            version,
            target,
            notes,
            required,
            file,
        } => {
            let shelf = shelf(&data)?;
            let store = open_to_change(&data).await?;
            let key = settings::release_key(&store)
                .await
                .map_err(refused)?
                .ok_or_else(|| refused(team::releases::ReleaseError::NoKey.into()))?;
            let publish = Publish {
                version,
                target,
                notes,
                required,
                now_ms: support::clock::now_ms(),
            };
            let done = tokio::task::spawn_blocking(move || shelf.publish(&key, &file, publish))
                .await
                .map_err(Failure::failed)?
                .map(without_signature)
                .map_err(Into::into);
            print_lines(&[recorded(&data, &store, "release.publish", done).await?]);
        }
        ReleaseCommand::List { data } => {
            let shelf = shelf(&data)?;
            // Opened to say the data is there at all, as every `team` command does.
            open(&data).await?;
            let all = shelf.list().map_err(|e| refused(e.into()))?;
            print_lines(&all.into_iter().map(without_signature).collect::<Vec<_>>());
        }
        ReleaseCommand::Withdraw {
            data,
            version,
            target,
        } => {
            let shelf = shelf(&data)?;
            let store = open_to_change(&data).await?;
            let done = shelf
                .withdraw(target, &version)
                .map(without_signature)
                .map_err(Into::into);
            print_lines(&[recorded(&data, &store, "release.withdraw", done).await?]);
        }
    }
    Ok(())
}

fn shelf(data: &Data) -> Result<Shelf, Failure> {
    data.releases()
        .ok_or_else(|| Failure::failed("give --releases DIR: where the releases are kept"))
}

/// A release as printed and recorded: its signature is its own file's, not a line's.
fn without_signature(release: wire::release::Release) -> serde_json::Value {
    let mut value = serde_json::to_value(release).unwrap_or_default();
    if let Some(fields) = value.as_object_mut() {
        fields.remove("signature");
    }
    value
}
