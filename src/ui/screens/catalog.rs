//! Catalog: the products and packages the branch sells, and the active profile's directory of
//! customers; searched as you type (pinyin too), an item edited or removed after a
//! confirmation, the whole shared as a file (import and export: typed, chosen in the OS's file
//! dialog or the window's own browser, or dropped on the screen).

use std::path::PathBuf;
use std::sync::Arc;

use egui::{RichText, ScrollArea};

use crate::core::catalog::store::{Counts, Import, ImportReport};
use crate::core::catalog::{
    self, CatalogEdit, CatalogItem, CatalogView, DirectoryEntry, Exported, Known,
};
use crate::core::files::{self, FilePick, Picked};
use crate::core::wire::{MerchandiseEntry, ProductEntry};
use crate::core::{Awaited, Profile};
use crate::ui::kit::card::card_ui;
use crate::ui::kit::file_browser::{Browsed, FileBrowser};
use crate::ui::kit::form::{busy_button_ui, busy_icon_button_ui, profile_name};
use crate::ui::kit::icon::Icon;
use crate::ui::outbox::{Caller, Outbox};
use crate::ui::text::dates;
use crate::ui::text::i18n::{Lang, label, t, tr};
use crate::ui::text::labels::field_label;

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
    load: Awaited<Arc<CatalogView>>,
    tab: Tab,
    query: String,
    /// An item whose removal waits for the user's confirmation, with its name.
    removing: Option<(CatalogItem, String)>,
    /// An item being edited, as the user has changed it so far.
    editing: Option<CatalogEdit>,
    /// A removal or an edit, answered with the view.
    remove: Awaited<Arc<CatalogView>>,
    file: FileBox,
    listings: super::from_listings::FromListingsUi,
}

/// What the catalog's file is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Picking {
    #[default]
    Import,
    Export,
}

impl Picking {
    fn file_pick(self) -> FilePick {
        match self {
            Self::Import => FilePick::OpenOrders,
            Self::Export => FilePick::SaveCatalog,
        }
    }
}

impl FileBox {
    /// A file being imported, counted or written.
    fn busy(&self) -> bool {
        self.import.is_waiting() || self.export.is_waiting()
    }
}

/// The catalog as a file.
#[derive(Default)]
struct FileBox {
    path: String,
    /// The export carries the active profile's customers too.
    with_customers: bool,
    /// An import's dry run or the import itself (`applying`).
    import: Awaited<ImportReport>,
    applying: bool,
    export: Awaited<Exported>,
    done: Option<Done>,
    /// What importing the file would change, before it is imported.
    preview: Option<Preview>,
    /// The file and the overwrite choice of the dry run under way.
    asked: Option<(PathBuf, bool)>,
    /// Why the last import or export failed.
    failed: Option<String>,
    pick_call: Awaited<Picked>,
    /// What the file being chosen in a dialog is for.
    picking: Picking,
    /// A file chosen in the OS's dialog: its answer comes without the outbox, so it is acted on
    /// in the next frame.
    chosen: Option<PathBuf>,
    /// No OS file dialog answered: the window's own browser opens.
    no_os_dialog: bool,
    browser: Option<FileBrowser>,
}

/// What the last import or export did.
enum Done {
    Exported(String),
    Imported(ImportReport),
}

/// A file's import as a dry run found it; the user imports it or not.
struct Preview {
    path: PathBuf,
    report: ImportReport,
    /// The user lets the file overwrite what the platform said (the counts are for it).
    overwrite: bool,
    /// The file would change what the platform said of a customer: the choice is offered.
    offers_overwrite: bool,
}

/// One row of a tab: what it is, its words in the columns, when it was last seen.
struct Row {
    item: CatalogItem,
    /// Its place in the view's list of its kind.
    index: usize,
    name: String,
    cells: [String; 3],
    last_seen: i64,
}

