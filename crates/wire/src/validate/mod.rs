//! The rules a request must meet before anything is written, in one place so that the console
//! and the embedded platform agree. Each function lists every problem, each with the path of
//! its field (`orderList[2].assets[0].products[1].productUri`) and a plain message.

mod console;
mod held;
pub mod problem;

use std::borrow::Borrow;
use std::collections::HashMap;

pub use self::console::{console_check, lock_number_problem};
pub use self::held::{UnknownKey, near_field, unknown_keys, unknown_keys_of};
pub use self::problem::{At, Expected, FieldPath, Item, Limit, Problem, ProblemKind, Seg};

use super::activity::ClaimRequest;
use super::asset::{LockRequest, ShellnumsRequest};
use super::customer::{BindRequest, CustomerQuery, EnterpriseRequest};
use super::order::{
    AssetEntry, BatchOrderRequest, FeatureEntry, MerchandiseEntry, OrderEntry, OrderType,
    ProductEntry,
};

/// Most orders in one batch.
pub const MAX_ORDERS: usize = 10_000;
/// Most asset numbers in one lock or unlock call.
pub const MAX_LOCK_ASSETS: usize = 10_000;
/// Most asset numbers one shellnums call hands out.
pub const MAX_SHELLNUMS: i32 = 1000;
/// Longest asset number.
pub const MAX_ASSET_NUM_LEN: usize = 64;
/// Longest identifier (codes, ids, product URIs).
pub const MAX_ID_LEN: usize = 128;
/// Longest free text (names, addresses).
pub const MAX_TEXT_LEN: usize = 512;
/// Deepest merchandise tree (levels of `children`).
pub const MAX_MERCHANDISE_DEPTH: usize = 16;

/// A mobile number as the platform knows it: `1` then 10 digits.
pub fn is_mobile(s: &str) -> bool {
    s.len() == 11 && s.starts_with('1') && s.bytes().all(|b| b.is_ascii_digit())
}

/// A mobile number as people paste it (`+86 138 0013 8000`, `138-0013-8000`,
/// `0086 13800138000`), as the platform knows it: `13800138000`. None when it is not one.
pub fn mobile_from(s: &str) -> Option<String> {
    let digits: String = s
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '(' | ')' | '.' | '\u{3000}'))
        .collect();
    let national = digits
        .strip_prefix("+86")
        .or_else(|| digits.strip_prefix("0086"))
        .or_else(|| digits.strip_prefix("86").filter(|rest| rest.len() == 11))
        .unwrap_or(&digits);
    is_mobile(national).then(|| national.to_owned())
}

/// The interface's time expression: years-months-days, each a whole number (`1-0-0`).
pub fn is_duration(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// A plausible e-mail address: one `@` with text on both sides and a dot in the domain.
pub fn is_email(s: &str) -> bool {
    match s.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !s.chars().any(char::is_whitespace)
        }
        None => false,
    }
}

/// Why an asset number is malformed, if it is: blank, too long, or with spaces or controls.
pub fn asset_num_problem(s: &str) -> Option<ProblemKind> {
    if s.trim().is_empty() {
        Some(ProblemKind::Blank)
    } else if s.chars().count() > MAX_ASSET_NUM_LEN {
        Some(ProblemKind::TooLong {
            max: MAX_ASSET_NUM_LEN,
        })
    } else if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some(ProblemKind::SpacesOrControls)
    } else {
        None
    }
}

/// An identifier given in a path or a query string (operation 8's enterprise, its
/// `extendCode`): the rules of the same identifier in a body.
pub fn query_id(name: &'static str, value: &str) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&ROOT.field(name), &Some(value.to_owned()), MAX_ID_LEN);
    c.problems
}

#[derive(Default)]
struct Check {
    problems: Vec<Problem>,
}

impl Check {
    fn push(&mut self, at: &At<'_>, kind: ProblemKind) {
        self.problems.push(Problem::new(at.path(), kind));
    }

    fn required(&mut self, at: &At<'_>, value: &Option<String>, max: usize) {
        match value.as_deref() {
            Some(v) if !v.trim().is_empty() => self.length(at, v, max),
            _ => self.push(at, ProblemKind::Required),
        }
    }

    fn optional(&mut self, at: &At<'_>, value: &Option<String>, max: usize) {
        if let Some(v) = value {
            self.length(at, v, max);
        }
    }

