//! A team profile's catalog and directory mirror the team server's (docs/team.md, "Shared
//! knowledge"): before the catalog is shown, the changes since the last number seen are read
//! into the mirror (the profile's own scope); what this console learns, and a product or
//! package the person edits or removes, is written to the server too, in the background.

use std::sync::Arc;

use super::Service;
use crate::core::catalog::entries::DirectoryEntry;
use crate::core::catalog::learn::Learned;
use crate::core::catalog::store::{Catalog, CatalogError, Shelf};
use client::Client;
use support::clock::now_ms;
use wire::knowledge::{self, Change, Put, Shelf as TeamShelf};
use wire::preview::given;

impl Service {
    /// Reads the server's changes into the mirror; a server out of reach (or a session that
    /// ended) leaves the mirror as it was, and the catalog is shown from it.
    pub(in crate::core) async fn pull_knowledge(&self, profile: &str) {
        if !self.is_team(profile) {
            return;
        }
        let (Ok(catalog), Ok(client)) = (self.catalog(), self.client(profile).await) else {
            return;
        };
        let mark = format!("team-knowledge:{profile}");
        loop {
            let since = catalog.mark(&mark).ok().flatten();
            let since = since.and_then(|s| s.parse().ok()).unwrap_or(0);
            let changes = match client.knowledge(since).await {
                Ok(changes) => changes,
                Err(e) => {
                    if e.session_ended() {
                        self.session_ended(profile).await;
                    }
                    tracing::warn!(error = %e, "the team's catalog could not be read");
                    return;
                }
            };
            let (catalog, scope) = (Arc::clone(&catalog), self.scope_of(profile));
            let (profile, mark) = (profile.to_owned(), mark.clone());
            let more = changes.more;
            let applied = tokio::task::spawn_blocking(move || {
                mirror(&catalog, &scope, &profile, &changes.changes)?;
                catalog.set_mark(&mark, &changes.last.to_string())
            })
            .await;
            match applied {
                Ok(Ok(())) if more => {}
                Ok(Ok(())) => return,
                Ok(Err(e)) => return tracing::warn!(error = %e, "the team's catalog not kept"),
                Err(e) => return tracing::warn!(error = %e, "the team's catalog not kept"),
            }
        }
    }

    /// Writes what was learned to the team server, in the background, when `profile` is a
    /// team server's.
    pub(in crate::core) async fn share(&self, profile: &str, learned: &Learned) {
        self.share_puts(profile, puts_of(learned)).await;
    }

    /// Writes items to the team server, in the background, when `profile` is a team server's.
    pub(in crate::core) async fn share_puts(&self, profile: &str, puts: Vec<Put>) {
        if puts.is_empty() || !self.is_team(profile) {
            return;
        }
        let Ok(client) = self.client(profile).await else {
            return;
        };
        tokio::spawn(write_all(client, puts));
    }
}

async fn write_all(client: Arc<Client>, puts: Vec<Put>) {
    for chunk in puts.chunks(knowledge::MAX_PUTS) {
        if let Err(e) = client.put_knowledge(chunk).await {
            tracing::warn!(error = %e, "the team's catalog did not learn from this console");
            return;
        }
    }
}

/// The server's changes applied to the mirror: values learned (the server's fields win),
/// removed products and packages removed. A customer removed elsewhere stays in this
/// directory: its rows here are keyed by this file's own ids.
fn mirror(
    catalog: &Catalog,
    scope: &str,
    profile: &str,
    changes: &[Change],
) -> Result<(), CatalogError> {
    let mut learned = Learned::default();
    for c in changes {
        match (c.shelf, &c.value) {
            (TeamShelf::Products, Some(v)) => {
                learned.products.push(serde_json::from_value(v.clone())?)
            }
            (TeamShelf::Packages, Some(v)) => {
                learned.packages.push(serde_json::from_value(v.clone())?)
            }
            (TeamShelf::Customers, Some(v)) => {
                learned.customers.push(serde_json::from_value(v.clone())?);
            }
            (TeamShelf::Products, None) => {
                catalog.remove(scope, Shelf::Products, &c.key)?;
            }
            (TeamShelf::Packages, None) => {
                catalog.remove(scope, Shelf::Packages, &c.key)?;
            }
            (TeamShelf::Customers, None) => {}
        }
    }
    catalog
        .learn(scope, profile, &learned, now_ms())
        .map(|_| ())
}

/// What was learned, as items of the team's catalog and directory.
fn puts_of(learned: &Learned) -> Vec<Put> {
    let put = |shelf, key: &str, value: serde_json::Result<serde_json::Value>| {
        value.ok().map(|value| Put {
            shelf,
            key: key.to_owned(),
            value: Some(value),
        })
    };
    let products = learned.products.iter().filter_map(|p| {
        let key = p.product_uri.as_deref()?;
        put(TeamShelf::Products, key, serde_json::to_value(p))
    });
    let packages = learned.packages.iter().filter_map(|m| {
        let key = m.merchandise_num.as_deref()?;
        put(TeamShelf::Packages, key, serde_json::to_value(m))
    });
    let customers = learned.customers.iter().filter_map(|c| {
        let key = team_key(c)?;
        put(TeamShelf::Customers, &key, serde_json::to_value(c))
    });
    products.chain(packages).chain(customers).collect()
}

/// A customer's key on the team server: its strongest id.
fn team_key(c: &DirectoryEntry) -> Option<String> {
    if let Some(id) = given(&c.customer_id) {
        return Some(format!("customer:{id}"));
    }
    if let (Some(code), Some(id)) = (given(&c.channel_code), given(&c.channel_customer_id)) {
        return Some(format!("channel:{code}/{id}"));
    }
    if let Some(id) = given(&c.crm_customer_id) {
        return Some(format!("crm:{id}"));
    }
    given(&c.enterprise_global_id).map(|id| format!("enterprise:{id}"))
}
