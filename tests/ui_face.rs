//! The console's face (issue 39): the themes, the keyboard's shortcuts, History's readable
//! bodies, and Help (the manual in the window, in the UI's language: F1 opens the page of the
//! screen shown, the top bar's Help the contents and the shortcuts, Escape closes it).

use test_support::desk;
use test_support::window;

use desk::CallOn;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use license_desk::core::{Call, SANDBOX};
use license_desk::ui::kit::theme::{DARK, LIGHT};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Screen};
use window::{app, click, settle, type_into};
use wire::CustomerQuery;

/// The first heading of a page of `docs/manual/<lang>/`, as the window titles it.
fn title(lang: &str, page: &str) -> String {
    let path = format!("{}/docs/manual/{lang}/{page}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("manual page");
    let first = text.lines().next().expect("a first line");
    first
        .strip_prefix("# ")
        .expect("a title first")
        .trim()
        .to_owned()
}

#[test]
fn f1_opens_the_page_of_the_screen_shown_and_escape_closes_it() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.state_mut().prefs.screen = Screen::Orders;
    harness.run_ok();
    assert!(harness.query_by_label("License Desk manual").is_none());
    let orders = title("en", "orders.md");
    let before = harness.query_all_by_label(&orders).count();
    harness.key_press(egui::Key::F1);
    settle(&mut harness, |h| {
        h.query_by_label("License Desk manual").is_some()
    });
    // The page's title, in the contents and as the page's heading (and in its words).
    let after = harness.query_all_by_label(&orders).count();
    assert!(
        after >= before + 2,
        "{orders}: {before} before, {after} after"
    );
    harness.key_press(egui::Key::Escape);
    settle(&mut harness, |h| {
        h.query_by_label("License Desk manual").is_none()
    });
}

#[test]
fn the_help_menu_opens_the_shortcuts_in_chinese_and_the_contents_open_another_page() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.state_mut().prefs.screen = Screen::Settings;
    harness.run_ok();
    click(&mut harness, "帮助");
    click(&mut harness, "快捷键");
    settle(&mut harness, |h| {
        h.query_by_label("授权管理台帮助").is_some()
    });
    let shortcuts = title("zh-CN", "shortcuts.md");
    let open = harness.query_all_by_label(&shortcuts).count();
    assert!(open >= 2, "{shortcuts}: {open}");
    // The contents' entry of another page opens it (the contents come first).
    let start = title("zh-CN", "start.md");
    let entry = harness
        .query_all_by_label(&start)
        .next()
        .expect("in the contents");
    entry.click();
    settle(&mut harness, |h| h.query_all_by_label(&start).count() >= 2);
    assert!(harness.query_all_by_label(&shortcuts).count() < open);
}

/// Settings' theme applies at once, in the tokens' colours, and is remembered.
#[test]
fn the_theme_chosen_in_settings_applies_the_tokens_at_once() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.state_mut().prefs.screen = Screen::Settings;
    harness.run_ok();
    click(&mut harness, "Dark");
    harness.run_ok();
    let visuals = harness.ctx.global_style().visuals.clone();
    assert!(visuals.dark_mode);
    assert_eq!(visuals.panel_fill, DARK.panel);
    click(&mut harness, "Light");
    harness.run_ok();
    let visuals = harness.ctx.global_style().visuals.clone();
    assert!(!visuals.dark_mode);
    assert_eq!(visuals.panel_fill, LIGHT.panel);
    assert_eq!(
        harness.state().prefs.theme,
        license_desk::ui::kit::theme::ThemeChoice::Light
    );
}

/// Ctrl+Enter submits the form shown, from anywhere on it; F5 reads History again.
#[test]
fn ctrl_enter_submits_the_form_and_f5_refreshes_history() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    type_into(&mut harness, "Channel code", "SHOP");
    type_into(&mut harness, "Channel customer id", "S-0001");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    click(&mut harness, "History");
    settle(&mut harness, |h| {
        h.query_all_by_label("Query customers").count() == 1
    });
    // A call made elsewhere (here, by the core directly) is shown after F5.
    let query = Call::QueryCustomers(CustomerQuery {
        channel_code: Some("SHOP".into()),
        channel_customer_id: Some("S-0002".into()),
        default_customer: None,
    });
    let call = CallOn {
        profile: SANDBOX.to_owned(),
        call: query,
    };
    desk::run(harness.state().core(), call);
    harness.key_press(egui::Key::F5);
    settle(&mut harness, |h| {
        h.query_all_by_label("Query customers").count() == 2
    });
    // New asset numbers, asked for by Ctrl+Enter.
    click(&mut harness, "Asset numbers");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    settle(&mut harness, |h| {
        h.query_by_label("Get new asset numbers · done").is_some()
    });
}

/// History's detail shows the answer as a tree of named fields, and the raw JSON one click
/// away.
#[test]
fn history_shows_a_call_s_bodies_as_a_tree_and_the_raw_json_on_demand() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.state_mut().prefs.screen = Screen::Start;
    harness.run_ok();
    click(&mut harness, "Query it");
    settle(&mut harness, |h| h.query_by_label("1 customer").is_some());
    click(&mut harness, "History");
    settle(&mut harness, |h| {
        h.query_by_label("Query customers").is_some()
    });
    click(&mut harness, "Query customers");
    settle(&mut harness, |h| {
        h.query_by_label("message: success").is_some()
    });
    harness.get_by_label("data […] (1)");
    click(&mut harness, "Raw JSON");
    settle(&mut harness, |h| {
        h.query_by_label("message: success").is_none()
    });
}

