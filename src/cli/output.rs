//! What the command line prints and returns: answers as JSON, an aligned table or CSV, and
//! the exit codes every sub-command shares (the table in docs/manual.md, "Exit codes").

use std::io::Write;
use std::process::ExitCode;

use clap::ValueEnum;
use license_desk::core::{ApiError, CoreError};
use serde_json::{Map, Value};

use super::secret_input::{SecretError, env_name};

// 0: done; for `order check` and `from-sheet`: no problem (`ExitCode::SUCCESS`).

/// Could not be done: no answer, a file that cannot be read or written, an unknown profile,
/// no secret, the keyring or a store failed.
pub const FAILED: u8 = 1;
/// The command line is wrong (clap's own code for a usage error), or a secret was to be read
/// from a terminal that is not there.
pub const USAGE: u8 = 2;
/// The platform answered with a refusal (its code and message on standard error).
pub const REFUSED: u8 = 3;
/// `order check` and `order from-sheet` answer as compilers and linters do (issue 16 fixed
/// them so): 1 when the file has problems, all listed ...
pub const PROBLEMS: u8 = 1;
/// ... and 2 when it is not a batch order at all (not JSON, not an object, not a readable
/// sheet) or cannot be read.
pub const NOT_A_BATCH: u8 = 2;
/// A write was sent and no answer says what the platform did: the outcome is unknown (the
/// call's id on standard error, to look it up with `call history` and settle it).
pub const UNKNOWN: u8 = 4;
/// Nothing was sent: a destructive action on a production profile needs `--yes`.
pub const NEEDS_YES: u8 = 5;
/// Nothing was sent yet: a team server keeps the call for a second person to approve (the
/// request's id alone on the last line of standard output, for scripts).
pub const HELD: u8 = 6;

/// How an answer is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Indented JSON, as the platform's types are named (camelCase).
    #[default]
    Json,
    /// Aligned columns, one row per item; nested values as compact JSON.
    Table,
    /// RFC 4180 CSV with a header row; nested values as compact JSON.
    Csv,
}

/// An answer in the format asked for, without a final newline; `json` is the answer as JSON
/// text, its objects' fields in the order the interface's types give them (which the columns
/// keep).
pub fn render(json: String, format: Format) -> Result<String, serde_json::Error> {
    match format {
        Format::Json => Ok(json),
        Format::Table => Ok(table(&rows(&json)?.shown())),
        Format::Csv => Ok(csv(&rows(&json)?.shown())),
    }
}

/// An answer as indented JSON text, in its type's field order.
pub fn json_text(value: &impl serde::Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value)
}

/// Prints a rendered answer; a closed pipe (`| head`) is not an error worth reporting.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) is no error worth reporting.
    let _ = writeln!(out, "{text}");
}

/// Prints `error: …` and answers the code.
pub fn fail(code: u8, message: &str) -> ExitCode {
    eprintln!("error: {}", printable(message));
    ExitCode::from(code)
}

/// Why a command did not do its work, and so its exit code.
pub enum Failure {
    /// The platform's answer, verbatim.
    Refused {
        code: String,
        message: String,
        cause: Option<String>,
    },
    /// The platform answered, and refused some or all of it inside a success (a lock's
    /// statuses, a claim's code): the answer is printed, then why, and the exit code is 3.
    RefusedInAnswer { answer: String, refusal: String },
    /// Kept by a team server for a second person to approve.
    Held { request_id: String, message: String },
    /// Anything else, with the exit code it gives.
    Exit(u8, String),
}

impl Failure {
    pub fn failed(why: impl std::fmt::Display) -> Self {
        Self::Exit(FAILED, why.to_string())
    }

