//! Orders: the batch order composer. A tree of the whole batch (header, orders, assets,
//! products, features, packages at any depth) beside the form of the selected node; every
//! problem the shared validation finds, with its path, as you type; import from and export to
//! JSON files; asset numbers from the platform; a confirmed submit. The batch is always a saved
//! draft.

mod bars;
mod batch;
mod fields;
mod forms;
mod node;
mod submit;
mod tree;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use self::batch::Template;
use self::fields::{FormCx, field_problems};
use self::node::{Add, Kind, ListOp, NodeId, NodeMut, Step, add_child};
use super::caller::Caller;
use super::form::busy_button_ui;
use super::i18n::{Lang, Text, t};
use crate::core::files::parse_order_file;
use crate::core::wire::validate::{self, MAX_SHELLNUMS, Problem};
use crate::core::wire::{BatchOrderRequest, BatchOrderResult};
use crate::core::{Call, Command, Core, DraftSummary, Event, Latest, Outcome, Profile};

/// Edits are saved this long after the last change (every keystroke would be too many writes).
const SAVE_AFTER: Duration = Duration::from_millis(800);
/// Problems listed at most; the count says how many there are in all.
const MAX_LISTED: usize = 500;

/// What the composer keeps beside the batch in a draft.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Hints {
    /// channelOrderIds this draft has been submitted with: sending one again is a repeat.
    submitted: Vec<String>,
}

struct OpenDraft {
    /// None until the core has stored it.
    id: Option<i64>,
    name: String,
    batch: BatchOrderRequest,
    hints: Hints,
}

struct Submitted {
    results: Vec<BatchOrderResult>,
    repeat: bool,
}

#[derive(Default)]
pub struct ComposerScreen {
    draft: Option<OpenDraft>,
    drafts: Vec<DraftSummary>,
    started: bool,
    name_edit: String,
    list_call: Latest,
    load_call: Latest,
    create_call: Latest,
    save_call: Latest,
    rename_call: Latest,
    delete_call: Latest,
    pick_call: Latest,
    picking_save: bool,
    read_call: Latest,
    write_call: Latest,
    submit_call: Latest,
    submitting: Option<String>,
    shellnums_call: Latest,
    shellnums_target: Option<NodeId>,
    shellnums_count: i32,
    file_path: String,
    file_message: Option<Result<String, String>>,
    tree: tree::Tree,
    problems: Vec<Problem>,
    /// Problems at or below each node, so collapsed nodes show theirs.
    problem_counts: HashMap<NodeId, usize>,
    needs_check: bool,
    changed_at: Option<Instant>,
    focus_field: Option<&'static str>,
    confirm_submit: bool,
    confirm_delete: bool,
    submitted: Option<Submitted>,
}

