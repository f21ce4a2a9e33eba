//! The order fields and the interface's enumerations in words, in both languages.

use super::super::i18n::Lang;
use crate::core::wire::{CustomerType, LicenseType, OrderType, SyncMode};

/// A field of the batch in words; the interface's name when there are none.
pub fn field_label(lang: Lang, field: &str) -> &str {
    let (en, zh) = match field {
        "channelCode" => ("Channel code", "渠道编码"),
        "channelOrderId" => ("Channel order id", "渠道订单号"),
        "syncMode" => ("Processing", "处理方式"),
        "sequence" => ("Sequence", "序号"),
        "orderType" => ("Order type", "订单类型"),
        "licenseType" => ("License type", "授权类型"),
        "customerId" => ("Platform customer id", "平台客户编号"),
        "crmCustomerId" => ("CRM customer id", "CRM 客户编号"),
        "customerName" => ("Customer name", "客户名称"),
        "channelCustomerId" => ("Channel customer id", "渠道客户编号"),
        "adminName" => ("Administrator name", "管理员姓名"),
        "adminAccount" => ("Administrator account", "管理员账号"),
        "adminEmail" => ("Administrator e-mail", "管理员邮箱"),
        "adminCellNumber" => ("Administrator mobile", "管理员手机号"),
        "passwordMobile" => ("Buyer's mobile", "购买人手机号"),
        "address" => ("Address", "地址"),
        "customerType" => ("Customer type", "客户类型"),
        "branchCode" => ("Branch code", "分公司编码"),
        "branchName" => ("Branch name", "分公司名称"),
        "enterpriseGlobalId" => ("Enterprise global id", "企业全局编号"),
        "srcLicenseOrderId" => ("Original license order", "原授权订单号"),
        "assetNos" => ("Asset numbers", "资产编号"),
        "assetExtendList" => ("Extensions", "扩展属性"),
        "limitStartDate" => ("Valid from", "生效日期"),
        "limitEndDate" => ("Valid until", "截止日期"),
        "borrowedUsbKey" => ("Lent lock", "借用锁"),
        "transferedAssetNum" => ("Transferred asset number", "转移的资产编号"),
        "crmProductId" => ("CRM product instance", "CRM 产品实例"),
        "parentCrmProductId" => ("Parent CRM instance", "上级 CRM 实例"),
        "productUri" => ("Product (gmsPid or appKey)", "产品标识"),
        "productName" => ("Product name", "产品名称"),
        "gmsPid" => ("gmsPid", "gmsPid"),
        "appKey" => ("appKey", "appKey"),
        "productType" => ("Product type", "产品类型"),
        "limitConcurrent" => ("Concurrent nodes", "并发节点数"),
        "limitTimeDuration" => ("Usage duration", "累计使用时长"),
        "strictMatchWhenDelete" => ("Delete only exact matches", "删除时严格匹配"),
        "trial" => ("Trial", "试用"),
        "trialEndDate" => ("Trial ends", "试用截止"),
        "passwords" => ("Passwords (one per line)", "密码（每行一个）"),
        "timeUnit" => ("Time unit", "时间单位"),
        "timeUnitQuantity" => ("Number of units", "单位数量"),
        "timeDurationExpression" => ("Duration (y-m-d)", "时长（年-月-日）"),
        "featureCode" => ("Feature code", "特征码"),
        "featureName" => ("Feature name", "特征名称"),
        "featureValue" => ("Feature value", "特征值"),
        "featureValueType" => ("Value type", "值类型"),
        "merchandiseNum" => ("Package number", "商品包编号"),
        "merchandiseName" => ("Package name", "商品包名称"),
        "parentMerchandiseNum" => ("Parent package number", "上级商品包编号"),
        "orderList" => ("Orders", "订单"),
        "assets" => ("Assets", "资产"),
        "products" => ("Products", "产品"),
        "merchandises" => ("Packages", "商品包"),
        "children" => ("Sub-packages", "下级商品包"),
        _ => return field,
    };
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

pub fn order_type_words(lang: Lang, v: OrderType) -> String {
    let (en, zh) = match v {
        OrderType::NewBuy => ("New purchase", "新购"),
        OrderType::DeleteAsset => ("Delete assets", "删除资产"),
        OrderType::DeleteProduct => ("Delete products", "删除产品"),
    };
    format!("{} ({})", pick(lang, en, zh), v.as_str())
}

pub fn license_type_words(lang: Lang, v: LicenseType) -> String {
    use LicenseType::*;
    let (en, zh) = match v {
        NormalUnrecoverUsbkey => ("stand-alone lock, not re-issuable", "单机锁（不可重发）"),
        NormalRecoverUsbkey => ("stand-alone lock, re-issuable", "单机锁（可重发）"),
        NormalUnrecoverLanUsbkey => ("network lock, not re-issuable", "网络锁（不可重发）"),
        NormalRecoverLanUsbkey => ("network lock, re-issuable", "网络锁（可重发）"),
        IdentityUsbkey => ("stand-alone identity lock", "单机身份锁"),
        IdentityLanUsbkey => ("network identity lock", "网络身份锁"),
        Softkey => ("stand-alone certificate", "单机证书"),
        LanSoftkey => ("network certificate", "网络证书"),
        ProductEntity => ("product entity", "产品实体"),
        CloudAccount => ("cloud account", "云账号"),
        CloudCustomer => ("enterprise cloud account license", "企业云账号授权"),
        CloudPersonal => ("personal cloud account license", "个人云账号授权"),
        LkProductUsbkey => ("product lock", "产品锁"),
        LkAuthUsbkey => ("login lock", "登录锁"),
    };
    format!("{} ({})", pick(lang, en, zh), v.as_str())
}

pub fn customer_type_words(lang: Lang, v: CustomerType) -> String {
    match v {
        CustomerType::Personal => pick(lang, "Personal (personal)", "个人 (personal)"),
        CustomerType::Company => pick(lang, "Company (company)", "企业 (company)"),
    }
    .to_owned()
}

pub fn sync_mode_words(lang: Lang, v: SyncMode) -> String {
    match v {
        SyncMode::Sync => pick(lang, "applied before the answer (sync)", "同步处理 (sync)"),
        SyncMode::Async => pick(
            lang,
            "applied in the background (async)",
            "后台处理 (async)",
        ),
    }
    .to_owned()
}

fn pick<'a>(lang: Lang, en: &'a str, zh: &'a str) -> &'a str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}
