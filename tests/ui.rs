//! The console driven like a user would, with egui_kittest: the real core (Sandbox on loopback,
//! keyring-core's mock store), widgets found by their accessible labels.

use test_support::desk;
use test_support::fault_proxy;
use test_support::remote;
use test_support::tls_certs;
use test_support::window;

use desk::{Answer, CallOn};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Call, Core, DraftSummary, Endpoint, JournalFilter, Profile, Secret};
use license_desk::core::{catalog, drafts};
use license_desk::platform::{Config, Region, Server, create_app};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
use remote::Remote;
use serve::TlsFiles;
use window::{app, app_sized, app_with_store, click, settle, type_into};

#[test]
fn navigation_shows_each_screen_and_the_sandbox_profile() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run();
    harness.get_by_label("Sandbox");
    // The navigation's entry and the screen's heading.
    assert_eq!(harness.get_all_by_label("Customers").count(), 2);
    harness.get_by_label("Assets").click();
    harness.run();
    assert_eq!(harness.state().prefs.screen, Screen::Assets);
    harness.get_by_label("List assets");
}

/// A new user starts on the start page: where calls go, what the Sandbox holds, one click to
/// each (the reads sent, the claim only filled in).
#[test]
fn the_start_page_leads_to_the_demo_data() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    assert_eq!(Prefs::default().screen, Screen::Start);
    click(&mut harness, "Start");
    harness.get_by_label("You are working on: Sandbox");
    // On the page and in the status bar.
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Sandbox ready · http://127.0.0.1:")
            .count()
            == 2
    });

    click(&mut harness, "Query it");
    assert_eq!(harness.state().prefs.screen, Screen::Customers);
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    harness.get_by_label("北京示例科技有限公司");
    // Results of another question than the form's are marked as such.
    assert!(
        harness
            .query_by_label_contains("The form has changed")
            .is_none()
    );
    type_into(&mut harness, "Channel customer id", "S-0002");
    harness.get_by_label_contains("The form has changed since this query");

    click(&mut harness, "Start");
    click(&mut harness, "List them");
    assert_eq!(harness.state().prefs.screen, Screen::Assets);
    settle(&mut harness, |h| h.query_by_label("8900000006").is_some());
    type_into(&mut harness, "Enterprise global id", "EG0000000002");
    harness.get_by_label(
        "The assets below are those of EG0000000001: list again to see the enterprise typed.",
    );

    click(&mut harness, "Start");
    click(&mut harness, "Fill in the claim");
    assert_eq!(harness.state().prefs.screen, Screen::Activities);
    assert_eq!(
        harness.get_by_label("Identity").value().as_deref(),
        Some("13800138000")
    );
    // Filled in, not sent: a claim is a write.
    assert!(
        harness
            .query_by_label("Claimed: the products below were granted.")
            .is_none()
    );

    click(&mut harness, "Start");
    click(&mut harness, "Compose");
    assert_eq!(harness.state().prefs.screen, Screen::Orders);
}
#[test]
fn history_lists_the_calls_shows_one_and_exports_them() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    let core = harness.state().core();
    let nums = core
        .run(
            CallOn {
                profile: "Sandbox".into(),
                call: Call::Shellnums(2),
            },
            Duration::from_secs(60),
        )
        .expect("shellnums");
    assert_eq!(
        nums,
        Answer::Shellnums(vec!["8000000001".into(), "8000000002".into()])
    );
    let refused = core.run(
        CallOn {
            profile: "Sandbox".into(),
            call: Call::Shellnums(0),
        },
        Duration::from_secs(60),
    );
    assert!(refused.is_err());

    harness.get_by_label("History").click();
    settle(&mut harness, |h| {
        h.query_all_by_label("New asset numbers").count() == 2
    });
    // Operations in words; success said as such, a failure marked with its code.
    harness.get_by_label("Token");
    assert_eq!(harness.query_all_by_label("OK").count(), 2);
    harness.get_by_label("× 13004");
    // The newest first: the refused call; its detail explains it and shows the platform's
    // words verbatim.
    harness
        .get_all_by_label("New asset numbers")
        .next()
        .expect("row")
        .click();
    harness.run();
    harness.get_by_label("13004: size: must be between 1 and 1000");
    harness.get_by_label_contains("The platform refused the request");

    // Filter by code, applied as typed.
    harness.get_by_label("Filter by code").focus();
    harness.run();
    harness.get_by_label("Filter by code").type_text("13004");
    settle(&mut harness, |h| {
        h.query_all_by_label("New asset numbers").count() == 1
    });
    assert!(harness.query_by_label("Token").is_none());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.key_press(egui::Key::Backspace);
    settle(&mut harness, |h| h.query_by_label("Token").is_some());

    // Failures only.
    harness.get_by_label("Failures only").click();
    settle(&mut harness, |h| h.query_by_label("Token").is_none());
    assert_eq!(harness.query_all_by_label("New asset numbers").count(), 1);
    harness.get_by_label("× 13004");

    // Export what is shown to CSV.
    let csv = dir.path().join("calls.csv");
    harness.get_by_label("Export to").focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run();
    harness
        .get_by_label("Export to")
        .type_text(&csv.display().to_string());
    harness.run();
    harness.get_by_label("Export CSV").click();
    settle(&mut harness, |_| csv.exists());
    let text = std::fs::read_to_string(&csv).expect("csv");
    assert_eq!(
        text.lines().count(),
        2,
        "header and the one 13004 call: {text}"
    );
}

#[test]
fn switching_to_chinese_relabels_the_window() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run();
    harness.get_by_label("Settings").click();
    harness.run();
    harness.get_by_label("中文").click();
    harness.run();
    assert_eq!(harness.state().prefs.lang, Lang::Zh);
    harness.get_by_label("客户");
    assert_eq!(harness.get_all_by_label("设置").count(), 2);
    // The top bar and the profile list both name the built-in profile in Chinese.
    assert_eq!(harness.get_all_by_label("沙箱").count(), 2);
    assert!(harness.query_by_label("Customers").is_none());
}

/// Every screen, tab and form drawn in Chinese: the harness panics on a character no font has,
/// so this proves the bundled subset covers every Chinese label.
#[test]
fn every_screen_renders_in_chinese() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    click(&mut harness, "开始");
    harness.get_by_label("当前配置：沙箱");
    click(&mut harness, "客户");
    for tab in ["查询客户", "绑定客户", "创建企业主账号", "修改企业"] {
        click(&mut harness, tab);
    }
    click(&mut harness, "修改");
    assert_eq!(harness.query_all_by_label("必填").count(), 2);
    click(&mut harness, "订单");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("批次 LD-").next().is_some()
    });
    // The asset's form, through its problem, said in Chinese there and under its field.
    click(
        &mut harness,
        "订单 1 › 资产 1 › 资产编号：至少需要一个资产编号",
    );
    harness.get_by_label("至少需要一个资产编号");
    harness.get_by_label("申请新资产编号");
    harness.get_by_label("撤销");
    harness.get_by_label("重做");
    click(&mut harness, "资产");
    type_into(&mut harness, "企业全局编号", "EG0000000001");
    click(&mut harness, "列出资产");
    settle(&mut harness, |h| h.query_by_label("8900000001").is_some());
    click(&mut harness, "8900000005");
    harness.get_by_label("已选 1 个（其中加密锁 1 个）");
    click(&mut harness, "禁用所选");
    harness.get_by_label("禁用 1 把加密锁？");
    click(&mut harness, "取消");
    click(&mut harness, "按编号禁用/启用…");
    click(&mut harness, "取消");
    click(&mut harness, "活动");
    type_into(&mut harness, "身份标识", "EG0000000001");
    harness.get_by_label("企业全局编号");
    click(&mut harness, "资产编号");
    click(&mut harness, "申请新资产编号");
    settle(&mut harness, |h| h.query_by_label("10 个编号").is_some());
    for screen in ["历史记录", "设置"] {
        click(&mut harness, screen);
    }
    click(&mut harness, "添加配置");
    click(&mut harness, "保存");
    assert_eq!(harness.query_all_by_label("必填").count(), 3);
    assert_eq!(
        harness
            .query_all_by_label("须为 http:// 或 https:// 地址")
            .count(),
        2
    );
    harness.get_by_label("应用密钥");
    harness.get_by_label("生产环境");
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "沙箱")
        .click();
    harness.run_ok();
    click(&mut harness, "测试连接");
    settle(&mut harness, |h| {
        h.query_by_label_contains("沙箱：连接成功").is_some()
    });
}

/// Enter in a form's last field sends the form, on every form with a submit button.
#[test]
fn enter_sends_every_form() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let enter_in = |h: &mut Harness<'static, DeskApp>, label: &str| {
        h.get_by_label(label).focus();
        h.run_ok();
        h.key_press(egui::Key::Enter);
        h.run_ok();
    };
    // Query.
    type_into(&mut harness, "Channel code", "SHOP");
    type_into(&mut harness, "Channel customer id", "S-0001");
    enter_in(&mut harness, "Channel customer id");
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    // Create, then Update from it.
    click(&mut harness, "Create enterprise");
    type_into(&mut harness, "CRM customer id", "CRM-ENTER");
    type_into(&mut harness, "Customer name", "回车测试企业");
    enter_in(&mut harness, "Customer name");
    settle(&mut harness, |h| h.query_by_label("Created:").is_some());
    click(&mut harness, "Edit this enterprise");
    type_into(&mut harness, "Customer name", "回车测试企业二");
    enter_in(&mut harness, "Customer name");
    settle(&mut harness, |h| h.query_by_label("Updated.").is_some());
    // Claim.
    click(&mut harness, "Activities");
    type_into(&mut harness, "Identity", "13900139000");
    type_into(&mut harness, "Activity label", "spring-2026");
    type_into(&mut harness, "Source", "license-desk");
    type_into(&mut harness, "Branch", "北京分公司");
    enter_in(&mut harness, "Branch");
    settle(&mut harness, |h| h.query_by_label("Claim · done").is_some());
    // A profile's form: its problems are shown, as the Save button would.
    click(&mut harness, "Settings");
    click(&mut harness, "Add profile");
    enter_in(&mut harness, "Name");
    assert_eq!(harness.query_all_by_label("required").count(), 3);
}

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

