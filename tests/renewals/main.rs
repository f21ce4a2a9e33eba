//! Renewals' read of a whole directory, against a real platform over loopback (the embedded
//! one, as a remote profile sees it, behind a fault-injecting proxy): the table holds exactly
//! the products and dates the platform holds for each enterprise of the directory; an
//! enterprise the platform does not have is said and passed; a platform that stops answering,
//! and Cancel, leave what was read, marked; the read is kept as the profile's last. And
//! `license-desk renewals` prints the same rows as a table, CSV, JSON and xlsx.

use test_support::desk;
use test_support::fault_proxy;
use test_support::remote;
use test_support::served;

mod page;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use desk::{Answer, CallOn, WAIT, mock_store, run, start_core};
use fault_proxy::{Fault, FaultProxy};
use license_desk::core::catalog::{self, store::Import};
use license_desk::core::profiles::usual_token_url;
use license_desk::core::progress::Progress;
use license_desk::core::renewals::{self, Read, ReadState, Source, Stop, Trouble, Window};
use license_desk::core::{Call, Core, Endpoint, KeyringChoice, Secret, now_ms};
use platform::Region;
use remote::Remote;
use serde_json::{Value, json};
use tempfile::TempDir;
use wire::{BatchOrderRequest, BindRequest};

const PROFILE: &str = "Branch";
const DAY: i64 = 86_400_000;

/// An asset, a product, its start and end, and why it is not due (renewed).
type RenewedRow = (String, String, Option<i64>, i64, Option<Trouble>);

struct Setup {
    dir: TempDir,
    core: Core,
    proxy: FaultProxy,
    _remote: Remote,
}

/// A console whose profile `Branch` reaches a platform of its own through a proxy; a listing
/// that cannot be reached is not tried again, so a stop is seen at once.
fn setup() -> Setup {
    let dir = tempfile::tempdir().expect("temp dir");
    let remote = Remote::start(Region::Domestic);
    let proxy = FaultProxy::start(&remote.base);
    let core = start_core(dir.path(), KeyringChoice::Store(mock_store()));
    let mut profile = remote.profile(PROFILE, "renewals");
    if let Endpoint::Remote {
        base_url,
        token_url,
        ..
    } = &mut profile.endpoint
    {
        *base_url = proxy.base.clone();
        *token_url = usual_token_url(&proxy.base);
    }
    profile.limits.retries = 0;
    run(
        &core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile,
            app_secret: Some(Secret::new(remote.app_secret.clone())),
        },
    );
    Setup {
        dir,
        core,
        proxy,
        _remote: remote,
    }
}

fn on_branch(call: Call) -> CallOn {
    CallOn {
        profile: PROFILE.to_owned(),
        call,
    }
}

/// Binds the shop's customer `customer` to an enterprise of its own, orders `assets` (the
/// order's `assets` array) for it, and returns the enterprise.
fn order(core: &Core, customer: &str, assets: Value) -> String {
    let bind = BindRequest {
        channel_code: Some("SHOP".to_owned()),
        channel_customer_id: Some(customer.to_owned()),
        customer_name: Some(customer.to_owned()),
        enterprise_name: Some(format!("{customer} 企业")),
        ..BindRequest::default()
    };
    let enterprise = match run(core, on_branch(Call::Bind(bind))) {
        Answer::Customer(bound) => bound.enterprise_global_id,
        other => panic!("not a customer: {other:?}"),
    };
    let batch: BatchOrderRequest = serde_json::from_value(json!({
        "channelCode": "SHOP", "channelOrderId": format!("RENEW-{customer}"), "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": customer,
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy", "assets": assets}]
    }))
    .expect("a batch");
    run(core, on_branch(Call::BatchOrder(batch)));
    enterprise
}

/// One asset holding one product that ends at `end`.
fn one_asset(num: &str, end: i64) -> Value {
    json!([{"assetNos": [num], "products": [{"productUri": "gms:1", "limitEndDate": end}]}])
}

/// The profile's directory, as a catalog file imported.
fn directory(core: &Core, dir: &Path, customers: Value) {
    let path = dir.join("directory.json");
    let file = json!({"products": [], "packages": [], "customers": customers});
    std::fs::write(&path, file.to_string()).expect("write the directory");
    run(
        core,
        catalog::ImportFile {
            path,
            profile: PROFILE.to_owned(),
            import: Import {
                apply: true,
                overwrite: true,
            },
        },
    );
}

