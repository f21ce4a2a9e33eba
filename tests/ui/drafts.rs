//! The composer's drafts: saved as typed and kept over a restart, undone and redone, read-only when
//! unreadable, listed by what they hold.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{DraftSummary, drafts};
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;

use test_support::window::{app, click, settle, type_into};

use crate::{open_composer, stored_bodies};

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
    type_into(
        &mut harness,
        "Product id (GMS product id or app product key)",
        "gms:2001",
    );
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
        value(&harness, "Product id (GMS product id or app product key)").as_deref(),
        Some("")
    );
    click(&mut harness, "Undo");
    assert!(
        harness
            .query_by_label("Product id (GMS product id or app product key)")
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
