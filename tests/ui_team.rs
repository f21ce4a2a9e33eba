//! The console on a team server's profile, driven like a user would (egui_kittest): the real
//! team server in front of a real platform over loopback; the keyring is the mock store.

use test_support::desk;
use test_support::team_remote;
use test_support::window;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use license_desk::ui::text::i18n::Lang;
use license_desk::ui::{DeskApp, Screen};
use team_remote::{PASSWORD, TeamRemote};
use window::{app, click, settle, type_into};

/// The team profile `branch` for li, saved and made the active one through the core.
fn use_team_profile(harness: &Harness<'static, DeskApp>, team: &TeamRemote) {
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
}

/// No session yet: the window asks for the password over the screen, and once signed in the
/// top bar names the person and role; what the role lacks is drawn disabled, the reason on
/// hover; signing out asks again.
#[test]
fn a_team_profile_asks_the_password_names_the_person_and_disables_what_the_role_lacks() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    use_team_profile(&harness, &team);
    settle(&mut harness, |h| {
        h.query_by_label("Sign in to branch").is_some()
    });
    harness.get_by_label("Sign in to the team server as li to go on. What you were doing is kept.");
    type_into(&mut harness, "Password", "not the password");
    click(&mut harness, "Sign in");
    settle(&mut harness, |h| {
        h.query_by_label_contains("The team server did not sign you in")
            .is_some()
    });
    harness.get_by_label_contains("401: wrong name or password");
    assert_eq!(
        harness.get_by_label("Password").value().as_deref(),
        Some("")
    );

    type_into(&mut harness, "Password", PASSWORD);
    click(&mut harness, "Sign in");
    settle(&mut harness, |h| {
        h.query_by_label("li · branch staff").is_some()
    });
    assert!(harness.query_by_label("Sign in to branch").is_none());

    harness.state_mut().prefs.screen = Screen::Assets;
    harness.run_ok();
    let by_numbers = harness.get_by_label("Disable or enable by numbers…");
    assert!(by_numbers.accesskit_node().is_disabled());
    by_numbers.hover();
    harness.run_ok();
    harness.get_by_label(
        "Your role (branch staff) does not have the permission “locks” that this needs.",
    );
    harness.state_mut().prefs.screen = Screen::AssetNumbers;
    harness.run_ok();
    click(&mut harness, "Get new asset numbers");
    settle(&mut harness, |h| h.query_by_label("8000000001").is_some());

    // History on a team profile is the server's record of what li did.
    harness.state_mut().prefs.screen = Screen::History;
    settle(&mut harness, |h| {
        h.query_by_label("New asset numbers").is_some()
    });
    assert_eq!(
        harness.query_all_by_label("Sign in").count(),
        2,
        "one refused, one done"
    );
    assert_eq!(
        harness.query_all_by_label("li").count(),
        3,
        "three entries, all li's"
    );
    let time_like = |l: &str| !l.is_empty() && l.chars().all(|c| c.is_ascii_digit() || c == ':');
    harness
        .get_all_by_label_contains(":")
        .find(|n| n.accesskit_node().label().is_some_and(|l| time_like(&l)))
        .expect("the newest entry's time")
        .click();
    harness.run_ok();
    harness.get_by_label(r#"{"size":10}"#);
    harness.get_by_label("Person: li (staff, SH01)");
    click(&mut harness, "This computer's calls");
    harness.get_by_label("Export to");
    click(&mut harness, "Team server's record");

    click(&mut harness, "Sign out");
    settle(&mut harness, |h| {
        h.query_by_label("Sign in to branch").is_some()
    });
    harness.get_by_label("Not signed in");
}

/// The same in Chinese: the dialog, the person's role and the reason in the UI's language.
#[test]
fn the_team_sign_in_reads_in_chinese() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    use_team_profile(&harness, &team);
    settle(&mut harness, |h| {
        h.query_by_label("登录到 branch").is_some()
    });
    type_into(&mut harness, "密码", PASSWORD);
    click(&mut harness, "登录");
    settle(&mut harness, |h| {
        h.query_by_label("li · 网点职员").is_some()
    });
    harness.state_mut().prefs.screen = Screen::Assets;
    harness.run_ok();
    let by_numbers = harness.get_by_label("按编号禁用/启用…");
    assert!(by_numbers.accesskit_node().is_disabled());
    by_numbers.hover();
    harness.run_ok();
    harness.get_by_label("您的角色（网点职员）没有此操作所需的权限“锁定与解锁”。");
}

