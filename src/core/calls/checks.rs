//! Reads that check a batch and change nothing: what its delete orders would remove on the
//! profile (each delete order placed: its customer as the platform will take it, its
//! enterprise; the enterprises' assets listed; the platform's rule run over them), and what
//! the platform holds of a batch sent with its outcome unknown.

use std::collections::HashMap;

use super::requests::{Assets, QueryCustomers};
use crate::core::CoreError;
use crate::core::catalog::{DirectoryEntry, Known};
use crate::core::evidence::{self, Evidence};
use crate::core::request::{Request, Services};
use wire::preview::{self, DeletePreview, OrderCustomer, Placement, given, is_delete};
use wire::{BatchOrderRequest, CustomerQuery, OrderEntry};

/// Works out what the batch's delete orders would remove on the profile, from its asset
/// listings.
#[derive(Debug, Clone)]
pub struct PreviewDeletes {
    pub profile: String,
    pub batch: Box<BatchOrderRequest>,
}

impl Request for PreviewDeletes {
    type Reply = Box<DeletePreview>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Box<DeletePreview>, CoreError> {
        let (profile, batch) = (&self.profile, &self.batch);
        let placed = placements(&services, profile, batch, is_delete).await;
        let listings = listings(&services, profile, &placed).await;
        Ok(Box::new(preview::preview(batch, &placed, &listings)))
    }
}

/// Reads what the profile's platform holds of a batch sent with its outcome unknown: every
/// order placed, its enterprise's assets listed, each asset of the batch looked up.
#[derive(Debug, Clone)]
pub struct CheckSent {
    pub profile: String,
    pub batch: Box<BatchOrderRequest>,
}

impl Request for CheckSent {
    type Reply = Box<Evidence>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Box<Evidence>, CoreError> {
        let (profile, batch) = (&self.profile, &self.batch);
        let placed = placements(&services, profile, batch, |_| true).await;
        let listings = listings(&services, profile, &placed).await;
        Ok(Box::new(evidence::gather(batch, &placed, &listings)))
    }
}

/// Each order placed, where `wanted` says so (the others are not placed).
async fn placements(
    services: &Services,
    profile: &str,
    batch: &BatchOrderRequest,
    wanted: impl Fn(&OrderEntry) -> bool,
) -> Vec<Placement> {
    let directory = directory(services, profile);
    let mut placed = Vec::with_capacity(batch.order_list.len());
    for order in &batch.order_list {
        placed.push(if wanted(order) {
            place(services, profile, batch, order, &directory).await
        } else {
            Placement::default()
        });
    }
    placed
}

/// The listing of each enterprise the placements name, read once each (or why not).
async fn listings(
    services: &Services,
    profile: &str,
    placed: &[Placement],
) -> HashMap<String, Result<Vec<wire::Asset>, CoreError>> {
    let mut listings = HashMap::new();
    for enterprise in placed.iter().filter_map(|p| p.enterprise.as_ref()) {
        if listings.contains_key(enterprise) {
            continue;
        }
        let asked = Assets {
            profile: profile.to_owned(),
            enterprise_global_id: enterprise.clone(),
            extend_code: None,
        };
        let listed = asked.serve(services.clone()).await.map(|a| a.to_assets());
        listings.insert(enterprise.clone(), listed);
    }
    listings
}

/// The order's customer as the platform will take it (its `customerId`, else the one its
/// channel id names: operation 3 asks), and the enterprise whose listing holds its assets.
async fn place(
    services: &Services,
    profile: &str,
    batch: &BatchOrderRequest,
    order: &OrderEntry,
    directory: &[Known<DirectoryEntry>],
) -> Placement {
    let mut placement = Placement {
        enterprise: given(&order.enterprise_global_id),
        customer: OrderCustomer::Unknown,
    };
    if let Some(id) = given(&order.customer_id) {
        placement.customer = OrderCustomer::Known(id);
    } else if let (Some(code), Some(channel_id)) = (
        given(&batch.channel_code),
        given(&order.channel_customer_id),
    ) {
        let query = CustomerQuery {
            channel_code: Some(code.clone()),
            channel_customer_id: Some(channel_id.clone()),
            default_customer: None,
        };
        let asked = QueryCustomers {
            profile: profile.to_owned(),
            query,
        };
        if let Ok(found) = asked.serve(services.clone()).await {
            placement.by_channel(&found, &code, &channel_id);
        }
    }
    if placement.enterprise.is_none() {
        placement.enterprise = known_enterprise(order, directory);
    }
    placement
}

/// The profile's directory; empty when the catalog cannot be read (the preview then says
/// which orders it cannot place).
fn directory(services: &Services, profile: &str) -> Vec<Known<DirectoryEntry>> {
    match services.0.catalog() {
        Ok(catalog) => catalog.customers(profile).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "the directory cannot be read for a preview");
            Vec::new()
        }),
        Err(_) => Vec::new(),
    }
}

/// The enterprise the directory knows for the order's customer.
fn known_enterprise(order: &OrderEntry, directory: &[Known<DirectoryEntry>]) -> Option<String> {
    let same = |a: &Option<String>, b: &Option<String>| given(a).is_some() && given(a) == given(b);
    directory
        .iter()
        .map(|k| &k.item)
        .find(|c| {
            same(&order.customer_id, &c.customer_id)
                || same(&order.channel_customer_id, &c.channel_customer_id)
                || same(&order.crm_customer_id, &c.crm_customer_id)
        })
        .and_then(|c| given(&c.enterprise_global_id))
}
