//! The columns of an order spreadsheet: one row per asset × product. Each column has an English
//! and a Chinese header (either is accepted, as is the interface's own field name), the node it
//! fills, the interface field it becomes, the kind of value it holds, and a line of help for
//! the template's explanation sheet.

/// The node of the batch a column fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Batch,
    Order,
    Asset,
    Package,
    Product,
}

/// The kind of value a column holds, and so how a cell becomes JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Integer,
    /// A day: a spreadsheet date or `YYYY-MM-DD`; the start of the day.
    StartDate,
    /// A day: the last millisecond of it (valid *until* that day).
    EndDate,
    YesNo,
    /// `0` or `1` (trial).
    ZeroOne,
    /// Several values in one cell, separated by spaces, commas, semicolons or new lines.
    List,
    /// `code=value` pairs, separated by semicolons or new lines.
    Pairs,
}

pub struct Column {
    pub en: &'static str,
    pub zh: &'static str,
    pub level: Level,
    /// The interface's field it becomes.
    pub field: &'static str,
    pub kind: Kind,
    pub help_en: &'static str,
    pub help_zh: &'static str,
}

const fn col(
    en: &'static str,
    zh: &'static str,
    level: Level,
    field: &'static str,
    kind: Kind,
    help: (&'static str, &'static str),
) -> Column {
    Column {
        en,
        zh,
        level,
        field,
        kind,
        help_en: help.0,
        help_zh: help.1,
    }
}

use Kind::*;
use Level::*;

