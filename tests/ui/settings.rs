//! The Settings screen: profiles added, tested, switched to, edited (a CA file, a catalog of their
//! own) and removed.

use egui_kittest::kittest::Queryable;
use license_desk::ui::text::i18n::Lang;
use platform::{Config, Region, Server, create_app};
use serve::TlsFiles;

use test_support::desk;
use test_support::remote::Remote;
use test_support::tls_certs;
use test_support::window::{app, app_with_store, click, settle, type_into};

/// A platform served over TLS with a certificate of the test's own CA: the profile form keeps
/// the CA file, the connection is trusted with it, and said untrusted in words without it.
#[test]
fn the_profile_form_keeps_a_ca_file_and_the_tls_platform_is_trusted_with_it() {
    let dir = tempfile::tempdir().expect("dir");
    let certs = tls_certs::make(dir.path());
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let mut config = Config::new(
        dir.path().join("platform"),
        "127.0.0.1:0".parse().expect("addr"),
    );
    config.tls = Some(TlsFiles {
        cert: certs.chain.clone(),
        key: certs.key.clone(),
    });
    let server = runtime
        .block_on(Server::start(config))
        .expect("TLS platform");
    let creds = create_app(
        &dir.path().join("platform"),
        "desk",
        &["auth_order".to_owned()],
    )
    .expect("app");
    let ca = certs.ca.display().to_string();

    let mut harness = app(&dir.path().join("desk"), Lang::En);
    harness.run();
    click(&mut harness, "Settings");
    click(&mut harness, "Add profile");
    type_into(&mut harness, "Name", "Secure");
    type_into(&mut harness, "Base URL", &server.base_url());
    type_into(&mut harness, "App key", &creds.app_key);
    type_into(&mut harness, "App secret", &creds.app_secret);
    // Browse… in the CA file's folder (the window's own browser: no OS dialog in tests).
    std::fs::write(dir.path().join("notes.txt"), "not a certificate").expect("write");
    type_into(&mut harness, "CA file", &dir.path().display().to_string());
    click(&mut harness, "Browse…");
    settle(&mut harness, |h| h.query_by_label("ca.pem").is_some());
    // Folders and certificates are listed, other files not.
    harness.get_by_label("platform/");
    assert!(harness.query_by_label("notes.txt").is_none());
    click(&mut harness, "ca.pem");
    click(&mut harness, "Open");
    assert_eq!(
        harness.get_by_label("CA file").value().as_deref(),
        Some(ca.as_str())
    );
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label("Secure").is_some() && h.query_by_label("Save").is_none()
    });
    let file = dir.path().join("desk/config/profiles.json");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("profiles")).expect("json");
    assert_eq!(saved["profiles"][1]["endpoint"]["caFile"], ca.as_str());

    click(&mut harness, "Secure");
    click(&mut harness, "Test connection");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Secure: connected. Scopes: auth_order")
            .is_some()
    });

    // Edited: the field shows the file; a file that is not there is refused in words, and the
    // form stays open with what was typed.
    click(&mut harness, "Edit profile");
    assert_eq!(
        harness.get_by_label("CA file").value().as_deref(),
        Some(ca.as_str())
    );
    let missing = dir.path().join("missing.pem").display().to_string();
    type_into(&mut harness, "CA file", &missing);
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label_contains("The profile's CA file cannot be used")
            .is_some()
    });
    harness.get_by_label_contains(&format!("cannot use the CA file {missing}: "));
    assert_eq!(
        harness.get_by_label("CA file").value().as_deref(),
        Some(missing.as_str())
    );

    // Emptied: the system's CAs only, which do not know the test's CA; the client is rebuilt.
    type_into(&mut harness, "CA file", "");
    click(&mut harness, "Save");
    settle(&mut harness, |h| h.query_by_label("Save").is_none());
    let saved = std::fs::read_to_string(&file).expect("profiles");
    assert!(!saved.contains("caFile"), "{saved}");
    click(&mut harness, "Test connection");
    settle(&mut harness, |h| {
        h.query_by_label_contains("The platform's certificate is not trusted")
            .is_some()
    });
    harness.get_by_label_contains("the server's certificate is not trusted: ");
    runtime.block_on(server.shutdown());
}

