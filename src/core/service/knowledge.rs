//! The catalog and the directory in the service: opened once, the scope a profile uses, and
//! the learning from every batch and answer (in the background: a call's answer never waits on
//! it). What the window asks of them is in `core::catalog::requests`.

use std::sync::Arc;

use super::Service;
use crate::core::CoreError;
use crate::core::catalog::learn::Learned;
use crate::core::catalog::share::{CatalogFile, DEMO_CATALOG};
use crate::core::catalog::store::{Catalog, CatalogError, ImportReport, SHARED};
use crate::core::profiles::SANDBOX;
use support::clock::now_ms;

/// Opens the catalog; a new one starts with the Sandbox's demo catalog (and its demo customers
/// in the Sandbox's directory), once: what the user removes of it does not come back. Without
/// the catalog the console still works: only what needs it fails.
pub(super) fn open_catalog(path: &std::path::Path) -> Result<Arc<Catalog>, CatalogError> {
    let catalog = Catalog::open(path)?;
    let demo: CatalogFile = serde_json::from_str(DEMO_CATALOG)?;
    catalog.seed_once(|c| {
        c.learn(SHARED, SANDBOX, &demo.learned(), now_ms())
            .map(|_| ())
    })?;
    Ok(Arc::new(catalog))
}

impl Service {
    pub(in crate::core) fn catalog(&self) -> Result<Arc<Catalog>, CoreError> {
        self.catalog
            .as_ref()
            .map(Arc::clone)
            .map_err(|why| CoreError::Catalog(Arc::clone(why)))
    }

    /// The profile's directory, or none when it cannot be read (said in the log).
    pub(in crate::core) fn directory_of(
        &self,
        profile: &str,
    ) -> Vec<crate::core::catalog::entries::DirectoryEntry> {
        match &self.catalog {
            Ok(catalog) => catalog
                .customers(profile)
                .map(|known| known.into_iter().map(|k| k.item).collect())
                .unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "the directory cannot be read");
                    Vec::new()
                }),
            Err(_) => Vec::new(),
        }
    }

    /// The scope of the catalog `profile` uses: its own when it keeps one or mirrors a team
    /// server's, else the shared.
    pub(in crate::core) fn scope_of(&self, profile: &str) -> String {
        match self.profiles().get(profile) {
            Some(p) if p.own_catalog || p.is_team() => p.name.clone(),
            _ => SHARED.to_owned(),
        }
    }

    /// What a call's answer taught: shared with the profile's team server and learned here,
    /// both in the background.
    pub(in crate::core) async fn learned(&self, profile: &str, learned: Learned) {
        if learned.customers.is_empty()
            && learned.products.is_empty()
            && learned.packages.is_empty()
        {
            return;
        }
        self.share(profile, &learned).await;
        self.learn(profile, learned);
    }

    /// Learns in the background; a failure is logged, never in the way of the call's answer.
    pub(super) fn learn(&self, profile: &str, learned: Learned) {
        self.learn_from(profile, move || learned);
    }

    /// As `learn`, with what is learned worked out on the blocking thread too (from a large
    /// batch, after the answer that brought it has gone to the window).
    pub(super) fn learn_from(
        &self,
        profile: &str,
        learned: impl FnOnce() -> Learned + Send + 'static,
    ) {
        let Ok(catalog) = self.catalog() else {
            return;
        };
        let scope = self.scope_of(profile);
        let profile = profile.to_owned();
        tokio::task::spawn_blocking(move || {
            let learned = learned();
            if let Err(e) = catalog.learn(&scope, &profile, &learned, now_ms()) {
                tracing::warn!(error = %e, "the catalog did not learn from an answer");
            }
        });
    }

    /// As `learn_from`, awaited: what the catalog and the directory took from it (an import
    /// says so). None when the catalog could not learn (logged).
    pub(in crate::core) async fn learn_said(
        &self,
        profile: &str,
        learned: impl FnOnce() -> Learned + Send + 'static,
    ) -> Option<ImportReport> {
        let catalog = match self.catalog() {
            Ok(catalog) => catalog,
            Err(e) => {
                tracing::warn!(error = %e, "the catalog could not learn from a file");
                return None;
            }
        };
        let scope = self.scope_of(profile);
        let profile = profile.to_owned();
        let taught = tokio::task::spawn_blocking(move || {
            catalog.learn(&scope, &profile, &learned(), now_ms())
        })
        .await;
        match taught {
            Ok(Ok(report)) => Some(report),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "the catalog did not learn from a file");
                None
            }
            Err(e) => {
                tracing::warn!(error = %e, "the catalog's learning stopped");
                None
            }
        }
    }
}
