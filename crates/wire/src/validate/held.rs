//! Problems of the values a batch holds verbatim (read from a file, or typed, and not fitting
//! their field): each is listed at its field, in place of what the rules would say of the
//! field being empty.

use std::borrow::Borrow;

use super::problem::{At, FieldPath, Problem};
use crate::order::{AssetEntry, BatchOrderRequest, MerchandiseEntry, OrderEntry, ProductEntry};
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
    batch_held(head, orders, &mut |at, raw| push_raw(at, raw, &mut held));
    if held.is_empty() {
        return rules;
    }
    let mut all: Vec<Problem> = rules
        .into_iter()
        .filter(|p| !held.iter().any(|h| h.path == p.path))
        .collect();
    all.extend(held);
    // By node, in the tree's order: the indices along the path.
    all.sort_by_key(|p| {
        p.path
            .0
            .iter()
            .filter_map(|seg| match seg {
                super::Seg::Item(_, i) => Some(*i),
                super::Seg::Field(_) => None,
            })
            .collect::<Vec<_>>()
    });
    all
}

/// A key of a node that names no field of the interface: kept, written back, and sent as it
/// is. Not a problem: the platform ignores such keys, so a batch with one is still ready; the
/// console and `order check` list it as a warning so that nothing is dropped without a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownKey {
    /// The node that has the key.
    pub at: FieldPath,
    pub key: String,
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
    batch_held(head, orders, &mut |at, raw| {
        out.extend(raw.unknown().map(|(key, _)| UnknownKey {
            at: at.path(),
            key: key.to_owned(),
        }));
    });
    out
}

fn push_raw(at: &At<'_>, raw: &Raw, out: &mut Vec<Problem>) {
    for (field, (_, kind)) in raw.iter() {
        out.push(Problem::new(at.field(field).path(), kind.clone()));
    }
}

/// Each node's raw values, with where the node is.
type Visit<'v> = dyn FnMut(&At<'_>, &Raw) + 'v;

fn batch_held<O: Borrow<OrderEntry>>(b: &BatchOrderRequest, orders: &[O], out: &mut Visit<'_>) {
    let root = At::ROOT;
    out(&root, &b.raw);
    for (i, o) in orders.iter().enumerate() {
        order_held(&root.item("orderList", i), o.borrow(), out);
    }
}

fn order_held(at: &At<'_>, o: &OrderEntry, out: &mut Visit<'_>) {
    out(at, &o.raw);
    for (i, a) in o.assets.iter().enumerate() {
        asset_held(&at.item("assets", i), a, out);
    }
}

fn asset_held(at: &At<'_>, a: &AssetEntry, out: &mut Visit<'_>) {
    out(at, &a.raw);
    for (i, e) in a.asset_extend_list.iter().enumerate() {
        out(&at.item("assetExtendList", i), &e.raw);
    }
    for (i, p) in a.products.iter().enumerate() {
        product_held(&at.item("products", i), p, out);
    }
    for (i, m) in a.merchandises.iter().enumerate() {
        merchandise_held(&at.item("merchandises", i), m, out);
    }
}

fn product_held(at: &At<'_>, p: &ProductEntry, out: &mut Visit<'_>) {
    out(at, &p.raw);
    for (i, f) in p.product_features.iter().enumerate() {
        out(&at.item("productFeatures", i), &f.raw);
    }
}

fn merchandise_held(at: &At<'_>, m: &MerchandiseEntry, out: &mut Visit<'_>) {
    out(at, &m.raw);
    for (i, c) in m.children.iter().flatten().enumerate() {
        merchandise_held(&at.item("children", i), c, out);
    }
    for (i, p) in m.license_order_product_list.iter().enumerate() {
        product_held(&at.item("licenseOrderProductList", i), p, out);
    }
}
