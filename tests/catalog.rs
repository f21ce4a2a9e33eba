//! The catalog and the directory through the core, on the real embedded Sandbox: the demo
//! catalog of a first start, learning from accepted batches (not refused ones) and from
//! answers, per profile, and the catalog file's round trip.

use test_support::desk;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use desk::{Answer, CallOn, WAIT, mock_store, run, start_core};
use license_desk::core::catalog::store::{Counts, Import};
use license_desk::core::catalog::{self, CatalogItem, CatalogView};
use license_desk::core::files;
use license_desk::core::progress::Progress;
use license_desk::core::request::Finished;
use license_desk::core::{Call, Core, Endpoint, KeyringChoice, Profile, SANDBOX, Secret};
use serde_json::json;
use wire::{BatchOrderRequest, BindRequest, CustomerQuery, EnterpriseRequest};

/// An import applied, keeping what the platform said.
const APPLY: Import = Import {
    apply: true,
    overwrite: false,
};

fn start(root: &Path) -> Core {
    start_core(root, KeyringChoice::Store(mock_store()))
}

fn view(core: &Core, profile: &str) -> Arc<CatalogView> {
    let profile = profile.to_owned();
    run(core, catalog::Load { profile })
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

fn send(core: &Core, batch: BatchOrderRequest) -> Result<Answer, String> {
    let command = CallOn {
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
    let command = CallOn {
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
        catalog::Used {
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
        catalog::ExportFile {
            path,
            profile: SANDBOX.to_owned(),
            customers: false,
        },
    );
    assert!(exported.count >= 9, "{exported:?}");
    run(
        &core,
        catalog::Remove {
            profile: SANDBOX.to_owned(),
            item: CatalogItem::Product("gms:5555".into()),
        },
    );
    assert!(!has_product(&view(&core, SANDBOX), "gms:5555"));
    let before = view(&core, SANDBOX).products.len();
    let imported = run(
        &core,
        catalog::ImportFile {
            path: file,
            profile: SANDBOX.to_owned(),
            import: APPLY,
        },
    );
    let report = imported;
    assert_eq!(report.products.new, 1, "the removed product comes back");
    assert_eq!(report.products.new + report.products.unchanged, before + 1);
    assert_eq!(report.packages.new + report.packages.unchanged, 1);
    assert_eq!(report.customers, Counts::default());
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
        catalog::ImportFile {
            path: bad,
            profile: SANDBOX.to_owned(),
            import: APPLY,
        },
        WAIT,
    );
    let message = refused.expect_err("refused").to_string();
    assert!(
        message.contains("bad.json: line 1, column 14: not a catalog file: invalid type"),
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
        catalog::ExportFile {
            path: file.clone(),
            profile: SANDBOX.to_owned(),
            customers: false,
        },
    );
    // Seven products on their own rows, the package's three on its rows.
    assert!(exported.count == 10, "{exported:?}");
    for item in [
        CatalogItem::Package("PKG-STARTER".into()),
        CatalogItem::Product("gms:1006".into()),
    ] {
        let profile = SANDBOX.to_owned();
        run(&core, catalog::Remove { profile, item });
    }
    let imported = run(
        &core,
        catalog::ImportFile {
            path: file,
            profile: SANDBOX.to_owned(),
            import: APPLY,
        },
    );
    assert!(imported.packages.new == 1, "{imported:?}");
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

fn has_customer(
    view: &CatalogView,
    f: impl Fn(&license_desk::core::catalog::DirectoryEntry) -> bool,
) -> bool {
    view.customers.iter().any(|k| f(&k.item))
}

fn save_profile(core: &Core, previous: Option<&str>, profile: Profile) {
    let app_secret = (!profile.is_sandbox()).then(|| Secret::new("secret".to_owned()));
    run(
        core,
        license_desk::core::profiles::requests::Save {
            previous: previous.map(str::to_owned),
            profile,
            app_secret,
        },
    );
}

fn remote(name: &str) -> Profile {
    Profile {
        name: name.to_owned(),
        endpoint: Endpoint::Remote {
            base_url: "https://platform.example.com".to_owned(),
            token_url: "https://platform.example.com/v3/api/oauth2/token".to_owned(),
            app_key: "key".to_owned(),
            ca_file: None,
        },
        operator_identity: String::new(),
        production: false,
        own_catalog: false,
        repeats_recognised: false,
        limits: Default::default(),
        insecure_http: false,
    }
}

fn write_catalog(path: &Path, uri: &str) {
    let body = json!({"products": [{"productUri": uri, "productName": "独立产品"}]});
    std::fs::write(path, body.to_string()).expect("catalog file");
}

/// A profile that keeps its own catalog learns, searches and exports apart from the others;
/// the profiles that share the catalog see each other's products.
#[test]
fn a_profile_with_its_own_catalog_keeps_it_apart() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    save_profile(&core, None, remote("Production"));
    save_profile(&core, None, remote("Training"));
    let own = Profile {
        own_catalog: true,
        repeats_recognised: false,
        limits: Default::default(),
        insecure_http: false,
        ..Profile::sandbox()
    };
    save_profile(&core, Some(SANDBOX), own);
    let apart = view(&core, SANDBOX);
    assert!(apart.own && apart.products.is_empty(), "{apart:?}");
    assert!(has_product(&view(&core, "Production"), "gms:1001"));

    // Learned from an accepted batch on the profile apart: only it knows the product.
    assert!(send(&core, batch("OWN-1", "gms:7101", "S-7101")).is_ok());
    view_until(&core, SANDBOX, |v| has_product(v, "gms:7101"));
    assert!(!has_product(&view(&core, "Production"), "gms:7101"));
    assert!(!has_product(&view(&core, "Training"), "gms:7101"));

    // Imported on a sharing profile: the other sharing one sees it, the one apart does not.
    let file = root.path().join("shared.json");
    write_catalog(&file, "gms:7202");
    let path = file.clone();
    let profile = "Production".to_owned();
    let import = APPLY;
    run(
        &core,
        catalog::ImportFile {
            path,
            profile,
            import,
        },
    );
    assert!(has_product(&view(&core, "Training"), "gms:7202"));
    assert!(!has_product(&view(&core, SANDBOX), "gms:7202"));

    // Its export is its own catalog.
    let out = root.path().join("own.json");
    let (path, profile) = (out.clone(), SANDBOX.to_owned());
    let customers = false;
    run(
        &core,
        catalog::ExportFile {
            path,
            profile,
            customers,
        },
    );
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).expect("file")).expect("json");
    assert_eq!(written["products"][0]["productUri"], "gms:7101");
    assert_eq!(written["products"].as_array().map(Vec::len), Some(1));

    // Shared again, it sees the shared catalog; its own is kept for when it is apart again.
    save_profile(&core, Some(SANDBOX), Profile::sandbox());
    let shared = view(&core, SANDBOX);
    assert!(!shared.own && has_product(&shared, "gms:7202"));
    assert!(!has_product(&shared, "gms:7101"));
}

