//! Every interactive widget of every screen has an accessible name in the UI's language, as a
//! screen reader needs (issue 39): the window is driven on the Sandbox in English and Chinese,
//! each screen shown with data on it (a customer's page opened, assets listed, Renewals read),
//! and its accessibility tree walked; a button, field, check box, link, choice or tab without
//! a name (its own, or a label it is labelled by) fails the test, named by role and place.

use test_support::window;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Screen};
use window::{app, click, settle};

/// The roles a person acts on.
const INTERACTIVE: [Role; 10] = [
    Role::Button,
    Role::CheckBox,
    Role::TextInput,
    Role::MultilineTextInput,
    Role::ComboBox,
    Role::RadioButton,
    Role::Link,
    Role::Tab,
    Role::Slider,
    Role::SpinButton,
];

/// How many interactive nodes the window shows, and those without a name: their role and
/// where they are.
fn unnamed(harness: &Harness<'static, DeskApp>) -> (usize, Vec<String>) {
    let root = harness.root();
    let mut seen = 0;
    let missing = root
        .children_recursive()
        .filter_map(|node| {
            let n = node.accesskit_node();
            if !INTERACTIVE.contains(&n.role()) {
                return None;
            }
            seen += 1;
            let words = |l: Option<String>| l.is_some_and(|l| !l.trim().is_empty());
            let named = words(n.label()) || n.labelled_by().any(|by| words(by.label()));
            (!named).then(|| format!("{:?} at {:?}", n.role(), node.rect()))
        })
        .collect();
    (seen, missing)
}

fn walk(lang: Lang) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(dir.path(), lang);
    let (customers, list, read) = match lang {
        Lang::En => ("Customers", "List assets", "Read the directory"),
        Lang::Zh => ("客户", "列出资产", "读取客户目录"),
    };
    settle(&mut harness, |h| {
        h.query_all_by_label(customers).next().is_some()
    });
    let mut missing = Vec::new();
    let mut seen = 0;
    for screen in Screen::ALL {
        harness.state_mut().prefs.screen = screen;
        for _ in 0..5 {
            harness.run_ok();
        }
        match screen {
            Screen::Assets => {
                window::type_into(
                    &mut harness,
                    label(lang, "enterprise-global-id"),
                    "EG0000000001",
                );
                click(&mut harness, list);
                settle(&mut harness, |h| {
                    h.query_all_by_label_contains("8900000001").next().is_some()
                });
            }
            Screen::Renewals => {
                click(&mut harness, read);
                settle(&mut harness, |h| {
                    h.query_all_by_label_contains("8900000005").next().is_some()
                });
            }
            _ => {}
        }
        let (shown, without) = unnamed(&harness);
        seen += shown;
        missing.extend(without.into_iter().map(|m| format!("{screen:?}: {m}")));
    }
    harness.state_mut().open_customer("EG0000000001");
    settle(&mut harness, |h| {
        h.state().prefs.screen == Screen::Customer
            && h.query_all_by_label_contains("EG0000000001")
                .next()
                .is_some()
    });
    for _ in 0..5 {
        harness.run_ok();
    }
    let (shown, without) = unnamed(&harness);
    seen += shown;
    missing.extend(without.into_iter().map(|m| format!("Customer page: {m}")));
    // The walk saw the screens' widgets (175 on nine screens when counted through AT-SPI).
    assert!(seen > 200, "{lang:?}: only {seen} interactive widgets seen");
    assert!(
        missing.is_empty(),
        "{lang:?}: widgets without a name:\n{}",
        missing.join("\n")
    );
}

fn label(lang: Lang, id: &str) -> &'static str {
    license_desk::ui::text::i18n::lookup(lang, id).unwrap_or("")
}

#[test]
fn every_interactive_widget_of_every_screen_has_a_name_in_english() {
    walk(Lang::En);
}

#[test]
fn every_interactive_widget_of_every_screen_has_a_name_in_chinese() {
    walk(Lang::Zh);
}