impl ComposerScreen {
    /// Takes the answer if it is for this screen, and names the action it answers.
    /// The event is taken by `&mut` so that an imported batch is moved, not copied.
    pub fn apply(&mut self, event: &mut Event, core: &Core) -> Option<Text> {
        if self.list_call.accept(event) {
            if let Ok(Outcome::Drafts(list)) = &event.result {
                self.drafts = list.clone();
                if self.draft.is_none() && !self.load_call.is_waiting() {
                    match list.first() {
                        Some(latest) => {
                            self.load_call
                                .start(core.send(Command::LoadDraft { id: latest.id }));
                        }
                        None => self.open_new(core, batch::template(Template::NewPurchase), None),
                    }
                }
            }
            return Some(Text::LoadDrafts);
        }
        if self.load_call.accept(event) {
            if let Ok(Outcome::Draft(d)) = &event.result {
                // A draft is what this console saved; should it not parse, it opens empty
                // rather than not at all, and the toast of the next save tells nothing is lost.
                let batch = parse_order_file(d.body.as_bytes()).unwrap_or_default();
                let hints = serde_json::from_str(&d.hints).unwrap_or_default();
                self.open(OpenDraft {
                    id: Some(d.id),
                    name: d.name.clone(),
                    batch,
                    hints,
                });
            }
            return Some(Text::OpenDraft);
        }
        if self.create_call.accept(event) {
            if let (Ok(Outcome::DraftSaved { id }), Some(draft)) = (&event.result, &mut self.draft)
            {
                draft.id = Some(*id);
                self.list_call.start(core.send(Command::ListDrafts));
            }
            return Some(Text::SaveDraft);
        }
        if self.save_call.accept(event) {
            return Some(Text::SaveDraft);
        }
        if self.rename_call.accept(event) {
            if event.result.is_ok() {
                self.list_call.start(core.send(Command::ListDrafts));
            }
            return Some(Text::RenameDraft);
        }
        if self.delete_call.accept(event) {
            if let Ok(Outcome::Drafts(list)) = &event.result {
                self.drafts = list.clone();
                self.draft = None;
                match list.first() {
                    Some(next) => self
                        .load_call
                        .start(core.send(Command::LoadDraft { id: next.id })),
                    None => self.open_new(core, batch::template(Template::NewPurchase), None),
                }
            }
            return Some(Text::DeleteDraft);
        }
        if self.pick_call.accept(event) {
            if let Ok(Outcome::Picked(Some(path))) = &event.result {
                self.file_path = path.display().to_string();
                if self.picking_save {
                    self.export(core);
                } else {
                    self.import(core);
                }
            }
            return Some(Text::Browse);
        }
        if self.read_call.accept(event) {
            match &mut event.result {
                Ok(Outcome::Imported {
                    draft_id,
                    name,
                    batch,
                }) => {
                    self.file_message = None;
                    // The draft is stored already; the current one is saved and stays listed.
                    self.save_now(core);
                    self.open(OpenDraft {
                        id: Some(*draft_id),
                        name: std::mem::take(name),
                        batch: std::mem::take(&mut **batch),
                        hints: Hints::default(),
                    });
                    self.list_call.start(core.send(Command::ListDrafts));
                }
                Err(e) => self.file_message = Some(Err(e.to_string())),
                Ok(_) => {}
            }
            return Some(Text::ImportFile);
        }
        if self.write_call.accept(event) {
            if let Ok(Outcome::Written { path }) = &event.result {
                self.file_message = Some(Ok(path.display().to_string()));
            }
            return Some(Text::ExportFile);
        }
        if self.shellnums_call.accept(event) {
            if let (Ok(Outcome::Shellnums(nums)), Some(target), Some(draft)) = (
                &event.result,
                self.shellnums_target.take(),
                self.draft.as_mut(),
            ) && let Some(NodeMut::Asset(asset)) = node::resolve_mut(&mut draft.batch, &target)
            {
                asset.asset_nos.extend(nums.iter().cloned());
                self.edited();
            }
            return Some(Text::GetAssetNumbers);
        }
        if self.submit_call.accept(event) {
            let channel_order_id = self.submitting.take().unwrap_or_default();
            if let (Ok(Outcome::Orders(results)), Some(draft)) = (&event.result, &mut self.draft) {
                let repeat = draft.hints.submitted.contains(&channel_order_id);
                if !repeat {
                    draft.hints.submitted.push(channel_order_id);
                    self.changed_at = Some(Instant::now());
                }
                self.submitted = Some(Submitted {
                    results: results.clone(),
                    repeat,
                });
            }
            return Some(Text::SubmitBatch);
        }
        None
    }

    /// Numbers from the asset-numbers screen: into the selected asset, else the first asset
    /// without numbers, else the first asset; the asset is shown.
    pub fn receive_numbers(&mut self, nums: Vec<String>) {
        let Some(draft) = &mut self.draft else {
            return;
        };
        let mut assets = Vec::new();
        for (i, order) in draft.batch.order_list.iter().enumerate() {
            for (j, asset) in order.assets.iter().enumerate() {
                assets.push((
                    NodeId(vec![Step::Order(i), Step::Asset(j)]),
                    asset.asset_nos.is_empty(),
                ));
            }
        }
        let target = assets
            .iter()
            .find(|(id, _)| *id == self.tree.selected)
            .or_else(|| assets.iter().find(|(_, empty)| *empty))
            .or_else(|| assets.first())
            .map(|(id, _)| id.clone());
        let Some(target) = target else {
            return;
        };
        if let Some(NodeMut::Asset(asset)) = node::resolve_mut(&mut draft.batch, &target) {
            asset.asset_nos.extend(nums);
        }
        self.tree.reveal(&target);
        self.tree.select(target);
        self.edited();
    }