    /// Identifiers (every field of at most [`MAX_ID_LEN`] characters) refuse every control
    /// character; free text refuses them but tabs and line breaks.
    fn length(&mut self, at: &At<'_>, value: &str, max: usize) {
        if value.chars().count() > max {
            self.push(at, ProblemKind::TooLong { max });
        }
        let id = max <= MAX_ID_LEN;
        if value
            .chars()
            .any(|c| c.is_control() && (id || !matches!(c, '\t' | '\n' | '\r')))
        {
            self.push(at, ProblemKind::Controls);
        }
    }

    fn mobile(&mut self, at: &At<'_>, value: &Option<String>) {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty())
            && !is_mobile(v)
        {
            self.push(at, ProblemKind::NotMobile);
        }
    }

    fn duration(&mut self, at: &At<'_>, value: &Option<String>) {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty())
            && !is_duration(v)
        {
            self.push(at, ProblemKind::NotADuration);
        }
    }

    fn not_negative(&mut self, at: &At<'_>, value: Option<i64>) {
        if value.is_some_and(|v| v < 0) {
            self.push(at, ProblemKind::Negative);
        }
    }

    fn flag(&mut self, at: &At<'_>, value: Option<i32>) {
        if value.is_some_and(|v| v != 0 && v != 1) {
            self.push(at, ProblemKind::NotFlag);
        }
    }

    fn window(&mut self, at: &At<'_>, start: Option<i64>, end: Option<i64>) {
        self.not_negative(&at.field("limitStartDate"), start);
        self.not_negative(&at.field("limitEndDate"), end);
        if let (Some(s), Some(e)) = (start, end)
            && s > e
        {
            self.push(&at.field("limitEndDate"), ProblemKind::EndBeforeStart);
        }
    }
}

const ROOT: At<'static> = At::ROOT;

/// Operation 1.
pub fn bind(r: &BindRequest) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&ROOT.field("channelCode"), &r.channel_code, MAX_ID_LEN);
    c.required(
        &ROOT.field("channelCustomerId"),
        &r.channel_customer_id,
        MAX_ID_LEN,
    );
    c.required(&ROOT.field("customerName"), &r.customer_name, MAX_TEXT_LEN);
    c.optional(&ROOT.field("branchName"), &r.branch_name, MAX_TEXT_LEN);
    c.required(
        &ROOT.field("enterpriseName"),
        &r.enterprise_name,
        MAX_TEXT_LEN,
    );
    c.mobile(&ROOT.field("passwordMobile"), &r.password_mobile);
    c.problems
}

/// Operations 2 (create) and 4 (update).
pub fn enterprise(r: &EnterpriseRequest) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&ROOT.field("crmCustomerId"), &r.crm_customer_id, MAX_ID_LEN);
    c.required(&ROOT.field("customerName"), &r.customer_name, MAX_TEXT_LEN);
    c.optional(&ROOT.field("branchName"), &r.branch_name, MAX_TEXT_LEN);
    c.optional(&ROOT.field("address"), &r.address, MAX_TEXT_LEN);
    c.problems
}

/// Operation 3.
pub fn customer_query(q: &CustomerQuery) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&ROOT.field("channelCode"), &q.channel_code, MAX_ID_LEN);
    c.required(
        &ROOT.field("channelCustomerId"),
        &q.channel_customer_id,
        MAX_ID_LEN,
    );
    c.problems
}

/// Operations 6 and 7. Malformed asset numbers are not problems of the call: each gets its
/// own per-asset status, so that one bad number never fails the others.
pub fn lock(r: &LockRequest) -> Vec<Problem> {
    let mut c = Check::default();
    let nums = ROOT.field("assetNums");
    if r.asset_nums.is_empty() {
        c.push(&nums, ProblemKind::AtLeastOne(Item::AssetNumber));
    } else if r.asset_nums.len() > MAX_LOCK_ASSETS {
        let kind = ProblemKind::TooMany {
            max: MAX_LOCK_ASSETS,
            item: Item::AssetNumber,
        };
        c.push(&nums, kind);
    }
    c.required(
        &ROOT.field("operatorIdentity"),
        &r.operator_identity,
        MAX_TEXT_LEN,
    );
    c.problems
}

/// Operation 9.
pub fn shellnums(r: &ShellnumsRequest) -> Vec<Problem> {
    let mut c = Check::default();
    let size = ROOT.field("size");
    match r.size {
        None => c.push(&size, ProblemKind::Required),
        Some(n) if !(1..=MAX_SHELLNUMS).contains(&n) => c.push(
            &size,
            ProblemKind::OutOfRange {
                min: 1,
                max: MAX_SHELLNUMS.into(),
            },
        ),
        Some(_) => {}
    }
    c.problems
}

