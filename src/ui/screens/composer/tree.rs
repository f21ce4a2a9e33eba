//! The batch as a tree that stays smooth with 10,000 orders: nodes start collapsed, the visible
//! rows are listed once per change of structure, and only the rows in view are drawn.

use std::collections::{HashMap, HashSet};

use egui::RichText;

use super::node::{self, NodeId, NodeRef};
use crate::core::snapshot::Snapshot;
use crate::ui::text::i18n::{Lang, noted, t, tr};
use crate::ui::text::labels::order_type_short;

pub struct Tree {
    pub selected: NodeId,
    expanded: HashSet<NodeId>,
    rows: Vec<NodeId>,
    dirty: bool,
    /// The keyboard asked for the tree (`F6`): its chosen row takes the focus when drawn.
    focus: bool,
    /// A row of it had the keyboard's focus in the last frame.
    pub has_focus: bool,
}

impl Default for Tree {
    fn default() -> Self {
        Self {
            selected: NodeId::root(),
            expanded: HashSet::from([NodeId::root()]),
            rows: Vec::new(),
            dirty: true,
            focus: false,
            has_focus: false,
        }
    }
}

impl Tree {
    pub fn select(&mut self, id: NodeId) {
        self.selected = id;
    }

    pub fn expand(&mut self, id: &NodeId) {
        if self.expanded.insert(id.clone()) {
            self.dirty = true;
        }
    }

    /// Expands every node above `id`, so that it is shown.
    pub fn reveal(&mut self, id: &NodeId) {
        let mut at = id.parent();
        while let Some(node) = at {
            at = node.parent();
            self.expand(&node);
        }
    }

    pub fn structure_changed(&mut self) {
        self.dirty = true;
    }

    fn rebuild(&mut self, batch: &Snapshot) {
        self.rows.clear();
        let mut stack = vec![NodeId::root()];
        while let Some(id) = stack.pop() {
            if self.expanded.contains(&id)
                && let Some(n) = node::resolve(batch, &id)
            {
                // Pushed in reverse so that they come out in order.
                for step in node::children(&n).into_iter().rev() {
                    stack.push(id.child(step));
                }
            }
            self.rows.push(id);
        }
        self.dirty = false;
    }

    /// Draws the rows in view; answers the node the user clicked.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        lang: Lang,
        batch: &Snapshot,
        problems: &HashMap<NodeId, usize>,
    ) -> Option<NodeId> {
        if self.dirty {
            self.rebuild(batch);
        }
        let mut clicked = None;
        let mut toggled = None;
        let row_height = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        let mut area = egui::ScrollArea::both()
            .id_salt("composer_tree_rows")
            .auto_shrink([false, false]);
        // The chosen row scrolled into view, to take the focus asked for.
        let wanted = self.focus;
        if wanted && let Some(i) = self.rows.iter().position(|r| *r == self.selected) {
            area = area.vertical_scroll_offset((i as f32 - 2.0).max(0.0) * row_height);
        }
        let mut focused = false;
        let mut has_focus = false;
        area.show_rows(ui, row_height, self.rows.len(), |ui, range| {
            for id in &self.rows[range] {
                let Some(n) = node::resolve(batch, id) else {
                    continue;
                };
                ui.horizontal(|ui| {
                    ui.add_space(14.0 * id.depth() as f32);
                    let mut label = row_label(lang, &n);
                    if node::has_children(&n) {
                        let open = self.expanded.contains(id);
                        if toggle_ui(ui, lang, open, &label).clicked() {
                            toggled = Some(id.clone());
                        }
                    } else {
                        ui.add_space(ui.spacing().interact_size.y);
                    }
                    let mut text = RichText::new(&label);
                    if let Some(count) = problems.get(id) {
                        label = noted(lang, &label, &count.to_string());
                        text = RichText::new(&label).color(ui.visuals().error_fg_color);
                    }
                    // A long name ends in "…" at the tree's edge, whole on hover.
                    let row = egui::Button::selectable(self.selected == *id, text).truncate();
                    let mut row = ui.add(row);
                    if row.rect.right() >= ui.clip_rect().right() - 1.0 {
                        row = row.on_hover_text(label);
                    }
                    if row.clicked() {
                        clicked = Some(id.clone());
                    }
                    if wanted && self.selected == *id {
                        row.request_focus();
                        focused = true;
                    }
                    has_focus |= row.has_focus();
                });
            }
        });
        if focused {
            self.focus = false;
        }
        self.has_focus = has_focus;
        if let Some(id) = toggled {
            if !self.expanded.remove(&id) {
                self.expanded.insert(id);
            }
            self.dirty = true;
        }
        clicked
    }
}

impl Tree {
    /// The chosen row takes the keyboard's focus when next drawn.
    pub fn focus(&mut self) {
        self.focus = true;
    }
}

/// The sign that opens or closes a row, named for a screen reader by what it does to which row.
fn toggle_ui(ui: &mut egui::Ui, lang: Lang, open: bool, row: &str) -> egui::Response {
    let enabled = ui.is_enabled();
    let button = ui
        .small_button(if open { "-" } else { "+" })
        .on_hover_text(t!(lang, "expand-collapse"));
    // Worded only when asked for (a screen reader is on), not in every frame.
    button.widget_info(|| {
        let name = if open {
            tr!(lang, "tree-close", row = row)
        } else {
            tr!(lang, "tree-open", row = row)
        };
        egui::WidgetInfo::labeled(egui::Role::Button, enabled, &name)
    });
    button
}

/// What a row says of its node: its kind and what tells it apart.
fn row_label(lang: Lang, n: &NodeRef<'_>) -> String {
    let or_dash = |v: Option<&str>| v.filter(|s| !s.is_empty()).unwrap_or("—").to_owned();
    match n {
        NodeRef::Batch(b) => format!(
            "{} {}",
            t!(lang, "batch"),
            or_dash(b.head().channel_order_id.as_deref())
        ),
        NodeRef::Order(o) => format!(
            "#{} {} · {}",
            o.sequence.map_or_else(|| "?".to_owned(), |s| s.to_string()),
            o.order_type
                .map_or_else(|| "—".to_owned(), |k| order_type_short(lang, k)),
            or_dash(
                o.channel_customer_id
                    .as_deref()
                    .or(o.customer_id.as_deref())
            )
        ),
        NodeRef::Asset(a) => {
            let first = or_dash(a.asset_nos.first().map(String::as_str));
            let more = a.asset_nos.len().saturating_sub(1);
            if more > 0 {
                format!("{} {first} (+{more})", t!(lang, "asset"))
            } else {
                format!("{} {first}", t!(lang, "asset"))
            }
        }
        NodeRef::Product(p) => match (p.product_uri.as_deref(), p.product_name.as_deref()) {
            (Some(uri), Some(name)) if !uri.is_empty() && !name.is_empty() => {
                format!("{} {uri} {name}", t!(lang, "product"))
            }
            (uri, name) => format!("{} {}", t!(lang, "product"), or_dash(uri.or(name))),
        },
        NodeRef::Feature(f) => format!(
            "{} {}",
            t!(lang, "feature"),
            or_dash(f.feature_code.as_deref())
        ),
        NodeRef::Merchandise(m) => format!(
            "{} {} {}",
            t!(lang, "package"),
            or_dash(m.merchandise_num.as_deref()),
            m.merchandise_name.as_deref().unwrap_or("")
        )
        .trim_end()
        .to_owned(),
    }
}
