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
        let mut names: Vec<Option<String>> = Vec::new();
        let mut counts: Vec<[u32; 12]> = Vec::new();
        let mut index = std::collections::HashMap::<Option<String>, usize>::new();
        for r in read.table.iter() {
            if r.trouble().is_some() {
                continue;
            }
            let month = bounds.partition_point(|b| *b <= r.end());
            if month == 0 || month > 12 {
                continue;
            }
            let group = match grouping {
                Grouping::LicenseType => Some(r.license_type().to_owned()),
                Grouping::Branch => read.enterprise_of(&r).and_then(|e| e.branch.clone()),
            };
            let k = *index.entry(group.clone()).or_insert_with(|| {
                names.push(group);
                counts.push([0; 12]);
                names.len() - 1
            });
            counts[k][month - 1] += 1;
        }
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