/// A platform served over TLS with a certificate of the test's own CA: the profile form keeps
/// the CA file, the connection is trusted with it, and said untrusted in words without it.
#[test]
fn the_profile_form_keeps_a_ca_file_and_the_tls_platform_is_trusted_with_it() {
    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let mut config = Config::new(
        dir.path().join("platform"),
        "127.0.0.1:0".parse().expect("addr"),
    );
    config.tls = Some(TlsFiles {
        cert: certs.chain.clone(),
        key: certs.key.clone(),
    });
    let server = runtime
        .block_on(Server::start(config))
        .expect("TLS platform");
    let creds = create_app(
        &dir.path().join("platform"),
        "desk",
        &["auth_order".to_owned()],
    )
    .expect("app");
    let ca = certs.ca.display().to_string();

    let mut harness = app(&dir.path().join("desk"), Lang::En);
    harness.run();
    click(&mut harness, "Settings");
    click(&mut harness, "Add profile");
    type_into(&mut harness, "Name", "Secure");
    type_into(&mut harness, "Base URL", &server.base_url());
    type_into(&mut harness, "App key", &creds.app_key);
    type_into(&mut harness, "App secret", &creds.app_secret);
    // Browse… in the CA file's folder (the window's own browser: no OS dialog in tests).
    std::fs::write(dir.path().join("notes.txt"), "not a certificate").expect("write");
    type_into(&mut harness, "CA file", &dir.path().display().to_string());
    click(&mut harness, "Browse…");
    settle(&mut harness, |h| h.query_by_label("ca.pem").is_some());
    // Folders and certificates are listed, other files not.
    harness.get_by_label("platform/");
    assert!(harness.query_by_label("notes.txt").is_none());
    click(&mut harness, "ca.pem");
    click(&mut harness, "Open");
    assert_eq!(
        harness.get_by_label("CA file").value().as_deref(),
        Some(ca.as_str())
    );
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label("Secure").is_some() && h.query_by_label("Save").is_none()
    });
    let file = dir.path().join("desk/config/profiles.json");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("profiles")).expect("json");
    assert_eq!(saved["profiles"][1]["endpoint"]["caFile"], ca.as_str());

    click(&mut harness, "Secure");
    click(&mut harness, "Test connection");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Secure: connected. Scopes: auth_order")
            .is_some()
    });

    // Edited: the field shows the file; a file that is not there is refused in words, and the
    // form stays open with what was typed.
    click(&mut harness, "Edit profile");
    assert_eq!(
        harness.get_by_label("CA file").value().as_deref(),
        Some(ca.as_str())
    );
    let missing = dir.path().join("missing.pem").display().to_string();
    type_into(&mut harness, "CA file", &missing);
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label_contains("The profile's CA file cannot be used")
            .is_some()
    });
    harness.get_by_label_contains(&format!("cannot use the CA file {missing}: "));
    assert_eq!(
        harness.get_by_label("CA file").value().as_deref(),
        Some(missing.as_str())
    );

    // Emptied: the system's CAs only, which do not know the test's CA; the client is rebuilt.
    type_into(&mut harness, "CA file", "");
    click(&mut harness, "Save");
    settle(&mut harness, |h| h.query_by_label("Save").is_none());
    let saved = std::fs::read_to_string(&file).expect("profiles");
    assert!(!saved.contains("caFile"), "{saved}");
    click(&mut harness, "Test connection");
    settle(&mut harness, |h| {
        h.query_by_label_contains("The platform's certificate is not trusted")
            .is_some()
    });
    harness.get_by_label_contains("the server's certificate is not trusted: ");
    runtime.block_on(server.shutdown());
}

/// Saves the profile "Staging" of the second platform, with its app secret.
/// The remote profile "Staging" at `base`, with the app's key.
fn staging_profile(base: &str, app_key: &str, production: bool) -> Profile {
    Profile {
        name: "Staging".into(),
        endpoint: Endpoint::Remote {
            base_url: base.to_owned(),
            token_url: format!("{base}/v3/api/oauth2/token"),
            app_key: app_key.to_owned(),
            ca_file: None,
        },
        operator_identity: "ops@example.com".into(),
        production,
        own_catalog: false,
        repeats_recognised: false,
        limits: Default::default(),
        insecure_http: false,
    }
}

fn save_staging(harness: &Harness<'static, DeskApp>, remote: &Remote, production: bool) {
    let staging = staging_profile(&remote.base, &remote.app_key, production);
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Save {
                previous: None,
                profile: staging,
                app_secret: Some(Secret::new(remote.app_secret.clone())),
            },
            Duration::from_secs(60),
        )
        .expect("profile saved");
}

#[test]
fn settings_add_a_profile_test_it_switch_to_it_and_remove_it() {
    // A second platform, as a remote one would be.
    let mut remote = Remote::start(Region::default());

    let dir = tempfile::tempdir().expect("dir");
    let store = desk::mock_store();
    let mut harness = app_with_store(dir.path(), Lang::En, store.clone());
    harness.run();
    click(&mut harness, "Settings");
    click(&mut harness, "Add profile");
    click(&mut harness, "Save");
    // Name, base URL, app key and secret are required; the token URL has a default.
    assert_eq!(harness.query_all_by_label("required").count(), 3);
    // The base URL, and the token URL made from it.
    assert_eq!(
        harness
            .query_all_by_label("an http:// or https:// address is required")
            .count(),
        2
    );
    type_into(&mut harness, "Name", "Staging");
    type_into(&mut harness, "Base URL", &remote.base);
    type_into(&mut harness, "App key", &remote.app_key);
    type_into(&mut harness, "App secret", &remote.app_secret);
    type_into(&mut harness, "Operator identity", "zhang.san@example.com");
    click(&mut harness, "Production platform");
    // Plain HTTP to another machine is said, and allowed only by a tick; on this machine (the
    // test's platform, on loopback) it is not in question.
    type_into(&mut harness, "Base URL", "http://192.0.2.10:8610");
    harness.get_by_label_contains("Plain http:// to another machine");
    harness.get_by_label(
        "Allow plain HTTP to this platform (the app secret and tokens cross the network in clear)",
    );
    type_into(&mut harness, "Base URL", &remote.base);
    assert!(
        harness
            .query_by_label_contains("Plain http:// to another machine")
            .is_none()
    );
    // Its time limits, the defaults until changed; repeats not declared recognised.
    for (limit, value) in [
        ("Connect (s)", "10"),
        ("Each attempt (s)", "30"),
        ("Each batch attempt (s)", "120"),
        ("Retries where safe", "3"),
    ] {
        assert_eq!(
            harness.get_by_label(limit).value().as_deref(),
            Some(value),
            "{limit}"
        );
    }
    harness.get_by_label("The platform recognises a repeated channelOrderId");
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label("Staging").is_some() && h.query_by_label("Save").is_none()
    });
    // The secret went to the keyring, not into the profiles file.
    let profiles = std::fs::read_to_string(dir.path().join("config/profiles.json")).expect("file");
    assert!(profiles.contains(&remote.app_key), "{profiles}");
    assert!(!profiles.contains(&remote.app_secret), "{profiles}");
    assert!(
        profiles.contains("\"repeatsRecognised\": false")
            && profiles.contains("\"attemptSecs\": 30"),
        "{profiles}"
    );
    let entry = store
        .build("license-desk", "Staging/app-secret", None)
        .expect("entry");
    assert_eq!(entry.get_password().expect("stored"), remote.app_secret);

    // Test the connection: a token and its scopes.
    click(&mut harness, "Staging");
    click(&mut harness, "Test connection");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Staging: connected. Scopes: auth_order auth_activity;")
            .is_some()
    });

    // Switch to it: the top bar says so in the production colour, and calls go to it.
    click(&mut harness, "Use this profile");
    settle(&mut harness, |h| h.query_by_label("PRODUCTION").is_some());
    assert_eq!(harness.state().core().state().profiles.active, "Staging");
    // The status bar describes the active profile, not the Sandbox.
    harness.get_by_label(&format!("Staging · {}", remote.base));
    assert!(harness.query_by_label_contains("Sandbox ready").is_none());
    click(&mut harness, "Customers");
    type_into(&mut harness, "Channel code", "SHOP");
    type_into(&mut harness, "Channel customer id", "S-0001");
    click(&mut harness, "Query");
    // The Sandbox knows SHOP/S-0001; the other platform does not.
    settle(&mut harness, |h| {
        h.query_by_label("No customers found: the customer is not bound to an enterprise.")
            .is_some()
    });
    // The answer names its profile.
    harness.get_by_label("On the profile Staging");

    // Remove it, after a confirmation: back on the Sandbox, the secret gone from the keyring.
    click(&mut harness, "Settings");
    // The profile's row (the top bar names it too).
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "Staging")
        .click();
    harness.run_ok();
    click(&mut harness, "Remove profile");
    harness.get_by_label("Remove the profile Staging?");
    click(&mut harness, "Remove");
    settle(&mut harness, |h| {
        h.query_all_by_label("Staging").count() == 0
    });
    assert_eq!(harness.state().core().state().profiles.active, "Sandbox");
    assert!(harness.query_by_label("PRODUCTION").is_none());
    assert!(entry.get_password().is_err());
    // What Staging answered says so, now that the Sandbox is active.
    click(&mut harness, "Customers");
    harness.get_by_label("From the profile Staging: the active profile is now Sandbox.");
    harness.run();
    remote.stop();
}

/// Opens the Orders screen and waits for its draft (a new purchase on a fresh machine).
fn open_composer(harness: &mut Harness<'static, DeskApp>) {
    click(harness, "Orders");
    settle(harness, |h| {
        h.query_all_by_label_contains("Batch LD-").next().is_some()
    });
}

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
    type_into(&mut harness, "Product (gmsPid or appKey)", "gms:2001");
    click(&mut harness, "Package PKG-1 专业版套餐");
    click(&mut harness, "Add sub-package");
    // An empty package number is a problem until typed.
    harness.get_by_label("Order 1 › Asset 1 › Package 1 › Package 1 › Package number: required");
    type_into(&mut harness, "Package number", "PKG-1-1");
    click(&mut harness, "Add product");
    // The catalog's search opens; an empty product is still one click away.
    click(&mut harness, "Add an empty product instead");
    type_into(&mut harness, "Product (gmsPid or appKey)", "gms:2002");
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
    user.click("Asset 8000000001 (+9)");
    user.click("Add product");
    user.type_into("Search the catalog", "gjfy");
    user.click("钢筋翻样 · gms:1006 · 1006");
    user.click("Product gms:1001 计价软件");
    user.click("Remove");
    user.harness.get_by_label("No problems: ready to submit.");
    user.click("Submit batch");
    user.harness
        .get_by_label("10 asset numbers, 1 package, 5 products.");
    user.click("Send");
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

/// Saves the remote platform as the production profile "Staging" and makes it the active one.
fn use_production_staging(harness: &mut Harness<'static, DeskApp>, remote: &Remote) {
    save_staging(harness, remote, true);
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Activate {
                name: "Staging".into(),
            },
            Duration::from_secs(60),
        )
        .expect("activated");
    settle(harness, |h| h.query_by_label("PRODUCTION").is_some());
}

