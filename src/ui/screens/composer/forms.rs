//! The form of each kind of node: every field the interface names for it, with its widget.

use super::fields::FormCx;
use super::node::NodeMut;
use crate::core::wire::{
    AssetEntry, BatchOrderRequest, CustomerType, ExtendEntry, FeatureEntry, LicenseType,
    MerchandiseEntry, OrderEntry, OrderType, ProductEntry, SyncMode,
};
use crate::ui::kit::form::asset_numbers_from;
use crate::ui::text::i18n::t;
use crate::ui::text::labels::{
    customer_type_name, license_type_name, order_type_short, sync_mode_name,
};

pub fn node_form_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, node: &mut NodeMut<'_>) {
    egui::Grid::new("node_form")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .min_col_width(150.0)
        .show(ui, |ui| match node {
            NodeMut::Batch(b) => batch_ui(ui, cx, b.head_mut()),
            NodeMut::Order(o) => order_ui(ui, cx, o),
            NodeMut::Asset(a) => asset_ui(ui, cx, a),
            NodeMut::Product(p) => product_ui(ui, cx, p),
            NodeMut::Feature(f) => feature_ui(ui, cx, f),
            NodeMut::Merchandise(m) => merchandise_ui(ui, cx, m),
        });
}

fn batch_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, b: &mut BatchOrderRequest) {
    let lang = cx.lang;
    cx.text(ui, "channelCode", true, &mut b.channel_code);
    cx.text(ui, "channelOrderId", true, &mut b.channel_order_id);
    cx.choice(
        ui,
        "syncMode",
        false,
        &mut b.sync_mode,
        &[(SyncMode::Sync, "sync"), (SyncMode::Async, "async")],
        |v| sync_mode_name(lang, v),
    );
}

fn order_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, o: &mut OrderEntry) {
    let lang = cx.lang;
    cx.number(ui, "sequence", true, &mut o.sequence);
    cx.choice(
        ui,
        "orderType",
        true,
        &mut o.order_type,
        &choices(OrderType::ALL, OrderType::as_str),
        |v| order_type_short(lang, v),
    );
    cx.choice(
        ui,
        "licenseType",
        true,
        &mut o.license_type,
        &choices(LicenseType::ALL, LicenseType::as_str),
        |v| license_type_name(lang, v),
    );
    // One of the two names the customer.
    let named = o
        .customer_id
        .as_deref()
        .is_some_and(|s| !s.trim().is_empty())
        || o.channel_customer_id
            .as_deref()
            .is_some_and(|s| !s.trim().is_empty());
    cx.text(ui, "channelCustomerId", !named, &mut o.channel_customer_id);
    cx.text(ui, "customerId", !named, &mut o.customer_id);
    cx.text(ui, "customerName", false, &mut o.customer_name);
    cx.text(ui, "crmCustomerId", false, &mut o.crm_customer_id);
    cx.text(ui, "enterpriseGlobalId", false, &mut o.enterprise_global_id);
    let cloud_delete = o.license_type.is_some_and(LicenseType::is_cloud)
        && o.order_type.is_some_and(|t| t != OrderType::NewBuy);
    cx.text(
        ui,
        "srcLicenseOrderId",
        cloud_delete,
        &mut o.src_license_order_id,
    );
    cx.choice(
        ui,
        "customerType",
        false,
        &mut o.customer_type,
        &[
            (CustomerType::Company, "company"),
            (CustomerType::Personal, "personal"),
        ],
        |v| customer_type_name(lang, v),
    );
    cx.text(ui, "branchCode", false, &mut o.branch_code);
    cx.text(ui, "branchName", false, &mut o.branch_name);
    cx.text(ui, "adminName", false, &mut o.admin_name);
    cx.text(ui, "adminAccount", false, &mut o.admin_account);
    cx.text(ui, "adminEmail", false, &mut o.admin_email);
    cx.text(ui, "adminCellNumber", false, &mut o.admin_cell_number);
    cx.text(ui, "passwordMobile", false, &mut o.password_mobile);
    cx.text(ui, "address", false, &mut o.address);
}

fn asset_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, a: &mut AssetEntry) {
    let hint = t!(cx.lang, "asset-numbers-hint");
    cx.lines(
        ui,
        "assetNos",
        true,
        &mut a.asset_nos,
        hint,
        asset_numbers_from,
    );
    // A delete of whole assets reads their numbers alone; a delete of products, the numbers
    // and optionally their limit times; the rest is a new purchase's.
    if cx.whole_assets {
        ui.weak(t!(cx.lang, "asset-delete-numbers-only"));
        return;
    }
    cx.date(ui, "limitStartDate", false, &mut a.limit_start_date);
    cx.date(ui, "limitEndDate", !cx.deletes, &mut a.limit_end_date);
    if cx.deletes {
        return;
    }
    cx.flag(ui, "borrowedUsbKey", &mut a.borrowed_usb_key);
    cx.flag(ui, "transferedAssetNum", &mut a.transfered_asset_num);
    extensions_ui(ui, cx, &mut a.asset_extend_list);
}