    /// Prints it on standard error and answers its exit code.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Refused {
                code,
                message,
                cause,
            } => {
                let (code, message) = (printable(&code), printable(&message));
                // A team server's own refusal is the team server's, not the platform's.
                let who = match cause.as_deref().is_some_and(wire::team::is_own_cause) {
                    true => "the team server",
                    false => "the platform",
                };
                eprintln!("error: {who} refused: {code}: {message}");
                if let Some(cause) = cause {
                    eprintln!("cause: {}", printable(&cause));
                }
                ExitCode::from(REFUSED)
            }
            Failure::RefusedInAnswer { answer, refusal } => {
                print(&answer);
                let refusal = printable(&refusal);
                eprintln!("error: the platform answered with a refusal: {refusal}");
                ExitCode::from(REFUSED)
            }
            Failure::Held {
                request_id,
                message,
            } => {
                eprintln!("{}", printable(&message));
                eprintln!(
                    "follow it with `license-desk request show {request_id}`; it is sent once \
                     another person approves it"
                );
                print(&request_id);
                ExitCode::from(HELD)
            }
            Failure::Exit(code, message) => fail(code, &message),
        }
    }
}

/// The errors of the parts a command uses: each fails the command (exit 1) with its words.
macro_rules! failed_from {
    ($($error:ty),* $(,)?) => {
        $(impl From<$error> for Failure {
            fn from(e: $error) -> Self {
                Self::failed(e)
            }
        })*
    };
}

failed_from!(
    serde_json::Error,
    std::io::Error,
    rust_xlsxwriter::XlsxError,
    platform::error::OpError,
    platform::StartError,
    platform::apps::NotScopes,
    team::server::StartError,
    license_desk::ui::OpenError,
);

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Self::failed(message)
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Self::failed(message)
    }
}

impl From<SecretError> for Failure {
    fn from(e: SecretError) -> Self {
        match e {
            SecretError::Usage(message) => Failure::Exit(USAGE, message),
            SecretError::Failed(message) => Failure::Exit(FAILED, message),
        }
    }
}

impl From<CoreError> for Failure {
    fn from(e: CoreError) -> Self {
        match e {
            CoreError::Api(e) if e.session_ended() => Failure::Exit(
                REFUSED,
                format!(
                    "{e}\nSign in with `license-desk profile sign-in PROFILE` (the password on \
                     standard input), or give this run the password with --secret-file FILE"
                ),
            ),
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
            CoreError::Api(ApiError::Held {
                request_id,
                message,
            }) => Failure::Held {
                request_id,
                message,
            },
            CoreError::Api(ApiError::OutcomeUnknown {
                call_id,
                what,
                detail,
                ..
            }) => Failure::Exit(
                UNKNOWN,
                format!(
                    "sent, outcome unknown: {what}, and no answer came back ({detail}).\n\
                     Check what the platform holds before sending it again; the call is \
                     {call_id} in `license-desk call writes --unknown`, and is settled with \
                     `license-desk call resolve {call_id} --done` (or --not-done)"
                ),
            ),
            // The core's words are the window's ("enter it in Settings"); a script has others.
            CoreError::NoSecret(profile) => Failure::failed(format!(
                "no app secret is known for the profile {profile:?}: store one with \
                 `license-desk profile edit {profile:?} --secret-prompt` (or --secret-stdin), \
                 or give it to this run with {} or --secret-file FILE",
                env_name(&profile)
            )),
            other => Failure::failed(other.to_string()),
        }
    }
}

/// Columns and rows: a list of objects gives a row each (columns in first-seen order), a list
/// of plain values one `value` column, an object one row, anything else one cell.
struct Rows {
    columns: Vec<String>,
    cells: Vec<Vec<String>>,
}

/// An object's fields in the order of the text (`serde_json::Map` sorts them).
struct Ordered(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Ordered, A::Error> {
                let mut fields = Vec::new();
                while let Some(field) = map.next_entry::<String, Value>()? {
                    fields.push(field);
                }
                Ok(Ordered(fields))
            }
        }
        d.deserialize_map(Fields)
    }
}