/// A delete order on a production profile is sent only once the profile's name is typed.
#[test]
fn a_delete_on_production_waits_for_the_profile_s_name() {
    use egui_kittest::kittest::NodeT as _;
    let remote = Remote::start(Region::default());
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("delete.json");
    std::fs::write(
        &file,
        r#"{"channelCode": "SHOP", "channelOrderId": "GUARD-1", "orderList": [
             {"sequence": 1, "channelCustomerId": "S-0001", "licenseType": "normal_recover_usbkey",
              "orderType": "delete_asset", "assets": [{"assetNos": ["8900000001"]}]}]}"#,
    )
    .expect("file");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    use_production_staging(&mut harness, &remote);
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch GUARD-1")
            .next()
            .is_some()
    });
    click(&mut harness, "Submit batch");
    let guard = "This is the production profile. Type its name, Staging, to go on:";
    harness.get_by_label(guard);
    assert!(harness.get_by_label("Send").accesskit_node().is_disabled());
    type_into(&mut harness, guard, "staging");
    assert!(
        harness.get_by_label("Send").accesskit_node().is_disabled(),
        "the name exactly"
    );
    type_into(&mut harness, guard, "Staging");
    // The new platform's directory does not know the customer's enterprise: what the delete
    // removes is unknown, and sending takes one more click.
    let unknown = "Send without knowing exactly what is removed";
    settle(&mut harness, |h| h.query_by_label(unknown).is_some());
    harness.get_by_label("Order #1 names no enterprise, and the directory does not know its customer's: what it removes is unknown.");
    harness.get_by_label("As the assets are listed now, this removes at least 0 product instances and 0 whole assets; what the orders marked below remove is unknown.");
    assert!(harness.get_by_label("Send").accesskit_node().is_disabled());
    click(&mut harness, unknown);
    assert!(!harness.get_by_label("Send").accesskit_node().is_disabled());
    click(&mut harness, "Cancel");
    // Asked again, the name must be typed and the unknown accepted again.
    click(&mut harness, "Submit batch");
    settle(&mut harness, |h| h.query_by_label(unknown).is_some());
    type_into(&mut harness, guard, "Staging");
    assert!(harness.get_by_label("Send").accesskit_node().is_disabled());
}

/// On a production profile, more than ten locks at once wait for the profile's name; ten do not.
#[test]
fn eleven_locks_on_production_wait_for_the_profile_s_name() {
    use egui_kittest::kittest::NodeT as _;
    let remote = Remote::start(Region::default());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    use_production_staging(&mut harness, &remote);
    click(&mut harness, "Assets");
    let numbers = |n: u64| -> String {
        (1..=n)
            .map(|i| format!("{}", 8_900_000_100 + i))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let field = "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons";
    let guard = "This is the production profile. Type its name, Staging, to go on:";
    click(&mut harness, "Disable or enable by numbers…");
    type_into(&mut harness, field, &numbers(11));
    click(&mut harness, "Disable these");
    harness.get_by_label(guard);
    assert!(
        harness
            .get_by_label("Disable 11 locks")
            .accesskit_node()
            .is_disabled()
    );
    type_into(&mut harness, guard, "Staging");
    assert!(
        !harness
            .get_by_label("Disable 11 locks")
            .accesskit_node()
            .is_disabled()
    );
    click(&mut harness, "Cancel");

    click(&mut harness, "Disable or enable by numbers…");
    type_into(&mut harness, field, &numbers(10));
    click(&mut harness, "Disable these");
    assert!(harness.query_by_label(guard).is_none());
    assert!(
        !harness
            .get_by_label("Disable 10 locks")
            .accesskit_node()
            .is_disabled()
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
        harness.get_by_label(&format!("Order #{order} names no source license order (srcLicenseOrderId): it removes from every order of the customer."));
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

#[test]
fn composer_imports_a_file_with_three_problems_and_a_bad_file_changes_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let three = dir.path().join("three.json");
    std::fs::write(
        &three,
        r#"{"channelOrderId": "IMPORT-1", "syncMode": "sync", "orderList": [
             {"sequence": 1, "channelCustomerId": "S-0001", "licenseType": "softkey",
              "orderType": "new_buy",
              "assets": [{"assetNos": ["8000000100", "8000000100"],
                          "products": [{"productName": "no uri"}]}]}]}"#,
    )
    .expect("file");
    let not_json = dir.path().join("broken.json");
    std::fs::write(&not_json, "{\n  \"channelCode\": SHOP\n}").expect("file");

    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &three.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_by_label("Batch IMPORT-1 (3)").is_some()
    });
    harness.get_by_label_contains("3 problems");
    for problem in [
        "Channel code: required",
        "Order 1 › Asset 1 › Asset numbers, line 2: 8000000100 is already on line 1",
        "Order 1 › Asset 1 › Product 1 › Product (gmsPid or appKey): required in a New purchase (new_buy) order",
    ] {
        harness.get_by_label(problem);
    }
    // Each beside where it is in the file.
    for place in [
        "three.json: line 1, column 1",
        "three.json: line 4, column 54",
        "three.json: line 5, column 40",
    ] {
        harness.get_by_label(place);
    }
    // A problem leads to its field, where it is said again without the node's path.
    click(
        &mut harness,
        "Order 1 › Asset 1 › Asset numbers, line 2: 8000000100 is already on line 1",
    );
    harness.get_by_label("Asset numbers, line 2: 8000000100 is already on line 1");

    // Not JSON: the line and column, and the draft as it was.
    type_into(&mut harness, "File", &not_json.display().to_string());
    click(&mut harness, "Import");
    let place = format!(
        "{}: line 2, column 18: channelCode: expected value",
        not_json.display()
    );
    // Beside the file field, and verbatim in the toast.
    settle(&mut harness, |h| h.query_all_by_label(&place).count() == 2);
    harness.get_by_label("The draft was not changed.");
    harness.get_by_label("Batch IMPORT-1 (3)");
    harness.get_by_label_contains("3 problems");
    // The toast says the same beside a plain explanation.
    harness.get_by_label("Import: failed");
}

/// An import shows how far it has come and stops at Cancel, making no draft. The file is
/// large, so the import is under way when Cancel is clicked (a pipe, which used to stand for a
/// slow file here, is now refused at once).
#[test]
fn an_import_under_way_is_cancelled_and_makes_no_draft() {
    let dir = tempfile::tempdir().expect("dir");
    // Large enough to be under way for a while: 200,000 rows of one order.
    let sheet = dir.path().join("big.csv");
    let mut rows = String::from("Order,Asset numbers,Product\n");
    for r in 0..200_000 {
        rows.push_str(&format!("1,8{r:09},gms:1001\n"));
    }
    std::fs::write(&sheet, rows).expect("rows");

    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &sheet.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| h.query_by_label("Cancel").is_some());
    click(&mut harness, "Cancel");
    settle(&mut harness, |h| {
        h.query_by_label("Import cancelled: no draft was made, and the open one is untouched.")
            .is_some()
    });
    harness.get_by_label("Import · cancelled");
    let drafts = rusqlite::Connection::open(dir.path().join("data/drafts.sqlite3"))
        .and_then(|db| {
            db.query_row(
                "SELECT count(*) FROM drafts WHERE name = 'big'",
                [],
                |row| row.get::<_, i64>(0),
            )
        })
        .expect("drafts");
    assert_eq!(drafts, 0);
}

#[test]
fn a_draft_survives_a_restart() {
    let dir = tempfile::tempdir().expect("dir");
    {
        let mut harness = app(dir.path(), Lang::En);
        harness.run_ok();
        open_composer(&mut harness);
        type_into(&mut harness, "Channel code", "RESTART-TEST");
        // Saved shortly after the last keystroke: wait until the drafts database holds it.
        let drafts = dir.path().join("data/drafts.sqlite3");
        settle(&mut harness, |_| {
            rusqlite::Connection::open(&drafts)
                .and_then(|db| {
                    db.query_row(
                        "SELECT count(*) FROM drafts WHERE body LIKE '%RESTART-TEST%'",
                        [],
                        |row| row.get::<_, i64>(0),
                    )
                })
                .is_ok_and(|n| n == 1)
        });
        // Saving as you type is the console's own work: the status bar keeps what the user
        // asked for last (here, nothing yet).
        harness.run_ok();
        harness.get_by_label("Ready");
        assert!(harness.query_by_label("Save draft · done").is_none());
    }
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    assert_eq!(
        harness.get_by_label("Channel code").value().as_deref(),
        Some("RESTART-TEST")
    );
}

/// The bodies of the stored drafts, oldest first.
fn stored_bodies(dir: &std::path::Path) -> Vec<String> {
    let db = rusqlite::Connection::open(dir.join("data/drafts.sqlite3")).expect("drafts");
    let mut stmt = db
        .prepare("SELECT body FROM drafts ORDER BY id")
        .expect("query");
    stmt.query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("bodies")
}

/// A package removed in the tree comes back with its product on Undo, also after the draft was
/// saved without it; Redo removes it again, and so do the keys.
#[test]
fn undo_restores_a_removed_package_with_its_children_and_redo_removes_it() {
    use egui_kittest::kittest::NodeT as _;
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    assert!(
        harness.get_by_label("Undo").accesskit_node().is_disabled(),
        "nothing to undo"
    );
    click(
        &mut harness,
        "Order 1 › Asset 1 › Asset numbers: at least one asset number required",
    );
    click(&mut harness, "Add package");
    click(&mut harness, "Add an empty package instead");
    type_into(&mut harness, "Package number", "PKG-UNDO");
    click(&mut harness, "Add product");
    click(&mut harness, "Add an empty product instead");
    type_into(&mut harness, "Product (gmsPid or appKey)", "gms:2001");
    click(&mut harness, "Package PKG-UNDO");
    click(&mut harness, "Remove");
    assert!(harness.query_by_label("Package PKG-UNDO").is_none());
    assert!(harness.query_by_label("Product gms:2001").is_none());
    // Saved without it: a save keeps the history.
    settle(&mut harness, |_| {
        stored_bodies(dir.path())
            .iter()
            .any(|b| b.contains("gms:1001") && !b.contains("PKG-UNDO"))
    });

    click(&mut harness, "Undo");
    harness.get_by_label("Package PKG-UNDO");
    harness.get_by_label("Product gms:2001");
    assert!(!harness.get_by_label("Redo").accesskit_node().is_disabled());
    click(&mut harness, "Redo");
    assert!(harness.query_by_label("Package PKG-UNDO").is_none());
    assert!(harness.get_by_label("Redo").accesskit_node().is_disabled());

    // The keys do the same; the restored draft is saved.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_ok();
    harness.get_by_label("Product gms:2001");
    settle(&mut harness, |_| {
        stored_bodies(dir.path())
            .iter()
            .any(|b| b.contains("PKG-UNDO") && b.contains("gms:2001"))
    });
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    harness.run_ok();
    assert!(harness.query_by_label("Package PKG-UNDO").is_none());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    harness.run_ok();
    assert!(
        harness.query_by_label("Package PKG-UNDO").is_none(),
        "nothing to redo"
    );

    // Step by step back: the field typed last, then the product added (the selection moves up
    // to its package), then the package's number.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_ok();
    click(&mut harness, "Product gms:2001");
    let value = |h: &Harness<'static, DeskApp>, label: &str| h.get_by_label(label).value();
    click(&mut harness, "Undo");
    assert_eq!(
        value(&harness, "Product (gmsPid or appKey)").as_deref(),
        Some("")
    );
    click(&mut harness, "Undo");
    assert!(
        harness
            .query_by_label("Product (gmsPid or appKey)")
            .is_none()
    );
    assert_eq!(
        value(&harness, "Package number").as_deref(),
        Some("PKG-UNDO")
    );
    click(&mut harness, "Undo");
    assert_eq!(value(&harness, "Package number").as_deref(), Some(""));
    click(&mut harness, "Redo");
    assert_eq!(
        value(&harness, "Package number").as_deref(),
        Some("PKG-UNDO")
    );
}

