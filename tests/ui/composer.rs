//! The order composer (Orders): a batch built, checked, filled from the directory and the catalog,
//! previewed and submitted.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Call, catalog};
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;

use test_support::desk::{Answer, CallOn};
use test_support::window::{app, click, click_tree_row, settle, type_into};

use crate::{open_composer, stored_bodies};

/// Dates are typed or picked; ticking "Valid until" starts a year on, not today; a date that
/// is not one is kept as typed and blocks the submit; a short validity is pointed out.
#[test]
fn composer_dates_are_typed_checked_and_short_validity_is_said() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    click(
        &mut harness,
        "Order 1 › Asset 1 › Asset numbers: at least one asset number required",
    );
    let today = jiff::Zoned::now().date();
    click(&mut harness, "Valid until");
    let typed = "Valid until (year-month-day)";
    let a_year_on = today.checked_add(jiff::ToSpan::years(1)).expect("date");
    assert_eq!(
        harness.get_by_label(typed).value().as_deref(),
        Some(a_year_on.to_string().as_str())
    );
    assert!(
        harness
            .query_by_label_contains("only: check the date")
            .is_none()
    );

    type_into(&mut harness, typed, "2027-13-01");
    harness.get_by_label_contains("2 problems");
    harness.get_by_label(
        "Order 1 › Asset 1 › Valid until: must be a date: year-month-day, as 2027-11-23",
    );
    assert_eq!(
        harness.get_by_label(typed).value().as_deref(),
        Some("2027-13-01")
    );

    let soon = today.checked_add(jiff::ToSpan::days(9)).expect("date");
    type_into(&mut harness, typed, &soon.to_string());
    harness.get_by_label_contains("One problem");
    harness.get_by_label("valid for 10 days only: check the date");

    // The duration says its format, and is checked (on a new product, whose URI is missing).
    click(&mut harness, "Add product");
    // The catalog's search opens; an empty product is still one click away.
    click(&mut harness, "Add an empty product instead");
    harness.get_by_label_contains("2 problems");
    type_into(&mut harness, "Duration (y-m-d)", "1年");
    harness.get_by_label_contains("3 problems");
    harness
        .get_by_label("must be years-months-days, as 1-0-0 for one year or 0-6-0 for six months");
    type_into(&mut harness, "Duration (y-m-d)", "1-0-0");
    harness.get_by_label_contains("2 problems");
}

/// The product URIs of an asset of the demo enterprise, as the Sandbox lists them, sorted.
fn listed_product_uris(harness: &Harness<'static, DeskApp>, asset_num: &str) -> Vec<String> {
    let listed = harness
        .state()
        .core()
        .run(
            CallOn {
                profile: "Sandbox".into(),
                call: Call::Assets {
                    enterprise_global_id: "EG0000000001".into(),
                    extend_code: None,
                },
            },
            Duration::from_secs(60),
        )
        .expect("listing");
    let Answer::Assets(assets) = listed else {
        panic!("not a listing: {listed:?}");
    };
    let assets = assets.to_assets();
    let asset = assets
        .iter()
        .find(|a| a.asset_num == asset_num)
        .expect("the new asset is listed");
    let mut uris: Vec<String> = asset
        .products
        .iter()
        .map(|p| p.product_uri.clone())
        .collect();
    uris.sort_unstable();
    uris
}

