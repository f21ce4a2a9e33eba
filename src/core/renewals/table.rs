//! The rows of a whole directory's read, held compactly: a national directory gives a million
//! rows, which live as long as Renewals is open and in the cache file. Each row is a few
//! numbers; the asset numbers sit in one text buffer, and the values many rows share (customer
//! ids, license types, products) are interned once.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::{Sent, Source, Trouble, dated, trouble};
use wire::{AssetList, AssetRef};

/// An interned string; 0 is none.
type Sym = u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Compact {
    /// The enterprise's place in the read's list.
    enterprise: u32,
    customer: Sym,
    asset_start: u32,
    asset_len: u32,
    license_type: Sym,
    product_uri: Sym,
    product_name: Sym,
    /// 0 when none: a row is 48 bytes, not 64.
    start: i64,
    end: i64,
    source: Source,
    locked: bool,
    trouble: Option<Trouble>,
}

/// An asset whose listing dates nothing: its rows come from what was sent, once the whole
/// directory is read (the journal is read only when some asset needs it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Undated {
    enterprise: u32,
    customer: Sym,
    asset_start: u32,
    asset_len: u32,
    license_type: Sym,
    locked: bool,
}

/// A product an asset-dated row's asset holds (undated: the asset's validity is its end), so
/// that its renewal carries it (a new purchase needs a product) and the row names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Held {
    /// The row's place in [`Table::rows`]: pushed in row order, so sorted.
    row: u32,
    uri: Sym,
    name: Sym,
}

/// The rows, in the order they were read.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Table {
    text: String,
    symbols: Vec<Box<str>>,
    rows: Vec<Compact>,
    undated: Vec<Undated>,
    held: Vec<Held>,
    #[serde(skip)]
    index: HashMap<Box<str>, Sym>,
}

/// The same rows: the interning index, only there while rows are added, is not compared.
impl PartialEq for Table {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.text,
            &self.symbols,
            &self.rows,
            &self.undated,
            &self.held,
        ) == (
            &other.text,
            &other.symbols,
            &other.rows,
            &other.undated,
            &other.held,
        )
    }
}

/// What one listing gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Added {
    pub assets: u32,
    /// Assets with no date in the listing.
    pub undated: u32,
}

impl Table {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn get(&self, i: usize) -> RowRef<'_> {
        RowRef {
            table: self,
            row: &self.rows[i],
            at: u32::try_from(i).unwrap_or(u32::MAX),
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = RowRef<'_>> {
        (0..self.rows.len()).map(|i| self.get(i))
    }

    /// Each dated product of the listing gives a row; else the asset's own validity; an asset
    /// with neither waits for [`Table::add_sent`].
    pub fn add_listing(&mut self, enterprise: u32, list: &AssetList) -> Added {
        let mut added = Added::default();
        for asset in list.iter() {
            added.assets += 1;
            let base = self.base(enterprise, &asset);
            let before = self.rows.len();
            for p in asset.products() {
                if let Some(end) = dated(p.limit_end_date) {
                    let uri = self.sym(p.product_uri);
                    let name = p.product_name.map_or(0, |n| self.sym(n));
                    let start = dated(p.limit_start_date);
                    self.push(&base, (uri, name), start, end, Source::Product);
                }
            }
            if self.rows.len() > before {
                continue;
            }
            if let Some(end) = dated(asset.limit_end_time()) {
                let start = dated(asset.limit_start_time());
                let named = self.hold(&asset);
                self.push(&base, (0, named), start, end, Source::Asset);
            } else {
                added.undated += 1;
                self.undated.push(base);
            }
        }
        added
    }

    /// The asset numbers whose listing dates nothing.
    pub fn undated_assets(&self) -> impl Iterator<Item = &str> {
        self.undated
            .iter()
            .map(|u| self.text_at(u.asset_start, u.asset_len))
    }

    /// Rows for the undated assets from what was sent for them; those sent nothing stay
    /// without a row. Returns, for each enterprise that had undated assets, how many still
    /// have no end date.
    pub fn add_sent(&mut self, sent: &Sent) -> BTreeMap<u32, u32> {
        let mut still = BTreeMap::new();
        for base in std::mem::take(&mut self.undated) {
            let num = self.text_at(base.asset_start, base.asset_len).to_owned();
            let before = self.rows.len();
            for p in sent.get(&num).into_iter().flatten() {
                if let Some(end) = dated(p.end) {
                    let uri = self.sym(&p.product_uri);
                    let name = p.product_name.as_deref().map_or(0, |n| self.sym(n));
                    self.push(&base, (uri, name), dated(p.start), end, Source::Sent);
                }
            }
            *still.entry(base.enterprise).or_default() += u32::from(self.rows.len() == before);
        }
        still
    }

