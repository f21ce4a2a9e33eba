//! The Renewals screen driven like a user would (egui_kittest) on the Sandbox: the directory
//! read with its stamp, the window's rows and no others, a wider window, the search, a sort,
//! the export as xlsx, Start's summary, two rows composed into a renewal that opens in the
//! composer, and the last read shown at once by a console started again.

use test_support::desk;
use test_support::window;

use desk::CallOn;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::files::StoredBatch;
use license_desk::core::{Call, SANDBOX, drafts, now_ms};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Screen};
use serde_json::json;
use window::{app, click, settle, shown_labels, type_into};

const DAY: i64 = 86_400_000;

/// Three assets for the demo customer S-0001, ending in 5, 50 and 200 days.
fn order(harness: &Harness<'static, DeskApp>) {
    let now = now_ms();
    let assets: Vec<_> = [(1, 5), (2, 50), (3, 200)]
        .iter()
        .map(|(n, days)| {
            json!({"assetNos": [format!("871000000{n}")],
                   "products": [{"productUri": "gms:1001", "productName": "云计价",
                                 "limitEndDate": now + days * DAY}]})
        })
        .collect();
    let batch = serde_json::from_value(json!({
        "channelCode": "SHOP", "channelOrderId": "UI-RENEW", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy", "assets": assets}]
    }))
    .expect("a batch");
    send(harness, batch);
}

/// A batch sent on the Sandbox, answered before the test goes on.
fn send(harness: &Harness<'static, DeskApp>, batch: license_desk::core::wire::BatchOrderRequest) {
    let command = CallOn {
        profile: SANDBOX.to_owned(),
        call: Call::BatchOrder(batch),
    };
    harness
        .state()
        .core()
        .run(command, desk::WAIT)
        .expect("the batch is sent");
}

fn shows(harness: &Harness<'static, DeskApp>, text: &str) -> bool {
    harness.query_all_by_label(text).next().is_some()
}

#[test]
fn renewals_reads_the_directory_filters_sorts_exports_and_opens_again_from_the_cache() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(dir.path(), Lang::En);
    settle(&mut harness, |h| shows(h, "Customers"));
    order(&harness);
    harness.state_mut().prefs.screen = Screen::Renewals;
    settle(&mut harness, |h| shows(h, "Read the directory"));
    click(&mut harness, "Read the directory");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Read from Sandbox at").is_some()
    });
    // The next 90 days: the assets ending in 5 and 50 days, not the one in 200.
    assert!(shows(&harness, "8710000001"), "{}", shown_labels(&harness));
    assert!(shows(&harness, "8710000002"));
    assert!(!shows(&harness, "8710000003"));
    click(&mut harness, "365 days");
    settle(&mut harness, |h| shows(h, "8710000003"));

    type_into(&mut harness, "Find", "8710000002");
    settle(&mut harness, |h| !shows(h, "8710000001"));
    assert!(shows(&harness, "8710000002"));
    assert!(harness.query_by_label_contains("1 of ").is_some());
    type_into(&mut harness, "Find", "87100");
    settle(&mut harness, |h| shows(h, "8710000001"));

    // Start says what ends in the next 30 days by this read (the demo data's own dates make
    // the count depend on the day), with the way to Renewals.
    harness.state_mut().prefs.screen = Screen::Start;
    settle(&mut harness, |h| {
        h.query_by_label_contains("in the next 30 days (read at")
            .is_some()
    });
    harness.state_mut().prefs.screen = Screen::Renewals;
    settle(&mut harness, |h| shows(h, "8710000001"));

    let xlsx = dir.path().join("renewals.xlsx");
    type_into(&mut harness, "Export to", xlsx.to_str().expect("path"));
    click(&mut harness, "Export");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Exported").is_some()
    });
    use calamine::{Reader, open_workbook_auto};
    let mut book = open_workbook_auto(&xlsx).expect("the export opens");
    let sheet = book.worksheet_range("Renewals").expect("its sheet");
    let nums: Vec<String> = sheet.rows().skip(1).map(|r| r[5].to_string()).collect();
    assert_eq!(nums, ["8710000001", "8710000002", "8710000003"]);

    // Two rows chosen become a renewal, opened in the composer as a new draft; nothing sent.
    click(&mut harness, "Choose 8710000001 for a renewal");
    click(&mut harness, "Choose 8710000002 for a renewal");
    settle(&mut harness, |h| shows(h, "2 rows chosen"));
    click(&mut harness, "Compose the renewal");
    settle(&mut harness, |h| shows(h, "No problems: ready to submit."));
    assert_eq!(harness.state().prefs.screen, Screen::Orders);
    // The draft kept: one new purchase of the two assets, each product from its end on.
    let core = harness.state().core();
    let listed = desk::run(core, drafts::List);
    let renewal = listed
        .iter()
        .find(|d| d.name.starts_with("RENEW-"))
        .expect("the renewal's draft");
    let loaded = desk::run(core, drafts::Load { id: renewal.id });
    let StoredBatch::Opened(batch) = loaded.batch else {
        panic!("the renewal does not open: {loaded:?}");
    };
    let batch = batch.to_batch(None);
    let nums: Vec<&str> = batch.order_list[0]
        .assets
        .iter()
        .flat_map(|a| a.asset_nos.iter().map(String::as_str))
        .collect();
    assert_eq!(
        (batch.order_list.len(), nums),
        (1, vec!["8710000001", "8710000002"])
    );

    // A console started again shows the last read at once, without reading.
    drop(harness);
    let mut again = app(dir.path(), Lang::Zh);
    again.state_mut().prefs.screen = Screen::Renewals;
    settle(&mut again, |h| {
        h.query_by_label_contains("读取自 沙箱").is_some()
    });
    assert!(shows(&again, "8710000001"));
}