#[test]
fn composer_builds_a_purchase_with_a_package_tree_fills_numbers_and_submits_it() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);

    // The template lacks only its asset numbers; the problem leads to the field.
    let missing = "Order 1 › Asset 1 › Asset numbers: at least one asset number required";
    harness.get_by_label_contains("One problem");
    click(&mut harness, missing);
    click(&mut harness, "Get new asset numbers");
    settle(&mut harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
    harness.get_by_label("Asset 8000000001");

    // A package with a product and a sub-package with a product of its own.
    click(&mut harness, "Add package");
    click(&mut harness, "Add an empty package instead");
    type_into(&mut harness, "Package number", "PKG-1");
    type_into(&mut harness, "Package name", "专业版套餐");
    click(&mut harness, "Add product");
    // The catalog's search opens; an empty product is still one click away.
    click(&mut harness, "Add an empty product instead");
    type_into(
        &mut harness,
        "Product id (GMS product id or app product key)",
        "gms:2001",
    );
    click(&mut harness, "Package PKG-1 专业版套餐");
    click(&mut harness, "Add sub-package");
    // An empty package number is a problem until typed.
    harness.get_by_label("Order 1 › Asset 1 › Package 1 › Package 1 › Package number: required");
    type_into(&mut harness, "Package number", "PKG-1-1");
    click(&mut harness, "Add product");
    // The catalog's search opens; an empty product is still one click away.
    click(&mut harness, "Add an empty product instead");
    type_into(
        &mut harness,
        "Product id (GMS product id or app product key)",
        "gms:2002",
    );
    harness.get_by_label("No problems: ready to submit.");

    // Text where a number goes stays as typed, and is a problem like any other until fixed.
    type_into(&mut harness, "Concurrent nodes", "abc");
    harness.get_by_label_contains("One problem");
    harness.get_by_label(
        "Order 1 › Asset 1 › Package 1 › Package 1 › Product 1 › Concurrent nodes: must be a whole number",
    );
    harness.get_by_label("must be a whole number");
    assert_eq!(
        harness.get_by_label("Concurrent nodes").value().as_deref(),
        Some("abc")
    );
    click(&mut harness, "Submit batch");
    assert!(harness.query_by_label("Send").is_none(), "no confirmation");
    type_into(&mut harness, "Concurrent nodes", "5");
    harness.get_by_label("No problems: ready to submit.");

    // Submit, after a confirmation that summarises the batch.
    click(&mut harness, "Submit batch");
    harness.get_by_label("Submit this batch to Sandbox?");
    harness.get_by_label("1 order: 1 new purchase, 0 asset deletions, 0 product deletions.");
    harness.get_by_label("1 asset number, 2 packages, 3 products.");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Submitted to Sandbox: the platform recorded 1 license order.")
            .is_some()
    });
    harness.get_by_label_contains("LO");
    // The drafts' list says what the draft holds and that it was sent, once saved.
    settle(&mut harness, |h| {
        h.query_by_label("Save draft · done").is_none()
            && h.query_by_label("Submit batch · done").is_some()
    });
    click(&mut harness, "Draft");
    settle(&mut harness, |h| {
        h.query_by_label_contains(" · New purchase · submitted")
            .is_some()
    });
    harness.key_press(egui::Key::Escape);
    harness.run_ok();

    // The asset is in the enterprise's listing with the products of the whole tree.
    let uris = listed_product_uris(&harness, "8000000001");
    assert_eq!(uris, ["gms:1001", "gms:2001", "gms:2002"]);

    // The same batch again: the platform answers the first result; the UI says so.
    click(&mut harness, "Submit batch");
    harness.get_by_label_contains("was already submitted to Sandbox with LD-");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Already submitted to Sandbox with this channel order id")
            .is_some()
    });
}

/// Interactions of a user, counted: each click and each text typed into a field.
struct Counted<'h> {
    harness: &'h mut Harness<'static, DeskApp>,
    clicks: usize,
    typed: Vec<String>,
}

impl Counted<'_> {
    fn click(&mut self, label: &str) {
        self.clicks += 1;
        click(self.harness, label);
    }

    fn type_into(&mut self, label: &str, text: &str) {
        self.typed.push(label.to_owned());
        type_into(self.harness, label, text);
    }
}

