//! Orders: the batch order composer. A tree of the whole batch (header, orders, assets,
//! products, features, packages at any depth) beside the form of the selected node; every
//! problem the shared validation finds, with its path, as you type; import from and export to
//! JSON files; asset numbers from the platform; a confirmed submit. The batch is always a saved
//! draft.

mod batch;
mod fields;
mod forms;
mod labels;
mod node;
mod tree;

pub(super) use labels::license_type_words;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui::RichText;
use serde::{Deserialize, Serialize};

use self::batch::{Template, summarize};
use self::fields::{FieldProblem, FormCx};
use self::node::{ListOp, NodeId, NodeMut, NodeRef, Step};
use super::form::{busy_button_ui, profile_name, warn_if_production};
use super::i18n::{Lang, Text, t};
use crate::core::files::parse_order_file;
use crate::core::wire::validate::{self, MAX_SHELLNUMS, Problem};
use crate::core::wire::{
    AssetEntry, BatchOrderRequest, BatchOrderResult, FeatureEntry, MerchandiseEntry, OrderEntry,
    OrderType, ProductEntry,
};
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
    focus_field: Option<String>,
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
            self.save_call.start(core.send(Command::SaveDraft {
                id: *id,
                body: serde_json::to_string(batch).unwrap_or_default(),
                hints: serde_json::to_string(hints).unwrap_or_default(),
            }));
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
        egui::CentralPanel::default().show(ui, |ui| self.node_ui(ui, core, lang));
        self.confirm_submit_ui(ui.ctx(), core, lang, profile);
        self.confirm_delete_ui(ui.ctx(), core, lang);
    }

    fn dropped_files_ui(&mut self, ui: &egui::Ui, core: &Core) {
        let dropped: Vec<PathBuf> = ui.ctx().input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_owned())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.file_path = path.display().to_string();
            self.import(core);
        }
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

    fn drafts_bar_ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang) {
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::Draft));
            let current = self.draft.as_ref().and_then(|d| d.id);
            let shown = self
                .draft
                .as_ref()
                .map_or(String::new(), |d| d.name.clone());
            let mut chosen = None;
            egui::ComboBox::from_id_salt("drafts")
                .selected_text(shown)
                .width(220.0)
                .show_ui(ui, |ui| {
                    for d in &self.drafts {
                        if ui
                            .selectable_label(current == Some(d.id), &d.name)
                            .clicked()
                        {
                            chosen = Some(d.id);
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            if let Some(id) = chosen.filter(|id| Some(*id) != current) {
                self.save_now(core);
                self.load_call.start(core.send(Command::LoadDraft { id }));
            }
            let label = ui.label(t(lang, Text::DraftName));
            let rename = ui
                .add(egui::TextEdit::singleline(&mut self.name_edit).desired_width(160.0))
                .labelled_by(label.id);
            if rename.lost_focus()
                && let Some(draft) = &mut self.draft
                && let Some(id) = draft.id
                && !self.name_edit.trim().is_empty()
                && self.name_edit.trim() != draft.name
            {
                draft.name = self.name_edit.trim().to_owned();
                self.rename_call.start(core.send(Command::RenameDraft {
                    id,
                    name: draft.name.clone(),
                }));
            }
            ui.menu_button(t(lang, Text::NewDraft), |ui| {
                for kind in Template::ALL {
                    let text = match kind {
                        Template::NewPurchase => Text::TemplateNewPurchase,
                        Template::DeleteAssets => Text::TemplateDeleteAssets,
                        Template::DeleteProducts => Text::TemplateDeleteProducts,
                    };
                    if ui.button(t(lang, text)).clicked() {
                        self.open_new(core, batch::template(kind), None);
                        ui.close();
                    }
                }
            });
            if ui
                .add_enabled(
                    current.is_some(),
                    egui::Button::new(t(lang, Text::DeleteDraft)),
                )
                .clicked()
            {
                self.confirm_delete = true;
            }
        });
    }

    fn file_bar_ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang) {
        ui.horizontal(|ui| {
            let label = ui.label(t(lang, Text::OrderFile));
            ui.add(
                egui::TextEdit::singleline(&mut self.file_path)
                    .hint_text(t(lang, Text::FileHint))
                    .desired_width(300.0),
            )
            .labelled_by(label.id);
            let busy = self.pick_call.is_waiting();
            if busy_button_ui(ui, t(lang, Text::Browse), busy) {
                self.picking_save = false;
                self.pick_call.start(core.send(Command::PickFile {
                    save: false,
                    suggested: None,
                }));
            }
            if busy_button_ui(ui, t(lang, Text::ImportFile), self.read_call.is_waiting()) {
                self.import(core);
            }
            if busy_button_ui(ui, t(lang, Text::ExportFile), self.write_call.is_waiting()) {
                self.export(core);
            }
            if ui.button(t(lang, Text::SaveAs)).clicked() {
                self.picking_save = true;
                let suggested = self.draft.as_ref().map(|d| format!("{}.json", d.name));
                self.pick_call.start(core.send(Command::PickFile {
                    save: true,
                    suggested,
                }));
            }
        });
        if self.read_call.is_waiting() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("{} {}", t(lang, Text::LoadingFile), self.file_path));
            });
        }
        match &self.file_message {
            Some(Ok(path)) => {
                ui.label(format!("{}: {path}", t(lang, Text::Exported)));
            }
            Some(Err(why)) => {
                ui.colored_label(ui.visuals().error_fg_color, why);
                ui.label(RichText::new(t(lang, Text::DraftUntouched)).weak());
            }
            None => {}
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

    fn node_ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang) {
        let selected = self.tree.selected.clone();
        self.node_actions_ui(ui, core, lang, &selected);
        ui.separator();
        let problems: Vec<FieldProblem> = self
            .problems
            .iter()
            .filter_map(|p| {
                let (node, field) = NodeId::of_path(&p.path);
                (node == selected).then(|| {
                    let rest = p
                        .path
                        .rsplit_once(&format!(".{field}"))
                        .map_or(String::new(), |(_, r)| r.to_owned());
                    let rest = if field.is_empty() || rest.is_empty() {
                        String::new()
                    } else {
                        format!("{field}{rest}")
                    };
                    FieldProblem {
                        field,
                        rest,
                        message: p.message.clone(),
                    }
                })
            })
            .collect();
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

    fn node_actions_ui(&mut self, ui: &mut egui::Ui, core: &Core, lang: Lang, selected: &NodeId) {
        let Some(draft) = &mut self.draft else {
            return;
        };
        let kind = node::resolve(&draft.batch, selected).map(|n| match n {
            NodeRef::Batch(_) => Kind::Batch,
            NodeRef::Order(_) => Kind::Order,
            NodeRef::Asset(_) => Kind::Asset,
            NodeRef::Product(_) => Kind::Product,
            NodeRef::Feature(_) => Kind::Feature,
            NodeRef::Merchandise(_) => Kind::Merchandise,
        });
        let Some(kind) = kind else {
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
                        .start(core.send(Command::Call(Call::Shellnums(self.shellnums_count))));
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

    fn bottom_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal(|ui| {
            let ready = self.problems.is_empty();
            let busy = self.submit_call.is_waiting();
            ui.add_enabled_ui(ready, |ui| {
                if busy_button_ui(ui, t(lang, Text::SubmitBatch), busy) {
                    self.confirm_submit = true;
                }
            });
            if ready {
                ui.label(t(lang, Text::NoProblems));
            } else {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    t(lang, Text::ProblemsCount).replace("{n}", &self.problems.len().to_string()),
                );
            }
        });
        if let Some(s) = &self.submitted {
            self.submitted_ui(ui, lang, s);
            return;
        }
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .id_salt("problems")
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for p in self.problems.iter().take(MAX_LISTED) {
                    if ui
                        .selectable_label(
                            false,
                            RichText::new(p.to_string()).color(ui.visuals().error_fg_color),
                        )
                        .clicked()
                    {
                        clicked = Some(p.path.clone());
                    }
                }
                if self.problems.len() > MAX_LISTED {
                    ui.label(
                        t(lang, Text::MoreProblems)
                            .replace("{n}", &(self.problems.len() - MAX_LISTED).to_string()),
                    );
                }
            });
        if let Some(path) = clicked {
            let (node, field) = NodeId::of_path(&path);
            self.tree.reveal(&node);
            self.tree.select(node);
            self.focus_field = Some(field);
        }
    }

    fn submitted_ui(&self, ui: &mut egui::Ui, lang: Lang, s: &Submitted) {
        let text = if s.repeat {
            t(lang, Text::SubmittedAgain)
        } else {
            t(lang, Text::SubmittedNew)
        };
        ui.label(RichText::new(text.replace("{n}", &s.results.len().to_string())).strong());
        egui::ScrollArea::vertical()
            .id_salt("results")
            .show(ui, |ui| {
                egui::Grid::new("submit_results")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for head in [Text::Sequence, Text::LicenseOrderId, Text::CustomerId] {
                            ui.label(RichText::new(t(lang, head)).strong());
                        }
                        ui.end_row();
                        for r in &s.results {
                            ui.label(r.sequence.to_string());
                            ui.label(RichText::new(&r.license_order_id).monospace());
                            ui.label(RichText::new(&r.customer_id).monospace());
                            ui.end_row();
                        }
                    });
            });
    }

    fn confirm_submit_ui(
        &mut self,
        ctx: &egui::Context,
        core: &Core,
        lang: Lang,
        profile: &Profile,
    ) {
        if !self.confirm_submit {
            return;
        }
        let Some(draft) = &mut self.draft else {
            return;
        };
        let summary = summarize(&draft.batch);
        let channel_order_id = draft.batch.channel_order_id.clone().unwrap_or_default();
        let repeat = draft.hints.submitted.contains(&channel_order_id);
        let mut send = false;
        let mut close = false;
        let modal = egui::Modal::new(egui::Id::unique("confirm_submit")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            let question =
                t(lang, Text::ConfirmSubmit).replace("{profile}", profile_name(lang, profile));
            ui.label(warn_if_production(question, profile));
            ui.label(
                t(lang, Text::SummaryOrders)
                    .replace("{n}", &draft.batch.order_list.len().to_string())
                    .replace("{new}", &summary.new_buy.to_string())
                    .replace("{assets}", &summary.delete_asset.to_string())
                    .replace("{products}", &summary.delete_product.to_string()),
            );
            ui.label(
                t(lang, Text::SummaryCounts)
                    .replace("{assets}", &summary.asset_numbers.to_string())
                    .replace("{products}", &summary.products.to_string()),
            );
            for d in summary.deletions.iter().take(20) {
                let text = if d.products.is_empty() {
                    t(lang, Text::RemovesAssets)
                        .replace("{seq}", &d.sequence.to_string())
                        .replace("{assets}", &list_words(&d.assets))
                } else {
                    t(lang, Text::RemovesProducts)
                        .replace("{seq}", &d.sequence.to_string())
                        .replace("{products}", &list_words(&d.products))
                        .replace("{assets}", &list_words(&d.assets))
                };
                ui.colored_label(ui.visuals().warn_fg_color, text);
            }
            if !summary.deletions.is_empty() {
                ui.label(t(lang, Text::DeletesFinal));
            }
            if repeat {
                ui.label(t(lang, Text::RepeatWarning).replace("{id}", &channel_order_id));
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button(t(lang, Text::Send)).clicked() {
                    send = true;
                }
                if ui.button(t(lang, Text::Cancel)).clicked() {
                    close = true;
                }
            });
        });
        if send {
            self.submitting = Some(channel_order_id);
            self.submitted = None;
            self.submit_call
                .start(core.send(Command::Call(Call::BatchOrder(draft.batch.clone()))));
        }
        if send || close || modal.should_close() {
            self.confirm_submit = false;
        }
    }

    fn confirm_delete_ui(&mut self, ctx: &egui::Context, core: &Core, lang: Lang) {
        if !self.confirm_delete {
            return;
        }
        let Some((Some(id), name)) = self.draft.as_ref().map(|d| (d.id, d.name.clone())) else {
            self.confirm_delete = false;
            return;
        };
        let mut done = false;
        let modal = egui::Modal::new(egui::Id::unique("confirm_delete_draft")).show(ctx, |ui| {
            ui.label(
                RichText::new(t(lang, Text::DeleteDraftQuestion).replace("{name}", &name)).strong(),
            );
            ui.label(t(lang, Text::CannotUndo));
            ui.horizontal(|ui| {
                if ui.button(t(lang, Text::ConfirmDeleteDraft)).clicked() {
                    self.changed_at = None;
                    self.delete_call
                        .start(core.send(Command::DeleteDraft { id }));
                    done = true;
                }
                if ui.button(t(lang, Text::Cancel)).clicked() {
                    done = true;
                }
            });
        });
        if done || modal.should_close() {
            self.confirm_delete = false;
        }
    }
}

