//! `license-desk request list|show|approve|reject`: requests that wait for a second person on
//! a team server (docs/team.md, "Four eyes"). `show` prints what a request does, with a
//! delete's preview; `approve` approves what `show` printed (the body's hash is read first),
//! and the server sends it once.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use client::Reach;
use license_desk::core::team::{self, Decision, Request, RequestQuery, RequestState};
use license_desk::core::{Core, CoreError};
use wire::approval;

use crate::cli::call::{RunSecret, open_core};
use crate::cli::output::{self, Failure, Format};

#[derive(Args)]
pub struct RequestArgs {
    /// The team server's profile [default: the active one].
    #[arg(long, global = true)]
    profile: Option<String>,
    #[command(flatten)]
    secret: RunSecret,
    #[command(subcommand)]
    op: RequestOp,
}

#[derive(Subcommand)]
enum RequestOp {
    /// Requests, newest first: everyone's for an approver, else your own.
    List {
        /// Only your own.
        #[arg(long)]
        mine: bool,
        /// Only those in this state (pending, approved, rejected, done, refused, unknown,
        /// not_sent).
        #[arg(long, value_parser = state_names())]
        state: Option<RequestState>,
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
    },
    /// One request as JSON: its body, a delete's preview, its state and outcome.
    Show { id: String },
    /// Approve a request (never your own): the server sends it once and answers its outcome.
    /// What it approves is said first on stderr (who filed it, what it does, what a delete
    /// removes), unless --yes.
    Approve {
        id: String,
        /// Approve without saying what first (for scripts that showed it already).
        #[arg(long)]
        yes: bool,
    },
    /// Reject a request, saying why to its requester.
    Reject {
        id: String,
        #[arg(long)]
        reason: String,
    },
}

