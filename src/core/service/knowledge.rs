//! The catalog and the directory in the service: commands that read and change them, and the
//! learning from every batch and answer (in the background: a call's answer never waits on it).

use std::sync::Arc;

use super::Service;
use crate::core::catalog::learn::{self, Learned};
use crate::core::catalog::share::{CatalogFile, DEMO_CATALOG};
use crate::core::catalog::sheet::{read_customer_sheet, write_catalog_sheet};
use crate::core::catalog::store::{Import, ImportReport};
use crate::core::catalog::{
    Catalog, CatalogEdit, CatalogItem, CatalogView, DirectoryEntry, SHARED, Shelf,
};
use crate::core::profiles::SANDBOX;
use crate::core::{Call, CatalogCommand, CoreError, Outcome};
use crate::support::clock::now_ms;

/// Opens the catalog; a new one starts with the Sandbox's demo catalog (and its demo customers
/// in the Sandbox's directory), once: what the user removes of it does not come back. Without
/// the catalog the console still works: only what needs it fails.
pub(super) fn open_catalog(path: &std::path::Path) -> Result<Arc<Catalog>, String> {
    let catalog = Catalog::open(path).map_err(|e| e.to_string())?;
    let demo: CatalogFile = serde_json::from_str(DEMO_CATALOG).map_err(|e| e.to_string())?;
    catalog
        .seed_once(|c| {
            c.learn(SHARED, SANDBOX, &demo.learned(), now_ms())
                .map(|_| ())
        })
        .map_err(|e| e.to_string())?;
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
        ) => customers(
            assets
                .customer_ids()
                .into_iter()
                .map(|id| DirectoryEntry {
                    customer_id: Some(id.to_owned()),
                    enterprise_global_id: Some(enterprise_global_id.clone()),
                    ..DirectoryEntry::default()
                })
                .collect(),
        ),
        _ => return None,
    })
}

impl Service {
    pub(super) fn catalog(&self) -> Result<Arc<Catalog>, CoreError> {
        self.catalog
            .as_ref()
            .map(Arc::clone)
            .map_err(|why| CoreError::Storage(format!("the catalog cannot be opened: {why}")))
    }

