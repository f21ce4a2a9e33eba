//! The rules a request must meet before anything is written, in one place so that the console
//! and the embedded platform agree. Each function lists every problem, each with the path of
//! its field (`orderList[2].assets[0].products[1].productUri`) and a plain message.

use std::collections::HashMap;
use std::fmt;

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

/// One thing wrong with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A mobile number as the platform knows it: `1` then 10 digits.
pub fn is_mobile(s: &str) -> bool {
    s.len() == 11 && s.starts_with('1') && s.bytes().all(|b| b.is_ascii_digit())
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
pub fn asset_num_problem(s: &str) -> Option<String> {
    if s.trim().is_empty() {
        Some("must not be blank".to_owned())
    } else if s.chars().count() > MAX_ASSET_NUM_LEN {
        Some(format!("at most {MAX_ASSET_NUM_LEN} characters"))
    } else if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("must not contain spaces or control characters".to_owned())
    } else {
        None
    }
}

#[derive(Default)]
struct Check {
    problems: Vec<Problem>,
}

impl Check {
    /// Paths are formatted only here, when there is a problem: a valid batch of thousands of
    /// products builds no strings.
    fn push(&mut self, path: impl fmt::Display, message: impl Into<String>) {
        self.problems.push(Problem {
            path: path.to_string(),
            message: message.into(),
        });
    }

    fn required(&mut self, path: &dyn fmt::Display, value: &Option<String>, max: usize) {
        match value.as_deref() {
            Some(v) if !v.trim().is_empty() => self.length(path, v, max),
            _ => self.push(path, "required"),
        }
    }

    fn optional(&mut self, path: &dyn fmt::Display, value: &Option<String>, max: usize) {
        if let Some(v) = value {
            self.length(path, v, max);
        }
    }

    fn length(&mut self, path: &dyn fmt::Display, value: &str, max: usize) {
        if value.chars().count() > max {
            self.push(path, format!("at most {max} characters"));
        }
    }

    fn mobile(&mut self, path: &dyn fmt::Display, value: &Option<String>) {
        if let Some(v) = value.as_deref().filter(|v| !v.is_empty())
            && !is_mobile(v)
        {
            self.push(path, "must be a mobile number: 1 followed by 10 digits");
        }
    }

    fn not_negative(&mut self, path: &dyn fmt::Display, value: Option<i64>) {
        if value.is_some_and(|v| v < 0) {
            self.push(path, "must not be negative");
        }
    }

    fn flag(&mut self, path: &dyn fmt::Display, value: Option<i32>) {
        if value.is_some_and(|v| v != 0 && v != 1) {
            self.push(path, "must be 0 or 1");
        }
    }

    fn window(&mut self, path: &dyn fmt::Display, start: Option<i64>, end: Option<i64>) {
        self.not_negative(&format_args!("{path}.limitStartDate"), start);
        self.not_negative(&format_args!("{path}.limitEndDate"), end);
        if let (Some(s), Some(e)) = (start, end)
            && s > e
        {
            self.push(
                format!("{path}.limitEndDate"),
                "must not be before limitStartDate",
            );
        }
    }
}

/// Operation 1.
pub fn bind(r: &BindRequest) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&"channelCode", &r.channel_code, MAX_ID_LEN);
    c.required(&"channelCustomerId", &r.channel_customer_id, MAX_ID_LEN);
    c.required(&"customerName", &r.customer_name, MAX_TEXT_LEN);
    c.optional(&"branchName", &r.branch_name, MAX_TEXT_LEN);
    c.required(&"enterpriseName", &r.enterprise_name, MAX_TEXT_LEN);
    c.mobile(&"passwordMobile", &r.password_mobile);
    c.problems
}

/// Operations 2 (create) and 4 (update).
pub fn enterprise(r: &EnterpriseRequest) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&"crmCustomerId", &r.crm_customer_id, MAX_ID_LEN);
    c.required(&"customerName", &r.customer_name, MAX_TEXT_LEN);
    c.optional(&"branchName", &r.branch_name, MAX_TEXT_LEN);
    c.optional(&"address", &r.address, MAX_TEXT_LEN);
    c.problems
}

/// Operation 3.
pub fn customer_query(q: &CustomerQuery) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&"channelCode", &q.channel_code, MAX_ID_LEN);
    c.required(&"channelCustomerId", &q.channel_customer_id, MAX_ID_LEN);
    c.problems
}

/// Operations 6 and 7. Malformed asset numbers are not problems of the call: each gets its
/// own per-asset status, so that one bad number never fails the others.
pub fn lock(r: &LockRequest) -> Vec<Problem> {
    let mut c = Check::default();
    if r.asset_nums.is_empty() {
        c.push("assetNums", "at least one asset number required");
    } else if r.asset_nums.len() > MAX_LOCK_ASSETS {
        c.push(
            "assetNums",
            format!("at most {MAX_LOCK_ASSETS} asset numbers per call"),
        );
    }
    c.required(&"operatorIdentity", &r.operator_identity, MAX_TEXT_LEN);
    c.problems
}

