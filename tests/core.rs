//! The service core as the console uses it: `Core` on the built-in Sandbox and on a remote
//! profile, and the typed client, all against the real embedded platform on loopback with real
//! SQLite files in temp dirs. The only stand-in is keyring-core's mock credential store.

use test_support::desk;
use test_support::remote;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use client::{
    ApiError, CachedToken, CallRecord, Client, ClientConfig, Observer, Operation, Secret,
};
use desk::{Answer, CallOn, WAIT, mock_store, run};
use keyring_core::CredentialStore;
use license_desk::core::drafts;
use license_desk::core::files::{self, StoredBatch};
use license_desk::core::progress::Progress;
use license_desk::core::queue::{self, QueueState};
use license_desk::core::request::Finished;
use license_desk::core::{
    Awaited, Call, Core, CoreError, CoreState, Draft, DraftSummary, Endpoint, ExportFormat,
    JournalEntry, JournalFilter, KeyringChoice, KeyringState, KeyringStore, Profile, Profiles,
    SANDBOX, SandboxState, WriteState,
};
use platform::auth::TOKEN_RECHECK;
use platform::{Config, Region, Server, create_app};
use remote::Remote;
use serde_json::{Value, json};
use tempfile::TempDir;
use wire::{
    ActivityDto, ActivityResponse, Asset, AssetExtend, BatchOrderRequest, BindRequest,
    ClaimRequest, CreatedEnterprise, Customer, CustomerQuery, DefaultFilter, EnterpriseRequest,
    LockRequest, LockResult, LockStatus, Member, SubActivityDto,
};

const DAY_MS: i64 = 24 * 3600 * 1000;
/// The service every secret of License Desk is filed under in the keyring.
const KEYRING_SERVICE: &str = "license-desk";
const DEMO_ENTERPRISE: &str = "北京示例科技有限公司";
const TOKEN_PATH: &str = "/v3/api/oauth2/token";

/// The value of an expected `Outcome` variant, or a panic naming what came instead.
macro_rules! outcome {
    ($result:expr, $variant:path) => {
        match $result {
            $variant(v) => v,
            other => panic!("expected {}, got {other:?}", stringify!($variant)),
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_millis() as i64
}

static LOG_BUFFER: OnceLock<Mutex<Vec<u8>>> = OnceLock::new();

fn log_buffer() -> &'static Mutex<Vec<u8>> {
    LOG_BUFFER.get_or_init(|| Mutex::new(Vec::new()))
}

/// Every log line of this test binary, at debug level, to check that no secret is logged.
fn logs() -> &'static Mutex<Vec<u8>> {
    static INIT: OnceLock<()> = OnceLock::new();
    INIT.get_or_init(|| {
        struct Sink;
        impl Write for Sink {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                log_buffer()
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("debug"))
            .with_ansi(false)
            .with_writer(|| Sink)
            .finish();
        let _ = tracing::subscriber::set_global_default(subscriber);
    });
    log_buffer()
}

fn logged_text() -> String {
    String::from_utf8_lossy(&logs().lock().unwrap_or_else(PoisonError::into_inner)).into_owned()
}

/// What the keyring holds for a profile's secret (`app-secret` or `token`).
fn keyring_get(store: &Arc<CredentialStore>, profile: &str, kind: &str) -> Option<String> {
    let entry = store
        .build(KEYRING_SERVICE, &format!("{profile}/{kind}"), None)
        .expect("entry");
    match entry.get_password() {
        Ok(v) => Some(v),
        Err(keyring_core::Error::NoEntry) => None,
        Err(e) => panic!("keyring read failed: {e}"),
    }
}

/// The clear token kept in the keyring for a profile.
fn keyring_token(store: &Arc<CredentialStore>, profile: &str) -> String {
    let text = keyring_get(store, profile, "token")
        .unwrap_or_else(|| panic!("no token in the keyring for {profile}"));
    let v: Value = serde_json::from_str(&text).expect("the stored token is JSON");
    let token = v["token"].as_str().expect("token").to_owned();
    assert!(token.len() >= 20, "{token}");
    token
}

fn config_dir(root: &Path) -> PathBuf {
    root.join("config")
}

fn data_dir(root: &Path) -> PathBuf {
    root.join("data")
}

/// The test's core, its logs kept to be read.
fn start_core(root: &Path, keyring: KeyringChoice) -> Core {
    logs();
    desk::start_core(root, keyring)
}

#[track_caller]
fn call(core: &Core, call: Call) -> Answer {
    run(core, on_active(core, call))
}

/// The call on the profile active now, named as the console names it.
fn on_active(core: &Core, call: Call) -> CallOn {
    CallOn {
        profile: core.state().profiles.active,
        call,
    }
}

#[track_caller]
fn call_on(core: &Core, profile: &str, call: Call) -> Answer {
    run(
        core,
        CallOn {
            profile: profile.to_owned(),
            call,
        },
    )
}

fn journal(core: &Core, filter: JournalFilter) -> Vec<JournalEntry> {
    run(core, license_desk::core::journal::requests::Query(filter))
}