    /// Opens a batch as a new draft (a template or an imported file); the draft that was open
    /// is saved first and stays in the list.
    fn open_new(&mut self, core: &Core, batch: BatchOrderRequest, name: Option<String>) {
        self.save_now(core);
        let name = name.unwrap_or_else(|| {
            batch
                .channel_order_id
                .clone()
                .unwrap_or_else(|| "batch".to_owned())
        });
        self.create_call.start(core.send(Command::NewOrderDraft {
            name: name.clone(),
            batch: Box::new(batch.clone()),
        }));
        self.open(OpenDraft {
            id: None,
            name,
            batch,
            hints: Hints::default(),
        });
    }

    fn open(&mut self, draft: OpenDraft) {
        self.name_edit = draft.name.clone();
        self.draft = Some(draft);
        self.tree = tree::Tree::default();
        self.submitted = None;
        self.changed_at = None;
        self.needs_check = true;
        self.focus_field = None;
    }

    fn edited(&mut self) {
        // A changed batch is not the one whose result is shown.
        self.submitted = None;
        self.needs_check = true;
        self.changed_at = Some(Instant::now());
    }

    /// Saves pending edits at once (before another draft replaces this one).
    fn save_now(&mut self, core: &Core) {
        if self.changed_at.take().is_none() {
            return;
        }
        if let Some(OpenDraft {
            id: Some(id),
            batch,
            hints,
            ..
        }) = &self.draft
        {
            // An empty body saved in place of an unwritable batch would lose the draft.
            match (serde_json::to_string(batch), serde_json::to_string(hints)) {
                (Ok(body), Ok(hints)) => {
                    self.save_call.start(core.send(Command::SaveDraft {
                        id: *id,
                        body,
                        hints,
                    }));
                }
                (Err(e), _) | (_, Err(e)) => {
                    tracing::error!(error = %e, "the draft could not be written as JSON; not saved");
                }
            }
        }
    }

    fn import(&mut self, core: &Core) {
        let path = self.file_path.trim();
        if path.is_empty() {
            return;
        }
        self.file_message = None;
        self.read_call.start(core.send(Command::ImportOrderFile {
            path: PathBuf::from(path),
        }));
    }

    fn export(&mut self, core: &Core) {
        let (Some(draft), path) = (&self.draft, self.file_path.trim()) else {
            return;
        };
        if path.is_empty() {
            return;
        }
        self.file_message = None;
        let body = serde_json::to_string_pretty(&draft.batch).unwrap_or_default();
        self.write_call.start(core.send(Command::WriteFile {
            path: PathBuf::from(path),
            body,
        }));
    }