/// Operation 9.
pub fn shellnums(r: &ShellnumsRequest) -> Vec<Problem> {
    let mut c = Check::default();
    match r.size {
        None => c.push("size", "required"),
        Some(n) if !(1..=MAX_SHELLNUMS).contains(&n) => {
            c.push("size", format!("must be between 1 and {MAX_SHELLNUMS}"))
        }
        Some(_) => {}
    }
    c.problems
}

/// The activity group's claim.
pub fn claim(r: &ClaimRequest) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&"identity", &r.identity, MAX_TEXT_LEN);
    c.required(&"activityLabel", &r.activity_label, MAX_ID_LEN);
    c.required(&"source", &r.source, MAX_TEXT_LEN);
    c.required(&"branch", &r.branch, MAX_TEXT_LEN);
    if let Some(ext) = &r.ext_params {
        let ok = match ext {
            serde_json::Value::Object(_) | serde_json::Value::Null => true,
            serde_json::Value::String(s) => {
                s.trim().is_empty() || serde_json::from_str::<serde_json::Value>(s).is_ok()
            }
            _ => false,
        };
        if !ok {
            c.push("extParams", "must be an object or a string holding JSON");
        }
    }
    c.problems
}

/// Operation 5: the batch as a whole and every order, asset, product and merchandise in it.
pub fn batch_order(r: &BatchOrderRequest) -> Vec<Problem> {
    let mut c = Check::default();
    c.required(&"channelCode", &r.channel_code, MAX_ID_LEN);
    c.required(&"channelOrderId", &r.channel_order_id, MAX_ID_LEN);
    if r.order_list.is_empty() {
        c.push("orderList", "at least one order required");
    } else if r.order_list.len() > MAX_ORDERS {
        c.push(
            "orderList",
            format!("at most {MAX_ORDERS} orders per batch"),
        );
    }
    let mut sequences: HashMap<i32, usize> = HashMap::new();
    for (i, order) in r.order_list.iter().enumerate() {
        let path = format_args!("orderList[{i}]");
        if let Some(seq) = order.sequence
            && let Some(first) = sequences.insert(seq, i)
        {
            c.push(
                format!("{path}.sequence"),
                format!("{seq} is already used by orderList[{first}]"),
            );
        }
        check_order(&mut c, &path, order);
    }
    c.problems
}

fn check_order(c: &mut Check, path: &dyn fmt::Display, o: &OrderEntry) {
    match o.sequence {
        None => c.push(format!("{path}.sequence"), "required"),
        Some(s) if s < 0 => c.push(format!("{path}.sequence"), "must not be negative"),
        Some(_) => {}
    }
    let has_customer_id = o
        .customer_id
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty());
    let has_channel_id = o
        .channel_customer_id
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty());
    if !has_customer_id && !has_channel_id {
        c.push(
            format!("{path}.customerId"),
            "required when channelCustomerId is empty",
        );
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
        c.optional(&format_args!("{path}.{name}"), value, max);
    }
    c.mobile(
        &format_args!("{path}.adminCellNumber"),
        &o.admin_cell_number,
    );
    c.mobile(&format_args!("{path}.passwordMobile"), &o.password_mobile);
    if let Some(email) = o.admin_email.as_deref().filter(|e| !e.is_empty())
        && !is_email(email)
    {
        c.push(format!("{path}.adminEmail"), "must be an e-mail address");
    }

    let Some(license_type) = o.license_type else {
        c.push(format!("{path}.licenseType"), "required");
        return;
    };
    let Some(order_type) = o.order_type else {
        c.push(format!("{path}.orderType"), "required");
        return;
    };
    let src_blank = o
        .src_license_order_id
        .as_deref()
        .is_none_or(|s| s.trim().is_empty());
    if order_type != OrderType::NewBuy && license_type.is_cloud() && src_blank {
        c.push(
            format!("{path}.srcLicenseOrderId"),
            format!(
                "required for {} orders of the cloud license type {}",
                order_type.as_str(),
                license_type.as_str()
            ),
        );
    }
    if o.assets.is_empty() {
        c.push(format!("{path}.assets"), "at least one asset required");
    }
    for (j, asset) in o.assets.iter().enumerate() {
        check_asset(c, &format_args!("{path}.assets[{j}]"), order_type, asset);
    }
}

