//! The composer's drafts: the list, the one open (loaded, created from a template or a file,
//! renamed, deleted) and its autosave. The batch is always a saved draft.

use std::time::{Duration, Instant};

use egui::RichText;

use super::batch::{self, Template};
use super::{ComposerScreen, Hints, OpenDraft, Unreadable};
use crate::core::drafts::{self, Loaded};
use crate::core::files::StoredBatch;
use crate::core::snapshot::Snapshot;
use crate::core::wire::{BatchOrderRequest, OrderType};
use crate::core::{Awaited, DraftSummary};
use crate::ui::kit::button::danger_button;
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, label, t, tr};

/// The order types a batch holds, each once, as the drafts' list names them.
fn order_types(batch: &Snapshot) -> Vec<OrderType> {
    let mut kinds = Vec::new();
    for kind in batch.orders().filter_map(|o| o.order_type) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds.sort_by_key(|k| k.as_str());
    kinds
}

/// Edits are saved this long after the last change (every keystroke would be too many writes).
const SAVE_AFTER: Duration = Duration::from_millis(800);

#[derive(Default)]
pub(super) struct Drafts {
    list: Vec<DraftSummary>,
    /// The list is asked for when the screen is first shown.
    started: bool,
    name_edit: String,
    list_call: Awaited<Vec<DraftSummary>>,
    load_call: Awaited<Loaded>,
    create_call: Awaited<i64>,
    save_call: Awaited<()>,
    hints_call: Awaited<()>,
    rename_call: Awaited<()>,
    delete_call: Awaited<Vec<DraftSummary>>,
    confirm_delete: bool,
    /// When the open draft was last changed and not yet saved.
    changed_at: Option<Instant>,
    /// The open draft's last save failed, and none has succeeded since.
    save_failed: bool,
}

impl Drafts {
    pub(super) fn start(&mut self, out: &Outbox<'_>) {
        if !self.started {
            self.started = true;
            self.list_call.start(out.ask(drafts::List));
        }
    }

    pub(super) fn refresh(&mut self, out: &Outbox<'_>) {
        self.list_call.start(out.ask(drafts::List));
    }

    /// Whether an edit waits to be saved (a save of it failed, or none was made yet) or a
    /// save is on its way.
    pub(super) fn saving(&self) -> bool {
        self.save_failed
            || self.changed_at.is_some()
            || self.save_call.is_waiting()
            || self.create_call.is_waiting()
            || self.hints_call.is_waiting()
    }

    pub(super) fn changed(&mut self) {
        self.changed_at = Some(Instant::now());
    }
}