/// The activity group's claim.
pub fn claim(r: &ClaimRequest) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&ROOT.field("identity"), &r.identity, MAX_TEXT_LEN);
    c.required(&ROOT.field("activityLabel"), &r.activity_label, MAX_ID_LEN);
    c.required(&ROOT.field("source"), &r.source, MAX_TEXT_LEN);
    c.required(&ROOT.field("branch"), &r.branch, MAX_TEXT_LEN);
    if let Some(ext) = &r.ext_params {
        let ok = match ext {
            serde_json::Value::Object(_) | serde_json::Value::Null => true,
            serde_json::Value::String(s) => {
                s.trim().is_empty() || serde_json::from_str::<serde_json::Value>(s).is_ok()
            }
            _ => false,
        };
        if !ok {
            c.push(&ROOT.field("extParams"), ProblemKind::NotJson);
        }
    }
    c.problems
}

/// Operation 5: the batch as a whole and every order, asset, product and merchandise in it.
pub fn batch_order(r: &BatchOrderRequest) -> Vec<Problem> {
    batch_order_of(r, &r.order_list)
}

/// [`batch_order`] of a batch kept as its header and its orders apart (each may be behind a
/// pointer); the header's own `orderList` is not read.
pub fn batch_order_of<O: Borrow<OrderEntry>>(r: &BatchOrderRequest, orders: &[O]) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&ROOT.field("channelCode"), &r.channel_code, MAX_ID_LEN);
    c.required(
        &ROOT.field("channelOrderId"),
        &r.channel_order_id,
        MAX_ID_LEN,
    );
    let list = ROOT.field("orderList");
    if orders.is_empty() {
        c.push(&list, ProblemKind::AtLeastOne(Item::Order));
    } else if orders.len() > MAX_ORDERS {
        let kind = ProblemKind::TooMany {
            max: MAX_ORDERS,
            item: Item::Order,
        };
        c.push(&list, kind);
    }
    check_batch_size(&mut c, &list, orders);
    let mut sequences: HashMap<i32, usize> = HashMap::new();
    for (i, order) in orders.iter().map(Borrow::borrow).enumerate() {
        let at = ROOT.item("orderList", i);
        if let Some(sequence) = order.sequence
            && let Some(first) = sequences.insert(sequence, i)
        {
            c.push(
                &at.field("sequence"),
                ProblemKind::SequenceTaken { sequence, first },
            );
        }
        check_order(&mut c, &at, order);
    }
    held::with_held(r, orders, c.problems)
}

/// The batch's whole work: asset numbers, and product instances written or removed.
fn check_batch_size<O: Borrow<OrderEntry>>(c: &mut Check, list: &At<'_>, orders: &[O]) {
    let assets = orders.iter().flat_map(|o| &o.borrow().assets);
    let (numbers, grants) = assets.fold((0usize, 0usize), |(n, g), a| {
        let each = products_of(a).max(1);
        (
            n + a.asset_nos.len(),
            g.saturating_add(a.asset_nos.len().saturating_mul(each)),
        )
    });
    for (limit, count) in [
        (Limit::BatchAssetNumbers, numbers),
        (Limit::BatchGrants, grants),
    ] {
        if count > limit.max() {
            c.push(list, ProblemKind::OverLimit { limit, count });
        }
    }
}

/// Products of an asset entry, those of its packages included.
fn products_of(a: &AssetEntry) -> usize {
    fn in_tree(m: &MerchandiseEntry) -> usize {
        m.license_order_product_list.len() + m.children.iter().flatten().map(in_tree).sum::<usize>()
    }
    a.products.len() + a.merchandises.iter().map(in_tree).sum::<usize>()
}

/// Packages of an asset entry, at every level.
fn packages_of(a: &AssetEntry) -> usize {
    fn in_tree(m: &MerchandiseEntry) -> usize {
        1 + m.children.iter().flatten().map(in_tree).sum::<usize>()
    }
    a.merchandises.iter().map(in_tree).sum()
}

fn check_order(c: &mut Check, at: &At<'_>, o: &OrderEntry) {
    match o.sequence {
        None => c.push(&at.field("sequence"), ProblemKind::Required),
        Some(s) if s < 0 => c.push(&at.field("sequence"), ProblemKind::Negative),
        Some(_) => {}
    }
    check_order_customer(c, at, o);
    // Without a license or an order type the rest is still checked, so that every problem of a
    // file shows at once; only what an asset must hold, which depends on the order type, waits
    // for one.
    if o.license_type.is_none() {
        c.push(&at.field("licenseType"), ProblemKind::Required);
    }
    if o.order_type.is_none() {
        c.push(&at.field("orderType"), ProblemKind::Required);
    }
    if o.assets.is_empty() {
        c.push(&at.field("assets"), ProblemKind::AtLeastOne(Item::Asset));
    }
    for (j, asset) in o.assets.iter().enumerate() {
        check_asset(c, &at.item("assets", j), o.order_type, asset);
    }
    let Some(order_type) = o.order_type else {
        return;
    };
    let src_blank = o
        .src_license_order_id
        .as_deref()
        .is_none_or(|s| s.trim().is_empty());
    if let Some(license_type) = o.license_type
        && order_type != OrderType::NewBuy
        && license_type.is_cloud()
        && src_blank
    {
        c.push(
            &at.field("srcLicenseOrderId"),
            ProblemKind::SourceOrderRequired {
                order_type,
                license_type,
            },
        );
    }
}

