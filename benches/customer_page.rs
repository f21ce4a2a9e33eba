//! A customer's page at its largest (issue 38): one enterprise holding 10,000 assets on
//! `license-desk serve` (a child process), and 10,000 calls of this console that touched it
//! (locks, sent through the console's core), so that its timeline holds 10,000 entries. The
//! page is read once from the platform and kept; then, in the same run, timed:
//! - the kept page loaded by the core (`customer::Cached`);
//! - the real window (egui_kittest, no GPU) opening the page until it is drawn;
//! - beside them, plain serde_json parsing the platform's listing answer of the same 10,000
//!   assets into a `Value` (what showing a kept JSON answer would cost at least).
//!
//! `cargo bench --bench customer_page` (`PAGE_ASSETS`, `PAGE_EVENTS` make it smaller).

use test_support::bench::client;
use test_support::bench::renewals_seed;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::calls::requests as calls;
use license_desk::core::customer::{self, Opened};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
use renewals_seed::{National, PROFILE, run};

const SIZE: egui::Vec2 = egui::vec2(1280.0, 800.0);
const ROUNDS: usize = 10;
/// Calls at once while the timeline is made.
const SENDERS: usize = 8;

fn main() {
    let assets = count("PAGE_ASSETS", 10_000);
    let events = count("PAGE_EVENTS", 10_000);
    let national = National::sized(1, assets);
    let global_id = national.ids[0].clone();
    let dir = tempfile::tempdir().expect("temp dir");
    let core = national.console(dir.path());
    run(
        &core,
        license_desk::core::profiles::requests::Activate {
            name: PROFILE.to_owned(),
        },
    );
    let started = Instant::now();
    timeline(&core, assets, events);
    eprintln!(
        "{events} locks sent in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    let read = Instant::now();
    let page = match run(&core, read_page(&global_id)) {
        Opened::Page(page) => page,
        other => panic!("no page: {other:?}"),
    };
    let read_ms = read.elapsed().as_secs_f64() * 1000.0;
    assert_eq!((page.assets.len(), page.timeline.len()), (assets, events));

    let cached: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let cached = customer::Cached {
                profile: PROFILE.to_owned(),
                global_id: global_id.clone(),
            };
            assert!(run(&core, cached).is_some());
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    let listing = national.runtime.block_on(national.http.call(
        reqwest::Method::GET,
        &format!("{}/asset/{global_id}/list", client::ORDER),
        &[],
    ));
    let parsed: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let value: serde_json::Value =
                serde_json::from_slice(&listing.body).expect("the listing parses");
            assert!(value["data"].as_array().is_some_and(|a| a.len() == assets));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();

    let prefs = Prefs {
        lang: Lang::En,
        screen: Screen::Start,
        ..Prefs::default()
    };
    let ctx = egui::Context::default();
    let desk_app = DeskApp::new(core, prefs, &ctx);
    let mut desk = Harness::builder()
        .with_size(SIZE)
        .with_context_setup(license_desk::ui::kit::fonts::install_with_theme)
        .build_ui_state(|ui, app: &mut DeskApp| app.root_ui(ui), desk_app);
    desk.step();
    let opened: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            desk.state_mut().prefs.screen = Screen::Start;
            desk.step();
            let start = Instant::now();
            desk.state_mut().open_customer(&global_id);
            wait_for(&mut desk, "From National, read at");
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();

    println!("| one enterprise, {assets} assets, {events} timeline entries | median | longest |");
    println!("|---|---|---|");
    for (what, mut times) in [
        ("page kept, loaded by the core", cached),
        ("page opened in the window, from the click to drawn", opened),
        ("baseline: serde_json parsing the listing answer", parsed),
    ] {
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let longest = times[times.len() - 1];
        println!("| {what} | {median:.1} ms | {longest:.1} ms |");
    }
    println!("| (the page read from the platform once, for comparison) | {read_ms:.0} ms | |");
}

fn read_page(global_id: &str) -> customer::ReadPage {
    customer::ReadPage {
        profile: PROFILE.to_owned(),
        id: global_id.to_owned(),
    }
}

/// `events` locks of the enterprise's assets (each its own call, as a clerk's clicks), a few
/// in flight at a time.
fn timeline(core: &license_desk::core::Core, assets: usize, events: usize) {
    let mut in_flight = std::collections::VecDeque::new();
    for k in 0..events {
        let lock = calls::Lock {
            profile: PROFILE.to_owned(),
            nums: vec![format!("9{:09}", k % assets)],
            operator: None,
        };
        in_flight.push_back(core.ask(lock));
        if in_flight.len() == SENDERS
            && let Some(oldest) = in_flight.pop_front()
        {
            answered(oldest);
        }
    }
    for pending in in_flight {
        answered(pending);
    }
}

/// Waits for one answer, which must be a call done.
fn answered<T: std::fmt::Debug>(pending: license_desk::core::Pending<T>) {
    let reply = pending.wait(Duration::from_secs(60));
    assert!(reply.is_ok(), "{reply:?}");
}

fn wait_for<S>(h: &mut Harness<'_, S>, label: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.query_by_label_contains(label).is_none() {
        assert!(Instant::now() < deadline, "never saw {label}");
        h.step();
    }
}

fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
