//! `license-desk customer show ID`: a customer's page as text or JSON (docs/customers.md). ID
//! is a customer id, a channel customer id, an enterprise global id or a name the profile's
//! directory knows; a name several enterprises fit lists them and exits 1.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use jiff::tz::TimeZone;
use license_desk::core::customer::{self, Event, Opened, Page, Report, WINDOWS};
use license_desk::core::renewals::{Due, ReadState};

use crate::cli::call::{RunSecret, open_core};
use crate::cli::output::{self, Failure};

/// A listing of 10,000 assets and the journal take seconds; a platform that does not answer
/// ends the read within the profile's time-outs.
const READ_PATIENCE: Duration = Duration::from_secs(600);

#[derive(Subcommand)]
pub enum CustomerOp {
    /// Print a customer's page: its customers, assets, what ends soon, and what this console
    /// sent for it.
    Show(ShowArgs),
}

#[derive(Args)]
pub struct ShowArgs {
    /// A customer id, a channel customer id, an enterprise global id or a name.
    id: String,
    /// The profile to read [default: the active one].
    #[arg(long)]
    profile: Option<String>,
    #[command(flatten)]
    secret: RunSecret,
    #[arg(long, value_enum, default_value = "text")]
    format: PageFormat,
    /// Also write the page as a workbook: its assets, timeline and customers (headers in
    /// Chinese and English).
    #[arg(long, value_name = "FILE")]
    xlsx: Option<std::path::PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum PageFormat {
    Text,
    Json,
}

/// Exit codes as in the manual's table: 0 the page was read (or, with the platform not
/// answering, the kept page was printed, said on standard error); 1 no page (a name several
/// enterprises fit, a customer the directory cannot place, no answer and none kept).
pub fn run(op: CustomerOp) -> ExitCode {
    let CustomerOp::Show(args) = op;
    match show(args) {
        Ok(text) => {
            output::print(&text);
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(),
    }
}

fn show(args: ShowArgs) -> Result<String, Failure> {
    let (core, profile) = open_core(args.profile, args.secret.secret_file.as_deref())?;
    let request = customer::ReadPage {
        profile: profile.name.clone(),
        id: args.id.clone(),
    };
    let page = match core.run(request, READ_PATIENCE)? {
        Opened::Page(page) => page,
        Opened::Choices(choices) => {
            let list: Vec<String> = choices
                .iter()
                .map(|(id, name)| format!("  {id}  {name}"))
                .collect();
            return Err(Failure::failed(format!(
                "{:?} fits {} enterprises; give one of their ids:\n{}",
                args.id,
                choices.len(),
                list.join("\n")
            )));
        }
    };
    if let Some(why) = &page.unreachable {
        eprintln!(
            "warning: the platform did not answer ({why}); this is the page kept from before"
        );
    }
    let tz = TimeZone::system();
    let today = jiff::Zoned::now().with_time_zone(tz.clone()).date();
    if let Some(path) = &args.xlsx {
        license_desk::core::customer::write_page_xlsx(&page, today, &tz, path)
            .map_err(Failure::failed)?;
    }
    let report = page.report(today, &tz);
    match args.format {
        PageFormat::Json => Ok(output::json_text(&report)?),
        PageFormat::Text => Ok(text(&page, &report, &tz)),
    }
}

fn text(page: &Page, r: &Report<'_>, tz: &TimeZone) -> String {
    let name = r.enterprise_name.unwrap_or("(no name known)");
    let mut lines = vec![
        format!("{name}  enterprise {}", r.enterprise_global_id),
        format!("profile {}, read {}", r.profile, r.read_at),
    ];
    lines.extend(r.branch.map(|branch| format!("branch {branch}")));
    lines.push(format!("\nCustomers ({})", state(r.customers_state)));
    for c in r.customers {
        let default = if c.is_default { "  default" } else { "" };
        lines.push(format!(
            "  {}  channel {} {}{default}",
            c.customer_id, c.channel_code, c.channel_customer_id
        ));
    }
    let [d30, d90, d365] = r.ends_within;
    lines.push(format!(
        "\nAssets: {} ({}); ending within {} days: {d30}, {} days: {d90}, {} days: {d365}",
        r.assets.len(),
        state(r.listing_state),
        WINDOWS[0],
        WINDOWS[1],
        WINDOWS[2]
    ));
    for license_type in page.license_types() {
        lines.push(format!("  {license_type}"));
        for a in r.assets.iter().filter(|a| a.license_type == license_type) {
            let lock = if a.locked { "disabled" } else { "enabled" };
            lines.push(format!(
                "    {}  customer {}  {lock}  {} products",
                a.asset_num, a.customer_id, a.product_count
            ));
            lines.extend(a.products.iter().map(|d| format!("      {}", product(d))));
        }
    }
    lines.push(format!(
        "\nTimeline ({} calls sent from this console)",
        r.timeline.len()
    ));
    lines.extend(r.timeline.iter().map(|e| format!("  {}", event(e, tz))));
    lines.join("\n").trim_end().to_owned()
}

fn state(s: &ReadState) -> String {
    match s {
        ReadState::Read => "read".to_owned(),
        ReadState::NotRead => "not read".to_owned(),
        ReadState::Refused { code, message } => format!("refused: {code} {message}"),
    }
}

fn product(d: &Due) -> String {
    let what = d
        .product_name
        .as_deref()
        .or(d.product_uri.as_deref())
        .unwrap_or("(the asset itself)");
    let start = d.start_date.as_deref().unwrap_or("?");
    let source = named(d.source);
    let renewed = if d.renewed { "; renewed" } else { "" };
    format!(
        "{what}  {start} to {}  ({} days left; from {source}{renewed})",
        d.end_date, d.days_left
    )
}

fn event(e: &Event, tz: &TimeZone) -> String {
    let at = jiff::Timestamp::from_millisecond(e.at)
        .map(|t| {
            t.to_zoned(tz.clone())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_default();
    let state = e
        .state
        .map(named)
        .or_else(|| e.code.clone())
        .unwrap_or_default();
    let what = e.what.summary();
    let message = e
        .message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    let by = e
        .person
        .as_deref()
        .map(|p| format!("  by {p}"))
        .unwrap_or_default();
    let entry = e
        .entry_id
        .map(|id| format!("  [journal #{id}]"))
        .unwrap_or_default();
    format!("{at}  {}  {state}  {what}{message}{by}{entry}", e.operation)
}

/// A value's name as its JSON says it (`outcome_unknown`, `product`).
fn named(v: impl serde::Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
