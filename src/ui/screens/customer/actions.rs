//! What the page does: a new purchase for the customer (prefilled), a renewal of what ends,
//! a delete of chosen assets (the composer shows its preview), the locks on the Assets screen
//! (its confirmations), and the page's dated rows exported. Nothing is sent from here: each
//! batch opens in the composer, checked like any other.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::CustomerScreen;
use crate::core::customer::{self, Held, Page};
use crate::core::renewals::Window;
use crate::core::team::Permission;
use crate::core::wire::BatchOrderRequest;
use crate::ui::kit::form::{busy_icon_button_ui, home_file};
use crate::ui::kit::icon::Icon;
use crate::ui::kit::lock_change::LeftOut;
use crate::ui::kit::permits::permitted_ui;
use crate::ui::outbox::Caller;
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, labelled, t, tr};
use crate::ui::text::labels::license_code_words;

/// What the page asks the window to do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PageAction {
    /// A batch to open in the composer as a new draft, with its name.
    Compose(BatchOrderRequest, String),
    /// The Assets screen listing this enterprise, asking to disable (`lock`) or enable the
    /// locks `nums`, with what was left out: its confirmation, its results.
    Locks {
        enterprise: String,
        lock: bool,
        nums: Vec<String>,
        left: LeftOut,
    },
    /// History, at this journal entry.
    History(i64),
}

impl CustomerScreen {
    pub(super) fn actions_ui(
        &mut self,
        ui: &mut egui::Ui,
        caller: &Caller<'_>,
        page: &Arc<Page>,
        lang: Lang,
    ) -> Option<PageAction> {
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            let no_purchase = caller.lacking(lang, Permission::Purchase);
            let purchase = permitted_ui(ui, no_purchase.as_deref(), |ui| {
                ui.button(t!(lang, "page-new-purchase")).clicked()
            });
            if purchase {
                action = compose(new_purchase(page), "NEW");
            }
            let rows = self.renewal_rows(page);
            let n = rows.len();
            let renew = permitted_ui(ui, no_purchase.as_deref(), |ui| {
                let renew =
                    ui.add_enabled(n > 0, egui::Button::new(tr!(lang, "page-renew", n = n)));
                renew.on_hover_text(t!(lang, "page-renew-help")).clicked()
            });
            if renew {
                let id = order_id("RENEW");
                let batch = crate::core::renewals::compose(&page.holdings, &rows, &id);
                action = Some(PageAction::Compose(batch, id));
            }
            let chosen = self.chosen.len();
            // A delete filed for a second person needs only what filing needs.
            let types = [Some(crate::core::wire::OrderType::DeleteAsset)];
            let no_delete = caller.permits.lacking_for_orders(lang, types.into_iter());
            let delete = permitted_ui(ui, no_delete.as_deref(), |ui| {
                let words = tr!(lang, "page-delete", n = chosen);
                let delete = ui.add_enabled(chosen > 0, egui::Button::new(words));
                delete.on_hover_text(t!(lang, "page-delete-help")).clicked()
            });
            if delete {
                action = compose(delete_chosen(page, &self.chosen), "DELETE");
            }
            // A role that may not change locks sees them disabled, with why on hover.
            let lacking = caller.lacking(lang, Permission::Locks);
            for lock in [true, false] {
                let words = if lock {
                    tr!(lang, "page-disable", n = chosen)
                } else {
                    tr!(lang, "page-enable", n = chosen)
                };
                let clicked = permitted_ui(ui, lacking.as_deref(), |ui| {
                    let button = ui.add_enabled(chosen > 0, egui::Button::new(words));
                    button.on_hover_text(t!(lang, "page-locks-help")).clicked()
                });
                if clicked {
                    action = Some(self.locks(page, lock, lang));
                }
            }
            ui.separator();
            self.export_ui(ui, caller, page, lang);
        });
        action
    }

    /// The chosen assets that can take the change, and those left out with why.
    fn locks(&self, page: &Page, lock: bool, lang: Lang) -> PageAction {
        let mut nums = Vec::new();
        let mut left = LeftOut::default();
        for a in self.chosen.iter().map(|i| &page.assets[*i]) {
            if !a.lockable {
                left.not_locks += 1;
                let words = license_code_words(lang, &a.license_type);
                if !left.types.contains(&words) {
                    left.types.push(words);
                }
            } else if a.locked == lock {
                left.already += 1;
            } else {
                nums.push(a.asset_num.clone());
            }
        }
        PageAction::Locks {
            enterprise: page.global_id.clone(),
            lock,
            nums,
            left,
        }
    }

    /// The chosen assets' dated rows; with none chosen, every row that ends within the window.
    fn renewal_rows(&self, page: &Page) -> Vec<u32> {
        if !self.chosen.is_empty() {
            return self
                .chosen
                .iter()
                .flat_map(|i| self.rows[*i].iter().copied())
                .collect();
        }
        let tz = jiff::tz::TimeZone::system();
        let Some(window) = Window::days(dates::today(), &tz, self.days) else {
            return Vec::new();
        };
        let table = &page.holdings.table;
        (0..table.len())
            .filter(|i| window.holds(&table.get(*i)))
            .filter_map(|i| u32::try_from(i).ok())
            .collect()
    }

    fn export_ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, page: &Arc<Page>, lang: Lang) {
        let busy = self.export.is_waiting();
        if busy_icon_button_ui(ui, Icon::Export, t!(lang, "page-export"), busy) {
            self.exported = None;
            let file = format!("customer-{}.xlsx", page.global_id);
            self.export.start(caller.ask(customer::Export {
                path: PathBuf::from(home_file(&file)),
                page: Arc::clone(page),
            }));
        }
        if let Some(path) = &self.exported {
            ui.label(labelled(lang, t!(lang, "exported"), path));
        }
    }
}

