//! Orders: the batch order composer. A tree of the whole batch (header, orders, assets,
//! products, features, packages at any depth) beside the form of the selected node; every
//! problem the shared validation finds, with its path, as you type; import from and export to
//! JSON files; asset numbers from the platform; a confirmed submit. The batch is always a saved
//! draft. Each part keeps its own state in its module: `drafts`, `file`, `check`, `numbers`,
//! `submit`; the tree is `tree`.

mod actions;
mod batch;
mod check;
mod confirm;
mod drafts;
mod fields;
mod file;
mod forms;
mod handover;
mod history;
mod holder;
mod node;
mod numbers;
mod picker;
mod preview;
mod sent;
mod submit;
mod tree;
mod unreadable;

use serde::{Deserialize, Serialize};

use self::fields::{FormCx, field_problems};
use self::node::{NodeId, NodeMut};
use crate::core::snapshot::Snapshot;
use crate::core::wire::OrderType;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::i18n::{Lang, t, tr};
use crate::ui::text::labels::order_type_short;

/// What the composer keeps beside the batch in a draft.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Hints {
    /// channelOrderIds this draft was submitted with before the profile was recorded with
    /// them (drafts of earlier releases): sent somewhere, but where is not known.
    submitted: Vec<String>,
    /// Each profile the draft was sent to, with its channelOrderId and how it ended there.
    sent: Vec<sent::SentTo>,
    /// The order types the batch holds, as the drafts' list shows them.
    order_types: Vec<OrderType>,
}

impl Hints {
    /// What the drafts' list says of a draft besides its name: its order types in words, and
    /// whether it was sent.
    fn list_words(&self, lang: Lang) -> String {
        let mut words: Vec<String> = self
            .order_types
            .iter()
            .map(|k| order_type_short(lang, *k))
            .collect();
        if !self.submitted.is_empty() || !self.sent.is_empty() {
            words.push(t!(lang, "draft-submitted").to_owned());
        }
        words.join(" · ")
    }

    /// How the draft went to `profile` with `channel_order_id`, if it did.
    fn sent_to(&self, profile: &str, channel_order_id: &str) -> Option<&sent::SentTo> {
        self.sent
            .iter()
            .find(|s| s.profile == profile && s.channel_order_id == channel_order_id)
    }

    /// Records (or updates) where the draft went and how it ended there.
    fn record(&mut self, profile: &str, channel_order_id: &str, state: crate::core::WriteState) {
        self.record_as(profile, channel_order_id, state, None);
    }

    /// The same, with the request a team server keeps it as.
    fn record_as(
        &mut self,
        profile: &str,
        channel_order_id: &str,
        state: crate::core::WriteState,
        request: Option<String>,
    ) {
        match self
            .sent
            .iter_mut()
            .find(|s| s.profile == profile && s.channel_order_id == channel_order_id)
        {
            Some(known) => (known.state, known.request) = (state, request),
            None => self.sent.push(sent::SentTo {
                profile: profile.to_owned(),
                channel_order_id: channel_order_id.to_owned(),
                state,
                request,
            }),
        }
    }

    /// The other profiles the draft went to with this channelOrderId (an earlier release's
    /// sends, whose profile is not known, as an empty name).
    fn sent_elsewhere(&self, profile: &str, channel_order_id: &str) -> Vec<&str> {
        let mut elsewhere: Vec<&str> = self
            .sent
            .iter()
            .filter(|s| s.profile != profile && s.channel_order_id == channel_order_id)
            .map(|s| s.profile.as_str())
            .collect();
        if self.submitted.iter().any(|id| id == channel_order_id) {
            elsewhere.push("");
        }
        elsewhere
    }
}

struct OpenDraft {
    /// None until the core has stored it.
    id: Option<i64>,
    name: String,
    /// Edited in place; shared as it is with the core's threads and the history (an edit
    /// copies only the order it touches when a kept state still holds it).
    batch: Snapshot,
    hints: Hints,
    /// A stored draft that could not be read: shown read-only, never saved over.
    unreadable: Option<Unreadable>,
}

/// What is kept of a stored draft that does not parse: the stored text as it is (exported
/// byte for byte) and why it could not be read.
struct Unreadable {
    /// Where the text stops parsing (1-based), and why.
    line: usize,
    column: usize,
    what: String,
    stored: Vec<u8>,
}

impl Unreadable {
    /// Stored bytes that are not UTF-8 text: placed at the first byte that is not.
    fn not_text(stored: &[u8]) -> Self {
        let valid = match std::str::from_utf8(stored) {
            Ok(text) => text,
            Err(e) => std::str::from_utf8(&stored[..e.valid_up_to()]).unwrap_or_default(),
        };
        let line = valid.lines().count().max(1) + usize::from(valid.ends_with('\n'));
        let column = valid.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Self {
            line,
            column,
            what: format!("byte {} is not UTF-8 text", valid.len() + 1),
            stored: stored.to_vec(),
        }
    }
}