/// The first few items, then how many more.
fn list_words(items: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut text = items
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" (+{})", items.len() - SHOWN));
    }
    if text.is_empty() {
        "—".to_owned()
    } else {
        text
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Batch,
    Order,
    Asset,
    Product,
    Feature,
    Merchandise,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Add {
    Order,
    Asset,
    Product,
    Package,
    Feature,
    SubPackage,
}

/// Adds an empty child of the kind to the node; answers the new node.
fn add_child(batch: &mut BatchOrderRequest, at: &NodeId, what: Add) -> Option<NodeId> {
    let node = node::resolve_mut(batch, at)?;
    let step = match (node, what) {
        (NodeMut::Batch(b), Add::Order) => {
            // A new order continues the sequence and the last order's customer and types.
            let mut order = b
                .order_list
                .last()
                .cloned()
                .map_or_else(OrderEntry::default, |o| OrderEntry {
                    assets: Vec::new(),
                    ..o
                });
            order.sequence = Some(
                b.order_list
                    .iter()
                    .filter_map(|o| o.sequence)
                    .max()
                    .map_or(1, |m| m.saturating_add(1)),
            );
            if order.order_type.is_none() {
                order.order_type = Some(OrderType::NewBuy);
            }
            b.order_list.push(order);
            Step::Order(b.order_list.len() - 1)
        }
        (NodeMut::Order(o), Add::Asset) => {
            o.assets.push(AssetEntry::default());
            Step::Asset(o.assets.len() - 1)
        }
        (NodeMut::Asset(a), Add::Product) => {
            a.products.push(ProductEntry::default());
            Step::Product(a.products.len() - 1)
        }
        (NodeMut::Asset(a), Add::Package) => {
            a.merchandises.push(MerchandiseEntry::default());
            Step::Merchandise(a.merchandises.len() - 1)
        }
        (NodeMut::Product(p), Add::Feature) => {
            p.product_features.push(FeatureEntry::default());
            Step::Feature(p.product_features.len() - 1)
        }
        (NodeMut::Merchandise(m), Add::Product) => {
            m.license_order_product_list.push(ProductEntry::default());
            Step::MerchProduct(m.license_order_product_list.len() - 1)
        }
        (NodeMut::Merchandise(m), Add::SubPackage) => {
            let children = m.children.get_or_insert_with(Vec::new);
            children.push(MerchandiseEntry::default());
            Step::Child(children.len() - 1)
        }
        _ => return None,
    };
    Some(at.child(step))
}
