//! Two consoles on one team server share its catalog and directory (docs/team.md, "Shared
//! knowledge"): what one learns from a batch the other sees at its next reading, and a
//! product renamed or removed at one is renamed or removed at the other. The real team server
//! in front of a real platform, over loopback; each console with its own data and keyring
//! (the mock store).

use test_support::desk;
use test_support::team_remote;

use std::time::{Duration, Instant};

use desk::{Answer, CallOn, mock_store, run, start_core};
use license_desk::core::catalog::{self, CatalogEdit, CatalogItem, CatalogView};
use license_desk::core::drafts;
use license_desk::core::team;
use license_desk::core::{Call, Core, KeyringChoice, Secret};
use serde_json::json;
use team_remote::{PASSWORD, TeamRemote};

/// A console of its own in `dir`, on the team profile `branch` for `user`, signed in.
fn console(dir: &std::path::Path, team: &TeamRemote, user: &str) -> Core {
    let core = start_core(dir, KeyringChoice::Store(mock_store()));
    run(
        &core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: team.profile("branch", user),
            app_secret: None,
        },
    );
    let sign_in = team::SignIn {
        profile: "branch".to_owned(),
        password: Secret::new(PASSWORD),
    };
    run(&core, sign_in);
    core
}

fn view(core: &Core) -> std::sync::Arc<CatalogView> {
    let load = catalog::Load {
        profile: "branch".to_owned(),
    };
    run(core, load)
}

fn product_name(view: &CatalogView, uri: &str) -> Option<String> {
    view.products
        .iter()
        .find(|p| p.key == uri)
        .map(|p| p.item.product_name.clone().unwrap_or_default())
}

/// Reads `core`'s catalog until `seen` holds of it: the other console writes in the
/// background, after its call's answer.
fn until(
    core: &Core,
    what: &str,
    seen: impl Fn(&CatalogView) -> bool,
) -> std::sync::Arc<CatalogView> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let view = view(core);
        if seen(&view) {
            return view;
        }
        assert!(Instant::now() < deadline, "never seen: {what}");
        std::thread::yield_now();
    }
}

#[test]
fn two_consoles_share_the_team_s_catalog_and_directory() {
    let team = TeamRemote::start();
    let (a_dir, b_dir) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let a = console(a_dir.path(), &team, "wang");
    let b = console(b_dir.path(), &team, "li");
    let batch = json!({
        "channelCode": "CRM", "channelOrderId": "K-1", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "CRM-K", "customerName": "杭州示例",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8000000001"],
                "products": [{"productUri": "gms:2001", "productName": "云计价"}]}]}]
    });
    let call = Call::BatchOrder(serde_json::from_value(batch).expect("a batch"));
    let bought = CallOn {
        profile: "branch".to_owned(),
        call,
    };
    assert!(matches!(run(&a, bought), Answer::Orders(_)));

    let seen = until(&b, "gms:2001 at the other console", |v| {
        product_name(v, "gms:2001").as_deref() == Some("云计价")
    });
    assert!(
        seen.customers
            .iter()
            .any(|c| c.item.channel_customer_id.as_deref() == Some("CRM-K")),
        "the customer too"
    );

    let mut renamed = seen
        .products
        .iter()
        .find(|p| p.key == "gms:2001")
        .expect("kept")
        .item
        .clone();
    renamed.product_name = Some("云计价 专业版".to_owned());
    let edit = catalog::Edit {
        profile: "branch".to_owned(),
        edit: Box::new(CatalogEdit::Product(renamed)),
    };
    run(&b, edit);
    until(&a, "the new name at the first console", |v| {
        product_name(v, "gms:2001").as_deref() == Some("云计价 专业版")
    });

    let remove = catalog::Remove {
        profile: "branch".to_owned(),
        item: CatalogItem::Product("gms:2001".to_owned()),
    };
    run(&b, remove);
    until(&a, "the removal at the first console", |v| {
        product_name(v, "gms:2001").is_none()
    });
}

/// A draft handed to a colleague: they see it, open it as a draft of their own (its text as
/// it was, even unfinished), and it leaves the server.
#[test]
fn a_draft_is_handed_over_and_opened_by_its_receiver() {
    let team = TeamRemote::start();
    let (a_dir, b_dir) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let a = console(a_dir.path(), &team, "wang");
    let b = console(b_dir.path(), &team, "li");
    let body = r#"{"channelCode": "CRM", "orderList": [{"customerName": "杭州示例",}"#;
    let new = drafts::New {
        name: "杭州续费".to_owned(),
        body: body.to_owned(),
        hints: "{}".to_owned(),
    };
    let id = run(&a, new);
    let hand = team::HandOver {
        profile: "branch".to_owned(),
        draft: id,
        to: "li".to_owned(),
        note: "请核对客户".to_owned(),
    };
    let handed = run(&a, hand);
    let listed = team::ListHanded {
        profile: "branch".to_owned(),
    };
    let found = run(&b, listed.clone());
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].owner.as_str(), found[0].note.as_str()),
        ("wang", "请核对客户")
    );

    let receive = team::Receive {
        profile: "branch".to_owned(),
        id: handed.id,
    };
    let mine = run(&b, receive);
    let draft = run(&b, drafts::Load { id: mine }).draft;
    assert_eq!(
        (draft.name.as_str(), draft.body.as_str()),
        ("杭州续费 (wang)", body)
    );
    let left = run(&b, listed);
    assert!(left.is_empty(), "it left the server: {left:?}");
}