    /// Marks each product row that a later instance of the same product on the same asset
    /// outlasts as renewed (an asset's own validity is not a product, and stays as it is).
    /// Called once every row is in.
    pub fn mark_renewed(&mut self) {
        // All rows of one asset share its place in the text (its sent rows too, which only an
        // asset the listing dates nothing gets): numbers, not text, are compared, so that a
        // million rows sort in a blink.
        let key = |r: &Compact| (r.enterprise, r.asset_start, r.product_uri);
        let mut order: Vec<(u32, u32, u32, i64, usize)> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.product_uri != 0 && r.trouble.is_none())
            .map(|(i, r)| (r.enterprise, r.asset_start, r.product_uri, r.end, i))
            .collect();
        order.sort_unstable();
        let renewed: Vec<usize> = order
            .windows(2)
            .filter(|pair| {
                let (a, b) = (&self.rows[pair[0].4], &self.rows[pair[1].4]);
                key(a) == key(b) && b.end > a.end
            })
            .map(|pair| pair[0].4)
            .collect();
        for i in renewed {
            self.rows[i].trouble = Some(Trouble::Renewed);
        }
    }

    /// For each shared value (0 is none), whether `f` holds for it.
    pub fn symbols_matching(&self, f: impl Fn(&str) -> bool) -> Vec<bool> {
        let mut found: Vec<bool> = self.symbols.iter().map(|s| f(s)).collect();
        match found.first_mut() {
            Some(none) => *none = false,
            None => found.push(false),
        }
        found
    }

    /// Each shared value's place among them all sorted (0, none, first).
    pub fn symbol_ranks(&self) -> Vec<u32> {
        let mut sorted: Vec<u32> = (0..u32::try_from(self.symbols.len()).unwrap_or(0)).collect();
        sorted.sort_by(|a, b| self.symbols[*a as usize].cmp(&self.symbols[*b as usize]));
        let mut ranks = vec![0; sorted.len()];
        for (rank, sym) in sorted.into_iter().enumerate() {
            ranks[sym as usize] = rank as u32;
        }
        ranks
    }

    /// Keeps the products of the asset whose row is pushed next; their names (or ids), joined,
    /// name the row.
    fn hold(&mut self, asset: &AssetRef<'_>) -> Sym {
        let row = u32::try_from(self.rows.len()).unwrap_or(u32::MAX);
        let mut names = Vec::new();
        for p in asset.products() {
            let (uri, name) = (
                self.sym(p.product_uri),
                p.product_name.map_or(0, |n| self.sym(n)),
            );
            self.held.push(Held { row, uri, name });
            names.push(p.product_name.unwrap_or(p.product_uri).to_owned());
        }
        self.sym(&names.join("、"))
    }

    fn base(&mut self, enterprise: u32, asset: &AssetRef<'_>) -> Undated {
        let asset_start = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.text.push_str(asset.asset_num());
        Undated {
            enterprise,
            customer: self.sym(asset.customer_id()),
            asset_start,
            asset_len: u32::try_from(asset.asset_num().len()).unwrap_or(0),
            license_type: self.sym(asset.license_type()),
            locked: asset.locked(),
        }
    }

    fn push(
        &mut self,
        base: &Undated,
        (product_uri, product_name): (Sym, Sym),
        start: Option<i64>,
        end: i64,
        source: Source,
    ) {
        self.rows.push(Compact {
            enterprise: base.enterprise,
            customer: base.customer,
            asset_start: base.asset_start,
            asset_len: base.asset_len,
            license_type: base.license_type,
            product_uri,
            product_name,
            start: start.unwrap_or(0),
            end,
            source,
            locked: base.locked,
            trouble: trouble(start, end),
        });
    }

    fn sym(&mut self, s: &str) -> Sym {
        if s.is_empty() {
            return 0;
        }
        if self.symbols.is_empty() {
            self.symbols.push("".into());
        }
        if let Some(sym) = self.index.get(s) {
            return *sym;
        }
        let sym = u32::try_from(self.symbols.len()).unwrap_or(0);
        self.symbols.push(s.into());
        self.index.insert(s.into(), sym);
        sym
    }

    fn text_at(&self, start: u32, len: u32) -> &str {
        self.text
            .get(start as usize..(start + len) as usize)
            .unwrap_or("")
    }

    fn symbol(&self, sym: Sym) -> Option<&str> {
        (sym != 0)
            .then(|| self.symbols.get(sym as usize).map(|s| &**s))
            .flatten()
    }
}

