//! Undo and redo of the open draft: every tree edit and field change, kept across the draft's
//! saves and reset when another draft opens.
//!
//! Cost, with a batch of 10,000 orders in mind: egui's `Undoer` keeps whole states, and its
//! own rhythm (`feed_state` every frame) would compare the batch every frame. Here the undoer is
//! fed only at a checkpoint: once the typing has paused for `SETTLE`, and at once around an edit
//! of the tree (so that each add, move or remove is a step of its own). Its states are the
//! draft's [`Snapshot`]s, which share every order an edit did not touch: a checkpoint copies
//! pointers, and compares only the orders that differ. Frames without edits touch nothing. An
//! undo makes the state it returns to the batch to edit, as it is: the next edit copies only
//! what it touches. The number of states kept is set by the batch's size when it opens.

use std::time::{Duration, Instant};

use egui::util::undoer::{Settings, Undoer};
use egui::{Key, KeyboardShortcut, Modifiers};

use super::ComposerScreen;
use super::node::{self, NodeId};
use crate::core::snapshot::Snapshot;
use crate::ui::text::i18n::{Lang, tr};

/// Typing that pauses this long is one step of the history.
pub(super) const SETTLE: Duration = Duration::from_millis(700);

/// States kept: 100 for a batch of up to 100 orders, fewer for larger ones (never under 5).
fn max_undos(batch: &Snapshot) -> usize {
    (10_000 / batch.len().max(1)).clamp(5, 100)
}

#[derive(Default)]
pub(super) struct History {
    undoer: Undoer<Snapshot>,
    /// When the latest edit not yet in the undoer was made.
    pending: Option<Instant>,
    /// Kept beside the undoer so that drawing the buttons compares no batch.
    can_undo: bool,
    can_redo: bool,
    /// The undoer may hold undone states, which the next step must drop.
    holds_redos: bool,
}

impl History {
    /// A fresh history whose first state is `batch` (another draft was opened).
    pub(super) fn reset(&mut self, batch: &Snapshot) {
        let settings = Settings {
            max_undos: max_undos(batch),
            // A checkpoint is decided here (`SETTLE`, tree edits): the undoer takes it at once.
            stable_time: 0.0,
            ..Settings::default()
        };
        *self = Self {
            undoer: Undoer::with_settings(settings),
            ..Self::default()
        };
        self.undoer.add_undo(batch);
    }

    /// The batch was changed by the user: a step to come, and the undone steps are gone.
    pub(super) fn edited(&mut self) {
        self.pending = Some(Instant::now());
        self.can_undo = true;
        self.can_redo = false;
    }

    /// Takes pending edits into the history now.
    pub(super) fn checkpoint(&mut self, batch: &Snapshot) {
        if self.pending.take().is_none() {
            return;
        }
        if std::mem::take(&mut self.holds_redos) {
            // Only feeding drops the undone states: the first feed starts a change (and drops
            // them), the second, with the same state, makes it a step (`stable_time` is zero).
            // A second copy of the batch, only for the first step after an undo.
            self.undoer.feed_state(0.0, batch);
            self.undoer.feed_state(0.0, batch);
        } else {
            self.undoer.add_undo(batch);
        }
        self.can_undo = self.undoer.has_undo(batch);
        self.can_redo = false;
    }

    /// Takes typing into the history once it has paused; when it has not yet, the time to
    /// look again.
    pub(super) fn settle(&mut self, batch: &Snapshot) -> Option<Duration> {
        let waited = self.pending?.elapsed();
        if waited >= SETTLE {
            self.checkpoint(batch);
            None
        } else {
            Some(SETTLE - waited)
        }
    }

    pub(super) fn can_undo(&self) -> bool {
        self.can_undo
    }

    pub(super) fn can_redo(&self) -> bool {
        self.can_redo
    }

