//! What a batch or an answer teaches: product and package definitions (what describes the
//! product, not this sale) and the customers named.

use super::DirectoryEntry;
use wire::{
    BatchOrderRequest, BatchOrderResult, BindRequest, CreatedEnterprise, Customer,
    EnterpriseRequest, MerchandiseEntry, OrderEntry, ProductEntry,
};

/// A product entry as the catalog keeps it: what describes the product (URI, pid, name, type,
/// default concurrency and duration, features), without what belongs to one sale (dates,
/// passwords, the source order, delete matching). None without a `productUri`, its key.
pub fn product_definition(p: &ProductEntry) -> Option<ProductEntry> {
    let uri = p.product_uri.as_deref().map(str::trim).unwrap_or_default();
    if uri.is_empty() {
        return None;
    }
    Some(ProductEntry {
        product_uri: Some(uri.to_owned()),
        limit_start_date: None,
        limit_end_date: None,
        strict_match_when_delete: None,
        trial_end_date: None,
        passwords: Vec::new(),
        src_license_order_id: None,
        product_features: p
            .product_features
            .iter()
            .map(|f| {
                let mut f = f.clone();
                f.trial_end_date = None;
                f.raw = Default::default();
                f
            })
            .collect(),
        raw: Default::default(),
        ..p.clone()
    })
}

/// A package as the catalog keeps it: its tree, each product by its definition. None without
/// a `merchandiseNum`, its key.
pub fn package_definition(m: &MerchandiseEntry) -> Option<MerchandiseEntry> {
    let num = m
        .merchandise_num
        .as_deref()
        .map(str::trim)
        .unwrap_or_default();
    if num.is_empty() {
        return None;
    }
    Some(package_tree(m))
}

fn package_tree(m: &MerchandiseEntry) -> MerchandiseEntry {
    MerchandiseEntry {
        children: m
            .children
            .as_ref()
            .map(|c| c.iter().map(package_tree).collect()),
        license_order_product_list: m
            .license_order_product_list
            .iter()
            .map(|p| product_definition(p).unwrap_or_else(|| p.clone()))
            .collect(),
        raw: Default::default(),
        ..m.clone()
    }
}

/// Everything a batch names: its products (direct or in packages, at any depth), its
/// top-level packages, and the customer of each order.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Learned {
    pub products: Vec<ProductEntry>,
    pub packages: Vec<MerchandiseEntry>,
    pub customers: Vec<DirectoryEntry>,
}

impl Learned {
    pub fn of_batch(batch: &BatchOrderRequest) -> Self {
        Self::of_orders(batch, &batch.order_list)
    }

    /// As [`Self::of_batch`], of orders held apart from their batch's header `head` (a
    /// snapshot's: learned without copying the batch).
    pub fn of_orders<'a>(
        head: &BatchOrderRequest,
        orders: impl IntoIterator<Item = &'a OrderEntry>,
    ) -> Self {
        let mut learned = Learned::default();
        for order in orders {
            learned.customers.extend(customer_of_order(order, head));
            for asset in &order.assets {
                learned
                    .products
                    .extend(asset.products.iter().filter_map(product_definition));
                for m in &asset.merchandises {
                    learned.packages.extend(package_definition(m));
                    products_in(m, &mut learned.products);
                }
            }
        }
        learned
    }

    /// A batch the platform accepted: its customers gain the ids the answer gave them.
    pub fn of_accepted(batch: &BatchOrderRequest, results: &[BatchOrderResult]) -> Self {
        let mut learned = Self::of_batch(batch);
        learned.customers = batch
            .order_list
            .iter()
            .filter_map(|order| {
                let mut c = customer_of_order(order, batch)?;
                let result = results
                    .iter()
                    .find(|r| Some(r.sequence) == order.sequence)?;
                c.customer_id = Some(result.customer_id.clone()).filter(|s| !s.is_empty());
                Some(c)
            })
            .collect();
        learned
    }
}

fn products_in(m: &MerchandiseEntry, out: &mut Vec<ProductEntry>) {
    out.extend(
        m.license_order_product_list
            .iter()
            .filter_map(product_definition),
    );
    for child in m.children.iter().flatten() {
        products_in(child, out);
    }
}

fn some(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The customer an order names, when it names one by an id.
pub fn customer_of_order(o: &OrderEntry, batch: &BatchOrderRequest) -> Option<DirectoryEntry> {
    let entry = DirectoryEntry {
        customer_id: some(&o.customer_id),
        crm_customer_id: some(&o.crm_customer_id),
        customer_name: some(&o.customer_name),
        channel_code: some(&o.channel_customer_id).and(some(&batch.channel_code)),
        channel_customer_id: some(&o.channel_customer_id),
        enterprise_global_id: some(&o.enterprise_global_id),
        enterprise_name: None,
        admin_name: some(&o.admin_name),
        admin_account: some(&o.admin_account),
        admin_email: some(&o.admin_email),
        admin_cell_number: some(&o.admin_cell_number),
        password_mobile: some(&o.password_mobile),
        address: some(&o.address),
        customer_type: o.customer_type,
        branch_code: some(&o.branch_code),
        branch_name: some(&o.branch_name),
    };
    entry.has_key().then_some(entry)
}

/// A customer the platform answered with (bind, query).
pub fn customer_of_answer(c: &Customer) -> DirectoryEntry {
    DirectoryEntry {
        customer_id: Some(c.customer_id.clone()).filter(|s| !s.is_empty()),
        channel_code: Some(c.channel_code.clone()).filter(|s| !s.is_empty()),
        channel_customer_id: Some(c.channel_customer_id.clone()).filter(|s| !s.is_empty()),
        enterprise_global_id: Some(c.enterprise_global_id.clone()).filter(|s| !s.is_empty()),
        enterprise_name: Some(c.enterprise_name.clone()).filter(|s| !s.is_empty()),
        ..DirectoryEntry::default()
    }
}

/// An enterprise the platform created from `request`.
pub fn enterprise_created(
    request: &EnterpriseRequest,
    created: &CreatedEnterprise,
) -> DirectoryEntry {
    DirectoryEntry {
        crm_customer_id: some(&request.crm_customer_id),
        customer_name: some(&request.customer_name),
        enterprise_name: some(&request.customer_name),
        branch_name: some(&request.branch_name),
        address: some(&request.address),
        enterprise_global_id: Some(created.enterprise_global_id.clone()),
        ..DirectoryEntry::default()
    }
}

/// A customer bound from `request`, as the platform answered.
pub fn customer_bound(request: &BindRequest, answer: &Customer) -> DirectoryEntry {
    DirectoryEntry {
        customer_name: some(&request.customer_name),
        branch_name: some(&request.branch_name),
        password_mobile: some(&request.password_mobile),
        ..customer_of_answer(answer)
    }
}
