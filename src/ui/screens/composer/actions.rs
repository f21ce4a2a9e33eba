//! What can be done to the selected node: add a child, duplicate, move, remove, a new batch
//! id, and asset numbers for an asset.

use super::node::{self, Add, Kind, ListOp, NodeId, add_child};
use super::{ComposerScreen, batch};
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Label, Lang, label, t};

/// A button clicked in the node's bar.
#[derive(Clone, Copy)]
enum Action {
    Add(Add),
    /// Added beside the selected node, under its parent: a product's bar offers Add product
    /// where its asset's has it, so a button keeps its meaning when a pick selects the product.
    AddBeside(Add),
    List(ListOp),
    NewBatchId,
}

impl ComposerScreen {
    pub(super) fn node_actions_ui(
        &mut self,
        ui: &mut egui::Ui,
        core: &Caller<'_>,
        lang: Lang,
        selected: &NodeId,
    ) {
        let Some(draft) = &self.draft else {
            return;
        };
        let Some(kind) = node::resolve(&draft.batch, selected).map(|n| n.kind()) else {
            return;
        };
        // A delete of whole assets holds no products or packages: none are offered.
        let whole = super::in_asset_delete(&draft.batch, selected);
        // A package of the asset's itself (not a sub-package) offers Add package beside it.
        let top_package = matches!(selected.last(), Some(node::Step::Merchandise(_)));
        let action = ui
            .horizontal_wrapped(|ui| actions_ui(ui, lang, kind, whole, top_package))
            .inner;
        if matches!(kind, Kind::Asset | Kind::Merchandise) && !whole && self.picker.no_products() {
            let words = match core.profile.is_team() {
                true => t!(lang, "catalog-empty-team"),
                false => t!(lang, "catalog-empty"),
            };
            ui.weak(words);
        }
        // New asset numbers are a new purchase's: a delete names numbers that exist.
        let deletes = super::in_delete(&draft.batch, selected);
        if kind == Kind::Asset && !deletes {
            self.numbers_ui(ui, core, lang, selected);
        }
        if let Some(action) = action {
            self.act(selected, action, core.out);
        }
    }

    fn act(&mut self, selected: &NodeId, action: Action, out: &Outbox<'_>) {
        let (under, action) = match action {
            Action::AddBeside(what) => match selected.parent() {
                Some(parent) => (parent, Action::Add(what)),
                None => return,
            },
            other => (selected.clone(), other),
        };
        // A product or package is picked from the catalog, when it has any.
        if let Action::Add(what @ (Add::Product | Add::Package)) = action
            && self.pick_to_add(&under, what, out)
        {
            return;
        }
        self.before_step();
        let Some(draft) = &mut self.draft else {
            return;
        };
        let next = match action {
            Action::Add(what) => {
                let added = add_child(&mut draft.batch, &under, what);
                if let Some(parent) = added.as_ref().and_then(NodeId::parent) {
                    self.tree.expand(&parent);
                }
                added
            }
            Action::List(op) => {
                self.check.changed();
                node::edit(&mut draft.batch, selected, op)
            }
            Action::AddBeside(_) => None,
            Action::NewBatchId => {
                draft.batch.head_mut().channel_order_id = Some(batch::new_channel_order_id());
                Some(NodeId::root())
            }
        };
        if let Some(next) = next {
            self.tree.select(next);
            self.tree.structure_changed();
            self.room.forget();
            self.check.structure_changed();
            self.stepped();
        }
    }
}

/// The buttons for a node of this kind; the one clicked.
fn actions_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    kind: Kind,
    whole_assets: bool,
    top_package: bool,
) -> Option<Action> {
    let adds: &[(Label, Add)] = match kind {
        Kind::Batch => &[(label!("add-order"), Add::Order)],
        Kind::Order => &[(label!("add-asset"), Add::Asset)],
        Kind::Asset if whole_assets => &[],
        Kind::Asset => &[
            (label!("add-product"), Add::Product),
            (label!("add-package"), Add::Package),
        ],
        Kind::Product => &[(label!("add-feature"), Add::Feature)],
        Kind::Feature => &[],
        Kind::Merchandise => &[
            (label!("add-product"), Add::Product),
            (label!("add-sub-package"), Add::SubPackage),
        ],
    };
    let mut clicked = None;
    if kind == Kind::Product && ui.button(label!("add-product").text(lang)).clicked() {
        clicked = Some(Action::AddBeside(Add::Product));
    }
    for (k, (text, what)) in adds.iter().enumerate() {
        if ui.button((*text).text(lang)).clicked() {
            clicked = Some(Action::Add(*what));
        }
        // Where the asset's bar has Add package: a package picked keeps it under the pointer.
        if k == 0 && top_package && ui.button(label!("add-package").text(lang)).clicked() {
            clicked = Some(Action::AddBeside(Add::Package));
        }
    }
    if kind != Kind::Batch {
        for (text, op) in [
            (label!("duplicate"), ListOp::Duplicate),
            (label!("move-up"), ListOp::Up),
            (label!("move-down"), ListOp::Down),
            (label!("remove"), ListOp::Remove),
        ] {
            if ui.button(text.text(lang)).clicked() {
                clicked = Some(Action::List(op));
            }
        }
    }
    if kind == Kind::Batch && ui.button(t!(lang, "new-batch-id")).clicked() {
        clicked = Some(Action::NewBatchId);
    }
    clicked
}
