//! The catalog and the directory through the core, on the real embedded Sandbox: the demo
//! catalog of a first start, learning from accepted batches (not refused ones) and from
//! answers, per profile, and the catalog file's round trip.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use license_desk::core::catalog::{CatalogItem, CatalogView};
use license_desk::core::{
    Call, Command, Core, CoreOptions, FileDialogChoice, KeyringChoice, Outcome, SANDBOX,
};
use license_desk::wire::{BatchOrderRequest, BindRequest};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(30);

fn start(root: &Path) -> Core {
    let store = keyring_core::mock::Store::new().expect("mock keyring");
    Core::start(CoreOptions {
        config_dir: root.join("config"),
        data_dir: root.join("data"),
        keyring: KeyringChoice::Store(store),
        file_dialog: FileDialogChoice::InWindow,
    })
    .expect("the core starts")
}

#[track_caller]
fn run(core: &Core, command: Command) -> Outcome {
    let what = format!("{command:?}");
    core.run(command, WAIT)
        .unwrap_or_else(|e| panic!("{what} failed: {e:?}"))
}

fn view(core: &Core, profile: &str) -> Arc<CatalogView> {
    let profile = profile.to_owned();
    match run(core, Command::LoadCatalog { profile }) {
        Outcome::Catalog(view) => view,
        other => panic!("not a catalog: {other:?}"),
    }
}

/// Learning happens beside the answer: waits until the catalog shows what `f` looks for.
#[track_caller]
fn view_until(core: &Core, profile: &str, f: impl Fn(&CatalogView) -> bool) -> Arc<CatalogView> {
    let deadline = Instant::now() + WAIT;
    loop {
        let seen = view(core, profile);
        if f(&seen) {
            return seen;
        }
        assert!(Instant::now() < deadline, "never learned: {seen:?}");
        std::thread::yield_now();
    }
}

fn has_product(view: &CatalogView, uri: &str) -> bool {
    view.products.iter().any(|k| k.key == uri)
}

fn batch(id: &str, uri: &str, customer: &str) -> BatchOrderRequest {
    serde_json::from_value(json!({
        "channelCode": "SHOP", "channelOrderId": id, "syncMode": "sync",
        "orderList": [{
            "sequence": 1, "channelCustomerId": customer, "customerName": "深圳学习有限公司",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": [format!("89{:08}", id.len() * 1000 + uri.len())],
                        "products": [{"productUri": uri, "productName": "学习产品",
                                      "limitConcurrent": 3}]}]
        }]
    }))
    .expect("batch")
}

fn send(core: &Core, batch: BatchOrderRequest) -> Result<Outcome, String> {
    let command = Command::CallOn {
        profile: SANDBOX.to_owned(),
        call: Call::BatchOrder(batch),
    };
    core.run(command, WAIT).map_err(|e| format!("{e:?}"))
}

#[test]
fn a_first_start_has_the_demo_catalog_and_accepted_batches_teach_refused_ones_do_not() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let demo = view(&core, SANDBOX);
    assert!(has_product(&demo, "gms:1001") && has_product(&demo, "gms:2001"));
    assert_eq!(demo.packages[0].key, "PKG-STARTER");
    assert_eq!(demo.packages[0].item.license_order_product_list.len(), 3);
    // jjrj: 计价软件 by its pinyin initials.
    let found = demo.product_index.find("jjrj", 10);
    assert!(
        found.iter().all(|&i| demo.products[i]
            .item
            .product_name
            .as_deref()
            .unwrap_or("")
            .contains("计价软件")),
        "{found:?}"
    );
    assert_eq!(found.len(), 2);
    assert!(
        demo.customers
            .iter()
            .any(|k| k.item.enterprise_global_id.as_deref() == Some("EG0000000001"))
    );

    // Refused: an order for an asset number twice.
    let mut refused = batch("LEARN-REFUSED", "gms:8888", "S-8888");
    refused.order_list[0].assets[0].asset_nos = vec!["8900009999".into(), "8900009999".into()];
    assert!(send(&core, refused).is_err());
    let accepted = batch("LEARN-OK", "gms:7777", "S-7777");
    assert!(send(&core, accepted).is_ok());
    let learned = view_until(&core, SANDBOX, |v| has_product(v, "gms:7777"));
    assert!(!has_product(&learned, "gms:8888"));
    let customer = learned
        .customers
        .iter()
        .find(|k| k.item.channel_customer_id.as_deref() == Some("S-7777"))
        .expect("the customer of the accepted order");
    // The platform's id for it came with the answer.
    assert!(
        customer
            .item
            .customer_id
            .as_deref()
            .is_some_and(|id| id.starts_with("CU"))
    );
    assert!(
        !learned
            .customers
            .iter()
            .any(|k| k.item.channel_customer_id.as_deref() == Some("S-8888"))
    );
}