impl ComposerScreen {
    /// Takes the drafts' replies that have come.
    pub(super) fn poll_drafts(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(list)) = out.reply(&mut self.drafts.list_call, label!("load-drafts")) {
            self.drafts.list = list;
            if self.draft.is_none() && !self.drafts.load_call.is_waiting() {
                self.open_first(out);
            }
        }
        if let Some(Ok(loaded)) = out.reply(&mut self.drafts.load_call, label!("open-draft")) {
            self.open_loaded(loaded);
            self.store_new_hints(out);
        }
        if let Some(Ok(id)) = out.reply(&mut self.drafts.create_call, label!("save-draft"))
            && let Some(draft) = &mut self.draft
        {
            draft.id = Some(id);
            self.drafts.refresh(out);
            self.store_new_hints(out);
        }
        self.poll_draft_changes(out);
    }

    /// Opens a draft as stored. One that no longer opens (a damaged disk, another program)
    /// opens read-only with what it holds kept as stored, so that nothing saves over it.
    fn open_loaded(&mut self, Loaded { draft: d, batch }: Loaded) {
        let stored = d.body_bytes.as_deref().unwrap_or(d.body.as_bytes());
        let (batch, unreadable) = match batch {
            StoredBatch::Opened(batch) => (batch, None),
            StoredBatch::NotText => (Snapshot::default(), Some(Unreadable::not_text(stored))),
            StoredBatch::Broken(e) => {
                let unreadable = Unreadable {
                    line: e.line,
                    column: e.column,
                    what: e.what,
                    stored: stored.to_vec(),
                };
                (Snapshot::default(), Some(unreadable))
            }
        };
        let hints = serde_json::from_str(&d.hints).unwrap_or_default();
        self.open(OpenDraft {
            id: Some(d.id),
            name: d.name,
            batch,
            hints,
            unreadable,
        });
    }

    fn poll_draft_changes(&mut self, out: &Outbox<'_>) {
        let saved = out.reply(&mut self.drafts.save_call, label!("save-draft"));
        match &saved {
            // Its edits are not saved (the outbox said why): an install waits until a later
            // save of this draft succeeds, or another draft is opened.
            Some(Err(_)) => self.drafts.save_failed = true,
            Some(Ok(())) => self.drafts.save_failed = false,
            None => {}
        }
        let hinted = out.reply(&mut self.drafts.hints_call, label!("save-draft"));
        let renamed = out.reply(&mut self.drafts.rename_call, label!("rename-draft"));
        // The list shows what a draft holds, whether it was sent and its name: read it again.
        if [saved, hinted, renamed]
            .into_iter()
            .flatten()
            .any(|r| r.is_ok())
        {
            self.drafts.refresh(out);
        }
        if let Some(Ok(list)) = out.reply(&mut self.drafts.delete_call, label!("delete-draft")) {
            self.drafts.list = list;
            self.draft = None;
            self.open_first(out);
        }
    }

    /// The latest draft, or a new purchase when there is none.
    fn open_first(&mut self, out: &Outbox<'_>) {
        match self.drafts.list.first() {
            Some(latest) => {
                let id = latest.id;
                self.drafts.load_call.start(out.ask(drafts::Load { id }));
            }
            None => self.open_new(out, batch::template(Template::NewPurchase), None),
        }
    }

    /// Opens a batch made elsewhere (a renewal) as a new draft named `name`.
    pub(crate) fn open_batch(&mut self, out: &Outbox<'_>, batch: BatchOrderRequest, name: String) {
        self.open_new(out, batch, Some(name));
    }

    /// Opens a batch as a new draft (a template or an imported file); the draft that was open
    /// is saved first and stays in the list.
    pub(super) fn open_new(
        &mut self,
        out: &Outbox<'_>,
        batch: BatchOrderRequest,
        name: Option<String>,
    ) {
        self.save_now(out);
        let name = name.unwrap_or_else(|| {
            batch
                .channel_order_id
                .clone()
                .unwrap_or_else(|| "batch".to_owned())
        });
        self.drafts.create_call.start(out.ask(drafts::NewFromBatch {
            name: name.clone(),
            batch: Box::new(batch.clone()),
        }));
        self.open(OpenDraft {
            id: None,
            name,
            batch: Snapshot::from(batch),
            hints: Hints::default(),
            unreadable: None,
        });
    }

    /// Shows `draft`, with a history of its own.
    pub(super) fn open(&mut self, draft: OpenDraft) {
        self.drafts.name_edit = draft.name.clone();
        self.drafts.changed_at = None;
        self.history.reset(&draft.batch);
        self.draft = Some(draft);
        self.drafts.save_failed = false;
        self.tree = super::tree::Tree::default();
        self.room.forget();
        self.submit.forget();
        self.check.reset();
        self.file.forget_failure();
    }

    /// Saves pending edits at once (before another draft replaces this one).
    pub(super) fn save_now(&mut self, out: &Outbox<'_>) {
        if self.drafts.changed_at.take().is_none() {
            return;
        }
        // What was stored of an unreadable draft is all there is: never saved over.
        if self.draft.as_ref().is_some_and(|d| d.unreadable.is_some()) {
            return;
        }
        if let Some(draft) = &mut self.draft {
            draft.hints.order_types = order_types(&draft.batch);
        }
        if let Some(OpenDraft {
            id: Some(id),
            batch,
            hints,
            ..
        }) = &self.draft
        {
            // Written as JSON on the core's threads, from the batch as it is: a pointer copy.
            match serde_json::to_string(hints) {
                Ok(hints) => {
                    self.drafts.save_call.start(out.ask(drafts::SaveSnapshot {
                        id: *id,
                        batch: batch.clone(),
                        hints,
                    }));
                }
                Err(e) => {
                    tracing::error!(error = %e, "the draft's hints could not be written; not saved");
                }
            }
        }
    }

    /// Stores the open draft's hints alone when the order types it holds are not those its
    /// hints name (a batch imported or made from a template, a draft of an older version):
    /// the list names them at once.
    pub(super) fn store_new_hints(&mut self, out: &Outbox<'_>) {
        let Some(draft) = &mut self.draft else {
            return;
        };
        let (Some(id), None) = (draft.id, &draft.unreadable) else {
            return;
        };
        let kinds = order_types(&draft.batch);
        if kinds == draft.hints.order_types {
            return;
        }
        draft.hints.order_types = kinds;
        match serde_json::to_string(&draft.hints) {
            Ok(hints) => self
                .drafts
                .hints_call
                .start(out.ask(drafts::SaveHints { id, hints })),
            Err(e) => tracing::error!(error = %e, "the draft's hints could not be written"),
        }
    }

    pub(super) fn autosave(&mut self, ctx: &egui::Context, out: &Outbox<'_>) {
        let Some(changed_at) = self.drafts.changed_at else {
            return;
        };
        let waited = changed_at.elapsed();
        if waited >= SAVE_AFTER && !self.drafts.save_call.is_waiting() {
            self.save_now(out);
        } else {
            // One wake-up when the save is due: not a repaint loop.
            ctx.request_repaint_after(
                SAVE_AFTER
                    .saturating_sub(waited)
                    .max(Duration::from_millis(50)),
            );
        }
    }

    /// Opens a draft saved elsewhere (one received from a colleague), the open one saved first.
    pub(super) fn open_saved(&mut self, out: &Outbox<'_>, id: i64) {
        self.save_now(out);
        self.drafts.load_call.start(out.ask(drafts::Load { id }));
        self.drafts.refresh(out);
    }

    pub(super) fn drafts_bar_ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang) {
        let out = caller.out;
        ui.horizontal_wrapped(|ui| {
            self.undo_buttons_ui(ui, lang);
            ui.separator();
            let current = self.draft.as_ref().and_then(|d| d.id);
            if let Some(id) = self.draft_choice_ui(ui, lang, current) {
                self.save_now(out);
                self.drafts.load_call.start(out.ask(drafts::Load { id }));
            }
            self.rename_ui(ui, out, lang);
            ui.menu_button(t!(lang, "new-draft"), |ui| {
                for kind in Template::ALL {
                    let text = match kind {
                        Template::NewPurchase => label!("template-new-purchase"),
                        Template::DeleteAssets => label!("template-delete-assets"),
                        Template::DeleteProducts => label!("template-delete-products"),
                    };
                    if ui.button(text.text(lang)).clicked() {
                        self.open_new(out, batch::template(kind), None);
                        ui.close();
                    }
                }
            });
            let delete = egui::Button::new(t!(lang, "delete-draft"));
            if ui.add_enabled(current.is_some(), delete).clicked() {
                self.drafts.confirm_delete = true;
            }
            if caller.profile.is_team() {
                ui.separator();
                self.handover_bar_ui(ui, caller, lang);
            }
        });
    }

    /// The drafts' list; another draft than the open one, when chosen.
    fn draft_choice_ui(&self, ui: &mut egui::Ui, lang: Lang, current: Option<i64>) -> Option<i64> {
        let label = ui.label(t!(lang, "draft"));
        let shown = self
            .draft
            .as_ref()
            .map_or(String::new(), |d| d.name.clone());
        let mut chosen = None;
        egui::ComboBox::from_id_salt("drafts")
            .selected_text(shown)
            .width(220.0)
            .show_ui(ui, |ui| {
                for d in &self.drafts.list {
                    let hints: Hints = serde_json::from_str(&d.hints).unwrap_or_default();
                    let more = hints.list_words(lang);
                    let text = if more.is_empty() {
                        d.name.clone()
                    } else {
                        format!("{} · {more}", d.name)
                    };
                    if ui.selectable_label(current == Some(d.id), text).clicked() {
                        chosen = Some(d.id);
                    }
                }
            })
            .response
            .labelled_by(label.id);
        chosen.filter(|id| Some(*id) != current)
    }

    fn rename_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang) {
        let label = ui.label(t!(lang, "draft-name"));
        let name_edit = &mut self.drafts.name_edit;
        let rename = ui
            .add(
                egui::TextEdit::singleline(name_edit)
                    .id(super::history::own_field(
                        super::history::OwnField::DraftName,
                    ))
                    .desired_width(230.0),
            )
            .labelled_by(label.id);
        if rename.lost_focus()
            && let Some(draft) = &mut self.draft
            && let Some(id) = draft.id
            && !name_edit.trim().is_empty()
            && name_edit.trim() != draft.name
        {
            draft.name = name_edit.trim().to_owned();
            self.drafts.rename_call.start(out.ask(drafts::Rename {
                id,
                name: draft.name.clone(),
            }));
        }
    }

    pub(super) fn confirm_delete_ui(&mut self, ctx: &egui::Context, out: &Outbox<'_>, lang: Lang) {
        if !self.drafts.confirm_delete {
            return;
        }
        let Some((Some(id), name)) = self.draft.as_ref().map(|d| (d.id, d.name.clone())) else {
            self.drafts.confirm_delete = false;
            return;
        };
        let drafts = &mut self.drafts;
        let mut done = false;
        let modal = egui::Modal::new(egui::Id::unique("confirm_delete_draft")).show(ctx, |ui| {
            ui.label(
                RichText::new(tr!(lang, "delete-draft-question", name = name.as_str())).strong(),
            );
            ui.label(t!(lang, "cannot-undo"));
            ui.horizontal(|ui| {
                if ui
                    .add(danger_button(
                        ui,
                        Icon::Delete,
                        t!(lang, "confirm-delete-draft"),
                    ))
                    .clicked()
                {
                    drafts.changed_at = None;
                    drafts.delete_call.start(out.ask(drafts::Delete { id }));
                    done = true;
                }
                if ui.button(t!(lang, "cancel")).clicked() {
                    done = true;
                }
            });
        });
        if done || modal.should_close() {
            drafts.confirm_delete = false;
        }
    }
}
