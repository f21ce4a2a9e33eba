//! `license-desk call`: one operation through the service core (the same profiles, keyring,
//! retries and journal as the console), printed as JSON, a table or CSV.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use license_desk::core::calls::checks::PreviewDeletes;
use license_desk::core::calls::requests as calls;
use license_desk::core::journal;
use license_desk::core::profiles::{self, requests};
use license_desk::core::{
    Call, Core, CoreError, CoreOptions, ExportFormat, JournalFilter, Operation, Profile, WriteState,
};
use serde::de::DeserializeOwned;
use serde_json::json;
use wire::{self, BatchOrderRequest, ClaimRequest, CustomerQuery, DefaultFilter, OrderType};

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
        #[arg(long, value_parser = operation_names())]
        operation: Option<Operation>,
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
    /// The ledger's writes, of `--profile` if given, else of all.
    Writes(journal::requests::Writes),
    /// The journal's calls, printed or exported to a file.
    History {
        filter: JournalFilter,
        to: Option<(PathBuf, ExportFormat)>,
    },
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
            default_customer: Some(default_filter(default_only)),
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
            return Ok(Asked::Writes(journal::requests::Writes {
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
            return Ok(history(filter, csv, json));
        }
    };
    Ok(Asked::Call(call))
}

/// `--default-only`: the default customer alone, else every customer.
fn default_filter(default_only: bool) -> DefaultFilter {
    if default_only {
        DefaultFilter::Y
    } else {
        DefaultFilter::N
    }
}

/// `call history`: printed, or exported to CSV or JSON.
fn history(filter: JournalFilter, csv: Option<PathBuf>, json: Option<PathBuf>) -> Asked {
    let to = match (csv, json) {
        (Some(path), _) => Some((path, ExportFormat::Csv)),
        (None, Some(path)) => Some((path, ExportFormat::Json)),
        (None, None) => None,
    };
    Asked::History { filter, to }
}