fn read(core: &Core, progress: Progress) -> Arc<Read> {
    let command = renewals::ReadAll {
        profile: PROFILE.to_owned(),
        progress,
    };
    run(core, command)
}

fn cached(core: &Core) -> Option<Arc<Read>> {
    let command = renewals::Cached {
        profile: PROFILE.to_owned(),
    };
    run(core, command)
}

/// (enterprise, asset, product, start, end, source) of each row, sorted.
type Seen = (String, String, Option<String>, Option<i64>, i64, Source);

fn rows(read: &Read) -> Vec<Seen> {
    let mut seen: Vec<Seen> = read
        .table
        .iter()
        .map(|r| {
            let enterprise = read.enterprise_of(&r).expect("its enterprise");
            (
                enterprise.global_id.clone(),
                r.asset_num().to_owned(),
                r.product_uri().map(str::to_owned),
                r.start(),
                r.end(),
                r.source(),
            )
        })
        .collect();
    seen.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
    seen
}

fn state_of<'a>(read: &'a Read, enterprise: &str) -> &'a ReadState {
    &read
        .enterprises
        .iter()
        .find(|e| e.global_id == enterprise)
        .expect("the enterprise is in the read")
        .state
}

#[test]
fn the_table_holds_exactly_what_the_platform_holds_for_each_enterprise_of_the_directory() {
    let s = setup();
    let now = now_ms();
    let a = order(
        &s.core,
        "R-1",
        json!([
            {"assetNos": ["8100000001"], "products": [
                {"productUri": "gms:1", "limitStartDate": now - 300 * DAY, "limitEndDate": now + 10 * DAY},
                {"productUri": "gms:2", "limitEndDate": now + 200 * DAY}]},
            // No dated product: the asset's own validity.
            {"assetNos": ["8100000002"], "limitStartDate": now - 5 * DAY,
             "limitEndDate": now + 40 * DAY, "products": [{"productUri": "gms:3"}]},
            // Nothing dated at all.
            {"assetNos": ["8100000003"], "products": [{"productUri": "gms:3"}]}
        ]),
    );
    let b = order(&s.core, "R-2", one_asset("8100000004", now + 400 * DAY));
    let gone = "EG0099999999";
    directory(
        &s.core,
        s.dir.path(),
        json!([
            {"enterpriseGlobalId": a, "enterpriseName": "成都续费有限公司", "branchName": "成都分公司"},
            {"enterpriseGlobalId": b, "customerName": "重庆续费", "branchCode": "CQ"},
            {"enterpriseGlobalId": gone, "enterpriseName": "已注销企业"}
        ]),
    );

    let progress = Progress::default();
    let read = read(&s.core, progress.clone());
    assert_eq!(read.stop, None);
    assert_eq!(progress.snapshot().done, 3, "{:?}", read.enterprises);
    assert_eq!(
        rows(&read),
        [
            (
                a.clone(),
                "8100000001".to_owned(),
                Some("gms:1".to_owned()),
                Some(now - 300 * DAY),
                now + 10 * DAY,
                Source::Product
            ),
            (
                a.clone(),
                "8100000001".to_owned(),
                Some("gms:2".to_owned()),
                None,
                now + 200 * DAY,
                Source::Product
            ),
            (
                a.clone(),
                "8100000002".to_owned(),
                None,
                Some(now - 5 * DAY),
                now + 40 * DAY,
                Source::Asset
            ),
            (
                b.clone(),
                "8100000004".to_owned(),
                Some("gms:1".to_owned()),
                None,
                now + 400 * DAY,
                Source::Product
            ),
        ]
    );
    let of = |id: &str| {
        read.enterprises
            .iter()
            .find(|e| e.global_id == id)
            .expect("in the read")
    };
    assert_eq!(
        (of(&a).assets, of(&a).undated, of(&a).branch.as_deref()),
        (3, 1, Some("成都分公司"))
    );
    assert_eq!(
        (
            of(&b).assets,
            of(&b).customer_name.as_deref(),
            of(&b).branch.as_deref()
        ),
        (1, Some("重庆续费"), Some("CQ"))
    );
    assert_eq!(of(&a).name.as_deref(), Some("成都续费有限公司"));
    assert_eq!(state_of(&read, &a), &ReadState::Read);
    let ReadState::Refused { code, message } = state_of(&read, gone) else {
        panic!("the enterprise the platform does not have is not refused");
    };
    assert_eq!(
        (code.as_str(), message.as_str()),
        (
            "13004",
            "enterpriseGlobalId: no enterprise master account EG0099999999"
        )
    );

    // The next 90 days, in the console's time zone.
    let today = jiff::Zoned::now().date();
    let window = Window::days(today, &jiff::tz::TimeZone::system(), 90).expect("a window");
    let mut soon: Vec<&str> = read
        .table
        .iter()
        .filter(|r| window.holds(r))
        .map(|r| r.asset_num())
        .collect();
    soon.sort_unstable();
    assert_eq!(soon, ["8100000001", "8100000002"]);

    // Kept as the profile's last read.
    assert_eq!(cached(&s.core).as_deref(), Some(&*read));
}