fn compose(batch: Option<BatchOrderRequest>, kind: &str) -> Option<PageAction> {
    let batch = batch?;
    let name = batch
        .channel_order_id
        .clone()
        .unwrap_or_else(|| order_id(kind));
    Some(PageAction::Compose(batch, name))
}

/// A channel order id for a batch composed here: its kind, today, and a number.
fn order_id(kind: &str) -> String {
    let today = dates::today().strftime("%Y%m%d").to_string();
    format!("{kind}-{today}-{}", crate::core::now_ms() % 100_000)
}

/// The customer as the page knows it: the default customer, else the first, else the one
/// holding most of the enterprise's assets (the listing names it); the directory's channel
/// and names.
fn customer_fields(page: &Page) -> serde_json::Map<String, Value> {
    let customer = page
        .customers
        .iter()
        .find(|c| c.is_default)
        .or_else(|| page.customers.first());
    let e = page.holdings.enterprises.first();
    let mut fields = serde_json::Map::new();
    let mut put = |key: &str, v: Option<&str>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            fields.insert(key.to_owned(), Value::from(v));
        }
    };
    let holder = most_assets_held_by(page.assets.iter());
    put(
        "customerId",
        customer
            .map(|c| c.customer_id.as_str())
            .or(holder.as_deref()),
    );
    put(
        "channelCustomerId",
        customer.map(|c| c.channel_customer_id.as_str()),
    );
    put("customerName", e.and_then(|e| e.customer_name.as_deref()));
    put("branchName", e.and_then(|e| e.branch.as_deref()));
    put("enterpriseGlobalId", Some(page.global_id.as_str()));
    fields
}

fn channel_code(page: &Page) -> Option<String> {
    let e = page.holdings.enterprises.first();
    e.and_then(|e| e.channel_code.clone())
        .or_else(|| page.customers.first().map(|c| c.channel_code.clone()))
}

/// A new purchase for the customer: one order, its license type the one most of its assets
/// have, one asset to fill in.
fn new_purchase(page: &Page) -> Option<BatchOrderRequest> {
    let mut order = customer_fields(page);
    let license_type = page
        .license_types()
        .into_iter()
        .max_by_key(|t| page.assets.iter().filter(|a| a.license_type == *t).count())
        .unwrap_or("normal_recover_usbkey");
    order.insert("sequence".into(), json!(1));
    order.insert("licenseType".into(), json!(license_type));
    order.insert("orderType".into(), json!("new_buy"));
    order.insert("assets".into(), json!([{"assetNos": [], "products": []}]));
    batch(page, "NEW", vec![Value::Object(order)])
}

/// The customer id most of `assets` are held by, as the listing says.
fn most_assets_held_by<'a>(assets: impl Iterator<Item = &'a Held>) -> Option<String> {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for a in assets.filter(|a| !a.customer_id.is_empty()) {
        *counts.entry(a.customer_id.as_str()).or_default() += 1;
    }
    let most = counts.into_iter().max_by_key(|(_, n)| *n)?;
    Some(most.0.to_owned())
}

/// A delete of the chosen assets: one `delete_asset` order per customer holding them and
/// license type, each naming the customer the listing says holds its assets.
fn delete_chosen(
    page: &Page,
    chosen: &std::collections::BTreeSet<usize>,
) -> Option<BatchOrderRequest> {
    let mut orders = Vec::new();
    let mut holders: Vec<&str> = chosen
        .iter()
        .map(|i| page.assets[*i].customer_id.as_str())
        .collect();
    holders.sort_unstable();
    holders.dedup();
    for (holder, license_type) in holders
        .iter()
        .flat_map(|h| page.license_types().into_iter().map(move |t| (*h, t)))
    {
        let nums: Vec<&str> = chosen
            .iter()
            .map(|i| &page.assets[*i])
            .filter(|a| a.license_type == license_type && a.customer_id == holder)
            .map(|a| a.asset_num.as_str())
            .collect();
        if nums.is_empty() {
            continue;
        }
        let mut order = customer_fields(page);
        if !holder.is_empty() && order.get("customerId").and_then(Value::as_str) != Some(holder) {
            // Another customer of the enterprise: its own id, not the default's channel id.
            order.remove("channelCustomerId");
            order.insert("customerId".into(), json!(holder));
        }
        order.insert("sequence".into(), json!(orders.len() + 1));
        order.insert("licenseType".into(), json!(license_type));
        order.insert("orderType".into(), json!("delete_asset"));
        order.insert("assets".into(), json!([{"assetNos": nums}]));
        orders.push(Value::Object(order));
    }
    batch(page, "DELETE", orders)
}

fn batch(page: &Page, kind: &str, orders: Vec<Value>) -> Option<BatchOrderRequest> {
    let body = json!({
        "channelCode": channel_code(page),
        "channelOrderId": order_id(kind),
        "syncMode": "sync",
        "orderList": orders,
    });
    serde_json::from_value(body)
        .inspect_err(|e| tracing::warn!(error = %e, "a batch from the customer page"))
        .ok()
}
