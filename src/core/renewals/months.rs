//! What ends per month for the next twelve months, by license type or by branch: the counts
//! Renewals' chart draws, worked out in one pass over the rows when the read or the grouping
//! changes.

use jiff::civil::Date;
use jiff::tz::TimeZone;

use super::{Read, Window};

/// Groups drawn apart; the rest are summed as one.
const SHOWN_GROUPS: usize = 6;

/// What the bars are split by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grouping {
    #[default]
    LicenseType,
    Branch,
}

/// One group's count per month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The license type's code or the branch; None for rows without a branch, and for the
    /// rest summed.
    pub group: Option<String>,
    /// Whether it is the rest of the groups summed.
    pub rest: bool,
    pub counts: [u32; 12],
}

/// The twelve months from the start of this one, and what ends in each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Months {
    /// The first day of each month, and of the month after the last.
    pub firsts: Vec<Date>,
    /// Each month's start in epoch milliseconds, and the end of the last.
    pub bounds: Vec<i64>,
    pub series: Vec<Series>,
}

impl Months {
    pub fn of(read: &Read, today: Date, tz: &TimeZone, grouping: Grouping) -> Option<Months> {
        let first = today.first_of_month();
        let firsts: Vec<Date> = (0..=12)
            .map(|k| first.checked_add(jiff::Span::new().months(k)).ok())
            .collect::<Option<_>>()?;
        let bounds: Vec<i64> = firsts
            .iter()
            .map(|d| Some(d.to_zoned(tz.clone()).ok()?.timestamp().as_millisecond()))
            .collect::<Option<_>>()?;
        let mut groups = Groups::default();
        // Each row's group by number: its enterprise's branch's, or its license type's.
        let by_enterprise: Vec<usize> = match grouping {
            Grouping::Branch => read
                .enterprises
                .iter()
                .map(|e| groups.number(e.branch.clone()))
                .collect(),
            Grouping::LicenseType => Vec::new(),
        };
        let mut by_type: Vec<Option<usize>> = Vec::new();
        for r in read.table.iter() {
            let month = bounds.partition_point(|b| *b <= r.end());
            if r.trouble().is_some() || month == 0 || month > 12 {
                continue;
            }
            let group = match grouping {
                Grouping::Branch => by_enterprise.get(r.enterprise()).copied().unwrap_or(0),
                Grouping::LicenseType => {
                    let sym = r.ids().license_type as usize;
                    if by_type.len() <= sym {
                        by_type.resize(sym + 1, None);
                    }
                    match by_type[sym] {
                        Some(g) => g,
                        None => {
                            let g = groups.number(Some(r.license_type().to_owned()));
                            by_type[sym] = Some(g);
                            g
                        }
                    }
                }
            };
            groups.counts[group][month - 1] += 1;
        }
        let Groups { names, counts, .. } = groups;
        Some(Months {
            firsts,
            bounds,
            series: biggest(names, counts),
        })
    }

    /// The window of month `m` (0 is this one).
    pub fn window(&self, m: usize) -> Option<Window> {
        Some(Window {
            from: *self.bounds.get(m)?,
            until: *self.bounds.get(m + 1)?,
        })
    }
}

/// The groups met so far, numbered.
#[derive(Default)]
struct Groups {
    names: Vec<Option<String>>,
    counts: Vec<[u32; 12]>,
    index: std::collections::HashMap<Option<String>, usize>,
}

impl Groups {
    fn number(&mut self, name: Option<String>) -> usize {
        if let Some(g) = self.index.get(&name) {
            return *g;
        }
        self.names.push(name.clone());
        self.counts.push([0; 12]);
        self.index.insert(name, self.names.len() - 1);
        self.names.len() - 1
    }
}

/// The biggest groups apart, biggest first, and the rest summed.
fn biggest(names: Vec<Option<String>>, counts: Vec<[u32; 12]>) -> Vec<Series> {
    let mut all: Vec<Series> = names
        .into_iter()
        .zip(counts)
        .map(|(group, counts)| Series {
            group,
            rest: false,
            counts,
        })
        .collect();
    all.retain(|s| s.counts.iter().any(|n| *n > 0));
    all.sort_by_key(|s| std::cmp::Reverse(s.counts.iter().sum::<u32>()));
    if all.len() <= SHOWN_GROUPS {
        return all;
    }
    let rest = all.split_off(SHOWN_GROUPS - 1);
    let mut summed = [0; 12];
    for s in &rest {
        for (m, n) in s.counts.iter().enumerate() {
            summed[m] += n;
        }
    }
    all.push(Series {
        group: None,
        rest: true,
        counts: summed,
    });
    all
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::core::renewals::{EnterpriseRead, ReadState, Table};

    const DAY: i64 = 86_400_000;

    /// Today 2026-12-10 in UTC; rows ending this month, next month and in 13 months.
    #[test]
    fn each_month_counts_its_rows_by_type_or_by_branch() {
        let dec_1: i64 = 1_796_083_200_000;
        let asset = |num: &str, kind: &str, end: i64| {
            json!({"id": num, "assetNum": num, "licenseType": kind, "customerId": "C",
                   "products": [{"productUri": "gms:1", "limitEndDate": end}]})
        };
        let mut table = Table::default();
        let list = |v| serde_json::from_value(v).expect("a listing");
        table.add_listing(
            0,
            &list(json!([
                asset("A", "cloud", dec_1 + 20 * DAY),
                asset("B", "lock", dec_1 + 40 * DAY)
            ])),
        );
        table.add_listing(
            1,
            &list(json!([
                asset("C", "cloud", dec_1 + 45 * DAY),
                asset("D", "cloud", dec_1 + 400 * DAY)
            ])),
        );
        let enterprise = |id: &str, branch: Option<&str>| EnterpriseRead {
            global_id: id.to_owned(),
            name: None,
            customer_name: None,
            branch: branch.map(str::to_owned),
            channel_code: None,
            state: ReadState::Read,
            assets: 2,
            undated: 0,
        };
        let read = Read {
            profile: "P".to_owned(),
            started_at: 0,
            ended_at: 0,
            enterprises: vec![enterprise("E1", Some("east")), enterprise("E2", None)],
            table,
            stop: None,
            orders: Default::default(),
        };
        let today = jiff::civil::date(2026, 12, 10);
        let utc = TimeZone::UTC;
        let by_type = Months::of(&read, today, &utc, Grouping::LicenseType).expect("months");
        assert_eq!(by_type.bounds[0], dec_1);
        let counts = |m: &Months, group: Option<&str>| {
            m.series
                .iter()
                .find(|s| s.group.as_deref() == group)
                .map(|s| s.counts[..3].to_vec())
        };
        assert_eq!(counts(&by_type, Some("cloud")), Some(vec![1, 1, 0]));
        assert_eq!(counts(&by_type, Some("lock")), Some(vec![0, 1, 0]));
        let by_branch = Months::of(&read, today, &utc, Grouping::Branch).expect("months");
        assert_eq!(counts(&by_branch, Some("east")), Some(vec![1, 1, 0]));
        assert_eq!(counts(&by_branch, None), Some(vec![0, 1, 0]));
        assert_eq!(
            by_branch.window(1).map(|w| w.from),
            Some(by_branch.bounds[1])
        );
    }
}
