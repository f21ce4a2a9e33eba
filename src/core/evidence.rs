//! What the platform holds for a batch whose outcome is unknown: each asset of its orders
//! looked up in its enterprise's listing, beside what the batch asked for. The user reads the
//! evidence and settles the outcome; the console does not decide from it, since a purchase may
//! have added products to an asset that was there before.

use std::collections::HashMap;

use crate::core::CoreError;
use wire::preview::Placement;
use wire::{Asset, AssetEntry, BatchOrderRequest, OrderType};

/// The batch's assets as found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Evidence {
    pub assets: Vec<AssetEvidence>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetEvidence {
    /// The order's sequence (or its place, from 1).
    pub sequence: i64,
    pub asset_num: String,
    pub order_type: Option<OrderType>,
    /// Products the order names for the asset (all of them for a purchase, the removed ones for
    /// a product deletion).
    pub products: Vec<String>,
    pub found: Found,
}

/// What the listing says of one asset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Listed, with the products it holds.
    Listed { products: Vec<String> },
    /// The enterprise's listing does not hold it.
    NotListed,
    /// The listing could not be read (why), or the order's enterprise is not known.
    Unreadable(String),
}

impl AssetEvidence {
    /// Whether what was found is what the order would have made: a purchase's asset listed
    /// with its products, a deleted asset gone, deleted products gone. None when unreadable.
    pub fn as_asked(&self) -> Option<bool> {
        let held = match &self.found {
            Found::Unreadable(_) => return None,
            Found::NotListed => None,
            Found::Listed { products } => Some(products),
        };
        Some(match (self.order_type, held) {
            (Some(OrderType::NewBuy), Some(held)) => self.products.iter().all(|p| held.contains(p)),
            (Some(OrderType::NewBuy), None) => false,
            (Some(OrderType::DeleteAsset), held) => held.is_none(),
            (Some(OrderType::DeleteProduct), Some(held)) => {
                self.products.iter().all(|p| !held.contains(p))
            }
            (Some(OrderType::DeleteProduct), None) | (None, _) => return None,
        })
    }
}

impl Evidence {
    /// How many assets are as the batch asked, as they were, and not readable.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for a in &self.assets {
            match a.as_asked() {
                Some(true) => counts.0 += 1,
                Some(false) => counts.1 += 1,
                None => counts.2 += 1,
            }
        }
        counts
    }
}

/// The evidence for `batch`, its orders placed (`placed`, one per order) and the listings of
/// their enterprises read (or why not).
pub fn gather(
    batch: &BatchOrderRequest,
    placed: &[Placement],
    listings: &HashMap<String, Result<Vec<Asset>, CoreError>>,
) -> Evidence {
    let mut assets = Vec::new();
    for (i, (order, placement)) in batch.order_list.iter().zip(placed).enumerate() {
        let listing = placement.enterprise.as_ref().map(|e| listings.get(e));
        let sequence = order.sequence.map_or(i as i64 + 1, i64::from);
        for entry in &order.assets {
            for num in &entry.asset_nos {
                assets.push(AssetEvidence {
                    sequence,
                    asset_num: num.clone(),
                    order_type: order.order_type,
                    products: asked_products(entry),
                    found: found(listing, num),
                });
            }
        }
    }
    Evidence { assets }
}

fn asked_products(entry: &AssetEntry) -> Vec<String> {
    entry
        .products
        .iter()
        .filter_map(|p| p.product_uri.clone())
        .filter(|p| !p.trim().is_empty())
        .collect()
}

/// `listing` is None when the order's enterprise is not known, Some(None) when it was not
/// listed.
fn found(listing: Option<Option<&Result<Vec<Asset>, CoreError>>>, num: &str) -> Found {
    match listing {
        None => Found::Unreadable("the order's enterprise is not known".to_owned()),
        Some(None) => Found::Unreadable(String::new()),
        Some(Some(Err(why))) => Found::Unreadable(why.to_string()),
        Some(Some(Ok(assets))) => match assets.iter().find(|a| a.asset_num == num) {
            Some(a) => Found::Listed {
                products: a.products.iter().map(|p| p.product_uri.clone()).collect(),
            },
            None => Found::NotListed,
        },
    }
}
