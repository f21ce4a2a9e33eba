//! What the bundled Chinese font costs in memory: the resident set of a process that lays out
//! and tessellates a page of text with egui, with egui's own fonts only (the baseline), with the
//! bundled Noto Sans SC subset installed, and with that font drawing a page of Chinese text
//! (its glyphs in the atlas). Each case runs in its own process, so allocations of one do not
//! hide in another's heap.
//!
//! `cargo bench --bench font_memory`

use std::process::Command;

const CASES: [(&str, &str); 3] = [
    ("baseline", "egui's fonts, a Latin page"),
    ("installed", "+ the bundled CJK font, the same Latin page"),
    (
        "chinese",
        "+ the bundled CJK font, a page of 1,000 distinct Chinese characters",
    ),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--case") {
        let case = args.get(i + 1).map(String::as_str).unwrap_or("baseline");
        println!("{}", measure(case));
        return;
    }
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("cannot find this program: {e}");
            std::process::exit(1);
        }
    };
    let mut results = Vec::new();
    for (case, what) in CASES {
        let output = Command::new(&exe).args(["--case", case]).output();
        let kib: i64 = match output {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
                .trim()
                .parse()
                .unwrap_or(0),
            Ok(o) => {
                eprintln!("{case} failed: {}", String::from_utf8_lossy(&o.stderr));
                std::process::exit(1);
            }
            Err(e) => {
                eprintln!("{case} did not run: {e}");
                std::process::exit(1);
            }
        };
        results.push((case, what, kib));
    }
    let base = results[0].2;
    println!("| case | resident set | over the baseline |");
    println!("|---|---|---|");
    for (_, what, kib) in &results {
        println!(
            "| {what} | {:.1} MiB | {:+.1} MiB |",
            *kib as f64 / 1024.0,
            (kib - base) as f64 / 1024.0
        );
    }
}

/// Lays out and tessellates a few frames of text; answers the resident set in KiB.
fn measure(case: &str) -> i64 {
    let ctx = egui::Context::default();
    if case != "baseline" {
        license_desk::ui::kit::fonts::install(&ctx);
    }
    let latin =
        "License Desk: customers, orders, assets, locks and activities. 0123456789 ".repeat(20);
    // The first 1,000 characters of GB2312's level-1 hanzi, all in the subset.
    let chinese: String = (0xB0u8..=0xD7)
        .flat_map(|hi| (0xA1u8..=0xFE).map(move |lo| [hi, lo]))
        .map(|b| {
            encoding_rs::GBK
                .decode_without_bom_handling(&b)
                .0
                .into_owned()
        })
        .filter(|c| c.chars().count() == 1 && c != "\u{FFFD}")
        .take(1000)
        .collect();
    if chinese.chars().count() != 1000 {
        eprintln!("expected 1,000 characters, got {}", chinese.chars().count());
        std::process::exit(1);
    }
    let text = if case == "chinese" { chinese } else { latin };
    for _ in 0..3 {
        let output = ctx.run_ui(egui::RawInput::default(), |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                ui.label(text.as_str());
            });
        });
        let _ = ctx.tessellate(output.shapes, output.pixels_per_point);
    }
    resident_kib()
}

fn resident_kib() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
