//! A call as History lists it: the journal's attempts that share its id under one row, and
//! where its write stands, in words.

use std::collections::HashMap;

use crate::core::{JournalEntry, WriteState};
use crate::ui::text::i18n::{Label, label};

/// One call: its attempts as indexes into the entries, newest first.
pub(super) struct CallRow {
    pub attempts: Vec<usize>,
}

impl CallRow {
    pub fn newest(&self) -> usize {
        self.attempts[0]
    }
}

/// The entries (newest first) grouped by call, in the same order; an entry without a call id
/// (a token request, an entry older than the ledger) is a call of its own.
pub(super) fn group(entries: &[JournalEntry]) -> Vec<CallRow> {
    let mut rows: Vec<CallRow> = Vec::new();
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        match e.call_id.as_deref() {
            Some(id) if by_id.contains_key(id) => rows[by_id[id]].attempts.push(i),
            id => {
                if let Some(id) = id {
                    by_id.insert(id, rows.len());
                }
                rows.push(CallRow { attempts: vec![i] });
            }
        }
    }
    rows
}

/// Whether the call, told by its newest attempt, failed: a write by where it ended (a write
/// done after a retry did not fail), a read by its last attempt.
pub(super) fn call_failed(newest: &JournalEntry) -> bool {
    match newest.state {
        Some(WriteState::Done | WriteState::InFlight | WriteState::Held) => {
            newest.refusal.is_some()
        }
        Some(WriteState::Refused | WriteState::NotSent | WriteState::Unknown) => true,
        None => newest.failed(),
    }
}

/// Why an attempt got no answer, by the kind the journal kept.
pub(super) fn explain_failure(kind: Option<&str>) -> Label {
    match kind {
        Some("not_sent") => label!("explain-unreachable"),
        Some("broken") => label!("explain-broken"),
        Some("timeout") => label!("explain-timeout"),
        Some("unexpected") => label!("explain-unexpected"),
        Some("untrusted") => label!("explain-untrusted"),
        Some("ca_file") => label!("explain-ca-file"),
        Some("config") => label!("explain-profile"),
        Some("outcome_unknown") => label!("explain-outcome-unknown"),
        _ => label!("explain-no-answer-unrecorded"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: i64, call: Option<&str>) -> JournalEntry {
        JournalEntry {
            id,
            at: 0,
            profile: "p".into(),
            operation: crate::core::Operation::Lock,
            method: "POST".into(),
            path: "/".into(),
            nonce: None,
            http_status: None,
            code: None,
            duration_ms: 0,
            attempt: 1,
            request: None,
            response: None,
            error: None,
            call_id: call.map(str::to_owned),
            refusal: None,
            state: None,
            failure: None,
        }
    }

    #[test]
    fn attempts_of_one_call_share_a_row_in_order() {
        let entries = [
            entry(5, Some("b")),
            entry(4, None),
            entry(3, Some("a")),
            entry(2, Some("b")),
            entry(1, Some("a")),
        ];
        let rows: Vec<Vec<usize>> = group(&entries).into_iter().map(|r| r.attempts).collect();
        assert_eq!(rows, vec![vec![0, 3], vec![1], vec![2, 4]]);
    }

    #[test]
    fn a_write_done_after_a_failed_attempt_did_not_fail_and_a_refusal_inside_did() {
        let mut e = entry(1, Some("a"));
        e.error = Some("no answer".into());
        e.state = Some(WriteState::Done);
        assert!(!call_failed(&e));
        e.refusal = Some("status 4: 1 of 1".into());
        assert!(call_failed(&e));
        e.refusal = None;
        e.state = Some(WriteState::Unknown);
        assert!(call_failed(&e));
    }
}
