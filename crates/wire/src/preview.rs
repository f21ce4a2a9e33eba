//! What the delete orders of a batch would remove, worked out before it is sent (by the
//! console, and by a team server filing a delete for approval): the assets of the enterprises
//! involved (operation 8, on the profile the batch goes to) run through the platform's own
//! removal rule (`wire::removal`), order after order as the platform applies them.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::refusal::Refusal;
use crate::removal::{self, Held, NotRemovable};
use crate::{Asset, AssetEntry, AssetProduct, BatchOrderRequest, Customer, OrderEntry, OrderType};

/// The effect of a batch's delete orders.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeletePreview {
    pub orders: Vec<OrderPreview>,
}

/// The effect of one delete order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderPreview {
    /// Its place in `orderList`.
    pub index: usize,
    pub sequence: Option<i32>,
    pub order_type: OrderType,
    pub enterprise_global_id: Option<String>,
    /// Each product instance it removes.
    pub removed: Vec<RemovedProduct>,
    /// The assets that go whole.
    pub assets_removed: Vec<String>,
    pub warnings: Vec<Warning>,
}

/// A product instance a delete order removes, as the listing shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemovedProduct {
    pub asset_num: String,
    #[serde(flatten)]
    pub product: AssetProduct,
}

/// What an administrator must know about a delete order before sending it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Warning {
    /// It would remove nothing.
    RemovesNothing,
    /// No `srcLicenseOrderId`: it removes from every order of the customer.
    AllOrdersOfCustomer,
    /// A product matched by its URI alone catches more than one instance on an asset.
    #[serde(rename_all = "camelCase")]
    LooseMatch {
        asset_num: String,
        product_uri: String,
        count: usize,
    },
    /// The asset is not in the enterprise's listing.
    #[serde(rename_all = "camelCase")]
    AssetNotListed { asset_num: String },
    /// The platform would refuse the batch here (and so remove nothing at all): why, typed
    /// for the window to say in its language, and in the platform's words for a script.
    Refused {
        path: String,
        #[serde(deserialize_with = "Refusal::either_form")]
        refusal: Refusal,
        message: String,
    },
    /// The order names no enterprise, and the directory does not know its customer's.
    UnknownEnterprise,
    /// The enterprise's assets could not be listed.
    ListingFailed { reason: String },
    /// The listing shows no products (a platform that does not list them): which products
    /// go is unknown.
    ProductsNotListed,
}

impl Warning {
    fn refused(path: String, refusal: Refusal) -> Self {
        Self::Refused {
            path,
            message: refusal.to_string(),
            refusal,
        }
    }

    /// The effect of the order cannot be known.
    pub fn makes_unknown(&self) -> bool {
        matches!(
            self,
            Self::UnknownEnterprise | Self::ListingFailed { .. } | Self::ProductsNotListed
        )
    }
}

impl DeletePreview {
    /// Some order's effect could not be worked out.
    pub fn unknown(&self) -> bool {
        self.warnings().any(Warning::makes_unknown)
    }

    /// The platform would refuse the batch.
    pub fn refused(&self) -> bool {
        self.warnings()
            .any(|w| matches!(w, Warning::Refused { .. }))
    }

    pub fn products_removed(&self) -> usize {
        self.orders.iter().map(|o| o.removed.len()).sum()
    }

    pub fn assets_removed(&self) -> usize {
        self.orders.iter().map(|o| o.assets_removed.len()).sum()
    }

    fn warnings(&self) -> impl Iterator<Item = &Warning> {
        self.orders.iter().flat_map(|o| &o.warnings)
    }
}

/// The delete orders of the batch.
pub fn is_delete(order: &OrderEntry) -> bool {
    matches!(
        order.order_type,
        Some(OrderType::DeleteAsset | OrderType::DeleteProduct)
    )
}

/// Where a delete order's assets are found, and whose they must be.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Placement {
    pub enterprise: Option<String>,
    pub customer: OrderCustomer,
}

/// The customer the platform will take a delete order to be for.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum OrderCustomer {
    /// Not known before sending: assets are not checked against it.
    #[default]
    Unknown,
    /// The platform's customer id.
    Known(String),
    /// The platform knows no customer by the order's channel id: it will make one, which holds
    /// none of the assets.
    New,
}