/// Typing is undone a pause at a time, also in the field being typed in (the keys undo the
/// batch's history, not only the field's text).
#[test]
fn undo_takes_typing_back_a_pause_at_a_time() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "Channel code", "UNDO-A");
    // The draft is saved after the typing has paused, which makes it a step of its own.
    settle(&mut harness, |_| {
        stored_bodies(dir.path())
            .iter()
            .any(|b| b.contains("UNDO-A"))
    });
    // One edit (a field's text replaced at once): one step whatever the machine's speed.
    type_into(&mut harness, "Channel code", "UNDO-B");
    let value = |h: &Harness<'static, DeskApp>, label: &str| h.get_by_label(label).value();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_ok();
    assert_eq!(value(&harness, "Channel code").as_deref(), Some("UNDO-A"));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_ok();
    assert_eq!(value(&harness, "Channel code").as_deref(), Some("SHOP"));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    harness.run_ok();
    assert_eq!(value(&harness, "Channel code").as_deref(), Some("UNDO-A"));
    click(&mut harness, "Redo");
    assert_eq!(value(&harness, "Channel code").as_deref(), Some("UNDO-B"));
    // In the file's field the keys are the field's own: the batch stays as it is.
    type_into(&mut harness, "File", "a.json");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_ok();
    assert_eq!(value(&harness, "Channel code").as_deref(), Some("UNDO-B"));
    // Opening another draft starts its own history.
    click(&mut harness, "New");
    click(&mut harness, "Delete assets");
    use egui_kittest::kittest::NodeT as _;
    assert!(harness.get_by_label("Undo").accesskit_node().is_disabled());
}

/// A stored draft that no longer parses opens read-only with the reason; *Export as is* writes
/// what is stored byte for byte, and nothing saves over it.
#[test]
fn an_unreadable_draft_opens_read_only_and_exports_as_is() {
    use egui_kittest::kittest::NodeT as _;
    let dir = tempfile::tempdir().expect("dir");
    {
        let mut harness = app(dir.path(), Lang::En);
        harness.run_ok();
        open_composer(&mut harness);
        settle(&mut harness, |_| stored_bodies(dir.path()).len() == 1);
    }
    let stored = "{\"channelOrderId\": \"LD-BROKEN\",\n  \"orderList\": [{\"sequence\": 1,";
    rusqlite::Connection::open(dir.path().join("data/drafts.sqlite3"))
        .and_then(|db| db.execute("UPDATE drafts SET body = ?1", [stored]))
        .expect("damage the draft");

    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Orders");
    settle(&mut harness, |h| {
        h.query_by_label_contains("This draft cannot be read")
            .is_some()
    });
    harness.get_by_label("Line 2, column 31: orderList[0]: EOF while parsing a value");
    harness.get_by_label_contains("What is stored (63 bytes) is kept as it is.");
    assert!(harness.query_by_label("Submit batch").is_none());
    assert!(harness.get_by_label("Undo").accesskit_node().is_disabled());

    // A file that cannot be written says why and writes nothing.
    let nowhere = dir.path().join("no such folder/broken.json");
    type_into(&mut harness, "File", &nowhere.display().to_string());
    click(&mut harness, "Export as is");
    settle(&mut harness, |h| {
        h.query_by_label("Nothing was written: a file already there is as it was.")
            .is_some()
    });
    assert!(!nowhere.exists());

    let exported = dir.path().join("broken.json");
    std::fs::write(&exported, "an older file").expect("older file");
    type_into(&mut harness, "File", &exported.display().to_string());
    click(&mut harness, "Export as is");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Exported").is_some()
    });
    assert_eq!(
        std::fs::read(&exported).expect("exported"),
        stored.as_bytes()
    );
    // A new draft opens beside it; the unreadable one is still stored as it was.
    click(&mut harness, "New");
    click(&mut harness, "New purchase");
    settle(&mut harness, |_| stored_bodies(dir.path()).len() == 2);
    assert_eq!(stored_bodies(dir.path())[0], stored);
    drop(harness);

    // Bytes that are not even UTF-8 text (and a damaged name) are kept and exported whole too.
    let bytes = b"{\"channelCode\": \"K\xFF\xFEL\"}\n".to_vec();
    rusqlite::Connection::open(dir.path().join("data/drafts.sqlite3"))
        .and_then(|db| {
            db.execute(
                "UPDATE drafts SET body = CAST(?1 AS TEXT), name = CAST(?2 AS TEXT), \
                 updated_at = updated_at + 1000000 WHERE id = (SELECT min(id) FROM drafts)",
                rusqlite::params![bytes, b"bad \xFF name".to_vec()],
            )
        })
        .expect("damage the draft");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    click(&mut harness, "订单");
    settle(&mut harness, |h| {
        h.query_by_label_contains("此草稿无法读取").is_some()
    });
    harness.get_by_label("第 1 行，第 19 列：channelCode: invalid unicode code point");
    let exported = dir.path().join("bytes.json");
    type_into(&mut harness, "文件", &exported.display().to_string());
    click(&mut harness, "原样导出");
    settle(&mut harness, |_| {
        std::fs::read(&exported).is_ok_and(|b| b == bytes)
    });
}

fn list_demo_assets(harness: &mut Harness<'static, DeskApp>) {
    click(harness, "Assets");
    type_into(harness, "Enterprise global id", "EG0000000001");
    click(harness, "List assets");
    settle(harness, |h| h.query_by_label("8900000001").is_some());
}

/// Closing a listing drops its rows, selection and filter and shows the start text again; the
/// same enterprise lists again after it, with its disabled locks as the platform keeps them.
#[test]
fn a_closed_listing_goes_and_lists_again() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    list_demo_assets(&mut harness);
    type_into(&mut harness, "Filter", "8900000001");
    click(&mut harness, "8900000001");
    harness.get_by_label("1 selected (1 lock)");
    click(&mut harness, "Close the listing");
    assert!(harness.query_by_label("8900000001").is_none());
    assert!(harness.query_by_label("Filter").is_none());
    harness.get_by_label_contains("Enter an enterprise global id and list its assets");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8900000002").is_some());
    harness.get_by_label_contains("of 8 assets");
    harness.get_by_label("0 selected (0 locks)");
}

/// The grid's default columns fit the default window and a small one; opening a row shows its
/// details below it without moving any column; a disabled lock's badge stays in sight.
#[test]
fn the_asset_grid_fits_the_window_and_rows_open_below() {
    for (width, height) in [(1100.0, 720.0), (900.0, 600.0)] {
        let dir = tempfile::tempdir().expect("dir");
        let store = desk::mock_store();
        let size = egui::vec2(width, height);
        let mut harness = app_sized(dir.path(), Lang::En, store, size);
        harness.run_ok();
        list_demo_assets(&mut harness);
        let headers = [
            "Asset number",
            "License type",
            "Chip",
            "Customer id",
            "State",
            "Validity",
            "Extensions",
            "Products",
        ];
        let places = |h: &Harness<'static, DeskApp>| -> Vec<egui::Rangef> {
            // The titles are sort buttons.
            let title = |t: &&str| {
                h.get_by_role_and_label(egui::accesskit::Role::Button, t)
                    .rect()
            };
            // Where each column is across; the results panel above may move the grid down.
            headers.iter().map(title).map(|r| r.x_range()).collect()
        };
        let before = places(&harness);
        for (title, range) in headers.iter().zip(&before) {
            assert!(range.max <= width, "{title} at {range:?} in {width} px");
        }
        // Open the row of a lock, disable it: the columns stay where they were.
        click(&mut harness, "8900000001");
        click(&mut harness, "Disable selected");
        click(&mut harness, "Disable 1 lock");
        settle(&mut harness, |h| h.query_by_label("disabled").is_some());
        click(&mut harness, "Open the row of 8900000001");
        harness.get_by_label_contains("Assignment: ");
        assert_eq!(places(&harness), before, "{width} px");
        let badge = harness.get_by_label("disabled").rect();
        assert!(badge.right() <= width, "the badge at {badge:?}");
        // The export path and its button are on screen (the bar wraps when narrow).
        assert!(harness.get_by_label("Export CSV").rect().right() <= width);
    }
}