    /// The scope of the catalog `profile` uses: its own when it keeps one or mirrors a team
    /// server's, else the shared.
    pub(super) fn scope_of(&self, profile: &str) -> String {
        match self.profiles().get(profile) {
            Some(p) if p.own_catalog || p.is_team() => p.name.clone(),
            _ => SHARED.to_owned(),
        }
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

    pub(super) async fn catalog_command(
        &self,
        command: CatalogCommand,
    ) -> Result<Outcome, CoreError> {
        let catalog = self.catalog()?;
        if let CatalogCommand::Load { profile } = &command {
            self.pull_knowledge(profile).await;
        }
        self.share_change(&command).await;
        let scope = match &command {
            CatalogCommand::Load { profile }
            | CatalogCommand::Used { profile, .. }
            | CatalogCommand::Remove { profile, .. }
            | CatalogCommand::Edit { profile, .. }
            | CatalogCommand::Import { profile, .. }
            | CatalogCommand::Export { profile, .. } => self.scope_of(profile),
        };
        tokio::task::spawn_blocking(move || catalog_blocking(&catalog, &scope, command))
            .await
            .map_err(|e| CoreError::Storage(e.to_string()))?
    }
}

impl Service {
    /// A product or package the person edits or removes, written to the team server too.
    async fn share_change(&self, command: &CatalogCommand) {
        use crate::wire::knowledge::{Put, Shelf as TeamShelf};
        let put = |shelf, key: &str, value| Put {
            shelf,
            key: key.to_owned(),
            value,
        };
        let (profile, change) = match command {
            CatalogCommand::Edit { profile, edit } => match &**edit {
                CatalogEdit::Product(p) => (
                    profile,
                    p.product_uri
                        .as_deref()
                        .map(|key| put(TeamShelf::Products, key, serde_json::to_value(p).ok())),
                ),
                CatalogEdit::Package { key, entry } => (
                    profile,
                    Some(put(
                        TeamShelf::Packages,
                        key,
                        serde_json::to_value(entry).ok(),
                    )),
                ),
                CatalogEdit::Customer { .. } => return,
            },
            CatalogCommand::Remove { profile, item } => match item {
                CatalogItem::Product(key) => (profile, Some(put(TeamShelf::Products, key, None))),
                CatalogItem::Package(key) => (profile, Some(put(TeamShelf::Packages, key, None))),
                CatalogItem::Customer(_) => return,
            },
            _ => return,
        };
        self.share_puts(profile, change.into_iter().collect()).await;
    }
}

fn storage(e: crate::core::catalog::CatalogError) -> CoreError {
    CoreError::Storage(e.to_string())
}

fn view_of(catalog: &Catalog, scope: &str, profile: &str) -> Result<Outcome, CoreError> {
    CatalogView::load(catalog, scope, profile)
        .map(|view| Outcome::Catalog(Arc::new(view)))
        .map_err(storage)
}

/// A catalog command on the catalog of `scope` (the profile's choice), off the async threads.
fn catalog_blocking(
    catalog: &Catalog,
    scope: &str,
    command: CatalogCommand,
) -> Result<Outcome, CoreError> {
    match command {
        CatalogCommand::Load { profile } => view_of(catalog, scope, &profile),
        CatalogCommand::Used { profile, item } => {
            let now = now_ms();
            match &item {
                CatalogItem::Product(key) => catalog.used(scope, Shelf::Products, key, now),
                CatalogItem::Package(key) => catalog.used(scope, Shelf::Packages, key, now),
                CatalogItem::Customer(key) => catalog.customer_used(&profile, key, now),
            }
            .map(|()| Outcome::Updated)
            .map_err(storage)
        }
        CatalogCommand::Remove { profile, item } => {
            match &item {
                CatalogItem::Product(key) => catalog.remove(scope, Shelf::Products, key),
                CatalogItem::Package(key) => catalog.remove(scope, Shelf::Packages, key),
                CatalogItem::Customer(key) => catalog.remove_customer(&profile, key),
            }
            .map_err(storage)?;
            view_of(catalog, scope, &profile)
        }
        CatalogCommand::Edit { profile, edit } => {
            let found = match &*edit {
                CatalogEdit::Product(p) => catalog.put_product(scope, p),
                CatalogEdit::Package { key, entry } => catalog.put_package(scope, key, entry),
                CatalogEdit::Customer { key, entry } => catalog.put_customer(&profile, key, entry),
            }
            .map_err(storage)?;
            if !found {
                return Err(CoreError::Storage(
                    "the item is no longer in the catalog".to_owned(),
                ));
            }
            view_of(catalog, scope, &profile)
        }
        CatalogCommand::Import {
            path,
            profile,
            import,
        } => import_catalog(catalog, scope, &path, &profile, import),
        CatalogCommand::Export {
            path,
            profile,
            customers,
        } => export_catalog(catalog, scope, &path, customers.then_some(profile.as_str())),
    }
}

/// Writes the catalog of `scope` (and `profile`'s directory when named) as JSON, or as a
/// spreadsheet when the file is named `.xlsx` (the directory on a sheet of its own).
fn export_catalog(
    catalog: &Catalog,
    scope: &str,
    path: &std::path::Path,
    profile: Option<&str>,
) -> Result<Outcome, CoreError> {
    let file = CatalogFile::of(catalog, scope, profile).map_err(storage)?;
    let path = path.to_owned();
    if is_xlsx(&path) {
        let count = write_catalog_sheet(&path, &file.products, &file.packages, &file.customers)
            .map_err(|e| CoreError::File(format!("{}: {e}", path.display())))?;
        return Ok(Outcome::Exported { path, count });
    }
    let count = file.products.len() + file.packages.len() + file.customers.len();
    let body = serde_json::to_string_pretty(&file).map_err(|e| CoreError::File(e.to_string()))?;
    crate::core::files::io::write_file(&path, &body)?;
    Ok(Outcome::Exported { path, count })
}

fn is_xlsx(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"))
}

/// Reads a catalog file (JSON, or a sheet in the order sheet's columns) into the catalog of
/// `scope` and `profile`'s directory; says how much it held.
pub fn import_catalog(
    catalog: &Catalog,
    scope: &str,
    path: &std::path::Path,
    profile: &str,
    import: Import,
) -> Result<Outcome, CoreError> {
    if crate::core::sheet::is_sheet(path) {
        let file = |e: &dyn std::fmt::Display| CoreError::File(format!("{}: {e}", path.display()));
        let sheeted = crate::core::sheet::read_sheet(path, None, &Default::default())
            .map_err(|e| file(&e))?;
        let mut learned = Learned::of_batch(&sheeted.batch);
        let customers = read_customer_sheet(path).map_err(|e| file(&e))?;
        learned
            .customers
            .extend(customers.into_iter().filter(DirectoryEntry::has_key));
        return learn_all(catalog, scope, profile, learned, import);
    }
    let bytes = crate::core::files::io::read_file_bytes(path)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let file: CatalogFile = serde_json::from_slice(bytes).map_err(|e| {
        CoreError::File(format!(
            "{}: line {}, column {}: not a catalog file: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    learn_all(catalog, scope, profile, file.learned(), import)
}

fn learn_all(
    catalog: &Catalog,
    scope: &str,
    profile: &str,
    learned: Learned,
    import: Import,
) -> Result<Outcome, CoreError> {
    let report = catalog
        .import(scope, profile, &learned, now_ms(), import)
        .map_err(|e| CoreError::Storage(e.to_string()))?;
    Ok(Outcome::CatalogImported {
        report,
        applied: import.apply,
    })
}
