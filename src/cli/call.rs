//! `license-desk call`: one operation through the service core (the same profiles, keyring,
//! retries and journal as the console), printed as JSON, a table or CSV.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use license_desk::core::{
    Call, Command, Core, CoreError, CoreOptions, ExportFormat, JournalFilter, Outcome, Profile,
    WriteState,
};
use license_desk::wire::{
    self, BatchOrderRequest, ClaimRequest, CustomerQuery, DefaultFilter, OrderType,
};
use serde::de::DeserializeOwned;

use crate::cli::output::{self, Failure, Format, NEEDS_YES};
use crate::cli::secret_input;

#[derive(Args)]
pub struct CallArgs {
    /// Profile to use [default: the active one, the Sandbox on a fresh machine]
    #[arg(long, global = true)]
    profile: Option<String>,
    #[command(flatten)]
    secret: RunSecret,
    /// How the answer is printed.
    #[arg(long, global = true, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// Send a destructive call (lock, unlock, a batch with delete orders) to a production
    /// profile; without it such a call is refused before anything is sent (exit 5).
    #[arg(long, global = true)]
    yes: bool,
    /// Seconds to wait for the call at most [default: the longest the profile's limits let it
    /// take]. A write still unanswered then ends with its outcome unknown (exit 4).
    #[arg(long, global = true, value_name = "SECS")]
    timeout: Option<u64>,
    #[command(subcommand)]
    op: CallOp,
}

/// A remote profile's app secret for this run only, when the keyring has none (CI, servers).
#[derive(Args)]
pub struct RunSecret {
    /// Read the profile's app secret from FILE, once, for this run only: kept in memory, never
    /// stored, and so are the tokens it gets. Else `LICENSE_DESK_SECRET_<PROFILE>` when set,
    /// else the keyring.
    #[arg(long, global = true, value_name = "FILE")]
    pub secret_file: Option<PathBuf>,
}

#[derive(Subcommand)]
enum CallOp {
    /// Operation 9: hand out N new asset numbers.
    Shellnums { size: i32 },
    /// Operation 6: disable (lock) locks, as the profile's operator unless --operator.
    Lock {
        #[arg(required = true)]
        asset_nums: Vec<String>,
        /// Who disables them (recorded by the platform); the profile's operator by default.
        #[arg(long)]
        operator: Option<String>,
    },
    /// Operation 7: enable (unlock) locks, as the profile's operator unless --operator.
    Unlock {
        #[arg(required = true)]
        asset_nums: Vec<String>,
        /// Who enables them; the profile's operator by default.
        #[arg(long)]
        operator: Option<String>,
    },
    /// Operation 8: the assets of an enterprise master account.
    Assets {
        enterprise_global_id: String,
        #[arg(long)]
        extend_code: Option<String>,
    },
    /// Operation 5: a batch order from a JSON file.
    Order {
        #[arg(long)]
        body: PathBuf,
    },
    /// Operation 1: bind a customer (JSON file).
    Bind {
        #[arg(long)]
        body: PathBuf,
    },
    /// Operation 2: create an enterprise master account (JSON file).
    Create {
        #[arg(long)]
        body: PathBuf,
    },
    /// Operation 4: update an enterprise's name and address (JSON file).
    Update {
        #[arg(long)]
        body: PathBuf,
    },
    /// Operation 3: the customers of the enterprise a channel's customer is bound to.
    Query {
        #[arg(long)]
        channel_code: String,
        #[arg(long)]
        channel_customer_id: String,
        /// Only the default customer.
        #[arg(long)]
        default_only: bool,
    },
    /// The activity group: claim an activity's products for a participant.
    Claim {
        #[arg(long)]
        identity: String,
        #[arg(long)]
        label: String,
        #[arg(long)]
        source: String,
        #[arg(long)]
        branch: String,
        /// Extra parameters, a JSON object.
        #[arg(long)]
        ext_params: Option<String>,
    },
    /// Get a token: checks that the profile works and shows its scopes.
    Token,
    /// The ledger of writes (batches, locks, numbers, claims, customers), newest first, with
    /// where each stands: done, refused, not_sent, unknown, in_flight.
    Writes {
        /// Only the writes whose outcome is unknown, to be checked and settled.
        #[arg(long)]
        unknown: bool,
        #[arg(long, default_value_t = 50)]
        limit: usize,
    },
    /// Settles a write whose outcome is unknown, once you have checked the platform: it was
    /// done (--done) or it was not (--not-done). Recorded with your operator identity.
    Resolve {
        call_id: String,
        #[arg(
            long,
            conflicts_with = "not_done",
            required_unless_present = "not_done"
        )]
        done: bool,
        #[arg(long)]
        not_done: bool,
    },
    /// The journal of calls, newest first; --csv/--json export it to a file.
    History {
        #[arg(long)]
        operation: Option<String>,
        #[arg(long)]
        code: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[arg(long, conflicts_with = "json")]
        csv: Option<PathBuf>,
        #[arg(long)]
        json: Option<PathBuf>,
    },
}