/// `assetExtendList`: code and value pairs, one per line of `code=value`.
fn extensions_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, list: &mut Vec<ExtendEntry>) {
    let mut pairs: Vec<String> = list
        .iter()
        .map(|e| {
            format!(
                "{}={}",
                e.extend_code.as_deref().unwrap_or(""),
                e.extend_value.as_deref().unwrap_or("")
            )
        })
        .collect();
    let before = pairs.clone();
    let hint = t!(cx.lang, "extensions-hint");
    cx.lines(ui, "assetExtendList", false, &mut pairs, hint, |text| {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    });
    if pairs != before {
        *list = pairs
            .iter()
            .map(|line| {
                let (code, value) = line.split_once('=').unwrap_or((line, ""));
                ExtendEntry {
                    extend_code: Some(code.trim().to_owned()).filter(|s| !s.is_empty()),
                    extend_value: Some(value.trim().to_owned()).filter(|s| !s.is_empty()),
                    ..ExtendEntry::default()
                }
            })
            .collect();
    }
}

fn product_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, p: &mut ProductEntry) {
    if cx.deletes {
        // What a delete reads of a product: which one, and how strictly it is matched. The
        // rest is a new purchase's, kept as it is under its own heading.
        cx.text(ui, "productUri", true, &mut p.product_uri);
        cx.text(ui, "srcLicenseOrderId", false, &mut p.src_license_order_id);
        cx.flag(ui, "strictMatchWhenDelete", &mut p.strict_match_when_delete);
        let lang = cx.lang;
        egui::CollapsingHeader::new(t!(lang, "purchase-fields"))
            .id_salt("purchase_fields")
            .show(ui, |ui| {
                egui::Grid::new("purchase_fields_grid")
                    .num_columns(2)
                    .spacing([12.0, 6.0])
                    .min_col_width(150.0)
                    .show(ui, |ui| purchase_fields_ui(ui, cx, p));
            });
        ui.end_row();
        return;
    }
    cx.text(ui, "productUri", true, &mut p.product_uri);
    purchase_fields_ui(ui, cx, p);
    cx.text(ui, "srcLicenseOrderId", false, &mut p.src_license_order_id);
    cx.flag(ui, "strictMatchWhenDelete", &mut p.strict_match_when_delete);
}

/// A product's fields that only a new purchase reads.
fn purchase_fields_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, p: &mut ProductEntry) {
    cx.text(ui, "productName", false, &mut p.product_name);
    cx.text(ui, "crmProductId", false, &mut p.crm_product_id);
    cx.text(
        ui,
        "parentCrmProductId",
        false,
        &mut p.parent_crm_product_id,
    );
    cx.text(ui, "gmsPid", false, &mut p.gms_pid);
    cx.text(ui, "appKey", false, &mut p.app_key);
    cx.text(ui, "productType", false, &mut p.product_type);
    cx.date(ui, "limitStartDate", false, &mut p.limit_start_date);
    cx.date(ui, "limitEndDate", true, &mut p.limit_end_date);
    cx.number(ui, "limitConcurrent", false, &mut p.limit_concurrent);
    cx.number(ui, "limitTimeDuration", false, &mut p.limit_time_duration);
    cx.zero_one(ui, "trial", &mut p.trial);
    cx.date(ui, "trialEndDate", true, &mut p.trial_end_date);
    cx.text(ui, "timeUnit", false, &mut p.time_unit);
    cx.number(ui, "timeUnitQuantity", false, &mut p.time_unit_quantity);
    cx.text(
        ui,
        "timeDurationExpression",
        false,
        &mut p.time_duration_expression,
    );
    cx.lines(ui, "passwords", false, &mut p.passwords, "", |text| {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    });
}

fn feature_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, f: &mut FeatureEntry) {
    cx.text(ui, "featureCode", true, &mut f.feature_code);
    cx.text(ui, "featureName", false, &mut f.feature_name);
    cx.text(ui, "featureValue", false, &mut f.feature_value);
    cx.text(ui, "featureValueType", false, &mut f.feature_value_type);
    cx.zero_one(ui, "trial", &mut f.trial);
    cx.date(ui, "trialEndDate", true, &mut f.trial_end_date);
}

fn merchandise_ui(ui: &mut egui::Ui, cx: &mut FormCx<'_>, m: &mut MerchandiseEntry) {
    cx.text(ui, "merchandiseNum", true, &mut m.merchandise_num);
    cx.text(ui, "merchandiseName", false, &mut m.merchandise_name);
    cx.text(ui, "crmProductId", false, &mut m.crm_product_id);
    cx.text(
        ui,
        "parentCrmProductId",
        false,
        &mut m.parent_crm_product_id,
    );
    cx.text(
        ui,
        "parentMerchandiseNum",
        false,
        &mut m.parent_merchandise_num,
    );
    cx.text(
        ui,
        "timeDurationExpression",
        false,
        &mut m.time_duration_expression,
    );
}

/// Each value with its interface name, for a choice's list.
fn choices<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<(T, &'static str)> {
    all.iter().map(|&v| (v, name(v))).collect()
}