/// Settings → Add profile → Team server: `branch`, li on `team`, with `password`, saved.
fn add_team_profile(harness: &mut Harness<'static, DeskApp>, team: &TeamRemote, password: &str) {
    harness.state_mut().prefs.screen = Screen::Settings;
    harness.run_ok();
    click(harness, "Add profile");
    click(harness, "Team server");
    type_into(harness, "Name", "branch");
    type_into(harness, "Team server address", &team.base);
    type_into(harness, "Your sign-in name", "li");
    type_into(harness, "Password", password);
    click(harness, "Save");
}

/// Settings adds a team server's profile: its address, the person and the password once; it
/// signs in as it is saved, and the password is in no file the console wrote.
#[test]
fn settings_add_a_team_profile_and_sign_in_once() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    add_team_profile(&mut harness, &team, PASSWORD);
    settle(&mut harness, |h| {
        h.state()
            .core()
            .state()
            .sessions
            .get("branch")
            .and_then(|s| s.me().cloned())
            .is_some_and(|me| me.person.name == "li")
    });
    harness.get_by_label(&format!("li @ {}", team.base));
    for entry in std::fs::read_dir(dir.path().join("config"))
        .expect("config")
        .flatten()
    {
        let text = std::fs::read(entry.path()).expect("read");
        let found = text
            .windows(PASSWORD.len())
            .any(|w| w == PASSWORD.as_bytes());
        assert!(!found, "{} holds the password", entry.path().display());
    }
}

/// A wrong password when adding a team profile keeps nothing: the profile is removed, the form
/// comes back as typed (but the password) saying why, and saving it again with the right
/// password signs in (issue 55).
#[test]
fn a_team_profile_whose_first_sign_in_is_refused_is_not_kept() {
    let team = TeamRemote::start();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    add_team_profile(&mut harness, &team, "not the password");
    let not_kept = "The sign-in was refused, so the profile was not kept: check the name and \
                    the password (see the note below the screen), then save again.";
    settle(&mut harness, |h| h.query_by_label(not_kept).is_some());
    settle(&mut harness, |h| {
        h.state().core().state().profiles.get("branch").is_none()
    });
    assert_eq!(
        harness.get_by_label("Your sign-in name").value().as_deref(),
        Some("li")
    );
    type_into(&mut harness, "Password", PASSWORD);
    click(&mut harness, "Save");
    settle(&mut harness, |h| {
        h.state()
            .core()
            .state()
            .sessions
            .get("branch")
            .and_then(|s| s.me().cloned())
            .is_some_and(|me| me.person.name == "li")
    });
    assert!(harness.query_by_label(not_kept).is_none());
}

/// The platform away from the team server: a lock change is not sent, and the console says
/// the team server could not send it on (not that the profile could not be reached), then
/// keeps it to send later (issue 53).
#[test]
fn a_change_the_team_server_could_not_send_on_says_so_and_is_kept_to_send_later() {
    let team = TeamRemote::start_proxied();
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run_ok();
    let core = harness.state().core();
    desk::run(
        core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile: team.profile("office", "wang"),
            app_secret: None,
        },
    );
    desk::run(
        core,
        license_desk::core::profiles::requests::Activate {
            name: "office".to_owned(),
        },
    );
    settle(&mut harness, |h| {
        h.query_by_label("Sign in to office").is_some()
    });
    type_into(&mut harness, "Password", PASSWORD);
    click(&mut harness, "Sign in");
    settle(&mut harness, |h| {
        h.query_by_label_contains("wang · ").is_some()
    });
    team.proxy.as_ref().expect("a proxy").go_away();
    harness.state_mut().prefs.screen = Screen::Assets;
    harness.run_ok();
    click(&mut harness, "Disable or enable by numbers…");
    type_into(
        &mut harness,
        "Asset numbers: typed or pasted, separated by lines, spaces, commas or semicolons",
        "8100000777",
    );
    click(&mut harness, "Enable these");
    // The team server records the person signed in: the operator is shown, not asked.
    harness.get_by_label("Operator: wang (the team server records the person signed in)");
    click(&mut harness, "Enable 1 lock");
    settle(&mut harness, |h| {
        h.query_by_label(
            "The team server of office could not send it to the platform: nothing was sent.",
        )
        .is_some()
    });
    assert!(
        harness
            .query_by_label("office could not be reached: nothing was sent.")
            .is_none()
    );
    click(&mut harness, "Keep to send later");
    settle(&mut harness, |h| {
        h.query_by_label("Send later (1)").is_some()
    });
}