fn check_asset(c: &mut Check, path: &dyn fmt::Display, order_type: OrderType, a: &AssetEntry) {
    if a.asset_nos.is_empty() {
        c.push(
            format!("{path}.assetNos"),
            "at least one asset number required",
        );
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (k, num) in a.asset_nos.iter().enumerate() {
        if let Some(why) = asset_num_problem(num) {
            c.push(format_args!("{path}.assetNos[{k}]"), why);
        } else if let Some(first) = seen.insert(num.as_str(), k) {
            c.push(
                format_args!("{path}.assetNos[{k}]"),
                format!("{num} is already listed at assetNos[{first}]"),
            );
        }
    }
    for (k, e) in a.asset_extend_list.iter().enumerate() {
        c.required(
            &format_args!("{path}.assetExtendList[{k}].extendCode"),
            &e.extend_code,
            MAX_ID_LEN,
        );
        c.optional(
            &format_args!("{path}.assetExtendList[{k}].extendValue"),
            &e.extend_value,
            MAX_TEXT_LEN,
        );
    }
    c.window(path, a.limit_start_date, a.limit_end_date);

    let op = order_type.as_str();
    match order_type {
        OrderType::NewBuy => {
            if a.products.is_empty() && a.merchandises.is_empty() {
                c.push(
                    format!("{path}.products"),
                    "at least one product or merchandise required for new_buy",
                );
            }
        }
        OrderType::DeleteAsset => {
            if !a.products.is_empty() {
                c.push(
                    format!("{path}.products"),
                    "must be empty for delete_asset, which removes whole assets (use delete_product to remove products)",
                );
            }
            if !a.merchandises.is_empty() {
                c.push(
                    format!("{path}.merchandises"),
                    "must be empty for delete_asset",
                );
            }
        }
        OrderType::DeleteProduct => {
            if a.products.is_empty() {
                c.push(
                    format!("{path}.products"),
                    "at least one product required for delete_product",
                );
            }
            if !a.merchandises.is_empty() {
                c.push(
                    format!("{path}.merchandises"),
                    "must be empty for delete_product: name the products to remove",
                );
            }
        }
    }
    for (k, p) in a.products.iter().enumerate() {
        check_product(c, &format_args!("{path}.products[{k}]"), op, p);
    }
    if order_type == OrderType::NewBuy {
        for (k, m) in a.merchandises.iter().enumerate() {
            check_merchandise(c, &format_args!("{path}.merchandises[{k}]"), op, m, 1);
        }
    }
}

fn check_merchandise(
    c: &mut Check,
    path: &dyn fmt::Display,
    op: &str,
    m: &MerchandiseEntry,
    depth: usize,
) {
    c.required(
        &format_args!("{path}.merchandiseNum"),
        &m.merchandise_num,
        MAX_ID_LEN,
    );
    c.optional(
        &format_args!("{path}.merchandiseName"),
        &m.merchandise_name,
        MAX_TEXT_LEN,
    );
    for (k, p) in m.license_order_product_list.iter().enumerate() {
        check_product(
            c,
            &format_args!("{path}.licenseOrderProductList[{k}]"),
            op,
            p,
        );
    }
    let children = m.children.as_deref().unwrap_or_default();
    if !children.is_empty() && depth >= MAX_MERCHANDISE_DEPTH {
        c.push(
            format!("{path}.children"),
            format!("merchandise trees are at most {MAX_MERCHANDISE_DEPTH} levels deep"),
        );
        return;
    }
    for (k, child) in children.iter().enumerate() {
        check_merchandise(
            c,
            &format_args!("{path}.children[{k}]"),
            op,
            child,
            depth + 1,
        );
    }
}

fn check_product(c: &mut Check, path: &dyn fmt::Display, op: &str, p: &ProductEntry) {
    match p.product_uri.as_deref() {
        Some(v) if !v.trim().is_empty() => {
            c.length(&format_args!("{path}.productUri"), v, MAX_ID_LEN)
        }
        _ => c.push(format!("{path}.productUri"), format!("required for {op}")),
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
        c.optional(&format_args!("{path}.{name}"), value, max);
    }
    c.window(path, p.limit_start_date, p.limit_end_date);
    c.not_negative(
        &format_args!("{path}.limitConcurrent"),
        p.limit_concurrent.map(i64::from),
    );
    c.not_negative(
        &format_args!("{path}.limitTimeDuration"),
        p.limit_time_duration,
    );
    c.not_negative(
        &format_args!("{path}.timeUnitQuantity"),
        p.time_unit_quantity.map(i64::from),
    );
    c.not_negative(&format_args!("{path}.trialEndDate"), p.trial_end_date);
    c.flag(&format_args!("{path}.trial"), p.trial);
    for (k, f) in p.product_features.iter().enumerate() {
        check_feature(c, &format_args!("{path}.productFeatures[{k}]"), f);
    }
}

fn check_feature(c: &mut Check, path: &dyn fmt::Display, f: &FeatureEntry) {
    c.required(
        &format_args!("{path}.featureCode"),
        &f.feature_code,
        MAX_ID_LEN,
    );
    c.optional(
        &format_args!("{path}.featureName"),
        &f.feature_name,
        MAX_TEXT_LEN,
    );
    c.optional(
        &format_args!("{path}.featureValue"),
        &f.feature_value,
        MAX_TEXT_LEN,
    );
    c.flag(&format_args!("{path}.trial"), f.trial);
    c.not_negative(&format_args!("{path}.trialEndDate"), f.trial_end_date);
}