/// Exit codes as in the manual's table (docs/manual.md): 0 done, 3 the platform refused (its
/// code and message on stderr; also a lock's assets or a claim refused inside an answer), 4
/// sent with its outcome unknown, 5 a destructive call on production without --yes, 1
/// anything else.
pub fn run(args: CallArgs) -> ExitCode {
    let guard = Guard {
        yes: args.yes,
        format: args.format,
        timeout: args.timeout.map(Duration::from_secs),
    };
    let profile = args.profile.clone();
    let outcome = asked(args.op, args.profile)
        .and_then(|a| execute(a, profile, args.secret.secret_file.as_deref(), guard));
    print_outcome(outcome)
}

fn print_outcome(outcome: Result<String, Failure>) -> ExitCode {
    match outcome {
        Ok(text) => {
            output::print(&text);
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

/// `order preview FILE`: what the batch's delete orders would remove, printed as JSON.
pub fn preview(file: &Path, profile: Option<String>, secret_file: Option<&Path>) -> ExitCode {
    let asked = body(file).map(|batch| Asked::Preview(Box::new(batch)));
    // A preview only reads: nothing to confirm.
    let guard = Guard {
        yes: true,
        format: Format::Json,
        timeout: None,
    };
    print_outcome(asked.and_then(|a| execute(a, profile, secret_file, guard)))
}

/// What the command line said about confirming and printing.
#[derive(Clone, Copy)]
struct Guard {
    yes: bool,
    format: Format,
    timeout: Option<Duration>,
}

fn body<T: DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    let bytes = license_desk::core::files::read_file_bytes(path)
        .map_err(|e| Failure::failed(format!("cannot read it: {e}")))?;
    wire::parse::json(&bytes)
        .map_err(|e| Failure::failed(format!("{} is not the expected JSON: {e}", path.display())))
}

/// What a command line asks for. A call on a profile is made a command once the profile is
/// chosen (`--profile`, else the active one), so that no command names a profile by guess.
enum Asked {
    /// A platform call on the chosen profile.
    Call(Call),
    /// A token from the chosen profile.
    Token,
    /// What a batch's deletes would remove, on the chosen profile.
    Preview(Box<BatchOrderRequest>),
    /// An unknown outcome settled, by whoever the chosen profile names.
    Resolve { call_id: String, done: bool },
    /// A command that names its profile itself, or none.
    Other(Command),
}

impl Asked {
    fn on(self, chosen: &Profile) -> Command {
        let profile = chosen.name.clone();
        match self {
            Self::Call(call) => Command::CallOn { profile, call },
            Self::Token => Command::TestConnection { profile },
            Self::Preview(batch) => Command::PreviewDeletes { profile, batch },
            // Settled as the profile's operator, or the user the system names.
            Self::Resolve { call_id, done } => Command::ResolveWrite {
                call_id,
                done,
                by: settled_by(chosen),
            },
            Self::Other(command) => command,
        }
    }
}

fn asked(op: CallOp, profile: Option<String>) -> Result<Asked, Failure> {
    let call = match op {
        CallOp::Shellnums { size } => Call::Shellnums(size),
        CallOp::Lock {
            asset_nums,
            operator,
        } => Call::Lock {
            nums: asset_nums,
            operator,
        },
        CallOp::Unlock {
            asset_nums,
            operator,
        } => Call::Unlock {
            nums: asset_nums,
            operator,
        },
        CallOp::Assets {
            enterprise_global_id,
            extend_code,
        } => Call::Assets {
            enterprise_global_id,
            extend_code,
        },
        CallOp::Order { body: path } => Call::BatchOrder(body(&path)?),
        CallOp::Bind { body: path } => Call::Bind(body(&path)?),
        CallOp::Create { body: path } => Call::CreateEnterprise(body(&path)?),
        CallOp::Update { body: path } => Call::UpdateEnterprise(body(&path)?),
        CallOp::Query {
            channel_code,
            channel_customer_id,
            default_only,
        } => Call::QueryCustomers(CustomerQuery {
            channel_code: Some(channel_code),
            channel_customer_id: Some(channel_customer_id),
            default_customer: Some(if default_only {
                DefaultFilter::Y
            } else {
                DefaultFilter::N
            }),
        }),
        CallOp::Claim {
            identity,
            label,
            source,
            branch,
            ext_params,
        } => Call::Claim(ClaimRequest {
            identity: Some(identity),
            activity_label: Some(label),
            source: Some(source),
            branch: Some(branch),
            ext_params: ext_params.as_deref().map(ext_params_of).transpose()?,
        }),
        CallOp::Token => return Ok(Asked::Token),
        CallOp::Writes { unknown, limit } => {
            return Ok(Asked::Other(Command::QueryWrites {
                profile,
                state: unknown.then_some(WriteState::Unknown),
                limit,
            }));
        }
        CallOp::Resolve { call_id, done, .. } => return Ok(Asked::Resolve { call_id, done }),
        CallOp::History {
            operation,
            code,
            limit,
            csv,
            json,
        } => {
            let filter = JournalFilter {
                operation,
                code,
                profile,
                limit,
                ..JournalFilter::default()
            };
            return Ok(Asked::Other(history(filter, csv, json)));
        }
    };
    Ok(Asked::Call(call))
}

/// `--ext-params`: a JSON value, kept as given.
fn ext_params_of(text: &str) -> Result<serde_json::Value, Failure> {
    serde_json::from_str(text)
        .map_err(|e| Failure::failed(format!("--ext-params is not JSON: {e}")))
}

/// `call history`: printed, or exported to CSV or JSON.
fn history(filter: JournalFilter, csv: Option<PathBuf>, json: Option<PathBuf>) -> Command {
    match (csv, json) {
        (Some(path), _) => Command::ExportJournal {
            filter,
            path,
            format: ExportFormat::Csv,
        },
        (None, Some(path)) => Command::ExportJournal {
            filter,
            path,
            format: ExportFormat::Json,
        },
        (None, None) => Command::QueryJournal(filter),
    }
}

/// Starts the core and names the profile to use (the active one when none is given); a
/// secret given for this run (file, else the profile's variable) goes to the core first.
pub fn open_core(
    profile: Option<String>,
    secret_file: Option<&Path>,
) -> Result<(Core, Profile), Failure> {
    let core = Core::start(CoreOptions::for_user()?)?;
    let profiles = core.state().profiles;
    let name = profile.unwrap_or_else(|| profiles.active.clone());
    let chosen = profiles
        .get(&name)
        .cloned()
        .ok_or_else(|| Failure::failed(format!("no profile named {name:?}")))?;
    if let Some(secret) = run_secret(&profiles, &chosen, secret_file)? {
        core.run(
            Command::UseSecretForRun {
                profile: chosen.name.clone(),
                app_secret: secret,
            },
            Duration::from_secs(30),
        )?;
    }
    Ok((core, chosen))
}

/// The secret given for this run: `--secret-file`, else the profile's variable when it names
/// this profile alone.
fn run_secret(
    profiles: &license_desk::core::Profiles,
    chosen: &Profile,
    secret_file: Option<&Path>,
) -> Result<Option<license_desk::core::Secret>, Failure> {
    if chosen.is_sandbox() {
        return match secret_file {
            Some(_) => Err(Failure::failed(
                "the Sandbox makes its own secret: --secret-file is for remote profiles",
            )),
            None => Ok(None),
        };
    }
    if let Some(path) = secret_file {
        return Ok(Some(secret_input::from_file(path)?));
    }
    let Some(secret) = secret_input::from_env(&chosen.name) else {
        return Ok(None);
    };
    let variable = secret_input::env_name(&chosen.name);
    let sharing: Vec<&str> = profiles
        .profiles
        .iter()
        .filter(|p| p.name != chosen.name && secret_input::env_name(&p.name) == variable)
        .map(|p| p.name.as_str())
        .collect();
    if !sharing.is_empty() {
        return Err(Failure::failed(format!(
            "{variable} would name the profiles {:?} and {sharing:?} alike: use --secret-file",
            chosen.name
        )));
    }
    Ok(Some(secret))
}

/// A call that changes or removes what cannot simply be put back, on a production profile,
/// goes only with `--yes`.
fn check_production(profile: &Profile, command: &Command, yes: bool) -> Result<(), Failure> {
    let Command::CallOn { call, .. } = command else {
        return Ok(());
    };
    let what = match call {
        Call::Lock { nums, .. } => format!("disabling {} lock(s)", nums.len()),
        Call::Unlock { nums, .. } => format!("enabling {} lock(s)", nums.len()),
        Call::BatchOrder(batch) => {
            let deletes = batch
                .order_list
                .iter()
                .filter(|o| {
                    matches!(
                        o.order_type,
                        Some(OrderType::DeleteAsset | OrderType::DeleteProduct)
                    )
                })
                .count();
            if deletes == 0 {
                return Ok(());
            }
            format!("a batch with {deletes} delete order(s)")
        }
        _ => return Ok(()),
    };
    if !profile.production || yes {
        return Ok(());
    }
    Err(Failure::Exit(
        NEEDS_YES,
        format!(
            "{:?} is a production profile: {what} is sent there only with --yes; nothing was sent",
            profile.name
        ),
    ))
}

/// Runs what was asked on `--profile`, else on the active one.
fn execute(
    asked: Asked,
    profile: Option<String>,
    secret_file: Option<&Path>,
    guard: Guard,
) -> Result<String, Failure> {
    let (core, chosen) = open_core(profile, secret_file)?;
    let command = asked.on(&chosen);
    check_production(&chosen, &command, guard.yes)?;
    // The core needs a moment to start (the Sandbox) besides the call's own longest time.
    let wait = guard
        .timeout
        .unwrap_or_else(|| chosen.limits.longest_call() + Duration::from_secs(30));
    let writes = matches!(&command, Command::CallOn { call, .. } if call.writes());
    let outcome = core.run(command, wait);
    // Stopping settles a write still in flight as outcome unknown in the ledger.
    core.shutdown();
    let outcome = match outcome {
        Err(CoreError::GaveUp(secs)) if writes => {
            return Err(Failure::Exit(
                output::UNKNOWN,
                format!(
                    "sent, outcome unknown: no answer within {secs} s, and the call may have \
                     reached the platform. Check what the platform holds before sending it \
                     again: `license-desk call writes --unknown` lists it, `license-desk call \
                     resolve CALL --done` (or --not-done) settles it"
                ),
            ));
        }
        other => other?,
    };
    let refusal = refusal_in(&outcome);
    let json = answer(outcome).map_err(Failure::failed)?;
    let text = output::render(json, guard.format).map_err(Failure::failed)?;
    match refusal {
        Some(refusal) => Err(Failure::RefusedInAnswer {
            answer: text,
            refusal,
        }),
        None => Ok(text),
    }
}

/// Who settles an unknown outcome on this command line.
fn settled_by(profile: &Profile) -> String {
    let system = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let place = match system.trim() {
        "" => "command line".to_owned(),
        user => format!("command line, {user}"),
    };
    match profile.operator_identity.trim() {
        "" => place,
        operator => format!("{operator} ({place})"),
    }
}

/// A refusal inside an answered success: assets not locked or unlocked, a claim not granted.
fn refusal_in(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::Locks(results) => license_desk::core::lock_refusals(results),
        Outcome::Claim(r) if r.result_code != wire::activity::CLAIMED => {
            Some(format!("{}: {}", r.result_code, r.result_message))
        }
        _ => None,
    }
}

/// `call token`'s answer, fields in this order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct TokenAnswer<'a> {
    scope: &'a str,
    expires_at: i64,
}

