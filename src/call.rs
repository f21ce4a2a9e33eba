//! `license-desk call`: one operation through the service core (the same profiles, keyring,
//! retries and journal as the console), printed as JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use license_desk::client::ApiError;
use license_desk::core::{
    Call, Command, Core, CoreError, CoreOptions, ExportFormat, JournalFilter, Outcome,
};
use license_desk::wire::{self, ClaimRequest, CustomerQuery, DefaultFilter};
use serde::de::DeserializeOwned;

#[derive(Args)]
pub struct CallArgs {
    /// Profile to use [default: the active one, the Sandbox on a fresh machine]
    #[arg(long, global = true)]
    profile: Option<String>,
    #[command(subcommand)]
    op: CallOp,
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

/// Exit codes: 0 done, 2 the platform refused (its code and message on stderr), 1 otherwise.
pub fn run(args: CallArgs) -> ExitCode {
    print_outcome(command(args.op, args.profile).and_then(execute))
}

fn print_outcome(outcome: Result<String, Failure>) -> ExitCode {
    match outcome {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(Failure::Refused {
            code,
            message,
            cause,
        }) => {
            eprintln!("error: the platform refused: {code}: {message}");
            if let Some(cause) = cause {
                eprintln!("cause: {cause}");
            }
            ExitCode::from(2)
        }
        Err(Failure::Other(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `order preview FILE`: what the batch's delete orders would remove, printed as JSON.
pub fn preview(file: &Path, profile: Option<String>) -> ExitCode {
    let command = body(file).map(|batch| Command::PreviewDeletes {
        profile: profile.unwrap_or_default(),
        batch: Box::new(batch),
    });
    print_outcome(command.and_then(execute))
}

enum Failure {
    Refused {
        code: String,
        message: String,
        cause: Option<String>,
    },
    Other(String),
}

impl From<CoreError> for Failure {
    fn from(e: CoreError) -> Self {
        match e {
            CoreError::Api(ApiError::Platform {
                code,
                message,
                cause,
                ..
            }) => Failure::Refused {
                code,
                message,
                cause,
            },
            other => Failure::Other(other.to_string()),
        }
    }
}

fn body<T: DeserializeOwned>(path: &Path) -> Result<T, Failure> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::Other(format!("cannot read {}: {e}", path.display())))?;
    wire::parse::json(&bytes)
        .map_err(|e| Failure::Other(format!("{} is not the expected JSON: {e}", path.display())))
}

fn command(op: CallOp, profile: Option<String>) -> Result<Command, Failure> {
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
            ext_params: match ext_params {
                Some(text) => Some(
                    serde_json::from_str(&text)
                        .map_err(|e| Failure::Other(format!("--ext-params is not JSON: {e}")))?,
                ),
                None => None,
            },
        }),
        CallOp::Token => {
            return Ok(Command::TestConnection {
                profile: profile.unwrap_or_default(),
            });
        }
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
                profile: profile.clone(),
                limit,
                ..JournalFilter::default()
            };
            return Ok(match (csv, json) {
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
            });
        }
    };
    // No --profile: the active one, named once the core has read the profiles.
    Ok(Command::CallOn {
        profile: profile.unwrap_or_default(),
        call,
    })
}

fn execute(command: Command) -> Result<String, Failure> {
    let options = CoreOptions::for_user()?;
    let core = Core::start(options)?;
    // Without --profile: the active profile.
    let command = match command {
        Command::TestConnection { profile } if profile.is_empty() => Command::TestConnection {
            profile: core.state().profiles.active,
        },
        Command::CallOn { profile, call } if profile.is_empty() => Command::CallOn {
            profile: core.state().profiles.active,
            call,
        },
        Command::PreviewDeletes { profile, batch } if profile.is_empty() => {
            Command::PreviewDeletes {
                profile: core.state().profiles.active,
                batch,
            }
        }
        other => other,
    };
    let outcome = core.run(command, Duration::from_secs(300));
    core.shutdown();
    let json = match outcome? {
        Outcome::Customer(v) => serde_json::to_string_pretty(&v),
        Outcome::Customers(v) => serde_json::to_string_pretty(&v),
        Outcome::Enterprise(v) => serde_json::to_string_pretty(&v),
        Outcome::Updated => Ok("{}".to_owned()),
        Outcome::Orders(v) => serde_json::to_string_pretty(&v),
        Outcome::Locks(v) => serde_json::to_string_pretty(&v),
        Outcome::Assets(v) => serde_json::to_string_pretty(&v),
        Outcome::Shellnums(v) => serde_json::to_string_pretty(&v),
        Outcome::Claim(v) => serde_json::to_string_pretty(&v),
        Outcome::Connected {
            scope,
            expires_at_ms,
        } => serde_json::to_string_pretty(&serde_json::json!({
            "scope": scope, "expiresAt": expires_at_ms
        })),
        Outcome::Journal(v) => serde_json::to_string_pretty(&v),
        Outcome::Exported { path, count } => serde_json::to_string_pretty(&serde_json::json!({
            "exported": count, "path": path
        })),
        Outcome::DeletePreview(p) => serde_json::to_string_pretty(&serde_json::json!({
            "refused": p.refused(),
            "unknown": p.unknown(),
            "assetsRemoved": p.assets_removed(),
            "productsRemoved": p.products_removed(),
            "orders": p.orders,
        })),
        other => Ok(format!("{other:?}")),
    };
    json.map_err(|e| Failure::Other(e.to_string()))
}
