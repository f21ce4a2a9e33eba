//! Catalog: the products and packages the branch sells, and the active profile's directory of
//! customers; searched as you type (pinyin too), an item removed after a confirmation, the
//! whole shared as a file (import and export).

use std::path::PathBuf;
use std::sync::Arc;

use egui::{RichText, ScrollArea};

use super::dates;
use super::form::{busy_button_ui, profile_name};
use super::i18n::{Lang, Text, t, tr};
use super::outbox::Outbox;
use crate::core::catalog::{CatalogItem, CatalogView, Known};
use crate::core::{Command, Event, Latest, Outcome, Profile};

/// Most rows drawn at once: a search narrows the rest.
const ROWS: usize = 200;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Tab {
    #[default]
    Products,
    Packages,
    Customers,
}

#[derive(Default)]
pub struct CatalogScreen {
    view: Option<Arc<CatalogView>>,
    load: Latest,
    tab: Tab,
    query: String,
    /// An item whose removal waits for the user's confirmation, with its name.
    removing: Option<(CatalogItem, String)>,
    remove: Latest,
    file: FileBox,
}

/// The catalog as a file.
#[derive(Default)]
struct FileBox {
    path: String,
    /// The export carries the active profile's customers too.
    with_customers: bool,
    call: Latest,
    done: Option<String>,
}

/// One row of a tab: what it is, its words in the columns, when it was last seen.
struct Row {
    item: CatalogItem,
    name: String,
    cells: [String; 3],
    last_seen: i64,
}

impl CatalogScreen {
    pub fn apply(&mut self, event: &Event) -> Option<Text> {
        if self.load.accept(event) || self.remove.accept(event) {
            if let Ok(Outcome::Catalog(view)) = &event.result {
                self.view = Some(Arc::clone(view));
            }
            return Some(Text::LoadCatalog);
        }
        if self.file.call.accept(event) {
            self.file.done = match &event.result {
                Ok(Outcome::Exported { path, count }) => {
                    Some(format!("{count} → {}", path.display()))
                }
                Ok(Outcome::CatalogImported {
                    products,
                    packages,
                    customers,
                }) => Some(format!("+ {products} · {packages} · {customers}")),
                _ => None,
            };
            // What was imported is listed.
            self.view = None;
            return Some(Text::CatalogFile);
        }
        None
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, profile: &Profile) {
        let stale = self.view.as_ref().is_none_or(|v| v.profile != profile.name);
        if stale && !self.load.is_waiting() {
            let profile = profile.name.clone();
            self.load.start(out.send(Command::LoadCatalog { profile }));
        }
        self.file_ui(ui, out, lang, profile);
        ui.separator();
        let shown_name = profile_name(lang, profile);
        ui.horizontal(|ui| {
            for (tab, words) in [
                (Tab::Products, tr!(lang, "catalog-products")),
                (Tab::Packages, tr!(lang, "catalog-packages")),
                (
                    Tab::Customers,
                    tr!(lang, "catalog-customers", profile = shown_name),
                ),
            ] {
                ui.selectable_value(&mut self.tab, tab, words);
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label(tr!(lang, "catalog-search"));
            ui.add(
                egui::TextEdit::singleline(&mut self.query)
                    .hint_text(tr!(lang, "catalog-search-hint"))
                    .desired_width(320.0),
            )
            .labelled_by(label.id);
        });
        let Some(view) = self.view.clone() else {
            ui.spinner();
            return;
        };
        let (rows, total) = rows(&view, self.tab, &self.query);
        ui.label(
            RichText::new(tr!(
                lang,
                "catalog-count",
                shown = rows.len(),
                total = total
            ))
            .weak(),
        );
        if let Some(removing) = table_ui(ui, lang, self.tab, &rows) {
            self.removing = Some(removing);
        }
        self.confirm_remove_ui(ui.ctx(), out, lang, &view);
    }

    fn file_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, profile: &Profile) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(tr!(lang, "catalog-file"));
            ui.add(egui::TextEdit::singleline(&mut self.file.path).desired_width(280.0))
                .labelled_by(label.id);
            let path = PathBuf::from(self.file.path.trim());
            let waiting = self.file.call.is_waiting();
            if busy_button_ui(ui, &tr!(lang, "catalog-import"), waiting)
                && !self.file.path.trim().is_empty()
            {
                let profile = profile.name.clone();
                self.file.call.start(out.send(Command::ImportCatalog {
                    path: path.clone(),
                    profile,
                }));
            }
            if busy_button_ui(ui, &tr!(lang, "catalog-export"), waiting)
                && !self.file.path.trim().is_empty()
            {
                let profile = self.file.with_customers.then(|| profile.name.clone());
                self.file
                    .call
                    .start(out.send(Command::ExportCatalog { path, profile }));
            }
            ui.checkbox(
                &mut self.file.with_customers,
                tr!(lang, "catalog-with-customers"),
            );
        });
        if let Some(done) = &self.file.done {
            ui.label(done.as_str());
        }
    }

    fn confirm_remove_ui(
        &mut self,
        ctx: &egui::Context,
        out: &Outbox<'_>,
        lang: Lang,
        view: &CatalogView,
    ) {
        let Some((item, name)) = &self.removing else {
            return;
        };
        let mut answer = None;
        egui::Modal::new(egui::Id::unique("confirm_catalog_remove")).show(ctx, |ui| {
            ui.label(tr!(lang, "catalog-remove-confirm", name = name.as_str()));
            ui.label(RichText::new(tr!(lang, "catalog-remove-undo")).weak());
            ui.horizontal(|ui| {
                if ui.button(tr!(lang, "catalog-remove-yes")).clicked() {
                    answer = Some(true);
                }
                if ui.button(t(lang, Text::Cancel)).clicked() {
                    answer = Some(false);
                }
            });
        });
        match answer {
            Some(true) => {
                let command = Command::RemoveFromCatalog {
                    profile: view.profile.clone(),
                    item: item.clone(),
                };
                self.remove.start(out.send(command));
                self.removing = None;
            }
            Some(false) => self.removing = None,
            None => {}
        }
    }
}