#[derive(serde::Serialize)]
struct Exported<'a> {
    exported: usize,
    path: &'a Path,
}

/// An answer as JSON text, before it is printed in the format asked for.
fn answer(outcome: Outcome) -> Result<String, String> {
    use output::json_text;
    use serde_json::json;
    match outcome {
        Outcome::Customer(v) => json_text(&v),
        Outcome::Customers(v) => json_text(&v),
        Outcome::Enterprise(v) => json_text(&v),
        Outcome::Updated => Ok("{}".to_owned()),
        Outcome::Orders(v) => json_text(&v),
        Outcome::Locks(v) => json_text(&v),
        Outcome::Assets(v) => json_text(&v),
        Outcome::Shellnums(v) => json_text(&v),
        Outcome::Claim(v) => json_text(&v),
        Outcome::Connected {
            scope,
            expires_at_ms,
        } => json_text(&TokenAnswer {
            scope: &scope,
            expires_at: expires_at_ms,
        }),
        Outcome::Journal(v) => json_text(&v),
        Outcome::Writes(v) => json_text(&v),
        Outcome::Resolved(v) => json_text(&v),
        Outcome::Exported { path, count } => json_text(&Exported {
            exported: count,
            path: &path,
        }),
        Outcome::DeletePreview(p) => json_text(&json!({
            "refused": p.refused(),
            "unknown": p.unknown(),
            "assetsRemoved": p.assets_removed(),
            "productsRemoved": p.products_removed(),
            "orders": p.orders,
        })),
        other => json_text(&format!("{other:?}")),
    }
}