#[derive(Default)]
pub struct ComposerScreen {
    draft: Option<OpenDraft>,
    drafts: drafts::Drafts,
    file: file::FileBar,
    tree: tree::Tree,
    check: check::Check,
    numbers: numbers::Numbers,
    submit: submit::Submit,
    picker: picker::Picker,
    history: history::History,
    handover: handover::HandOver,
    room: fields::ProblemRoom,
    bottom: BottomRoom,
}

/// The bottom panel's height (the submit bar and the problems): as tall as the problems need,
/// up to a share of the window, and resizable. It grows when more problems come and never
/// shrinks by itself, so that Submit does not move when the last problem goes. egui keeps a
/// resizable panel's size by its id: a new id is how it is made taller.
#[derive(Default)]
struct BottomRoom {
    grown: u32,
    /// The height last asked for: the panel's own may differ (a drag).
    asked: f32,
    /// What the bar and the list under it took in the last frame.
    needed: f32,
}

impl BottomRoom {
    /// Least height: the bar and a few lines.
    const LEAST: f32 = 170.0;
    /// The panel's frame around its contents.
    const MARGINS: f32 = 16.0;

    /// The panel's id and default height, at most `most`.
    fn sized(&mut self, most: f32) -> ((&'static str, u32), f32) {
        let need = (self.needed + Self::MARGINS).clamp(Self::LEAST, most.max(Self::LEAST));
        if need > self.asked + 1.0 {
            if self.asked > 0.0 {
                self.grown += 1;
            }
            self.asked = need;
        }
        (("composer_bottom", self.grown), need)
    }

    /// What the contents took; a frame more when the panel is to grow for it.
    fn took(&mut self, ctx: &egui::Context, needed: f32) {
        self.needed = needed;
        if needed + Self::MARGINS > self.asked + 1.0 {
            ctx.request_repaint();
        }
    }
}

impl ComposerScreen {
    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        self.poll_drafts(out);
        self.poll_file(out);
        self.poll_catalog(out);
        self.poll_numbers(out);
        self.poll_submit(out);
        self.poll_unsent(out);
        self.poll_unknown(out);
        self.poll_handover(out);
        self.check.poll(out);
    }

    /// Requests decided since (`R-3`): the composer's "kept as R-3" is no longer news.
    pub fn decided(&mut self, names: &[String]) {
        self.submit.forget_held(names);
    }

    /// Saves the open draft's pending edits now (before the program restarts): true once
    /// nothing is left to save, no save is on its way, and the last one did not fail.
    pub fn saved_now(&mut self, out: &Outbox<'_>) -> bool {
        self.save_now(out);
        !self.drafts.saving()
    }

    /// `F6`: the tree's chosen row takes the keyboard's focus; from the tree, the first problem
    /// (the panes in turn, as `F6` goes in Windows programs).
    pub fn focus_tree(&mut self) {
        if self.tree.has_focus && !self.check.problems.is_empty() {
            self.check.focus_list = true;
        } else {
            self.tree.focus();
        }
    }

    /// Shows the node and field a platform's refusal names (`orderList[0].assets[1].assetNos`).
    pub fn go_to(&mut self, path: &str) {
        let Some((node, field)) = NodeId::parse_path(path) else {
            return;
        };
        self.tree.reveal(&node);
        self.tree.select(node);
        self.check.focus_field = Some(field).filter(|f| !f.is_empty());
    }