/// The customer's page (step 6), found from the top bar by pinyin initials: its assets with
/// what ends soon, its timeline opening History, a renewal of a chosen asset opening in the
/// composer; opened from a Renewals row; and kept, so that a console started again in Chinese
/// shows it at once.
#[test]
fn the_customer_page_opens_from_the_search_shows_what_the_platform_and_journal_hold_and_acts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(dir.path(), Lang::En);
    settle(&mut harness, |h| shows(h, "Customers"));
    order(&harness);
    let lock = CallOn {
        profile: SANDBOX.to_owned(),
        call: Call::Lock {
            nums: vec!["8710000002".to_owned()],
            operator: None,
        },
    };
    harness
        .state()
        .core()
        .run(lock, desk::WAIT)
        .expect("locked");

    // 北京示例科技有限公司 by its pinyin initials, then Enter.
    type_into(&mut harness, "Find customer", "bjsl");
    settle(&mut harness, |h| {
        h.query_by_label_contains("EG0000000001").is_some()
    });
    harness.key_press(egui::Key::Enter);
    settle(&mut harness, |h| {
        h.query_by_label_contains("From Sandbox, read at").is_some()
    });
    assert_eq!(harness.state().prefs.screen, Screen::Customer);
    assert!(shows(&harness, "北京示例科技有限公司"));
    assert!(shows(&harness, "8710000001"), "{}", shown_labels(&harness));
    assert!(
        harness.query_by_label_contains("(5 days left)").is_some(),
        "{}",
        shown_labels(&harness)
    );
    assert!(shows(&harness, "Disabled"), "8710000002 is shown disabled");

    // The timeline: the lock, then the batch; its entry opens in History.
    click(&mut harness, "Timeline (2)");
    settle(&mut harness, |h| shows(h, "Disabled 8710000002"));
    assert!(
        harness
            .query_by_label_contains("Batch UI-RENEW: New purchase (new_buy), 3 assets: 云计价")
            .is_some(),
        "{}",
        shown_labels(&harness)
    );
    harness
        .query_all_by_label_contains("Journal #")
        .next()
        .expect("an entry's link")
        .click();
    harness.run_ok();
    assert_eq!(harness.state().prefs.screen, Screen::History);

    // From a Renewals row back to the page, kept: a chosen asset renewed in the composer.
    harness.state_mut().prefs.screen = Screen::Renewals;
    settle(&mut harness, |h| shows(h, "Read the directory"));
    click(&mut harness, "Read the directory");
    settle(&mut harness, |h| shows(h, "8710000001"));
    harness
        .query_all_by_label_contains("北京示例科技有限公司 · EG0000000001")
        .next()
        .expect("a customer's link")
        .click();
    settle(&mut harness, |h| shows(h, "Refresh"));
    assert_eq!(harness.state().prefs.screen, Screen::Customer);
    click(&mut harness, "Assets (11)");
    settle(&mut harness, |h| shows(h, "Choose 8710000001"));
    click(&mut harness, "Choose 8710000001");
    settle(&mut harness, |h| shows(h, "Renew (1)"));
    click(&mut harness, "Renew (1)");
    settle(&mut harness, |h| shows(h, "No problems: ready to submit."));
    assert_eq!(harness.state().prefs.screen, Screen::Orders);

    // Started again in Chinese: the page kept opens at once from the search.
    drop(harness);
    let mut again = app(dir.path(), Lang::Zh);
    settle(&mut again, |h| shows(h, "查找客户"));
    type_into(&mut again, "查找客户", "EG0000000001");
    settle(&mut again, |h| {
        h.query_all_by_label_contains("北京示例科技有限公司")
            .next()
            .is_some()
    });
    again.key_press(egui::Key::Enter);
    settle(&mut again, |h| {
        h.query_by_label_contains("来自 沙箱，读取于").is_some()
    });
    assert!(shows(&again, "8710000001"));
}