/// Eight enterprises of one asset each, in the directory; their ids.
fn eight(s: &Setup) -> Vec<String> {
    let now = now_ms();
    let ids: Vec<String> = (0..8)
        .map(|i| {
            let num = format!("82000000{i:02}");
            order(&s.core, &format!("H-{i}"), one_asset(&num, now + DAY))
        })
        .collect();
    let entries: Vec<Value> = ids
        .iter()
        .map(|id| json!({"enterpriseGlobalId": id}))
        .collect();
    directory(&s.core, s.dir.path(), Value::Array(entries));
    ids
}

/// Each enterprise read has its one row; the others are not read.
fn check_partial(read: &Read, expected_read: usize) {
    let read_ones: Vec<&str> = read
        .enterprises
        .iter()
        .filter(|e| e.state == ReadState::Read)
        .map(|e| e.global_id.as_str())
        .collect();
    assert_eq!(read_ones.len(), expected_read, "{:?}", read.enterprises);
    assert!(
        read.enterprises
            .iter()
            .all(|e| matches!(e.state, ReadState::Read | ReadState::NotRead))
    );
    let mut with_rows: Vec<&str> = read
        .table
        .iter()
        .map(|r| {
            read.enterprise_of(&r)
                .expect("its enterprise")
                .global_id
                .as_str()
        })
        .collect();
    with_rows.sort_unstable();
    let mut expected = read_ones.clone();
    expected.sort_unstable();
    assert_eq!(with_rows, expected);
}

#[test]
fn a_platform_that_stops_answering_half_way_leaves_what_was_read_marked() {
    let s = setup();
    eight(&s);
    // Three listings answer; then nothing reaches the platform.
    s.proxy.then(&[Fault::Pass; 3]);
    s.proxy.then(&[Fault::ResetBeforeForward; 20]);
    let read = read(&s.core, Progress::default());
    check_partial(&read, 3);
    let Some(Stop::NoAnswer { why, .. }) = &read.stop else {
        panic!(
            "the read does not say the platform stopped answering: {:?}",
            read.stop
        );
    };
    assert!(why.starts_with("no answer from the platform"), "{why}");
    assert_eq!(cached(&s.core).as_deref(), Some(&*read));
}

#[test]
fn cancel_stops_the_read_within_a_second_and_keeps_what_was_read() {
    let s = setup();
    eight(&s);
    // Two listings answer; the next ones are held with no answer.
    s.proxy.then(&[Fault::Pass; 2]);
    s.proxy.then(&[Fault::Blackhole; 20]);
    let progress = Progress::default();
    let canceller = {
        let progress = progress.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + WAIT;
            while progress.snapshot().done < 2 {
                assert!(Instant::now() < deadline, "two listings never came");
                std::thread::yield_now();
            }
            progress.cancel();
            Instant::now()
        })
    };
    let read = read(&s.core, progress);
    let ended = Instant::now();
    let cancelled = canceller.join().expect("the canceller");
    assert!(
        ended - cancelled < Duration::from_secs(1),
        "the read went on {:?} after Cancel",
        ended - cancelled
    );
    check_partial(&read, 2);
    assert!(matches!(read.stop, Some(Stop::Cancelled { .. })));
}