/// An empty screen says what to do next and its button does it: History leads to Start,
/// Send later to the composer, the customer's page to Customers, and Assets lists the last
/// enterprise listed.
#[test]
fn empty_screens_lead_to_their_next_step() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    // A filter that lets nothing through says so, and does not send the user to Start.
    harness.state_mut().prefs.screen = Screen::History;
    harness.run_ok();
    click(&mut harness, "Failures only");
    settle(&mut harness, |h| {
        h.query_by_label("No call matches the filter: change or clear it.")
            .is_some()
    });
    assert!(harness.query_by_label("Open Start").is_none());
    click(&mut harness, "Failures only");
    let steps = [
        (Screen::History, "Open Start", Screen::Start),
        (Screen::SendLater, "Compose a batch", Screen::Orders),
        (Screen::Customer, "Open Customers", Screen::Customers),
    ];
    for (empty, button, next) in steps {
        harness.state_mut().prefs.screen = empty;
        harness.run_ok();
        click(&mut harness, button);
        assert_eq!(harness.state().prefs.screen, next, "{button}");
    }
    harness.state_mut().prefs.recent_enterprises = vec!["EG0000000001".to_owned()];
    harness.state_mut().prefs.screen = Screen::Assets;
    harness.run_ok();
    click(&mut harness, "List EG0000000001");
    settle(&mut harness, |h| h.query_by_label("8900000006").is_some());
}

/// The fields one types in, picks from or ticks.
const FIELDS: [Role; 5] = [
    Role::TextInput,
    Role::MultilineTextInput,
    Role::ComboBox,
    Role::CheckBox,
    Role::SpinButton,
];

/// A refusal's toast stays until dismissed, on every screen: it never covers a field, a list to
/// pick from or a check box, in the narrowest window and a common one, in both languages.
#[test]
fn a_toast_covers_no_field_on_any_screen() {
    for lang in [Lang::En, Lang::Zh] {
        let dir = tempfile::tempdir().expect("dir");
        let mut harness = app(dir.path(), lang);
        harness.run_ok();
        // The Sandbox's demo enterprise has this CRM id already: the platform refuses.
        let (create, fields, done, title) = match lang {
            Lang::En => (
                ["Create enterprise", "Create"],
                ["CRM customer id", "Customer name", "Branch name", "Address"],
                "Dismiss",
                "Create enterprise: refused",
            ),
            Lang::Zh => (
                ["创建企业主账号", "创建"],
                ["CRM 客户编号", "客户名称", "分公司名称", "地址"],
                "关闭",
                "创建企业主账号：被拒绝",
            ),
        };
        click(&mut harness, create[0]);
        for (field, text) in fields.iter().zip(["CRM-DEMO", "名称", "分公司", "地址"]) {
            type_into(&mut harness, field, text);
        }
        click(&mut harness, create[1]);
        settle(&mut harness, |h| h.query_by_label(title).is_some());
        for size in [egui::vec2(900.0, 600.0), egui::vec2(1280.0, 800.0)] {
            harness.set_size(size);
            for screen in Screen::ALL {
                harness.state_mut().prefs.screen = screen;
                // A panel takes its size from the frame before: the next frames show it whole.
                harness.run_steps(3);
                // From its title and its Dismiss to the platform's words at its foot.
                let toast = harness
                    .get_by_label(title)
                    .rect()
                    .union(harness.get_by_label(done).rect())
                    .union(harness.get_by_label_contains("13004: ").rect());
                // A field under the toast's place is scrolled into view, as a user would
                // before typing in it; it must then be clear of the toast.
                // The fields under the toast's place, by their accessibility ids (an id stays
                // a widget's from frame to frame).
                let under: Vec<_> = harness
                    .root()
                    .children_recursive()
                    .filter(|n| FIELDS.contains(&n.accesskit_node().role()))
                    .filter(|n| n.rect().intersects(toast))
                    .map(|n| n.accesskit_node().id())
                    .collect();
                let mut covered = Vec::new();
                for id in under {
                    let found = |h: &Harness<'static, DeskApp>| {
                        h.root()
                            .children_recursive()
                            .find(|n| n.accesskit_node().id() == id)
                            .map(|n| (n.accesskit_node().label(), n.rect()))
                    };
                    if let Some(node) = harness
                        .root()
                        .children_recursive()
                        .find(|n| n.accesskit_node().id() == id)
                    {
                        node.scroll_to_me();
                    }
                    harness.run_steps(2);
                    if let Some((label, rect)) = found(&harness)
                        && rect.intersects(toast)
                    {
                        covered.push(format!("{label:?} {rect:?}"));
                    }
                }
                assert!(
                    covered.is_empty(),
                    "{lang:?} {screen:?} at {size:?}: the toast {toast:?} covers {covered:?}"
                );
            }
        }
    }
}
