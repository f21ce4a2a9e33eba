//! The window's thread with a 10,000-order batch open in the composer: the longest frame (and
//! the median) while typing in the batch's header and in an order, while the typing settles
//! (its undo step at 0.7 s, its autosave at 0.8 s), while a problem just typed is checked until
//! it is listed, and while the batch is exported as JSON until the export is done. Each frame is
//! a whole frame of the real app (layout, the composer's work, the core's answers applied).
//! Target: no frame over 8 ms.
//!
//! `cargo bench --bench composer_frames`

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{FileOnDisk, ORDERS, app, median, order_file, wait_for};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use license_desk::ui::DeskApp;

const RUNS: usize = 3;
const TARGET_MS: f64 = 8.0;

/// The frames of one kind of work, over every run: the longest of each run, and all of them.
#[derive(Default)]
struct Phase {
    longest: Vec<Duration>,
    frames: Vec<Duration>,
    /// How long the work took until its result was shown (when it has one).
    until_shown: Vec<Duration>,
}

impl Phase {
    fn take(&mut self, frames: Vec<Duration>) {
        self.longest
            .push(frames.iter().copied().max().unwrap_or_default());
        self.frames.extend(frames);
    }
}

type App = Harness<'static, DeskApp>;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("ten-thousand.json");
    std::fs::write(&file, order_file()).expect("file");
    let export = dir.path().join("exported.json");
    let names = [
        "typing in the batch's header (Channel code), a key a frame",
        "typing in an order (Customer name), a key a frame",
        "the pauses after typing: its undo step (0.7 s) and autosave (0.8 s)",
        "a problem typed (an order's customer id erased), checked until listed",
        "Export: the batch written as JSON until done",
    ];
    let mut phases: Vec<Phase> = names.iter().map(|_| Phase::default()).collect();
    for run in 0..RUNS {
        let mut h = app(&dir.path().join(format!("run-{run}")));
        wait_for(&mut h, "Batch LD-");
        h.input_mut()
            .dropped_files
            .push(Arc::new(FileOnDisk(file.clone())));
        wait_for(&mut h, "Batch BENCH-10K");
        // The import's own answers (the drafts' list) come in first.
        frames_for(&mut h, Duration::from_millis(1_500));

        phases[0].take(typing(&mut h, "Channel code", "ABCDEFGHIJ"));
        phases[2].take(frames_for(&mut h, Duration::from_millis(1_500)));
        // The order's row, not its open/close button (named for the row too).
        h.query_all_by_label_contains("#1 New purchase")
            .find(|n| {
                n.accesskit_node()
                    .label()
                    .is_some_and(|l| l.starts_with('#'))
            })
            .expect("the order's row")
            .click();
        h.step();
        phases[1].take(typing(&mut h, "Customer name", "北京示例科技有限公司二"));
        phases[2].take(frames_for(&mut h, Duration::from_millis(1_500)));

        let start = Instant::now();
        let frames = erase_until(&mut h, "Channel customer id", "Order 1 › ");
        phases[3].until_shown.push(start.elapsed());
        phases[3].take(frames);
        phases[2].take(frames_for(&mut h, Duration::from_millis(1_500)));

        let (frames, took) = export_frames(&mut h, &export);
        phases[4].until_shown.push(took);
        phases[4].take(frames);
    }
    println!("a batch of {ORDERS} orders open; {RUNS} runs; frames of the whole app");
    println!(
        "| with {ORDERS} orders open | longest frame (median of runs) | median frame | until shown | target {TARGET_MS} ms |"
    );
    println!("|---|---|---|---|---|");
    for (name, mut phase) in names.into_iter().zip(phases) {
        let longest = median(&mut phase.longest);
        let until = if phase.until_shown.is_empty() {
            "—".to_owned()
        } else {
            format!("{:.0} ms", median(&mut phase.until_shown))
        };
        let verdict = if longest <= TARGET_MS {
            "met"
        } else {
            "missed"
        };
        println!(
            "| {name} | {longest:.1} ms | {:.2} ms | {until} | {verdict} |",
            median(&mut phase.frames)
        );
    }
}

/// Frames stepped for `span`, each timed.
fn frames_for(h: &mut App, span: Duration) -> Vec<Duration> {
    let start = Instant::now();
    let mut frames = Vec::new();
    while start.elapsed() < span {
        frames.push(timed(h));
    }
    frames
}

fn timed(h: &mut App) -> Duration {
    let start = Instant::now();
    h.step();
    start.elapsed()
}

/// Types `text` into the field labelled `label`, a character a frame.
fn typing(h: &mut App, label: &str, text: &str) -> Vec<Duration> {
    h.get_by_label(label).focus();
    h.step();
    text.chars()
        .map(|c| {
            h.event(egui::Event::Text(c.to_string()));
            timed(h)
        })
        .collect()
}

/// Erases the field labelled `label` and steps until a problem containing `listed` shows.
fn erase_until(h: &mut App, label: &str, listed: &str) -> Vec<Duration> {
    h.get_by_label(label).focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    let mut frames = vec![timed(h)];
    h.key_press(egui::Key::Backspace);
    frames.push(timed(h));
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.query_by_label_contains(listed).is_none() {
        assert!(Instant::now() < deadline, "{listed} never listed");
        frames.push(timed(h));
    }
    frames
}

/// Names the file, clicks Export, and steps until the export is said done: the frames from
/// the click on, and how long it took.
fn export_frames(h: &mut App, path: &std::path::Path) -> (Vec<Duration>, Duration) {
    h.get_by_label("File").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.get_by_label("File")
        .type_text(&path.display().to_string());
    h.step();
    let _ = std::fs::remove_file(path);
    h.get_by_label("Export").click();
    let start = Instant::now();
    let mut frames = Vec::new();
    let deadline = start + Duration::from_secs(60);
    while h.query_by_label_contains("Exported").is_none() {
        assert!(Instant::now() < deadline, "never exported");
        frames.push(timed(h));
    }
    let took = start.elapsed();
    assert!(path.exists(), "the export is written");
    (frames, took)
}
