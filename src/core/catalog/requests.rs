//! What the window asks of the catalog and the directory: the view of a profile's, an item
//! picked, removed or edited (and shared with a team server), and catalog files read or
//! written. The store's work runs off the async threads.

use std::path::PathBuf;
use std::sync::Arc;

use super::entries::{CatalogEdit, CatalogItem, DirectoryEntry};
use super::learn::Learned;
use super::share::CatalogFile;
use super::sheet::{read_customer_sheet, write_catalog_sheet};
use super::store::{Catalog, CatalogError, Import, ImportReport, Shelf};
use super::view::CatalogView;
use crate::core::CoreError;
use crate::core::files::error::FileError;
use crate::core::request::{Request, Services};
use support::clock::now_ms;

/// The catalog, and the directory of `profile`, with their search keys (a team profile's
/// mirror brought up to date first).
#[derive(Debug, Clone)]
pub struct Load {
    pub profile: String,
}

impl Request for Load {
    type Reply = Arc<CatalogView>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        let profile = self.profile;
        services.0.pull_knowledge(&profile).await;
        in_catalog(&services, &profile.clone(), move |c, scope| {
            view_of(c, scope, &profile)
        })
        .await
    }
}

/// The user picked an item: it comes first in searches.
#[derive(Debug, Clone)]
pub struct Used {
    pub profile: String,
    pub item: CatalogItem,
}

impl Request for Used {
    type Reply = ();

    async fn serve(self, services: Services) -> Result<(), CoreError> {
        let Used { profile, item } = self;
        in_catalog(&services, &profile.clone(), move |catalog, scope| {
            let now = now_ms();
            match &item {
                CatalogItem::Product(key) => catalog.used(scope, Shelf::Products, key, now),
                CatalogItem::Package(key) => catalog.used(scope, Shelf::Packages, key, now),
                CatalogItem::Customer(key) => catalog.customer_used(&profile, key, now),
            }
            .map_err(CoreError::from)
        })
        .await
    }
}

/// Removes an item (from the team server too, on a team profile); answers the view.
#[derive(Debug, Clone)]
pub struct Remove {
    pub profile: String,
    pub item: CatalogItem,
}

impl Request for Remove {
    type Reply = Arc<CatalogView>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        use wire::knowledge::Shelf as TeamShelf;
        // A catalog that cannot be opened changes nothing here, nor on the team server.
        services.0.catalog()?;
        let shared = match &self.item {
            CatalogItem::Product(key) => Some(put(TeamShelf::Products, key, None)),
            CatalogItem::Package(key) => Some(put(TeamShelf::Packages, key, None)),
            CatalogItem::Customer(_) => None,
        };
        share(&services, &self.profile, shared).await;
        let Remove { profile, item } = self;
        in_catalog(&services, &profile.clone(), move |catalog, scope| {
            match &item {
                CatalogItem::Product(key) => catalog.remove(scope, Shelf::Products, key),
                CatalogItem::Package(key) => catalog.remove(scope, Shelf::Packages, key),
                CatalogItem::Customer(key) => catalog.remove_customer(&profile, key),
            }?;
            view_of(catalog, scope, &profile)
        })
        .await
    }
}

/// Replaces an item with the user's own definition of it (shared with a team server on a
/// team profile); answers the view.
#[derive(Debug, Clone)]
pub struct Edit {
    pub profile: String,
    pub edit: Box<CatalogEdit>,
}

impl Request for Edit {
    type Reply = Arc<CatalogView>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Self::Reply, CoreError> {
        use wire::knowledge::Shelf as TeamShelf;
        // A catalog that cannot be opened changes nothing here, nor on the team server.
        services.0.catalog()?;
        let shared = match &*self.edit {
            CatalogEdit::Product(p) => p
                .product_uri
                .as_deref()
                .map(|key| put(TeamShelf::Products, key, serde_json::to_value(p).ok())),
            CatalogEdit::Package { key, entry } => Some(put(
                TeamShelf::Packages,
                key,
                serde_json::to_value(entry).ok(),
            )),
            CatalogEdit::Customer { .. } => None,
        };
        share(&services, &self.profile, shared).await;
        let Edit { profile, edit } = self;
        in_catalog(&services, &profile.clone(), move |catalog, scope| {
            let found = match &*edit {
                CatalogEdit::Product(p) => catalog.put_product(scope, p),
                CatalogEdit::Package { key, entry } => catalog.put_package(scope, key, entry),
                CatalogEdit::Customer { key, entry } => catalog.put_customer(&profile, key, entry),
            }?;
            if !found {
                return Err(CatalogError::Gone.into());
            }
            view_of(catalog, scope, &profile)
        })
        .await
    }
}

/// Adds a catalog file's products and packages, and its customers to `profile`'s directory;
/// or, unless `import.apply`, only tells what it would change.
#[derive(Debug, Clone)]
pub struct ImportFile {
    pub path: PathBuf,
    pub profile: String,
    pub import: Import,
}