#[test]
fn settings_add_a_profile_test_it_switch_to_it_and_remove_it() {
    // A second platform, as a remote one would be.
    let mut remote = Remote::start(Region::default());

    let dir = tempfile::tempdir().expect("dir");
    let store = desk::mock_store();
    let mut harness = app_with_store(dir.path(), Lang::En, store.clone());
    harness.run();
    click(&mut harness, "Settings");
    click(&mut harness, "Add profile");
    click(&mut harness, "Save");
    // Name, base URL, app key and secret are required; the token URL has a default.
    assert_eq!(harness.query_all_by_label("required").count(), 3);
    // The base URL, and the token URL made from it.
    assert_eq!(
        harness
            .query_all_by_label("an http:// or https:// address is required")
            .count(),
        2
    );
    type_into(&mut harness, "Name", "Staging");
    type_into(&mut harness, "Base URL", &remote.base);
    type_into(&mut harness, "App key", &remote.app_key);
    type_into(&mut harness, "App secret", &remote.app_secret);
    type_into(&mut harness, "Operator identity", "zhang.san@example.com");
    click(&mut harness, "Production platform");
    // Plain HTTP to another machine is said, and allowed only by a tick; on this machine (the
    // test's platform, on loopback) it is not in question.
    type_into(&mut harness, "Base URL", "http://192.0.2.10:8610");
    harness.get_by_label_contains("Plain http:// to another machine");
    harness.get_by_label(
        "Allow plain HTTP to this platform (the app secret and tokens cross the network in clear)",
    );
    type_into(&mut harness, "Base URL", &remote.base);
    assert!(
        harness
            .query_by_label_contains("Plain http:// to another machine")
            .is_none()
    );
    // Its time limits, the defaults until changed; repeats not declared recognised.
    for (limit, value) in [
        ("Connect (s)", "10"),
        ("Each attempt (s)", "30"),
        ("Each batch attempt (s)", "120"),
        ("Retries where safe", "3"),
    ] {
        assert_eq!(
            harness.get_by_label(limit).value().as_deref(),
            Some(value),
            "{limit}"
        );
    }
    harness.get_by_label("The platform recognises a repeated channelOrderId");
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.query_by_label("Staging").is_some() && h.query_by_label("Save").is_none()
    });
    // The secret went to the keyring, not into the profiles file.
    let profiles = std::fs::read_to_string(dir.path().join("config/profiles.json")).expect("file");
    assert!(profiles.contains(&remote.app_key), "{profiles}");
    assert!(!profiles.contains(&remote.app_secret), "{profiles}");
    assert!(
        profiles.contains("\"repeatsRecognised\": false")
            && profiles.contains("\"attemptSecs\": 30"),
        "{profiles}"
    );
    let entry = store
        .build("license-desk", "Staging/app-secret", None)
        .expect("entry");
    assert_eq!(entry.get_password().expect("stored"), remote.app_secret);

    // Test the connection: a token and its scopes.
    click(&mut harness, "Staging");
    click(&mut harness, "Test connection");
    settle(&mut harness, |h| {
        h.query_by_label_contains("Staging: connected. Scopes: auth_order auth_activity;")
            .is_some()
    });

    // Switch to it: the top bar says so in the production colour, and calls go to it.
    click(&mut harness, "Use this profile");
    settle(&mut harness, |h| h.query_by_label("PRODUCTION").is_some());
    assert_eq!(harness.state().core().state().profiles.active, "Staging");
    // The status bar describes the active profile, not the Sandbox.
    harness.get_by_label(&format!("Staging · {}", remote.base));
    assert!(harness.query_by_label_contains("Sandbox ready").is_none());
    click(&mut harness, "Customers");
    type_into(&mut harness, "Channel code", "SHOP");
    type_into(&mut harness, "Channel customer id", "S-0001");
    click(&mut harness, "Query");
    // The Sandbox knows SHOP/S-0001; the other platform does not.
    settle(&mut harness, |h| {
        h.query_by_label("No customers found: the customer is not bound to an enterprise.")
            .is_some()
    });
    // The answer names its profile.
    harness.get_by_label("On the profile Staging");

    // Remove it, after a confirmation: back on the Sandbox, the secret gone from the keyring.
    click(&mut harness, "Settings");
    // The profile's row (the top bar names it too).
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "Staging")
        .click();
    harness.run_ok();
    click(&mut harness, "Remove profile");
    harness.get_by_label("Remove the profile Staging?");
    click(&mut harness, "Remove");
    settle(&mut harness, |h| {
        h.query_all_by_label("Staging").count() == 0
    });
    assert_eq!(harness.state().core().state().profiles.active, "Sandbox");
    assert!(harness.query_by_label("PRODUCTION").is_none());
    assert!(entry.get_password().is_err());
    // What Staging answered says so, now that the Sandbox is active.
    click(&mut harness, "Customers");
    harness.get_by_label("From the profile Staging: the active profile is now Sandbox.");
    harness.run();
    remote.stop();
}

/// Ticked in Settings, a profile keeps a catalog of its own: the Catalog screen says so and
/// starts empty.
#[test]
fn settings_give_a_profile_its_own_catalog() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    click(&mut harness, "Settings");
    harness
        .get_all_by_label("Sandbox")
        .find(|n| {
            use egui_kittest::kittest::NodeT;
            n.accesskit_node().role() != egui::accesskit::Role::Label
        })
        .expect("the Sandbox's row")
        .click();
    harness.run_ok();
    click(&mut harness, "Edit profile");
    click(&mut harness, "Own catalog (not shared with other profiles)");
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.state().core().state().profiles.profiles[0].own_catalog
    });
    click(&mut harness, "Catalog");
    settle(&mut harness, |h| {
        h.query_by_label("0 shown of 0 found").is_some()
    });
    harness.get_by_label_contains("keeps a catalog of its own");
}
