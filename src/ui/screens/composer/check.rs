//! The composer's check: every problem the shared validation finds in the batch, counted at
//! each node so a collapsed node shows those below it, and the field a clicked problem focuses.

use std::collections::HashMap;

use super::node::NodeId;
use crate::core::files::FilePlace;
use crate::core::snapshot::{Checked, Snapshot};
use crate::core::wire::validate::{self, Problem};
use crate::core::{Awaited, drafts};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, tr};

/// A batch of up to this many orders is checked on the window's thread, within a frame (the
/// check takes about 1.4 µs an order); a larger one on the core's threads.
pub(super) const CHECK_HERE_UP_TO: usize = 1_000;

#[derive(Default)]
pub(super) struct Check {
    pub problems: Vec<Problem>,
    /// Keys of no field of the interface: kept and sent as is, listed but not problems.
    pub unknown_keys: Vec<validate::UnknownKey>,
    /// Problems at or below each node.
    pub counts: HashMap<NodeId, usize>,
    needs_check: bool,
    /// A check running on the core's threads.
    call: Awaited<Box<Checked>>,
    /// The field a clicked problem asks to focus; taken by that field's row.
    pub focus_field: Option<String>,
    /// `F6` from the tree: the first problem takes the keyboard's focus when drawn.
    pub focus_list: bool,
    /// Where the problems of a batch just imported are in its file (by path), and the file's
    /// name; kept while the batch's structure stays as imported.
    places: HashMap<String, FilePlace>,
    file: String,
}

impl Check {
    /// A new batch is open: checked at the next frame, nothing focused.
    pub fn reset(&mut self) {
        self.needs_check = true;
        // A check of the batch that was open is of no use now.
        self.call.cancel();
        self.focus_field = None;
        self.places.clear();
    }

    /// The batch was imported from `file`: its problems are placed in it.
    pub fn imported(&mut self, file: String, places: Vec<(String, FilePlace)>) {
        self.file = file;
        self.places = places.into_iter().collect();
    }

    /// A node was added, moved or removed: paths no longer match the file's.
    pub fn structure_changed(&mut self) {
        self.places.clear();
    }

    /// Where a problem is in the file the batch was imported from, in words.
    pub fn place_words(&self, lang: Lang, problem: &Problem) -> Option<String> {
        let file = self.file.as_str();
        Some(match self.places.get(&problem.path.to_string())? {
            FilePlace::Line { line, column } => {
                let (line, column) = (*line, *column);
                tr!(
                    lang,
                    "file-line-column",
                    file = file,
                    line = line,
                    column = column
                )
            }
            FilePlace::Cell(cell) => tr!(lang, "file-cell", file = file, cell = cell.as_str()),
            FilePlace::Row { sheet, row } => {
                let row = *row;
                tr!(
                    lang,
                    "file-row",
                    file = file,
                    sheet = sheet.as_str(),
                    row = row
                )
            }
        })
    }

    /// The batch changed: checked again at the next frame.
    pub fn changed(&mut self) {
        self.needs_check = true;
    }

    /// Checks the batch if it changed: here when it is small, else on the core's threads from
    /// its snapshot (one check at a time; the problems shown meanwhile are the last found).
    pub fn run_if_needed(&mut self, batch: &Snapshot, out: &Outbox) {
        if !self.needs_check || self.call.is_waiting() {
            return;
        }
        self.needs_check = false;
        if batch.len() > CHECK_HERE_UP_TO {
            self.call.start(out.ask(drafts::Check {
                batch: batch.clone(),
            }));
            return;
        }
        // Values held verbatim (from a file, or typed and not fitting) are among them.
        self.take(Checked::of_snapshot(batch));
    }

    /// The answer of a check on the core's threads, once it has come.
    pub fn poll(&mut self, out: &Outbox) {
        if let Some(Ok(checked)) = out.reply(&mut self.call, label!("check-batch")) {
            self.take(*checked);
        }
    }

    /// A new batch is open, checked already (on the core's threads, as it was imported).
    pub fn opened_checked(&mut self, checked: Checked) {
        self.reset();
        self.needs_check = false;
        self.take(checked);
    }

    /// Shows what a check found, counted at each node.
    fn take(&mut self, checked: Checked) {
        self.problems = checked.problems;
        self.unknown_keys = checked.unknown_keys;
        self.counts.clear();
        for p in &self.problems {
            let (mut at, _) = NodeId::of_path(&p.path);
            loop {
                *self.counts.entry(at.clone()).or_default() += 1;
                match at.parent() {
                    Some(parent) => at = parent,
                    None => break,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::BatchOrderRequest;

    #[test]
    fn a_problem_is_placed_in_its_file_until_the_structure_changes() {
        let batch: BatchOrderRequest = serde_json::from_str(r#"{"orderList": []}"#).expect("json");
        let mut check = Check::default();
        check.reset();
        check.take(Checked::of(&batch));
        let problem = check.problems.first().cloned().expect("a problem");
        let at = FilePlace::Line { line: 3, column: 7 };
        check.imported("a.json".into(), vec![(problem.path.to_string(), at)]);
        assert_eq!(
            check.place_words(Lang::En, &problem).as_deref(),
            Some("a.json: line 3, column 7")
        );
        assert_eq!(
            check.place_words(Lang::Zh, &problem).as_deref(),
            Some("a.json：第 3 行，第 7 列")
        );
        check.structure_changed();
        assert_eq!(check.place_words(Lang::En, &problem), None);
    }
}
