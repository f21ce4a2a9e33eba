//! The Customers screen: query, bind, create and update, and a refusal said in a toast.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;

use test_support::window::{app, click, settle, type_into};

#[test]
fn the_channel_code_carries_over_between_query_and_bind() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    type_into(&mut harness, "Channel code", "SHOP");
    click(&mut harness, "Bind customer");
    assert_eq!(
        harness.get_by_label("Channel code").value().as_deref(),
        Some("SHOP")
    );
    // What was typed in the tab itself is kept.
    type_into(&mut harness, "Channel code", "CRM");
    click(&mut harness, "Query customers");
    assert_eq!(
        harness.get_by_label("Channel code").value().as_deref(),
        Some("SHOP")
    );
}

#[test]
fn customers_bind_query_create_update_and_a_refusal_in_a_toast() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run();

    // Bind: the required fields are checked before anything is sent.
    click(&mut harness, "Bind customer");
    click(&mut harness, "Bind");
    assert_eq!(harness.query_all_by_label("required").count(), 4);
    type_into(&mut harness, "Channel code", "SHOP");
    // Shown problems follow the typing.
    assert_eq!(harness.query_all_by_label("required").count(), 3);
    type_into(&mut harness, "Channel customer id", "S-1001");
    type_into(&mut harness, "Customer name", "上海门店");
    type_into(&mut harness, "Enterprise name", "上海测试企业");
    type_into(&mut harness, "Buyer's mobile", "12345");
    click(&mut harness, "Bind");
    harness.get_by_label("must be a mobile number: 1 followed by 10 digits");
    // Pasted as people write it, it becomes the platform's 11 digits.
    type_into(&mut harness, "Buyer's mobile", "+86 138 0013 8000");
    assert_eq!(
        harness.get_by_label("Buyer's mobile").value().as_deref(),
        Some("13800138000")
    );
    // Enter in a field sends the form, as the button does.
    harness.get_by_label("Buyer's mobile").focus();
    harness.run_ok();
    harness.key_press(egui::Key::Enter);
    settle(&mut harness, |h| h.query_by_label("Bound:").is_some());
    assert_eq!(harness.query_all_by_label("required").count(), 0);
    harness.get_by_label("上海测试企业");

    // The bound customer is found by a query of its enterprise's customers.
    click(&mut harness, "Show this enterprise's customers");
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    harness.get_by_label("S-1001");
    harness.get_by_label("上海测试企业");

    // Create an enterprise: its members are shown.
    click(&mut harness, "Create enterprise");
    type_into(&mut harness, "CRM customer id", "CRM-9001");
    type_into(&mut harness, "Customer name", "北京测试企业");
    type_into(&mut harness, "Branch name", "北京分公司");
    type_into(&mut harness, "Address", "北京市海淀区");
    click(&mut harness, "Create");
    settle(&mut harness, |h| h.query_by_label("Created:").is_some());
    harness.get_by_label("industrial-information administrator (gxxp-admin)");
    harness.get_by_label("cloud staff (cloud-staff)");
    let global_id = harness
        .get_by_label_contains("EG00")
        .value()
        .expect("global id");

    // Update it from the created one, then find the new name by a query.
    click(&mut harness, "Edit this enterprise");
    type_into(&mut harness, "Customer name", "北京新名称企业");
    click(&mut harness, "Update");
    settle(&mut harness, |h| h.query_by_label("Updated.").is_some());
    click(&mut harness, "Query customers");
    type_into(&mut harness, "Channel code", "CRM");
    type_into(&mut harness, "Channel customer id", "CRM-9001");
    click(&mut harness, "Default customer only");
    click(&mut harness, "Query");
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    harness.get_by_label("北京新名称企业");
    // All customers: the industrial-information customer (GXXP) has the new name too.
    click(&mut harness, "All customers");
    click(&mut harness, "Query");
    settle(&mut harness, |h| h.query_by_label("2 customers").is_some());
    assert_eq!(harness.query_all_by_label("北京新名称企业").count(), 2);
    harness.get_by_label("GXXP");

    click(&mut harness, "Create enterprise");
    // The same CRM id again: the platform refuses; the toast shows its code and message
    // verbatim beside a plain explanation, and the form keeps what was typed.
    click(&mut harness, "Create");
    let verbatim = format!(
        "13004: crmCustomerId: an enterprise master account ({global_id}) already exists for this CRM customer; use operation 4 to change it"
    );
    settle(&mut harness, |h| h.query_by_label(&verbatim).is_some());
    harness.get_by_label("Create enterprise: refused");
    // Recognised: said specifically, in words, with the way out offered.
    harness.get_by_label(&format!(
        "This CRM customer already has an enterprise master account ({global_id}). To change its name or address, use Customers › Update enterprise."
    ));
    let kept = |h: &Harness<'static, DeskApp>, label: &str| h.get_by_label(label).value();
    assert_eq!(
        kept(&harness, "CRM customer id").as_deref(),
        Some("CRM-9001")
    );
    assert_eq!(kept(&harness, "Address").as_deref(), Some("北京市海淀区"));
    // The toast, under the screen, stays clear of the form's fields, also in the narrowest
    // window (every screen: `ui_face.rs`).
    harness.set_size(egui::vec2(900.0, 600.0));
    harness.run_steps(2);
    let toast = harness.get_by_label("Create enterprise: refused").rect();
    for field in ["CRM customer id", "Customer name", "Branch name", "Address"] {
        let field = harness.get_by_label(field).rect();
        assert!(toast.top() > field.bottom(), "{toast:?} over {field:?}");
    }
    harness.set_size(egui::vec2(1100.0, 720.0));
    harness.run_steps(2);
    harness.get_by_label("Create enterprise · refused (13004)");
    click(&mut harness, "Open Update enterprise");
    assert!(harness.query_by_label(&verbatim).is_none());
    harness.get_by_label("Update");
    assert_eq!(
        kept(&harness, "CRM customer id").as_deref(),
        Some("CRM-9001")
    );

    // Every call is in History, named in words.
    click(&mut harness, "History");
    settle(&mut harness, |h| {
        h.query_all_by_label("Create enterprise").count() == 2
    });
    assert_eq!(harness.query_all_by_label("Bind customer").count(), 1);
    assert_eq!(harness.query_all_by_label("Update enterprise").count(), 1);
    assert_eq!(harness.query_all_by_label("Query customers").count(), 3);
    // The refused create is the one failure.
    harness.get_by_label("Failures only").click();
    settle(&mut harness, |h| {
        h.query_all_by_label("Create enterprise").count() == 1
    });
    assert_eq!(harness.query_all_by_label("Query customers").count(), 0);
    // Its detail explains it in the toast's words, not the code's general ones.
    click(&mut harness, "Create enterprise");
    harness.get_by_label(&format!(
        "This CRM customer already has an enterprise master account ({global_id}). To change its name or address, use Customers › Update enterprise."
    ));
    assert!(
        harness
            .query_by_label_contains("The platform refused the request")
            .is_none()
    );
    // Idle, the window stops repainting (`run` panics if it never settles).
    harness.run();
}

