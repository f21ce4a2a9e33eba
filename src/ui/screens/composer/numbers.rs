//! New asset numbers for an asset of the batch: asked of the platform from the asset's form,
//! or handed over by the asset-numbers screen.

use super::ComposerScreen;
use super::node::{self, NodeId, NodeMut, Step};
use crate::core::Awaited;
use crate::core::calls::requests as calls;
use crate::core::wire::validate::MAX_SHELLNUMS;
use crate::ui::kit::form::busy_icon_button_ui;
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, label, t};

pub(super) struct Numbers {
    call: Awaited<Vec<String>>,
    /// The asset the numbers asked for go to.
    target: Option<NodeId>,
    count: i32,
}

impl Default for Numbers {
    fn default() -> Self {
        Self {
            call: Awaited::default(),
            target: None,
            count: 1,
        }
    }
}

impl ComposerScreen {
    /// Takes the numbers asked for, into the asset they were asked for.
    pub(super) fn poll_numbers(&mut self, out: &Outbox<'_>) {
        let Some(answer) = out.reply(&mut self.numbers.call, label!("get-asset-numbers")) else {
            return;
        };
        self.before_step();
        if let (Ok(nums), Some(target), Some(draft)) =
            (answer, self.numbers.target.take(), self.draft.as_mut())
            && let Some(NodeMut::Asset(asset)) = node::resolve_mut(&mut draft.batch, &target)
        {
            asset.asset_nos.extend(nums);
            self.stepped();
        }
    }

    /// Numbers from the asset-numbers screen: into the selected asset, else the first asset
    /// without numbers, else the first asset; the asset is shown.
    pub fn receive_numbers(&mut self, nums: Vec<String>) {
        self.before_step();
        let Some(draft) = &mut self.draft else {
            return;
        };
        let mut assets = Vec::new();
        for (i, order) in draft.batch.orders().enumerate() {
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
        self.tree.select(target.clone());
        self.stepped();
    }

    /// How many numbers, and the button that asks for them for the asset `selected`.
    pub(super) fn numbers_ui(
        &mut self,
        ui: &mut egui::Ui,
        core: &Caller<'_>,
        lang: Lang,
        selected: &NodeId,
    ) {
        let numbers = &mut self.numbers;
        ui.horizontal(|ui| {
            let label = ui.label(t!(lang, "how-many"));
            ui.add(egui::DragValue::new(&mut numbers.count).range(1..=MAX_SHELLNUMS))
                .labelled_by(label.id);
            let why = core.lacking(lang, crate::core::team::Permission::Numbers);
            let busy = numbers.call.is_waiting();
            let button = |ui: &mut egui::Ui| {
                busy_icon_button_ui(ui, Icon::Numbers, t!(lang, "get-asset-numbers"), busy)
            };
            if crate::ui::kit::permits::permitted_ui(ui, why.as_deref(), button) {
                numbers.target = Some(selected.clone());
                numbers.call.start(core.ask(calls::Shellnums {
                    profile: core.name(),
                    size: numbers.count,
                }));
            }
        });
    }
}
