//! `/team/v1/releases`: the key, the newest release and its file, to people signed in only,
//! the file in byte ranges (a download resumes).

use std::path::Path;

use support::release_sig::ReleaseKey;
use team::releases::{Publish, Shelf};
use team::{Place, TeamStore, settings};
use test_support::minisign_tool;
use test_support::team_rig::Rig;
use wire::release::Target;

/// Debian's minisign tool: a key pair without a password, and `file` signed as `version`.
fn signed(dir: &Path, file: &Path, version: &str) -> ReleaseKey {
    let (public, secret) = minisign_tool::keygen(dir, "k");
    let comment = format!("version:{version} target:linux-x86_64");
    minisign_tool::sign(&secret, file, Some(&comment));
    ReleaseKey::parse(&std::fs::read_to_string(public).expect("key")).expect("key")
}

#[tokio::test]
async fn releases_are_for_people_signed_in_and_the_file_comes_in_ranges() {
    let rig = Rig::start(None).await;
    let token = rig.sign_in("viewer").await;
    let key = rig.send("GET", wire::release::KEY, None, None).await;
    assert_eq!(key.status, 401, "{key:?}");
    let key = rig
        .send("GET", wire::release::KEY, Some(&token), None)
        .await;
    assert_eq!(
        (key.status, &key.body["cause"]),
        (404, &"no_release".into()),
        "{key:?}"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("license-desk_1.2.3_amd64.deb");
    let bytes: Vec<u8> = (0..5000u32).map(|i| (i % 253) as u8).collect();
    std::fs::write(&file, &bytes).expect("file");
    let release_key = signed(dir.path(), &file, "1.2.3");
    let store = TeamStore::open(Place::Dir(rig.team_dir()), 1)
        .await
        .expect("store");
    settings::set_release_key(&store, &release_key)
        .await
        .expect("key set");
    let publish = Publish {
        version: "1.2.3".to_owned(),
        target: Target::LinuxX86_64,
        notes: "导入更快".to_owned(),
        required: false,
        now_ms: 1,
    };
    Shelf::new(rig.team_dir().join("releases"))
        .publish(&release_key, &file, publish)
        .expect("published");

    let key = rig
        .send("GET", wire::release::KEY, Some(&token), None)
        .await;
    assert_eq!(
        key.body["data"]["fingerprint"],
        release_key.fingerprint().as_str()
    );
    let latest = format!("{}?target=linux-x86_64", wire::release::LATEST);
    let latest = rig.send("GET", &latest, Some(&token), None).await;
    assert_eq!(latest.status, 200, "{latest:?}");
    assert_eq!(latest.body["data"]["version"], "1.2.3");
    assert_eq!(latest.body["data"]["notes"], "导入更快");
    let none = format!("{}?target=windows-x86_64", wire::release::LATEST);
    let none = rig.send("GET", &none, Some(&token), None).await;
    assert_eq!(
        (none.status, &none.body["cause"]),
        (404, &"no_release".into()),
        "{none:?}"
    );
    let bad = format!("{}?target=macos", wire::release::LATEST);
    let bad = rig.send("GET", &bad, Some(&token), None).await;
    assert!(
        bad.body["message"]
            .as_str()
            .expect("message")
            .starts_with("target: \"macos\""),
        "{bad:?}"
    );

    let url = format!(
        "{}{}",
        rig.base,
        wire::release::file_path(Target::LinuxX86_64, "1.2.3")
    );
    let anyone = rig.http.get(&url).send().await.expect("answer");
    assert_eq!(anyone.status(), 401);
    let ranged = rig
        .http
        .get(&url)
        .bearer_auth(&token)
        .header("range", "bytes=4000-")
        .send()
        .await
        .expect("answer");
    assert_eq!(ranged.status(), 206);
    assert_eq!(ranged.headers()["content-range"], "bytes 4000-4999/5000");
    assert_eq!(ranged.bytes().await.expect("body"), bytes[4000..]);
    let whole = rig
        .http
        .get(&url)
        .bearer_auth(&token)
        .send()
        .await
        .expect("answer");
    assert_eq!(whole.status(), 200);
    let disposition = whole.headers()["content-disposition"]
        .to_str()
        .expect("text")
        .to_owned();
    assert_eq!(
        disposition,
        "attachment; filename=\"license-desk_1.2.3_amd64.deb\""
    );
    assert_eq!(whole.bytes().await.expect("body"), bytes);
    let escape = format!(
        "{}/team/v1/releases/linux-x86_64/..%2F..%2Fteam.sqlite3/file",
        rig.base
    );
    let escape = rig
        .http
        .get(&escape)
        .bearer_auth(&token)
        .send()
        .await
        .expect("answer");
    assert_ne!(escape.status(), 200, "a version names no other file");
}