    /// The state before the current one, if any; pending edits become a step first, so that
    /// redo brings them back.
    pub(super) fn undo(&mut self, batch: &Snapshot) -> Option<Snapshot> {
        self.checkpoint(batch);
        let before = self.undoer.undo(batch).cloned()?;
        self.can_undo = self.undoer.has_undo(&before);
        self.can_redo = true;
        self.holds_redos = true;
        Some(before)
    }

    /// The state undone last, if nothing was edited since.
    pub(super) fn redo(&mut self, batch: &Snapshot) -> Option<Snapshot> {
        if self.pending.is_some() {
            return None;
        }
        let after = self.undoer.redo(batch).cloned()?;
        self.can_undo = true;
        self.can_redo = self.undoer.has_redo(&after);
        Some(after)
    }
}

/// The composer's text fields that are not the batch's: there Ctrl+Z is the field's own.
#[derive(Debug, Hash, Clone, Copy, PartialEq, Eq)]
pub(super) enum OwnField {
    FilePath,
    DraftName,
}

pub(super) fn own_field(field: OwnField) -> egui::Id {
    egui::Id::unique(("composer_own_field", field))
}

const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
const REDO_Y: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);

impl ComposerScreen {
    /// Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y, taken before the fields are drawn: a text field's own
    /// undo would undo only its text, beside the batch's history, and the two would disagree.
    pub(super) fn undo_shortcuts(&mut self, ctx: &egui::Context) {
        let editable = self.draft.as_ref().is_some_and(|d| d.unreadable.is_none());
        // A dialog over the composer keeps its keys.
        if !editable || ctx.memory(|m| m.top_modal_layer().is_some()) || self.picker.is_open() {
            return;
        }
        let focused = ctx.memory(|m| m.focused());
        if [OwnField::FilePath, OwnField::DraftName]
            .into_iter()
            .any(|f| focused == Some(own_field(f)))
        {
            return;
        }
        // Ctrl+Shift+Z first: Ctrl+Z's pattern would match it too (egui ignores Shift there).
        let (redo, undo) = ctx.input_mut(|i| {
            let redo = i.consume_shortcut(&REDO) || i.consume_shortcut(&REDO_Y);
            (redo, !redo && i.consume_shortcut(&UNDO))
        });
        if undo {
            self.undo_or_redo(false);
        } else if redo {
            self.undo_or_redo(true);
        }
    }

    /// Typing that paused becomes a step; a frame is asked for when it will have paused.
    pub(super) fn settle_history(&mut self, ctx: &egui::Context) {
        if let Some(draft) = &self.draft
            && let Some(wait) = self.history.settle(&draft.batch)
        {
            ctx.request_repaint_after(wait);
        }
    }

    /// Before an edit of the tree: the typing before it is a step of its own.
    pub(super) fn before_step(&mut self) {
        if let Some(draft) = &self.draft {
            self.history.checkpoint(&draft.batch);
        }
    }

    /// An edit of the tree (or numbers added): changed, and a step at once.
    pub(super) fn stepped(&mut self) {
        self.edited();
        self.before_step();
    }

    /// The Undo and Redo buttons of the composer's bar.
    pub(super) fn undo_buttons_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let editable = self.draft.as_ref().is_some_and(|d| d.unreadable.is_none());
        let undo = ui
            .add_enabled(
                editable && self.history.can_undo(),
                egui::Button::new(tr!(lang, "undo")),
            )
            .on_hover_text(ui.ctx().format_shortcut(&UNDO));
        let redo = ui
            .add_enabled(
                editable && self.history.can_redo(),
                egui::Button::new(tr!(lang, "redo")),
            )
            .on_hover_text(ui.ctx().format_shortcut(&REDO));
        if undo.clicked() {
            self.undo_or_redo(false);
        } else if redo.clicked() {
            self.undo_or_redo(true);
        }
    }

    /// Undoes (or redoes) one step: the batch is replaced, checked and saved again, and the
    /// selection moves up to the nearest node that still exists.
    fn undo_or_redo(&mut self, redo: bool) {
        let Some(draft) = &mut self.draft else {
            return;
        };
        let state = if redo {
            self.history.redo(&draft.batch)
        } else {
            self.history.undo(&draft.batch)
        };
        let Some(state) = state else {
            return;
        };
        // The state kept is the batch to edit: an edit copies what it touches.
        draft.batch = state;
        let selected = nearest_existing(&draft.batch, &self.tree.selected);
        self.tree.select(selected);
        self.tree.structure_changed();
        self.room.forget();
        self.check.structure_changed();
        self.check.changed();
        self.check.focus_field = None;
        self.submit.forget();
        // Saved like any edit (the history stays: a save never clears it).
        self.drafts.changed();
    }
}