#[test]
fn assets_filter_lock_two_refuse_a_softkey_and_unlock_by_pasted_numbers() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    list_demo_assets(&mut harness);
    // Readable values: the type in words, the large customer's validity as dates.
    assert_eq!(
        harness
            .get_all_by_label("stand-alone lock, re-issuable")
            .count(),
        3
    );

    // Filter to the re-issuable stand-alone locks.
    type_into(&mut harness, "Filter", "normal_recover_usbkey");
    harness.get_by_label_contains("3 of ");
    assert!(harness.query_by_label("8900000004").is_none());

    // Select two with click and ctrl-click, disable them with one confirmation.
    click(&mut harness, "8900000001");
    harness
        .get_by_label("8900000002")
        .click_modifiers(egui::Modifiers::COMMAND);
    harness.run_ok();
    harness.get_by_label("2 selected (2 locks)");
    assert!(harness.query_by_label("disabled").is_none());
    click(&mut harness, "Disable selected");
    harness.get_by_label("Disable 2 locks?");
    harness.get_by_label("This can be undone: enabling them again gives them back to their users.");
    harness.get_by_label("On the profile Sandbox");
    harness.get_by_label("Operator: sandbox-admin (set in the profile)");
    click(&mut harness, "Disable 2 locks");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 2 of 2 succeeded").is_some()
    });
    assert_eq!(harness.query_all_by_label("success").count(), 2);
    // The badge in the grid.
    assert_eq!(harness.query_all_by_label("disabled").count(), 2);

    // The results and the view as CSV that spreadsheets read as UTF-8.
    let view = dir.path().join("view.csv");
    type_into(&mut harness, "Export to", &view.display().to_string());
    click(&mut harness, "Export results");
    let results = dir.path().join("view-results.csv");
    settle(&mut harness, |_| results.exists());
    assert_eq!(
        std::fs::read_to_string(&results).expect("results"),
        "\u{feff}Asset number,Status,Meaning\n8900000001,1,success\n8900000002,1,success\n"
    );
    // The file is written before the core says so: the export buttons wait for its word.
    settle(&mut harness, |h| {
        use egui_kittest::kittest::NodeT as _;
        !h.get_by_label("Export CSV").accesskit_node().is_disabled()
    });
    click(&mut harness, "Export CSV");
    settle(&mut harness, |_| view.exists());
    let csv = std::fs::read_to_string(&view).expect("view");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "\u{feff}Asset number,License type,Chip,Customer id,State,Validity,Extensions,Products"
    );
    assert_eq!(lines.len(), 4, "the header and the three rows shown: {csv}");
    assert!(
        lines[1].starts_with(
            "8900000001,\"stand-alone lock, re-issuable (normal_recover_usbkey)\",5th generation,CU"
        ),
        "{csv}"
    );

    // A softkey is not a lock that can be disabled: it is left out, and nothing is sent.
    type_into(&mut harness, "Filter", "softkey");
    click(&mut harness, "8900000007");
    harness.get_by_label("1 selected (0 locks)");
    click(&mut harness, "Disable selected");
    harness.get_by_label("Nothing to disable");
    harness.get_by_label("1 asset is left out: it cannot be disabled or enabled (stand-alone certificate). Only re-issuable locks, and locks ordered with a validity window, can.");
    assert!(harness.query_by_label_contains("Disable 1 lock").is_none());
    let cancel_at = harness.get_by_label("Cancel").rect();
    click(&mut harness, "Cancel");
    // Typed by number, the listing knows it too: left out the same way, nothing sent.
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8900000007",
    );
    click(&mut harness, "Disable these");
    harness.get_by_label("Nothing to disable");
    harness.get_by_label_contains("1 asset is left out: it cannot be disabled or enabled (");
    click(&mut harness, "Cancel");
    // Closed, the listing knows nothing: the number reaches the platform, which refuses it
    // as the wrong type.
    click(&mut harness, "Close the listing");
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8900000007",
    );
    click(&mut harness, "Disable these");
    click(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 0 of 1 succeeded").is_some()
    });
    harness.get_by_label("wrong lock type");
    harness.get_by_label("Disable · refused");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8900000001").is_some());

    // Every row: only the locks not disabled yet are asked for; the others are counted.
    type_into(&mut harness, "Filter", "");
    click(&mut harness, "Select all shown");
    harness.get_by_label("8 selected (5 locks)");
    click(&mut harness, "Disable selected");
    harness.get_by_label("Disable 3 locks?");
    harness.get_by_label_contains("3 assets are left out: they cannot be disabled or enabled (");
    harness.get_by_label("2 locks are left out: they are disabled already.");
    harness.get_by_label("8900000003, 8900000004, 8900000005");
    // Another question, more lines: the buttons are where they were.
    assert_eq!(harness.get_by_label("Cancel").rect(), cancel_at);
    click(&mut harness, "Cancel");
    click(&mut harness, "Clear selection");

    // Enable by pasted numbers, one of which does not exist.
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8900000001, 8900000002\n8999999999",
    );
    harness.get_by_label("3 numbers");
    click(&mut harness, "Enable these");
    click(&mut harness, "Enable 3 locks");
    settle(&mut harness, |h| {
        h.query_by_label("Enable: 2 of 3 succeeded").is_some()
    });
    harness.get_by_label("no such lock");
    type_into(&mut harness, "Filter", "");
    assert!(harness.query_by_label("disabled").is_none());
}

/// Lock and unlock say who acts: a profile without an operator identity has it asked in the
/// confirmation, which cannot be sent without one, and the platform records the one typed.
#[test]
fn a_lock_is_never_disabled_without_an_operator() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let sandbox = Profile {
        operator_identity: String::new(),
        ..Profile::sandbox()
    };
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Save {
                previous: Some("Sandbox".into()),
                profile: sandbox,
                app_secret: None,
            },
            Duration::from_secs(60),
        )
        .expect("profile saved");
    list_demo_assets(&mut harness);
    click(&mut harness, "8900000003");
    click(&mut harness, "Disable selected");
    harness.get_by_label("Disable 1 lock?");
    harness.get_by_label_contains("Required: the platform records who disabled");
    // Disabled: a click does not send it, and the confirmation stays.
    click(&mut harness, "Disable 1 lock");
    harness.get_by_label("Disable 1 lock?");
    type_into(&mut harness, "Operator identity", "li.si@example.com");
    assert!(
        harness
            .query_by_label_contains("Required: the platform")
            .is_none()
    );
    click(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 1 of 1 succeeded").is_some()
    });
    let platform = dir.path().join("data/sandbox/platform/platform.sqlite3");
    let read_only = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let operator: String = rusqlite::Connection::open_with_flags(platform, read_only)
        .and_then(|db| {
            db.query_row(
                "SELECT operator FROM lock_events WHERE asset_num = '8900000003'",
                [],
                |row| row.get(0),
            )
        })
        .expect("the lock's event");
    assert_eq!(operator, "li.si@example.com");
}

/// Shown data stays with the profile it came from: a confirmation opened on the Sandbox's
/// listing cannot be carried out on a profile activated after it, and the results of a lock
/// confirmed on the Sandbox stay, naming it, after another profile becomes active.
#[test]
fn assets_listed_on_one_profile_are_never_acted_on_in_another() {
    let mut remote = Remote::start(Region::default());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    save_staging(&harness, &remote, true);
    let activate = |h: &mut Harness<'static, DeskApp>, name: &str| {
        h.state()
            .core()
            .run(
                license_desk::core::profiles::requests::Activate { name: name.into() },
                Duration::from_secs(60),
            )
            .expect("activated");
    };

    // A row's Disable on the Sandbox's listing asks first, naming the Sandbox...
    list_demo_assets(&mut harness);
    click(&mut harness, "8900000001");
    click(&mut harness, "Disable selected");
    harness.get_by_label("On the profile Sandbox");
    // ...and another profile becomes active before the user answers.
    activate(&mut harness, "Staging");
    settle(&mut harness, |h| h.query_by_label("PRODUCTION").is_some());
    // The question, the listing and its selection are gone; the screen says why.
    assert!(harness.query_by_label("Disable 1 lock").is_none());
    assert!(harness.query_by_label("8900000001").is_none());
    harness.get_by_label(
        "The listing from the profile Sandbox was closed: another profile is active now.",
    );

    // Back on the Sandbox, in one click from the top bar: confirm a Disable, then switch.
    click(&mut harness, "Switch…");
    click(&mut harness, "Sandbox");
    settle(&mut harness, |h| {
        h.query_by_label("Use this profile · done").is_some()
    });
    assert_eq!(harness.state().core().state().profiles.active, "Sandbox");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8900000002").is_some());
    click(&mut harness, "8900000002");
    click(&mut harness, "Disable selected");
    harness.get_by_label("On the profile Sandbox");
    click(&mut harness, "Disable 1 lock");
    activate(&mut harness, "Staging");
    settle(&mut harness, |h| {
        h.query_by_label("Disable: 1 of 1 succeeded").is_some()
    });
    harness.get_by_label("On the profile Sandbox");

    // The journal: the one lock went to the Sandbox; Staging got none.
    let journal = harness
        .state()
        .core()
        .run(
            license_desk::core::journal::requests::Query(JournalFilter::default()),
            Duration::from_secs(60),
        )
        .expect("journal");
    let entries = journal;
    let locks: Vec<(&str, &str)> = entries
        .iter()
        .filter(|e| e.operation.name() == "lock")
        .map(|e| (e.profile.as_str(), e.request.as_deref().unwrap_or_default()))
        .collect();
    assert_eq!(locks.len(), 1, "{locks:?}");
    assert_eq!(locks[0].0, "Sandbox");
    assert!(locks[0].1.contains("8900000002"), "{locks:?}");
    harness.run_ok();
    remote.stop();
}

#[test]
fn activities_claim_then_the_limit_then_an_unknown_label() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Activities");
    type_into(&mut harness, "Identity", "1380013");
    harness.get_by_label("a mobile number with digits missing (a mobile number has 11)");
    type_into(&mut harness, "Identity", "138-0013-8000");
    harness.get_by_label("a mobile number");
    assert_eq!(
        harness.get_by_label("Identity").value().as_deref(),
        Some("13800138000")
    );
    type_into(&mut harness, "Activity label", "spring-2026");
    type_into(&mut harness, "Source", "license-desk");
    type_into(&mut harness, "Branch", "北京分公司");
    click(&mut harness, "Claim");
    settle(&mut harness, |h| {
        h.query_by_label("Claimed: the products below were granted.")
            .is_some()
    });
    // By the names the catalog knows, the URI beside.
    settle(&mut harness, |h| h.query_by_label("计价软件").is_some());
    harness.get_by_label("gms:1001");
    harness.get_by_label("算量软件");
    harness.get_by_label("gms:1002");
    harness.get_by_label("to be activated separately");
    harness.get_by_label("Claim · done");
    assert!(harness.query_by_label_contains("0000").is_none());

    // Again: the unit's claim limit, and the other unit's stock, in words.
    click(&mut harness, "Claim");
    settle(&mut harness, |h| {
        h.query_by_label("Nothing could be claimed: each unit's reason is below.")
            .is_some()
    });
    harness.get_by_label("this identity has claimed it as often as allowed");
    harness.get_by_label("no stock left");
    harness.get_by_label_contains("14005: ");
    // Answered, and refused: the status bar does not say "done".
    harness.get_by_label("Claim · refused (3002)");

    type_into(&mut harness, "Activity label", "no-such-activity");
    click(&mut harness, "Claim");
    settle(&mut harness, |h| {
        h.query_by_label("There is no activity with this label.")
            .is_some()
    });
    harness.get_by_label_contains("3001: ");
    harness.get_by_label("Claim · refused (3001)");
    // The label the platform knew is offered again; the unknown one is not.
    assert_eq!(
        harness.state().prefs.claim.seen,
        vec!["spring-2026".to_owned()]
    );
    click(&mut harness, "Recent");
    click(&mut harness, "spring-2026");
    assert_eq!(
        harness.get_by_label("Activity label").value().as_deref(),
        Some("spring-2026")
    );
    // The form is remembered for the next run.
    assert_eq!(harness.state().prefs.claim.branch, "北京分公司");
}

