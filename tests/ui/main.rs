//! The console driven like a user would, with egui_kittest: the real core (Sandbox on loopback,
//! keyring-core's mock store), widgets found by their accessible labels.
//!
//! One test binary, `ui`, split by screen: a module for each screen or area the tests exercise
//! (below). The helpers several modules use are here; a helper of one module is in that module,
//! and the window's own (`app`, `click`, `settle`, …) are `test_support::window`'s.

mod activities;
mod asset_numbers;
mod assets;
mod catalog;
mod composer;
mod customers;
mod drafts;
mod forms;
mod history;
mod imports;
mod language;
mod outcomes;
mod production;
mod settings;
mod start;

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::core::{Endpoint, Profile, Secret};
use license_desk::ui::DeskApp;

use test_support::remote::Remote;
use test_support::window::{click, settle};

/// The remote profile "Staging" at `base`, with the app's key.
pub(crate) fn staging_profile(base: &str, app_key: &str, production: bool) -> Profile {
    Profile {
        name: "Staging".into(),
        endpoint: Endpoint::Remote {
            base_url: base.to_owned(),
            token_url: format!("{base}/v3/api/oauth2/token"),
            app_key: app_key.to_owned(),
            ca_file: None,
        },
        operator_identity: "ops@example.com".into(),
        production,
        own_catalog: false,
        repeats_recognised: false,
        limits: Default::default(),
        insecure_http: false,
    }
}

/// Saves the profile "Staging" of the second platform, with its app secret.
pub(crate) fn save_staging(harness: &Harness<'static, DeskApp>, remote: &Remote, production: bool) {
    let staging = staging_profile(&remote.base, &remote.app_key, production);
    harness
        .state()
        .core()
        .run(
            license_desk::core::profiles::requests::Save {
                previous: None,
                profile: staging,
                app_secret: Some(Secret::new(remote.app_secret.clone())),
            },
            Duration::from_secs(60),
        )
        .expect("profile saved");
}

/// Opens the Orders screen and waits for its draft (a new purchase on a fresh machine).
pub(crate) fn open_composer(harness: &mut Harness<'static, DeskApp>) {
    click(harness, "Orders");
    settle(harness, |h| {
        h.query_all_by_label_contains("Batch LD-").next().is_some()
    });
}

/// The bodies of the stored drafts, oldest first.
pub(crate) fn stored_bodies(dir: &std::path::Path) -> Vec<String> {
    let db = rusqlite::Connection::open(dir.join("data/drafts.sqlite3")).expect("drafts");
    let mut stmt = db
        .prepare("SELECT body FROM drafts ORDER BY id")
        .expect("query");
    stmt.query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("bodies")
}
