//! The catalog learned from the platform's asset listings: every enterprise of the profile's
//! directory is listed, and the products its assets hold are kept as definitions (URI and
//! name). On a team profile the team's catalog learns them too. A platform whose listing
//! names no products (the interface's 2.3 shows none; the embedded platform adds them)
//! teaches nothing, and the answer says so.

use std::collections::{BTreeMap, BTreeSet};

use futures::StreamExt;

use super::learn::Learned;
use crate::core::CoreError;
use crate::core::request::{Request, Services};
use wire::ProductEntry;

/// Listings read at once.
const AT_ONCE: usize = 4;

#[derive(Debug, Clone)]
pub struct LearnFromListings {
    pub profile: String,
}

/// What the listings taught.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FromListings {
    /// Enterprises whose listing was read, and those whose listing could not be.
    pub read: usize,
    pub unread: usize,
    /// Products named by the listings, and how many of them the catalog did not hold.
    pub products: usize,
    pub new: usize,
}

impl Request for LearnFromListings {
    type Reply = FromListings;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<FromListings, CoreError> {
        let profile = self.profile;
        services.0.pull_knowledge(&profile).await;
        let enterprises: BTreeSet<String> = services
            .0
            .directory_of(&profile)
            .into_iter()
            .filter_map(|e| e.enterprise_global_id)
            .collect();
        let client = services.0.client(&profile).await?;
        let listings: Vec<_> = futures::stream::iter(enterprises)
            .map(|id| {
                let client = client.clone();
                async move { client.assets(&id, None).await }
            })
            .buffer_unordered(AT_ONCE)
            .collect()
            .await;
        let mut said = FromListings::default();
        let mut products = BTreeMap::new();
        for listing in listings {
            let Ok(listing) = listing else {
                said.unread += 1;
                continue;
            };
            said.read += 1;
            for p in listing.to_assets().into_iter().flat_map(|a| a.products) {
                let uri = p.product_uri.trim().to_owned();
                if uri.is_empty() {
                    continue;
                }
                let entry = ProductEntry {
                    product_uri: Some(uri.clone()),
                    product_name: p.product_name,
                    ..ProductEntry::default()
                };
                products.entry(uri).or_insert(entry);
            }
        }
        let learned = Learned {
            products: products.into_values().collect(),
            ..Learned::default()
        };
        said.products = learned.products.len();
        if said.products > 0 {
            services.0.share(&profile, &learned).await;
            let taught = services.0.learn_said(&profile, move || learned).await;
            said.new = taught.map_or(0, |t| t.products.new);
        }
        Ok(said)
    }
}