#[test]
fn asset_numbers_go_to_the_composer() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    click(&mut harness, "Asset numbers");
    click(&mut harness, "Get new asset numbers");
    settle(&mut harness, |h| h.query_by_label("10 numbers").is_some());
    assert_eq!(harness.query_all_by_label("domestic").count(), 10);
    click(&mut harness, "Send to the order composer");
    assert_eq!(harness.state().prefs.screen, Screen::Orders);
    harness.get_by_label("Asset 8000000001 (+9)");
    harness.get_by_label("No problems: ready to submit.");
}

/// A file with five problems opens whole: each problem listed, what does not fit shown as it
/// was; exported untouched it gives back the same values; fixed in place, it is submitted.
#[test]
fn composer_opens_a_file_whole_fixes_it_in_place_and_submits_it() {
    let dir = tempfile::tempdir().expect("dir");
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/orders/five-problems.json");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_by_label("Batch VERDICT-5 (5)").is_some()
    });
    harness.get_by_label_contains("5 problems");
    let package = "Order 1 › Asset 1 › Package 1";
    let problems = [
        "Order 1 › License type: “golden_usbkey” is not implemented by the Sandbox, which knows only the values the interface lists; choose one, or send this batch to a platform that knows it".to_owned(),
        "Order 1 › Asset 1 › Valid until: must be a date in epoch milliseconds (a whole number)".to_owned(),
        format!("{package} › Package number: required"),
        format!("{package} › Duration (y-m-d): must be years-months-days, as 1-0-0 for one year or 0-6-0 for six months"),
        format!("{package} › Product 1 › Concurrent nodes: must be a whole number"),
    ];
    for p in &problems {
        harness.get_by_label(p);
    }

    // Untouched, it is written back with the same values.
    let exported = dir.path().join("exported.json");
    type_into(&mut harness, "File", &exported.display().to_string());
    click(&mut harness, "Export");
    settle(&mut harness, |_| exported.exists());
    let read = |path: &std::path::Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(path).expect("file")).expect("json")
    };
    let (mut original, mut written) = (read(&file), read(&exported));
    for v in [&mut original, &mut written] {
        v["orderList"][0]["assets"][0]["merchandises"][0]
            .as_object_mut()
            .expect("package")
            .remove("children");
    }
    assert_eq!(written, original);

    // Each value as it was in its field; fixed there, one by one.
    click(&mut harness, &problems[0]);
    click(&mut harness, "License type");
    click(&mut harness, "stand-alone certificate (softkey)");
    click(&mut harness, &problems[1]);
    assert_eq!(
        harness
            .get_by_label("Valid until (year-month-day)")
            .value()
            .as_deref(),
        Some("2027-12-31")
    );
    type_into(&mut harness, "Valid until (year-month-day)", "2027-12-30");
    harness.get_by_label_contains("3 problems");
    click(&mut harness, &problems[2]);
    type_into(&mut harness, "Package number", "PKG-5");
    assert_eq!(
        harness.get_by_label("Duration (y-m-d)").value().as_deref(),
        Some("1年")
    );
    type_into(&mut harness, "Duration (y-m-d)", "1-0-0");
    click(&mut harness, &problems[4]);
    assert_eq!(
        harness.get_by_label("Concurrent nodes").value().as_deref(),
        Some("two")
    );
    type_into(&mut harness, "Concurrent nodes", "2");
    harness.get_by_label("No problems: ready to submit.");
    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Submitted to Sandbox: the platform recorded 1 license order.")
            .is_some()
    });
}

/// An order type the interface does not list (`renew_license`, which public client code sends):
/// on the Sandbox it blocks, saying the Sandbox does not implement it; on a remote profile it is
/// a warning, named again in the confirmation, and sent as it was (the platform's answer says
/// it got `renew_license`).
#[test]
fn an_unknown_order_type_blocks_on_the_sandbox_and_is_sent_as_is_to_a_remote_platform() {
    let mut remote = Remote::start(Region::default());
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("renew.json");
    std::fs::write(
        &file,
        r#"{"channelCode": "SHOP", "channelOrderId": "RENEW-1", "orderList": [
             {"sequence": 1, "channelCustomerId": "S-0001", "licenseType": "softkey",
              "orderType": "renew_license",
              "assets": [{"assetNos": ["8000000100"], "products": [{"productUri": "gms:1001"}]}]}]}"#,
    )
    .expect("file");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_by_label("Batch RENEW-1 (1)").is_some()
    });
    harness.get_by_label_contains("“renew_license” is not implemented by the Sandbox");
    harness.get_by_label_contains("One problem to fix");
    click(&mut harness, "Submit batch");
    assert!(harness.query_by_label("Send").is_none(), "no confirmation");

    save_staging(&harness, &remote, false);
    let core = harness.state().core();
    core.run(
        license_desk::core::profiles::requests::Activate {
            name: "Staging".into(),
        },
        Duration::from_secs(60),
    )
    .expect("activated");
    settle(&mut harness, |h| {
        h.query_by_label_contains("this platform may know it")
            .is_some()
    });
    harness.get_by_label_contains("One value this console does not know");
    // The footer's new words change the panel's layout once more before it is still.
    harness.run_ok();
    click(&mut harness, "Submit batch");
    harness.get_by_label("Values this console does not know, sent as they are:");
    harness.get_by_label("  Order 1 › Order type: renew_license");
    click(&mut harness, "Send");
    // The platform got the value as it was (and this one does not know it either).
    settle(&mut harness, |h| {
        h.query_by_label_contains(
            "13004: orderList[0].orderType: renew_license is not a value the interface lists",
        )
        .is_some()
    });
    remote.stop();
}

/// Where no OS file dialog answers (no portal, no zenity, as in CI), Browse… says so and opens
/// the window's own browser; a file chosen there is imported.
#[test]
fn browse_falls_back_to_the_window_s_own_browser() {
    let dir = tempfile::tempdir().expect("dir");
    let folder = dir.path().join("orders");
    std::fs::create_dir(&folder).expect("folder");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/orders/five-problems.json"),
        folder.join("five.json"),
    )
    .expect("copy");
    std::fs::write(folder.join("notes.txt"), "not an order").expect("file");
    for sheet in ["macros.xlsm", "binary.xlsb", "calc.ods", "rows.csv"] {
        std::fs::write(folder.join(sheet), "").expect("file");
    }
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &format!("{}/", folder.display()));
    click(&mut harness, "Browse…");
    settle(&mut harness, |h| {
        h.query_by_label_contains("No file dialog of the system answered")
            .is_some()
    });
    harness.get_by_label("Open a batch order file");
    // Only batch files are offered: JSON and every sheet type an import reads.
    assert!(harness.query_by_label_contains("notes.txt").is_none());
    for sheet in ["macros.xlsm", "binary.xlsb", "calc.ods", "rows.csv"] {
        harness.get_by_label(sheet);
    }
    click(&mut harness, "five.json");
    assert_eq!(
        harness.get_by_label("File:").value().as_deref(),
        Some("five.json")
    );
    click(&mut harness, "Open");
    settle(&mut harness, |h| {
        h.query_by_label("Batch VERDICT-5 (5)").is_some()
    });
    assert!(harness.query_by_label("Open a batch order file").is_none());
}

/// A spreadsheet opens like a JSON file: every problem listed, a header that names no column
/// said; the template is written where the window's own browser says.
#[test]
fn composer_imports_a_spreadsheet_and_writes_the_template() {
    let dir = tempfile::tempdir().expect("dir");
    let sheet =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sheets/problems-en.xlsx");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &sheet.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_by_label("Batch SHEET-EN-1 (4)").is_some()
    });
    harness.get_by_label(
        "Columns not read (their headers name no column of the order sheet): Orders!K1: Colour",
    );
    harness
        .get_by_label("Order 1 › Asset 1 › Product 1 › Concurrent nodes: must be a whole number");
    for cell in ["E2", "H2", "J2", "I3"] {
        harness.get_by_label(&format!("problems-en.xlsx: Orders!{cell}"));
    }
    // What the file taught the catalog is said.
    harness.get_by_label(
        "The catalog learned from the file: 1 entry added, 0 updated (products, packages and \
         customers it names).",
    );

    std::fs::write(dir.path().join("last-year.xlsx"), "").expect("file");
    std::fs::write(dir.path().join("batch.json"), "{}").expect("file");
    type_into(&mut harness, "File", &format!("{}/", dir.path().display()));
    click(&mut harness, "Sheet template…");
    settle(&mut harness, |h| h.query_by_label("File:").is_some());
    assert_eq!(
        harness.get_by_label("File:").value().as_deref(),
        Some("order-template.xlsx")
    );
    // The template's browser lists workbooks, not JSON batches.
    harness.get_by_label("last-year.xlsx");
    assert!(harness.query_by_label("batch.json").is_none());
    click(&mut harness, "Save");
    let template = dir.path().join("order-template.xlsx");
    settle(&mut harness, |_| template.exists());
    // The first sheet, the one an import reads, holds no order; the examples have their own.
    let read = |sheet| {
        license_desk::core::sheet::read_sheet(&template, sheet, &Default::default())
            .expect("a sheet")
    };
    assert!(read(None).batch.order_list.is_empty());
    let examples = read(Some(license_desk::core::sheet::template::EXAMPLES_SHEET));
    assert_eq!(examples.batch.order_list.len(), 3);
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

/// Ticked in Settings, a profile keeps a catalog of its own: the Catalog screen says so and
/// starts empty.
#[test]
fn settings_give_a_profile_its_own_catalog() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Settings");
    harness
        .get_all_by_label("Sandbox")
        .find(|n| {
            use egui_kittest::kittest::NodeT;
            n.accesskit_node().role() != egui::accesskit::Role::Label
        })
        .expect("the Sandbox's row")
        .click();
    harness.run_ok();
    click(&mut harness, "Edit profile");
    click(&mut harness, "Own catalog (not shared with other profiles)");
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.state().core().state().profiles.profiles[0].own_catalog
    });
    click(&mut harness, "Catalog");
    settle(&mut harness, |h| {
        h.query_by_label("0 shown of 0 found").is_some()
    });
    harness.get_by_label_contains("keeps a catalog of its own");
}

