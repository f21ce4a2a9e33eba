//! The delete preview against the real embedded Sandbox: for each delete variant (a whole
//! asset; products by mnemonic and strictly; with and without `srcLicenseOrderId`; a cloud
//! type), the listing before, the preview, the batch sent, the listing after: what the preview
//! said goes is exactly what went.

use test_support::desk;

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use desk::{Answer, CallOn, WAIT, mock_store, run, start_core};
use license_desk::core::catalog;
use license_desk::core::catalog::CatalogView;
use license_desk::core::{Call, Core, KeyringChoice, SANDBOX};
use serde_json::{Value, json};
use wire::preview::{DeletePreview, Warning};
use wire::refusal::Refusal;
use wire::{Asset, BatchOrderRequest, BatchOrderResult, EnterpriseRequest};

const DAY: i64 = 86_400_000;
const START: i64 = 1_800_000_000_000;

fn start(root: &Path) -> Core {
    start_core(root, KeyringChoice::Store(mock_store()))
}

fn on_sandbox(call: Call) -> CallOn {
    CallOn {
        profile: SANDBOX.to_owned(),
        call,
    }
}

fn batch(value: Value) -> BatchOrderRequest {
    serde_json::from_value(value).expect("a batch")
}

fn send(core: &Core, batch: BatchOrderRequest) -> Result<Vec<BatchOrderResult>, String> {
    match core.run(on_sandbox(Call::BatchOrder(batch)), WAIT) {
        Ok(Answer::Orders(results)) => Ok(results),
        Ok(other) => panic!("not orders: {other:?}"),
        Err(e) => Err(e.to_string()),
    }
}

fn listing(core: &Core, enterprise: &str) -> Vec<Asset> {
    let call = Call::Assets {
        enterprise_global_id: enterprise.to_owned(),
        extend_code: None,
    };
    match run(core, on_sandbox(call)) {
        Answer::Assets(assets) => assets.to_assets(),
        other => panic!("not assets: {other:?}"),
    }
}

fn preview(core: &Core, batch: &BatchOrderRequest) -> DeletePreview {
    let asked = license_desk::core::calls::checks::PreviewDeletes {
        profile: SANDBOX.to_owned(),
        batch: Box::new(batch.clone()),
    };
    *run(core, asked)
}

/// A product instance: asset, URI, node count, granting order.
type Instance = (String, String, Option<i32>, Option<String>);

/// Every product instance of a listing, sorted.
fn instances(assets: &[Asset]) -> Vec<Instance> {
    let mut all: Vec<Instance> = assets
        .iter()
        .flat_map(|a| {
            a.products.iter().map(|p| {
                (
                    a.asset_num.clone(),
                    p.product_uri.clone(),
                    p.limit_concurrent,
                    p.license_order_id.clone(),
                )
            })
        })
        .collect();
    all.sort();
    all
}

/// What went between two listings: product instances and whole assets.
fn went(before: &[Asset], after: &[Asset]) -> (Vec<Instance>, Vec<String>) {
    let mut left = instances(after);
    let mut gone = Vec::new();
    for i in instances(before) {
        match left.iter().position(|l| *l == i) {
            Some(at) => {
                left.remove(at);
            }
            None => gone.push(i),
        }
    }
    let mut assets: Vec<String> = before
        .iter()
        .filter(|b| !after.iter().any(|a| a.asset_num == b.asset_num))
        .map(|b| b.asset_num.clone())
        .collect();
    assets.sort();
    (gone, assets)
}

fn said(preview: &DeletePreview) -> (Vec<Instance>, Vec<String>) {
    let mut products: Vec<Instance> = preview
        .orders
        .iter()
        .flat_map(|o| &o.removed)
        .map(|r| {
            (
                r.asset_num.clone(),
                r.product.product_uri.clone(),
                r.product.limit_concurrent,
                r.product.license_order_id.clone(),
            )
        })
        .collect();
    products.sort();
    let mut assets: Vec<String> = preview
        .orders
        .iter()
        .flat_map(|o| o.assets_removed.clone())
        .collect();
    assets.sort();
    (products, assets)
}

/// Lists, previews, sends, lists again: the preview said exactly what went.
#[track_caller]
fn previewed_then_sent(core: &Core, enterprise: &str, delete: BatchOrderRequest) -> DeletePreview {
    let before = listing(core, enterprise);
    let seen = preview(core, &delete);
    assert!(!seen.unknown() && !seen.refused(), "{seen:#?}");
    send(core, delete).expect("the delete is accepted");
    let after = listing(core, enterprise);
    assert_eq!(said(&seen), went(&before, &after), "{seen:#?}");
    assert!(seen.products_removed() > 0, "{seen:#?}");
    seen
}

fn product(uri: &str, concurrent: i32) -> Value {
    json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": concurrent,
           "limitStartDate": START, "limitEndDate": START + 365 * DAY})
}

