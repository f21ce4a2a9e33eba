//! The composer's check: every problem the shared validation finds in the batch, counted at
//! each node so a collapsed node shows those below it, and the field a clicked problem focuses.

use std::collections::HashMap;

use super::node::NodeId;
use crate::core::wire::BatchOrderRequest;
use crate::core::wire::validate::{self, Problem};

#[derive(Default)]
pub(super) struct Check {
    pub problems: Vec<Problem>,
    /// Problems at or below each node.
    pub counts: HashMap<NodeId, usize>,
    needs_check: bool,
    /// The field a clicked problem asks to focus; taken by that field's row.
    pub focus_field: Option<String>,
}

impl Check {
    /// A new batch is open: checked at the next frame, nothing focused.
    pub fn reset(&mut self) {
        self.needs_check = true;
        self.focus_field = None;
    }

    /// The batch changed: checked again at the next frame.
    pub fn changed(&mut self) {
        self.needs_check = true;
    }

    pub fn run_if_needed(&mut self, batch: &BatchOrderRequest) {
        if !std::mem::take(&mut self.needs_check) {
            return;
        }
        // Values held verbatim (from a file, or typed and not fitting) are among them.
        self.problems = validate::batch_order(batch);
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
