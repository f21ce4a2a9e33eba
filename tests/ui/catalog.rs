//! The Catalog screen: searched, edited, items removed, files imported (dropped, browsed,
//! previewed) and exported.

use std::time::Duration;

use egui_kittest::kittest::Queryable;
use license_desk::core::catalog;
use license_desk::ui::text::i18n::Lang;

use test_support::window::{app, click, settle, type_into};

/// The Catalog screen: the demo catalog searched by pinyin, an item removed after a
/// confirmation, the directory of the active profile, the catalog written as a file.
#[test]
fn the_catalog_screen_searches_removes_and_exports() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Catalog");
    settle(&mut harness, |h| {
        h.query_by_label("7 shown of 7 found").is_some()
    });
    type_into(&mut harness, "Search the catalog", "jjrj");
    harness.get_by_label("2 shown of 2 found");
    harness.get_by_label("计价软件 网络版");
    harness
        .get_all_by_label("Remove")
        .next()
        .expect("a row")
        .click();
    harness.run_ok();
    harness.get_by_label("It comes back when a batch or a catalog file names it again.");
    click(&mut harness, "Cancel");
    harness.get_by_label("2 shown of 2 found");
    harness
        .get_all_by_label("Remove")
        .next()
        .expect("a row")
        .click();
    harness.run_ok();
    click(&mut harness, "Remove from the catalog");
    settle(&mut harness, |h| {
        h.query_by_label("1 shown of 1 found").is_some()
    });

    // An edit replaces the item: the name typed is the catalog's from now on.
    type_into(&mut harness, "Search the catalog", "gjfy");
    harness.get_by_label("钢筋翻样");
    click(&mut harness, "Edit");
    type_into(&mut harness, "Product name", "钢筋翻样 2026");
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label("钢筋翻样 2026").is_some()
    });

    click(&mut harness, "Customers of Sandbox");
    type_into(&mut harness, "Search the catalog", "");
    settle(&mut harness, |h| {
        h.query_by_label("3 shown of 3 found").is_some()
    });
    harness.get_by_label("上海样例贸易有限公司");

    let file = dir.path().join("catalog.json");
    type_into(&mut harness, "Catalog file", &file.display().to_string());
    click(&mut harness, "Export catalog");
    settle(&mut harness, |_| file.exists());
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).expect("file")).expect("json");
    assert_eq!(written["products"].as_array().map(Vec::len), Some(6));
}

/// A package is edited in the Catalog screen: its name, a product renamed, a product taken out;
/// the core keeps what was saved.
#[test]
fn the_catalog_screen_edits_a_package() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Catalog");
    settle(&mut harness, |h| {
        h.query_by_label("7 shown of 7 found").is_some()
    });
    click(&mut harness, "Packages");
    harness.get_by_label("1 shown of 1 found");
    click(&mut harness, "Edit");
    type_into(&mut harness, "Package name", "造价入门套餐 2026");
    type_into(&mut harness, "Name of gms:1002", "算量软件 2026");
    click(&mut harness, "Remove gms:1004 from the package");
    assert!(harness.query_by_label("Name of gms:1004").is_none());
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label("造价入门套餐 2026").is_some()
    });
    let view = harness
        .state()
        .core()
        .run(
            catalog::Load {
                profile: "Sandbox".into(),
            },
            Duration::from_secs(60),
        )
        .expect("catalog");
    let package = &view.packages[0];
    assert_eq!(package.key, "PKG-STARTER");
    assert_eq!(
        package.item.merchandise_name.as_deref(),
        Some("造价入门套餐 2026")
    );
    let products: Vec<(Option<&str>, Option<&str>)> = package
        .item
        .license_order_product_list
        .iter()
        .map(|p| (p.product_uri.as_deref(), p.product_name.as_deref()))
        .collect();
    assert_eq!(
        products,
        [
            (Some("gms:1001"), Some("计价软件")),
            (Some("gms:1002"), Some("算量软件 2026"))
        ]
    );
}

