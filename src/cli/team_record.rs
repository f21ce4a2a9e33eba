//! What every `team` command that changes something shares: the change put on the record
//! under the account that ran it, a refusal in the store's words, JSON lines on stdout.

use serde::Serialize;
use team::audit::{self, Record};
use team::checkpointer::Checkpointer;
use team::{TeamError, TeamStore};

use crate::cli::output::Failure;
use crate::cli::team_data::Data;

/// A change made on the command line, in the audit log with what it changed to (never a
/// password), under the name of the account that ran the command.
pub(crate) async fn recorded<T: Serialize>(
    data: &Data,
    store: &TeamStore,
    operation: &str,
    done: Result<T, TeamError>,
) -> Result<T, Failure> {
    let value = done.map_err(refused)?;
    let key = data.audit_key(store).await?;
    let account = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let record = Record {
        person: format!("(command line: {account})"),
        operation: operation.to_owned(),
        request: serde_json::to_string(&value).ok(),
        outcome: "done".to_owned(),
        ..Record::default()
    };
    audit::append(store, record, key.clone())
        .await
        .map_err(|e| {
            Failure::failed(format!("done, but the audit log could not be written: {e}"))
        })?;
    // A checkpoint after each change, as the server writes one at each beat.
    let mut checkpoints = Checkpointer::new(key, data.seal_places().checkpoints);
    checkpoints.beat(store).await.map_err(|e| {
        Failure::failed(format!(
            "done, but the audit log's checkpoint could not be written: {e}"
        ))
    })?;
    Ok(value)
}

/// What the store refused or failed at, in its words (exit code 1).
pub(crate) fn refused(e: TeamError) -> Failure {
    Failure::failed(e.to_string())
}

pub(crate) fn print_lines<T: Serialize>(items: &[T]) {
    for item in items {
        match serde_json::to_string(item) {
            Ok(line) => println!("{line}"),
            Err(e) => eprintln!("error: cannot print a line: {e}"),
        }
    }
}