/// The issue's standard order: a customer from the directory, ten numbers from the platform,
/// one package of three products, two products, a validity period; sent to the Sandbox. No
/// product or customer field is typed; the interactions are counted (docs/manual.md).
#[test]
fn the_standard_order_is_picked_not_typed() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    let mut user = Counted {
        harness: &mut harness,
        clicks: 1,
        typed: Vec::new(),
    };
    // The order: its customer from the directory, found by the pinyin of its name.
    user.click("#1 New purchase · S-0001 (1)");
    user.type_into("Customer from the directory", "bjsl");
    user.click("北京示例科技有限公司 · S-0001 · EG0000000001");
    // The asset: ten numbers, a validity period.
    user.click("Order 1 › Asset 1 › Asset numbers: at least one asset number required");
    user.type_into("How many", "10");
    user.click("Get new asset numbers");
    settle(user.harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
    user.click("Valid from");
    user.click("Valid until");
    // The package of three products, found by its name's pinyin.
    user.click("Add package");
    user.type_into("Search the catalog", "rumen");
    user.click("造价入门套餐 · PKG-STARTER · 3 products");
    // Two products: the template's one is replaced by two from the catalog.
    user.click("Asset 8000000001 (+9)");
    user.click("Add product");
    user.type_into("Search the catalog", "wlb");
    user.click("计价软件 网络版 · gms:1003 · 1003");
    // The product picked is chosen, and its Add product adds beside it, to the same asset.
    user.click("Add product");
    user.type_into("Search the catalog", "gjfy");
    user.click("钢筋翻样 · gms:1006 · 1006");
    user.click("Product gms:1001 计价软件");
    user.click("Remove");
    user.harness.get_by_label("No problems: ready to submit.");
    user.click("Submit batch");
    user.harness
        .get_by_label("10 asset numbers, 1 package, 5 products.");
    // Send has the keyboard's focus: Enter sends (issue 56).
    user.harness.key_press(egui::Key::Enter);
    user.harness.run_ok();
    settle(user.harness, |h| {
        h.query_by_label("Submitted to Sandbox: the platform recorded 1 license order.")
            .is_some()
    });
    let (clicks, typed) = (user.clicks, user.typed.clone());
    println!(
        "the standard order: {clicks} clicks, {} texts typed: {typed:?}",
        typed.len()
    );
    assert!(clicks + typed.len() < 30, "{clicks} clicks, {typed:?}");
    // The batch sent holds the directory's customer and the catalog's products, all of them.
    let uris = listed_product_uris(&harness, "8000000010");
    assert_eq!(
        uris,
        ["gms:1001", "gms:1002", "gms:1003", "gms:1004", "gms:1006"]
    );
}

/// Before a delete is sent, the confirmation shows what it removes, as the Sandbox lists the
/// assets now, and warns of what the administrator must know; then exactly that goes.
#[test]
fn the_delete_confirmation_shows_what_goes_and_then_it_goes() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("delete.json");
    std::fs::write(
        &file,
        r#"{"channelCode": "CRM", "channelOrderId": "PREVIEW-1", "orderList": [
             {"sequence": 1, "enterpriseGlobalId": "EG0000000001", "channelCustomerId": "CRM-DEMO",
              "licenseType": "normal_recover_usbkey", "orderType": "delete_product",
              "assets": [{"assetNos": ["8900000001", "8900000002"],
                          "products": [{"productUri": "gms:1001"}]}]},
             {"sequence": 2, "enterpriseGlobalId": "EG0000000001", "channelCustomerId": "CRM-DEMO",
              "licenseType": "softkey", "orderType": "delete_asset",
              "assets": [{"assetNos": ["8900000007"]}]}]}"#,
    )
    .expect("file");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch PREVIEW-1")
            .next()
            .is_some()
    });
    click(&mut harness, "Submit batch");
    let counts = "As the assets are listed now, this removes 3 product instances and 1 whole \
                  asset, a line below each (a product an asset holds twice, in a package and \
                  outside it, is counted twice).";
    settle(&mut harness, |h| h.query_by_label(counts).is_some());
    for order in [1, 2] {
        harness.get_by_label(&format!("Order #{order} names no original license order: it removes from every order of the customer."));
    }
    assert_eq!(harness.get_all_by_label("计价软件 gms:1001").count(), 2);
    harness.get_by_label("证书版 gms:1005");
    harness.get_by_label("the whole asset");
    assert_eq!(harness.get_all_by_label("#1 Delete products").count(), 2);
    assert_eq!(harness.get_all_by_label("#2 Delete assets").count(), 2);
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label_contains("License order id").is_some()
    });
    assert_eq!(listed_product_uris(&harness, "8900000001"), ["gms:1002"]);
    assert_eq!(listed_product_uris(&harness, "8900000002"), ["gms:1002"]);
}

