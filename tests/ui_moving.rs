//! Settings → *Move to another computer…* (egui_kittest), in English and in Chinese: this
//! computer's License Desk saved in one file; on a second computer that file checked whole and
//! named for the next start; that start (`backup::pending::finish`, as `ui::run` calls it)
//! restores it, and the window says what it restored and what to enter again.

use std::path::Path;

use egui_kittest::kittest::Queryable;
use license_desk::core::backup::{self, Places};
use license_desk::core::profiles::requests::Save;
use license_desk::core::{Endpoint, Profile};
use license_desk::ui::text::i18n::Lang;
use test_support::desk;
use test_support::window::{app, click, settle, type_into};

/// Words the test looks for, in the window's language.
struct Words {
    settings: &'static str,
    open: &'static str,
    save_to: &'static str,
    save: &'static str,
    saved: &'static str,
    move_file: &'static str,
    restore: &'static str,
    checked: &'static str,
    restart: &'static str,
    restored_title: &'static str,
    secret_of_hq: &'static str,
}

const EN: Words = Words {
    settings: "Settings",
    open: "Move to another computer…",
    save_to: "Save to",
    save: "Save the move file",
    saved: "Saved ",
    move_file: "Move file",
    restore: "Check and restore…",
    checked: "Checked: ",
    restart: "Restart now",
    restored_title: "Restored from another computer",
    secret_of_hq: "• the app secret of profile hq",
};

const ZH: Words = Words {
    settings: "设置",
    open: "换到另一台电脑…",
    save_to: "保存到",
    save: "保存迁移文件",
    saved: "已保存 ",
    move_file: "迁移文件",
    restore: "检查并恢复…",
    checked: "检查通过：",
    restart: "立即重启",
    restored_title: "已从另一台电脑恢复",
    secret_of_hq: "• 配置“hq”的应用密钥",
};

fn hq() -> Profile {
    Profile {
        name: "hq".to_owned(),
        endpoint: Endpoint::Remote {
            base_url: "https://platform.example.com".to_owned(),
            token_url: "https://platform.example.com/oauth/token".to_owned(),
            app_key: "key".to_owned(),
            ca_file: None,
        },
        operator_identity: "总部".to_owned(),
        production: false,
        own_catalog: false,
        repeats_recognised: false,
        limits: Default::default(),
        insecure_http: false,
    }
}

fn places(root: &Path) -> Places {
    Places {
        config_dir: root.join("config"),
        data_dir: root.join("data"),
        window_dir: None,
    }
}

fn moved_in(lang: Lang, words: &Words) {
    let dir = tempfile::tempdir().expect("dir");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let file = dir.path().join("搬家 move.ldbackup");
    let file_text = file.display().to_string();

    // The old computer: a profile of its own, saved in one file.
    let mut harness = app(&old, lang);
    harness.run_ok();
    let saved = Save {
        previous: None,
        profile: hq(),
        app_secret: None,
    };
    desk::run(harness.state().core(), saved);
    click(&mut harness, words.settings);
    click(&mut harness, words.open);
    type_into(&mut harness, words.save_to, &file_text);
    click(&mut harness, words.save);
    let said = format!("{}{file_text}", words.saved);
    settle(&mut harness, |h| h.query_by_label_contains(&said).is_some());
    assert!(file.is_file());
    drop(harness);

    // The new computer: the file checked whole and named for the next start; nothing of this
    // computer's data changes yet.
    let mut harness = app(&new, lang);
    harness.run_ok();
    click(&mut harness, words.settings);
    click(&mut harness, words.open);
    type_into(&mut harness, words.move_file, &file_text);
    click(&mut harness, words.restore);
    settle(&mut harness, |h| {
        h.query_by_label_contains(words.checked).is_some()
    });
    assert!(harness.state().core().state().profiles.get("hq").is_none());
    assert!(!harness.state().will_start_again());
    click(&mut harness, words.restart);
    assert!(harness.state().will_start_again());
    drop(harness);

    // The next start restores it before the core opens, and the window says so.
    let restored = backup::pending::finish(&places(&new)).expect("a restore was waiting");
    assert!(backup::pending::finish(&places(&new)).is_none(), "once");
    let mut harness = app(&new, lang);
    harness.state_mut().restored(restored);
    harness.run_ok();
    harness.get_by_label(words.restored_title);
    harness.get_by_label(words.secret_of_hq);
    let profiles = harness.state().core().state().profiles;
    assert_eq!(
        profiles.get("hq").map(|p| p.endpoint.clone()),
        Some(hq().endpoint)
    );
}

#[test]
fn a_move_file_is_saved_checked_and_restored_at_the_next_start_in_english() {
    moved_in(Lang::En, &EN);
}

#[test]
fn a_move_file_is_saved_checked_and_restored_at_the_next_start_in_chinese() {
    moved_in(Lang::Zh, &ZH);
}

/// A damaged file is refused at once, nothing waits for the next start, and the window says
/// why beside the words of what to do.
#[test]
fn a_damaged_move_file_is_refused_before_the_restart() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("move.ldbackup");
    std::fs::write(&file, b"PK not a backup").expect("file");
    let mut harness = app(&dir.path().join("home"), Lang::En);
    harness.run_ok();
    click(&mut harness, EN.settings);
    click(&mut harness, EN.open);
    type_into(&mut harness, EN.move_file, &file.display().to_string());
    click(&mut harness, EN.restore);
    settle(&mut harness, |h| {
        h.query_by_label_contains("Nothing on this computer was changed")
            .is_some()
    });
    assert!(harness.query_by_label(EN.restart).is_none());
    assert!(backup::pending::finish(&places(&dir.path().join("home"))).is_none());
}