/// `id`, or its nearest parent that exists in `batch` (the batch itself at last).
fn nearest_existing(batch: &Snapshot, id: &NodeId) -> NodeId {
    let mut at = Some(id.clone());
    while let Some(node) = at {
        if node::resolve(batch, &node).is_some() {
            return node;
        }
        at = node.parent();
    }
    NodeId::root()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::BatchOrderRequest;

    fn batch(id: &str) -> Snapshot {
        Snapshot::from(BatchOrderRequest {
            channel_order_id: Some(id.to_owned()),
            ..BatchOrderRequest::default()
        })
    }

    #[test]
    fn typing_is_one_step_undone_and_redone_and_an_edit_drops_the_redo() {
        let mut h = History::default();
        h.reset(&batch("a"));
        assert!(!h.can_undo() && !h.can_redo());
        h.edited();
        h.edited();
        // Undone before it settled: the pending edit is kept for redo.
        let undone = h.undo(&batch("ab")).expect("undo");
        assert_eq!(undone, batch("a"));
        assert!(!h.can_undo() && h.can_redo());
        assert_eq!(h.redo(&undone), Some(batch("ab")));
        assert!(h.can_undo() && !h.can_redo());
        assert_eq!(h.undo(&batch("ab")), Some(batch("a")));
        // A new edit replaces what was undone.
        h.edited();
        assert!(!h.can_redo());
        h.checkpoint(&batch("ac"));
        assert_eq!(h.redo(&batch("ac")), None);
        assert_eq!(h.undo(&batch("ac")), Some(batch("a")));
        assert_eq!(h.redo(&batch("a")), Some(batch("ac")));
    }

    #[test]
    fn steps_are_undone_and_redone_in_order() {
        let mut h = History::default();
        h.reset(&batch("a"));
        for state in ["b", "c"] {
            h.edited();
            h.checkpoint(&batch(state));
        }
        assert_eq!(h.undo(&batch("c")), Some(batch("b")));
        assert_eq!(h.undo(&batch("b")), Some(batch("a")));
        assert!(!h.can_undo());
        assert_eq!(h.undo(&batch("a")), None);
        assert_eq!(h.redo(&batch("a")), Some(batch("b")));
        assert_eq!(h.redo(&batch("b")), Some(batch("c")));
        assert!(!h.can_redo());
        // A step after the undone ones drops them: nothing to redo over it.
        assert_eq!(h.undo(&batch("c")), Some(batch("b")));
        h.edited();
        h.checkpoint(&batch("d"));
        h.edited();
        h.checkpoint(&batch("e"));
        assert_eq!(h.redo(&batch("e")), None);
        assert_eq!(h.undo(&batch("e")), Some(batch("d")));
        assert_eq!(h.undo(&batch("d")), Some(batch("b")));
        assert_eq!(h.redo(&batch("b")), Some(batch("d")));
        assert_eq!(h.redo(&batch("d")), Some(batch("e")));
        assert_eq!(h.redo(&batch("e")), None);
    }

    #[test]
    fn a_large_batch_keeps_fewer_states() {
        let big = Snapshot::from(BatchOrderRequest {
            order_list: vec![Default::default(); 10_000],
            ..BatchOrderRequest::default()
        });
        assert_eq!(max_undos(&big), 5);
        assert_eq!(max_undos(&batch("small")), 100);
    }
}