#[test]
fn the_command_line_prints_what_ends_soonest_first_as_json_csv_and_xlsx() {
    let home = tempfile::tempdir().expect("home");
    let now = now_ms();
    // For the Sandbox's demo customer S-0001 (enterprise EG0000000001): three assets ending in
    // 5, 50 and 200 days.
    let assets: Vec<Value> = [(1, 5), (2, 50), (3, 200)]
        .iter()
        .map(|(n, days)| {
            json!({"assetNos": [format!("870000000{n}")],
                   "products": [{"productUri": "gms:1001", "productName": "云计价",
                                 "limitEndDate": now + days * DAY}]})
        })
        .collect();
    let batch = json!({"channelCode": "SHOP", "channelOrderId": "CLI-RENEW", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy", "assets": assets}]});
    let file = home.path().join("batch.json");
    std::fs::write(&file, batch.to_string()).expect("batch file");
    let sent = served::ld(
        home.path(),
        &["call", "order", "--body", file.to_str().expect("path")],
        None,
        &[],
    );
    assert_eq!(sent.code, Some(0), "{}", sent.stderr);

    let xlsx = home.path().join("renewals.xlsx");
    let args = ["renewals", "--within", "60", "--format", "json", "--xlsx"];
    let json = served::ld(
        home.path(),
        &[&args[..], &[xlsx.to_str().expect("path")]].concat(),
        None,
        &[],
    );
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    let rows: Vec<Value> = serde_json::from_str(&json.stdout).expect("JSON rows");
    let ours: Vec<(&str, i64, &str)> = rows
        .iter()
        .filter(|r| r["assetNum"].as_str().is_some_and(|n| n.starts_with("87")))
        .map(|r| {
            (
                r["assetNum"].as_str().expect("assetNum"),
                r["daysLeft"].as_i64().expect("daysLeft"),
                r["enterpriseGlobalId"].as_str().expect("enterprise"),
            )
        })
        .collect();
    assert_eq!(
        ours,
        [
            ("8700000001", 5, "EG0000000001"),
            ("8700000002", 50, "EG0000000001")
        ]
    );
    let days: Vec<i64> = rows
        .iter()
        .map(|r| r["daysLeft"].as_i64().expect("days"))
        .collect();
    assert!(days.windows(2).all(|w| w[0] <= w[1]) && days.iter().all(|d| (0..=60).contains(d)));

    let csv = served::ld(
        home.path(),
        &["renewals", "--within", "60", "--format", "csv"],
        None,
        &[],
    );
    assert_eq!(csv.code, Some(0), "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "customerId,customerName,enterpriseGlobalId,enterpriseName,branch,assetNum,licenseType,\
         productUri,productName,startDate,endDate,daysLeft,locked,source"
    );
    assert_eq!(lines.len(), rows.len() + 1);

    use calamine::{Reader, open_workbook_auto};
    let mut book = open_workbook_auto(&xlsx).expect("the xlsx opens");
    let sheet = book.worksheet_range("Renewals").expect("the sheet");
    assert_eq!(sheet.height(), rows.len() + 1);
    assert_eq!(
        sheet.get((0, 10)).map(ToString::to_string).as_deref(),
        Some("到期日期 End date")
    );
}

#[test]
fn a_directory_without_enterprises_reads_nothing_and_sends_nothing() {
    let s = setup();
    let read = read(&s.core, Progress::default());
    assert_eq!((read.enterprises.len(), read.table.len()), (0, 0));
    assert_eq!(read.stop, None);
    assert_eq!(s.proxy.received(), 0, "no listing was asked for");
}

/// Step 5's core (the window's part is still to come): the rows chosen become a batch that
/// the rules `order check` runs accept, and that, sent, gives each chosen product a new
/// instance from its end for as long; nothing else on the assets changes.
#[test]
fn a_renewal_of_chosen_rows_passes_the_check_and_extends_exactly_those_products() {
    let s = setup();
    let now = now_ms();
    let a = order(
        &s.core,
        "N-1",
        json!([
            {"assetNos": ["8300000001"], "products": [
                {"productUri": "gms:1", "limitStartDate": now - 300 * DAY, "limitEndDate": now + 10 * DAY},
                {"productUri": "gms:2", "limitEndDate": now + 20 * DAY}]},
            {"assetNos": ["8300000002"], "products": [
                {"productUri": "gms:1", "limitStartDate": now - 30 * DAY, "limitEndDate": now + 30 * DAY}]}
        ]),
    );
    directory(
        &s.core,
        s.dir.path(),
        json!([{"enterpriseGlobalId": a, "channelCode": "SHOP"}]),
    );
    let read = read(&s.core, Progress::default());
    // Renew gms:1 on both assets, not gms:2.
    let chosen: Vec<u32> = (0..read.table.len() as u32)
        .filter(|i| read.table.get(*i as usize).product_uri() == Some("gms:1"))
        .collect();
    let batch = license_desk::core::renewals::compose(&read, &chosen, "RENEWAL-N-1");
    assert_eq!(wire::validate::batch_order(&batch), []);
    run(&s.core, on_branch(Call::BatchOrder(batch)));

    let after = self::read(&s.core, Progress::default());
    let mut seen: Vec<RenewedRow> = after
        .table
        .iter()
        .map(|r| {
            let uri = r.product_uri().unwrap_or_default().to_owned();
            (
                r.asset_num().to_owned(),
                uri,
                r.start(),
                r.end(),
                r.trouble(),
            )
        })
        .collect();
    seen.sort_by_key(|r| (r.0.clone(), r.1.clone(), r.3));
    let row = |num: &str, uri: &str, start: Option<i64>, end: i64, renewed: bool| {
        let trouble = renewed.then_some(Trouble::Renewed);
        (num.to_owned(), uri.to_owned(), start, end, trouble)
    };
    // The old instances are renewed, so no longer due; the new ones and gms:2 are.
    assert_eq!(
        seen,
        [
            row(
                "8300000001",
                "gms:1",
                Some(now - 300 * DAY),
                now + 10 * DAY,
                true
            ),
            row(
                "8300000001",
                "gms:1",
                Some(now + 10 * DAY),
                now + 320 * DAY,
                false
            ),
            row("8300000001", "gms:2", None, now + 20 * DAY, false),
            row(
                "8300000002",
                "gms:1",
                Some(now - 30 * DAY),
                now + 30 * DAY,
                true
            ),
            row(
                "8300000002",
                "gms:1",
                Some(now + 30 * DAY),
                now + 90 * DAY,
                false
            ),
        ]
    );
    let today = jiff::Zoned::now().date();
    let due: Vec<String> = after
        .due_within(today, &jiff::tz::TimeZone::system(), 60)
        .into_iter()
        .map(|d| format!("{} {}", d.asset_num, d.product_uri.unwrap_or_default()))
        .collect();
    assert_eq!(due, ["8300000001 gms:2"]);
}

/// Every row the Sandbox's demo data offers (the lock 8900000005, whose validity sits on the
/// asset) composes into a batch that passes the check and that the platform accepts: the
/// asset's validity is renewed from its end, and the product it holds comes along.
#[test]
fn a_renewal_of_every_demo_row_passes_the_check_and_is_accepted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let core = start_core(dir.path(), KeyringChoice::Store(mock_store()));
    let read_sandbox = |core: &Core| {
        let command = renewals::ReadAll {
            profile: license_desk::core::SANDBOX.to_owned(),
            progress: Progress::default(),
        };
        run(core, command)
    };
    let read = read_sandbox(&core);
    let demo: Vec<(String, Option<String>, Source, i64)> = read
        .table
        .iter()
        .map(|r| {
            let name = r.product_name().map(str::to_owned);
            (r.asset_num().to_owned(), name, r.source(), r.end())
        })
        .collect();
    let year_end = 1_798_761_600_000;
    assert_eq!(
        demo,
        [(
            "8900000005".to_owned(),
            Some("计价软件".to_owned()),
            Source::Asset,
            year_end
        )]
    );
    let all: Vec<u32> = (0..read.table.len() as u32).collect();
    let batch = renewals::compose(&read, &all, "RENEWAL-DEMO");
    assert_eq!(wire::validate::batch_order(&batch), []);
    let asset = &batch.order_list[0].assets[0];
    assert_eq!(asset.products.len(), 1);
    assert_eq!(asset.products[0].product_uri.as_deref(), Some("gms:1001"));
    let sent = CallOn {
        profile: license_desk::core::SANDBOX.to_owned(),
        call: Call::BatchOrder(batch),
    };
    match run(&core, sent) {
        Answer::Orders(orders) => assert_eq!(orders.len(), 1, "{orders:?}"),
        other => panic!("not the orders made: {other:?}"),
    }
    // Read again: the asset's validity now ends a year (as long as it lasted) later.
    let after = read_sandbox(&core);
    let ends: Vec<(&str, i64)> = after
        .table
        .iter()
        .map(|r| (r.asset_num(), r.end()))
        .collect();
    assert_eq!(
        ends,
        [("8900000005", year_end + (year_end - 1_767_225_600_000))]
    );
}