impl CatalogScreen {
    /// Takes the replies that have come to this screen's requests.
    pub fn poll(&mut self, out: &Outbox<'_>) {
        match out.reply(&mut self.file.pick_call, label!("browse")) {
            Some(Ok(Picked::File(Some(path)))) => self.file.chosen = Some(path),
            Some(Ok(Picked::NoDialog { .. })) => self.file.no_os_dialog = true,
            _ => {}
        }
        for awaited in [&mut self.load, &mut self.remove] {
            if let Some(Ok(view)) = out.reply(awaited, label!("load-catalog")) {
                self.view = Some(view);
            }
        }
        let imported = out.reply(&mut self.file.import, label!("catalog-file"));
        let exported = out.reply(&mut self.file.export, label!("catalog-file"));
        if imported.is_none() && exported.is_none() {
            return;
        }
        let failed = imported.as_ref().and_then(|r| r.as_ref().err());
        let failed = failed.or(exported.as_ref().and_then(|r| r.as_ref().err()));
        self.file.failed = failed.map(ToString::to_string);
        self.file.done = match (imported, exported) {
            (_, Some(Ok(Exported { path, count }))) => {
                Some(Done::Exported(format!("{count} → {}", path.display())))
            }
            (Some(Ok(report)), _) if self.file.applying => Some(Done::Imported(report)),
            (Some(Ok(report)), _) => {
                self.previewed(report);
                None
            }
            _ => None,
        };
        // What was imported is listed.
        self.view = None;
    }