/// Exit codes as in the manual's table: 0 done, 3 the server refused (your own request,
/// decided already, changed since, no permission) or the platform refused the approved call,
/// 4 an approval sent with its outcome unknown, 1 anything else (not sent included).
pub fn run(args: RequestArgs) -> ExitCode {
    match execute(args) {
        Ok(text) => {
            output::print(&text);
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn execute(args: RequestArgs) -> Result<String, Failure> {
    let (core, profile) = open_core(args.profile, args.secret.secret_file.as_deref())?;
    if !profile.is_team() {
        return Err(Failure::failed(format!(
            "{:?} is not a team server's profile: requests are a team server's",
            profile.name
        )));
    }
    let name = profile.name;
    match args.op {
        RequestOp::List {
            mine,
            state,
            format,
        } => {
            let query = RequestQuery {
                mine,
                state,
                limit: None,
                before: None,
            };
            let found = team(
                &core,
                team::ListRequests {
                    profile: name,
                    query,
                },
            )?;
            let rows: Vec<Row> = found.iter().map(Row::of).collect();
            output::render(output::json_text(&rows)?, format).map_err(Failure::failed)
        }
        RequestOp::Show { id } => shown(&read(&core, &name, &id)?),
        RequestOp::Approve { id, yes } => {
            let seen = read(&core, &name, &id)?;
            if !yes {
                eprintln!("{}", approving(&seen));
            }
            let decision = Decision::Approve {
                body_hash: seen.body_hash,
            };
            decided(&core, name, seen.id, decision)
        }
        RequestOp::Reject { id, reason } => {
            let id = request_id(&id)?;
            decided(&core, name, id, Decision::Reject { reason })
        }
    }
}

/// A request in a list: what a person scans.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Row<'a> {
    id: String,
    state: &'static str,
    requester: &'a str,
    summary: &'a str,
    decided_by: Option<&'a str>,
    reason: Option<&'a str>,
}

impl<'a> Row<'a> {
    fn of(r: &'a Request) -> Self {
        Row {
            id: approval::name(r.id),
            state: r.state.name(),
            requester: &r.requester,
            summary: &r.summary,
            decided_by: r.decided_by.as_deref(),
            reason: r.reason.as_deref(),
        }
    }
}

/// What an approval approves, in a few lines: the request, who filed it, what it does, and
/// what a delete removes (as previewed when it was filed).
fn approving(r: &Request) -> String {
    let who = match &r.branch {
        Some(branch) => format!("{} of {branch}", r.requester),
        None => r.requester.clone(),
    };
    let mut lines = vec![format!(
        "approving {} filed by {who}: {}",
        approval::name(r.id),
        r.summary
    )];
    let orders = r.preview.iter().flat_map(|p| &p.orders);
    for o in orders {
        let (whole, products, warnings) =
            (o.assets_removed.len(), o.removed.len(), o.warnings.len());
        let order = o
            .sequence
            .map_or_else(|| o.index.to_string(), |s| s.to_string());
        let mut line =
            format!("  order {order}: removes {whole} asset(s) whole and {products} product(s)");
        if warnings > 0 {
            line.push_str(&format!(
                "; {warnings} warning(s): `license-desk request show {}`",
                approval::name(r.id)
            ));
        }
        lines.push(line);
    }
    lines.join("\n")
}

fn read(core: &Core, profile: &str, id: &str) -> Result<Request, Failure> {
    let id = request_id(id)?;
    let read = team(
        core,
        team::ReadRequest {
            profile: profile.to_owned(),
            id,
        },
    )?;
    Ok(*read)
}

/// Decides, and prints the request as it now stands; an approval the platform did not answer
/// is exit 4, as any write whose outcome is unknown.
fn decided(core: &Core, profile: String, id: i64, decision: Decision) -> Result<String, Failure> {
    let asked = core.run(
        team::Decide {
            profile,
            id,
            decision,
        },
        Duration::from_secs(300),
    );
    let r = match asked {
        // The server may have decided and sent it: its record says, not a guess.
        Err(CoreError::Api(e)) if e.reach() == Reach::Maybe => {
            return Err(Failure::Exit(
                output::UNKNOWN,
                format!(
                    "{e}: the team server may have decided {name} and sent it; \
                     `license-desk request show {name}` tells what became of it",
                    name = approval::name(id)
                ),
            ));
        }
        other => other?,
    };
    let text = shown(&r)?;
    match r.state {
        RequestState::Unknown => {
            output::print(&text);
            Err(Failure::Exit(
                output::UNKNOWN,
                format!(
                    "{} was sent to the platform and no answer says what it did: check what \
                     the platform holds; it is not sent again",
                    approval::name(r.id)
                ),
            ))
        }
        RequestState::NotSent => {
            output::print(&text);
            Err(Failure::failed(format!(
                "{} was not sent: {}; it may be approved again",
                approval::name(r.id),
                r.message.unwrap_or_default()
            )))
        }
        RequestState::Refused => {
            output::print(&text);
            Err(Failure::Refused {
                code: r.code.unwrap_or_default(),
                message: r.message.unwrap_or_default(),
                cause: Some(format!("{} {}", approval::name(r.id), r.state.name())),
            })
        }
        _ => Ok(text),
    }
}

fn shown(r: &Request) -> Result<String, Failure> {
    output::json_text(r).map_err(Failure::failed)
}

fn team<R: license_desk::core::Request>(core: &Core, request: R) -> Result<R::Reply, Failure> {
    // An approval sends a batch before it answers.
    Ok(core.run(request, Duration::from_secs(300))?)
}

fn request_id(text: &str) -> Result<i64, Failure> {
    approval::parse_name(text).ok_or_else(|| {
        Failure::Exit(
            output::USAGE,
            format!("{text:?} is not a request's id (R-17, or 17)"),
        )
    })
}

/// `--state NAME`: one of the states' names, listed in the help and in the error.
fn state_names() -> impl clap::builder::TypedValueParser<Value = RequestState> {
    use clap::builder::TypedValueParser as _;
    let names = RequestState::ALL.iter().map(|s| s.name());
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<RequestState>())
}
