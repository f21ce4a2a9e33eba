//! What the Renewals table shows of a read: the rows in each column's order, sorted once off
//! the window's thread, and a filter that walks one of those orders keeping the rows that
//! match. A million rows are filtered in one pass of number comparisons and a substring search
//! of each asset number; nothing is sorted while the window draws.

use memchr::memmem::Finder;

use super::{Read, RowRef, Window};

/// The columns the table sorts by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortBy {
    /// The end date, which is the days left.
    End,
    Customer,
    Asset,
    Product,
    Branch,
    LicenseType,
}

impl SortBy {
    pub const ALL: [SortBy; 6] = [
        SortBy::End,
        SortBy::Customer,
        SortBy::Asset,
        SortBy::Product,
        SortBy::Branch,
        SortBy::LicenseType,
    ];
}

/// The rows' positions in each column's order; ties by end date.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Orders(Vec<(SortBy, Vec<u32>)>);

impl Orders {
    pub fn of(read: &Read) -> Orders {
        Orders(
            SortBy::ALL
                .iter()
                .map(|by| (*by, sorted(read, *by)))
                .collect(),
        )
    }

    pub fn by(&self, by: SortBy) -> &[u32] {
        self.0
            .iter()
            .find(|(b, _)| *b == by)
            .map(|(_, order)| order.as_slice())
            .unwrap_or_default()
    }
}

fn sorted(read: &Read, by: SortBy) -> Vec<u32> {
    let table = &read.table;
    let mut order: Vec<u32> = (0..u32::try_from(table.len()).unwrap_or(u32::MAX)).collect();
    let row = |i: &u32| table.get(*i as usize);
    // Enterprises and shared values are ranked once; each row then sorts by numbers.
    let by_enterprise = |key: fn(&super::EnterpriseRead) -> String| {
        let keys: Vec<String> = read.enterprises.iter().map(key).collect();
        ranks(&keys)
    };
    let values = table.symbol_ranks();
    match by {
        SortBy::End => order.sort_by_key(|i| row(i).end()),
        SortBy::Asset => {
            order.sort_by(|a, b| {
                (row(a).asset_num(), row(a).end()).cmp(&(row(b).asset_num(), row(b).end()))
            });
        }
        SortBy::Customer | SortBy::Branch => {
            let rank = if by == SortBy::Customer {
                by_enterprise(|e| {
                    let name = e.name.as_ref().or(e.customer_name.as_ref());
                    format!("{}\u{0}{}", name.cloned().unwrap_or_default(), e.global_id)
                })
            } else {
                by_enterprise(|e| e.branch.clone().unwrap_or_default())
            };
            order.sort_by_key(|i| (rank.get(row(i).enterprise()).copied(), row(i).end()));
        }
        SortBy::Product | SortBy::LicenseType => {
            order.sort_by_key(|i| {
                let ids = row(i).ids();
                let value = match by {
                    SortBy::Product if ids.product_name != 0 => ids.product_name,
                    SortBy::Product => ids.product_uri,
                    _ => ids.license_type,
                };
                (values.get(value as usize).copied(), row(i).end())
            });
        }
    }
    order
}

/// Each key's place among the keys sorted.
fn ranks(keys: &[String]) -> Vec<u32> {
    let mut sorted: Vec<&String> = keys.iter().collect();
    sorted.sort_unstable();
    keys.iter()
        .map(|k| sorted.partition_point(|s| *s < k) as u32)
        .collect()
}

/// What the table keeps of the rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Rows that end in it; None: every row with an end that can be counted.
    pub window: Option<Window>,
    /// Found in the customer's or enterprise's names and ids, the asset number or the
    /// product, ignoring case.
    pub text: String,
    pub license_type: Option<String>,
    pub branch: Option<String>,
}