/// A delete the platform would refuse is said in the window's words: the preview's refusal
/// is typed, not a sentence taken apart.
#[test]
fn a_delete_of_an_asset_an_earlier_order_removes_is_said_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("twice.json");
    let order = |seq: u32| {
        format!(
            r#"{{"sequence": {seq}, "enterpriseGlobalId": "EG0000000001",
                "channelCustomerId": "CRM-DEMO", "licenseType": "normal_recover_usbkey",
                "orderType": "delete_asset", "assets": [{{"assetNos": ["8900000001"]}}]}}"#
        )
    };
    let batch = format!(
        r#"{{"channelCode": "CRM", "channelOrderId": "TWICE-1", "orderList": [{}, {}]}}"#,
        order(1),
        order(2)
    );
    std::fs::write(&file, batch).expect("file");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch TWICE-1")
            .next()
            .is_some()
    });
    click(&mut harness, "Submit batch");
    let refused = "Order #2: the platform would refuse the whole batch here \
                   (orderList[1].assets[0].assetNos[0]: Asset 8900000001 is already removed by \
                   an earlier order of this batch) and remove nothing.";
    settle(&mut harness, |h| h.query_by_label(refused).is_some());
}

/// A clicked problem puts the cursor in its field: typing goes there at once.
#[test]
fn a_clicked_problem_puts_the_cursor_in_its_field() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    // As a mouse clicks: pressed in one frame, released in the next.
    let problem = "Order 1 › Asset 1 › Asset numbers: at least one asset number required";
    let pos = harness.get_by_label(problem).rect().center();
    harness.hover_at(pos);
    harness.step();
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
        harness.step();
    }
    let field = |h: &Harness<'static, DeskApp>| {
        h.get_by_role_and_label(egui::accesskit::Role::MultilineTextInput, "Asset numbers")
            .is_focused()
    };
    settle(&mut harness, field);
    harness
        .get_by_role_and_label(egui::accesskit::Role::MultilineTextInput, "Asset numbers")
        .type_text("8900000005");
    settle(&mut harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
}

/// A customer picked from the directory fills every customer field of the order.
#[test]
fn a_customer_picked_from_the_directory_fills_every_field() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    demo_customer_becomes(
        harness.state().core(),
        serde_json::json!({
            "customerId": "CU-FILL-0001", "crmCustomerId": "CRM-FILL",
            "customerName": "北京示例科技有限公司", "channelCode": "SHOP",
            "channelCustomerId": "S-0001", "enterpriseGlobalId": "EG0000000001",
            "enterpriseName": "北京示例科技有限公司", "adminName": "王管理",
            "adminAccount": "admin-fill", "adminEmail": "admin@fill.example.com",
            "adminCellNumber": "13900001111", "passwordMobile": "13800138000",
            "address": "北京市海淀区", "customerType": "company",
            "branchCode": "BJ01", "branchName": "北京分公司"
        }),
    );
    harness.run_ok();
    open_composer(&mut harness);
    click(&mut harness, "#1 New purchase · S-0001 (1)");
    type_into(&mut harness, "Customer from the directory", "bjsl");
    click(
        &mut harness,
        "北京示例科技有限公司 · S-0001 · CU-FILL-0001 · EG0000000001",
    );
    // Saved shortly after the change: read back from the drafts database.
    let mut order = serde_json::Value::Null;
    settle(&mut harness, |_| {
        order = stored_bodies(dir.path())
            .iter()
            .filter_map(|b| serde_json::from_str::<serde_json::Value>(b).ok())
            .map(|b| b["orderList"][0].clone())
            .find(|o| o["adminEmail"] == "admin@fill.example.com")
            .unwrap_or_default();
        !order.is_null()
    });
    for (field, value) in [
        ("customerId", "CU-FILL-0001"),
        ("crmCustomerId", "CRM-FILL"),
        ("customerName", "北京示例科技有限公司"),
        ("channelCustomerId", "S-0001"),
        ("enterpriseGlobalId", "EG0000000001"),
        ("adminName", "王管理"),
        ("adminAccount", "admin-fill"),
        ("adminEmail", "admin@fill.example.com"),
        ("adminCellNumber", "13900001111"),
        ("passwordMobile", "13800138000"),
        ("address", "北京市海淀区"),
        ("customerType", "company"),
        ("branchCode", "BJ01"),
        ("branchName", "北京分公司"),
    ] {
        assert_eq!(order[field], value, "{field} in {order}");
    }
}

