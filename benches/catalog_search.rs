//! Searching the catalog and the directory as a clerk types: 50,000 products and 100,000
//! customers, each query answered from the search keys (names, ids, pinyin whole and by
//! initials), beside a plain substring scan of the same names and ids in the same run.
//!
//! `cargo bench --bench catalog_search`

use std::time::{Duration, Instant};

use license_desk::core::catalog::search::{Entry, SearchIndex};

const PRODUCTS: usize = 50_000;
const CUSTOMERS: usize = 100_000;
const RUNS: usize = 21;

const WORDS: &[&str] = &[
    "计价",
    "算量",
    "钢筋",
    "材料",
    "安装",
    "市政",
    "造价",
    "云",
    "网络版",
    "单机版",
    "翻样",
    "管理",
    "北京",
    "上海",
    "广州",
    "深圳",
    "杭州",
    "成都",
    "示例",
    "科技",
    "贸易",
    "建设",
    "工程",
    "有限公司",
];

fn name(i: usize, parts: usize) -> String {
    (0..parts)
        .map(|k| WORDS[(i / WORDS.len().pow(k as u32) + k * 7) % WORDS.len()])
        .collect()
}

fn main() {
    let products: Vec<(String, String)> = (0..PRODUCTS)
        .map(|i| (name(i, 3), format!("gms:{i}")))
        .collect();
    let customers: Vec<(String, String)> = (0..CUSTOMERS)
        .map(|i| (name(i * 31, 4), format!("S-{i:06}")))
        .collect();
    for (what, items, queries) in [
        (
            "50,000 products",
            &products,
            ["jjrj", "计价 网络", "gms:4711", "zzz"],
        ),
        (
            "100,000 customers",
            &customers,
            ["bjsl", "上海 贸易", "S-04711", "zzz"],
        ),
    ] {
        let start = Instant::now();
        let index = SearchIndex::new(items.iter().map(|(n, id)| Entry {
            names: vec![n.as_str()],
            ids: vec![id.as_str()],
            last_used: 0,
        }));
        let built = start.elapsed();
        let plain: Vec<String> = items
            .iter()
            .map(|(n, id)| format!("{}\u{1}{}", n.to_lowercase(), id.to_lowercase()))
            .collect();
        println!(
            "{what}: keys built in {:.0} ms (once, off the window's thread)",
            ms(built)
        );
        println!("| query | plain substring scan | License Desk's search | ratio |");
        println!("|---|---|---|---|");
        for q in queries {
            let (mut ours, mut base) = (Vec::new(), Vec::new());
            for _ in 0..RUNS {
                let start = Instant::now();
                std::hint::black_box(index.find(q, 30));
                ours.push(start.elapsed());
                let start = Instant::now();
                let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
                let found: Vec<usize> = (0..plain.len())
                    .filter(|&i| words.iter().all(|w| plain[i].contains(w.as_str())))
                    .collect();
                std::hint::black_box(found);
                base.push(start.elapsed());
            }
            let (ours, base) = (median(ours), median(base));
            println!(
                "| `{q}` | {:.2} ms | {:.2} ms | {:.1}× |",
                ms(base),
                ms(ours),
                ms(ours) / ms(base)
            );
        }
        println!();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}