/// The rows of a tab that the query finds (at most `ROWS`), and how many it finds in all.
fn rows(view: &CatalogView, tab: Tab, query: &str) -> (Vec<Row>, usize) {
    fn text(s: &Option<String>) -> String {
        s.clone().unwrap_or_default()
    }
    let found = match tab {
        Tab::Products => view.product_index.find(query, usize::MAX),
        Tab::Packages => view.package_index.find(query, usize::MAX),
        Tab::Customers => view.customer_index.find(query, usize::MAX),
    };
    let total = found.len();
    let row = |i: usize| match tab {
        Tab::Products => {
            let Known {
                key,
                item: p,
                last_seen,
                ..
            } = &view.products[i];
            Row {
                item: CatalogItem::Product(key.clone()),
                name: text(&p.product_name),
                cells: [
                    key.clone(),
                    text(&p.gms_pid),
                    p.limit_concurrent
                        .map(|n| n.to_string())
                        .unwrap_or_default(),
                ],
                last_seen: *last_seen,
            }
        }
        Tab::Packages => {
            let Known {
                key,
                item: m,
                last_seen,
                ..
            } = &view.packages[i];
            Row {
                item: CatalogItem::Package(key.clone()),
                name: text(&m.merchandise_name),
                cells: [
                    key.clone(),
                    m.license_order_product_list.len().to_string(),
                    m.children.as_ref().map_or(0, Vec::len).to_string(),
                ],
                last_seen: *last_seen,
            }
        }
        Tab::Customers => {
            let Known {
                key,
                item: c,
                last_seen,
                ..
            } = &view.customers[i];
            Row {
                item: CatalogItem::Customer(key.clone()),
                name: c.names().first().map(|s| s.to_string()).unwrap_or_default(),
                cells: [
                    text(&c.channel_customer_id),
                    text(&c.customer_id),
                    text(&c.enterprise_global_id),
                ],
                last_seen: *last_seen,
            }
        }
    };
    (found.into_iter().take(ROWS).map(row).collect(), total)
}

/// The table of rows; the row whose Remove was clicked.
fn table_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    tab: Tab,
    rows: &[Row],
) -> Option<(CatalogItem, String)> {
    let heads = match tab {
        Tab::Products => [
            tr!(lang, "catalog-name"),
            tr!(lang, "catalog-uri"),
            tr!(lang, "catalog-pid"),
            tr!(lang, "catalog-concurrent"),
        ],
        Tab::Packages => [
            tr!(lang, "catalog-name"),
            tr!(lang, "catalog-number"),
            tr!(lang, "catalog-product-count"),
            tr!(lang, "catalog-sub-packages"),
        ],
        Tab::Customers => [
            tr!(lang, "catalog-name"),
            tr!(lang, "catalog-channel-customer"),
            tr!(lang, "catalog-customer-id"),
            tr!(lang, "catalog-enterprise"),
        ],
    };
    let mut removed = None;
    ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            egui::Grid::new(("catalog_table", tab as u8))
                .striped(true)
                .spacing([16.0, 4.0])
                .show(ui, |ui| {
                    for head in heads {
                        ui.label(RichText::new(head).strong());
                    }
                    ui.label(RichText::new(tr!(lang, "catalog-last-seen")).strong());
                    ui.end_row();
                    for row in rows {
                        ui.label(row.name.as_str());
                        for cell in &row.cells {
                            ui.label(cell.as_str());
                        }
                        ui.label(dates::local_date(row.last_seen));
                        if ui
                            .button(tr!(lang, "catalog-remove"))
                            .on_hover_text(row.name.as_str())
                            .clicked()
                        {
                            removed = Some((row.item.clone(), row.name.clone()));
                        }
                        ui.end_row();
                    }
                });
        });
    removed
}