    /// Reads the catalog again at the next frame (the screen was entered: what was learned
    /// elsewhere meanwhile is shown).
    pub fn reload(&mut self) {
        if !self.load.is_waiting() {
            self.view = None;
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, caller: &Caller<'_>, lang: Lang) {
        let (out, profile) = (caller.out, caller.profile);
        if self.listings.ui(ui, caller, lang) {
            self.reload();
        }
        let stale = self.view.as_ref().is_none_or(|v| v.profile != profile.name);
        if stale && !self.load.is_waiting() {
            let profile = profile.name.clone();
            self.load.start(out.ask(catalog::Load { profile }));
        }
        self.file_ui(ui, out, lang, profile);
        self.file_choice_ui(ui.ctx(), out, lang, profile);
        ui.separator();
        let shown_name = profile_name(lang, profile);
        if profile.own_catalog {
            ui.label(RichText::new(tr!(lang, "catalog-own-note", profile = shown_name)).weak());
        }
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
        match table_ui(ui, out, lang, self.tab, &rows) {
            Some(RowAction::Remove(item, name)) => self.removing = Some((item, name)),
            Some(RowAction::Edit(i)) => self.editing = editing_of(&view, self.tab, i),
            None => {}
        }
        self.confirm_remove_ui(ui.ctx(), out, lang, &view);
        self.edit_ui(ui.ctx(), out, lang, &view);
    }

    fn file_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, profile: &Profile) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(tr!(lang, "catalog-file"));
            ui.add(egui::TextEdit::singleline(&mut self.file.path).desired_width(280.0))
                .labelled_by(label.id);
            let waiting = self.file.busy();
            if busy_icon_button_ui(ui, Icon::Import, &tr!(lang, "catalog-import"), waiting) {
                self.start_file(out, profile, Picking::Import);
            }
            if busy_icon_button_ui(ui, Icon::Export, &tr!(lang, "catalog-export"), waiting) {
                self.start_file(out, profile, Picking::Export);
            }
            ui.checkbox(
                &mut self.file.with_customers,
                tr!(lang, "catalog-with-customers"),
            );
        });
        ui.horizontal_wrapped(|ui| {
            let picking = self.file.pick_call.is_waiting();
            for (what, words) in [
                (Picking::Import, tr!(lang, "catalog-pick-import")),
                (Picking::Export, tr!(lang, "catalog-pick-export")),
            ] {
                if busy_button_ui(ui, &words, picking) {
                    self.file.picking = what;
                    let pick = files::Pick {
                        pick: what.file_pick(),
                    };
                    self.file.pick_call.start(out.ask(pick));
                }
            }
            ui.label(RichText::new(tr!(lang, "catalog-drop-hint")).weak());
        });
        if self.file.browser.is_some() {
            ui.colored_label(ui.visuals().warn_fg_color, tr!(lang, "no-os-file-dialog"));
        }
        if let Some(why) = &self.file.failed {
            ui.colored_label(ui.visuals().error_fg_color, why.as_str());
        }
        match &self.file.done {
            Some(Done::Exported(done)) => {
                ui.label(done.as_str());
            }
            Some(Done::Imported(report)) => {
                ui.label(tr!(lang, "catalog-import-done"));
                report_ui(ui, lang, report);
            }
            None => {}
        }
        self.preview_ui(ui, out, lang, profile);
    }

    /// A dry run's counts: the preview shows them, for the overwrite choice they were made
    /// with.
    fn previewed(&mut self, report: ImportReport) {
        let Some((path, overwrite)) = self.file.asked.take() else {
            return;
        };
        let offered = self
            .file
            .preview
            .as_ref()
            .is_some_and(|p| p.offers_overwrite);
        self.file.preview = Some(Preview {
            path,
            report,
            overwrite,
            offers_overwrite: offered || overwrite || report.customers.kept > 0,
        });
    }

    /// Starts a dry run of `path`'s import; its counts come back as a preview.
    fn ask_preview(&mut self, out: &Outbox<'_>, profile: &Profile, path: PathBuf, overwrite: bool) {
        self.file.asked = Some((path.clone(), overwrite));
        let import = Import {
            apply: false,
            overwrite,
        };
        let profile = profile.name.clone();
        self.file.applying = false;
        self.file.import.start(out.ask(catalog::ImportFile {
            path,
            profile,
            import,
        }));
    }

    /// What the file would change, with Import and Cancel; the counts are made again when
    /// the overwrite choice changes.
    fn preview_ui(&mut self, ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, profile: &Profile) {
        let counting = self.file.busy();
        let Some(preview) = &mut self.file.preview else {
            return;
        };
        let mut chosen = None;
        let mut recount = None;
        card_ui(ui, None, |ui| {
            ui.label(tr!(lang, "catalog-import-preview"));
            report_ui(ui, lang, &preview.report);
            if preview.offers_overwrite {
                let words = tr!(lang, "catalog-import-overwrite");
                if ui.checkbox(&mut preview.overwrite, words).changed() {
                    recount = Some((preview.path.clone(), preview.overwrite));
                }
            }
            ui.horizontal(|ui| {
                let apply = egui::Button::new(tr!(lang, "catalog-import-apply"));
                if ui.add_enabled(!counting, apply).clicked() {
                    chosen = Some(true);
                }
                if ui.button(tr!(lang, "cancel")).clicked() {
                    chosen = Some(false);
                }
            });
        });
        if let Some((path, overwrite)) = recount {
            self.ask_preview(out, profile, path, overwrite);
            return;
        }
        match (chosen, self.file.preview.take()) {
            (Some(true), Some(preview)) => {
                self.file.applying = true;
                self.file.import.start(out.ask(catalog::ImportFile {
                    path: preview.path,
                    profile: profile.name.clone(),
                    import: Import {
                        apply: true,
                        overwrite: preview.overwrite,
                    },
                }));
            }
            (None, kept) => self.file.preview = kept,
            (Some(_), _) => {}
        }
    }

    /// A file chosen in a dialog, in the window's own browser, or dropped on the screen: it is
    /// imported, or the catalog is exported to it.
    fn file_choice_ui(
        &mut self,
        ctx: &egui::Context,
        out: &Outbox<'_>,
        lang: Lang,
        profile: &Profile,
    ) {
        let dropped = ctx.input(|i| i.raw.dropped_files.first().map(|f| f.path().to_owned()));
        let mut chosen = self.file.chosen.take().map(|p| (p, self.file.picking));
        if let Some(path) = dropped {
            chosen = Some((path, Picking::Import));
        }
        if std::mem::take(&mut self.file.no_os_dialog) {
            let pick = self.file.picking.file_pick();
            let title = if pick.saves() {
                tr!(lang, "catalog-browser-save")
            } else {
                tr!(lang, "catalog-browser-open")
            };
            let browser = FileBrowser::new(&pick, &self.file.path).titled(title);
            self.file.browser = Some(browser);
        }
        if let Some(browser) = &mut self.file.browser {
            match browser.ui(ctx, lang) {
                None => {}
                Some(Browsed::Cancelled) => self.file.browser = None,
                Some(Browsed::Chosen(path)) => {
                    self.file.browser = None;
                    chosen = Some((path, self.file.picking));
                }
            }
        }
        if let Some((path, what)) = chosen {
            self.file.path = path.display().to_string();
            self.start_file(out, profile, what);
        }
    }

    /// Imports the file in the file field, or exports the catalog to it.
    fn start_file(&mut self, out: &Outbox<'_>, profile: &Profile, what: Picking) {
        let path = PathBuf::from(self.file.path.trim());
        if path.as_os_str().is_empty() {
            return;
        }
        self.file.done = None;
        self.file.failed = None;
        self.file.preview = None;
        if what == Picking::Import {
            // Looked at first: the user sees what it would change, then imports it.
            self.ask_preview(out, profile, path, false);
            return;
        }
        self.file.export.start(out.ask(catalog::ExportFile {
            path,
            profile: profile.name.clone(),
            customers: self.file.with_customers,
        }));
    }

    /// The item being edited, in a window; Save replaces it in the catalog.
    fn edit_ui(&mut self, ctx: &egui::Context, out: &Outbox<'_>, lang: Lang, view: &CatalogView) {
        let Some(edit) = &mut self.editing else {
            return;
        };
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("catalog_edit")).show(ctx, |ui| {
            ui.heading(tr!(lang, "catalog-edit-title"));
            egui::Grid::new("catalog_edit_fields")
                .num_columns(2)
                .spacing([12.0, 6.0])
                .show(ui, |ui| match edit {
                    CatalogEdit::Product(p) => product_fields_ui(ui, lang, p),
                    CatalogEdit::Package { entry, .. } => package_fields_ui(ui, lang, entry),
                    CatalogEdit::Customer { entry, .. } => customer_fields_ui(ui, lang, entry),
                });
            ui.horizontal(|ui| {
                if ui.button(tr!(lang, "catalog-save")).clicked() {
                    answer = Some(true);
                }
                if ui.button(t!(lang, "cancel")).clicked() {
                    answer = Some(false);
                }
            });
        });
        if modal.should_close() && answer.is_none() {
            answer = Some(false);
        }
        match (answer, self.editing.take()) {
            (Some(true), Some(edit)) => {
                let profile = view.profile.clone();
                self.remove.start(out.ask(catalog::Edit {
                    profile,
                    edit: Box::new(edit),
                }));
            }
            (Some(_), _) => {}
            (None, editing) => self.editing = editing,
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
        let modal = egui::Modal::new(egui::Id::unique("confirm_catalog_remove")).show(ctx, |ui| {
            ui.label(tr!(lang, "catalog-remove-confirm", name = name.as_str()));
            ui.label(RichText::new(tr!(lang, "catalog-remove-undo")).weak());
            ui.horizontal(|ui| {
                if ui.button(tr!(lang, "catalog-remove-yes")).clicked() {
                    answer = Some(true);
                }
                if ui.button(t!(lang, "cancel")).clicked() {
                    answer = Some(false);
                }
            });
        });
        // Escape or a click beside it is a no.
        if modal.should_close() && answer.is_none() {
            answer = Some(false);
        }
        match answer {
            Some(true) => {
                self.remove.start(out.ask(catalog::Remove {
                    profile: view.profile.clone(),
                    item: item.clone(),
                }));
                self.removing = None;
            }
            Some(false) => self.removing = None,
            None => {}
        }
    }
}

