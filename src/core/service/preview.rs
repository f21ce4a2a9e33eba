//! The delete preview in the service: each delete order's enterprise (named by the order, or
//! known to the profile's directory), its assets listed on the profile the batch goes to, and
//! the platform's rule run over them.

use std::collections::HashMap;

use super::Service;
use crate::core::catalog::{DirectoryEntry, Known};
use crate::core::preview::{self, is_delete};
use crate::core::{Call, CoreError, Outcome};
use crate::wire::{BatchOrderRequest, OrderEntry};

impl Service {
    pub(super) async fn preview_deletes(
        &self,
        profile: &str,
        batch: &BatchOrderRequest,
    ) -> Result<Outcome, CoreError> {
        let directory = self.directory(profile);
        let enterprise_of: Vec<Option<String>> = batch
            .order_list
            .iter()
            .map(|o| is_delete(o).then(|| enterprise_of(o, &directory)).flatten())
            .collect();
        let mut listings = HashMap::new();
        for enterprise in enterprise_of.iter().flatten() {
            if listings.contains_key(enterprise) {
                continue;
            }
            let call = Call::Assets {
                enterprise_global_id: enterprise.clone(),
                extend_code: None,
            };
            let listed = match self.call(profile, call).await {
                Ok(Outcome::Assets(assets)) => Ok(assets),
                Ok(other) => Err(format!("unexpected answer {other:?}")),
                Err(e) => Err(e.to_string()),
            };
            listings.insert(enterprise.clone(), listed);
        }
        let found = preview::preview(batch, &enterprise_of, &listings);
        Ok(Outcome::DeletePreview(Box::new(found)))
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

/// The enterprise an order's assets are listed under: its own `enterpriseGlobalId`, else the
/// one the directory knows for its customer.
fn enterprise_of(order: &OrderEntry, directory: &[Known<DirectoryEntry>]) -> Option<String> {
    let given = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    if let Some(id) = given(&order.enterprise_global_id) {
        return Some(id);
    }
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
