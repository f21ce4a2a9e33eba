//! An asset listing held compactly: a large enterprise lists 100,000 assets, and the console
//! keeps them for as long as the listing is open.
//!
//! Each asset's own strings (id, number, shell number) sit in one text buffer; the values many
//! assets share (license types, customer ids, extension codes, product URIs, order ids) are
//! interned once per listing. The listing is decoded straight from the answer's bytes, one
//! borrowed element at a time, so no `Asset` or JSON tree of the whole answer is ever built.
//! Read it through [`AssetRef`]; [`AssetRef::to_asset`] gives back the interface's shape.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use super::asset::{Asset, AssetExtend, AssetProduct, AssignStatus};
use super::de::null_as_empty;

/// A string of the listing's own text buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Span {
    start: u32,
    len: u32,
}

/// An interned string; 0 is the empty string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
struct Sym(u32);

/// A run of items in one of the listing's side tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Run {
    start: u32,
    len: u32,
}

const GRANTABLE: u8 = 1;
const LOCKED: u8 = 2;
const FREEZING: u8 = 4;
const BORROWED: u8 = 8;

#[derive(Debug, Clone, PartialEq, Default)]
struct Row {
    id: Span,
    asset_num: Span,
    key_shell_number: Span,
    license_type: Sym,
    customer_id: Sym,
    key_chip_type: i32,
    flags: u8,
    create_time: i64,
    update_time: i64,
    limit_start_time: Option<i64>,
    limit_end_time: Option<i64>,
    assign: Assign,
    /// The raw JSON of `assetLimits`, when it is not null.
    asset_limits: Option<Span>,
    extends: Run,
    license_order_id: Option<Sym>,
    products: Run,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct Assign {
    id: Span,
    status: Sym,
    member_id: Sym,
    create_time: Sym,
    update_time: Option<Sym>,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct ProductRow {
    product_uri: Sym,
    product_name: Option<Sym>,
    limit_start_date: Option<i64>,
    limit_end_date: Option<i64>,
    limit_concurrent: Option<i32>,
    license_order_id: Option<Sym>,
    activity_id: Option<Sym>,
    sub_activity_id: Option<Sym>,
    awaiting_activation: bool,
}

/// The assets of one listing, in the platform's order.
#[derive(Clone, PartialEq)]
pub struct AssetList {
    rows: Vec<Row>,
    extends: Vec<[Sym; 2]>,
    products: Vec<ProductRow>,
    text: String,
    symbols: Vec<Box<str>>,
}

impl fmt::Debug for AssetList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AssetList({} assets)", self.rows.len())
    }
}

impl AssetList {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The asset at `i`; panics past the end, like a slice.
    pub fn get(&self, i: usize) -> AssetRef<'_> {
        AssetRef {
            list: self,
            row: &self.rows[i],
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = AssetRef<'_>> {
        self.rows.iter().map(|row| AssetRef { list: self, row })
    }

    /// The distinct customer ids of the listing, the empty one left out.
    pub fn customer_ids(&self) -> Vec<&str> {
        let mut syms: Vec<Sym> = self.rows.iter().map(|r| r.customer_id).collect();
        syms.sort_unstable_by_key(|s| s.0);
        syms.dedup();
        syms.into_iter()
            .map(|s| self.sym(s))
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// Records a lock's or an unlock's success on the asset at `i`.
    pub fn set_locked(&mut self, i: usize, locked: bool) {
        if let Some(row) = self.rows.get_mut(i) {
            row.flags = if locked {
                row.flags | LOCKED
            } else {
                row.flags & !LOCKED
            };
        }
    }

    /// Every asset in the interface's shape.
    pub fn to_assets(&self) -> Vec<Asset> {
        self.iter().map(|a| a.to_asset()).collect()
    }

    fn span(&self, s: Span) -> &str {
        &self.text[s.start as usize..(s.start + s.len) as usize]
    }

    fn sym(&self, s: Sym) -> &str {
        &self.symbols[s.0 as usize]
    }
}

/// A product an asset holds, borrowed from its listing: what its end date needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatedProduct<'a> {
    pub product_uri: &'a str,
    pub product_name: Option<&'a str>,
    pub limit_start_date: Option<i64>,
    pub limit_end_date: Option<i64>,
}

/// One asset of a listing.
#[derive(Clone, Copy)]
pub struct AssetRef<'a> {
    list: &'a AssetList,
    row: &'a Row,
}