/// The order's customer and administrator fields.
fn check_order_customer(c: &mut Check, at: &At<'_>, o: &OrderEntry) {
    let has_customer_id = o
        .customer_id
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty());
    let has_channel_id = o
        .channel_customer_id
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty());
    if !has_customer_id && !has_channel_id {
        c.push(&at.field("customerId"), ProblemKind::CustomerIdRequired);
    }
    for (name, value, max) in [
        ("customerId", &o.customer_id, MAX_ID_LEN),
        ("crmCustomerId", &o.crm_customer_id, MAX_ID_LEN),
        ("channelCustomerId", &o.channel_customer_id, MAX_ID_LEN),
        ("enterpriseGlobalId", &o.enterprise_global_id, MAX_ID_LEN),
        ("srcLicenseOrderId", &o.src_license_order_id, MAX_ID_LEN),
        ("branchCode", &o.branch_code, MAX_ID_LEN),
        ("customerName", &o.customer_name, MAX_TEXT_LEN),
        ("adminName", &o.admin_name, MAX_TEXT_LEN),
        ("adminAccount", &o.admin_account, MAX_TEXT_LEN),
        ("adminEmail", &o.admin_email, MAX_TEXT_LEN),
        ("address", &o.address, MAX_TEXT_LEN),
        ("branchName", &o.branch_name, MAX_TEXT_LEN),
    ] {
        c.optional(&at.field(name), value, max);
    }
    c.mobile(&at.field("adminCellNumber"), &o.admin_cell_number);
    c.mobile(&at.field("passwordMobile"), &o.password_mobile);
    if let Some(email) = o.admin_email.as_deref().filter(|e| !e.is_empty())
        && !is_email(email)
    {
        c.push(&at.field("adminEmail"), ProblemKind::NotEmail);
    }
}

