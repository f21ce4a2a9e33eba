//! Batch files in the order composer: JSON and spreadsheets imported, browsed for, checked as they
//! are, exported; large ones off the window's thread.

use std::time::Duration;

use egui_kittest::kittest::Queryable;
use license_desk::core::{Core, drafts};
use license_desk::ui::text::i18n::Lang;
use platform::Region;

use test_support::remote::Remote;
use test_support::window::{self, app, click, settle, type_into};

use crate::{open_composer, save_staging};

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
        "Order 1 › Asset 1 › Product 1 › Product id (GMS product id or app product key): required in a New purchase (new_buy) order",
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
    // Beside the file field in words, with the reader's own verbatim; verbatim in the toast.
    let words = format!(
        "{} cannot be read as a batch order at line 2, column 18: mend it there and import it \
         again.",
        not_json.display()
    );
    settle(&mut harness, |h| h.query_by_label(&words).is_some());
    harness.get_by_label(&format!("Word for word, as answered: {place}"));
    harness.get_by_label(&place);
    harness.get_by_label("The draft was not changed.");
    harness.get_by_label("Batch IMPORT-1 (3)");
    harness.get_by_label_contains("3 problems");
    // The toast says the same beside a plain explanation.
    harness.get_by_label("Import: failed");

    // No such file: said so, in words, not as the OS's error number (issue 56).
    let gone = dir.path().join("gone.json");
    type_into(&mut harness, "File", &gone.display().to_string());
    click(&mut harness, "Import");
    let words = format!(
        "There is no file at {}: check its name and its folder, or choose it with Browse….",
        gone.display()
    );
    settle(&mut harness, |h| h.query_by_label(&words).is_some());
    // It was about the draft that was open: another draft shown, it goes (issue 56).
    click(&mut harness, "New");
    click(&mut harness, "Delete assets");
    settle(&mut harness, |h| h.query_by_label(&words).is_none());
    assert!(
        harness
            .query_by_label("The draft was not changed.")
            .is_none()
    );
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
    // What the file taught the catalog is said, once learned (after the batch is shown).
    let taught = "The catalog learned from the file: 1 entry added, 0 updated (products, \
                  packages and customers it names).";
    settle(&mut harness, |h| h.query_by_label(taught).is_some());

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
    // From the import on, one line says what the catalog learns, waiting or done: the form
    // below does not move (nor lose the field being typed in) when the learning answers.
    assert!(
        harness
            .query_by_label("The catalog is learning what the file names…")
            .or_else(|| harness.query_by_label_contains("The catalog learned from the file"))
            .is_some()
    );
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

/// A file with four mistakes shows all four at once (an order type the interface does not list
/// hides nothing else), a misspelt field and a letter in a lock's number among them as errors,
/// each message whole inside the window, in English and in Chinese.
#[test]
fn every_mistake_of_a_file_shows_at_once_and_whole() {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/console/mistakes.json");
    for (lang, count, said) in [
        (
            Lang::En,
            "4 problems",
            [
                "Order 1 › Order type: “newbuy” is not implemented by the Sandbox",
                "Order 1 › Asset 1 › Asset numbers, line 1: has a letter where a digit goes (O for 0, I or l for 1): did you mean 8000000102?",
                "the file has “endDate”, which is not a field of the interface, so the platform would ignore it: rename it limitEndDate",
                "must not be negative",
            ],
        ),
        (
            Lang::Zh,
            "需修正 4 个问题",
            [
                "沙箱未实现“newbuy”",
                "数字的位置写成了字母（O 应为 0，I 或 l 应为 1）：是否应为 8000000102？",
                "文件中的“endDate”不是接口的字段，平台会忽略它：请改名为 limitEndDate",
                "不能为负数",
            ],
        ),
    ] {
        let dir = tempfile::tempdir().expect("dir");
        let mut harness = app(dir.path(), lang);
        harness.run_ok();
        harness.state_mut().prefs.screen = license_desk::ui::Screen::Orders;
        let batch = if lang == Lang::En {
            "Batch LD-"
        } else {
            "批次 LD-"
        };
        settle(&mut harness, |h| {
            h.query_all_by_label_contains(batch).next().is_some()
        });
        let field = if lang == Lang::En { "File" } else { "文件" };
        type_into(&mut harness, field, &file.display().to_string());
        click(
            &mut harness,
            if lang == Lang::En { "Import" } else { "导入" },
        );
        settle(&mut harness, |h| h.query_by_label_contains(count).is_some());
        harness.run_ok();
        let height = harness.ctx.content_rect().height();
        for words in said {
            let node = harness.get_by_label_contains(words);
            let rect = node.rect();
            assert!(
                rect.bottom() <= height && rect.height() > 0.0,
                "{words} at {rect:?}, the window {height} tall"
            );
        }
    }
}