/// Every column, in the template's order. `Order`, `Asset numbers` and `Package number` are the
/// keys: rows with the same order number are one order; within it, rows with the same asset
/// numbers are one asset; a product row with a package number goes into that package.
pub static COLUMNS: &[Column] = &[
    col(
        "Channel code",
        "渠道编码",
        Batch,
        "channelCode",
        Text,
        (
            "The channel's code; the first row that has it gives it to the batch.",
            "渠道编码；取第一个填写了它的行。",
        ),
    ),
    col(
        "Channel order id",
        "渠道订单号",
        Batch,
        "channelOrderId",
        Text,
        (
            "The batch's id in the channel: sending it again returns the first result.",
            "批次在渠道中的编号：重复提交返回首次结果。",
        ),
    ),
    col(
        "Sync mode",
        "处理方式",
        Batch,
        "syncMode",
        Text,
        ("sync or async.", "sync（同步）或 async（异步）。"),
    ),
    col(
        "Order",
        "订单",
        Order,
        "sequence",
        Integer,
        (
            "The order's sequence number: rows with the same number make one order.",
            "订单序号：序号相同的行属于同一订单。",
        ),
    ),
    col(
        "Order type",
        "订单类型",
        Order,
        "orderType",
        Text,
        (
            "new_buy, delete_asset or delete_product.",
            "new_buy（新购）、delete_asset（删除资产）或 delete_product（删除产品）。",
        ),
    ),
    col(
        "License type",
        "授权类型",
        Order,
        "licenseType",
        Text,
        (
            "As the interface lists them, e.g. normal_recover_usbkey, softkey, cloud_account.",
            "接口列出的取值，如 normal_recover_usbkey、softkey、cloud_account。",
        ),
    ),
    col(
        "Channel customer id",
        "渠道客户编号",
        Order,
        "channelCustomerId",
        Text,
        ("The customer's id in the channel.", "客户在渠道中的编号。"),
    ),
    col(
        "Customer id",
        "平台客户编号",
        Order,
        "customerId",
        Text,
        (
            "The platform's customer id, when known.",
            "平台客户编号（已知时）。",
        ),
    ),
    col(
        "CRM customer id",
        "CRM 客户编号",
        Order,
        "crmCustomerId",
        Text,
        ("", ""),
    ),
    col(
        "Customer name",
        "客户名称",
        Order,
        "customerName",
        Text,
        ("", ""),
    ),
    col(
        "Customer type",
        "客户类型",
        Order,
        "customerType",
        Text,
        (
            "personal or company.",
            "personal（个人）或 company（企业）。",
        ),
    ),
    col(
        "Enterprise global id",
        "企业全局编号",
        Order,
        "enterpriseGlobalId",
        Text,
        ("", ""),
    ),
    col(
        "Source license order",
        "原授权订单号",
        Order,
        "srcLicenseOrderId",
        Text,
        (
            "For deletions: the license order changed.",
            "删除时：所变更的授权订单。",
        ),
    ),
    col(
        "Administrator name",
        "管理员姓名",
        Order,
        "adminName",
        Text,
        ("", ""),
    ),
    col(
        "Administrator account",
        "管理员账号",
        Order,
        "adminAccount",
        Text,
        ("", ""),
    ),
    col(
        "Administrator e-mail",
        "管理员邮箱",
        Order,
        "adminEmail",
        Text,
        ("", ""),
    ),
    col(
        "Administrator mobile",
        "管理员手机号",
        Order,
        "adminCellNumber",
        Text,
        ("11 digits.", "11 位手机号。"),
    ),
    col(
        "Buyer's mobile",
        "购买人手机号",
        Order,
        "passwordMobile",
        Text,
        ("11 digits.", "11 位手机号。"),
    ),
    col("Address", "地址", Order, "address", Text, ("", "")),
    col(
        "Branch code",
        "分公司编码",
        Order,
        "branchCode",
        Text,
        ("", ""),
    ),
    col(
        "Branch name",
        "分公司名称",
        Order,
        "branchName",
        Text,
        ("", ""),
    ),
    col(
        "Asset numbers",
        "资产编号",
        Asset,
        "assetNos",
        List,
        (
            "The asset's numbers, separated by spaces or commas: rows with the same numbers make one asset.",
            "资产编号，用空格或逗号分隔：编号相同的行属于同一资产。",
        ),
    ),
    col(
        "Valid from",
        "生效日期",
        Asset,
        "limitStartDate",
        StartDate,
        ("A date (2027-01-01).", "日期（如 2027-01-01）。"),
    ),
    col(
        "Valid until",
        "截止日期",
        Asset,
        "limitEndDate",
        EndDate,
        (
            "A date (2027-12-31): valid until the end of that day.",
            "日期（如 2027-12-31）：有效至当天结束。",
        ),
    ),
    col(
        "Lent lock",
        "借用锁",
        Asset,
        "borrowedUsbKey",
        YesNo,
        ("yes or no.", "是 或 否。"),
    ),
    col(
        "Transferred asset number",
        "转移的资产编号",
        Asset,
        "transferedAssetNum",
        YesNo,
        ("yes or no.", "是 或 否。"),
    ),
    col(
        "Extensions",
        "扩展属性",
        Asset,
        "assetExtendList",
        Pairs,
        (
            "code=value, separated by semicolons.",
            "编码=值，用分号分隔。",
        ),
    ),
    col(
        "Package number",
        "商品包编号",
        Package,
        "merchandiseNum",
        Text,
        (
            "A product row with a package number goes into that package.",
            "填写了商品包编号的产品行属于该商品包。",
        ),
    ),
    col(
        "Package name",
        "商品包名称",
        Package,
        "merchandiseName",
        Text,
        ("", ""),
    ),
    col(
        "Parent package number",
        "上级商品包编号",
        Package,
        "parentMerchandiseNum",
        Text,
        (
            "A sub-package names its parent package here.",
            "子商品包在此填写上级商品包编号。",
        ),
    ),
    col(
        "Package CRM instance",
        "商品包 CRM 实例",
        Package,
        "crmProductId",
        Text,
        ("", ""),
    ),
    col(
        "Package duration",
        "商品包时长",
        Package,
        "timeDurationExpression",
        Text,
        ("Years-months-days, as 1-0-0.", "年-月-日，如 1-0-0。"),
    ),
    col(
        "Product",
        "产品标识",
        Product,
        "productUri",
        Text,
        (
            "The product's URI (gmsPid or appKey).",
            "产品标识（gmsPid 或 appKey）。",
        ),
    ),
    col(
        "Product name",
        "产品名称",
        Product,
        "productName",
        Text,
        ("", ""),
    ),
    col("gmsPid", "gmsPid", Product, "gmsPid", Text, ("", "")),
    col("appKey", "appKey", Product, "appKey", Text, ("", "")),
    col(
        "CRM product instance",
        "CRM 产品实例",
        Product,
        "crmProductId",
        Text,
        ("", ""),
    ),
    col(
        "Parent CRM instance",
        "上级 CRM 实例",
        Product,
        "parentCrmProductId",
        Text,
        ("", ""),
    ),
    col(
        "Product type",
        "产品类型",
        Product,
        "productType",
        Text,
        ("", ""),
    ),
    col(
        "Product valid from",
        "产品生效日期",
        Product,
        "limitStartDate",
        StartDate,
        ("A date.", "日期。"),
    ),
    col(
        "Product valid until",
        "产品截止日期",
        Product,
        "limitEndDate",
        EndDate,
        ("A date.", "日期。"),
    ),
    col(
        "Concurrent nodes",
        "并发节点数",
        Product,
        "limitConcurrent",
        Integer,
        ("A whole number.", "整数。"),
    ),
    col(
        "Usage time",
        "累计使用时长",
        Product,
        "limitTimeDuration",
        Integer,
        ("A whole number.", "整数。"),
    ),
    col(
        "Duration",
        "时长",
        Product,
        "timeDurationExpression",
        Text,
        ("Years-months-days, as 1-0-0.", "年-月-日，如 1-0-0。"),
    ),
    col("Time unit", "时间单位", Product, "timeUnit", Text, ("", "")),
    col(
        "Time units",
        "单位数量",
        Product,
        "timeUnitQuantity",
        Integer,
        ("A whole number.", "整数。"),
    ),
    col(
        "Trial",
        "试用",
        Product,
        "trial",
        ZeroOne,
        (
            "1 for a trial, else 0 or empty.",
            "试用填 1，否则填 0 或留空。",
        ),
    ),
    col(
        "Trial until",
        "试用截止",
        Product,
        "trialEndDate",
        EndDate,
        ("A date.", "日期。"),
    ),
    col(
        "Strict match on delete",
        "删除时严格匹配",
        Product,
        "strictMatchWhenDelete",
        YesNo,
        ("yes or no.", "是 或 否。"),
    ),
    col(
        "Product source order",
        "产品原授权订单号",
        Product,
        "srcLicenseOrderId",
        Text,
        ("", ""),
    ),
    col(
        "Passwords",
        "密码",
        Product,
        "passwords",
        List,
        ("Separated by spaces or commas.", "用空格或逗号分隔。"),
    ),
];