/// A copy of the item to edit.
fn editing_of(view: &CatalogView, tab: Tab, i: usize) -> Option<CatalogEdit> {
    match tab {
        Tab::Products => Some(CatalogEdit::Product(view.products.get(i)?.item.clone())),
        Tab::Customers => view.customers.get(i).map(|k| CatalogEdit::Customer {
            key: k.key.clone(),
            entry: k.item.clone(),
        }),
        Tab::Packages => view.packages.get(i).map(|k| CatalogEdit::Package {
            key: k.key.clone(),
            entry: k.item.clone(),
        }),
    }
}

/// A text field for an optional value: emptied, it holds none.
fn optional_ui(ui: &mut egui::Ui, label: &str, value: &mut Option<String>) {
    let label = ui.label(label);
    let mut text = value.clone().unwrap_or_default();
    let field = egui::TextEdit::singleline(&mut text).desired_width(300.0);
    if ui.add(field).labelled_by(label.id).changed() {
        *value = Some(text.trim().to_owned()).filter(|t| !t.is_empty());
    }
    ui.end_row();
}

/// The fields of a product the catalog keeps that a clerk fixes by hand.
fn product_fields_ui(ui: &mut egui::Ui, lang: Lang, p: &mut ProductEntry) {
    ui.label(field_label(lang, "productUri"));
    ui.label(p.product_uri.as_deref().unwrap_or_default());
    ui.end_row();
    for (field, value) in [
        ("productName", &mut p.product_name),
        ("gmsPid", &mut p.gms_pid),
        ("appKey", &mut p.app_key),
        ("productType", &mut p.product_type),
        ("crmProductId", &mut p.crm_product_id),
        ("timeUnit", &mut p.time_unit),
        ("timeDurationExpression", &mut p.time_duration_expression),
    ] {
        optional_ui(ui, field_label(lang, field), value);
    }
}

