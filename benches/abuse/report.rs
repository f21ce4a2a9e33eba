//! The report's lines: a step's heading, the figure before the fixes, the figures now, and
//! whether the limit held.

use std::time::Duration;

pub fn heading(n: u8, title: &str) {
    eprintln!("[{n}] {title}");
    println!();
    println!("{n}. {title}");
}

pub fn before(text: &str) {
    println!("   before (issue 19): {text}");
}

/// A line of what was measured now; the first one labelled.
pub fn now(first: bool, text: &str) {
    let label = if first { "now:" } else { "" };
    println!("   {label:<18} {text}");
}

pub fn held(ok: bool, why: &str) {
    let verdict = if ok { "yes" } else { "NO" };
    println!("   limit held: {verdict} — {why}");
}

pub fn fmt_dur(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}