/// The page opens in one click from where an enterprise is shown: an Assets listing and a
/// History entry (a batch naming its channel customer, placed by the directory); its chosen
/// locks change through the Assets screen's confirmation, what is not a lock left out.
#[test]
fn the_customer_page_opens_from_assets_and_history_and_changes_locks_through_their_confirmation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(dir.path(), Lang::En);
    settle(&mut harness, |h| shows(h, "Customers"));
    order(&harness);
    harness.state_mut().prefs.screen = Screen::Assets;
    settle(&mut harness, |h| shows(h, "Enterprise global id"));
    type_into(&mut harness, "Enterprise global id", "EG0000000001");
    click(&mut harness, "List assets");
    settle(&mut harness, |h| shows(h, "Customer page"));
    assert_eq!(harness.state().prefs.screen, Screen::Assets);
    click(&mut harness, "Customer page");
    settle(&mut harness, |h| {
        h.query_by_label_contains("From Sandbox, read at").is_some()
    });
    assert_eq!(harness.state().prefs.screen, Screen::Customer);
    assert!(shows(&harness, "8710000003"));

    // Two chosen, one a lock and one not: the Assets screen's confirmation for the lock only,
    // its result there, and the page read again shows it disabled.
    click(&mut harness, "Choose 8710000003");
    click(&mut harness, "Choose CA-DEMO-0001");
    click(&mut harness, "Disable the chosen (2)…");
    settle(&mut harness, |h| shows(h, "Disable 1 lock"));
    assert_eq!(harness.state().prefs.screen, Screen::Assets);
    click(&mut harness, "Disable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Disable: 1 of 1 succeeded")
            .is_some()
    });
    harness.state_mut().open_customer("EG0000000001");
    settle(&mut harness, |h| shows(h, "Refresh"));
    click(&mut harness, "Refresh");
    settle(&mut harness, |h| shows(h, "Disabled"));

    click(&mut harness, "Timeline (2)");
    harness
        .query_all_by_label_contains("Journal #")
        .last()
        .expect("the batch's link, oldest")
        .click();
    settle(&mut harness, |h| shows(h, "Customer page"));
    assert_eq!(harness.state().prefs.screen, Screen::History);
    click(&mut harness, "Customer page");
    settle(&mut harness, |h| {
        h.state().prefs.screen == Screen::Customer && shows(h, "北京示例科技有限公司")
    });
}

/// A click on the chart's bar of a month shows that month's rows in the table, with its chip.
#[test]
fn a_click_on_a_month_s_bar_shows_that_month() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(dir.path(), Lang::En);
    settle(&mut harness, |h| shows(h, "Customers"));
    order(&harness);
    harness.state_mut().prefs.screen = Screen::Renewals;
    settle(&mut harness, |h| shows(h, "Read the directory"));
    click(&mut harness, "Read the directory");
    settle(&mut harness, |h| shows(h, "8710000001"));
    // The month the asset ending in 50 days ends in, counted from this month (bar 0).
    let today = jiff::Zoned::now();
    let end = today
        .checked_add(jiff::Span::new().days(50))
        .expect("a date");
    let m = (i32::from(end.year()) * 12 + i32::from(end.month()))
        - (i32::from(today.year()) * 12 + i32::from(today.month()));
    // The plot shows -0.6 to 11.6, and egui_plot adds 5% of that on each side.
    let rect = harness
        .get_by_label("Chart: what ends each month; click a bar to show that month")
        .rect();
    let (from, to) = (-0.6 - 0.61, 11.6 + 0.61);
    let x = rect.left() + rect.width() * ((f64::from(m) - from) / (to - from)) as f32;
    let at = egui::pos2(x, rect.bottom() - rect.height() * 0.12);
    harness.event(egui::Event::PointerMoved(at));
    harness.run_ok();
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        harness.run_ok();
    }
    let month = format!("Month {} ×", end.strftime("%Y-%m"));
    settle(&mut harness, |h| shows(h, &month));
    // Only that month's rows: not those ending in 5 and 200 days.
    assert!(!shows(&harness, "8710000001"), "{}", shown_labels(&harness));
    assert!(!shows(&harness, "8710000003"));
}