/// Issue 56: Ctrl+K lists a directory customer with no enterprise yet as such, and a pick of it
/// asks the platform for it on Customers › Query (there is no page to open), in both languages.
#[test]
fn a_customer_with_no_enterprise_yet_is_queried_from_the_search() {
    for (lang, find, note) in [
        (
            Lang::En,
            "Find customer",
            "no enterprise yet: opens Customers › Query",
        ),
        (Lang::Zh, "查找客户", "尚无企业：打开“客户 › 查询”"),
    ] {
        let dir = tempfile::tempdir().expect("dir");
        let mut harness = app(dir.path(), lang);
        crate::composer::demo_customer_becomes(
            harness.state().core(),
            serde_json::json!({"customerName": "北京示例科技有限公司", "channelCode": "SHOP",
                               "channelCustomerId": "S-0001"}),
        );
        harness.run_ok();
        harness.state_mut().prefs.screen = license_desk::ui::Screen::Start;
        harness.run_ok();
        type_into(&mut harness, find, "北京示例");
        let listed = format!("北京示例科技有限公司  S-0001 · {note}");
        settle(&mut harness, |h| h.query_by_label(&listed).is_some());
        click(&mut harness, &listed);
        settle(&mut harness, |h| {
            h.query_all_by_label_contains("EG0000000001")
                .next()
                .is_some()
        });
        assert_eq!(
            harness.state().prefs.screen,
            license_desk::ui::Screen::Customers
        );
    }
}

/// Issue 56: a customer the directory cannot place, asked for from the search, leaves the page
/// that was open as it was (the toast says why).
#[test]
fn a_customer_not_found_leaves_the_open_page() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    type_into(&mut harness, "Find customer", "bjsl");
    settle(&mut harness, |h| {
        h.query_by_label_contains("EG0000000001").is_some()
    });
    harness.key_press(egui::Key::Enter);
    settle(&mut harness, |h| {
        h.query_by_label_contains("From Sandbox, read at").is_some()
    });
    type_into(&mut harness, "Find customer", "没有这个客户");
    harness.key_press(egui::Key::Enter);
    settle(&mut harness, |h| {
        h.query_by_label("Refresh: failed").is_some()
    });
    assert_eq!(
        harness.state().prefs.screen,
        license_desk::ui::Screen::Customer
    );
    assert!(
        harness
            .query_by_label_contains("From Sandbox, read at")
            .is_some()
    );
}

/// Issue 56: a new enterprise named as one the directory holds is said beforehand, beside the
/// one it would be confused with, in both languages.
#[test]
fn a_new_enterprise_with_a_known_name_is_said() {
    for (lang, tab, field, said) in [
        (
            Lang::En,
            "Create enterprise",
            "Customer name",
            "The directory already holds an enterprise named 北京示例科技有限公司 (EG0000000001)",
        ),
        (
            Lang::Zh,
            "创建企业主账号",
            "客户名称",
            "客户目录中已有名为 北京示例科技有限公司 的企业（EG0000000001）",
        ),
    ] {
        let dir = tempfile::tempdir().expect("dir");
        let mut harness = app(dir.path(), lang);
        harness.run_ok();
        click(&mut harness, tab);
        type_into(&mut harness, field, "北京示例科技有限公司");
        settle(&mut harness, |h| h.query_by_label_contains(said).is_some());
        type_into(&mut harness, field, "北京另一家公司");
        settle(&mut harness, |h| h.query_by_label_contains(said).is_none());
    }
}