/// `--ext-params`: a JSON value, kept as given.
fn ext_params_of(text: &str) -> Result<serde_json::Value, Failure> {
    serde_json::from_str(text)
        .map_err(|e| Failure::failed(format!("--ext-params is not JSON: {e}")))
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
            profiles::requests::UseSecretForRun {
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
fn check_production(profile: &Profile, asked: &Asked, yes: bool) -> Result<(), Failure> {
    let Asked::Call(call) = asked else {
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
    check_production(&chosen, &asked, guard.yes)?;
    // The core needs a moment to start (the Sandbox) besides the call's own longest time.
    let wait = guard
        .timeout
        .unwrap_or_else(|| chosen.limits.longest_call() + Duration::from_secs(30));
    let answered = answered(&core, asked, &chosen, wait);
    // Stopping settles a write still in flight as outcome unknown in the ledger.
    core.shutdown();
    let Answered { json, refusal } = answered?;
    let text = output::render(json, guard.format).map_err(Failure::failed)?;
    match refusal {
        Some(refusal) => Err(Failure::RefusedInAnswer {
            answer: text,
            refusal,
        }),
        None => Ok(text),
    }
}

/// An answer as JSON text, and a refusal inside it (locks not done, a claim not granted).
struct Answered {
    json: String,
    refusal: Option<String>,
}

impl Answered {
    fn of(value: &impl serde::Serialize) -> Result<Self, Failure> {
        Ok(Self {
            json: output::json_text(value).map_err(Failure::failed)?,
            refusal: None,
        })
    }
}

/// Runs what was asked on the chosen profile, waiting up to `wait`.
fn answered(
    core: &Core,
    asked: Asked,
    chosen: &Profile,
    wait: Duration,
) -> Result<Answered, Failure> {
    let profile = chosen.name.clone();
    match asked {
        Asked::Token => {
            let connected = core.run(requests::TestConnection { profile }, wait)?;
            Answered::of(&TokenAnswer {
                scope: &connected.scope,
                expires_at: connected.expires_at_ms,
            })
        }
        Asked::Call(call) => called(core, profile, call, wait),
        Asked::Preview(batch) => {
            let found = core.run(PreviewDeletes { profile, batch }, wait)?;
            Answered::of(&json!({
                "refused": found.refused(),
                "unknown": found.unknown(),
                "assetsRemoved": found.assets_removed(),
                "productsRemoved": found.products_removed(),
                "orders": found.orders,
            }))
        }
        // Settled as the profile's operator, or the user the system names.
        Asked::Resolve { call_id, done } => {
            let by = settled_by(chosen);
            let resolve = journal::requests::Resolve { call_id, done, by };
            Answered::of(&core.run(resolve, wait)?)
        }
        Asked::Writes(writes) => Answered::of(&core.run(writes, wait)?),
        Asked::History { filter, to: None } => {
            Answered::of(&core.run(journal::requests::Query(filter), wait)?)
        }
        Asked::History {
            filter,
            to: Some((path, format)),
        } => {
            let export = journal::requests::Export {
                filter,
                path,
                format,
            };
            let done = core.run(export, wait)?;
            Answered::of(&Exported {
                exported: done.count,
                path: &done.path,
            })
        }
    }
}

/// A platform call run to its answer; a write unanswered in time is said as outcome unknown.
fn called(core: &Core, profile: String, call: Call, wait: Duration) -> Result<Answered, Failure> {
    let writes = call.writes();
    let run = |e: CoreError| unknown_if_sent(e, writes);
    match call {
        Call::Bind(request) => {
            let bound = core.run(calls::Bind { profile, request }, wait);
            Answered::of(&bound.map_err(run)?)
        }
        Call::CreateEnterprise(request) => {
            let created = core.run(calls::CreateEnterprise { profile, request }, wait);
            Answered::of(&created.map_err(run)?)
        }
        Call::QueryCustomers(query) => {
            let found = core.run(calls::QueryCustomers { profile, query }, wait);
            Answered::of(&found.map_err(run)?)
        }
        Call::UpdateEnterprise(request) => {
            let updated = core.run(calls::UpdateEnterprise { profile, request }, wait);
            updated.map_err(run)?;
            Answered::of(&json!({}))
        }
        Call::BatchOrder(batch) => {
            let results = core.run(calls::BatchOrder { profile, batch }, wait);
            Answered::of(&results.map_err(run)?)
        }
        Call::Lock { nums, operator } => {
            let lock = calls::Lock {
                profile,
                nums,
                operator,
            };
            locked(&core.run(lock, wait).map_err(run)?)
        }
        Call::Unlock { nums, operator } => {
            let unlock = calls::Unlock {
                profile,
                nums,
                operator,
            };
            locked(&core.run(unlock, wait).map_err(run)?)
        }
        Call::Assets {
            enterprise_global_id,
            extend_code,
        } => {
            let assets = calls::Assets {
                profile,
                enterprise_global_id,
                extend_code,
            };
            Answered::of(&core.run(assets, wait).map_err(run)?)
        }
        Call::Shellnums(size) => {
            let nums = core.run(calls::Shellnums { profile, size }, wait);
            Answered::of(&nums.map_err(run)?)
        }
        Call::Claim(request) => {
            let answer = core.run(calls::Claim { profile, request }, wait);
            claimed(&answer.map_err(run)?)
        }
    }
}

/// Locks answered, with the assets not locked or unlocked as the refusal inside.
fn locked(results: &[wire::LockResult]) -> Result<Answered, Failure> {
    Ok(Answered {
        refusal: license_desk::core::lock_refusals(results),
        ..Answered::of(&results)?
    })
}

/// A claim answered, with its result code as the refusal inside when nothing was claimed.
fn claimed(answer: &wire::ActivityResponse) -> Result<Answered, Failure> {
    let refused = answer.result_code != wire::activity::CLAIMED;
    Ok(Answered {
        refusal: refused.then(|| format!("{}: {}", answer.result_code, answer.result_message)),
        ..Answered::of(answer)?
    })
}

/// A write that got no answer in time may have reached the platform: said as outcome unknown,
/// with how to find out.
fn unknown_if_sent(e: CoreError, writes: bool) -> Failure {
    match e {
        CoreError::GaveUp(secs) if writes => Failure::Exit(
            output::UNKNOWN,
            format!(
                "sent, outcome unknown: no answer within {secs} s, and the call may have \
                 reached the platform. Check what the platform holds before sending it \
                 again: `license-desk call writes --unknown` lists it, `license-desk call \
                 resolve CALL --done` (or --not-done) settles it"
            ),
        ),
        other => other.into(),
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

/// `--operation NAME`: one of the operations' names, listed in the help and in the error.
fn operation_names() -> impl clap::builder::TypedValueParser<Value = Operation> {
    use clap::builder::TypedValueParser as _;
    let names = Operation::ALL.iter().map(|o| o.name());
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<Operation>())
}