/// A customer picked from the directory fills every customer field of the order.
#[test]
fn a_customer_picked_from_the_directory_fills_every_field() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    let core = harness.state().core();
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
    let full: license_desk::core::catalog::DirectoryEntry =
        serde_json::from_value(serde_json::json!({
            "customerId": "CU-FILL-0001", "crmCustomerId": "CRM-FILL",
            "customerName": "北京示例科技有限公司", "channelCode": "SHOP",
            "channelCustomerId": "S-0001", "enterpriseGlobalId": "EG0000000001",
            "enterpriseName": "北京示例科技有限公司", "adminName": "王管理",
            "adminAccount": "admin-fill", "adminEmail": "admin@fill.example.com",
            "adminCellNumber": "13900001111", "passwordMobile": "13800138000",
            "address": "北京市海淀区", "customerType": "company",
            "branchCode": "BJ01", "branchName": "北京分公司"
        }))
        .expect("entry");
    let edit = license_desk::core::catalog::CatalogEdit::Customer {
        key: known.key.clone(),
        entry: full,
    };
    core.run(
        catalog::Edit {
            profile: sandbox(),
            edit: Box::new(edit),
        },
        wait,
    )
    .expect("edited");
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

/// A file with keys the interface does not define opens with each listed as a warning; the
/// batch has no problem, so it can be sent (with the keys, which the platform ignores).
#[test]
fn keys_of_no_field_are_listed_and_do_not_block_a_send() {
    use egui_kittest::kittest::NodeT as _;
    let dir = tempfile::tempdir().expect("dir");
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/orders/unknown-keys.json");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    let kept = "not a field of the interface; kept and sent as is.";
    settle(&mut harness, |h| {
        h.query_by_label(&format!("Order 1 › remark: {kept}"))
            .is_some()
    });
    harness.get_by_label(&format!("crmExportedBy: {kept}"));
    harness.get_by_label_contains(&format!("› colour: {kept}"));
    assert!(
        !harness
            .get_by_label("Submit batch")
            .accesskit_node()
            .is_disabled()
    );
}

/// A batch of `n` new purchases, one asset and product each, written to `path`.
fn write_large_batch(path: &std::path::Path, n: usize) {
    let orders: Vec<_> = (0..n)
        .map(|i| {
            serde_json::json!({
                "sequence": i + 1, "channelCustomerId": format!("C-{i:05}"),
                "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                "assets": [{"assetNos": [format!("81{i:08}")],
                    "products": [{"productUri": "gms:1001"}]}]
            })
        })
        .collect();
    let batch = serde_json::json!({
        "channelCode": "SHOP", "channelOrderId": "LARGE-1", "syncMode": "async",
        "orderList": orders
    });
    std::fs::write(path, serde_json::to_vec(&batch).expect("json")).expect("file");
}

/// A batch too large to check within a frame is checked on the core's threads: an edit's
/// problem is listed once that check answers and goes once fixed; its export shows a bar at
/// once, then its result, and the file and the autosaved draft hold the edit.
#[test]
fn a_large_batch_is_checked_saved_and_exported_off_the_window_thread() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("large.json");
    write_large_batch(&file, 1_200);
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch LARGE-1")
            .next()
            .is_some()
    });
    // No customer at all: the problem is the customer id's (either id will do).
    let problem = "Order 1 › ";
    assert!(harness.query_by_label_contains(problem).is_none());
    window::click_tree_row(&mut harness, "#1 New purchase");
    type_into(&mut harness, "Channel customer id", "");
    settle(&mut harness, |h| {
        h.query_by_label_contains(problem).is_some()
    });
    type_into(&mut harness, "Channel customer id", "C-FIXED");
    settle(&mut harness, |h| {
        h.query_by_label_contains(problem).is_none()
    });

    let out = dir.path().join("exported.json");
    type_into(&mut harness, "File", &out.display().to_string());
    harness.get_by_label("Export").click();
    harness.step();
    harness.get_by_label_contains("Exporting: ");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Exported").is_some()
    });
    assert!(harness.query_by_label_contains("Exporting: ").is_none());
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).expect("exported")).expect("json");
    assert_eq!(written["orderList"][0]["channelCustomerId"], "C-FIXED");
    assert_eq!(written["orderList"][1]["channelCustomerId"], "C-00001");
    assert_eq!(written["orderList"].as_array().map(Vec::len), Some(1_200));

    // The autosave wrote the same batch to the draft.
    let saved = |core: &Core| {
        let list = core.run(drafts::List, Duration::from_secs(30)).ok()?;
        let id = list.iter().find(|d| d.name == "large")?.id;
        let loaded = core
            .run(drafts::Load { id }, Duration::from_secs(30))
            .ok()?;
        serde_json::from_str::<serde_json::Value>(&loaded.draft.body).ok()
    };
    settle(&mut harness, |h| {
        saved(h.state().core())
            .is_some_and(|body| body["orderList"][0]["channelCustomerId"] == "C-FIXED")
    });
    assert_eq!(
        saved(harness.state().core()).map(|body| body == written),
        Some(true)
    );
}

/// The drafts' list names what a draft holds as soon as it is there: a batch imported, or made
/// from a template, has its order types stored without being written again or edited.
#[test]
fn the_drafts_list_names_a_new_drafts_order_types_before_any_edit() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("two-kinds.json");
    std::fs::write(
        &file,
        r#"{"channelCode": "SHOP", "channelOrderId": "KINDS-1", "orderList": [
             {"sequence": 1, "orderType": "new_buy"},
             {"sequence": 2, "orderType": "delete_product"}]}"#,
    )
    .expect("file");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    open_composer(&mut harness);
    type_into(&mut harness, "File", &file.display().to_string());
    click(&mut harness, "Import");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("Batch KINDS-1")
            .next()
            .is_some()
    });
    click(&mut harness, "Draft");
    settle(&mut harness, |h| {
        h.query_by_label("two-kinds · Delete products · New purchase")
            .is_some()
    });
    // Stored: the template draft the composer opened with, and the import, each as it holds.
    let list = harness
        .state()
        .core()
        .run(drafts::List, Duration::from_secs(30))
        .expect("the drafts");
    let mut hints: Vec<(String, serde_json::Value)> = list
        .iter()
        .map(|d| {
            let hints: serde_json::Value = serde_json::from_str(&d.hints).expect("hints");
            (d.name.clone(), hints["orderTypes"].clone())
        })
        .collect();
    hints.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(hints.len(), 2, "{hints:?}");
    assert!(hints[0].0.starts_with("LD-"), "{hints:?}");
    assert_eq!(hints[0].1, serde_json::json!(["new_buy"]));
    assert_eq!(
        hints[1],
        (
            "two-kinds".to_owned(),
            serde_json::json!(["delete_product", "new_buy"])
        )
    );
    // The file's text is the draft as it was imported, not written again for its hints.
    let body = load_body(&harness, &list, "two-kinds");
    assert_eq!(body, std::fs::read_to_string(&file).expect("file"));
}

fn load_body(harness: &Harness<'static, DeskApp>, list: &[DraftSummary], name: &str) -> String {
    let id = list.iter().find(|d| d.name == name).expect("draft").id;
    let loaded = harness
        .state()
        .core()
        .run(drafts::Load { id }, Duration::from_secs(30));
    loaded.expect("the draft").draft.body
}

/// Staging, a remote platform behind a fault proxy, active, with an enterprise (its global id
/// answered); the composer open on a batch buying `gms:1` on lock `8100000777` with
/// channelOrderId `UNK-1`.
fn staging_behind_proxy(
    harness: &mut Harness<'static, DeskApp>,
    remote: &Remote,
    proxy: &fault_proxy::FaultProxy,
    dir: &std::path::Path,
) -> String {
    let staging = staging_profile(&proxy.base, &remote.app_key, false);
    let wait = Duration::from_secs(60);
    let core = harness.state().core();
    core.run(
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: staging,
            app_secret: Some(Secret::new(remote.app_secret.clone())),
        },
        wait,
    )
    .expect("profile saved");
    let enterprise = license_desk::core::wire::EnterpriseRequest {
        crm_customer_id: Some("CRM-U".into()),
        customer_name: Some("结果未知测试企业".into()),
        branch_name: None,
        address: None,
    };
    let created = core
        .run(
            CallOn {
                profile: "Staging".into(),
                call: Call::CreateEnterprise(enterprise),
            },
            wait,
        )
        .expect("enterprise");
    let Answer::Enterprise(created) = created else {
        panic!("{created:?}");
    };
    core.run(
        license_desk::core::profiles::requests::Activate {
            name: "Staging".into(),
        },
        wait,
    )
    .expect("activated");
    let file = dir.join("unknown.json");
    let batch = serde_json::json!({"channelCode": "CRM", "channelOrderId": "UNK-1",
        "syncMode": "sync", "orderList": [{"sequence": 1, "channelCustomerId": "CRM-U",
        "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
        "assets": [{"assetNos": ["8100000777"], "products": [{"productUri": "gms:1"}]}]}]});
    std::fs::write(&file, batch.to_string()).expect("write");
    open_composer(harness);
    type_into(harness, "File", &file.display().to_string());
    click(harness, "Import");
    settle(harness, |h| {
        h.query_by_label("No problems: ready to submit.").is_some()
    });
    created.enterprise_global_id
}

/// License orders the remote platform holds.
fn remote_orders(remote: &Remote) -> i64 {
    let db = remote.dir.path().join("platform.sqlite3");
    rusqlite::Connection::open(db)
        .expect("platform db")
        .query_row("SELECT count(*) FROM license_orders", [], |r| r.get(0))
        .expect("count")
}