/// A file dropped on the window, for the tests.
#[derive(Debug)]
struct Dropped(std::path::PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// The Catalog screen takes a catalog file dropped on it, one chosen in the window's own
/// browser (no OS dialog here), and exports to a file named in it.
#[test]
fn the_catalog_screen_takes_dropped_and_browsed_files() {
    let dir = tempfile::tempdir().expect("dir");
    let folder = dir.path().join("catalogs");
    std::fs::create_dir(&folder).expect("folder");
    let one = |uri: &str, name: &str| {
        serde_json::json!({"products": [{"productUri": uri, "productName": name}]}).to_string()
    };
    let dropped = dir.path().join("dropped.json");
    std::fs::write(&dropped, one("gms:8101", "拖入产品")).expect("file");
    std::fs::write(folder.join("browsed.json"), one("gms:8102", "浏览产品")).expect("file");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Catalog");
    settle(&mut harness, |h| {
        h.query_by_label("7 shown of 7 found").is_some()
    });
    harness
        .input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(dropped)));
    // What the file would change comes first; nothing is imported until the user says so.
    settle(&mut harness, |h| {
        h.query_by_label("Products: 1 new, 0 changed, 0 unchanged")
            .is_some()
    });
    harness.get_by_label("Importing this file would change:");
    assert!(harness.query_by_label("8 shown of 8 found").is_none());
    click(&mut harness, "Import these changes");
    settle(&mut harness, |h| {
        h.query_by_label("8 shown of 8 found").is_some()
    });
    harness.get_by_label("Imported:");
    harness.get_by_label("拖入产品");

    type_into(
        &mut harness,
        "Catalog file",
        &format!("{}/", folder.display()),
    );
    click(&mut harness, "Import from a file…");
    settle(&mut harness, |h| {
        h.query_by_label("Open a catalog file").is_some()
    });
    click(&mut harness, "browsed.json");
    click(&mut harness, "Open");
    settle(&mut harness, |h| {
        h.query_by_label("Import these changes").is_some()
    });
    click(&mut harness, "Import these changes");
    settle(&mut harness, |h| {
        h.query_by_label("9 shown of 9 found").is_some()
    });
    harness.get_by_label("浏览产品");

    click(&mut harness, "Export to a file…");
    settle(&mut harness, |h| {
        h.query_by_label("Export the catalog to a file").is_some()
    });
    type_into(&mut harness, "File:", "all.json");
    click(&mut harness, "Save");
    let written = folder.join("all.json");
    settle(&mut harness, |_| written.exists());
    let body: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&written).expect("file")).expect("json");
    assert_eq!(body["products"].as_array().map(Vec::len), Some(9));
}

/// A catalog file that renames a customer the platform named: the preview says the
/// platform's name is kept; ticking the overwrite counts again (the customer then changes),
/// and the import does what the preview said.
#[test]
fn a_catalog_import_previews_and_keeps_what_the_platform_said_unless_told() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let file = dir.path().join("with-customers.json");
    let exported = harness.state().core().run(
        catalog::ExportFile {
            path: file.clone(),
            profile: "Sandbox".into(),
            customers: true,
        },
        Duration::from_secs(60),
    );
    assert!(exported.is_ok(), "{exported:?}");
    let mut body: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).expect("file")).expect("json");
    let customers = body["customers"].as_array_mut().expect("customers");
    let total = customers.len();
    customers[0]["customerName"] = serde_json::json!("文件里的名称");
    std::fs::write(&file, body.to_string()).expect("write");

    click(&mut harness, "Catalog");
    type_into(&mut harness, "Catalog file", &file.display().to_string());
    click(&mut harness, "Import catalog");
    let unchanged = format!("Customers: 0 new, 0 changed, {total} unchanged");
    settle(&mut harness, |h| h.query_by_label(&unchanged).is_some());
    harness
        .get_by_label("One customer keeps what the platform said where the file says otherwise.");

    click(
        &mut harness,
        "Overwrite what the platform said with the file's",
    );
    let changed = format!("Customers: 0 new, 1 changed, {} unchanged", total - 1);
    settle(&mut harness, |h| h.query_by_label(&changed).is_some());
    click(&mut harness, "Import these changes");
    settle(&mut harness, |h| h.query_by_label("Imported:").is_some());
    harness.get_by_label(&changed);
    click(&mut harness, "Customers of Sandbox");
    settle(&mut harness, |h| h.query_by_label("文件里的名称").is_some());
}

/// The catalog learns from the platform's listings: a product removed comes back from the
/// listing of the enterprise whose assets hold it, and the screen says what was read and
/// learned (issue 55).
#[test]
fn the_catalog_learns_from_the_platform_s_listings() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Catalog");
    settle(&mut harness, |h| {
        h.query_by_label("7 shown of 7 found").is_some()
    });
    type_into(&mut harness, "Search the catalog", "jjrj");
    harness
        .get_all_by_label("Remove")
        .next()
        .expect("a row")
        .click();
    harness.run_ok();
    click(&mut harness, "Remove from the catalog");
    settle(&mut harness, |h| {
        h.query_by_label("1 shown of 1 found").is_some()
    });
    click(&mut harness, "Learn from the platform's listings");
    let said = "2 listings read: 6 products named, 1 new in the catalog.";
    settle(&mut harness, |h| h.query_by_label(said).is_some());
    settle(&mut harness, |h| {
        h.query_by_label("2 shown of 2 found").is_some()
    });
}