    /// The batch was edited.
    fn edited(&mut self) {
        self.history.edited();
        // A changed batch is not the one whose result is shown.
        self.submit.forget();
        self.check.changed();
        self.drafts.changed();
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang) {
        let (out, profile) = (caller.out, caller.profile);
        self.drafts.start(out);
        self.picker.refresh(out, profile, false);
        self.dropped_files_ui(ui, out);
        if let Some(draft) = &self.draft {
            self.check.run_if_needed(&draft.batch, out);
        }
        self.undo_shortcuts(ui.ctx());
        self.settle_history(ui.ctx());
        self.autosave(ui.ctx(), out);
        if crate::ui::kit::keys::pressed(ui, crate::ui::kit::keys::SAVE) {
            self.save_now(out);
        }
        self.drafts_bar_ui(ui, caller, lang);
        self.handover_dialog_ui(ui.ctx(), caller, lang);
        self.file_bar_ui(ui, out, lang);
        self.browser_ui(ui.ctx(), out, lang);
        ui.separator();
        let Some(draft) = &self.draft else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(t!(lang, "loading"));
            });
            return;
        };
        if draft.unreadable.is_some() {
            self.unreadable_ui(ui, out, lang);
            self.confirm_delete_ui(ui.ctx(), out, lang);
            return;
        }
        // Drawn disabled with the reason when the role lacks it (the server decides).
        self.submit.refused = caller
            .permits
            .lacking_for_orders(lang, draft.batch.orders().map(|o| o.order_type));
        // The problems take up to three fifths of the room (an imported file's are what is to
        // be read first); the tree and the form keep the rest, and the list scrolls beyond.
        let most = (ui.available_height() * 0.6).max(80.0);
        let (id, height) = self.bottom.sized(most);
        let shown = egui::Panel::bottom(id)
            .resizable(true)
            .default_size(height)
            .max_size(most)
            .show(ui, |ui| self.bottom_ui(ui, out, lang, profile));
        self.bottom.took(ui.ctx(), shown.inner);
        // The form needs more room than the tree: in a narrow window the tree gives it up.
        let tree_width = (ui.available_width() * 0.4).clamp(220.0, 360.0);
        egui::Panel::left("composer_tree")
            .resizable(true)
            .default_size(tree_width)
            .show(ui, |ui| self.tree_ui(ui, lang));
        egui::CentralPanel::default().show(ui, |ui| self.node_ui(ui, caller, lang));
        self.confirm_submit_ui(ui.ctx(), caller, lang);
        self.confirm_delete_ui(ui.ctx(), out, lang);
        self.catalog_search_ui(ui.ctx(), out, lang);
    }

    fn tree_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        let Some(draft) = &self.draft else {
            return;
        };
        if let Some(selected) = self.tree.ui(ui, lang, &draft.batch, &self.check.counts) {
            self.tree.select(selected);
            self.check.focus_field = None;
        }
    }

    fn node_ui(&mut self, ui: &mut egui::Ui, core: &Caller<'_>, lang: Lang) {
        let selected = self.tree.selected.clone();
        self.node_actions_ui(ui, core, lang, &selected);
        ui.separator();
        let problems = field_problems(lang, &self.check.problems, &selected);
        let Some(draft) = &mut self.draft else {
            return;
        };
        let deletes = in_delete(&draft.batch, &selected);
        let whole_assets = in_asset_delete(&draft.batch, &selected);
        let Some(mut node) = node::resolve_mut(&mut draft.batch, &selected) else {
            self.tree.select(NodeId::root());
            return;
        };
        // The form edits the typed fields and the values held verbatim side by side.
        let mut held = std::mem::take(node.raw_mut());
        let mut changed = false;
        if let NodeMut::Order(order) = &mut node {
            changed =
                picker::customer_search_ui(ui, lang, &mut self.picker, order, &mut held, core.out);
            customer_page_link_ui(ui, lang, order, core.out);
        }
        let mut cx = FormCx {
            lang,
            problems: &problems,
            focus: &mut self.check.focus_field,
            held: &mut held,
            changed: false,
            deletes,
            whole_assets,
            room: self.room.of(&selected),
        };
        egui::ScrollArea::vertical()
            .id_salt("node_form_scroll")
            .show(ui, |ui| forms::node_form_ui(ui, &mut cx, &mut node));
        let changed = changed || cx.changed;
        *node.raw_mut() = held;
        if changed {
            self.edited();
        }
    }
}

/// The type of the order `node` is, or is in.
fn order_type_at(
    batch: &crate::core::snapshot::Snapshot,
    node: &NodeId,
) -> Option<crate::core::wire::OrderType> {
    match node.0.first() {
        Some(node::Step::Order(i)) => batch.order(*i).and_then(|o| o.order_type),
        _ => None,
    }
}

/// Whether `node` is, or is in, a delete order (of assets or of products).
pub(super) fn in_delete(batch: &crate::core::snapshot::Snapshot, node: &NodeId) -> bool {
    order_type_at(batch, node).is_some_and(|t| t != crate::core::wire::OrderType::NewBuy)
}

/// Whether `node` is, or is in, a delete of whole assets: their numbers are all it reads.
pub(super) fn in_asset_delete(batch: &crate::core::snapshot::Snapshot, node: &NodeId) -> bool {
    order_type_at(batch, node) == Some(crate::core::wire::OrderType::DeleteAsset)
}

/// The page of the customer an order names (its enterprise, else its channel customer id for
/// the directory to place).
fn customer_page_link_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    order: &crate::core::wire::OrderEntry,
    out: &crate::ui::outbox::Outbox<'_>,
) {
    let given = |v: &Option<String>| crate::core::wire::preview::given(v);
    let target = given(&order.enterprise_global_id)
        .map(|id| (id, true))
        .or_else(|| given(&order.channel_customer_id).map(|id| (id, false)));
    if let Some((id, global)) = target {
        let link = ui
            .small_button(t!(lang, "assets-open-page"))
            .on_hover_text(tr!(lang, "history-open-page", id = id.as_str()));
        if link.clicked() {
            out.open_page(&id, global);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Unreadable;

    #[test]
    fn bytes_that_are_not_text_are_placed_at_the_first_bad_one() {
        let stored = b"{\n  \"a\": \"x\xFF\"}";
        let unreadable = Unreadable::not_text(stored);
        assert_eq!((unreadable.line, unreadable.column), (2, 10));
        assert_eq!(unreadable.what, "byte 12 is not UTF-8 text");
        assert_eq!(unreadable.stored, stored);
    }
}
