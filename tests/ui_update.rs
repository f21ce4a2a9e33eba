//! A newer version offered by the team server, in the window (egui_kittest): the quiet line
//! once the person is signed in, the notes on demand, the download checked against the key
//! the console pinned, and what to do with it; in English and in Chinese.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use license_desk::ui::DeskApp;
use license_desk::ui::text::i18n::Lang;
use support::release_sig::ReleaseKey;
use team::releases::{Publish, Shelf};
use test_support::desk;
use test_support::minisign_tool;
use test_support::team_remote::{PASSWORD, TeamRemote};
use test_support::window::{app, click, settle, type_into};
use wire::release::Target;

const VERSION: &str = "99.0.0";
const FILE: &str = "license-desk_99.0.0_amd64.deb";

/// A release of `bytes` signed by Debian's minisign tool with a new key the team then trusts,
/// marked required (on Linux the line says so; a package needs root to be installed).
fn publish(team: &TeamRemote, dir: &Path, bytes: &[u8]) {
    let file = dir.join(FILE);
    std::fs::write(&file, bytes).expect("file");
    let (public, secret) = minisign_tool::keygen(dir, "k");
    let comment = format!("version:{VERSION} target:linux-x86_64");
    minisign_tool::sign(&secret, &file, Some(&comment));
    let key = ReleaseKey::parse(&std::fs::read_to_string(public).expect("key")).expect("key");
    team.with_store(async |store| {
        team::settings::set_release_key(store, &key)
            .await
            .expect("key")
    });
    let publish = Publish {
        version: VERSION.to_owned(),
        target: Target::LinuxX86_64,
        notes: "导入更快 · faster imports".to_owned(),
        required: true,
        now_ms: 1,
    };
    Shelf::new(team.team_dir.join("releases"))
        .publish(&key, &file, publish)
        .expect("published");
}

/// The console on the team profile `branch`, li signed in.
fn signed_in(team: &TeamRemote, dir: &Path, lang: Lang) -> Harness<'static, DeskApp> {
    let mut harness = app(dir, lang);
    harness.run_ok();
    let core = harness.state().core();
    desk::run(
        core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: team.profile("branch", "li"),
            app_secret: None,
        },
    );
    desk::run(
        core,
        license_desk::core::profiles::requests::Activate {
            name: "branch".to_owned(),
        },
    );
    let password = if lang == Lang::En {
        "Password"
    } else {
        "密码"
    };
    settle(&mut harness, |h| h.query_by_label(password).is_some());
    type_into(&mut harness, password, PASSWORD);
    click(
        &mut harness,
        if lang == Lang::En {
            "Sign in"
        } else {
            "登录"
        },
    );
    harness
}

#[test]
fn a_newer_version_is_offered_and_downloaded_checked_in_both_languages() {
    if Target::this() != Some(Target::LinuxX86_64) {
        return;
    }
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 241) as u8).collect();
    publish(&team, dir.path(), &bytes);

    let home = dir.path().join("en");
    let mut harness = signed_in(&team, &home, Lang::En);
    settle(&mut harness, |h| {
        h.query_by_label("Version 99.0.0 of License Desk is available")
            .is_some()
    });
    harness.get_by_label("Required by your company");
    assert!(
        harness.query_by_label_contains("faster imports").is_none(),
        "notes on demand"
    );
    click(&mut harness, "What is new");
    harness.get_by_label("导入更快 · faster imports");
    click(&mut harness, "Download");
    settle(&mut harness, |h| {
        h.query_by_label("Downloaded and checked against your company's key. Install it with:")
            .is_some()
    });
    let kept = home.join("data/updates").join(FILE);
    harness.get_by_label(&format!("sudo dpkg -i '{}'", kept.display()));
    assert_eq!(std::fs::read(&kept).expect("downloaded"), bytes);

    let mut harness = signed_in(&team, &dir.path().join("zh"), Lang::Zh);
    settle(&mut harness, |h| {
        h.query_by_label("授权管理台 99.0.0 版可用").is_some()
    });
    harness.get_by_label("公司要求安装");
    click(&mut harness, "更新内容");
    harness.get_by_label("导入更快 · faster imports");
    harness.get_by_label("下载");
}
