//! The delete preview in the service: each delete order placed (its customer as the platform
//! will take it, its enterprise), the enterprises' assets listed on the profile the batch goes
//! to, and the platform's rule run over them.

use std::collections::HashMap;

use super::Service;
use crate::core::catalog::{DirectoryEntry, Known};
use crate::core::{Call, CoreError, Outcome};
use crate::wire::preview::{self, OrderCustomer, Placement, given, is_delete};
use crate::wire::{BatchOrderRequest, CustomerQuery, OrderEntry};

impl Service {
    pub(super) async fn preview_deletes(
        &self,
        profile: &str,
        batch: &BatchOrderRequest,
    ) -> Result<Outcome, CoreError> {
        let placed = self.placements(profile, batch, is_delete).await;
        let listings = self.listings(profile, &placed).await;
        let found = preview::preview(batch, &placed, &listings);
        Ok(Outcome::DeletePreview(Box::new(found)))
    }

    /// What the platform holds of a batch whose outcome is unknown: every order placed, its
    /// enterprise's assets listed, each asset of the batch looked up.
    pub(super) async fn check_sent(
        &self,
        profile: &str,
        batch: &BatchOrderRequest,
    ) -> Result<Outcome, CoreError> {
        let placed = self.placements(profile, batch, |_| true).await;
        let listings = self.listings(profile, &placed).await;
        let found = crate::core::evidence::gather(batch, &placed, &listings);
        Ok(Outcome::Evidence(Box::new(found)))
    }

    /// Each order placed, where `wanted` says so (the others are not placed).
    async fn placements(
        &self,
        profile: &str,
        batch: &BatchOrderRequest,
        wanted: impl Fn(&OrderEntry) -> bool,
    ) -> Vec<Placement> {
        let directory = self.directory(profile);
        let mut placed = Vec::with_capacity(batch.order_list.len());
        for order in &batch.order_list {
            placed.push(if wanted(order) {
                self.place(profile, batch, order, &directory).await
            } else {
                Placement::default()
            });
        }
        placed
    }

    /// The listing of each enterprise the placements name, read once each (or why not).
    async fn listings(
        &self,
        profile: &str,
        placed: &[Placement],
    ) -> HashMap<String, Result<Vec<crate::wire::Asset>, String>> {
        let mut listings = HashMap::new();
        for enterprise in placed.iter().filter_map(|p| p.enterprise.as_ref()) {
            if listings.contains_key(enterprise) {
                continue;
            }
            let call = Call::Assets {
                enterprise_global_id: enterprise.clone(),
                extend_code: None,
            };
            let listed = match self.call(profile, call).await {
                Ok(Outcome::Assets(assets)) => Ok(assets.to_assets()),
                Ok(other) => Err(format!("unexpected answer {other:?}")),
                Err(e) => Err(e.to_string()),
            };
            listings.insert(enterprise.clone(), listed);
        }
        listings
    }

    /// The order's customer as the platform will take it (its `customerId`, else the one its
    /// channel id names: operation 3 asks), and the enterprise whose listing holds its assets.
    async fn place(
        &self,
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
            if let Ok(Outcome::Customers(found)) =
                self.call(profile, Call::QueryCustomers(query)).await
            {
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
    fn directory(&self, profile: &str) -> Vec<Known<DirectoryEntry>> {
        match &self.catalog {
            Ok(catalog) => catalog.customers(profile).unwrap_or_else(|e| {
                tracing::warn!(error = %e, "the directory cannot be read for a preview");
                Vec::new()
            }),
            Err(_) => Vec::new(),
        }
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