fn check_asset(c: &mut Check, at: &At<'_>, order_type: Option<OrderType>, a: &AssetEntry) {
    if a.asset_nos.is_empty() {
        c.push(
            &at.field("assetNos"),
            ProblemKind::AtLeastOne(Item::AssetNumber),
        );
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (k, num) in a.asset_nos.iter().enumerate() {
        if let Some(kind) = asset_num_problem(num) {
            c.push(&at.item("assetNos", k), kind);
        } else if let Some(first) = seen.insert(num.as_str(), k) {
            let kind = ProblemKind::AssetNumberRepeated {
                number: num.clone(),
                first,
            };
            c.push(&at.item("assetNos", k), kind);
        }
    }
    for (k, e) in a.asset_extend_list.iter().enumerate() {
        let ext = at.item("assetExtendList", k);
        c.required(&ext.field("extendCode"), &e.extend_code, MAX_ID_LEN);
        c.optional(&ext.field("extendValue"), &e.extend_value, MAX_TEXT_LEN);
    }
    c.window(at, a.limit_start_date, a.limit_end_date);
    for (limit, count, field) in [
        (Limit::AssetProducts, products_of(a), "products"),
        (Limit::AssetPackages, packages_of(a), "merchandises"),
    ] {
        if count > limit.max() {
            c.push(&at.field(field), ProblemKind::OverLimit { limit, count });
        }
    }
    if let Some(order_type) = order_type {
        check_asset_contents(c, at, order_type, a);
    }
    for (k, p) in a.products.iter().enumerate() {
        check_product(c, &at.item("products", k), order_type, p);
    }
    // Packages belong to new purchases (elsewhere the contents' rule says so); an order of no
    // known type has theirs checked too.
    if order_type.is_none_or(|t| t == OrderType::NewBuy) {
        for (k, m) in a.merchandises.iter().enumerate() {
            check_merchandise(c, &at.item("merchandises", k), order_type, m, 1);
        }
    }
}

/// What an asset of this order type must, or must not, hold.
fn check_asset_contents(c: &mut Check, at: &At<'_>, order_type: OrderType, a: &AssetEntry) {
    let products = at.field("products");
    let merchandises = at.field("merchandises");
    match order_type {
        OrderType::NewBuy => {
            if a.products.is_empty() && a.merchandises.is_empty() {
                c.push(&products, ProblemKind::NothingBought);
            }
        }
        OrderType::DeleteAsset => {
            if !a.products.is_empty() {
                c.push(&products, ProblemKind::NotForDeleteAsset { products: true });
            }
            if !a.merchandises.is_empty() {
                let kind = ProblemKind::NotForDeleteAsset { products: false };
                c.push(&merchandises, kind);
            }
        }
        OrderType::DeleteProduct => {
            if a.products.is_empty() {
                c.push(&products, ProblemKind::NoProductToDelete);
            }
            if !a.merchandises.is_empty() {
                c.push(&merchandises, ProblemKind::MerchandiseInDeleteProduct);
            }
        }
    }
}

fn check_merchandise(
    c: &mut Check,
    at: &At<'_>,
    order_type: Option<OrderType>,
    m: &MerchandiseEntry,
    depth: usize,
) {
    c.required(&at.field("merchandiseNum"), &m.merchandise_num, MAX_ID_LEN);
    c.optional(
        &at.field("merchandiseName"),
        &m.merchandise_name,
        MAX_TEXT_LEN,
    );
    c.duration(
        &at.field("timeDurationExpression"),
        &m.time_duration_expression,
    );
    for (k, p) in m.license_order_product_list.iter().enumerate() {
        check_product(c, &at.item("licenseOrderProductList", k), order_type, p);
    }
    let children = m.children.as_deref().unwrap_or_default();
    if !children.is_empty() && depth >= MAX_MERCHANDISE_DEPTH {
        let kind = ProblemKind::TooDeep {
            max: MAX_MERCHANDISE_DEPTH,
        };
        c.push(&at.field("children"), kind);
        return;
    }
    for (k, child) in children.iter().enumerate() {
        check_merchandise(c, &at.item("children", k), order_type, child, depth + 1);
    }
}

fn check_product(c: &mut Check, at: &At<'_>, order_type: Option<OrderType>, p: &ProductEntry) {
    let uri = at.field("productUri");
    match (p.product_uri.as_deref(), order_type) {
        (Some(v), _) if !v.trim().is_empty() => c.length(&uri, v, MAX_ID_LEN),
        (_, Some(order_type)) => c.push(&uri, ProblemKind::RequiredFor(order_type)),
        (_, None) => c.push(&uri, ProblemKind::Required),
    }
    for (name, value, max) in [
        ("crmProductId", &p.crm_product_id, MAX_ID_LEN),
        ("parentCrmProductId", &p.parent_crm_product_id, MAX_ID_LEN),
        ("gmsPid", &p.gms_pid, MAX_ID_LEN),
        ("appKey", &p.app_key, MAX_ID_LEN),
        ("srcLicenseOrderId", &p.src_license_order_id, MAX_ID_LEN),
        ("productName", &p.product_name, MAX_TEXT_LEN),
        ("productType", &p.product_type, MAX_ID_LEN),
        ("timeUnit", &p.time_unit, MAX_ID_LEN),
        (
            "timeDurationExpression",
            &p.time_duration_expression,
            MAX_ID_LEN,
        ),
    ] {
        c.optional(&at.field(name), value, max);
    }
    c.window(at, p.limit_start_date, p.limit_end_date);
    c.duration(
        &at.field("timeDurationExpression"),
        &p.time_duration_expression,
    );
    c.not_negative(
        &at.field("limitConcurrent"),
        p.limit_concurrent.map(i64::from),
    );
    c.not_negative(&at.field("limitTimeDuration"), p.limit_time_duration);
    c.not_negative(
        &at.field("timeUnitQuantity"),
        p.time_unit_quantity.map(i64::from),
    );
    c.not_negative(&at.field("trialEndDate"), p.trial_end_date);
    c.flag(&at.field("trial"), p.trial);
    for (k, f) in p.product_features.iter().enumerate() {
        check_feature(c, &at.item("productFeatures", k), f);
    }
}

fn check_feature(c: &mut Check, at: &At<'_>, f: &FeatureEntry) {
    c.required(&at.field("featureCode"), &f.feature_code, MAX_ID_LEN);
    c.optional(&at.field("featureName"), &f.feature_name, MAX_TEXT_LEN);
    c.optional(&at.field("featureValue"), &f.feature_value, MAX_TEXT_LEN);
    c.flag(&at.field("trial"), f.trial);
    c.not_negative(&at.field("trialEndDate"), f.trial_end_date);
}
