//! The Renewals screen with a national directory read (issue 38): 1,000 enterprises and
//! 1,000,000 assets on `license-desk serve` (a child process, so the figures are the
//! console's), read through the console's core, then the real window (egui_kittest, no GPU)
//! opened on Renewals. Measured in the same run: the whole process's PSS with the view open,
//! and the CPU time of frames that filter (typing in *Find*), re-sort (a column's title),
//! switch the chart's grouping and change the window, beside a bare `egui_extras` table of
//! the same rows with a substring filter and a bare `egui_plot` of the same bars.
//!
//! `cargo bench --bench renewals_view` (`RENEWALS_ENTERPRISES`, `RENEWALS_PER_ENTERPRISE`
//! make it smaller).

use test_support::bench::renewals_seed;

use std::time::{Duration, Instant};

use egui_extras::{Column, TableBuilder};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use egui_plot::{Bar, BarChart, Plot};
use license_desk::core::progress::Progress;
use license_desk::core::renewals;
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Prefs, Screen};
use renewals_seed::{National, PROFILE, run};

const SIZE: egui::Vec2 = egui::vec2(1280.0, 800.0);
const ROUNDS: usize = 10;

fn main() {
    let national = National::start();
    let (enterprises, per) = (national.enterprises, national.per);
    let dir = tempfile::tempdir().expect("temp dir");
    let core = national.console(dir.path());
    run(
        &core,
        license_desk::core::profiles::requests::Activate {
            name: PROFILE.to_owned(),
        },
    );
    run(
        &core,
        renewals::ReadAll {
            profile: PROFILE.to_owned(),
            progress: Progress::default(),
        },
    );
    let idle = pss_mib();

    let prefs = Prefs {
        lang: Lang::En,
        screen: Screen::Renewals,
        ..Prefs::default()
    };
    let ctx = egui::Context::default();
    let desk_app = DeskApp::new(core, prefs, &ctx);
    let mut desk = Harness::builder()
        .with_size(SIZE)
        .with_context_setup(license_desk::ui::kit::fonts::install_with_theme)
        .build_ui_state(|ui, app: &mut DeskApp| app.root_ui(ui), desk_app);
    let opened = Instant::now();
    wait_for(&mut desk, "Read from");
    let open_ms = opened.elapsed().as_secs_f64() * 1000.0;
    for _ in 0..5 {
        desk.step();
    }
    let open_pss = pss_mib();

    let ours = [
        ("typing in Find", typing(&mut desk, "Find")),
        (
            "re-sorting",
            clicks(&mut desk, &["Asset number", "Customer", "Days left"]),
        ),
        ("typing in Find, sorted by customer", {
            clicks(&mut desk, &["Customer"]);
            typing(&mut desk, "Find")
        }),
        (
            "switching the grouping",
            clicks(&mut desk, &["By branch", "By license type"]),
        ),
        (
            "changing the window",
            clicks(&mut desk, &["365 days", "30 days", "90 days"]),
        ),
    ];
    let rows = enterprises * per;
    let mut bare = Harness::builder()
        .with_size(SIZE)
        .with_context_setup(license_desk::ui::kit::fonts::install_with_theme)
        .build_ui_state(|ui, bare: &mut Bare| bare.ui(ui), Bare::new(rows));
    bare.step();
    let bare_filter = typing(&mut bare, "Find");
    let bare_plot = clicks(&mut bare, &["Regroup"]);

    println!(
        "| {enterprises} enterprises, {rows} assets | Renewals: max | p99 | bare: max | p99 |"
    );
    println!("|---|---|---|---|---|");
    for (what, (max, p99)) in ours {
        let base = match what {
            "typing in Find" | "typing in Find, sorted by customer" => Some(bare_filter),
            "switching the grouping" => Some(bare_plot),
            _ => None,
        };
        let base = base.map_or_else(
            || "| |".to_owned(),
            |(m, p)| format!("{m:.1} ms | {p:.1} ms |"),
        );
        println!("| frame, {what} | {max:.1} ms | {p99:.1} ms | {base}");
    }
    println!("| the view opened from the cache | {open_ms:.0} ms | | | |");
    println!(
        "| whole process PSS, before the window (the read dropped) | {idle:.0} MiB | with the view open | {open_pss:.0} MiB | |"
    );
}