/// The Sandbox's own row (the lock 8900000005, dated by the asset) is named by its product, the
/// table fits the window at 1100 and at 900 px (every column's title inside it), its check box
/// takes the click (no scroll bar lies over it), and its renewal is ready to submit: in English
/// at 1100 px and in Chinese at 900.
#[test]
fn the_demo_row_fits_takes_its_click_and_renews_in_both_languages_and_sizes() {
    for (lang, width, height) in [(Lang::En, 1100.0, 720.0), (Lang::Zh, 900.0, 600.0)] {
        let dir = tempfile::tempdir().expect("temp dir");
        let size = egui::vec2(width, height);
        let mut harness = window::app_sized(dir.path(), lang, desk::mock_store(), size);
        let words = |en: &'static str, zh: &'static str| if lang == Lang::En { en } else { zh };
        harness.state_mut().prefs.screen = Screen::Renewals;
        let read = words("Read the directory", "读取客户目录");
        settle(&mut harness, |h| shows(h, read));
        click(&mut harness, read);
        settle(&mut harness, |h| shows(h, "8900000005"));
        assert!(shows(&harness, "计价软件"), "{}", shown_labels(&harness));
        for title in [
            words("Branch", "分公司"),
            words("License type", "授权类型"),
            words("Lock", "锁状态"),
        ] {
            let right = harness
                .query_all_by_label_contains(title)
                .map(|n| n.rect().right())
                .fold(0.0, f32::max);
            assert!(
                right > 0.0 && right <= width,
                "{title} ends at {right} in a window {width} wide"
            );
        }
        let choose = words("Choose 8900000005 for a renewal", "选择 8900000005 续费");
        harness.get_by_label(choose).click();
        harness.run_ok();
        settle(&mut harness, |h| {
            shows(h, words("1 row chosen", "已选 1 条"))
        });
        click(&mut harness, words("Compose the renewal", "生成续费订单"));
        let ready = words("No problems: ready to submit.", "没有问题，可以提交。");
        settle(&mut harness, |h| shows(h, ready));
    }
}

/// A read of four license types (a legend of two lines at 900 px) leaves the table rows in a
/// 900×600 window, their license types told apart in few words: the chart gives way (it took all the room, and the table showed
/// its titles and no row).
#[test]
fn rows_stay_in_view_beside_a_tall_legend_at_900_by_600() {
    let dir = tempfile::tempdir().expect("temp dir");
    let size = egui::vec2(900.0, 600.0);
    let mut harness = window::app_sized(dir.path(), Lang::Zh, desk::mock_store(), size);
    settle(&mut harness, |h| shows(h, "客户"));
    let now = now_ms();
    let orders: Vec<_> = [
        ("normal_recover_usbkey", 1, 5),
        ("softkey", 2, 10),
        ("cloud_account", 3, 20),
    ]
    .iter()
    .map(|(license, n, days)| {
        json!({"sequence": n, "channelCustomerId": "S-0001", "licenseType": license,
                   "orderType": "new_buy",
                   "assets": [{"assetNos": [format!("872000000{n}")],
                       "products": [{"productUri": "gms:1001", "productName": "云计价",
                                     "limitEndDate": now + days * DAY}]}]})
    })
    .collect();
    let batch = serde_json::from_value(json!({
        "channelCode": "SHOP", "channelOrderId": "UI-RENEW-TYPES", "syncMode": "sync",
        "orderList": orders
    }))
    .expect("a batch");
    send(&harness, batch);
    harness.state_mut().prefs.screen = Screen::Renewals;
    settle(&mut harness, |h| shows(h, "读取客户目录"));
    click(&mut harness, "读取客户目录");
    settle(&mut harness, |h| shows(h, "8720000003"));
    let in_view = harness
        .query_all_by_label_contains("选择 872000000")
        .filter(|n| n.rect().bottom() <= size.y - 40.0)
        .count();
    assert_eq!(in_view, 3, "rows in view: {}", shown_labels(&harness));
    assert!(shows(
        &harness,
        "窗口高度不足，图表已隐藏：拉高窗口即可显示。"
    ));
    // License types in few words, what tells them apart first (a narrow column cuts the end).
    assert!(
        shows(&harness, "可重发单机锁"),
        "{}",
        shown_labels(&harness)
    );
}
