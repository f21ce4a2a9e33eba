//! The catalog and the directory in the service: commands that read and change them, and the
//! learning from every batch and answer (in the background: a call's answer never waits on it).

use std::sync::Arc;

use super::Service;
use crate::clock::now_ms;
use crate::core::catalog::learn::{self, Learned};
use crate::core::catalog::share::{CatalogFile, DEMO_CATALOG};
use crate::core::catalog::sheet::write_catalog_sheet;
use crate::core::catalog::{Catalog, CatalogEdit, CatalogItem, CatalogView, DirectoryEntry, Shelf};
use crate::core::profiles::SANDBOX;
use crate::core::{Call, Command, CoreError, Outcome};

/// Opens the catalog; a new one starts with the Sandbox's demo catalog (and its demo customers
/// in the Sandbox's directory). Without it the console still works: only what needs it fails.
pub(super) fn open_catalog(path: &std::path::Path) -> Result<Arc<Catalog>, String> {
    let catalog = Catalog::open(path).map_err(|e| e.to_string())?;
    if catalog.is_empty().map_err(|e| e.to_string())? {
        let demo: CatalogFile = serde_json::from_str(DEMO_CATALOG).map_err(|e| e.to_string())?;
        catalog
            .learn(SANDBOX, &demo.learned(), now_ms())
            .map_err(|e| e.to_string())?;
    }
    Ok(Arc::new(catalog))
}