/// An enterprise with one customer whose locks hold products from two orders, and a cloud
/// account from a third. Answers the enterprise and the three license order ids.
fn granted(core: &Core) -> (String, [String; 3]) {
    let created = run(
        core,
        on_sandbox(Call::CreateEnterprise(EnterpriseRequest {
            crm_customer_id: Some("CRM-DEL".into()),
            customer_name: Some("删除预览有限公司".into()),
            branch_name: None,
            address: None,
        })),
    );
    let Answer::Enterprise(created) = created else {
        panic!("not created: {created:?}");
    };
    let eg = created.enterprise_global_id;
    let order = |seq: i32, license: &str, nums: &[&str], products: Vec<Value>| {
        json!({"sequence": seq, "enterpriseGlobalId": eg, "channelCustomerId": "DEL-1",
               "customerName": "删除预览有限公司", "licenseType": license, "orderType": "new_buy",
               "assets": [{"assetNos": nums, "products": products}]})
    };
    let locks = [
        "8900000101",
        "8900000102",
        "8900000103",
        "8900000104",
        "8900000105",
    ];
    let results = send(
        core,
        batch(
            json!({"channelCode": "SHOP", "channelOrderId": "DEL-GRANT", "orderList": [
                order(1, "normal_recover_usbkey", &locks,
                      vec![product("gms:P1", 5), product("gms:P2", 3)]),
                order(2, "normal_recover_usbkey", &["8900000101", "8900000102", "8900000105"],
                      vec![product("gms:P1", 9)]),
                order(3, "cloud_account", &["8900000201"], vec![product("gms:P3", 1)]),
            ]}),
        ),
    )
    .expect("granted");
    let ids = [0, 1, 2].map(|i| results[i].license_order_id.clone());
    (eg, ids)
}

fn delete(id: &str, order: Value) -> BatchOrderRequest {
    batch(json!({"channelCode": "SHOP", "channelOrderId": id, "orderList": [order]}))
}

fn kinds(preview: &DeletePreview) -> Vec<&Warning> {
    preview.orders.iter().flat_map(|o| &o.warnings).collect()
}

#[test]
fn each_delete_variant_removes_what_its_preview_said() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let (eg, [o1, o2, o3]) = granted(&core);
    let base = |extra: Value| {
        let mut o = json!({"sequence": 1, "enterpriseGlobalId": eg, "channelCustomerId": "DEL-1",
                           "licenseType": "normal_recover_usbkey"});
        for (k, v) in extra.as_object().expect("an object") {
            o[k] = v.clone();
        }
        o
    };

    // A product by mnemonic, no source order: both instances of gms:P1 on 101.
    let seen = previewed_then_sent(
        &core,
        &eg,
        delete(
            "DEL-1",
            base(json!({"orderType": "delete_product",
                        "assets": [{"assetNos": ["8900000101"],
                                    "products": [{"productUri": "gms:P1"}]}]})),
        ),
    );
    assert_eq!(seen.products_removed(), 2);
    let w = kinds(&seen);
    assert!(w.contains(&&Warning::AllOrdersOfCustomer), "{w:?}");
    assert!(
        w.contains(&&Warning::LooseMatch {
            asset_num: "8900000101".into(),
            product_uri: "gms:P1".into(),
            count: 2
        }),
        "{w:?}"
    );

    // Strictly, from the second order: only the 9-node instance on 102.
    let mut strict = product("gms:P1", 9);
    strict["strictMatchWhenDelete"] = json!(true);
    let seen = previewed_then_sent(
        &core,
        &eg,
        delete(
            "DEL-2",
            base(
                json!({"orderType": "delete_product", "srcLicenseOrderId": o2,
                        "assets": [{"assetNos": ["8900000102"], "products": [strict]}]}),
            ),
        ),
    );
    assert_eq!(seen.products_removed(), 1);
    assert!(kinds(&seen).is_empty(), "{seen:#?}");

    // A whole asset, no source order: 104 goes with both its products.
    let seen = previewed_then_sent(
        &core,
        &eg,
        delete(
            "DEL-3",
            base(json!({"orderType": "delete_asset", "assets": [{"assetNos": ["8900000104"]}]})),
        ),
    );
    assert_eq!(seen.assets_removed(), 1);
    assert_eq!(seen.products_removed(), 2);

    // An asset limited to a source order: 105 loses the second order's product and stays.
    let seen = previewed_then_sent(
        &core,
        &eg,
        delete(
            "DEL-4",
            base(json!({"orderType": "delete_asset", "srcLicenseOrderId": o2,
                        "assets": [{"assetNos": ["8900000105"]}]})),
        ),
    );
    assert_eq!((seen.assets_removed(), seen.products_removed()), (0, 1));

    // Products from the first order by mnemonic on 103.
    previewed_then_sent(
        &core,
        &eg,
        delete(
            "DEL-5",
            base(
                json!({"orderType": "delete_product", "srcLicenseOrderId": o1,
                        "assets": [{"assetNos": ["8900000103"],
                                    "products": [{"productUri": "gms:P2"}]}]}),
            ),
        ),
    );

    // A cloud account, which must name its source order: the asset goes.
    let seen = previewed_then_sent(
        &core,
        &eg,
        delete(
            "DEL-6",
            base(
                json!({"orderType": "delete_asset", "licenseType": "cloud_account",
                        "srcLicenseOrderId": o3, "assets": [{"assetNos": ["8900000201"]}]}),
            ),
        ),
    );
    assert_eq!(seen.assets_removed(), 1);
}