impl Request for ImportFile {
    type Reply = ImportReport;

    async fn serve(self, services: Services) -> Result<ImportReport, CoreError> {
        let ImportFile {
            path,
            profile,
            import,
        } = self;
        in_catalog(&services, &profile.clone(), move |catalog, scope| {
            import_catalog(catalog, scope, &path, &profile, import)
        })
        .await
    }
}

/// Writes the catalog `profile` uses (its own, or the shared one), with its directory when
/// `customers` is set.
#[derive(Debug, Clone)]
pub struct ExportFile {
    pub path: PathBuf,
    pub profile: String,
    pub customers: bool,
}

/// A file written, and how many items it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    pub path: PathBuf,
    pub count: usize,
}

impl Request for ExportFile {
    type Reply = Exported;

    async fn serve(self, services: Services) -> Result<Exported, CoreError> {
        let ExportFile {
            path,
            profile,
            customers,
        } = self;
        in_catalog(&services, &profile.clone(), move |catalog, scope| {
            export_catalog(catalog, scope, &path, customers.then_some(profile.as_str()))
        })
        .await
    }
}

/// Runs `f` on the catalog with the scope `profile` uses, off the async threads.
async fn in_catalog<T: Send + 'static>(
    services: &Services,
    profile: &str,
    f: impl FnOnce(&Catalog, &str) -> Result<T, CoreError> + Send + 'static,
) -> Result<T, CoreError> {
    let catalog = services.0.catalog()?;
    let scope = services.0.scope_of(profile);
    tokio::task::spawn_blocking(move || f(&catalog, &scope)).await?
}

fn put(
    shelf: wire::knowledge::Shelf,
    key: &str,
    value: Option<serde_json::Value>,
) -> wire::knowledge::Put {
    wire::knowledge::Put {
        shelf,
        key: key.to_owned(),
        value,
    }
}

/// A product or package the person edits or removes, written to the team server too.
async fn share(services: &Services, profile: &str, put: Option<wire::knowledge::Put>) {
    if let Some(put) = put {
        services.0.share_puts(profile, vec![put]).await;
    }
}

fn view_of(catalog: &Catalog, scope: &str, profile: &str) -> Result<Arc<CatalogView>, CoreError> {
    CatalogView::load(catalog, scope, profile)
        .map(Arc::new)
        .map_err(CoreError::from)
}

/// Writes the catalog of `scope` (and `profile`'s directory when named) as JSON, or as a
/// spreadsheet when the file is named `.xlsx` (the directory on a sheet of its own).
fn export_catalog(
    catalog: &Catalog,
    scope: &str,
    path: &std::path::Path,
    profile: Option<&str>,
) -> Result<Exported, CoreError> {
    let file = CatalogFile::of(catalog, scope, profile)?;
    let path = path.to_owned();
    if is_xlsx(&path) {
        let count = write_catalog_sheet(&path, &file.products, &file.packages, &file.customers)
            .map_err(|source| FileError::Workbook {
                path: path.clone(),
                source,
            })?;
        return Ok(Exported { path, count });
    }
    let count = file.products.len() + file.packages.len() + file.customers.len();
    let body = serde_json::to_string_pretty(&file).map_err(FileError::Json)?;
    crate::core::files::io::write_file(&path, &body)?;
    Ok(Exported { path, count })
}

fn is_xlsx(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx"))
}

/// Reads a catalog file (JSON, or a sheet in the order sheet's columns) into the catalog of
/// `scope` and `profile`'s directory; says how much it held.
fn import_catalog(
    catalog: &Catalog,
    scope: &str,
    path: &std::path::Path,
    profile: &str,
    import: Import,
) -> Result<ImportReport, CoreError> {
    if crate::core::sheet::is_sheet(path) {
        let file = |source| FileError::Sheet {
            path: path.to_owned(),
            source,
        };
        let sheeted =
            crate::core::sheet::read_sheet(path, None, &Default::default()).map_err(file)?;
        let mut learned = Learned::of_batch(&sheeted.batch);
        let customers = read_customer_sheet(path).map_err(file)?;
        learned
            .customers
            .extend(customers.into_iter().filter(DirectoryEntry::has_key));
        return learn_all(catalog, scope, profile, learned, import);
    }
    let bytes = crate::core::files::io::read_file_bytes(path)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    let file: CatalogFile =
        serde_json::from_slice(bytes).map_err(|source| FileError::NotCatalog {
            path: path.to_owned(),
            source,
        })?;
    learn_all(catalog, scope, profile, file.learned(), import)
}

fn learn_all(
    catalog: &Catalog,
    scope: &str,
    profile: &str,
    learned: Learned,
    import: Import,
) -> Result<ImportReport, CoreError> {
    Ok(catalog.import(scope, profile, &learned, now_ms(), import)?)
}