/// A row's shared values by number (0 is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ids {
    pub customer: u32,
    pub license_type: u32,
    pub product_uri: u32,
    pub product_name: u32,
}

impl Ids {
    /// Those a search looks in.
    pub fn text(&self) -> [u32; 3] {
        [self.customer, self.product_uri, self.product_name]
    }
}

/// One row of a [`Table`].
#[derive(Clone, Copy)]
pub struct RowRef<'a> {
    table: &'a Table,
    row: &'a Compact,
    /// Its place in the table.
    at: u32,
}

impl<'a> RowRef<'a> {
    /// The enterprise's place in the read's list.
    pub fn enterprise(&self) -> usize {
        self.row.enterprise as usize
    }
    pub fn customer_id(&self) -> &'a str {
        self.table.symbol(self.row.customer).unwrap_or("")
    }
    pub fn asset_num(&self) -> &'a str {
        self.table.text_at(self.row.asset_start, self.row.asset_len)
    }
    pub fn license_type(&self) -> &'a str {
        self.table.symbol(self.row.license_type).unwrap_or("")
    }
    pub fn product_uri(&self) -> Option<&'a str> {
        self.table.symbol(self.row.product_uri)
    }
    pub fn product_name(&self) -> Option<&'a str> {
        self.table.symbol(self.row.product_name)
    }
    pub fn start(&self) -> Option<i64> {
        dated(Some(self.row.start))
    }
    pub fn end(&self) -> i64 {
        self.row.end
    }
    pub fn source(&self) -> Source {
        self.row.source
    }
    pub fn locked(&self) -> bool {
        self.row.locked
    }
    pub fn trouble(&self) -> Option<Trouble> {
        self.row.trouble
    }

    /// The products (id, name) the asset of an asset-dated row holds; none for other rows.
    pub fn held(&self) -> impl Iterator<Item = (&'a str, Option<&'a str>)> + use<'a> {
        let table = self.table;
        let row = self.at;
        let from = table.held.partition_point(|h| h.row < row);
        table.held[from..]
            .iter()
            .take_while(move |h| h.row == row)
            .map(move |h| (table.symbol(h.uri).unwrap_or(""), table.symbol(h.name)))
    }

    /// The numbers of its shared values, for [`Table::symbols_matching`] and
    /// [`Table::symbol_ranks`].
    pub fn ids(&self) -> Ids {
        Ids {
            customer: self.row.customer,
            license_type: self.row.license_type,
            product_uri: self.row.product_uri,
            product_name: self.row.product_name,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use jiff::tz::TimeZone;
    use serde_json::{Value, json};

    use super::*;
    use crate::core::renewals::{SentProduct, Window};

    const DAY: i64 = 86_400_000;
    /// 2026-12-01 00:00 UTC.
    const DEC_1: i64 = 1_796_083_200_000;
    /// The last millisecond of the year 9999.
    const LAST_REAL_MS: i64 = 253_402_300_799_999;

    fn asset(num: &str, products: Value, own: (Option<i64>, Option<i64>)) -> Value {
        json!({"id": num, "licenseType": "cloud", "assetNum": num, "customerId": "CU1",
               "limitStartTime": own.0, "limitEndTime": own.1, "products": products})
    }

    fn product(uri: &str, start: Option<i64>, end: Option<i64>) -> Value {
        json!({"productUri": uri, "limitStartDate": start, "limitEndDate": end})
    }

    fn listing(assets: Vec<Value>) -> AssetList {
        serde_json::from_value(Value::Array(assets)).expect("a listing")
    }

    #[test]
    fn a_product_the_same_asset_holds_again_ending_later_is_renewed() {
        let list = listing(vec![
            asset(
                "1",
                json!([
                    product("gms:1", Some(DEC_1 - 300 * DAY), Some(DEC_1)),
                    product("gms:1", Some(DEC_1), Some(DEC_1 + 365 * DAY)),
                    product("gms:2", None, Some(DEC_1))
                ]),
                (None, None),
            ),
            // Another asset's gms:1 renews nothing here.
            asset(
                "2",
                json!([product("gms:1", None, Some(DEC_1))]),
                (None, None),
            ),
        ]);
        let mut table = Table::default();
        table.add_listing(0, &list);
        // The same asset in another enterprise's listing is another asset.
        table.add_listing(
            1,
            &listing(vec![asset(
                "1",
                json!([product("gms:1", None, Some(DEC_1 + 999 * DAY))]),
                (None, None),
            )]),
        );
        table.mark_renewed();
        let troubles: Vec<Option<Trouble>> = table.iter().map(|r| r.trouble()).collect();
        assert_eq!(troubles, [Some(Trouble::Renewed), None, None, None, None]);
    }

    #[test]
    fn each_row_says_where_its_date_comes_from() {
        let sent: Sent = HashMap::from([(
            "8000000003".to_owned(),
            vec![SentProduct {
                product_uri: "gms:9".to_owned(),
                product_name: None,
                start: Some(DEC_1),
                end: Some(DEC_1 + 30 * DAY),
            }],
        )]);
        let list = listing(vec![
            // Dated products: one row each; the undated one gives none.
            asset(
                "8000000001",
                json!([
                    product("gms:1", Some(DEC_1), Some(DEC_1 + 10 * DAY)),
                    product("gms:2", None, None)
                ]),
                (None, Some(DEC_1 + 99 * DAY)),
            ),
            // No dated product: the asset's own validity, naming the products it holds.
            asset(
                "8000000002",
                json!([
                    {"productUri": "gms:5", "productName": "证书版"},
                    product("gms:6", None, None)
                ]),
                (Some(DEC_1), Some(DEC_1 + 20 * DAY)),
            ),
            // Nothing dated in the listing: what was sent.
            asset("8000000003", json!([]), (None, Some(0))),
            // Nothing at all: no row.
            asset("8000000004", json!([]), (None, None)),
        ]);
        let mut table = Table::default();
        let added = table.add_listing(7, &list);
        assert_eq!(
            added,
            Added {
                assets: 4,
                undated: 2
            }
        );
        assert_eq!(
            table.undated_assets().collect::<Vec<_>>(),
            ["8000000003", "8000000004"]
        );
        assert_eq!(table.add_sent(&sent), BTreeMap::from([(7, 1)]));
        let seen: Vec<(&str, Option<&str>, Source, usize)> = table
            .iter()
            .map(|r| (r.asset_num(), r.product_uri(), r.source(), r.enterprise()))
            .collect();
        assert_eq!(
            seen,
            [
                ("8000000001", Some("gms:1"), Source::Product, 7),
                ("8000000002", None, Source::Asset, 7),
                ("8000000003", Some("gms:9"), Source::Sent, 7),
            ]
        );
        assert_eq!(table.get(0).start(), Some(DEC_1));
        assert_eq!(table.get(1).end(), DEC_1 + 20 * DAY);
        assert_eq!(table.get(2).customer_id(), "CU1");
        assert_eq!(table.undated_assets().count(), 0);
        let held: Vec<Vec<_>> = table.iter().map(|r| r.held().collect()).collect();
        assert_eq!(
            held,
            [
                vec![],
                vec![("gms:5", Some("证书版")), ("gms:6", None)],
                vec![]
            ]
        );
        assert_eq!(table.get(1).product_name(), Some("证书版、gms:6"));
    }

    #[test]
    fn a_date_that_cannot_be_one_says_why_and_is_not_counted() {
        let list = listing(vec![
            asset(
                "1",
                json!([product("reversed", Some(DEC_1), Some(DEC_1 - DAY))]),
                (None, None),
            ),
            asset(
                "2",
                json!([product("9999", None, Some(LAST_REAL_MS + 1))]),
                (None, None),
            ),
            asset(
                "3",
                json!([product("fine", None, Some(DEC_1 + 5 * DAY))]),
                (None, None),
            ),
        ]);
        let mut table = Table::default();
        table.add_listing(0, &list);
        let troubles: Vec<Option<Trouble>> = table.iter().map(|r| r.trouble()).collect();
        assert_eq!(
            troubles,
            [Some(Trouble::Reversed), Some(Trouble::NoRealEnd), None]
        );
        let today = jiff::civil::date(2026, 12, 1);
        let window = Window::days(today, &TimeZone::UTC, 90).expect("a window");
        let soon: Vec<_> = table
            .iter()
            .filter(|r| window.holds(r))
            .map(|r| r.product_uri())
            .collect();
        assert_eq!(soon, [Some("fine")]);
    }
}
