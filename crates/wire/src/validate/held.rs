//! Problems of the values a batch holds verbatim (read from a file, or typed, and not fitting
//! their field): each is listed at its field, in place of what the rules would say of the
//! field being empty.

use std::borrow::Borrow;

use super::problem::{At, FieldPath, Problem, Seg};
use crate::declared::fields_of;
use crate::order::{
    AssetEntry, BatchOrderRequest, ExtendEntry, FeatureEntry, MerchandiseEntry, OrderEntry,
    ProductEntry,
};
use crate::raw::Raw;

/// `rules`' problems with those of the held values: a held value's problem replaces the rules'
/// own at the same field (a `licenseType` of `golden_usbkey` is that, not "required"); the
/// list stays in the tree's order.
pub fn with_held<O: Borrow<OrderEntry>>(
    head: &BatchOrderRequest,
    orders: &[O],
    rules: Vec<Problem>,
) -> Vec<Problem> {
    let mut held = Vec::new();
    batch_held(head, orders, &mut |at, raw, _| push_raw(at, raw, &mut held));
    if held.is_empty() {
        return rules;
    }
    let mut all: Vec<Problem> = rules
        .into_iter()
        .filter(|p| !held.iter().any(|h| h.path == p.path))
        .collect();
    all.extend(held);
    in_tree_order(&mut all);
    all
}

/// By node, in the tree's order: the items along the path, each by its index and then by its
/// list's place in the node (an asset's numbers, then its features, products, packages).
pub(super) fn in_tree_order(problems: &mut [Problem]) {
    const LISTS: [&str; 8] = [
        "orderList",
        "assetNos",
        "assetExtendList",
        "products",
        "productFeatures",
        "merchandises",
        "licenseOrderProductList",
        "children",
    ];
    problems.sort_by_key(|p| {
        p.path
            .0
            .iter()
            .filter_map(|seg| match seg {
                Seg::Item(list, i) => Some((*i, LISTS.iter().position(|l| l == list))),
                Seg::Field(_) => None,
            })
            .collect::<Vec<_>>()
    });
}

/// A key of a node that names no field of the interface: kept, written back, and sent as it
/// is. Not a problem: the platform ignores such keys, so a batch with one is still ready; the
/// console and `order check` list it as a warning so that nothing is dropped without a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey {
    /// The node that has the key.
    pub at: FieldPath,
    pub key: String,
    /// The node's field the key is likely a misspelling of.
    pub near: Option<&'static str>,
}

impl std::fmt::Display for UnknownKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.at.0.is_empty() {
            write!(f, "{}.", self.at)?;
        }
        write!(
            f,
            "{}: not a field of the interface; kept and sent as is",
            self.key
        )
    }
}

/// Every key of the batch that names no field of the interface, in the tree's order.
pub fn unknown_keys(batch: &BatchOrderRequest) -> Vec<UnknownKey> {
    unknown_keys_of(batch, &batch.order_list)
}

/// [`unknown_keys`] of a batch kept as its header and its orders apart.
pub fn unknown_keys_of<O: Borrow<OrderEntry>>(
    head: &BatchOrderRequest,
    orders: &[O],
) -> Vec<UnknownKey> {
    let mut out = Vec::new();
    batch_held(head, orders, &mut |at, raw, fields| {
        out.extend(raw.unknown().map(|(key, _)| UnknownKey {
            at: at.path(),
            key: key.to_owned(),
            near: near_field(key, fields()),
        }));
    });
    out
}

/// The field of `fields` that `key` likely misspells: the same letters in another case or with
/// underscores (`product_uri`), two edits or fewer (`productUrl`), or the end or start of one of
/// them (`endDate` of `limitEndDate`); the closest, the first declared on a tie. None for a short
/// key, which could be anything.
pub fn near_field(key: &str, fields: &[&'static str]) -> Option<&'static str> {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '_' | '-' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let key = plain(key);
    if key.chars().count() < 4 {
        return None;
    }
    fields
        .iter()
        .filter_map(|f| {
            let field = plain(f);
            let distance = strsim::damerau_levenshtein(&key, &field);
            let part =
                key.chars().count() >= 6 && (field.ends_with(&key) || field.starts_with(&key));
            (distance <= 2 || part).then_some((distance, *f))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, f)| f)
}

fn push_raw(at: &At<'_>, raw: &Raw, out: &mut Vec<Problem>) {
    for (field, (_, kind)) in raw.iter() {
        out.push(Problem::new(at.field(field).path(), kind.clone()));
    }
}

/// The field names of a node's type, asked only of a node with an unknown key.
type Fields = fn() -> &'static [&'static str];

/// Each node's raw values, with where the node is and its type's fields.
type Visit<'v> = dyn FnMut(&At<'_>, &Raw, Fields) + 'v;

fn batch_held<O: Borrow<OrderEntry>>(b: &BatchOrderRequest, orders: &[O], out: &mut Visit<'_>) {
    let root = At::ROOT;
    out(&root, &b.raw, fields_of::<BatchOrderRequest>);
    for (i, o) in orders.iter().enumerate() {
        order_held(&root.item("orderList", i), o.borrow(), out);
    }
}

fn order_held(at: &At<'_>, o: &OrderEntry, out: &mut Visit<'_>) {
    out(at, &o.raw, fields_of::<OrderEntry>);
    for (i, a) in o.assets.iter().enumerate() {
        asset_held(&at.item("assets", i), a, out);
    }
}

fn asset_held(at: &At<'_>, a: &AssetEntry, out: &mut Visit<'_>) {
    out(at, &a.raw, fields_of::<AssetEntry>);
    for (i, e) in a.asset_extend_list.iter().enumerate() {
        out(
            &at.item("assetExtendList", i),
            &e.raw,
            fields_of::<ExtendEntry>,
        );
    }
    for (i, p) in a.products.iter().enumerate() {
        product_held(&at.item("products", i), p, out);
    }
    for (i, m) in a.merchandises.iter().enumerate() {
        merchandise_held(&at.item("merchandises", i), m, out);
    }
}

fn product_held(at: &At<'_>, p: &ProductEntry, out: &mut Visit<'_>) {
    out(at, &p.raw, fields_of::<ProductEntry>);
    for (i, f) in p.product_features.iter().enumerate() {
        out(
            &at.item("productFeatures", i),
            &f.raw,
            fields_of::<FeatureEntry>,
        );
    }
}

fn merchandise_held(at: &At<'_>, m: &MerchandiseEntry, out: &mut Visit<'_>) {
    out(at, &m.raw, fields_of::<MerchandiseEntry>);
    for (i, c) in m.children.iter().flatten().enumerate() {
        merchandise_held(&at.item("children", i), c, out);
    }
    for (i, p) in m.license_order_product_list.iter().enumerate() {
        product_held(&at.item("licenseOrderProductList", i), p, out);
    }
}
