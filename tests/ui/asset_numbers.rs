//! The Asset numbers screen: new numbers asked for and sent to the order composer.

use egui_kittest::kittest::Queryable;
use license_desk::ui::Screen;
use license_desk::ui::text::i18n::Lang;

use test_support::window::{app, click, settle};

use crate::open_composer;

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