/// What a successful call teaches about the customers it names (and a batch, its products).
pub(super) fn learned_from(call: &Call, outcome: &Outcome) -> Option<Learned> {
    let customers = |customers: Vec<DirectoryEntry>| Learned {
        customers,
        ..Learned::default()
    };
    Some(match (call, outcome) {
        (Call::Bind(request), Outcome::Customer(answer)) => {
            customers(vec![learn::customer_bound(request, answer)])
        }
        (Call::CreateEnterprise(request), Outcome::Enterprise(created)) => {
            customers(vec![learn::enterprise_created(request, created)])
        }
        (Call::QueryCustomers(_), Outcome::Customers(found)) => {
            customers(found.iter().map(learn::customer_of_answer).collect())
        }
        (Call::BatchOrder(batch), Outcome::Orders(results)) => Learned::of_accepted(batch, results),
        (
            Call::Assets {
                enterprise_global_id,
                ..
            },
            Outcome::Assets(assets),
        ) => {
            let mut ids: Vec<&str> = assets.iter().map(|a| a.customer_id.as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            customers(
                ids.into_iter()
                    .filter(|id| !id.is_empty())
                    .map(|id| DirectoryEntry {
                        customer_id: Some(id.to_owned()),
                        enterprise_global_id: Some(enterprise_global_id.clone()),
                        ..DirectoryEntry::default()
                    })
                    .collect(),
            )
        }
        _ => return None,
    })
}

impl Service {
    fn catalog(&self) -> Result<Arc<Catalog>, CoreError> {
        self.catalog
            .as_ref()
            .map(Arc::clone)
            .map_err(|why| CoreError::Storage(format!("the catalog cannot be opened: {why}")))
    }

    /// Learns in the background; a failure is logged, never in the way of the call's answer.
    pub(super) fn learn(&self, profile: &str, learned: Learned) {
        let Ok(catalog) = self.catalog() else {
            return;
        };
        let profile = profile.to_owned();
        tokio::task::spawn_blocking(move || {
            if let Err(e) = catalog.learn(&profile, &learned, now_ms()) {
                tracing::warn!(error = %e, "the catalog did not learn from an answer");
            }
        });
    }

    pub(super) async fn catalog_command(&self, command: Command) -> Result<Outcome, CoreError> {
        let catalog = self.catalog()?;
        let storage = |e: crate::core::catalog::CatalogError| CoreError::Storage(e.to_string());
        tokio::task::spawn_blocking(move || match command {
            Command::LoadCatalog { profile } => CatalogView::load(&catalog, &profile)
                .map(|view| Outcome::Catalog(Arc::new(view)))
                .map_err(storage),
            Command::CatalogUsed { profile, item } => {
                let now = now_ms();
                match &item {
                    CatalogItem::Product(key) => catalog.used(Shelf::Products, key, now),
                    CatalogItem::Package(key) => catalog.used(Shelf::Packages, key, now),
                    CatalogItem::Customer(key) => catalog.customer_used(&profile, key, now),
                }
                .map(|()| Outcome::Updated)
                .map_err(storage)
            }
            Command::RemoveFromCatalog { profile, item } => {
                match &item {
                    CatalogItem::Product(key) => catalog.remove(Shelf::Products, key),
                    CatalogItem::Package(key) => catalog.remove(Shelf::Packages, key),
                    CatalogItem::Customer(key) => catalog.remove_customer(&profile, key),
                }
                .map_err(storage)?;
                CatalogView::load(&catalog, &profile)
                    .map(|view| Outcome::Catalog(Arc::new(view)))
                    .map_err(storage)
            }
            Command::EditCatalog { profile, edit } => {
                let found = match &*edit {
                    CatalogEdit::Product(p) => catalog.put_product(p),
                    CatalogEdit::Customer { key, entry } => {
                        catalog.put_customer(&profile, key, entry)
                    }
                }
                .map_err(storage)?;
                if !found {
                    return Err(CoreError::Storage(
                        "the item is no longer in the catalog".to_owned(),
                    ));
                }
                CatalogView::load(&catalog, &profile)
                    .map(|view| Outcome::Catalog(Arc::new(view)))
                    .map_err(storage)
            }
            Command::ImportCatalog { path, profile } => import_catalog(&catalog, &path, &profile),
            Command::ExportCatalog { path, .. } if is_xlsx(&path) => {
                let file = CatalogFile::of(&catalog, None).map_err(storage)?;
                let count = write_catalog_sheet(&path, &file.products, &file.packages)
                    .map_err(|e| CoreError::File(format!("{}: {e}", path.display())))?;
                Ok(Outcome::Exported { path, count })
            }
            Command::ExportCatalog { path, profile } => {
                let file = CatalogFile::of(&catalog, profile.as_deref()).map_err(storage)?;
                let count = file.products.len() + file.packages.len() + file.customers.len();
                let body = serde_json::to_string_pretty(&file)
                    .map_err(|e| CoreError::File(e.to_string()))?;
                crate::core::files::write_file(&path, &body)?;
                Ok(Outcome::Exported { path, count })
            }
            _ => Err(CoreError::Storage("not a catalog command".to_owned())),
        })
        .await
        .map_err(|e| CoreError::Storage(e.to_string()))?
    }
}

fn is_xlsx(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"))
}

/// Reads a catalog file (JSON, or a sheet in the order sheet's columns) and learns all of it;
/// says how much it held.
pub fn import_catalog(
    catalog: &Catalog,
    path: &std::path::Path,
    profile: &str,
) -> Result<Outcome, CoreError> {
    if crate::core::sheet::is_sheet(path) {
        let sheeted = crate::core::sheet::read_sheet(path, None, &Default::default())
            .map_err(|e| CoreError::File(format!("{}: {e}", path.display())))?;
        return learn_all(catalog, profile, Learned::of_batch(&sheeted.batch));
    }
    let bytes = crate::core::files::read_file_bytes(path)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let file: CatalogFile = serde_json::from_slice(bytes).map_err(|e| {
        CoreError::File(format!(
            "{}: line {}, column {}: not a catalog file: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    learn_all(catalog, profile, file.learned())
}

fn learn_all(catalog: &Catalog, profile: &str, learned: Learned) -> Result<Outcome, CoreError> {
    catalog
        .learn(profile, &learned, now_ms())
        .map_err(|e| CoreError::Storage(e.to_string()))?;
    Ok(Outcome::CatalogImported {
        products: learned.products.len(),
        packages: learned.packages.len(),
        customers: learned.customers.len(),
    })
}