/// A package's own fields, then each of its products: renamed or taken out of the package. Its
/// sub-packages are kept as they are (they are composed in an order, where they are sold).
fn package_fields_ui(ui: &mut egui::Ui, lang: Lang, m: &mut MerchandiseEntry) {
    for (field, value) in [
        ("merchandiseNum", &mut m.merchandise_num),
        ("merchandiseName", &mut m.merchandise_name),
        ("crmProductId", &mut m.crm_product_id),
        ("timeDurationExpression", &mut m.time_duration_expression),
    ] {
        optional_ui(ui, field_label(lang, field), value);
    }
    ui.label(RichText::new(tr!(lang, "catalog-package-products")).strong());
    ui.end_row();
    let mut removed = None;
    for (i, p) in m.license_order_product_list.iter_mut().enumerate() {
        let uri = p
            .product_uri
            .clone()
            .unwrap_or_else(|| format!("#{}", i + 1));
        let label = ui.label(tr!(
            lang,
            "catalog-package-product-name",
            uri = uri.as_str()
        ));
        ui.horizontal(|ui| {
            let mut text = p.product_name.clone().unwrap_or_default();
            let field = egui::TextEdit::singleline(&mut text).desired_width(240.0);
            if ui.add(field).labelled_by(label.id).changed() {
                p.product_name = Some(text.trim().to_owned()).filter(|t| !t.is_empty());
            }
            let remove = tr!(lang, "catalog-package-product-remove", uri = uri.as_str());
            let button = ui
                .button(tr!(lang, "catalog-remove"))
                .on_hover_text(&remove);
            // Read out with the product it takes out: every row's button says "Remove".
            button.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &remove));
            if button.clicked() {
                removed = Some(i);
            }
        });
        ui.end_row();
    }
    if let Some(i) = removed {
        m.license_order_product_list.remove(i);
    }
    if m.license_order_product_list.is_empty() {
        ui.label(RichText::new(tr!(lang, "catalog-package-empty")).weak());
        ui.end_row();
    }
    let children = m.children.as_ref().map_or(0, Vec::len);
    if children > 0 {
        ui.label(RichText::new(tr!(lang, "catalog-package-children", count = children)).weak());
        ui.end_row();
    }
}