impl Placement {
    /// Places the order by the customers the platform found for its channel id: theirs (and
    /// their enterprise, when the order names none), or a new customer when none matches.
    pub fn by_channel(&mut self, found: &[Customer], code: &str, channel_id: &str) {
        let same = |c: &&Customer| c.channel_code == code && c.channel_customer_id == channel_id;
        self.customer = match found.iter().find(same) {
            Some(c) => {
                if self.enterprise.is_none() && !c.enterprise_global_id.is_empty() {
                    self.enterprise = Some(c.enterprise_global_id.clone());
                }
                OrderCustomer::Known(c.customer_id.clone())
            }
            None => OrderCustomer::New,
        };
    }
}

/// A field's value, trimmed, when it has one.
pub fn given(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// An asset as the preview goes through the batch: what earlier orders already took is gone.
struct Live<'a> {
    asset: &'a Asset,
    gone: bool,
    products_gone: Vec<bool>,
}

/// Works out the batch's deletes. `placed` says where each order's assets are (by index);
/// `listings` holds each enterprise's assets, or why they could not be listed.
pub fn preview<E: std::fmt::Display>(
    batch: &BatchOrderRequest,
    placed: &[Placement],
    listings: &HashMap<String, Result<Vec<Asset>, E>>,
) -> DeletePreview {
    let mut live: HashMap<&str, Live<'_>> = HashMap::new();
    for assets in listings.values().flatten() {
        for asset in assets {
            live.insert(
                &asset.asset_num,
                Live {
                    asset,
                    gone: false,
                    products_gone: vec![false; asset.products.len()],
                },
            );
        }
    }
    let mut orders = Vec::new();
    for (index, order) in batch.order_list.iter().enumerate() {
        let Some(order_type) = order.order_type.filter(|_| is_delete(order)) else {
            continue;
        };
        let placement = placed.get(index).cloned().unwrap_or_default();
        let enterprise = placement.enterprise.clone();
        let mut preview = OrderPreview {
            index,
            sequence: order.sequence,
            order_type,
            enterprise_global_id: enterprise.clone(),
            removed: Vec::new(),
            assets_removed: Vec::new(),
            warnings: Vec::new(),
        };
        match enterprise.as_ref().map(|e| listings.get(e)) {
            None => preview.warnings.push(Warning::UnknownEnterprise),
            Some(None) => preview.warnings.push(Warning::ListingFailed {
                reason: "not listed".to_owned(),
            }),
            Some(Some(Err(reason))) => preview.warnings.push(Warning::ListingFailed {
                reason: reason.to_string(),
            }),
            Some(Some(Ok(assets))) => {
                if !assets.is_empty() && assets.iter().all(|a| a.products.is_empty()) {
                    preview.warnings.push(Warning::ProductsNotListed);
                }
                apply_order(order, index, &placement.customer, &mut live, &mut preview);
            }
        }
        orders.push(preview);
    }
    DeletePreview { orders }
}

fn source_of(order: &OrderEntry) -> Option<&str> {
    order
        .src_license_order_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Runs one delete order through the rule, asset by asset, taking what it removes.
fn apply_order(
    order: &OrderEntry,
    index: usize,
    customer: &OrderCustomer,
    live: &mut HashMap<&str, Live<'_>>,
    preview: &mut OrderPreview,
) {
    let src = source_of(order);
    if src.is_none() {
        preview.warnings.push(Warning::AllOrdersOfCustomer);
    }
    for (j, entry) in order.assets.iter().enumerate() {
        let entry_path = format!("orderList[{index}].assets[{j}]");
        for (k, num) in entry.asset_nos.iter().enumerate() {
            let path = format!("{entry_path}.assetNos[{k}]");
            let Some(asset) = live.get_mut(num.trim()).filter(|a| !a.gone) else {
                let known = live.contains_key(num.trim());
                preview.warnings.push(if known {
                    Warning::refused(path, Refusal::RemovedEarlier { asset: num.clone() })
                } else {
                    Warning::AssetNotListed {
                        asset_num: num.clone(),
                    }
                });
                continue;
            };
            if let Some(refusal) = not_its(customer, asset.asset) {
                preview.warnings.push(Warning::refused(path, refusal));
                continue;
            }
            let outcome = match preview.order_type {
                OrderType::DeleteAsset => remove_asset(asset, src, &path, preview),
                _ => remove_products(asset, entry, &entry_path, src, preview),
            };
            if let Err(refused) = outcome {
                preview.warnings.push(refused);
            }
        }
    }
    if preview.removed.is_empty() && preview.assets_removed.is_empty() && !refused(preview) {
        preview.warnings.push(Warning::RemovesNothing);
    }
}

/// Why the platform would refuse the asset as not the order's customer's.
fn not_its(customer: &OrderCustomer, asset: &Asset) -> Option<Refusal> {
    let (num, owner) = (asset.asset_num.clone(), asset.customer_id.clone());
    match customer {
        OrderCustomer::Known(c) if *c != asset.customer_id => Some(Refusal::OwnedByOther {
            asset: num,
            owner,
            customer: c.clone(),
        }),
        OrderCustomer::New => Some(Refusal::OwnedForNew { asset: num, owner }),
        _ => None,
    }
}

fn refused(preview: &OrderPreview) -> bool {
    preview
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::Refused { .. }))
}

