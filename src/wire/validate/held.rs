//! Problems of the values a batch holds verbatim (read from a file, or typed, and not fitting
//! their field): each is listed at its field, in place of what the rules would say of the
//! field being empty.

use super::problem::{At, Problem};
use crate::wire::order::{
    AssetEntry, BatchOrderRequest, MerchandiseEntry, OrderEntry, ProductEntry,
};
use crate::wire::raw::Raw;

/// `rules`' problems with those of the held values: a held value's problem replaces the rules'
/// own at the same field (a `licenseType` of `golden_usbkey` is that, not "required"); the
/// list stays in the tree's order.
pub fn with_held(batch: &BatchOrderRequest, rules: Vec<Problem>) -> Vec<Problem> {
    let mut held = Vec::new();
    batch_held(batch, &mut held);
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

fn push_raw(at: &At<'_>, raw: &Raw, out: &mut Vec<Problem>) {
    for (field, (_, kind)) in raw.iter() {
        out.push(Problem::new(at.field(field).path(), kind.clone()));
    }
}

fn batch_held(b: &BatchOrderRequest, out: &mut Vec<Problem>) {
    let root = At::ROOT;
    push_raw(&root, &b.raw, out);
    for (i, o) in b.order_list.iter().enumerate() {
        order_held(&root.item("orderList", i), o, out);
    }
}

fn order_held(at: &At<'_>, o: &OrderEntry, out: &mut Vec<Problem>) {
    push_raw(at, &o.raw, out);
    for (i, a) in o.assets.iter().enumerate() {
        asset_held(&at.item("assets", i), a, out);
    }
}

fn asset_held(at: &At<'_>, a: &AssetEntry, out: &mut Vec<Problem>) {
    push_raw(at, &a.raw, out);
    for (i, e) in a.asset_extend_list.iter().enumerate() {
        push_raw(&at.item("assetExtendList", i), &e.raw, out);
    }
    for (i, p) in a.products.iter().enumerate() {
        product_held(&at.item("products", i), p, out);
    }
    for (i, m) in a.merchandises.iter().enumerate() {
        merchandise_held(&at.item("merchandises", i), m, out);
    }
}

fn product_held(at: &At<'_>, p: &ProductEntry, out: &mut Vec<Problem>) {
    push_raw(at, &p.raw, out);
    for (i, f) in p.product_features.iter().enumerate() {
        push_raw(&at.item("productFeatures", i), &f.raw, out);
    }
}

fn merchandise_held(at: &At<'_>, m: &MerchandiseEntry, out: &mut Vec<Problem>) {
    push_raw(at, &m.raw, out);
    for (i, c) in m.children.iter().flatten().enumerate() {
        merchandise_held(&at.item("children", i), c, out);
    }
    for (i, p) in m.license_order_product_list.iter().enumerate() {
        product_held(&at.item("licenseOrderProductList", i), p, out);
    }
}