/// A batch whose answer is lost after the platform committed it: the composer says the outcome
/// is unknown and what may have happened, Check reads what the platform holds, Send again warns
/// of the risk on a platform not declared to recognise repeats, Mark as done is recorded in
/// History; and the draft knows it went to Staging, not to the Sandbox.
#[test]
fn an_unknown_outcome_is_shown_with_its_choices_checked_and_settled() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let wait = Duration::from_secs(60);
    staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());

    // The platform applies it; its answer never comes back.
    proxy.then(&[fault_proxy::Fault::DropAnswer]);
    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    let heading =
        "Sent to Staging, outcome unknown: the platform may have applied this license order.";
    settle(&mut harness, |h| h.query_by_label(heading).is_some());
    for choice in ["Check", "Mark as done", "Mark as not done", "Send again"] {
        harness.get_by_label(choice);
    }
    // The toast does not call it a failure.
    harness.get_by_label("Submit batch: Outcome unknown");
    for not_so in ["Submit batch: failed", "Submit batch: refused"] {
        assert!(harness.query_by_label(not_so).is_none());
    }
    assert_eq!(
        remote_orders(&remote),
        1,
        "applied once, and not sent again by itself"
    );

    // Check: the asset is listed with the product the batch asked for.
    click(&mut harness, "Check");
    settle(&mut harness, |h| {
        h.query_by_label("As the batch asked: 1 · not so: 0 · cannot tell: 0")
            .is_some()
    });
    harness.get_by_label_contains("8100000777: listed: gms:1");

    // Send again: the confirmation names the risk on this platform; cancelled.
    click(&mut harness, "Send again");
    harness.get_by_label_contains(
        "This draft was already sent to Staging with UNK-1 (Outcome unknown). Staging is not declared to recognise a repeated channel order id",
    );
    click(&mut harness, "Cancel");

    // Marked as done, as the evidence says; History shows the call so.
    click(&mut harness, "Mark as done");
    settle(&mut harness, |h| {
        h.query_by_label("Marked as done: recorded in History.")
            .is_some()
    });
    let writes = harness
        .state()
        .core()
        .run(
            license_desk::core::journal::requests::Writes {
                profile: Some("Staging".into()),
                state: None,
                limit: 0,
            },
            wait,
        )
        .expect("writes");
    assert_eq!(
        (
            writes[0].operation.name(),
            writes[0].state,
            writes[0].resolved_by.as_deref()
        ),
        (
            "batch_order",
            license_desk::core::WriteState::Done,
            Some("ops@example.com")
        )
    );
    click(&mut harness, "History");
    settle(&mut harness, |h| h.query_all_by_label("Done").count() == 2);
    assert!(harness.query_by_label("Outcome unknown").is_none());

    // On the Sandbox the draft was never sent: the confirmation says where it went.
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Activate {
                name: "Sandbox".into(),
            },
            wait,
        )
        .expect("activated");
    click(&mut harness, "Orders");
    settle(&mut harness, |h| h.query_by_label("Submit batch").is_some());
    assert!(
        harness.query_by_label(heading).is_none(),
        "another profile's outcome is not shown"
    );
    click(&mut harness, "Submit batch");
    harness.get_by_label("Sent before with this channel order id to Staging; not yet to Sandbox.");
}

/// A batch held by a platform that never answers: the status bar shows it running with a
/// Cancel; cancelled, it is an unknown outcome (it had left), settled as not done.
#[test]
fn a_call_in_flight_is_cancelled_from_the_status_bar() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());
    proxy.then(&[fault_proxy::Fault::Blackhole]);
    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        proxy.received() == 2 && h.query_by_label("Cancel call").is_some()
    });
    harness.get_by_label("Batch order on Staging…");
    click(&mut harness, "Cancel call");
    let heading =
        "Sent to Staging, outcome unknown: the platform may have applied this license order.";
    settle(&mut harness, |h| h.query_by_label(heading).is_some());
    assert!(harness.query_by_label("Cancel call").is_none());
    harness.get_by_label("cancelled by the user");
    assert_eq!(remote_orders(&remote), 0);
    click(&mut harness, "Mark as not done");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Marked as not done").is_some()
    });
    let writes = harness
        .state()
        .core()
        .run(
            license_desk::core::journal::requests::Writes {
                profile: Some("Staging".into()),
                state: None,
                limit: 1,
            },
            Duration::from_secs(60),
        )
        .expect("writes");
    assert_eq!(writes[0].state, license_desk::core::WriteState::NotSent);
    assert_eq!(writes[0].detail.as_deref(), Some("cancelled by the user"));
    assert_eq!(writes[0].resolved_by.as_deref(), Some("ops@example.com"));
}

/// A lock whose answer is lost: the screen says what may have happened, reads the listing
/// again on the lock's profile, and shows the state the platform lists.
#[test]
fn a_lock_with_an_unknown_outcome_is_followed_by_a_read_of_the_state() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let enterprise = staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());
    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Submitted to Staging: the platform recorded 1 license order.")
            .is_some()
    });
    click(&mut harness, "Assets");
    type_into(&mut harness, "Enterprise global id", &enterprise);
    click(&mut harness, "List assets");
    settle(&mut harness, |h| h.query_by_label("8100000777").is_some());
    assert!(harness.query_by_label("disabled").is_none());

    proxy.then(&[fault_proxy::Fault::DropAnswer]);
    click(&mut harness, "8100000777");
    click(&mut harness, "Disable selected");
    click(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label_contains("As the platform lists them now:")
            .is_some()
    });
    harness.get_by_label(
        "Sent to Staging, outcome unknown: the platform may have disabled this lock.",
    );
    harness.get_by_label(
        "As the platform lists them now: 1 disabled, 0 enabled, 0 not listed. The grid shows this state.",
    );
    harness.get_by_label("disabled");

    // The platform away: enabling it sends nothing, and it can be kept to send later.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let away = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    point_staging_at(&harness, &remote, &away);
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8100000777",
    );
    click(&mut harness, "Enable these");
    click(&mut harness, "Enable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label("Staging could not be reached: nothing was sent.")
            .is_some()
    });
    click(&mut harness, "Keep to send later");
    settle(&mut harness, |h| {
        h.query_by_label("Send later (1)").is_some()
    });
}

/// Staging's profile pointed at `base` (a closed port: unreachable).
fn point_staging_at(harness: &Harness<'static, DeskApp>, remote: &Remote, base: &str) {
    let staging = staging_profile(base, &remote.app_key, false);
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Save {
                previous: Some("Staging".into()),
                profile: staging,
                app_secret: None,
            },
            Duration::from_secs(60),
        )
        .expect("profile saved");
}

/// A batch whose platform cannot be reached is kept to send later from the composer; the queue
/// survives a restart of the window and is sent once, to its own profile, when it answers.
#[test]
fn a_batch_kept_to_send_later_survives_a_restart_and_is_sent_once() {
    let remote = Remote::start(Region::default());
    let proxy = fault_proxy::FaultProxy::start(&remote.base.clone());
    let dir = tempfile::tempdir().expect("dir");
    let store: std::sync::Arc<keyring_core::CredentialStore> = desk::mock_store();
    let mut harness = app_with_store(dir.path(), Lang::En, std::sync::Arc::clone(&store));
    harness.run_ok();
    staging_behind_proxy(&mut harness, &remote, &proxy, dir.path());
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let away = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    point_staging_at(&harness, &remote, &away);

    click(&mut harness, "Submit batch");
    click(&mut harness, "Send");
    settle(&mut harness, |h| {
        h.query_by_label("Staging could not be reached: nothing was sent.")
            .is_some()
    });
    // Clicked again while the panel settles (a click during its first frames can land beside
    // the button); a kept call disables it, so it is kept once.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while harness
        .query_by_label_contains("Kept to send later")
        .is_none()
    {
        assert!(std::time::Instant::now() < deadline, "never kept");
        if harness.query_by_label("Keep to send later").is_some() {
            click(&mut harness, "Keep to send later");
        }
        harness.step();
    }
    settle(&mut harness, |h| {
        h.query_by_label("Send later (1)").is_some()
    });
    drop(harness);

    // The window again: the call is still there, and goes once the platform is back (by the
    // half-minute sending or by Send now, whichever comes first).
    let mut harness = app_with_store(dir.path(), Lang::En, store);
    point_staging_at(&harness, &remote, &proxy.base);
    // The navigation's item, clicked until its screen is open (a click in the window's first
    // frames can land beside it).
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while harness.query_by_label("Send now").is_none() {
        assert!(std::time::Instant::now() < deadline, "never opened");
        if let Some(item) = harness.get_all_by_label_contains("Send later").next() {
            item.click();
        }
        harness.step();
    }
    settle(&mut harness, |h| {
        h.query_by_label("Batch order: 1 order, UNK-1").is_some()
    });
    settle(&mut harness, |h| {
        use egui_kittest::kittest::NodeT as _;
        h.query_by_label("Done").is_some()
            || !h.get_by_label("Send now").accesskit_node().is_disabled()
    });
    if harness.query_by_label("Done").is_none() {
        click(&mut harness, "Send now");
    }
    settle(&mut harness, |h| {
        h.query_by_label("Done").is_some() && h.query_by_label("Send later (1)").is_none()
    });
    assert_eq!(remote_orders(&remote), 1);
    click(&mut harness, "Send now");
    settle(&mut harness, |h| {
        use egui_kittest::kittest::NodeT as _;
        !h.get_by_label("Send now").accesskit_node().is_disabled()
    });
    assert_eq!(remote_orders(&remote), 1, "sent once");
}

/// An asset number a platform accepted that a spreadsheet would run as a formula is exported
/// from the asset grid as text: its cell starts with `'`.
#[test]
fn an_asset_export_writes_a_formula_as_text() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let formula = "=HYPERLINK(\"http://example.com/?\"&B2,\"8100\")";
    let batch: license_desk::core::wire::BatchOrderRequest = serde_json::from_value(
        serde_json::json!({"channelCode": "SHOP", "channelOrderId": "FORMULA-1",
            "syncMode": "sync", "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": [formula], "products": [{"productUri": "gms:1"}]}]}]}),
    )
    .expect("batch");
    harness
        .state()
        .core()
        .run(
            CallOn {
                profile: "Sandbox".into(),
                call: Call::BatchOrder(batch),
            },
            Duration::from_secs(60),
        )
        .expect("the platform accepts it");
    list_demo_assets(&mut harness);
    let view = dir.path().join("formula.csv");
    type_into(&mut harness, "Export to", &view.display().to_string());
    click(&mut harness, "Export CSV");
    settle(&mut harness, |_| view.exists());
    let csv = std::fs::read_to_string(&view).expect("view");
    assert!(
        csv.lines().any(
            |l| l.starts_with("\"'=HYPERLINK(\"\"http://example.com/?\"\"&B2,\"\"8100\"\")\",")
        ),
        "{csv}"
    );
    assert!(!csv.lines().any(|l| l.starts_with("\"=")), "{csv}");
}

/// A sentence that names a profile names the Sandbox in the UI's language: the confirmation
/// and the result of a submit, in Chinese.
#[test]
fn a_submit_in_chinese_names_the_sandbox_in_chinese() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    let file = dir.path().join("zh.json");
    let batch = serde_json::json!({"channelCode": "SHOP", "channelOrderId": "ZH-1",
        "syncMode": "sync", "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
        "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
        "assets": [{"assetNos": ["8100000901"], "products": [{"productUri": "gms:1001"}]}]}]});
    std::fs::write(&file, batch.to_string()).expect("write");
    click(&mut harness, "订单");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("批次 LD-").next().is_some()
    });
    type_into(&mut harness, "文件", &file.display().to_string());
    click(&mut harness, "导入");
    settle(&mut harness, |h| {
        h.query_by_label("没有问题，可以提交。").is_some()
    });
    click(&mut harness, "提交批量订单");
    harness.get_by_label("向“沙箱”提交此批量订单？");
    click(&mut harness, "提交");
    settle(&mut harness, |h| {
        h.query_by_label("已提交到“沙箱”：平台记录了 1 个授权订单。")
            .is_some()
    });
}
