//! Picking from the catalog and the directory: *Add product* and *Add package* open a search
//! of the catalog that inserts a filled node (a package with its whole tree); an order's
//! customer is searched in the profile's directory and fills every customer field at once.
//! What is picked comes first in later searches.

use std::sync::Arc;

use egui::RichText;

use super::ComposerScreen;
use super::node::{self, Add, NodeId, NodeMut};
use crate::core::catalog::{self, CatalogItem, CatalogView, DirectoryEntry};
use crate::core::wire::raw::Raw;
use crate::core::wire::{MerchandiseEntry, OrderEntry, ProductEntry};
use crate::core::{Awaited, Profile};
use crate::ui::outbox::Outbox;
use crate::ui::text::i18n::{Lang, label, tr};

/// At most this many results are listed.
const SHOWN: usize = 30;

#[derive(Default)]
pub(super) struct Picker {
    view: Option<Arc<CatalogView>>,
    load: Awaited<Arc<CatalogView>>,
    /// A product or package being chosen, for the node it goes under.
    open: Option<Choosing>,
    /// What the order's customer search holds.
    customer_query: String,
    /// The customer id of an enterprise picked without one, read from its listing.
    holder: super::holder::Holder,
}

impl Picker {
    /// Whether the catalog's search window is open (it keeps its own keys).
    pub(super) fn is_open(&self) -> bool {
        self.open.is_some()
    }
}

struct Choosing {
    under: NodeId,
    what: Add,
    query: String,
    /// The result ↑ and ↓ are on; Enter takes it.
    cursor: usize,
}

/// What the user chose in the catalog's search.
enum Chosen {
    Product(ProductEntry, String),
    Package(MerchandiseEntry, String),
    Empty,
}

impl Picker {
    /// Loads the catalog and `profile`'s directory when none is held for it, or `again`.
    pub fn refresh(&mut self, out: &Outbox<'_>, profile: &Profile, again: bool) {
        let stale = self.view.as_ref().is_none_or(|v| v.profile != profile.name);
        if (stale || again) && !self.load.is_waiting() {
            let profile = profile.name.clone();
            self.load.start(out.ask(catalog::Load { profile }));
        }
    }

    /// Whether the catalog, once read, holds no product (*Add product* then adds an empty one).
    pub(super) fn no_products(&self) -> bool {
        self.view.as_ref().is_some_and(|v| v.products.is_empty())
    }

    /// Whether *Add* of this kind should open the search: there is something to pick.
    fn has_any(&self, what: Add) -> bool {
        self.view.as_ref().is_some_and(|v| match what {
            Add::Product => !v.products.is_empty(),
            Add::Package => !v.packages.is_empty(),
            _ => false,
        })
    }
}

impl ComposerScreen {
    pub(super) fn poll_catalog(&mut self, out: &Outbox<'_>) {
        if let Some(Ok(view)) = out.reply(&mut self.picker.load, label!("load-catalog")) {
            self.picker.view = Some(view);
        }
    }

    /// *Add product* or *Add package* under `under`: the catalog's search when it has any,
    /// else an empty node at once. True when the search opened.
    pub(super) fn pick_to_add(&mut self, under: &NodeId, what: Add, out: &Outbox<'_>) -> bool {
        if !self.picker.has_any(what) {
            return false;
        }
        self.picker.open = Some(Choosing {
            cursor: 0,
            under: under.clone(),
            what,
            query: String::new(),
        });
        if let Some(view) = &self.picker.view {
            // What was learned since it was loaded.
            let profile = view.profile.clone();
            self.picker.load.start(out.ask(catalog::Load { profile }));
        }
        true
    }

    /// Closes the catalog's search, if open (the composer was left).
    pub(crate) fn close_picker(&mut self) {
        self.picker.open = None;
    }