fn rows(json: &str) -> Result<Rows, serde_json::Error> {
    let items: Vec<Ordered> = if let Ok(items) = serde_json::from_str(json) {
        items
    } else if let Ok(item) = serde_json::from_str(json) {
        vec![item]
    } else {
        // Not objects: one `value` column, a row per item of a list.
        let value: Value = serde_json::from_str(json)?;
        let values = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        return Ok(Rows {
            columns: vec!["value".to_owned()],
            cells: values.iter().map(|v| vec![cell(v)]).collect(),
        });
    };
    let mut columns: Vec<String> = Vec::new();
    for Ordered(fields) in &items {
        for (key, _) in fields {
            if !columns.contains(key) {
                columns.push(key.clone());
            }
        }
    }
    let cells = items
        .iter()
        .map(|Ordered(fields)| {
            let fields: Map<String, Value> = fields.iter().cloned().collect();
            columns
                .iter()
                .map(|c| fields.get(c).map(cell).unwrap_or_default())
                .collect()
        })
        .collect();
    Ok(Rows { columns, cells })
}

/// A value as one cell: text without quotes, null empty, nested values as compact JSON.
impl Rows {
    /// The columns as they may reach a terminal (the cells are made so already).
    fn shown(mut self) -> Rows {
        self.columns = self.columns.iter().map(|c| printable(c)).collect();
        self
    }
}

fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => printable(s),
        other => other.to_string(),
    }
}

/// Text from a platform as it may reach a terminal: control characters (an escape sequence
/// that would recolour or rewrite the screen, a carriage return that would hide a line) are
/// shown escaped, `\u{1b}`, never sent as they are; a line break stays one.
pub fn printable(text: &str) -> String {
    let hidden = |c: char| c.is_control() && c != '\n';
    if !text.chars().any(hidden) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| {
            if hidden(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Columns padded to their widest cell by display width (a Chinese character takes two
/// columns on a terminal), two spaces apart, the last one unpadded.
fn table(rows: &Rows) -> String {
    use unicode_width::UnicodeWidthStr;
    let width = |i: usize| {
        rows.cells
            .iter()
            .map(|r| r[i].width())
            .chain([rows.columns[i].width()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..rows.columns.len()).map(width).collect();
    let line = |cells: &[String]| {
        let mut out = String::new();
        for (i, text) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                out.push_str(text);
            } else {
                let pad = widths[i].saturating_sub(text.width());
                out.push_str(text);
                out.push_str(&" ".repeat(pad + 2));
            }
        }
        out.trim_end().to_owned()
    };
    let mut lines = vec![line(&rows.columns)];
    lines.extend(rows.cells.iter().map(|r| line(r)));
    lines.join("\n")
}

/// CSV through the program's one writer: a cell a spreadsheet would run as a formula starts
/// with `'`.
fn csv(rows: &Rows) -> String {
    let header: Vec<&str> = rows.columns.iter().map(String::as_str).collect();
    let text = license_desk::core::csv_out::csv_text(&header, rows.cells.iter().cloned(), false);
    text.trim_end_matches('\n').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_become_rows_with_columns_in_first_seen_order() {
        let v = r#"[{"assetNum": "8900000001", "status": 1},
                    {"assetNum": "89", "status": 2, "note": {"a": [1]}}]"#;
        assert_eq!(
            render(v.to_owned(), Format::Table).expect("table"),
            "assetNum    status  note\n8900000001  1\n89          2       {\"a\":[1]}"
        );
        assert_eq!(
            render(v.to_owned(), Format::Csv).expect("csv"),
            "assetNum,status,note\n8900000001,1,\n89,2,\"{\"\"a\"\":[1]}\""
        );
    }

    /// Chinese text takes two columns a character on a terminal: the next column starts where
    /// it starts on the other rows.
    #[test]
    fn chinese_cells_keep_the_columns_aligned() {
        let v = r#"[{"customerName": "上海示例科技", "status": 1},
                    {"customerName": "ACME", "status": 2}]"#;
        assert_eq!(
            render(v.to_owned(), Format::Table).expect("table"),
            "customerName  status\n上海示例科技  1\nACME          2"
        );
    }

    #[test]
    fn plain_lists_and_single_objects() {
        let v = json!(["8000000001", "8000000002"]).to_string();
        assert_eq!(
            render(v, Format::Csv).expect("csv"),
            "value\n8000000001\n8000000002"
        );
        let v = r#"{"scope": "auth_order", "expiresAt": 5}"#.to_owned();
        assert_eq!(
            render(v, Format::Table).expect("table"),
            "scope       expiresAt\nauth_order  5"
        );
    }
}