#[test]
fn the_demo_catalog_is_loaded_once_and_what_is_removed_stays_removed() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let demo = view(&core, SANDBOX);
    let items = demo
        .products
        .iter()
        .map(|k| CatalogItem::Product(k.key.clone()))
        .chain(
            demo.packages
                .iter()
                .map(|k| CatalogItem::Package(k.key.clone())),
        );
    for item in items.collect::<Vec<_>>() {
        let profile = SANDBOX.to_owned();
        run(&core, catalog::Remove { profile, item });
    }
    core.shutdown();
    let again = start(root.path());
    let after = view(&again, SANDBOX);
    assert!(
        after.products.is_empty() && after.packages.is_empty(),
        "{after:?}"
    );
}

/// A file imported into the composer teaches the catalog and the directory, with nothing sent:
/// the batch is answered first, and what it names is learned when the window asks (it does as
/// soon as it has the batch).
#[test]
fn a_file_imported_into_the_composer_teaches_the_catalog() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let file = root.path().join("batch.json");
    let body = json!({
        "channelCode": "SHOP", "channelOrderId": "FILE-1",
        "orderList": [{
            "sequence": 1, "channelCustomerId": "S-7301", "customerName": "武汉文件有限公司",
            "licenseType": "softkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8900073010"],
                "products": [{"productUri": "gms:7301", "productName": "文件产品",
                              "limitConcurrent": 2, "passwords": ["secret"]}],
                "merchandises": [{"merchandiseNum": "PKG-FILE", "merchandiseName": "文件套餐",
                    "licenseOrderProductList": [{"productUri": "gms:7302", "productName": "套餐产品"}]}]}]
        }]
    });
    std::fs::write(&file, body.to_string()).expect("file");
    let imported = run(
        &core,
        files::ImportOrders {
            path: file,
            progress: Progress::default(),
        },
    );
    let Finished::Done(imported) = imported else {
        panic!("not imported: {imported:?}");
    };
    let taught = run(
        &core,
        files::LearnImported {
            profile: imported.profile.clone(),
            batch: imported.batch.clone(),
        },
    )
    .expect("learned");
    assert_eq!(imported.profile, SANDBOX);
    assert_eq!((taught.products.new, taught.customers.new), (2, 1));
    let seen = view_until(&core, SANDBOX, |v| {
        has_product(v, "gms:7302")
            && has_customer(v, |c| c.channel_customer_id.as_deref() == Some("S-7301"))
    });
    let found = seen.product_index.find("wjcp", 5);
    assert_eq!(found.len(), 1, "文件产品 by its initials");
    let product = &seen.products[found[0]];
    assert_eq!(product.key, "gms:7301");
    assert_eq!(product.item.limit_concurrent, Some(2));
    assert!(
        product.item.passwords.is_empty(),
        "a sale's passwords are not kept"
    );
    assert!(seen.packages.iter().any(|k| k.key == "PKG-FILE"));
    // Nothing was sent: the journal holds no call.
    let journal = run(
        &core,
        license_desk::core::journal::requests::Query(Default::default()),
    );
    assert!(journal.is_empty(), "{journal:?}");
}