/// The products still on the asset, with their index in its listing.
fn held<'a>(asset: &Live<'a>) -> (Vec<usize>, Vec<Held<'a, &'a str>>) {
    asset
        .asset
        .products
        .iter()
        .enumerate()
        .filter(|(i, _)| !asset.products_gone[*i])
        .map(|(i, p)| {
            let held = Held {
                uri: p.product_uri.as_str(),
                start: p.limit_start_date,
                end: p.limit_end_date,
                concurrent: p.limit_concurrent,
                order: p.license_order_id.as_deref(),
            };
            (i, held)
        })
        .unzip()
}

/// Takes the listed products at these places of `held` off the asset, into the preview.
fn take(asset: &mut Live<'_>, places: &[usize], which: &[usize], preview: &mut OrderPreview) {
    for &w in which {
        let i = places[w];
        asset.products_gone[i] = true;
        preview.removed.push(RemovedProduct {
            asset_num: asset.asset.asset_num.clone(),
            product: asset.asset.products[i].clone(),
        });
    }
}

fn remove_asset(
    asset: &mut Live<'_>,
    src: Option<&str>,
    path: &str,
    preview: &mut OrderPreview,
) -> Result<(), Warning> {
    let (places, held) = held(asset);
    let created_by = asset.asset.license_order_id.as_deref();
    let removal =
        removal::delete_asset(&held, created_by.as_ref(), src.as_ref()).map_err(|_| {
            Warning::refused(
                path.to_owned(),
                Refusal::NothingFromSource {
                    asset: asset.asset.asset_num.clone(),
                },
            )
        })?;
    take(asset, &places, &removal.products, preview);
    if removal.asset_goes {
        asset.gone = true;
        preview.assets_removed.push(asset.asset.asset_num.clone());
    }
    Ok(())
}

fn remove_products(
    asset: &mut Live<'_>,
    entry: &AssetEntry,
    entry_path: &str,
    src: Option<&str>,
    preview: &mut OrderPreview,
) -> Result<(), Warning> {
    let (places, held) = held(asset);
    for wanted in entry
        .products
        .iter()
        .filter(|p| p.strict_match_when_delete != Some(true))
    {
        let count = held
            .iter()
            .filter(|h| removal::matches(h, wanted, src.as_ref()))
            .count();
        if count > 1 {
            preview.warnings.push(Warning::LooseMatch {
                asset_num: asset.asset.asset_num.clone(),
                product_uri: wanted.product_uri.clone().unwrap_or_default(),
                count,
            });
        }
    }
    match removal::delete_products(&held, &entry.products, src.as_ref()) {
        Ok(which) => {
            take(asset, &places, &which, preview);
            Ok(())
        }
        Err(NotRemovable::NoProduct { product }) => Err(Warning::refused(
            format!("{entry_path}.products[{product}]"),
            Refusal::NoProduct {
                asset: asset.asset.asset_num.clone(),
                uri: entry.products[product]
                    .product_uri
                    .as_deref()
                    .unwrap_or_default()
                    .trim()
                    .to_owned(),
            },
        )),
        Err(NotRemovable::NothingFromSource) => Ok(()),
    }
}
