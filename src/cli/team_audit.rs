//! `team audit verify|export`: the team server's audit log proved unbroken, and a time range
//! of it written as CSV or xlsx for an auditor.

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use license_desk::core::csv_out::csv_text;
use rust_xlsxwriter::{Format, Workbook};
use support::private_files::write_atomic;
use team::audit::{self, Entry, Verified};
use team::seal::{self, AuditKey};

use crate::cli::output::Failure;
use crate::cli::team_data::{Data, open};

#[derive(Subcommand)]
pub(crate) enum AuditCommand {
    /// Recompute the chain from its start: "whole: N entries", or the first entry that does
    /// not follow (exit code 1).
    Verify {
        #[command(flatten)]
        data: Data,
    },
    /// Write the entries of a time range (oldest first) as CSV or xlsx.
    Export {
        #[command(flatten)]
        data: Data,
        /// First day (YYYY-MM-DD, this computer's time zone) [default: the start].
        #[arg(long, value_name = "DAY")]
        from: Option<jiff::civil::Date>,
        /// Last day, included [default: today].
        #[arg(long, value_name = "DAY")]
        to: Option<jiff::civil::Date>,
        /// Only this person's entries.
        #[arg(long, value_name = "NAME")]
        person: Option<String>,
        #[arg(long, value_enum, default_value = "csv")]
        format: ExportFormat,
        /// The file to write (replaced whole, private to the user).
        #[arg(long, value_name = "FILE")]
        output: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ExportFormat {
    Csv,
    Xlsx,
}

const HEADER: [&str; 14] = [
    "seq",
    "time",
    "person",
    "role",
    "branch",
    "operation",
    "call id",
    "request",
    "outcome",
    "code",
    "message",
    "answer",
    "previous hash",
    "hash",
];

/// What the verification could check besides the chain.
fn seal_said((key, checkpoints): (bool, usize)) -> String {
    let macs = match key {
        true => "every MAC is the key's",
        false => "no key to check MACs with",
    };
    format!("{macs}; {checkpoints} checkpoints agree")
}

pub(crate) async fn run(command: AuditCommand) -> Result<(), Failure> {
    match command {
        AuditCommand::Verify { data } => {
            let store = open(&data).await?;
            let places = data.seal_places();
            let key = match &places.key {
                Some(path) => AuditKey::load(path).map_err(|e| Failure::failed(e.to_string()))?,
                None => None,
            };
            let checkpoints = match &places.checkpoints {
                Some(path) => {
                    seal::read_checkpoints(path).map_err(|e| Failure::failed(e.to_string()))?
                }
                None => Vec::new(),
            };
            let sealed = (key.is_some(), checkpoints.len());
            match audit::verify_sealed(&store, key, checkpoints)
                .await
                .map_err(|e| Failure::failed(e.to_string()))?
            {
                Verified::Whole(n) => {
                    println!("the audit log is whole: {n} entries; {}", seal_said(sealed));
                    Ok(())
                }
                Verified::Contradicted { why } => Err(Failure::failed(format!(
                    "the audit log is not what it was: {why}"
                ))),
                Verified::Broken { entry, why } => Err(Failure::failed(format!(
                    "the audit log is broken at entry {} ({}, {}, {}): {why}",
                    entry.seq,
                    local_time(entry.at),
                    entry.record.person,
                    entry.record.operation
                ))),
            }
        }
        AuditCommand::Export {
            data,
            from,
            to,
            person,
            format,
            output,
        } => {
            let store = open(&data).await?;
            let from_ms = from.map_or(Ok(0), day_start)?;
            let to_ms = match to {
                Some(day) => {
                    day_start(day.tomorrow().map_err(|e| Failure::failed(e.to_string()))?)?
                }
                None => i64::MAX,
            };
            let person = person.map(|p| team::identity::name_key(&p));
            let entries = audit::range(&store, from_ms, to_ms, person)
                .await
                .map_err(|e| Failure::failed(e.to_string()))?;
            let cannot = |e: &dyn std::fmt::Display| {
                Failure::failed(format!("cannot write {}: {e}", output.display()))
            };
            match format {
                ExportFormat::Csv => write_csv(&entries, &output).map_err(|e| cannot(&e)),
                ExportFormat::Xlsx => write_xlsx(&entries, &output).map_err(|e| cannot(&e)),
            }?;
            println!("{} entries written to {}", entries.len(), output.display());
            Ok(())
        }
    }
}

/// Midnight of `day` in this computer's time zone, epoch ms.
fn day_start(day: jiff::civil::Date) -> Result<i64, Failure> {
    day.to_zoned(TimeZone::system())
        .map(|z| z.timestamp().as_millisecond())
        .map_err(|e| Failure::failed(format!("{day}: {e}")))
}

fn local_time(ms: i64) -> String {
    Timestamp::from_millisecond(ms)
        .map(|t| {
            t.to_zoned(TimeZone::system())
                .strftime("%Y-%m-%d %H:%M:%S")
                .to_string()
        })
        .unwrap_or_else(|_| ms.to_string())
}

fn cells(e: &Entry) -> Vec<String> {
    let r = &e.record;
    let opt = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        e.seq.to_string(),
        local_time(e.at),
        r.person.clone(),
        r.role.clone(),
        opt(&r.branch),
        r.operation.clone(),
        opt(&r.call_id),
        opt(&r.request),
        r.outcome.clone(),
        opt(&r.code),
        opt(&r.message),
        opt(&r.answer),
        e.prev_hash.clone(),
        e.hash.clone(),
    ]
}

fn write_csv(entries: &[Entry], path: &std::path::Path) -> std::io::Result<()> {
    let text = csv_text(&HEADER, entries.iter().map(cells), true);
    write_atomic(path, text.as_bytes())
}

fn write_xlsx(entries: &[Entry], path: &std::path::Path) -> Result<(), rust_xlsxwriter::XlsxError> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let sheet = book.add_worksheet();
    sheet.set_name("Audit")?;
    for (x, head) in HEADER.iter().enumerate() {
        sheet.write_string_with_format(0, x as u16, *head, &bold)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    for (r, e) in entries.iter().enumerate() {
        for (x, cell) in cells(e).iter().enumerate() {
            sheet.write_string(r as u32 + 1, x as u16, cell)?;
        }
    }
    let bytes = book.save_to_buffer()?;
    write_atomic(path, &bytes).map_err(rust_xlsxwriter::XlsxError::IoError)
}