impl<'a> AssetRef<'a> {
    pub fn id(&self) -> &'a str {
        self.list.span(self.row.id)
    }
    pub fn asset_num(&self) -> &'a str {
        self.list.span(self.row.asset_num)
    }
    pub fn key_shell_number(&self) -> &'a str {
        self.list.span(self.row.key_shell_number)
    }
    pub fn license_type(&self) -> &'a str {
        self.list.sym(self.row.license_type)
    }
    pub fn customer_id(&self) -> &'a str {
        self.list.sym(self.row.customer_id)
    }
    pub fn key_chip_type(&self) -> i32 {
        self.row.key_chip_type
    }
    pub fn grantable(&self) -> bool {
        self.row.flags & GRANTABLE != 0
    }
    pub fn locked(&self) -> bool {
        self.row.flags & LOCKED != 0
    }
    pub fn freezing(&self) -> bool {
        self.row.flags & FREEZING != 0
    }
    pub fn borrowed_usb_key(&self) -> bool {
        self.row.flags & BORROWED != 0
    }
    pub fn create_time(&self) -> i64 {
        self.row.create_time
    }
    pub fn update_time(&self) -> i64 {
        self.row.update_time
    }
    pub fn limit_start_time(&self) -> Option<i64> {
        self.row.limit_start_time
    }
    pub fn limit_end_time(&self) -> Option<i64> {
        self.row.limit_end_time
    }
    pub fn license_order_id(&self) -> Option<&'a str> {
        self.row.license_order_id.map(|s| self.list.sym(s))
    }
    /// `(extendCode, extendValue)` pairs.
    pub fn extends(&self) -> impl ExactSizeIterator<Item = (&'a str, &'a str)> + use<'a> {
        let list = self.list;
        run(&list.extends, self.row.extends)
            .iter()
            .map(move |[code, value]| (list.sym(*code), list.sym(*value)))
    }
    pub fn product_count(&self) -> usize {
        self.row.products.len as usize
    }

    /// The products the asset holds, with their dates, without copying them.
    pub fn products(&self) -> impl ExactSizeIterator<Item = DatedProduct<'a>> + use<'a> {
        let list = self.list;
        run(&list.products, self.row.products)
            .iter()
            .map(move |p| DatedProduct {
                product_uri: list.sym(p.product_uri),
                product_name: p.product_name.map(|s| list.sym(s)),
                limit_start_date: p.limit_start_date,
                limit_end_date: p.limit_end_date,
            })
    }

    /// The asset in the interface's shape.
    pub fn to_asset(&self) -> Asset {
        let list = self.list;
        let sym = |s: Sym| list.sym(s).to_owned();
        let assign = &self.row.assign;
        Asset {
            id: self.id().to_owned(),
            license_type: self.license_type().to_owned(),
            asset_num: self.asset_num().to_owned(),
            grantable: self.grantable(),
            customer_id: self.customer_id().to_owned(),
            key_shell_number: self.key_shell_number().to_owned(),
            key_chip_type: self.key_chip_type(),
            locked: self.locked(),
            freezing: self.freezing(),
            create_time: self.create_time(),
            update_time: self.update_time(),
            limit_start_time: self.limit_start_time(),
            limit_end_time: self.limit_end_time(),
            assign_status: AssignStatus {
                id: list.span(assign.id).to_owned(),
                assign_status: sym(assign.status),
                assign_member_id: sym(assign.member_id),
                create_time: sym(assign.create_time),
                update_time: assign.update_time.map(sym),
            },
            asset_limits: self
                .row
                .asset_limits
                .and_then(|s| serde_json::from_str(list.span(s)).ok()),
            asset_extends: self
                .extends()
                .map(|(code, value)| AssetExtend {
                    extend_code: code.to_owned(),
                    extend_value: value.to_owned(),
                })
                .collect(),
            borrowed_usb_key: self.borrowed_usb_key(),
            license_order_id: self.license_order_id().map(str::to_owned),
            products: run(&list.products, self.row.products)
                .iter()
                .map(|p| AssetProduct {
                    product_uri: sym(p.product_uri),
                    product_name: p.product_name.map(sym),
                    limit_start_date: p.limit_start_date,
                    limit_end_date: p.limit_end_date,
                    limit_concurrent: p.limit_concurrent,
                    license_order_id: p.license_order_id.map(sym),
                    activity_id: p.activity_id.map(sym),
                    sub_activity_id: p.sub_activity_id.map(sym),
                    awaiting_activation: p.awaiting_activation,
                })
                .collect(),
        }
    }
}

fn run<T>(items: &[T], r: Run) -> &[T] {
    &items[r.start as usize..(r.start + r.len) as usize]
}

impl Serialize for AssetList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for a in self.iter() {
            seq.serialize_element(&a.to_asset())?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for AssetList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(ListVisitor)
    }
}

struct ListVisitor;

impl<'de> Visitor<'de> for ListVisitor {
    type Value = AssetList;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of assets")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AssetList, A::Error> {
        let mut b = Builder::default();
        while let Some(asset) = seq.next_element::<AssetIn<'_>>()? {
            b.push(asset).map_err(serde::de::Error::custom)?;
        }
        Ok(b.finish())
    }
}