    /// The catalog's search, while open; adds what is chosen.
    pub(super) fn catalog_search_ui(&mut self, ctx: &egui::Context, out: &Outbox<'_>, lang: Lang) {
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.picker.open = None;
        }
        let (Some(choosing), Some(view)) = (&mut self.picker.open, &self.picker.view) else {
            return;
        };
        let mut open = true;
        let mut chosen = None;
        let title = match choosing.what {
            Add::Package => tr!(lang, "pick-package"),
            _ => tr!(lang, "pick-product"),
        };
        egui::Window::new(title)
            .collapsible(false)
            .resizable(true)
            .default_width(460.0)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .open(&mut open)
            .show(ctx, |ui| chosen = choose_ui(ui, lang, view, choosing));
        let Some(chosen) = chosen else {
            if !open {
                self.picker.open = None;
            }
            return;
        };
        let Some(choosing) = self.picker.open.take() else {
            return;
        };
        self.add_chosen(&choosing, chosen, out);
    }

    fn add_chosen(&mut self, choosing: &Choosing, chosen: Chosen, out: &Outbox<'_>) {
        self.before_step();
        let Some(draft) = &mut self.draft else {
            return;
        };
        let Some(added) = node::add_child(&mut draft.batch, &choosing.under, choosing.what) else {
            return;
        };
        let used = match (chosen, node::resolve_mut(&mut draft.batch, &added)) {
            (Chosen::Product(p, key), Some(NodeMut::Product(node))) => {
                *node = p;
                Some(CatalogItem::Product(key))
            }
            (Chosen::Package(m, key), Some(NodeMut::Merchandise(node))) => {
                *node = m;
                Some(CatalogItem::Package(key))
            }
            _ => None,
        };
        if let (Some(item), Some(view)) = (used, &self.picker.view) {
            let profile = view.profile.clone();
            out.ask_and_forget(catalog::Used { profile, item });
        }
        self.tree.expand(&choosing.under);
        self.tree.select(added);
        self.tree.structure_changed();
        self.room.forget();
        self.check.structure_changed();
        self.stepped();
    }
}

/// The search field and its results; the one clicked, or the one ↑ and ↓ are on when Enter
/// is pressed (the first, until an arrow moves).
fn choose_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    view: &CatalogView,
    choosing: &mut Choosing,
) -> Option<Chosen> {
    let label = ui.label(tr!(lang, "catalog-search"));
    let field = ui
        .add(
            egui::TextEdit::singleline(&mut choosing.query)
                .hint_text(tr!(lang, "catalog-search-hint"))
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    field.request_focus();
    if field.changed() {
        choosing.cursor = 0;
    }
    let keys = cursor_keys(ui, view, choosing);
    // A fixed height: the window (and its search field) does not move as results narrow.
    let mut chosen = egui::ScrollArea::vertical()
        .min_scrolled_height(320.0)
        .max_height(320.0)
        .auto_shrink([false, false])
        .show(ui, |ui| found_ui(ui, lang, view, choosing, keys))
        .inner;
    ui.separator();
    let empty = match choosing.what {
        Add::Package => tr!(lang, "empty-package"),
        _ => tr!(lang, "empty-product"),
    };
    if ui.button(empty).clicked() {
        chosen = Some(Chosen::Empty);
    }
    chosen
}

/// What the keys did to the results: whether an arrow moved the cursor, whether Enter took it.
#[derive(Clone, Copy)]
struct Keys {
    moved: bool,
    enter: bool,
}

/// Moves the cursor with ↑ and ↓ within the results; the field holds the focus while the
/// search is open, so Enter there takes the result under the cursor.
fn cursor_keys(ui: &egui::Ui, view: &CatalogView, choosing: &mut Choosing) -> Keys {
    let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
    let (down, up) = ui.input_mut(|i| {
        let down = i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown);
        (
            down,
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
        )
    });
    let shown = match choosing.what {
        Add::Package => view.package_index.find(&choosing.query, SHOWN).len(),
        _ => view.product_index.find(&choosing.query, SHOWN).len(),
    };
    choosing.cursor = (choosing.cursor + usize::from(down)).min(shown.saturating_sub(1));
    choosing.cursor = choosing.cursor.saturating_sub(usize::from(up));
    Keys {
        moved: down || up,
        enter,
    }
}

/// The packages or products the query finds, one row each; the one chosen.
fn found_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    view: &CatalogView,
    choosing: &Choosing,
    keys: Keys,
) -> Option<Chosen> {
    let query = &choosing.query;
    if let Add::Package = choosing.what {
        let found = view.package_index.find(query, SHOWN);
        nothing_found_ui(ui, lang, query, found.is_empty());
        let words = found.iter().map(|&i| {
            let k = &view.packages[i];
            let name = k.item.merchandise_name.as_deref().unwrap_or_default();
            let count = k.item.license_order_product_list.len();
            tr!(
                lang,
                "picked-package",
                name = name,
                num = k.key.as_str(),
                count = count
            )
        });
        let n = rows_ui(ui, words, choosing.cursor, keys)?;
        let k = &view.packages[found[n]];
        return Some(Chosen::Package(k.item.clone(), k.key.clone()));
    }
    let found = view.product_index.find(query, SHOWN);
    nothing_found_ui(ui, lang, query, found.is_empty());
    let words = found.iter().map(|&i| product_words(&view.products[i].item));
    let n = rows_ui(ui, words, choosing.cursor, keys)?;
    let k = &view.products[found[n]];
    Some(Chosen::Product(k.item.clone(), k.key.clone()))
}