/// An enterprise picked without a customer id (as one created by a colleague is known) gets
/// the platform customer id of the customer holding its assets, read from its listing and
/// said beside the search (issue 55).
#[test]
fn an_enterprise_picked_without_a_customer_id_gets_it_from_its_listing() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    let created = serde_json::json!({
        "enterpriseGlobalId": "EG0000000001", "enterpriseName": "北京示例科技有限公司"
    });
    demo_customer_becomes(harness.state().core(), created);
    harness.run_ok();
    open_composer(&mut harness);
    click(&mut harness, "#1 New purchase · S-0001 (1)");
    type_into(&mut harness, "Customer from the directory", "bjsl");
    click(&mut harness, "北京示例科技有限公司 · EG0000000001");
    let said = "Platform customer id CU0000000001: the customer holding this enterprise's \
                assets, as its asset listing says.";
    settle(&mut harness, |h| h.query_by_label(said).is_some());
    let mut order = serde_json::Value::Null;
    settle(&mut harness, |_| {
        order = stored_bodies(dir.path())
            .iter()
            .filter_map(|b| serde_json::from_str::<serde_json::Value>(b).ok())
            .map(|b| b["orderList"][0].clone())
            .find(|o| o["customerId"] == "CU0000000001")
            .unwrap_or_default();
        !order.is_null()
    });
    assert_eq!(order["enterpriseGlobalId"], "EG0000000001", "{order}");
}

/// The Sandbox directory's demo customer (S-0001) replaced by `entry`, as an edit does.
pub(crate) fn demo_customer_becomes(core: &license_desk::core::Core, entry: serde_json::Value) {
    let wait = Duration::from_secs(60);
    let sandbox = || "Sandbox".to_owned();
    let view = core
        .run(catalog::Load { profile: sandbox() }, wait)
        .expect("the catalog");
    let known = view
        .customers
        .iter()
        .find(|k| k.item.channel_customer_id.as_deref() == Some("S-0001"))
        .expect("the demo customer");
    let edit = license_desk::core::catalog::CatalogEdit::Customer {
        key: known.key.clone(),
        entry: serde_json::from_value(entry).expect("entry"),
    };
    let edit = catalog::Edit {
        profile: sandbox(),
        edit: Box::new(edit),
    };
    core.run(edit, wait).expect("edited");
}