/// Fills a listing; the interning table lives only while it is decoded.
#[derive(Default)]
struct Builder {
    list: AssetList,
    interned: HashMap<Box<str>, Sym>,
}

impl Builder {
    fn push(&mut self, a: AssetIn<'_>) -> Result<(), &'static str> {
        let extends_start = self.list.extends.len();
        for e in &a.asset_extends {
            let pair = [self.sym(&e.extend_code), self.sym(&e.extend_value)];
            self.list.extends.push(pair);
        }
        let products_start = self.list.products.len();
        for p in &a.products {
            let product = self.product(p);
            self.list.products.push(product);
        }
        let row = Row {
            id: self.span(&a.id)?,
            asset_num: self.span(&a.asset_num)?,
            key_shell_number: self.span(&a.key_shell_number)?,
            license_type: self.sym(&a.license_type),
            customer_id: self.sym(&a.customer_id),
            key_chip_type: a.key_chip_type,
            flags: flag(a.grantable, GRANTABLE)
                | flag(a.locked, LOCKED)
                | flag(a.freezing, FREEZING)
                | flag(a.borrowed_usb_key, BORROWED),
            create_time: a.create_time,
            update_time: a.update_time,
            limit_start_time: a.limit_start_time,
            limit_end_time: a.limit_end_time,
            assign: Assign {
                id: self.span(&a.assign_status.id)?,
                status: self.sym(&a.assign_status.assign_status),
                member_id: self.sym(&a.assign_status.assign_member_id),
                create_time: self.sym(&a.assign_status.create_time),
                update_time: a.assign_status.update_time.as_deref().map(|s| self.sym(s)),
            },
            asset_limits: a.asset_limits.map(|raw| self.span(raw.get())).transpose()?,
            extends: run_since(extends_start, self.list.extends.len())?,
            license_order_id: a.license_order_id.as_deref().map(|s| self.sym(s)),
            products: run_since(products_start, self.list.products.len())?,
        };
        self.list.rows.push(row);
        Ok(())
    }

    fn product(&mut self, p: &ProductIn<'_>) -> ProductRow {
        ProductRow {
            product_uri: self.sym(&p.product_uri),
            product_name: p.product_name.as_deref().map(|s| self.sym(s)),
            limit_start_date: p.limit_start_date,
            limit_end_date: p.limit_end_date,
            limit_concurrent: p.limit_concurrent,
            license_order_id: p.license_order_id.as_deref().map(|s| self.sym(s)),
            activity_id: p.activity_id.as_deref().map(|s| self.sym(s)),
            sub_activity_id: p.sub_activity_id.as_deref().map(|s| self.sym(s)),
            awaiting_activation: p.awaiting_activation,
        }
    }

    fn span(&mut self, s: &str) -> Result<Span, &'static str> {
        let start = u32::try_from(self.list.text.len()).map_err(|_| TOO_LARGE)?;
        let len = u32::try_from(s.len()).map_err(|_| TOO_LARGE)?;
        start.checked_add(len).ok_or(TOO_LARGE)?;
        self.list.text.push_str(s);
        Ok(Span { start, len })
    }

    fn sym(&mut self, s: &str) -> Sym {
        if s.is_empty() {
            return Sym(0);
        }
        if let Some(&sym) = self.interned.get(s) {
            return sym;
        }
        // Symbols are far fewer than rows, which `span` bounds to u32 already.
        let sym = Sym(self.list.symbols.len() as u32);
        self.list.symbols.push(s.into());
        self.interned.insert(s.into(), sym);
        sym
    }

    fn finish(mut self) -> AssetList {
        self.list.rows.shrink_to_fit();
        self.list.extends.shrink_to_fit();
        self.list.products.shrink_to_fit();
        self.list.text.shrink_to_fit();
        self.list.symbols.shrink_to_fit();
        self.list
    }
}

impl Default for AssetList {
    fn default() -> Self {
        Self {
            rows: Vec::new(),
            extends: Vec::new(),
            products: Vec::new(),
            text: String::new(),
            symbols: vec!["".into()],
        }
    }
}

const TOO_LARGE: &str = "the listing is larger than 4 GiB";

fn flag(on: bool, bit: u8) -> u8 {
    if on { bit } else { 0 }
}

fn run_since(start: usize, end: usize) -> Result<Run, &'static str> {
    Ok(Run {
        start: u32::try_from(start).map_err(|_| TOO_LARGE)?,
        len: u32::try_from(end - start).map_err(|_| TOO_LARGE)?,
    })
}