fn wait_for<S>(h: &mut Harness<'_, S>, label: &str) {
    let deadline = Instant::now() + Duration::from_secs(600);
    while h.query_by_label_contains(label).is_none() {
        assert!(Instant::now() < deadline, "never saw {label}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Frames each with one key typed into (or erased from) the field: (max, p99) in ms.
fn typing<S>(h: &mut Harness<'_, S>, field: &str) -> (f64, f64) {
    h.get_by_label(field).focus();
    h.step();
    let mut times = Vec::new();
    for _ in 0..ROUNDS {
        for c in "9000123".chars() {
            h.event(egui::Event::Text(c.to_string()));
            times.push(frame(h));
        }
        for _ in 0..7 {
            h.key_press(egui::Key::Backspace);
            times.push(frame(h));
        }
    }
    stats(&mut times)
}

/// Frames each after a click on one of the labels, in turn: (max, p99) in ms.
fn clicks<S>(h: &mut Harness<'_, S>, labels: &[&str]) -> (f64, f64) {
    let mut times = Vec::new();
    for _ in 0..ROUNDS {
        for label in labels {
            // A button whose name starts so: a column's title carries its sort arrow, and
            // "Customer" must not be the navigation's "Customers".
            let node = h
                .query_all_by_label_contains(label)
                .find(|n| {
                    let node = n.accesskit_node();
                    let name = node.label().unwrap_or_default();
                    name.starts_with(label) && !NAVIGATION.contains(&name.as_str())
                })
                .unwrap_or_else(|| panic!("no button {label}"));
            node.click();
            times.push(frame(h));
            // The click's own frame, then the one that draws what it changed.
            times.push(frame(h));
        }
    }
    stats(&mut times)
}

/// The navigation's names, which a search by label must pass over.
const NAVIGATION: [&str; 12] = [
    "Start",
    "Customers",
    "Renewals",
    "Orders",
    "Catalog",
    "Assets",
    "Activities",
    "Asset numbers",
    "Send later",
    "History",
    "Approvals",
    "Settings",
];

fn frame<S>(h: &mut Harness<'_, S>) -> Duration {
    let start = Instant::now();
    h.step();
    start.elapsed()
}

fn stats(times: &mut [Duration]) -> (f64, f64) {
    times.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (
        ms(times[times.len() - 1]),
        ms(times[times.len() * 99 / 100]),
    )
}

/// This process's PSS in MiB.
fn pss_mib() -> f64 {
    let text = std::fs::read_to_string("/proc/self/smaps_rollup").expect("smaps_rollup");
    text.lines()
        .find_map(|l| l.strip_prefix("Pss:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse::<f64>().ok())
        .expect("Pss")
        / 1024.0
}

/// The nearest thing to the limit: egui_extras' own table over the same number of rows with a
/// substring filter, and egui_plot's own stacked bars, and nothing else.
struct Bare {
    nums: Vec<String>,
    filter: String,
    view: Vec<u32>,
    grouped: bool,
}

impl Bare {
    fn new(rows: usize) -> Self {
        let nums: Vec<String> = (0..rows).map(|i| format!("9{i:09}")).collect();
        let view = (0..rows as u32).collect();
        Self {
            nums,
            filter: String::new(),
            view,
            grouped: false,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let label = ui.label("Find");
        if ui
            .text_edit_singleline(&mut self.filter)
            .labelled_by(label.id)
            .changed()
        {
            let needle = self.filter.as_str();
            self.view = (0..self.nums.len() as u32)
                .filter(|i| self.nums[*i as usize].contains(needle))
                .collect();
        }
        if ui.button("Regroup").clicked() {
            self.grouped = !self.grouped;
        }
        let groups = if self.grouped { 6 } else { 4 };
        let mut charts: Vec<BarChart> = Vec::new();
        for g in 0..groups {
            let bars = (0..12)
                .map(|m| Bar::new(m as f64, ((m * 7 + g * 3) % 11) as f64))
                .collect();
            let below: Vec<&BarChart> = charts.iter().collect();
            charts.push(BarChart::new(format!("g{g}"), bars).stack_on(&below));
        }
        Plot::new("bare_plot").height(170.0).show(ui, |plot| {
            for chart in charts {
                plot.bar_chart(chart);
            }
        });
        TableBuilder::new(ui)
            .striped(true)
            .columns(Column::exact(120.0), 9)
            .body(|body| {
                body.rows(22.0, self.view.len(), |mut row| {
                    let num = &self.nums[self.view[row.index()] as usize];
                    for _ in 0..9 {
                        row.col(|ui| {
                            ui.label(num);
                        });
                    }
                });
            });
    }
}