/// Issue 56: the Sandbox's own delete template works for the demo lock the Start page names
/// (its delete names the customer that holds the demo's locks); a delete the preview knows the
/// platform would refuse cannot be sent, and says why in words that fit a delete.
#[test]
fn the_sandbox_delete_template_removes_the_demo_lock_and_a_refused_one_cannot_be_sent() {
    use egui_kittest::kittest::NodeT as _;
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    // The template's one problem leads to the field.
    let numbers = |h: &mut Harness<'static, DeskApp>, num: &str| {
        click(
            h,
            "Order 1 › Asset 1 › Asset numbers: at least one asset number required",
        );
        let role = egui::accesskit::Role::MultilineTextInput;
        settle(h, |h| {
            h.get_by_role_and_label(role, "Asset numbers").is_focused()
        });
        h.get_by_role_and_label(role, "Asset numbers")
            .type_text(num);
        h.run_ok();
    };
    // Refused: the shop customer does not hold the demo's locks.
    click(&mut harness, "New");
    click(&mut harness, "Delete assets");
    numbers(&mut harness, "8900000001");
    click_tree_row(&mut harness, "#1 Delete assets");
    type_into(&mut harness, "Channel customer id", "S-0001");
    settle(&mut harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
    click(&mut harness, "Submit batch");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Send is off: the platform would refuse this batch")
            .is_some()
    });
    harness.get_by_label_contains("Asset 8900000001 belongs to the customer CU0000000001");
    assert!(harness.get_by_label("Send").accesskit_node().is_disabled());
    click(&mut harness, "Cancel");

    // The template as it is, with the Start page's lock: removed.
    click(&mut harness, "New");
    click(&mut harness, "Delete assets");
    numbers(&mut harness, "8900000001");
    // The asset's form offers what a delete of assets reads: its numbers, nothing to add.
    harness.get_by_label(
        "A delete of assets removes them whole, with all their products: only their numbers are read.",
    );
    for not_read in ["Add product", "Add package", "Lent lock", "Valid until"] {
        assert!(harness.query_by_label(not_read).is_none(), "{not_read}");
    }
    click(&mut harness, "Submit batch");
    settle(&mut harness, |h| {
        h.query_by_label("Send")
            .is_some_and(|b| !b.accesskit_node().is_disabled())
    });
    assert!(harness.query_by_label_contains("Send is off").is_none());
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Submitted to Sandbox: the platform recorded 1 license order.")
            .is_some()
    });
}

/// Issue 56: the button under the pointer keeps its meaning after a pick: a product picked
/// from the catalog is selected, and its bar offers Add product (beside it) where the asset's
/// did; a second click there adds a second product to the same asset.
#[test]
fn add_product_stays_add_product_after_a_pick() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    click(
        &mut harness,
        "Order 1 › Asset 1 › Asset numbers: at least one asset number required",
    );
    let first = |h: &Harness<'static, DeskApp>| {
        h.query_all_by_label("Add product")
            .map(|n| n.rect())
            .collect::<Vec<_>>()
    };
    let at = first(&harness);
    assert_eq!(at.len(), 1);
    for count in [2, 3] {
        click(&mut harness, "Add product");
        settle(&mut harness, |h| {
            h.query_by_label("Search the catalog").is_some()
        });
        harness.key_press(egui::Key::Enter);
        harness.run_ok();
        settle(&mut harness, |h| {
            h.query_by_label("Search the catalog").is_none()
        });
        assert_eq!(first(&harness), at, "Add product moved or went");
        // Beside the one before, under the same asset: the template's product and those picked.
        let products = |dir: &std::path::Path| {
            let bodies = stored_bodies(dir);
            let body: serde_json::Value =
                serde_json::from_str(bodies.last()?).expect("a stored batch");
            body["orderList"][0]["assets"][0]["products"]
                .as_array()
                .map(Vec::len)
        };
        settle(&mut harness, |_| products(dir.path()) == Some(count));
    }
    // The same with a package: its bar has Add package where the asset's had it.
    click_tree_row(&mut harness, "Asset —");
    let package = harness.get_by_label("Add package").rect();
    click(&mut harness, "Add package");
    settle(&mut harness, |h| {
        h.query_by_label("Search the catalog").is_some()
    });
    harness.key_press(egui::Key::Enter);
    harness.run_ok();
    settle(&mut harness, |h| {
        h.query_by_label("Search the catalog").is_none()
    });
    assert_eq!(harness.get_by_label("Add package").rect(), package);
    harness.get_by_label("Add sub-package");
}