/// The column a header names: its English or Chinese header, or (for a column the interface
/// names once) the field's own name. Case, spaces and a trailing `*` do not matter.
pub fn column_of(header: &str) -> Option<&'static Column> {
    // The template's headers hold both languages: `Order type / 订单类型`.
    if let Some((left, right)) = header.split_once('/') {
        let (left, right) = (column_of(left), column_of(right));
        if let (Some(l), Some(r)) = (left, right)
            && std::ptr::eq(l, r)
        {
            return Some(l);
        }
    }
    let key = normalize(header);
    if key.is_empty() {
        return None;
    }
    COLUMNS
        .iter()
        .find(|c| normalize(c.en) == key || normalize(c.zh) == key)
        .or_else(|| {
            let mut by_field = COLUMNS.iter().filter(|c| normalize(c.field) == key);
            match (by_field.next(), by_field.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        })
}

/// The words a sheet may hold instead of a code, in English and Chinese (the UI's own words; a
/// test in `ui::labels` keeps them the same): (field, code, English, Chinese).
const WORDS: &[(&str, &str, &str, &str)] = &[
    ("orderType", "new_buy", "New purchase", "新购"),
    ("orderType", "delete_asset", "Delete assets", "删除资产"),
    ("orderType", "delete_product", "Delete products", "删除产品"),
    ("customerType", "personal", "Personal", "个人"),
    ("customerType", "company", "Company", "企业"),
    ("syncMode", "sync", "sync", "同步"),
    ("syncMode", "async", "async", "异步"),
    (
        "licenseType",
        "normal_unrecover_usbkey",
        "stand-alone lock, not re-issuable",
        "单机锁（不可重发）",
    ),
    (
        "licenseType",
        "normal_recover_usbkey",
        "stand-alone lock, re-issuable",
        "单机锁（可重发）",
    ),
    (
        "licenseType",
        "normal_unrecover_lan_usbkey",
        "network lock, not re-issuable",
        "网络锁（不可重发）",
    ),
    (
        "licenseType",
        "normal_recover_lan_usbkey",
        "network lock, re-issuable",
        "网络锁（可重发）",
    ),
    (
        "licenseType",
        "identity_usbkey",
        "stand-alone identity lock",
        "单机身份锁",
    ),
    (
        "licenseType",
        "identity_lan_usbkey",
        "network identity lock",
        "网络身份锁",
    ),
    (
        "licenseType",
        "softkey",
        "stand-alone certificate",
        "单机证书",
    ),
    (
        "licenseType",
        "lan_softkey",
        "network certificate",
        "网络证书",
    ),
    (
        "licenseType",
        "product_entity",
        "product entity",
        "产品实体",
    ),
    ("licenseType", "cloud_account", "cloud account", "云账号"),
    (
        "licenseType",
        "cloud_customer",
        "enterprise cloud account license",
        "企业云账号授权",
    ),
    (
        "licenseType",
        "cloud_personal",
        "personal cloud account license",
        "个人云账号授权",
    ),
    ("licenseType", "lk_product_usbkey", "product lock", "产品锁"),
    ("licenseType", "lk_auth_usbkey", "login lock", "登录锁"),
];

/// The interface's code for words a sheet holds in place of it (`新购` → `new_buy`; case,
/// spaces and the width of brackets do not matter); None for anything else, a code included.
pub fn code_of(field: &str, text: &str) -> Option<&'static str> {
    let key = normalize(&text.replace('(', "（").replace(')', "）"));
    WORDS
        .iter()
        .filter(|(f, ..)| *f == field)
        .find(|(_, _, en, zh)| {
            normalize(&en.replace('(', "（").replace(')', "）")) == key || normalize(zh) == key
        })
        .map(|(_, code, ..)| *code)
}

fn normalize(header: &str) -> String {
    header
        .trim()
        .trim_end_matches('*')
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{COLUMNS, column_of};

    #[test]
    fn every_header_is_known_in_both_languages_and_headers_are_unique() {
        for c in COLUMNS {
            assert!(std::ptr::eq(column_of(c.en).expect("en"), c), "{}", c.en);
            assert!(std::ptr::eq(column_of(c.zh).expect("zh"), c), "{}", c.zh);
        }
        assert_eq!(
            column_of(" channel CODE *").map(|c| c.field),
            Some("channelCode")
        );
        assert_eq!(
            column_of("licenseType").map(|c| c.field),
            Some("licenseType")
        );
        // A field two levels share is named by its header only.
        assert!(column_of("limitEndDate").is_none());
    }
}