/// An element of the answer as it reads, borrowing its strings from the answer where it can;
/// the same fields and defaults as [`Asset`].
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct AssetIn<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    license_type: Cow<'a, str>,
    #[serde(borrow)]
    asset_num: Cow<'a, str>,
    grantable: bool,
    #[serde(borrow)]
    customer_id: Cow<'a, str>,
    #[serde(borrow)]
    key_shell_number: Cow<'a, str>,
    key_chip_type: i32,
    locked: bool,
    freezing: bool,
    create_time: i64,
    update_time: i64,
    limit_start_time: Option<i64>,
    limit_end_time: Option<i64>,
    #[serde(borrow)]
    assign_status: AssignIn<'a>,
    #[serde(borrow)]
    asset_limits: Option<&'a RawValue>,
    #[serde(borrow, deserialize_with = "null_as_empty")]
    asset_extends: Vec<ExtendIn<'a>>,
    borrowed_usb_key: bool,
    #[serde(borrow)]
    license_order_id: Option<Cow<'a, str>>,
    #[serde(borrow, deserialize_with = "null_as_empty")]
    products: Vec<ProductIn<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct AssignIn<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    assign_status: Cow<'a, str>,
    #[serde(borrow)]
    assign_member_id: Cow<'a, str>,
    #[serde(borrow)]
    create_time: Cow<'a, str>,
    #[serde(borrow)]
    update_time: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ExtendIn<'a> {
    #[serde(borrow)]
    extend_code: Cow<'a, str>,
    #[serde(borrow)]
    extend_value: Cow<'a, str>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ProductIn<'a> {
    #[serde(borrow)]
    product_uri: Cow<'a, str>,
    #[serde(borrow)]
    product_name: Option<Cow<'a, str>>,
    limit_start_date: Option<i64>,
    limit_end_date: Option<i64>,
    limit_concurrent: Option<i32>,
    #[serde(borrow)]
    license_order_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    activity_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    sub_activity_id: Option<Cow<'a, str>>,
    awaiting_activation: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(json: &str) -> (Vec<Asset>, AssetList) {
        let plain: Vec<Asset> = serde_json::from_str(json).unwrap();
        let list: AssetList = serde_json::from_str(json).unwrap();
        (plain, list)
    }

    #[test]
    fn a_listing_reads_back_as_the_interface_s_assets() {
        let json = r#"[
          {"id":"A1","licenseType":"normal_recover_usbkey","assetNum":"8900000001","grantable":true,
           "customerId":"C1","keyShellNumber":"8900000001","keyChipType":2,"locked":true,
           "freezing":false,"createTime":1700000000000,"updateTime":1700000000001,
           "limitStartTime":null,"limitEndTime":1800000000000,
           "assignStatus":{"id":"S1","assignStatus":"assigned","assignMemberId":"M1",
                           "createTime":"2026-01-01 00:00:00","updateTime":null},
           "assetLimits":{"maxUsers":5,"note":"\"quoted\" 中文"},
           "assetExtends":[{"extendCode":"gxxp","extendValue":"v\n1"}],
           "borrowedUsbKey":true,"licenseOrderId":"LO1",
           "products":[{"productUri":"gms:1001","productName":"造价","limitStartDate":1,
                        "limitEndDate":2,"limitConcurrent":3,"licenseOrderId":"LO1",
                        "activityId":null,"subActivityId":"U1","awaitingActivation":true}]},
          {"id":"A2","licenseType":"normal_recover_usbkey","assetNum":"8900000002",
           "customerId":"C1","assetExtends":null,"products":null,"unknown":{"x":[1,2]}},
          {}
        ]"#;
        let (plain, list) = both(json);
        assert_eq!(list.len(), 3);
        assert_eq!(list.to_assets(), plain);
        assert_eq!(
            list.get(0).extends().collect::<Vec<_>>(),
            [("gxxp", "v\n1")]
        );
        assert_eq!(list.customer_ids(), ["C1"]);
        assert_eq!(
            serde_json::to_value(&list).unwrap(),
            serde_json::to_value(&plain).unwrap()
        );
    }

    #[test]
    fn a_lock_changes_only_its_asset() {
        let (_, mut list) = both(r#"[{"assetNum":"1"},{"assetNum":"2","locked":true}]"#);
        list.set_locked(0, true);
        list.set_locked(1, false);
        list.set_locked(7, true);
        assert!(list.get(0).locked());
        assert!(!list.get(1).locked());
    }

    #[test]
    fn a_wrong_value_is_an_error_as_for_the_interface_s_shape() {
        let json = r#"[{"assetNum":5}]"#;
        assert!(serde_json::from_str::<Vec<Asset>>(json).is_err());
        assert!(serde_json::from_str::<AssetList>(json).is_err());
    }
}