#[test]
fn the_directory_learns_from_answers_on_its_own_profile_only() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let bind = Call::Bind(BindRequest {
        channel_code: Some("SHOP".into()),
        channel_customer_id: Some("S-4242".into()),
        customer_name: Some("杭州目录有限公司".into()),
        branch_name: Some("杭州分公司".into()),
        enterprise_name: Some("杭州目录有限公司".into()),
        password_mobile: Some("13900000000".into()),
    });
    let command = Command::CallOn {
        profile: SANDBOX.to_owned(),
        call: bind,
    };
    run(&core, command);
    let seen = view_until(&core, SANDBOX, |v| {
        v.customers
            .iter()
            .any(|k| k.item.channel_customer_id.as_deref() == Some("S-4242"))
    });
    let i = seen.customer_index.find("hzml", 5);
    assert_eq!(i.len(), 1, "杭州目录 by its initials");
    assert_eq!(
        seen.customers[i[0]].item.branch_name.as_deref(),
        Some("杭州分公司")
    );
    // Another profile's directory knows nothing of it.
    assert!(view(&core, "Production").customers.is_empty());

    // Picked: first in an empty search from now on.
    let key = seen.customers[i[0]].key.clone();
    run(
        &core,
        Command::CatalogUsed {
            profile: SANDBOX.to_owned(),
            item: CatalogItem::Customer(key.clone()),
        },
    );
    let now = view(&core, SANDBOX);
    assert_eq!(now.customers[now.customer_index.find("", 1)[0]].key, key);
}

#[test]
fn the_catalog_file_carries_it_to_another_machine() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    assert!(send(&core, batch("SHARE-1", "gms:5555", "S-5555")).is_ok());
    view_until(&core, SANDBOX, |v| has_product(v, "gms:5555"));
    let file = root.path().join("catalog.json");
    let path = file.clone();
    let exported = run(
        &core,
        Command::ExportCatalog {
            path,
            profile: None,
        },
    );
    assert!(
        matches!(exported, Outcome::Exported { count, .. } if count >= 9),
        "{exported:?}"
    );
    run(
        &core,
        Command::RemoveFromCatalog {
            profile: SANDBOX.to_owned(),
            item: CatalogItem::Product("gms:5555".into()),
        },
    );
    assert!(!has_product(&view(&core, SANDBOX), "gms:5555"));
    let before = view(&core, SANDBOX).products.len();
    let imported = run(
        &core,
        Command::ImportCatalog {
            path: file,
            profile: SANDBOX.to_owned(),
        },
    );
    assert!(
        matches!(imported, Outcome::CatalogImported { products, packages: 1, customers: 0 } if products == before + 1),
        "{imported:?}"
    );
    let back = view(&core, SANDBOX);
    let product = back
        .products
        .iter()
        .find(|k| k.key == "gms:5555")
        .expect("back");
    assert_eq!(product.item.product_name.as_deref(), Some("学习产品"));
    assert_eq!(product.item.limit_concurrent, Some(3));

    // Not a catalog: said with its place, nothing changed.
    let bad = root.path().join("bad.json");
    std::fs::write(&bad, "{\"products\": 7}").expect("file");
    let refused = core.run(
        Command::ImportCatalog {
            path: bad,
            profile: SANDBOX.to_owned(),
        },
        WAIT,
    );
    let message = format!("{refused:?}");
    assert!(
        message.contains("line 1, column") && message.contains("not a catalog file"),
        "{message}"
    );
}

#[test]
fn the_catalog_as_a_spreadsheet_comes_back_whole() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let before = view(&core, SANDBOX);
    let file = root.path().join("catalog.xlsx");
    let exported = run(
        &core,
        Command::ExportCatalog {
            path: file.clone(),
            profile: None,
        },
    );
    // Seven products on their own rows, the package's three on its rows.
    assert!(
        matches!(exported, Outcome::Exported { count: 10, .. }),
        "{exported:?}"
    );
    for item in [
        CatalogItem::Package("PKG-STARTER".into()),
        CatalogItem::Product("gms:1006".into()),
    ] {
        let profile = SANDBOX.to_owned();
        run(&core, Command::RemoveFromCatalog { profile, item });
    }
    let imported = run(
        &core,
        Command::ImportCatalog {
            path: file,
            profile: SANDBOX.to_owned(),
        },
    );
    assert!(
        matches!(imported, Outcome::CatalogImported { packages: 1, .. }),
        "{imported:?}"
    );
    let after = view(&core, SANDBOX);
    assert_eq!(
        after.products,
        before
            .products
            .iter()
            .map(|k| {
                let mut k = k.clone();
                let again = after
                    .products
                    .iter()
                    .find(|a| a.key == k.key)
                    .expect("back");
                k.last_seen = again.last_seen;
                k
            })
            .collect::<Vec<_>>()
    );
    assert_eq!(after.packages[0].item, before.packages[0].item);
}