fn customer_fields_ui(ui: &mut egui::Ui, lang: Lang, c: &mut DirectoryEntry) {
    let enterprise = tr!(lang, "catalog-enterprise-name");
    optional_ui(ui, field_label(lang, "customerName"), &mut c.customer_name);
    optional_ui(ui, &enterprise, &mut c.enterprise_name);
    for (field, value) in [
        ("channelCustomerId", &mut c.channel_customer_id),
        ("customerId", &mut c.customer_id),
        ("crmCustomerId", &mut c.crm_customer_id),
        ("enterpriseGlobalId", &mut c.enterprise_global_id),
        ("branchCode", &mut c.branch_code),
        ("branchName", &mut c.branch_name),
        ("adminName", &mut c.admin_name),
        ("adminAccount", &mut c.admin_account),
        ("adminEmail", &mut c.admin_email),
        ("adminCellNumber", &mut c.admin_cell_number),
        ("passwordMobile", &mut c.password_mobile),
        ("address", &mut c.address),
    ] {
        optional_ui(ui, field_label(lang, field), value);
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
                index: i,
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
                index: i,
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
                index: i,
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

/// What a row's button asked for.
enum RowAction {
    Edit(usize),
    Remove(CatalogItem, String),
}

/// The table of rows; what a row's button asked for. A customer's name opens its page.
fn table_ui(
    ui: &mut egui::Ui,
    out: &Outbox<'_>,
    lang: Lang,
    tab: Tab,
    rows: &[Row],
) -> Option<RowAction> {
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
    let mut action = None;
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
                        if let Some(asked) = row_ui(ui, out, lang, row) {
                            action = Some(asked);
                        }
                        ui.end_row();
                    }
                });
        });
    action
}

/// One row: its name (a customer's a link to its page), its cells, when it was last seen, and
/// its Edit and Remove.
fn row_ui(ui: &mut egui::Ui, out: &Outbox<'_>, lang: Lang, row: &Row) -> Option<RowAction> {
    match (&row.item, row.cells[2].as_str()) {
        (CatalogItem::Customer(_), enterprise) if !enterprise.is_empty() => {
            let link = ui
                .link(row.name.as_str())
                .on_hover_text(t!(lang, "customers-open-page"));
            if link.clicked() {
                out.open_page(enterprise, true);
            }
        }
        _ => {
            ui.label(row.name.as_str());
        }
    }
    for cell in &row.cells {
        ui.label(cell.as_str());
    }
    ui.label(dates::local_date(row.last_seen));
    ui.horizontal(|ui| {
        let edit = ui
            .button(tr!(lang, "catalog-edit"))
            .on_hover_text(row.name.as_str());
        let remove = ui
            .button(tr!(lang, "catalog-remove"))
            .on_hover_text(row.name.as_str());
        if remove.clicked() {
            Some(RowAction::Remove(row.item.clone(), row.name.clone()))
        } else {
            edit.clicked().then_some(RowAction::Edit(row.index))
        }
    })
    .inner
}

/// An import's counts, shelf by shelf (a shelf the file names nothing on is left out).
fn report_ui(ui: &mut egui::Ui, lang: Lang, report: &ImportReport) {
    let named = |c: &Counts| c.new + c.changed + c.unchanged > 0;
    let c = &report.products;
    if named(c) {
        let (new, changed, unchanged) = (c.new, c.changed, c.unchanged);
        ui.label(tr!(
            lang,
            "catalog-import-products",
            new = new,
            changed = changed,
            unchanged = unchanged
        ));
    }
    let c = &report.packages;
    if named(c) {
        let (new, changed, unchanged) = (c.new, c.changed, c.unchanged);
        ui.label(tr!(
            lang,
            "catalog-import-packages",
            new = new,
            changed = changed,
            unchanged = unchanged
        ));
    }
    let c = &report.customers;
    if named(c) {
        let (new, changed, unchanged) = (c.new, c.changed, c.unchanged);
        ui.label(tr!(
            lang,
            "catalog-import-customers",
            new = new,
            changed = changed,
            unchanged = unchanged
        ));
    }
    if c.kept > 0 {
        ui.label(tr!(lang, "catalog-import-kept", kept = c.kept));
    }
}