    fn recheck(&mut self) {
        self.needs_check = false;
        let Some(draft) = &self.draft else {
            return;
        };
        self.problems = validate::batch_order(&draft.batch);
        self.problem_counts.clear();
        for p in &self.problems {
            let (mut at, _) = NodeId::of_path(&p.path);
            loop {
                *self.problem_counts.entry(at.clone()).or_default() += 1;
                match at.parent() {
                    Some(parent) => at = parent,
                    None => break,
                }
            }
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang, profile: &Profile) {
        if !self.started {
            self.started = true;
            self.shellnums_count = 1;
            self.list_call.start(core.send(Command::ListDrafts));
        }
        self.dropped_files_ui(ui, core);
        if self.needs_check {
            self.recheck();
        }
        self.autosave(ui.ctx(), core);
        self.drafts_bar_ui(ui, core, lang);
        self.file_bar_ui(ui, core, lang);
        ui.separator();
        if self.draft.is_none() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t(lang, Text::Loading));
            });
            return;
        }
        egui::Panel::bottom("composer_bottom")
            .resizable(true)
            .default_size(170.0)
            .show(ui, |ui| self.bottom_ui(ui, lang));
        egui::Panel::left("composer_tree")
            .resizable(true)
            .default_size(360.0)
            .show(ui, |ui| self.tree_ui(ui, lang));
        let caller = Caller { core, profile };
        egui::CentralPanel::default().show(ui, |ui| self.node_ui(ui, &caller, lang));
        self.confirm_submit_ui(ui.ctx(), core, lang, profile);
        self.confirm_delete_ui(ui.ctx(), core, lang);
    }

    fn autosave(&mut self, ctx: &egui::Context, core: &Core) {
        let Some(changed_at) = self.changed_at else {
            return;
        };
        let waited = changed_at.elapsed();
        if waited >= SAVE_AFTER && !self.save_call.is_waiting() {
            self.save_now(core);
        } else {
            // One wake-up when the save is due: not a repaint loop.
            ctx.request_repaint_after(
                SAVE_AFTER
                    .saturating_sub(waited)
                    .max(Duration::from_millis(50)),
            );
        }
    }

    fn tree_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let Some(draft) = &self.draft else {
            return;
        };
        if let Some(selected) = self.tree.ui(ui, lang, &draft.batch, &self.problem_counts) {
            self.tree.select(selected);
            self.focus_field = None;
        }
    }

    fn node_ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) {
        let selected = self.tree.selected.clone();
        self.node_actions_ui(ui, core, lang, &selected);
        ui.separator();
        let problems = field_problems(lang, &self.problems, &selected);
        let Some(draft) = &mut self.draft else {
            return;
        };
        let Some(node) = node::resolve_mut(&mut draft.batch, &selected) else {
            self.tree.select(NodeId::root());
            return;
        };
        let mut cx = FormCx {
            lang,
            problems: &problems,
            focus: &mut self.focus_field,
            changed: false,
        };
        egui::ScrollArea::vertical()
            .id_salt("node_form_scroll")
            .show(ui, |ui| forms::node_form_ui(ui, &mut cx, node));
        if cx.changed {
            self.edited();
        }
    }

    fn node_actions_ui(
        &mut self,
        ui: &mut egui::Ui,
        core: &Caller<'_>,
        lang: Lang,
        selected: &NodeId,
    ) {
        let Some(draft) = &mut self.draft else {
            return;
        };
        let Some(kind) = node::resolve(&draft.batch, selected).map(|n| n.kind()) else {
            return;
        };
        let mut added: Option<NodeId> = None;
        let mut op: Option<ListOp> = None;
        ui.horizontal_wrapped(|ui| {
            let adds: &[(Text, Add)] = match kind {
                Kind::Batch => &[(Text::AddOrder, Add::Order)],
                Kind::Order => &[(Text::AddAsset, Add::Asset)],
                Kind::Asset => &[
                    (Text::AddProduct, Add::Product),
                    (Text::AddPackage, Add::Package),
                ],
                Kind::Product => &[(Text::AddFeature, Add::Feature)],
                Kind::Feature => &[],
                Kind::Merchandise => &[
                    (Text::AddProduct, Add::Product),
                    (Text::AddSubPackage, Add::SubPackage),
                ],
            };
            for (text, what) in adds {
                if ui.button(t(lang, *text)).clicked() {
                    added = add_child(&mut draft.batch, selected, *what);
                }
            }
            if kind != Kind::Batch {
                for (text, what) in [
                    (Text::Duplicate, ListOp::Duplicate),
                    (Text::MoveUp, ListOp::Up),
                    (Text::MoveDown, ListOp::Down),
                    (Text::Remove, ListOp::Remove),
                ] {
                    if ui.button(t(lang, text)).clicked() {
                        op = Some(what);
                    }
                }
            }
            if kind == Kind::Batch && ui.button(t(lang, Text::NewBatchId)).clicked() {
                draft.batch.channel_order_id = Some(batch::new_channel_order_id());
                added = Some(NodeId::root());
            }
        });
        if kind == Kind::Asset {
            ui.horizontal(|ui| {
                let label = ui.label(t(lang, Text::HowMany));
                ui.add(egui::DragValue::new(&mut self.shellnums_count).range(1..=MAX_SHELLNUMS))
                    .labelled_by(label.id);
                if busy_button_ui(
                    ui,
                    t(lang, Text::GetAssetNumbers),
                    self.shellnums_call.is_waiting(),
                ) {
                    self.shellnums_target = Some(selected.clone());
                    self.shellnums_call
                        .start(core.call(Call::Shellnums(self.shellnums_count)));
                }
            });
        }
        if let Some(new) = added {
            if let Some(parent) = new.parent() {
                self.tree.expand(&parent);
            }
            self.tree.select(new);
            self.tree.structure_changed();
            self.edited();
        } else if let Some(op) = op
            && let Some(next) = node::edit(&mut draft.batch, selected, op)
        {
            self.tree.select(next);
            self.tree.structure_changed();
            self.edited();
        }
    }
}
