//! What a delete order removes from one asset: the platform's rule, in one place, so that the
//! embedded platform applies it and the console previews a batch with the very same code.
//!
//! The rule sees an asset as the products it holds. `K` names the license order that granted a
//! product: the platform's row id, or the listing's `licenseOrderId` in the console.

use super::order::ProductEntry;

/// A product an asset holds, as the rule sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Held<'a, K> {
    pub uri: &'a str,
    pub start: Option<i64>,
    pub end: Option<i64>,
    pub concurrent: Option<i32>,
    /// The license order that granted it; `None` for a product claimed from an activity.
    pub order: Option<K>,
}

/// What `delete_asset` does to one asset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetRemoval {
    /// The held products that go, by their index.
    pub products: Vec<usize>,
    /// The asset itself goes: no source order was named, or nothing is left on it.
    pub asset_goes: bool,
}

/// Why the platform refuses a delete order on an asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRemovable {
    /// `delete_asset` with a source order that granted nothing on the asset.
    NothingFromSource,
    /// `delete_product`: the product entry at this index matches nothing still held.
    NoProduct { product: usize },
}

/// `delete_asset`: without a source order the whole asset goes; with one, what that order
/// granted, and the asset too once nothing else is left on it.
pub fn delete_asset<K: PartialEq>(
    held: &[Held<'_, K>],
    created_by: Option<&K>,
    src: Option<&K>,
) -> Result<AssetRemoval, NotRemovable> {
    let Some(src) = src else {
        return Ok(AssetRemoval {
            products: (0..held.len()).collect(),
            asset_goes: true,
        });
    };
    let products: Vec<usize> = held
        .iter()
        .enumerate()
        .filter(|(_, h)| h.order.as_ref() == Some(src))
        .map(|(i, _)| i)
        .collect();
    if products.is_empty() && created_by != Some(src) {
        return Err(NotRemovable::NothingFromSource);
    }
    Ok(AssetRemoval {
        asset_goes: products.len() == held.len(),
        products,
    })
}

/// `delete_product`: each product entry, in order, removes every held product of its URI
/// (limited to the source order when one is named); with `strictMatchWhenDelete` only those
/// whose validity and node count are exactly the entry's. An entry that finds nothing still
/// held is refused, also when an earlier entry of the same order took it.
pub fn delete_products<K: PartialEq>(
    held: &[Held<'_, K>],
    wanted: &[ProductEntry],
    src: Option<&K>,
) -> Result<Vec<usize>, NotRemovable> {
    let mut gone = vec![false; held.len()];
    for (p, product) in wanted.iter().enumerate() {
        let mut found = false;
        for (i, h) in held.iter().enumerate() {
            if !gone[i] && matches(h, product, src) {
                gone[i] = true;
                found = true;
            }
        }
        if !found {
            return Err(NotRemovable::NoProduct { product: p });
        }
    }
    Ok(gone
        .iter()
        .enumerate()
        .filter(|(_, g)| **g)
        .map(|(i, _)| i)
        .collect())
}

/// Whether a product entry of a `delete_product` order takes this held product.
pub fn matches<K: PartialEq>(h: &Held<'_, K>, wanted: &ProductEntry, src: Option<&K>) -> bool {
    let uri = wanted.product_uri.as_deref().unwrap_or_default().trim();
    let strict = wanted.strict_match_when_delete == Some(true);
    h.uri == uri
        && src.is_none_or(|s| h.order.as_ref() == Some(s))
        && (!strict
            || (h.start == wanted.limit_start_date
                && h.end == wanted.limit_end_date
                && h.concurrent == wanted.limit_concurrent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(uri: &str, order: Option<i64>, concurrent: Option<i32>) -> Held<'_, i64> {
        Held {
            uri,
            start: Some(1),
            end: Some(2),
            concurrent,
            order,
        }
    }

    fn wanted(uri: &str, strict: bool, concurrent: Option<i32>) -> ProductEntry {
        ProductEntry {
            product_uri: Some(format!(" {uri} ")),
            strict_match_when_delete: Some(strict),
            limit_start_date: Some(1),
            limit_end_date: Some(2),
            limit_concurrent: concurrent,
            ..ProductEntry::default()
        }
    }

    #[test]
    fn an_asset_without_source_goes_whole() {
        let h = [held("a", Some(1), None), held("b", None, None)];
        let r = delete_asset(&h, Some(&1), None);
        assert_eq!(
            r,
            Ok(AssetRemoval {
                products: vec![0, 1],
                asset_goes: true
            })
        );
    }

    #[test]
    fn a_source_order_takes_its_own_and_the_asset_once_empty() {
        let h = [held("a", Some(1), None), held("b", Some(2), None)];
        assert_eq!(
            delete_asset(&h, Some(&1), Some(&2)),
            Ok(AssetRemoval {
                products: vec![1],
                asset_goes: false
            })
        );
        assert_eq!(
            delete_asset(&h[..1], None, Some(&1)),
            Ok(AssetRemoval {
                products: vec![0],
                asset_goes: true
            })
        );
        assert_eq!(
            delete_asset(&h, Some(&1), Some(&3)),
            Err(NotRemovable::NothingFromSource)
        );
    }

    #[test]
    fn products_by_mnemonic_take_every_instance_and_strict_only_the_exact_one() {
        let h = [
            held("a", Some(1), Some(5)),
            held("a", Some(2), Some(9)),
            held("b", Some(1), None),
        ];
        assert_eq!(
            delete_products(&h, &[wanted("a", false, None)], None),
            Ok(vec![0, 1])
        );
        assert_eq!(
            delete_products(&h, &[wanted("a", true, Some(9))], None),
            Ok(vec![1])
        );
        assert_eq!(
            delete_products(&h, &[wanted("a", false, None)], Some(&2)),
            Ok(vec![1])
        );
        assert_eq!(
            delete_products(
                &h,
                &[wanted("b", false, None), wanted("b", false, None)],
                None
            ),
            Err(NotRemovable::NoProduct { product: 1 })
        );
        assert_eq!(
            delete_products(&h, &[wanted("a", true, Some(7))], None),
            Err(NotRemovable::NoProduct { product: 0 })
        );
    }
}