#[test]
fn a_delete_the_platform_would_refuse_is_said_so_and_nothing_goes() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let (eg, _) = granted(&core);
    let order = json!({"sequence": 1, "enterpriseGlobalId": eg, "channelCustomerId": "DEL-1",
                       "licenseType": "normal_recover_usbkey", "orderType": "delete_product",
                       "assets": [{"assetNos": ["8900000101", "8900009999"],
                                   "products": [{"productUri": "gms:P9"}]}]});
    let refused = delete("DEL-R", order);
    let before = listing(&core, &eg);
    let seen = preview(&core, &refused);
    assert!(seen.refused(), "{seen:#?}");
    let w = kinds(&seen);
    assert!(
        w.contains(&&Warning::Refused {
            path: "orderList[0].assets[0].products[0]".into(),
            refusal: Refusal::NoProduct {
                asset: "8900000101".into(),
                uri: "gms:P9".into()
            },
            message: "asset 8900000101 holds no product gms:P9".into()
        }),
        "{w:?}"
    );
    assert!(
        w.contains(&&Warning::AssetNotListed {
            asset_num: "8900009999".into()
        }),
        "{w:?}"
    );
    let sent = send(&core, refused);
    assert!(sent.is_err(), "{sent:?}");
    assert_eq!(listing(&core, &eg), before);

    // A channel id the platform does not know: it would make a new customer, holding nothing.
    let stranger = delete(
        "DEL-S",
        json!({"sequence": 1, "enterpriseGlobalId": eg, "channelCustomerId": "NOBODY",
               "licenseType": "normal_recover_usbkey", "orderType": "delete_asset",
               "assets": [{"assetNos": ["8900000101"]}]}),
    );
    let seen = preview(&core, &stranger);
    assert!(
        matches!(&seen.orders[0].warnings[..], [Warning::AllOrdersOfCustomer, Warning::Refused { path, refusal: Refusal::OwnedForNew { asset, .. }, message }]
            if path == "orderList[0].assets[0].assetNos[0]" && asset == "8900000101" && message.ends_with("would make a new one")),
        "{seen:#?}"
    );
    assert_eq!(seen.assets_removed(), 0);
    let sent = send(&core, stranger);
    assert!(
        sent.as_ref()
            .is_err_and(|e| e.contains("belongs to another customer")),
        "{sent:?}"
    );
    assert_eq!(listing(&core, &eg), before);
}

/// The directory gives an order that names only its customer its enterprise; an enterprise
/// that cannot be listed leaves the effect unknown.
#[test]
fn an_order_is_placed_by_the_directory_or_its_effect_is_unknown() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let (eg, _) = granted(&core);
    let deadline = Instant::now() + WAIT;
    let customer = loop {
        let view = run(
            &core,
            catalog::Load {
                profile: SANDBOX.to_owned(),
            },
        );
        if let Some(id) = customer_of(&view, &eg) {
            break id;
        }
        assert!(Instant::now() < deadline, "the directory never learned it");
        std::thread::yield_now();
    };
    let by_customer = delete(
        "DEL-D",
        json!({"sequence": 1, "customerId": customer, "licenseType": "normal_recover_usbkey",
               "orderType": "delete_asset", "assets": [{"assetNos": ["8900000103"]}]}),
    );
    let seen = preview(&core, &by_customer);
    assert_eq!(
        seen.orders[0].enterprise_global_id.as_deref(),
        Some(eg.as_str())
    );
    assert_eq!(seen.assets_removed(), 1);

    let mut unknown = by_customer.clone();
    unknown.order_list[0].customer_id = Some("CU-NOBODY".into());
    let seen = preview(&core, &unknown);
    assert!(seen.unknown(), "{seen:#?}");
    assert_eq!(seen.orders[0].warnings, vec![Warning::UnknownEnterprise]);

    unknown.order_list[0].enterprise_global_id = Some("EG9999999999".into());
    let seen = preview(&core, &unknown);
    assert!(seen.unknown());
    assert!(
        matches!(&seen.orders[0].warnings[..], [Warning::ListingFailed { reason }] if reason.contains("EG9999999999")),
        "{seen:#?}"
    );
}

fn customer_of(view: &CatalogView, eg: &str) -> Option<String> {
    let found: HashMap<_, _> = view
        .customers
        .iter()
        .filter_map(|k| {
            Some((
                k.item.enterprise_global_id.clone()?,
                k.item.customer_id.clone()?,
            ))
        })
        .collect();
    found.get(eg).cloned()
}