impl Filter {
    /// The rows that match, in `by`'s order (reversed when not `ascending`).
    pub fn apply(&self, read: &Read, orders: &Orders, by: SortBy, ascending: bool) -> Vec<u32> {
        let typed = self.text.trim();
        let needle = typed.to_lowercase();
        // Asset numbers are searched as typed and in either case, without a copy of each.
        let mut cases = vec![typed.to_owned(), needle.clone(), typed.to_uppercase()];
        // Digits are one case: one search, not three.
        cases.sort_unstable();
        cases.dedup();
        let finders: Vec<Finder<'_>> = cases.iter().map(|c| Finder::new(c.as_bytes())).collect();
        let holds = |s: &str| s.to_lowercase().contains(&needle);
        // Per enterprise and per shared value once; per row only numbers and the asset number.
        let branch_ok: Vec<bool> = read
            .enterprises
            .iter()
            .map(|e| self.branch.is_none() || e.branch == self.branch)
            .collect();
        let named: Vec<bool> = read
            .enterprises
            .iter()
            .map(|e| {
                holds(&e.global_id)
                    || [&e.name, &e.customer_name]
                        .into_iter()
                        .flatten()
                        .any(|s| holds(s))
            })
            .collect();
        let values = read.table.symbols_matching(holds);
        let text_ok = |r: &RowRef<'_>| {
            needle.is_empty()
                || named.get(r.enterprise()).copied().unwrap_or(false)
                || r.ids().text().iter().any(|s| values[*s as usize])
                || finders
                    .iter()
                    .any(|f| f.find(r.asset_num().as_bytes()).is_some())
        };
        let keep = |i: &&u32| {
            let r = read.table.get(**i as usize);
            branch_ok.get(r.enterprise()).copied().unwrap_or(false)
                && match self.window {
                    Some(w) => w.holds(&r),
                    None => r.trouble().is_none(),
                }
                && self
                    .license_type
                    .as_deref()
                    .is_none_or(|t| t == r.license_type())
                && text_ok(&r)
        };
        let mut order = orders.by(by);
        if let (SortBy::End, Some(w)) = (by, self.window) {
            // In the end dates' order the window is one run: only it is looked at.
            let end = |i: &u32| read.table.get(*i as usize).end();
            let from = order.partition_point(|i| end(i) < w.from);
            let until = order.partition_point(|i| end(i) < w.until);
            order = &order[from..until.max(from)];
        }
        if ascending {
            order.iter().filter(keep).copied().collect()
        } else {
            order.iter().rev().filter(keep).copied().collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::core::renewals::{EnterpriseRead, ReadState, Table};
    use wire::AssetList;

    const DAY: i64 = 86_400_000;

    fn enterprise(id: &str, name: &str, branch: &str) -> EnterpriseRead {
        EnterpriseRead {
            global_id: id.to_owned(),
            name: Some(name.to_owned()),
            customer_name: None,
            branch: Some(branch.to_owned()),
            channel_code: None,
            state: ReadState::Read,
            assets: 0,
            undated: 0,
        }
    }

    /// Two enterprises: 乙 (east) with A1 (cloud, 30 days) and A2 (lock, 5 days); 甲 (west)
    /// with B1 (cloud, 10 days) and B2 (cloud, ends before it starts).
    fn read() -> Read {
        let listing = |assets: serde_json::Value| -> AssetList {
            serde_json::from_value(assets).expect("a listing")
        };
        let asset = |num: &str, kind: &str, product: &str, start: i64, end: i64| {
            json!({"id": num, "assetNum": num, "licenseType": kind, "customerId": "CU-".to_owned() + num,
                   "products": [{"productUri": product, "productName": product.to_uppercase(),
                                 "limitStartDate": start, "limitEndDate": end}]})
        };
        let mut table = Table::default();
        table.add_listing(
            0,
            &listing(json!([
                asset("A1", "cloud", "gms:1", 1, 30 * DAY),
                asset("A2", "lock", "gms:2", 1, 5 * DAY)
            ])),
        );
        table.add_listing(
            1,
            &listing(json!([
                asset("B1", "cloud", "gms:1", 1, 10 * DAY),
                asset("B2", "cloud", "gms:3", 20 * DAY, 2 * DAY)
            ])),
        );
        let mut read = Read {
            profile: "P".to_owned(),
            started_at: 0,
            ended_at: 0,
            enterprises: vec![
                enterprise("EG2", "乙公司", "east"),
                enterprise("EG1", "甲公司", "west"),
            ],
            table,
            stop: None,
            orders: Orders::default(),
        };
        read.sort();
        read
    }

    fn nums(read: &Read, rows: &[u32]) -> Vec<String> {
        rows.iter()
            .map(|i| read.table.get(*i as usize).asset_num().to_owned())
            .collect()
    }

    #[test]
    fn each_column_has_its_order_and_a_reversed_one() {
        let read = read();
        let all = Filter::default();
        let order = |by, up| nums(&read, &all.apply(&read, &read.orders, by, up));
        // The reversed dates are never counted.
        assert_eq!(order(SortBy::End, true), ["A2", "B1", "A1"]);
        assert_eq!(order(SortBy::End, false), ["A1", "B1", "A2"]);
        assert_eq!(order(SortBy::Asset, true), ["A1", "A2", "B1"]);
        // 乙 (U+4E59) before 甲 (U+7532) in code-point order; within one, by end.
        assert_eq!(order(SortBy::Customer, true), ["A2", "A1", "B1"]);
        assert_eq!(order(SortBy::Branch, false), ["B1", "A1", "A2"]);
        assert_eq!(order(SortBy::Product, true), ["B1", "A1", "A2"]);
        assert_eq!(order(SortBy::LicenseType, true), ["B1", "A1", "A2"]);
    }

    #[test]
    fn the_filter_keeps_what_matches_each_condition() {
        let read = read();
        let rows = |f: Filter| nums(&read, &f.apply(&read, &read.orders, SortBy::End, true));
        let text = |t: &str| Filter {
            text: t.to_owned(),
            ..Filter::default()
        };
        assert_eq!(rows(text("甲")), ["B1"]);
        assert_eq!(rows(text("eg2")), ["A2", "A1"]);
        assert_eq!(rows(text("a1")), ["A1"]);
        assert_eq!(rows(text("cu-b")), ["B1"]);
        assert_eq!(rows(text("GMS:2")), ["A2"]);
        let typed = Filter {
            license_type: Some("cloud".to_owned()),
            branch: Some("east".to_owned()),
            ..Filter::default()
        };
        assert_eq!(rows(typed), ["A1"]);
        let soon = Filter {
            window: Some(crate::core::renewals::Window {
                from: 0,
                until: 10 * DAY,
            }),
            ..Filter::default()
        };
        assert_eq!(rows(soon), ["A2"]);
    }
}