/// Creating an enterprise, querying customers and listing assets each teach the directory.
#[test]
fn the_directory_learns_from_create_query_and_listing() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let on_sandbox = |call| CallOn {
        profile: SANDBOX.to_owned(),
        call,
    };
    let created = run(
        &core,
        on_sandbox(Call::CreateEnterprise(EnterpriseRequest {
            crm_customer_id: Some("CRM-7401".into()),
            customer_name: Some("成都创建有限公司".into()),
            branch_name: Some("成都分公司".into()),
            address: Some("成都市高新区".into()),
        })),
    );
    let Answer::Enterprise(created) = created else {
        panic!("not an enterprise: {created:?}");
    };
    let egid = created.enterprise_global_id.clone();
    view_until(&core, SANDBOX, |v| {
        has_customer(v, |c| {
            c.crm_customer_id.as_deref() == Some("CRM-7401")
                && c.enterprise_global_id.as_deref() == Some(egid.as_str())
                && c.address.as_deref() == Some("成都市高新区")
        })
    });

    // A customer the directory forgot is learned again from a query's answer.
    let bind = BindRequest {
        channel_code: Some("SHOP".into()),
        channel_customer_id: Some("S-7402".into()),
        customer_name: Some("重庆查询有限公司".into()),
        branch_name: None,
        enterprise_name: Some("重庆查询有限公司".into()),
        password_mobile: None,
    };
    run(&core, on_sandbox(Call::Bind(bind)));
    let is_bound = |c: &license_desk::core::catalog::DirectoryEntry| {
        c.channel_customer_id.as_deref() == Some("S-7402")
    };
    let bound = view_until(&core, SANDBOX, |v| has_customer(v, is_bound));
    let known = bound
        .customers
        .iter()
        .find(|k| is_bound(&k.item))
        .expect("bound");
    let customer_id = known.item.customer_id.clone();
    let (profile, item) = (SANDBOX.to_owned(), CatalogItem::Customer(known.key.clone()));
    run(&core, catalog::Remove { profile, item });
    assert!(!has_customer(&view(&core, SANDBOX), is_bound));
    let query = CustomerQuery {
        channel_code: Some("SHOP".into()),
        channel_customer_id: Some("S-7402".into()),
        default_customer: None,
    };
    run(&core, on_sandbox(Call::QueryCustomers(query)));
    view_until(&core, SANDBOX, |v| {
        has_customer(v, |c| is_bound(c) && c.customer_id == customer_id)
    });

    // A listing names its assets' customers, with the enterprise.
    let listed = run(
        &core,
        on_sandbox(Call::Assets {
            enterprise_global_id: "EG0000000001".into(),
            extend_code: None,
        }),
    );
    let Answer::Assets(assets) = listed else {
        panic!("not a listing: {listed:?}");
    };
    let owner = assets
        .to_assets()
        .first()
        .expect("the demo assets")
        .customer_id
        .clone();
    view_until(&core, SANDBOX, |v| {
        has_customer(v, |c| {
            c.customer_id.as_deref() == Some(owner.as_str())
                && c.enterprise_global_id.as_deref() == Some("EG0000000001")
        })
    });
}

/// Exported as a workbook with the customers, the directory is on its own sheet and comes back
/// on import.
#[test]
fn the_spreadsheet_carries_the_customers_on_their_own_sheet() {
    let root = tempfile::tempdir().expect("dir");
    let core = start(root.path());
    let before = view(&core, SANDBOX);
    let file = root.path().join("with-customers.xlsx");
    let exported = run(
        &core,
        catalog::ExportFile {
            path: file.clone(),
            profile: SANDBOX.to_owned(),
            customers: true,
        },
    );
    // Ten catalog rows and the three demo customers.
    assert!(exported.count == 13, "{exported:?}");
    for k in &before.customers {
        let (profile, item) = (SANDBOX.to_owned(), CatalogItem::Customer(k.key.clone()));
        run(&core, catalog::Remove { profile, item });
    }
    assert!(view(&core, SANDBOX).customers.is_empty());
    let imported = run(
        &core,
        catalog::ImportFile {
            path: file,
            profile: SANDBOX.to_owned(),
            import: APPLY,
        },
    );
    assert!(imported.customers.new == 3, "{imported:?}");
    let after = view(&core, SANDBOX);
    let items = |v: &CatalogView| {
        let mut items: Vec<_> = v.customers.iter().map(|k| k.item.clone()).collect();
        items.sort_by(|a, b| a.channel_customer_id.cmp(&b.channel_customer_id));
        items
    };
    assert_eq!(items(&after), items(&before));
}