/// Waits until `f` holds for the core's state.
#[track_caller]
fn wait_state(
    core: &Core,
    what: &str,
    within: Duration,
    f: impl Fn(&CoreState) -> bool,
) -> CoreState {
    let deadline = Instant::now() + within;
    loop {
        let state = core.state();
        if f(&state) {
            return state;
        }
        assert!(Instant::now() < deadline, "{what}: still {state:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The status a platform answers a bare query carrying `token` with: 401 once it refuses the
/// token; while it accepts it, the missing `g_nonce` is refused (299) and nothing is spent.
fn http_status_for_token(base_url: &str, token: &str) -> u16 {
    use std::io::Read;
    let host = base_url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).expect("connect to the platform");
    write!(
        stream,
        "GET {} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n",
        wire::paths::QUERY
    )
    .expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("answer");
    answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"))
}

/// The Sandbox's platform database (the Sandbox must have started).
fn sandbox_db(root: &Path) -> rusqlite::Connection {
    sandbox_file_db(root, "platform.sqlite3")
}

/// The Sandbox's token and nonce database.
fn sandbox_auth_db(root: &Path) -> rusqlite::Connection {
    sandbox_file_db(root, "auth.sqlite3")
}

fn sandbox_file_db(root: &Path, file: &str) -> rusqlite::Connection {
    let path = data_dir(root).join("sandbox/platform").join(file);
    assert!(path.exists(), "{}", path.display());
    let conn = rusqlite::Connection::open(path).expect("open the sandbox db");
    conn.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    conn
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Asserts that no file under `dir` holds any of the secrets. A file that goes away meanwhile
/// (SQLite's `-shm`, a temporary file being renamed) is skipped.
#[track_caller]
fn assert_no_file_holds(dir: &Path, secrets: &[&str]) {
    let files = files_under(dir);
    assert!(!files.is_empty());
    for file in files {
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("cannot read {}: {e}", file.display()),
        };
        for secret in secrets {
            assert!(
                !contains(&bytes, secret),
                "{} holds a secret ({} characters)",
                file.display(),
                secret.len()
            );
        }
    }
}

fn sandbox_profile_with_operator(operator: &str) -> Profile {
    Profile {
        operator_identity: operator.to_owned(),
        ..Profile::sandbox()
    }
}

fn customer(
    id: &str,
    channel: &str,
    channel_id: &str,
    enterprise: &str,
    name: &str,
    default: bool,
) -> Customer {
    Customer {
        customer_id: id.to_owned(),
        channel_code: channel.to_owned(),
        channel_customer_id: channel_id.to_owned(),
        enterprise_global_id: enterprise.to_owned(),
        enterprise_name: name.to_owned(),
        is_default: default,
    }
}

fn query(channel: &str, id: &str, default: Option<DefaultFilter>) -> Call {
    Call::QueryCustomers(CustomerQuery {
        channel_code: Some(channel.to_owned()),
        channel_customer_id: Some(id.to_owned()),
        default_customer: default,
    })
}

fn claim(identity: &str, label: &str) -> Call {
    Call::Claim(ClaimRequest {
        identity: Some(identity.to_owned()),
        activity_label: Some(label.to_owned()),
        source: Some("license-desk".to_owned()),
        branch: Some("北京分公司".to_owned()),
        ext_params: None,
    })
}

/// The platform's answer or no answer a request failed with, if that is why it failed.
fn api_error<T: std::fmt::Debug>(result: Result<T, CoreError>) -> Option<ApiError> {
    match result.expect_err("a failure") {
        CoreError::Api(e) => Some(e),
        _ => None,
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn lock_results(v: &[(&str, LockStatus)]) -> Vec<LockResult> {
    v.iter()
        .map(|(num, status)| LockResult {
            asset_num: (*num).to_owned(),
            status: *status,
        })
        .collect()
}

fn locked_of(assets: &[Asset]) -> Vec<(String, bool)> {
    assets
        .iter()
        .map(|a| (a.asset_num.clone(), a.locked))
        .collect()
}

fn lock_events(conn: &rusqlite::Connection) -> Vec<(String, bool, String)> {
    let mut stmt = conn
        .prepare("SELECT asset_num, locked, operator FROM lock_events ORDER BY id")
        .expect("prepare");
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
}

/// A remote platform for a test, with the test's logs kept to be read.
fn remote(region: Region) -> Remote {
    logs();
    Remote::start(region)
}

/// Saves `profile` with its app secret and checks the answer lists it.
#[track_caller]
fn save_profile(core: &Core, previous: Option<&str>, profile: Profile, secret: Option<&str>) {
    let name = profile.name.clone();
    let profiles = run(
        core,
        license_desk::core::profiles::requests::Save {
            previous: previous.map(str::to_owned),
            profile: profile.clone(),
            app_secret: secret.map(Secret::new),
        },
    );
    assert_eq!(profiles.get(&name), Some(&profile));
    assert_eq!(core.state().profiles, profiles);
}

/// A secret given for one run (a script's `LICENSE_DESK_SECRET_…` or `--secret-file`) is used
/// in place of the keyring's, and the keyring is left as it was: its secret and its token
/// entries are neither replaced nor removed, and no new token is kept there; no file holds
/// the given secret.
#[test]
fn a_secret_given_for_one_run_is_used_and_the_keyring_is_left_as_it_was() {
    let remote = remote(Region::Domestic);
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    save_profile(
        &core,
        None,
        remote.profile("Training", "ci@example.com"),
        Some("an-old-secret"),
    );
    let stale = json!({"token": "stale-token", "expiresAtMs": now_ms() + DAY_MS,
                       "scope": "auth_order"})
    .to_string();
    store
        .build(KEYRING_SERVICE, "Training/token", None)
        .expect("entry")
        .set_password(&stale)
        .expect("set");

    let given = license_desk::core::profiles::requests::UseSecretForRun {
        profile: "Training".to_owned(),
        app_secret: Secret::new(remote.app_secret.clone()),
    };
    run(&core, given);
    assert_eq!(
        outcome!(
            call_on(&core, "Training", Call::Shellnums(2)),
            Answer::Shellnums
        ),
        strings(&["8000000001", "8000000002"])
    );
    let connected = run(
        &core,
        license_desk::core::profiles::requests::TestConnection {
            profile: "Training".to_owned(),
        },
    );
    assert!(connected.expires_at_ms > now_ms(), "{connected:?}");
    // The keyring's stale token was not sent: no call was refused on the way.
    let statuses: Vec<u16> = journal(&core, JournalFilter::default())
        .iter()
        .filter(|e| e.profile == "Training")
        .filter_map(|e| e.http_status)
        .collect();
    // Two tokens (the call's, the test's) and the call.
    assert_eq!(statuses, [200, 200, 200]);

    assert_eq!(
        keyring_get(&store, "Training", "app-secret").as_deref(),
        Some("an-old-secret")
    );
    assert_eq!(keyring_get(&store, "Training", "token"), Some(stale));
    let sandbox = core.run(
        license_desk::core::profiles::requests::UseSecretForRun {
            profile: SANDBOX.to_owned(),
            app_secret: Secret::new("x"),
        },
        WAIT,
    );
    assert!(
        matches!(sandbox, Err(CoreError::Profiles(_))),
        "{sandbox:?}"
    );
    core.shutdown();
    assert_no_file_holds(root.path(), &[&remote.app_secret]);
}

/// Profile edits sent at once (commands run concurrently) are applied one after another: the
/// state and the file keep every one of them.
#[test]
fn profile_edits_sent_at_once_are_all_kept() {
    let root = tempfile::tempdir().expect("root");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    let names: Vec<String> = (1..=8).map(|i| format!("Branch-{i}")).collect();
    let waiting: Vec<_> = names
        .iter()
        .map(|name| {
            core.ask(license_desk::core::profiles::requests::Save {
                previous: None,
                profile: Profile {
                    name: name.clone(),
                    endpoint: Endpoint::Remote {
                        base_url: "https://platform.example.com".to_owned(),
                        token_url: format!("https://platform.example.com{TOKEN_PATH}"),
                        app_key: "key".to_owned(),
                        ca_file: None,
                    },
                    operator_identity: String::new(),
                    production: false,
                    own_catalog: false,
                    repeats_recognised: false,
                    limits: Default::default(),
                    insecure_http: false,
                },
                app_secret: None,
            })
        })
        .collect();
    for pending in waiting {
        let saved = pending.wait(WAIT);
        assert!(saved.is_ok(), "{saved:?}");
    }
    let file =
        std::fs::read_to_string(config_dir(root.path()).join("profiles.json")).expect("file");
    for name in &names {
        assert!(core.state().profiles.get(name).is_some(), "{name} lost");
        assert!(
            file.contains(&format!("\"{name}\"")),
            "{name} not in {file}"
        );
    }
    // The user's files are the user's alone.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&config_dir(root.path())), 0o700);
        assert_eq!(mode(&config_dir(root.path()).join("profiles.json")), 0o600);
        assert_eq!(mode(&data_dir(root.path())), 0o700);
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Every operation through the core, on the Sandbox
// ---------------------------------------------------------------------------------------------

#[test]
fn the_sandbox_answers_every_operation_through_the_core() {
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    assert_eq!(core.state().profiles, Profiles::default());
    assert_eq!(core.state().profiles.active, SANDBOX);

    // Test connection: both scopes, a 7-day token.
    let before = now_ms();
    let license_desk::core::profiles::requests::Connected {
        scope,
        expires_at_ms,
    } = run(
        &core,
        license_desk::core::profiles::requests::TestConnection {
            profile: SANDBOX.to_owned(),
        },
    );
    assert_eq!(scope, "auth_order auth_activity");
    assert!(
        expires_at_ms > before + 7 * DAY_MS - 60_000 && expires_at_ms <= now_ms() + 7 * DAY_MS,
        "{expires_at_ms} vs {before}"
    );
    let state = core.state();
    assert!(
        matches!(&state.sandbox, SandboxState::Ready { base_url } if base_url.starts_with("http://127.0.0.1:")),
        "{state:?}"
    );
    assert_eq!(
        state.keyring,
        Some(KeyringState::Available {
            store: KeyringStore::Given
        })
    );

    // Operation 3: the demo enterprise's customers, default first; only the default with Y.
    let demo = vec![
        customer(
            "CU0000000001",
            "CRM",
            "CRM-DEMO",
            "EG0000000001",
            DEMO_ENTERPRISE,
            true,
        ),
        customer(
            "CU0000000002",
            "GXXP",
            "CRM-DEMO",
            "EG0000000001",
            DEMO_ENTERPRISE,
            false,
        ),
        customer(
            "CU0000000005",
            "SHOP",
            "S-0001",
            "EG0000000001",
            DEMO_ENTERPRISE,
            false,
        ),
    ];
    assert_eq!(
        outcome!(
            call(&core, query("CRM", "CRM-DEMO", None)),
            Answer::Customers
        ),
        demo
    );
    assert_eq!(
        outcome!(
            call(&core, query("SHOP", "S-0001", Some(DefaultFilter::N))),
            Answer::Customers
        ),
        demo
    );
    assert_eq!(
        outcome!(
            call(&core, query("SHOP", "S-0001", Some(DefaultFilter::Y))),
            Answer::Customers
        ),
        demo[..1].to_vec()
    );
    assert_eq!(
        outcome!(
            call(&core, query("SHOP", "NO-SUCH", None)),
            Answer::Customers
        ),
        Vec::<Customer>::new()
    );

    // Operation 1: bind a shop customer to the second demo enterprise; again is harmless.
    let bind = |channel_id: &str, enterprise: &str| {
        Call::Bind(BindRequest {
            channel_code: Some("SHOP".to_owned()),
            channel_customer_id: Some(channel_id.to_owned()),
            customer_name: Some("上海门店客户".to_owned()),
            branch_name: Some("上海分公司".to_owned()),
            enterprise_name: Some(enterprise.to_owned()),
            password_mobile: Some("13900139000".to_owned()),
        })
    };
    let bound = customer(
        "CU0000000006",
        "SHOP",
        "S-0002",
        "EG0000000002",
        "上海样例贸易有限公司",
        false,
    );
    assert_eq!(
        outcome!(
            call(&core, bind("S-0002", "上海样例贸易有限公司")),
            Answer::Customer
        ),
        bound
    );
    assert_eq!(
        outcome!(
            call(&core, bind("S-0002", "上海样例贸易有限公司")),
            Answer::Customer
        ),
        bound
    );
    // The platform's refusal comes back verbatim.
    assert_eq!(
        api_error(core.run(on_active(&core, bind("S-0001", "上海样例贸易有限公司")), WAIT)),
        Some(ApiError::Platform {
            http_status: 299,
            code: "13004".to_owned(),
            message: "channelCustomerId: SHOP/S-0001 is already bound to the enterprise master account EG0000000001 (北京示例科技有限公司)".to_owned(),
            cause: Some("refused by a business rule; nothing was written".to_owned()),
        })
    );

    // Operation 2: a new enterprise with its two members.
    let created = outcome!(
        call(
            &core,
            Call::CreateEnterprise(EnterpriseRequest {
                crm_customer_id: Some("CRM-NEW".to_owned()),
                customer_name: Some("广州新建有限公司".to_owned()),
                branch_name: Some("广州分公司".to_owned()),
                address: Some("广州市天河区体育西路1号".to_owned()),
            })
        ),
        Answer::Enterprise
    );
    assert_eq!(
        created,
        CreatedEnterprise {
            enterprise_global_id: "EG0000000003".to_owned(),
            default_type: true,
            members: vec![
                Member {
                    member_global_id: "EM0000000005".to_owned(),
                    member_identity: "gxxp-admin".to_owned(),
                },
                Member {
                    member_global_id: "EM0000000006".to_owned(),
                    member_identity: "cloud-staff".to_owned(),
                },
            ],
        }
    );

    // Operation 4: renamed; the customers carry the new name.
    assert_eq!(
        call(
            &core,
            Call::UpdateEnterprise(EnterpriseRequest {
                crm_customer_id: Some("CRM-NEW".to_owned()),
                customer_name: Some("广州更名有限公司".to_owned()),
                branch_name: None,
                address: Some("广州市天河区体育西路2号".to_owned()),
            })
        ),
        Answer::Updated
    );
    assert_eq!(
        outcome!(
            call(&core, query("CRM", "CRM-NEW", None)),
            Answer::Customers
        ),
        vec![
            customer(
                "CU0000000007",
                "CRM",
                "CRM-NEW",
                "EG0000000003",
                "广州更名有限公司",
                true
            ),
            customer(
                "CU0000000008",
                "GXXP",
                "CRM-NEW",
                "EG0000000003",
                "广州更名有限公司",
                false
            ),
        ]
    );

    // Operation 5: a batch for the new enterprise; the same batch again answers the same.
    let batch: BatchOrderRequest = serde_json::from_value(json!({
        "channelCode": "CRM", "channelOrderId": "CORE-0001", "syncMode": "sync",
        "orderList": [{
            "sequence": 1, "channelCustomerId": "CRM-NEW", "licenseType": "normal_recover_usbkey",
            "orderType": "new_buy",
            "assets": [{"assetNos": ["8900000100"], "products": [
                {"productUri": "gms:9001", "productName": "核心测试产品", "limitConcurrent": 2}
            ]}]
        }]
    }))
    .expect("batch");
    let ordered = outcome!(call(&core, Call::BatchOrder(batch.clone())), Answer::Orders);
    assert_eq!(ordered.len(), 1, "{ordered:?}");
    assert_eq!(
        (ordered[0].sequence, ordered[0].customer_id.as_str()),
        (1, "CU0000000007")
    );
    // A readable, stored id (ids are counters, not necessarily consecutive).
    let order_id = ordered[0].license_order_id.clone();
    assert!(
        order_id.len() == 12
            && order_id.starts_with("LO")
            && order_id[2..].bytes().all(|b| b.is_ascii_digit()),
        "{order_id}"
    );
    let stored: i64 = sandbox_db(root.path())
        .query_row(
            "SELECT count(*) FROM license_orders WHERE license_order_id = ?1",
            [&order_id],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(stored, 1);
    assert_eq!(
        outcome!(call(&core, Call::BatchOrder(batch)), Answer::Orders),
        ordered
    );
    let new_assets = outcome!(
        call(
            &core,
            Call::Assets {
                enterprise_global_id: "EG0000000003".to_owned(),
                extend_code: None,
            }
        ),
        Answer::Assets
    )
    .to_assets();
    assert_eq!(new_assets.len(), 1, "{new_assets:?}");
    let a = &new_assets[0];
    assert_eq!(
        (
            a.asset_num.as_str(),
            a.license_type.as_str(),
            a.customer_id.as_str(),
            a.key_shell_number.as_str(),
            a.key_chip_type,
            a.locked
        ),
        (
            "8900000100",
            "normal_recover_usbkey",
            "CU0000000007",
            "8900000100",
            2,
            false
        )
    );
    assert_eq!(a.products.len(), 1);
    assert_eq!(a.products[0].product_uri, "gms:9001");
    assert_eq!(a.products[0].product_name.as_deref(), Some("核心测试产品"));
    assert_eq!(a.products[0].limit_concurrent, Some(2));
    assert_eq!(
        a.products[0].license_order_id.as_deref(),
        Some(order_id.as_str())
    );

    // Operation 8: the demo enterprise's assets, oldest first; with gxxp only the cloud asset.
    let assets = |extend_code: Option<&str>| {
        outcome!(
            call(
                &core,
                Call::Assets {
                    enterprise_global_id: "EG0000000001".to_owned(),
                    extend_code: extend_code.map(str::to_owned),
                }
            ),
            Answer::Assets
        )
        .to_assets()
    };
    let all = assets(None);
    let kinds: Vec<(&str, &str)> = all
        .iter()
        .map(|a| (a.asset_num.as_str(), a.license_type.as_str()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("8900000001", "normal_recover_usbkey"),
            ("8900000002", "normal_recover_usbkey"),
            ("8900000003", "normal_recover_usbkey"),
            ("8900000004", "normal_recover_lan_usbkey"),
            ("8900000005", "normal_unrecover_usbkey"),
            ("8900000006", "normal_unrecover_usbkey"),
            ("8900000007", "softkey"),
            ("CA-DEMO-0001", "cloud_account"),
        ]
    );
    assert!(
        all.iter()
            .all(|a| a.customer_id == "CU0000000001" && !a.locked)
    );
    assert_eq!(
        (all[4].limit_start_time, all[4].limit_end_time),
        (Some(1_767_225_600_000), Some(1_798_761_600_000))
    );
    assert_eq!(
        (all[5].limit_start_time, all[5].limit_end_time),
        (None, None)
    );
    let gxxp = assets(Some("gxxp"));
    assert_eq!(gxxp.len(), 1, "{gxxp:?}");
    assert_eq!(gxxp[0].asset_num, "CA-DEMO-0001");
    assert_eq!(gxxp[0].license_type, "cloud_account");
    assert_eq!(
        gxxp[0].asset_extends,
        vec![AssetExtend {
            extend_code: "gxxp".to_owned(),
            extend_value: "1".to_owned(),
        }]
    );
    assert_eq!(gxxp[0].products.len(), 1);
    assert_eq!(gxxp[0].products[0].product_uri, "gms:2001");
    assert_eq!(gxxp[0], all[7]);

    // Operations 6 and 7: one status per number; the operator is the profile's.
    let locked = outcome!(
        call(
            &core,
            Call::Lock {
                nums: strings(&[
                    "8900000001",
                    "8900000004",
                    "8900000005",
                    "8900000006",
                    "8900000007",
                    "8999999999",
                    "CA-DEMO-0001",
                ]),
                operator: None,
            }
        ),
        Answer::Locks
    );
    assert_eq!(
        locked,
        lock_results(&[
            ("8900000001", LockStatus::Success),
            ("8900000004", LockStatus::Success),
            ("8900000005", LockStatus::Success),
            ("8900000006", LockStatus::WrongType),
            ("8900000007", LockStatus::WrongType),
            ("8999999999", LockStatus::NotFound),
            ("CA-DEMO-0001", LockStatus::WrongType),
        ])
    );
    let expect_locked = |nums: &[&str]| -> Vec<(String, bool)> {
        all.iter()
            .map(|a| (a.asset_num.clone(), nums.contains(&a.asset_num.as_str())))
            .collect()
    };
    assert_eq!(
        locked_of(&assets(None)),
        expect_locked(&["8900000001", "8900000004", "8900000005"])
    );
    let db = sandbox_db(root.path());
    let admin = "sandbox-admin".to_owned();
    assert_eq!(
        lock_events(&db),
        vec![
            ("8900000001".to_owned(), true, admin.clone()),
            ("8900000004".to_owned(), true, admin.clone()),
            ("8900000005".to_owned(), true, admin.clone()),
        ]
    );
    let unlocked = outcome!(
        call(
            &core,
            Call::Unlock {
                nums: strings(&["8900000001", "8900000002"]),
                operator: None,
            }
        ),
        Answer::Locks
    );
    assert_eq!(
        unlocked,
        lock_results(&[
            ("8900000001", LockStatus::Success),
            ("8900000002", LockStatus::Success),
        ])
    );
    assert_eq!(
        locked_of(&assets(None)),
        expect_locked(&["8900000004", "8900000005"])
    );
    // Another operator on the profile: the next lock is recorded under that name.
    save_profile(
        &core,
        Some(SANDBOX),
        sandbox_profile_with_operator("ops@example.com"),
        None,
    );
    assert_eq!(
        outcome!(
            call(
                &core,
                Call::Lock {
                    nums: strings(&["8900000002"]),
                    operator: None,
                }
            ),
            Answer::Locks
        ),
        lock_results(&[("8900000002", LockStatus::Success)])
    );
    assert_eq!(
        lock_events(&db),
        vec![
            ("8900000001".to_owned(), true, admin.clone()),
            ("8900000004".to_owned(), true, admin.clone()),
            ("8900000005".to_owned(), true, admin.clone()),
            ("8900000001".to_owned(), false, admin),
            ("8900000002".to_owned(), true, "ops@example.com".to_owned()),
        ]
    );

    // Operation 9: numbers of the domestic region that never repeat.
    assert_eq!(
        outcome!(call(&core, Call::Shellnums(3)), Answer::Shellnums),
        strings(&["8000000001", "8000000002", "8000000003"])
    );
    assert_eq!(
        outcome!(call(&core, Call::Shellnums(2)), Answer::Shellnums),
        strings(&["8000000004", "8000000005"])
    );

    // The activity group: spring-2026 has one claimable unit and one sold out.
    let claimed_at = now_ms();
    let spring = outcome!(
        call(&core, claim("13800138000", "spring-2026")),
        Answer::Claim
    );
    assert_eq!(spring.result_code, "0000", "{spring:?}");
    assert_eq!(spring.result_message, "success");
    assert_eq!(spring.activity_dto_list, None);
    let products = spring.detail.expect("detail").products;
    let got: Vec<(&str, &str, &str, &str)> = products
        .iter()
        .map(|p| {
            (
                p.activity_id.as_str(),
                p.sub_activity_id.as_str(),
                p.product_uri.as_str(),
                p.activate_type.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("A-SPRING", "U-BASIC", "gms:1001", "0"),
            ("A-SPRING", "U-BASIC", "gms:1002", "1"),
        ]
    );
    for (p, days) in products.iter().zip([365, 30]) {
        let start: i64 = p.limit_start_date.parse().expect("start is ms");
        let end: i64 = p.limit_end_date.parse().expect("end is ms");
        assert!(start >= claimed_at && start <= now_ms(), "{p:?}");
        assert_eq!(end - start, days * DAY_MS, "{p:?}");
    }
    // The same participant again: nothing left to claim.
    let again = outcome!(
        call(&core, claim("13800138000", "spring-2026")),
        Answer::Claim
    );
    assert_eq!(
        again,
        ActivityResponse {
            result_code: "3002".to_owned(),
            result_message: "the participant meets the conditions of no unit of activity A-SPRING"
                .to_owned(),
            detail: None,
            activity_dto_list: Some(vec![ActivityDto {
                id: "A-SPRING".to_owned(),
                name: "春季活动".to_owned(),
                participate_result: false,
                engine_sub_activity_dtos: vec![
                    SubActivityDto {
                        id: "U-BASIC".to_owned(),
                        name: "基础包".to_owned(),
                        participate_result: false,
                        error_code: Some(14005),
                        error_message: Some(
                            "personal claim count exceeded: at most 1 per participant".to_owned()
                        ),
                    },
                    SubActivityDto {
                        id: "U-LIMITED".to_owned(),
                        name: "限量礼包".to_owned(),
                        participate_result: false,
                        error_code: Some(14004),
                        error_message: Some("no stock: this unit has nothing to give".to_owned()),
                    },
                ],
            }]),
        }
    );
    let sold_out = outcome!(
        call(&core, claim("13800138001", "sold-out-2026")),
        Answer::Claim
    );
    assert_eq!(
        sold_out,
        ActivityResponse {
            result_code: "3002".to_owned(),
            result_message: "the participant meets the conditions of no unit of activity A-SOLDOUT"
                .to_owned(),
            detail: None,
            activity_dto_list: Some(vec![ActivityDto {
                id: "A-SOLDOUT".to_owned(),
                name: "售罄活动".to_owned(),
                participate_result: false,
                engine_sub_activity_dtos: vec![SubActivityDto {
                    id: "U-GONE".to_owned(),
                    name: "已领完".to_owned(),
                    participate_result: false,
                    error_code: Some(14004),
                    error_message: Some("no stock: this unit has nothing to give".to_owned()),
                }],
            }]),
        }
    );

    core.shutdown();
}

// ---------------------------------------------------------------------------------------------
// 2. A remote profile: secrets in the keyring only
// ---------------------------------------------------------------------------------------------

#[test]
fn a_remote_profile_keeps_its_secret_and_token_in_the_keyring_only() {
    let mut remote = remote(Region::Domestic);
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));

    let profile = remote.profile("Training", "trainer@example.com");
    save_profile(&core, None, profile.clone(), Some(&remote.app_secret));
    assert_eq!(core.state().profiles.active, SANDBOX);
    assert_eq!(
        keyring_get(&store, "Training", "app-secret").as_deref(),
        Some(remote.app_secret.as_str())
    );
    assert_eq!(keyring_get(&store, "Training", "token"), None);

    // Calls on the remote profile reach the remote platform (its own fresh records).
    let created = outcome!(
        call_on(
            &core,
            "Training",
            Call::CreateEnterprise(EnterpriseRequest {
                crm_customer_id: Some("CRM-R1".to_owned()),
                customer_name: Some("远程培训企业".to_owned()),
                branch_name: None,
                address: None,
            })
        ),
        Answer::Enterprise
    );
    assert_eq!(created.enterprise_global_id, "EG0000000001");
    assert_eq!(
        outcome!(
            call_on(&core, "Training", Call::Shellnums(2)),
            Answer::Shellnums
        ),
        strings(&["8000000001", "8000000002"])
    );
    let remote_enterprises: i64 = remote
        .db()
        .query_row(
            "SELECT count(*) FROM enterprises WHERE crm_customer_id = 'CRM-R1'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(remote_enterprises, 1);
    let scope = run(
        &core,
        license_desk::core::profiles::requests::TestConnection {
            profile: "Training".to_owned(),
        },
    )
    .scope;
    assert_eq!(scope, "auth_order auth_activity");

    // The token is in the keyring; neither it nor the secret is in any file or log line.
    let token = keyring_token(&store, "Training");
    // The Sandbox starts in the background and keeps its secret once started: a call on it
    // waits for that.
    run(
        &core,
        license_desk::core::profiles::requests::TestConnection {
            profile: SANDBOX.to_owned(),
        },
    );
    let sandbox_secret = keyring_get(&store, SANDBOX, "app-secret").expect("sandbox secret");
    let entries = journal(
        &core,
        JournalFilter {
            profile: Some("Training".to_owned()),
            ..JournalFilter::default()
        },
    );
    let ops: Vec<&str> = entries.iter().rev().map(|e| e.operation.name()).collect();
    // TestConnection asks the token endpoint again, even with a valid cached token.
    assert_eq!(
        ops,
        vec!["token", "create_enterprise", "shellnums", "token"]
    );
    let profiles_json =
        std::fs::read_to_string(config_dir(root.path()).join("profiles.json")).expect("profiles");
    assert!(profiles_json.contains("Training"), "{profiles_json}");
    assert!(profiles_json.contains(&remote.app_key), "{profiles_json}");
    assert!(!profiles_json.contains(&remote.app_secret));
    assert!(!profiles_json.contains(&token));
    let mut journal_bytes =
        std::fs::read(data_dir(root.path()).join("journal.sqlite3")).expect("journal.sqlite3");
    let wal = data_dir(root.path()).join("journal.sqlite3-wal");
    if wal.exists() {
        journal_bytes.extend(std::fs::read(&wal).expect("journal wal"));
    }
    assert!(
        contains(&journal_bytes, "CRM-R1"),
        "the journal files hold the calls"
    );
    assert!(!contains(&journal_bytes, &remote.app_secret));
    assert!(!contains(&journal_bytes, &token));
    assert_no_file_holds(root.path(), &[&remote.app_secret, &token, &sandbox_secret]);
    let logged = logged_text();
    assert!(
        logged.contains(r#"path="/v3/api/oauth2/token" status=200"#),
        "the log lines are captured"
    );
    assert!(!logged.contains(&remote.app_secret), "a secret was logged");
    assert!(!logged.contains(&token), "a token was logged");

    // Renamed: the secret moves, the token is dropped, calls work under the new name.
    let mut renamed = profile.clone();
    renamed.name = "Training-2".to_owned();
    save_profile(&core, Some("Training"), renamed.clone(), None);
    assert_eq!(core.state().profiles.get("Training"), None);
    assert_eq!(keyring_get(&store, "Training", "app-secret"), None);
    assert_eq!(keyring_get(&store, "Training", "token"), None);
    assert_eq!(
        keyring_get(&store, "Training-2", "app-secret").as_deref(),
        Some(remote.app_secret.as_str())
    );
    assert_eq!(keyring_get(&store, "Training-2", "token"), None);
    assert_eq!(
        outcome!(
            call_on(&core, "Training-2", Call::Shellnums(1)),
            Answer::Shellnums
        ),
        strings(&["8000000003"])
    );
    assert!(!keyring_token(&store, "Training-2").is_empty());
    assert_eq!(
        core.run(
            CallOn {
                profile: "Training".to_owned(),
                call: Call::Shellnums(1),
            },
            WAIT
        )
        .map_err(|e| e.to_string()),
        Err("no profile named \"Training\"".to_owned())
    );

    // Removed: its secrets are forgotten; the same profile again has no secret.
    let profiles = run(
        &core,
        license_desk::core::profiles::requests::Remove {
            name: "Training-2".to_owned(),
        },
    );
    assert_eq!(profiles, Profiles::default());
    assert_eq!(keyring_get(&store, "Training-2", "app-secret"), None);
    assert_eq!(keyring_get(&store, "Training-2", "token"), None);
    save_profile(&core, None, renamed, None);
    assert_eq!(
        core.run(
            CallOn {
                profile: "Training-2".to_owned(),
                call: Call::Shellnums(1),
            },
            WAIT
        )
        .map_err(|e| e.to_string()),
        Err(CoreError::NoSecret("Training-2".to_owned()).to_string())
    );
    // The Sandbox profile cannot be removed.
    assert_eq!(
        core.run(
            license_desk::core::profiles::requests::Remove {
                name: SANDBOX.to_owned(),
            },
            WAIT
        )
        .map_err(|e| e.to_string()),
        Err("the Sandbox profile cannot be removed".to_owned())
    );

    core.shutdown();
    assert_no_file_holds(root.path(), &[&remote.app_secret, &token, &sandbox_secret]);
    remote.stop();
}

// ---------------------------------------------------------------------------------------------
// 3. Token renewal on a 401
// ---------------------------------------------------------------------------------------------

#[test]
fn an_expired_token_is_renewed_once_and_the_journal_shows_it() {
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    let first = outcome!(
        call(&core, query("CRM", "CRM-DEMO", Some(DefaultFilter::Y))),
        Answer::Customers
    );
    assert_eq!(first.len(), 1);
    let old_token = keyring_token(&store, SANDBOX);

    let expired = sandbox_auth_db(root.path())
        .execute("UPDATE tokens SET expires_at = 0", [])
        .expect("expire the tokens");
    assert!(expired >= 1, "{expired}");
    // The platform trusts a token it verified for a moment (TOKEN_RECHECK) before asking its
    // store again: wait until it refuses the old token.
    let base_url = match core.state().sandbox {
        SandboxState::Ready { base_url } => base_url,
        other => panic!("the Sandbox is not ready: {other:?}"),
    };
    let deadline = Instant::now() + TOKEN_RECHECK * 10;
    while http_status_for_token(&base_url, &old_token) != 401 {
        assert!(Instant::now() < deadline, "the old token is still accepted");
        std::thread::sleep(Duration::from_millis(20));
    }

    let since = now_ms();
    assert_eq!(
        outcome!(
            call(&core, query("CRM", "CRM-DEMO", Some(DefaultFilter::Y))),
            Answer::Customers
        ),
        first
    );
    let mut entries = journal(
        &core,
        JournalFilter {
            since_ms: Some(since),
            ..JournalFilter::default()
        },
    );
    entries.reverse();
    let seen: Vec<(&str, Option<u16>, Option<&str>, u32)> = entries
        .iter()
        .map(|e| {
            (
                e.operation.name(),
                e.http_status,
                e.code.as_deref(),
                e.attempt,
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            ("query_customers", Some(401), Some("401"), 1),
            ("token", Some(200), None, 1),
            ("query_customers", Some(200), Some("0"), 2),
        ]
    );
    let refused: Value =
        serde_json::from_str(entries[0].response.as_deref().expect("401 body")).expect("json");
    assert_eq!(refused["code"], "401", "{refused}");
    assert!(
        entries[0]
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("401: "))
    );
    assert_eq!(entries[1].path, TOKEN_PATH);
    assert_eq!(entries[1].method, "POST");
    assert_eq!(entries[1].nonce, None);
    let token_answer: Value =
        serde_json::from_str(entries[1].response.as_deref().expect("token body")).expect("json");
    assert_eq!(token_answer["access_token"], "***");
    assert_eq!(token_answer["token_type"], "bearer");
    assert_ne!(entries[0].nonce, entries[2].nonce);
    assert!(entries[0].nonce.is_some() && entries[2].nonce.is_some());

    // The new token replaced the old one in the keyring.
    let new_token = keyring_token(&store, SANDBOX);
    assert_ne!(new_token, old_token);
    core.shutdown();
}

// ---------------------------------------------------------------------------------------------
// 4. The client: a write answered 500 is not sent again by itself, nor after 13004
// ---------------------------------------------------------------------------------------------

/// Keeps every attempt and counts the tokens issued.
#[derive(Default)]
struct Recorder {
    records: Mutex<Vec<CallRecord>>,
    tokens: Mutex<u32>,
}

impl Recorder {
    fn records(&self, op: Operation) -> Vec<CallRecord> {
        self.records
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|r| r.operation == op)
            .cloned()
            .collect()
    }
}

impl Observer for Recorder {
    fn record(&self, record: CallRecord) {
        self.records
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(record);
    }

    fn token_issued(&self, _token: &CachedToken) {
        *self.tokens.lock().unwrap_or_else(PoisonError::into_inner) += 1;
    }
}

struct Platform {
    server: Server,
    dir: TempDir,
    client: Client,
    recorder: Arc<Recorder>,
}

impl Platform {
    async fn start() -> Platform {
        logs();
        let dir = tempfile::tempdir().expect("temp dir");
        let server = Server::start(Config::new(
            dir.path(),
            "127.0.0.1:0".parse().expect("addr"),
        ))
        .await
        .expect("platform starts");
        let app = create_app(dir.path(), "client tests", &strings(&["auth_order"])).expect("app");
        let recorder = Arc::new(Recorder::default());
        let mut config = ClientConfig::new(
            &server.base_url(),
            &app.app_key,
            Secret::new(app.app_secret),
        );
        config.backoff = Duration::from_millis(20);
        let observer: Arc<dyn Observer> = recorder.clone();
        let client = Client::new(config, observer).expect("client");
        Platform {
            server,
            dir,
            client,
            recorder,
        }
    }

    fn db_path(&self) -> PathBuf {
        self.dir.path().join("platform.sqlite3")
    }

    fn db(&self) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open(self.db_path()).expect("open");
        conn.busy_timeout(Duration::from_secs(10))
            .expect("busy timeout");
        conn
    }

    /// An enterprise whose default customer holds a re-issuable lock `num`.
    async fn with_lock(&self, num: &str) {
        self.client
            .create_enterprise(&EnterpriseRequest {
                crm_customer_id: Some("CRM-C".to_owned()),
                customer_name: Some("客户端测试企业".to_owned()),
                branch_name: None,
                address: None,
            })
            .await
            .expect("enterprise");
        let batch: BatchOrderRequest = serde_json::from_value(json!({
            "channelCode": "CRM", "channelOrderId": "C-0001", "syncMode": "sync",
            "orderList": [{
                "sequence": 1, "channelCustomerId": "CRM-C",
                "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                "assets": [{"assetNos": [num], "products": [{"productUri": "gms:1"}]}]
            }]
        }))
        .expect("batch");
        self.client.batch_order(&batch).await.expect("order");
    }

    fn locked(&self, num: &str) -> bool {
        self.db()
            .query_row(
                "SELECT locked FROM assets WHERE asset_num = ?1",
                [num],
                |r| r.get(0),
            )
            .expect("asset")
    }

    fn count(&self, sql: &str) -> i64 {
        self.db().query_row(sql, [], |r| r.get(0)).expect("count")
    }
}

fn lock_request(nums: &[&str], operator: Option<&str>) -> LockRequest {
    LockRequest {
        asset_nums: strings(nums),
        operator_identity: operator.map(str::to_owned),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lock_answered_500_is_not_sent_again_by_itself() {
    let p = Platform::start().await;
    p.with_lock("8100000001").await;
    p.db()
        .execute_batch(
            "CREATE TRIGGER f BEFORE INSERT ON lock_events BEGIN SELECT RAISE(ABORT, 'injected'); END",
        )
        .expect("trigger");

    // The platform answered: a write is not sent again on a production platform's word, which
    // promises nothing about what a 500 left behind.
    let err = p
        .client
        .lock(&lock_request(&["8100000001"], Some("admin@example.com")))
        .await
        .expect_err("refused");
    assert_eq!(err.code(), Some("500"));
    let locks = p.recorder.records(Operation::Lock);
    assert_eq!(locks.len(), 1, "{locks:#?}");
    let first = &locks[0];
    assert_eq!(
        (
            first.attempt,
            first.http_status,
            first.code.as_deref(),
            first.error.as_deref()
        ),
        (
            1,
            Some(299),
            Some("500"),
            Some("500: system exception, nothing was written; retry")
        )
    );
    let body: Value = serde_json::from_str(first.response.as_deref().expect("body")).expect("json");
    assert_eq!(
        body,
        json!({"code": "500", "message": "system exception, nothing was written; retry",
               "cause": "storage error: injected"})
    );
    assert_eq!(first.path, "/order/api/order/v1/asset/lock");
    assert!(!p.locked("8100000001"));

    // Sent again by the user, with a fresh nonce, it is done once.
    p.db().execute_batch("DROP TRIGGER f").expect("drop");
    let results = p
        .client
        .lock(&lock_request(&["8100000001"], Some("admin@example.com")))
        .await
        .expect("locked");
    assert_eq!(
        results,
        lock_results(&[("8100000001", LockStatus::Success)])
    );
    let locks = p.recorder.records(Operation::Lock);
    assert_eq!(locks.len(), 2);
    assert_ne!(locks[0].nonce, locks[1].nonce);
    assert_ne!(locks[0].call_id, locks[1].call_id);
    assert!(p.locked("8100000001"));
    assert_eq!(
        p.count("SELECT count(*) FROM lock_events WHERE operator = 'admin@example.com'"),
        1
    );
    p.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_never_retries_13004_and_gives_up_on_500_after_its_retries() {
    let p = Platform::start().await;
    p.with_lock("8100000002").await;

    // No operator: 13004 after exactly one attempt.
    let err = p
        .client
        .lock(&lock_request(&["8100000002"], None))
        .await
        .expect_err("refused");
    assert_eq!(
        err,
        ApiError::Platform {
            http_status: 299,
            code: "13004".to_owned(),
            message: "operatorIdentity: required".to_owned(),
            cause: Some(
                "parameter validation failed, 1 problem: operatorIdentity: required".to_owned()
            ),
        }
    );
    assert!(!err.retry_makes_sense());
    let locks = p.recorder.records(Operation::Lock);
    assert_eq!(locks.len(), 1, "{locks:#?}");
    assert_eq!(locks[0].code.as_deref(), Some("13004"));
    assert!(!p.locked("8100000002"));

    // A 500: the platform's answer after one attempt; a write is not sent again by itself.
    p.db()
        .execute_batch(
            "CREATE TRIGGER f BEFORE INSERT ON lock_events BEGIN SELECT RAISE(ABORT, 'injected'); END",
        )
        .expect("trigger");
    let err = p
        .client
        .lock(&lock_request(&["8100000002"], Some("admin@example.com")))
        .await
        .expect_err("still failing");
    assert_eq!(
        err,
        ApiError::Platform {
            http_status: 299,
            code: "500".to_owned(),
            message: "system exception, nothing was written; retry".to_owned(),
            cause: Some("storage error: injected".to_owned()),
        }
    );
    assert!(err.retry_makes_sense());
    let attempts: Vec<(u32, Option<String>)> = p.recorder.records(Operation::Lock)[1..]
        .iter()
        .map(|r| (r.attempt, r.code.clone()))
        .collect();
    assert_eq!(attempts, vec![(1, Some("500".to_owned()))]);
    assert!(!p.locked("8100000002"));
    assert_eq!(p.count("SELECT count(*) FROM lock_events"), 0);
    p.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_does_not_retry_shellnums_after_a_500() {
    let p = Platform::start().await;
    p.db()
        .execute_batch(
            "CREATE TRIGGER g BEFORE UPDATE ON counters WHEN OLD.name = 'shellnum' \
             BEGIN SELECT RAISE(ABORT, 'injected'); END",
        )
        .expect("trigger");
    let err = p.client.shellnums(3).await.expect_err("a 500");
    assert_eq!(
        err,
        ApiError::Platform {
            http_status: 299,
            code: "500".to_owned(),
            message: "system exception, nothing was written; retry".to_owned(),
            cause: Some("storage error: injected".to_owned()),
        }
    );
    // Retrying would make sense for the error, but handing out numbers is not idempotent.
    assert!(err.retry_makes_sense());
    let records = p.recorder.records(Operation::Shellnums);
    assert_eq!(records.len(), 1, "{records:#?}");
    assert_eq!(
        (records[0].attempt, records[0].code.as_deref()),
        (1, Some("500"))
    );

    // Nothing was handed out: the next numbers start at 1.
    p.db().execute_batch("DROP TRIGGER g").expect("drop");
    assert_eq!(
        p.client.shellnums(3).await.expect("numbers"),
        strings(&["8000000001", "8000000002", "8000000003"])
    );
    assert_eq!(p.recorder.records(Operation::Shellnums).len(), 2);
    p.server.shutdown().await;
}

// ---------------------------------------------------------------------------------------------
// 5. A late answer is dropped by its id
// ---------------------------------------------------------------------------------------------

#[test]
fn a_late_answer_is_dropped_by_its_id() {
    let root = tempfile::tempdir().expect("temp dir");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    let repaints = Arc::new(Mutex::new(0u32));
    {
        let repaints = Arc::clone(&repaints);
        core.set_repaint(move || *repaints.lock().unwrap_or_else(PoisonError::into_inner) += 1);
    }

    // A screen asks, then asks again for something else before the first answer is taken.
    let mut latest = Awaited::default();
    assert!(!latest.is_waiting());
    let first = core.ask(on_active(&core, query("CRM", "CRM-DEMO", None)));
    let first_id = first.id();
    latest.start(first);
    let second = core.ask(on_active(
        &core,
        query("SHOP", "S-0001", Some(DefaultFilter::Y)),
    ));
    assert_ne!(first_id, second.id());
    latest.start(second);
    assert!(latest.is_waiting());

    // The screen takes only what answers its latest request: the second's one customer, not
    // the first's three.
    let deadline = Instant::now() + WAIT;
    let shown = loop {
        if let Some(reply) = latest.take() {
            break reply.expect("answer");
        }
        assert!(Instant::now() < deadline, "no answer");
        std::thread::yield_now();
    };
    assert!(!latest.is_waiting());
    assert_eq!(
        outcome!(shown, Answer::Customers),
        vec![customer(
            "CU0000000001",
            "CRM",
            "CRM-DEMO",
            "EG0000000001",
            DEMO_ENTERPRISE,
            true
        )]
    );
    // Taken once; a left screen takes none.
    assert!(latest.take().is_none());
    latest.start(core.ask(on_active(&core, Call::Shellnums(1))));
    latest.cancel();
    assert!(!latest.is_waiting());
    assert!(latest.take().is_none());
    assert!(*repaints.lock().unwrap_or_else(PoisonError::into_inner) >= 1);
    core.shutdown();
}

/// A platform call is listed as running from the moment it is asked (the status bar shows it
/// with its Cancel) until it is answered; a request that makes no call is never listed.
#[test]
fn a_call_is_listed_as_running_until_it_is_answered() {
    let root = tempfile::tempdir().expect("temp dir");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    let pending = core.ask(license_desk::core::calls::requests::Shellnums {
        profile: SANDBOX.to_owned(),
        size: 2,
    });
    let listed = core.state().calls;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].id, pending.id());
    assert_eq!(listed[0].profile, SANDBOX);
    assert_eq!(
        listed[0].operation,
        license_desk::core::Operation::Shellnums
    );
    let journal = core.ask(license_desk::core::journal::requests::Query(
        JournalFilter::default(),
    ));
    assert_eq!(core.state().calls.len(), 1);
    assert_eq!(pending.wait(WAIT).expect("numbers").len(), 2);
    journal.wait(WAIT).expect("journal");
    wait_state(&core, "the call unlisted", WAIT, |s| s.calls.is_empty());
    core.shutdown();
}

// ---------------------------------------------------------------------------------------------
// 6. No keyring: memory only, and said so
// ---------------------------------------------------------------------------------------------

#[test]
fn without_a_keyring_the_core_says_memory_only_and_the_sandbox_still_works() {
    let root = tempfile::tempdir().expect("temp dir");
    let core = start_core(root.path(), KeyringChoice::MemoryOnly);
    let state = wait_state(&core, "the keyring state", WAIT, |s| s.keyring.is_some());
    assert_eq!(
        state.keyring,
        Some(KeyringState::MemoryOnly {
            reason: "memory only, as configured".to_owned()
        })
    );
    assert_eq!(
        outcome!(call(&core, Call::Shellnums(2)), Answer::Shellnums),
        strings(&["8000000001", "8000000002"])
    );
    assert_eq!(
        outcome!(
            call(
                &core,
                Call::Lock {
                    nums: strings(&["8900000003"]),
                    operator: None,
                }
            ),
            Answer::Locks
        ),
        lock_results(&[("8900000003", LockStatus::Success)])
    );
    assert!(matches!(core.state().sandbox, SandboxState::Ready { .. }));
    assert!(matches!(
        core.state().keyring,
        Some(KeyringState::MemoryOnly { .. })
    ));
    core.shutdown();
}

#[test]
fn a_keyring_that_fails_during_the_session_is_reported_as_memory_only() {
    let mut remote = remote(Region::Domestic);
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    // The Sandbox is up and has used the keyring.
    assert_eq!(
        outcome!(call(&core, Call::Shellnums(1)), Answer::Shellnums),
        strings(&["8000000001"])
    );
    assert!(
        core.state()
            .keyring
            .as_ref()
            .is_some_and(KeyringState::is_available)
    );

    // The keyring refuses the next write (e.g. it was locked meanwhile).
    let entry = store
        .build(KEYRING_SERVICE, "Training/app-secret", None)
        .expect("entry");
    let cred: &keyring_core::mock::Cred = entry.as_any().downcast_ref().expect("mock cred");
    cred.set_error(keyring_core::Error::NoStorageAccess(Box::new(
        std::io::Error::other("the keyring is locked"),
    )));
    save_profile(
        &core,
        None,
        remote.profile("Training", "trainer@example.com"),
        Some(&remote.app_secret),
    );

    // The secret is kept for the session, and the UI can show that it is not kept beyond it.
    assert_eq!(
        outcome!(
            call_on(&core, "Training", Call::Shellnums(1)),
            Answer::Shellnums
        ),
        strings(&["8000000001"])
    );
    // The write did fail: the keyring holds no secret for the profile, and a warning was logged.
    assert_eq!(keyring_get(&store, "Training", "app-secret"), None);
    assert!(
        logged_text()
            .contains("the OS keyring failed; secrets are kept in memory for this session"),
        "no warning was logged"
    );
    let state = wait_state(
        &core,
        "the keyring state after a failure",
        Duration::from_secs(5),
        |s| matches!(s.keyring, Some(KeyringState::MemoryOnly { .. })),
    );
    assert!(
        matches!(&state.keyring, Some(KeyringState::MemoryOnly { reason }) if reason.contains("the keyring is locked")),
        "{state:?}"
    );
    core.shutdown();
    remote.stop();
}

// ---------------------------------------------------------------------------------------------
// 7. The journal: filters and exports
// ---------------------------------------------------------------------------------------------

#[test]
fn the_journal_filters_by_operation_and_code_and_exports_without_secrets() {
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    let start = now_ms();
    call(&core, Call::Shellnums(2));
    call(&core, Call::Shellnums(1));
    call(&core, query("CRM", "CRM-DEMO", None));
    let refused = core.run(
        on_active(
            &core,
            Call::Bind(BindRequest {
                channel_code: Some("SHOP".to_owned()),
                channel_customer_id: Some("S-0009".to_owned()),
                customer_name: Some("缺少企业名".to_owned()),
                branch_name: None,
                enterprise_name: None,
                password_mobile: Some("12345".to_owned()),
            }),
        ),
        WAIT,
    );
    let Err(CoreError::Api(ApiError::Platform { code, message, .. })) = refused else {
        panic!("expected a 13004, got {refused:?}");
    };
    assert_eq!(code, "13004");
    assert_eq!(message, "enterpriseName: required");
    call(
        &core,
        Call::Lock {
            nums: strings(&["8900000001"]),
            operator: None,
        },
    );

    let all = journal(&core, JournalFilter::default());
    let ops: Vec<(&str, Option<&str>)> = all
        .iter()
        .rev()
        .map(|e| (e.operation.name(), e.code.as_deref()))
        .collect();
    assert_eq!(
        ops,
        vec![
            ("token", None),
            ("shellnums", Some("0")),
            ("shellnums", Some("0")),
            ("query_customers", Some("0")),
            ("bind", Some("13004")),
            ("lock", Some("0")),
        ]
    );
    assert!(all.iter().all(|e| e.profile == SANDBOX
        && e.at >= start
        && e.at <= now_ms()
        && e.attempt == 1
        && e.duration_ms >= 0));
    assert!(all.windows(2).all(|w| w[0].id > w[1].id), "newest first");

    // By operation: the two shellnums calls, newest first, with their bodies.
    let shellnums = journal(
        &core,
        JournalFilter {
            operation: Some(license_desk::core::Operation::Shellnums),
            ..JournalFilter::default()
        },
    );
    assert_eq!(shellnums.len(), 2);
    assert_eq!(shellnums[0].request.as_deref(), Some(r#"{"size":1}"#));
    assert_eq!(shellnums[1].request.as_deref(), Some(r#"{"size":2}"#));
    for e in &shellnums {
        assert_eq!(
            (
                e.method.as_str(),
                e.path.as_str(),
                e.http_status,
                e.error.as_deref()
            ),
            ("POST", "/order/api/order/v1/shellnums", Some(200), None)
        );
        assert!(e.nonce.as_ref().is_some_and(|n| !n.is_empty()));
    }
    let answer: Value =
        serde_json::from_str(shellnums[1].response.as_deref().expect("body")).expect("json");
    assert_eq!(
        answer,
        json!({"code": 0, "message": "success", "data": ["8000000001", "8000000002"]})
    );

    // By code: the one refusal, with the platform's words.
    let refusals = journal(
        &core,
        JournalFilter {
            code: Some("13004".to_owned()),
            ..JournalFilter::default()
        },
    );
    assert_eq!(refusals.len(), 1);
    let r = &refusals[0];
    assert_eq!(
        (r.operation.name(), r.http_status, r.error.as_deref()),
        ("bind", Some(299), Some("13004: enterpriseName: required"))
    );
    let body: Value = serde_json::from_str(r.response.as_deref().expect("body")).expect("json");
    assert_eq!(body["code"], "13004");
    assert_eq!(body["message"], "enterpriseName: required");
    let lock = journal(
        &core,
        JournalFilter {
            operation: Some(license_desk::core::Operation::Lock),
            code: Some("0".to_owned()),
            ..JournalFilter::default()
        },
    );
    assert_eq!(lock.len(), 1);
    let sent: Value =
        serde_json::from_str(lock[0].request.as_deref().expect("body")).expect("json");
    assert_eq!(
        sent,
        json!({"assetNums": ["8900000001"], "operatorIdentity": "sandbox-admin"})
    );
    // Both conditions must hold; a limit keeps the newest.
    assert_eq!(
        journal(
            &core,
            JournalFilter {
                operation: Some(license_desk::core::Operation::Bind),
                code: Some("0".to_owned()),
                ..JournalFilter::default()
            }
        ),
        vec![]
    );
    assert_eq!(
        journal(
            &core,
            JournalFilter {
                limit: 2,
                ..JournalFilter::default()
            }
        ),
        all[..2].to_vec()
    );
    assert_eq!(
        journal(
            &core,
            JournalFilter {
                profile: Some("Elsewhere".to_owned()),
                ..JournalFilter::default()
            }
        ),
        vec![]
    );
    assert_eq!(
        journal(
            &core,
            JournalFilter {
                until_ms: Some(start - 1),
                ..JournalFilter::default()
            }
        ),
        vec![]
    );
    // The token answer is kept without the token.
    let token = journal(
        &core,
        JournalFilter {
            operation: Some(license_desk::core::Operation::Token),
            ..JournalFilter::default()
        },
    );
    assert_eq!(token.len(), 1);
    let token_answer: Value =
        serde_json::from_str(token[0].response.as_deref().expect("body")).expect("json");
    assert_eq!(token_answer["access_token"], "***");
    assert_eq!(token_answer["scope"], "auth_order auth_activity");

    // Exports.
    let out = tempfile::tempdir().expect("out dir");
    let csv_path = out.path().join("journal.csv");
    assert_eq!(
        run(
            &core,
            license_desk::core::journal::requests::Export {
                filter: JournalFilter::default(),
                path: csv_path.clone(),
                format: ExportFormat::Csv,
            }
        ),
        license_desk::core::journal::requests::Exported {
            path: csv_path.clone(),
            count: 6
        }
    );
    let mut reader = csv::Reader::from_path(&csv_path).expect("csv");
    let headers: Vec<String> = reader
        .headers()
        .expect("headers")
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        headers,
        strings(&[
            "id",
            "at",
            "profile",
            "operation",
            "method",
            "path",
            "nonce",
            "httpStatus",
            "code",
            "durationMs",
            "attempt",
            "request",
            "response",
            "error",
            "callId",
            "refusal",
            "state",
            "failure",
        ])
    );
    let rows: Vec<csv::StringRecord> = reader.records().collect::<Result<_, _>>().expect("rows");
    assert_eq!(rows.len(), 6);
    let csv_ops: Vec<&str> = rows.iter().map(|r| &r[3]).collect();
    assert_eq!(
        csv_ops,
        vec![
            "lock",
            "bind",
            "query_customers",
            "shellnums",
            "shellnums",
            "token"
        ]
    );
    assert_eq!(&rows[1][8], "13004");
    assert_eq!(&rows[1][7], "299");
    assert_eq!(rows[0][0].parse::<i64>().expect("id"), all[0].id);

    let json_path = out.path().join("journal.json");
    assert_eq!(
        run(
            &core,
            license_desk::core::journal::requests::Export {
                filter: JournalFilter {
                    operation: Some(license_desk::core::Operation::Shellnums),
                    ..JournalFilter::default()
                },
                path: json_path.clone(),
                format: ExportFormat::Json,
            }
        ),
        license_desk::core::journal::requests::Exported {
            path: json_path.clone(),
            count: 2
        }
    );
    let exported: Value =
        serde_json::from_slice(&std::fs::read(&json_path).expect("json file")).expect("json");
    let exported = exported.as_array().expect("an array");
    assert_eq!(exported.len(), 2);
    assert_eq!(exported[0]["operation"], "shellnums");
    assert_eq!(exported[0]["request"], r#"{"size":1}"#);
    assert_eq!(exported[0]["httpStatus"], 200);
    assert_eq!(exported[0]["id"], shellnums[0].id);
    assert_eq!(exported[1]["nonce"], json!(shellnums[1].nonce));

    // An export to a place that cannot be written says so.
    let bad = out.path().join("no-such-dir/journal.csv");
    let failed = core.run(
        license_desk::core::journal::requests::Export {
            filter: JournalFilter::default(),
            path: bad,
            format: ExportFormat::Csv,
        },
        WAIT,
    );
    assert!(
        matches!(&failed, Err(e @ CoreError::Journal(_)) if e.to_string().starts_with("cannot write ")),
        "{failed:?}"
    );

    // No secret in the exports, the journal or any other file.
    let secret = keyring_get(&store, SANDBOX, "app-secret").expect("sandbox secret");
    let token = keyring_token(&store, SANDBOX);
    assert_no_file_holds(out.path(), &[&secret, &token]);
    assert_no_file_holds(root.path(), &[&secret, &token]);
    core.shutdown();
    assert_no_file_holds(root.path(), &[&secret, &token]);
}

// ---------------------------------------------------------------------------------------------
// 8. Drafts
// ---------------------------------------------------------------------------------------------

fn new_draft(core: &Core, name: &str, body: &str, hints: &str) -> i64 {
    let (name, body, hints) = (name.to_owned(), body.to_owned(), hints.to_owned());
    run(core, drafts::New { name, body, hints })
}

fn list_drafts(core: &Core) -> Vec<DraftSummary> {
    run(core, drafts::List)
}

fn load_draft(core: &Core, id: i64) -> Draft {
    run(core, drafts::Load { id }).draft
}

/// A JSON file is stored as a draft while it is parsed: one that opens is kept as its text
/// (past a byte-order mark), whether it opens by one typed parse or node by node; one that
/// does not open (not JSON, not an object, not UTF-8) is refused and leaves no draft.
#[test]
fn an_imported_file_is_kept_as_its_text_and_one_that_does_not_open_leaves_no_draft() {
    let root = tempfile::tempdir().expect("temp dir");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    let import = |name: &str, bytes: &[u8]| {
        let path = root.path().join(format!("{name}.json"));
        std::fs::write(&path, bytes).expect("file");
        core.run(
            files::ImportOrders {
                path,
                progress: Progress::default(),
            },
            WAIT,
        )
    };
    let fitting = r#"{"channelCode":"SHOP","orderList":[{"sequence":1,"customerName":"甲"}]}"#;
    let unknown = r#"{"channelCode":"CRM","orderList":[{"sequence":2,"remark":"kept"}]}"#;
    for (name, text, code) in [("fitting", fitting, "SHOP"), ("unknown", unknown, "CRM")] {
        let bytes = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
        let Ok(Finished::Done(imported)) = import(name, &bytes) else {
            panic!("{name} was not imported");
        };
        let files::Imported {
            draft_id, batch, ..
        } = *imported;
        assert_eq!(batch.head().channel_code.as_deref(), Some(code));
        let draft = load_draft(&core, draft_id);
        assert_eq!((draft.name.as_str(), draft.body.as_str()), (name, text));
    }
    for (name, bytes) in [
        ("broken", b"{\n  \"channelCode\": SHOP\n}".as_slice()),
        ("list", b"[1, 2]".as_slice()),
        ("latin", b"{\"customerName\": \"caf\xE9\"}".as_slice()),
    ] {
        match import(name, bytes) {
            Err(CoreError::File(why)) => {
                assert!(why.to_string().contains(&format!("{name}.json: ")), "{why}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    let names: Vec<String> = list_drafts(&core).into_iter().map(|d| d.name).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&"fitting".to_owned()) && names.contains(&"unknown".to_owned()));
}

#[test]
fn drafts_are_saved_renamed_deleted_and_survive_a_restart() {
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    assert_eq!(list_drafts(&core), vec![]);

    let body = r#"{"channelCode":"CRM","channelOrderId":"D-1","orderList":[]}"#;
    let before = now_ms();
    let a = new_draft(&core, "三月订单", body, "{}");
    let b = new_draft(&core, "scratch", "{", r#"{"tab":1}"#);
    assert_ne!(a, b);
    let loaded = load_draft(&core, a);
    assert_eq!(
        (
            loaded.id,
            loaded.name.as_str(),
            loaded.body.as_str(),
            loaded.hints.as_str()
        ),
        (a, "三月订单", body, "{}")
    );
    assert!(loaded.updated_at >= before && loaded.updated_at <= now_ms());
    // The batch comes opened (off the window's thread), or with where and why it does not.
    match run(&core, drafts::Load { id: a }).batch {
        StoredBatch::Opened(batch) => {
            assert_eq!(batch.head().channel_order_id.as_deref(), Some("D-1"))
        }
        other => panic!("{other:?}"),
    }
    match run(&core, drafts::Load { id: b }).batch {
        StoredBatch::Broken(e) => assert_eq!((e.line, e.column), (1, 1), "{}", e.what),
        other => panic!("{other:?}"),
    }

    // Every change is saved; a body that is not valid JSON yet is kept as typed. Drafts are
    // listed by the millisecond of their last change: the edit comes a millisecond after `b`.
    let b_saved = now_ms();
    while now_ms() <= b_saved {
        std::thread::yield_now();
    }
    let edited = r#"{"channelCode":"CRM","channelOrderId":"D-1","orderList":[{"sequence":1"#;
    run(
        &core,
        drafts::Save {
            id: a,
            body: edited.to_owned(),
            hints: r#"{"selected":0}"#.to_owned(),
        },
    );
    run(
        &core,
        drafts::Rename {
            id: a,
            name: "三月订单（北京）".to_owned(),
        },
    );
    let loaded = load_draft(&core, a);
    assert_eq!(
        (
            loaded.name.as_str(),
            loaded.body.as_str(),
            loaded.hints.as_str()
        ),
        ("三月订单（北京）", edited, r#"{"selected":0}"#)
    );
    // Newest first.
    let listed = list_drafts(&core);
    assert_eq!(
        listed
            .iter()
            .map(|d| (d.id, d.name.as_str()))
            .collect::<Vec<_>>(),
        vec![(a, "三月订单（北京）"), (b, "scratch")]
    );
    assert_eq!(listed[0].updated_at, loaded.updated_at);

    // Deleted: the answer is the list without it.
    let c = new_draft(&core, "to delete", "{}", "{}");
    let after_delete = run(&core, drafts::Delete { id: c });
    assert_eq!(after_delete, listed);
    assert_eq!(
        core.run(drafts::Load { id: c }, WAIT)
            .map_err(|e| e.to_string()),
        Err(format!("no draft {c}"))
    );
    core.shutdown();

    // A new session on the same dirs finds them as they were.
    let core = start_core(root.path(), KeyringChoice::Store(store));
    assert_eq!(list_drafts(&core), listed);
    assert_eq!(load_draft(&core, a), loaded);
    assert_eq!(load_draft(&core, b).body, "{");
    core.shutdown();
}

#[test]
fn saving_a_draft_that_no_longer_exists_is_an_error_not_a_silent_loss() {
    let root = tempfile::tempdir().expect("temp dir");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    let id = new_draft(&core, "gone", "{}", "{}");
    run(&core, drafts::Delete { id });
    let saved = core.run(
        drafts::Save {
            id,
            body: r#"{"typed":"text"}"#.to_owned(),
            hints: "{}".to_owned(),
        },
        WAIT,
    );
    assert!(
        matches!(&saved, Err(e @ CoreError::Drafts(_)) if e.to_string().contains(&id.to_string())),
        "saving into deleted draft {id} answered {saved:?}: what was typed is lost silently"
    );
    let renamed = core.run(
        drafts::Rename {
            id,
            name: "x".to_owned(),
        },
        WAIT,
    );
    assert!(
        matches!(&renamed, Err(e @ CoreError::Drafts(_)) if e.to_string().contains(&id.to_string())),
        "renaming deleted draft {id} answered {renamed:?}"
    );
    core.shutdown();
}

// ---------------------------------------------------------------------------------------------
// 9. Profiles persist across a restart
// ---------------------------------------------------------------------------------------------

#[test]
fn profiles_and_the_active_profile_persist_across_a_restart() {
    // A Singapore platform: its numbers start with 6, the Sandbox's with 8.
    let mut remote = remote(Region::Singapore);
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    let training = remote.profile("Training SG", "trainer@example.com");
    save_profile(&core, None, training.clone(), Some(&remote.app_secret));
    let sandbox = sandbox_profile_with_operator("desk@example.com");
    save_profile(&core, Some(SANDBOX), sandbox.clone(), None);
    let profiles = run(
        &core,
        license_desk::core::profiles::requests::Activate {
            name: "Training SG".to_owned(),
        },
    );
    let expected = Profiles {
        active: "Training SG".to_owned(),
        profiles: vec![sandbox, training],
    };
    assert_eq!(profiles, expected);
    assert_eq!(
        core.run(
            license_desk::core::profiles::requests::Activate {
                name: "Nowhere".to_owned(),
            },
            WAIT
        )
        .map_err(|e| e.to_string()),
        Err("no profile named \"Nowhere\"".to_owned())
    );
    // Commands without a profile go to the active one.
    assert_eq!(
        outcome!(call(&core, Call::Shellnums(1)), Answer::Shellnums),
        strings(&["6000000001"])
    );
    let token = keyring_token(&store, "Training SG");
    core.shutdown();

    let on_disk: Profiles = serde_json::from_slice(
        &std::fs::read(config_dir(root.path()).join("profiles.json")).expect("profiles.json"),
    )
    .expect("a profiles file");
    assert_eq!(on_disk, expected);

    // A new session: the same profiles, the same active one, the secret and the token from the
    // keyring (no new token is asked for).
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    assert_eq!(core.state().profiles, expected);
    let since = now_ms();
    assert_eq!(
        outcome!(call(&core, Call::Shellnums(1)), Answer::Shellnums),
        strings(&["6000000002"])
    );
    let entries = journal(
        &core,
        JournalFilter {
            since_ms: Some(since),
            ..JournalFilter::default()
        },
    );
    let ops: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e.profile.as_str(), e.operation.name()))
        .collect();
    assert_eq!(ops, vec![("Training SG", "shellnums")]);
    assert_eq!(keyring_token(&store, "Training SG"), token);
    assert_no_file_holds(root.path(), &[&remote.app_secret, &token]);
    core.shutdown();
    remote.stop();
}

/// A call whose token cannot be had is journaled as the call the user asked for, with the
/// token's failure as its cause, beside the token's own row; both are failures.
#[test]
fn a_call_that_gets_no_token_is_journaled_as_itself() {
    let mut remote = remote(Region::Domestic);
    let root = tempfile::tempdir().expect("temp dir");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    let profile = remote.profile("Gone", "ops@example.com");
    remote.stop();
    save_profile(&core, None, profile, Some(&remote.app_secret));
    let listed = core.run(
        CallOn {
            profile: "Gone".to_owned(),
            call: Call::Assets {
                enterprise_global_id: "EG0000000001".to_owned(),
                extend_code: None,
            },
        },
        WAIT,
    );
    assert!(
        matches!(&listed, Err(CoreError::Api(ApiError::NotSent(_)))),
        "{listed:?}"
    );
    let failures = journal(
        &core,
        JournalFilter {
            profile: Some("Gone".to_owned()),
            failures_only: true,
            ..JournalFilter::default()
        },
    );
    let rows: Vec<(&str, bool)> = failures
        .iter()
        .map(|e| {
            let cause = e
                .error
                .as_deref()
                .is_some_and(|m| m.starts_with("no token: "));
            (e.operation.name(), cause)
        })
        .collect();
    // The token request is retried as a read is: four attempts, then the call's own row.
    assert_eq!(
        rows,
        vec![
            ("assets", true),
            ("token", false),
            ("token", false),
            ("token", false),
            ("token", false)
        ]
    );
    assert!(failures.iter().all(JournalEntry::failed));
    core.shutdown();
}

// ---------------------------------------------------------------------------------------------
// 10. Test connection asks the platform
// ---------------------------------------------------------------------------------------------

#[test]
fn test_connection_reports_a_platform_that_stopped_answering() {
    let mut remote = remote(Region::Domestic);
    let root = tempfile::tempdir().expect("temp dir");
    let core = start_core(root.path(), KeyringChoice::Store(mock_store()));
    save_profile(
        &core,
        None,
        remote.profile("Training", "trainer@example.com"),
        Some(&remote.app_secret),
    );
    assert_eq!(
        outcome!(
            call_on(&core, "Training", Call::Shellnums(1)),
            Answer::Shellnums
        ),
        strings(&["8000000001"])
    );
    remote.stop();

    // The platform is gone: a connection test must not answer from the cached token.
    let tested = core.run(
        license_desk::core::profiles::requests::TestConnection {
            profile: "Training".to_owned(),
        },
        WAIT,
    );
    assert!(
        matches!(&tested, Err(CoreError::Api(ApiError::NotSent(_)))),
        "the platform is stopped, yet the connection test answered {tested:?}"
    );
    // A call says so too.
    let called = core.run(
        CallOn {
            profile: "Training".to_owned(),
            call: Call::Shellnums(1),
        },
        WAIT,
    );
    // ... without the URL (its query holds the call's g_nonce), and the write as not sent.
    let Err(CoreError::Api(ApiError::NotSent(why))) = &called else {
        panic!("{called:?}");
    };
    assert!(why.contains("Connection refused"), "{why}");
    assert!(!why.contains("g_nonce") && !why.contains("http"), "{why}");
    let writes = run(
        &core,
        license_desk::core::journal::requests::Writes {
            profile: Some("Training".to_owned()),
            state: None,
            limit: 0,
        },
    );
    let states: Vec<(&str, WriteState, u32)> = writes
        .iter()
        .map(|w| (w.operation.name(), w.state, w.attempts))
        .collect();
    // Refused connections are sent again (nothing left the machine), then given up.
    assert_eq!(
        states,
        vec![
            ("shellnums", WriteState::NotSent, 4),
            ("shellnums", WriteState::Done, 1)
        ]
    );
    core.shutdown();
}

// ---------------------------------------------------------------------------------------------
// Send later
// ---------------------------------------------------------------------------------------------

/// A batch whose platform cannot be reached is kept to send later: the queue survives a
/// restart, stays waiting while the platform is away (nothing left), and sends the batch once
/// when it answers again; asked again, it sends nothing more.
#[test]
fn a_queued_batch_survives_a_restart_and_is_sent_once_when_the_platform_answers() {
    let remote = remote(Region::Domestic);
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    let profile = remote.profile("Team", "ops@example.com");
    save_profile(&core, None, profile.clone(), Some(&remote.app_secret));
    let enterprise = EnterpriseRequest {
        crm_customer_id: Some("CRM-Q".to_owned()),
        customer_name: Some("稍后发送测试企业".to_owned()),
        branch_name: None,
        address: None,
    };
    call_on(&core, "Team", Call::CreateEnterprise(enterprise));

    // The platform goes away: the profile now names a port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let away_base = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let mut away = profile.clone();
    away.endpoint = Endpoint::Remote {
        base_url: away_base.clone(),
        token_url: format!("{away_base}{TOKEN_PATH}"),
        app_key: remote.app_key.clone(),
        ca_file: None,
    };
    save_profile(&core, Some("Team"), away, None);
    let batch: BatchOrderRequest = serde_json::from_value(json!({
        "channelCode": "CRM", "channelOrderId": "LATER-1", "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": "CRM-Q",
            "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
            "assets": [{"assetNos": ["8100000901"], "products": [{"productUri": "gms:1"}]}]}]
    }))
    .expect("batch");
    let sent = core.run(
        CallOn {
            profile: "Team".to_owned(),
            call: Call::BatchOrder(batch.clone()),
        },
        WAIT,
    );
    assert!(
        matches!(sent, Err(CoreError::Api(ApiError::NotSent(_)))),
        "{sent:?}"
    );
    let queued = run(
        &core,
        queue::Add {
            profile: "Team".to_owned(),
            call: Call::BatchOrder(batch),
        },
    );
    assert_eq!(queued.len(), 1);
    assert_eq!(queued[0].channel_order_id.as_deref(), Some("LATER-1"));
    core.shutdown();

    // After a restart it is still there; while the platform is away it stays waiting.
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    let states = |entries: &[license_desk::core::queue::QueuedEntry]| -> Vec<QueueState> {
        entries.iter().map(|e| e.state).collect()
    };
    let waiting = run(&core, queue::SendWaiting);
    assert_eq!(states(&waiting), vec![QueueState::Waiting]);
    assert!(
        waiting[0]
            .detail
            .as_deref()
            .is_some_and(|d| d.starts_with("not sent: ")),
        "{waiting:?}"
    );
    let orders = || -> i64 {
        remote
            .db()
            .query_row("SELECT count(*) FROM license_orders", [], |r| r.get(0))
            .expect("count")
    };
    assert_eq!(orders(), 0);

    // Back: sent once, to its own profile; asked again, nothing more goes.
    save_profile(&core, Some("Team"), profile, None);
    let done = run(&core, queue::SendWaiting);
    assert_eq!(states(&done), vec![QueueState::Done], "{done:?}");
    let again = run(&core, queue::SendWaiting);
    assert_eq!(states(&again), vec![QueueState::Done]);
    assert_eq!(orders(), 1);
    let removed = run(&core, queue::Remove { id: done[0].id });
    assert!(removed.is_empty());
    core.shutdown();
}

/// A token kept in the keyring goes only to the addresses and app key it came from: after the
/// profile's address is edited outside the program (both addresses, or the base address alone,
/// its token URL left as it was), the new host never sees it.
#[test]
fn a_kept_token_is_never_sent_to_a_host_it_did_not_come_from() {
    let everywhere = |text: &str, old: &str, new: &str| text.replace(old, new);
    let base_only = |text: &str, old: &str, new: &str| {
        text.replace(
            &format!("\"baseUrl\": \"{old}\""),
            &format!("\"baseUrl\": \"{new}\""),
        )
    };
    for edit in [everywhere, base_only] {
        kept_token_after(edit);
    }
}

fn kept_token_after(edit: fn(&str, &str, &str) -> String) {
    use std::io::Read as _;
    let remote = remote(Region::Domestic);
    let root = tempfile::tempdir().expect("temp dir");
    let store = mock_store();
    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    let profile = remote.profile("Training", "trainer@example.com");
    save_profile(&core, None, profile, Some(&remote.app_secret));
    outcome!(
        call_on(&core, "Training", Call::Shellnums(1)),
        Answer::Shellnums
    );
    // A token only the keyring has, so that one fetched anew is told apart from it.
    let kept = keyring_token(&store, "Training");
    let token = "planted-token-that-only-the-keyring-has";
    let text = keyring_get(&store, "Training", "token").expect("kept");
    let entry = store
        .build(KEYRING_SERVICE, "Training/token", None)
        .expect("entry");
    entry
        .set_password(&text.replace(&kept, token))
        .expect("planted");
    core.shutdown();

    // Another host on this machine, which answers every request with a 503.
    let stranger = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let other = format!(
        "http://127.0.0.1:{}",
        stranger.local_addr().expect("addr").port()
    );
    let heard = Arc::new(Mutex::new(String::new()));
    let kept = Arc::clone(&heard);
    std::thread::spawn(move || {
        for conn in stranger.incoming() {
            let Ok(mut conn) = conn else { return };
            let _ = conn.set_read_timeout(Some(Duration::from_millis(200)));
            let mut buf = [0u8; 8192];
            let n = conn.read(&mut buf).unwrap_or(0);
            kept.lock()
                .expect("heard")
                .push_str(&String::from_utf8_lossy(&buf[..n]));
            let _ = conn.write_all(
                b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    });
    let file = config_dir(root.path()).join("profiles.json");
    let before = std::fs::read_to_string(&file).expect("profiles");
    let edited = edit(&before, &remote.base, &other);
    assert_ne!(edited, before, "the address was edited");
    std::fs::write(&file, edited).expect("edited by hand");

    let core = start_core(root.path(), KeyringChoice::Store(Arc::clone(&store)));
    let answered = core.run(
        CallOn {
            profile: "Training".to_owned(),
            call: Call::Shellnums(1),
        },
        WAIT,
    );
    assert!(answered.is_err(), "{answered:?}");
    let heard = heard.lock().expect("heard").clone();
    assert!(heard.contains("POST "), "{heard}");
    assert!(
        !heard.contains(token),
        "the kept token went to another host: {heard}"
    );
    core.shutdown();
}