/// A row per result, the cursor's selected and kept in view as it moves; the row clicked, or
/// the cursor's when Enter was pressed.
fn rows_ui(
    ui: &mut egui::Ui,
    words: impl Iterator<Item = String>,
    cursor: usize,
    keys: Keys,
) -> Option<usize> {
    let mut taken = None;
    for (n, words) in words.enumerate() {
        let row = ui.selectable_label(n == cursor, words);
        if n == cursor && keys.moved {
            row.scroll_to_me(None);
        }
        if row.clicked() || (keys.enter && n == cursor) {
            taken = Some(n);
        }
    }
    taken
}

/// Says why the list is empty, so an empty list is not taken for a catalog still loading.
fn nothing_found_ui(ui: &mut egui::Ui, lang: Lang, query: &str, empty: bool) {
    if !empty {
        return;
    }
    let words = if query.trim().is_empty() {
        tr!(lang, "catalog-nothing-yet")
    } else {
        tr!(lang, "catalog-no-match", query = query.trim())
    };
    ui.weak(words);
}

/// `计价软件 · gms:1001 · 1001`: the name, the URI and the pid.
fn product_words(p: &ProductEntry) -> String {
    [&p.product_name, &p.product_uri, &p.gms_pid]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" · ")
}

/// `北京示例科技有限公司 · S-0001 · EG0000000001`: the name and the ids.
fn customer_words(c: &DirectoryEntry) -> String {
    let mut parts = c.names();
    parts.dedup();
    parts.extend(
        [
            &c.channel_customer_id,
            &c.customer_id,
            &c.enterprise_global_id,
        ]
        .into_iter()
        .flatten()
        .map(String::as_str),
    );
    parts.join(" · ")
}

/// The order's customer from the directory: a search above the order's form; a click fills
/// every customer field (and clears those the directory does not know, so no field of another
/// customer stays). True when it changed the order.
pub(super) fn customer_search_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    picker: &mut Picker,
    order: &mut OrderEntry,
    held: &mut Raw,
    out: &Outbox<'_>,
) -> bool {
    let filled = picker.holder.poll(out, order);
    let Some(view) = picker.view.clone() else {
        return filled;
    };
    if view.customers.is_empty() {
        return filled;
    }
    ui.horizontal(|ui| {
        let label = ui.label(tr!(lang, "customer-search"));
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut picker.customer_query)
                    .hint_text(tr!(lang, "customer-search-hint"))
                    .desired_width(320.0),
            )
            .labelled_by(label.id);
        // Customers learned since the directory was loaded (a batch just sent) are found too.
        if field.gained_focus() && !picker.load.is_waiting() {
            let profile = view.profile.clone();
            picker.load.start(out.ask(catalog::Load { profile }));
        }
    });
    picker.holder.said_ui(ui, lang);
    if picker.customer_query.trim().is_empty() {
        return filled;
    }
    let mut picked = None;
    for i in view.customer_index.find(&picker.customer_query, 8) {
        let k = &view.customers[i];
        let text = RichText::new(customer_words(&k.item));
        if ui.selectable_label(false, text).clicked() {
            picked = Some(k);
        }
    }
    ui.separator();
    let Some(k) = picked else {
        return filled;
    };
    fill_customer(order, held, &k.item);
    picker.holder.ask(out, &view.profile, order);
    picker.customer_query.clear();
    out.ask_and_forget(catalog::Used {
        profile: view.profile.clone(),
        item: CatalogItem::Customer(k.key.clone()),
    });
    true
}

fn fill_customer(o: &mut OrderEntry, held: &mut Raw, c: &DirectoryEntry) {
    o.customer_id = c.customer_id.clone();
    o.crm_customer_id = c.crm_customer_id.clone();
    o.customer_name = c
        .customer_name
        .clone()
        .or_else(|| c.enterprise_name.clone());
    o.channel_customer_id = c.channel_customer_id.clone();
    o.enterprise_global_id = c.enterprise_global_id.clone();
    o.admin_name = c.admin_name.clone();
    o.admin_account = c.admin_account.clone();
    o.admin_email = c.admin_email.clone();
    o.admin_cell_number = c.admin_cell_number.clone();
    o.password_mobile = c.password_mobile.clone();
    o.address = c.address.clone();
    o.customer_type = c.customer_type;
    o.branch_code = c.branch_code.clone();
    o.branch_name = c.branch_name.clone();
    for field in [
        "customerId",
        "crmCustomerId",
        "customerName",
        "channelCustomerId",
        "enterpriseGlobalId",
        "adminName",
        "adminAccount",
        "adminEmail",
        "adminCellNumber",
        "passwordMobile",
        "address",
        "customerType",
        "branchCode",
        "branchName",
    ] {
        held.remove(field);
    }
}
