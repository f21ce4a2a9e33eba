//! The built-in Sandbox: the embedded platform in-process on a loopback port, with an
//! application of both scopes and a few demo records, provisioned on first start.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::profiles::SANDBOX;
use super::secrets::{SecretKind, Secrets};
use client::{ApiError, Client, ClientConfig, NoObserver, Secret};
use platform::{Config, Server, StartError, create_app};
use support::private_files::{create_private_dir, write_atomic};
use wire::{BatchOrderRequest, BindRequest, CustomerQuery, EnterpriseRequest};

/// The demo activities, built into the binary so it runs from anywhere.
pub const DEMO_ACTIVITIES: &str = include_str!("../../assets/demo-activities.json");

/// The demo activities' labels and names, for the Activities screen to offer on the Sandbox
/// (the interface lists no activities: a remote platform's are learnt from its administrator).
pub fn demo_activities() -> &'static [(String, String)] {
    static LISTED: std::sync::LazyLock<Vec<(String, String)>> = std::sync::LazyLock::new(|| {
        let file: serde_json::Value = serde_json::from_str(DEMO_ACTIVITIES).unwrap_or_default();
        let listed = file["activities"].as_array().cloned().unwrap_or_default();
        listed
            .iter()
            .filter_map(|a| {
                let label = a["label"].as_str()?.to_owned();
                Some((label, a["name"].as_str().unwrap_or_default().to_owned()))
            })
            .collect()
    });
    &LISTED
}

/// The demo enterprise's CRM id; its default customer is `CRM`/`CRM-DEMO`.
pub const DEMO_CRM_ID: &str = "CRM-DEMO";

/// What the Sandbox's demo data holds, for the console's start page (the platform gives its
/// first enterprise the first global id).
pub mod demo {
    pub const ENTERPRISE: &str = "北京示例科技有限公司";
    pub const GLOBAL_ID: &str = "EG0000000001";
    pub const CHANNEL_CODE: &str = "SHOP";
    pub const CHANNEL_CUSTOMER: &str = "S-0001";
    pub const MOBILE: &str = "13800138000";
    pub const BRANCH: &str = "北京分公司";
    pub const ACTIVITY: &str = "spring-2026";
    pub const FIRST_LOCK: &str = "8900000001";
    pub const LAST_LOCK: &str = "8900000006";
    /// The customer that holds the demo's locks (the enterprise's default customer): a delete
    /// of them names it.
    pub const LOCKS_CHANNEL_CODE: &str = "CRM";
    pub const LOCKS_CUSTOMER: &str = super::DEMO_CRM_ID;
}

/// Why the Sandbox is not available.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the sandbox platform did not start: {0}")]
    Start(#[from] StartError),
    #[error(
        "another License Desk runs the Sandbox, but the address in {} did not prove to be it \
         within {} s; nothing was sent there", url_file.display(), PROVE_WITHIN.as_secs()
    )]
    Unproved { url_file: PathBuf },
    #[error("cannot create the sandbox application: {0}")]
    App(#[from] platform::error::OpError),
    #[error("provisioning the sandbox ({what}): {source}")]
    Provision {
        what: &'static str,
        source: ApiError,
    },
    #[error(transparent)]
    Client(#[from] ApiError),
    #[error("no randomness for the Sandbox's proof: {0}")]
    Random(getrandom::Error),
    #[error("the HTTP client for the Sandbox's proof: {0}")]
    Http(#[from] reqwest::Error),
    #[error("the Sandbox's own data: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the Sandbox's start ended without its answer: {0}")]
    Task(#[from] tokio::task::JoinError),
    #[error("it stopped")]
    Stopped,
}

fn cannot_write(path: &Path) -> impl FnOnce(std::io::Error) -> SandboxError + '_ {
    move |source| SandboxError::Write {
        path: path.to_owned(),
        source,
    }
}

pub struct Sandbox {
    /// None when another License Desk of this user runs the sandbox and this one uses it.
    server: Option<Server>,
    pub base_url: String,
    pub app_key: String,
    pub app_secret: Secret,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SandboxApp {
    app_key: String,
}

impl Sandbox {
    /// Starts (or joins) the sandbox in `dir`. Blocking file and keyring work runs off the
    /// async threads.
    pub async fn start(dir: PathBuf, secrets: Arc<Secrets>) -> Result<Sandbox, SandboxError> {
        create_private_dir(&dir).map_err(cannot_write(&dir))?;
        let activities = dir.join("activities.json");
        write_atomic(&activities, DEMO_ACTIVITIES.as_bytes()).map_err(cannot_write(&activities))?;
        let platform_dir = dir.join("platform");
        let url_file = dir.join("sandbox.url");
        let proof_file = dir.join("sandbox.proof");
        let proof = platform::ids::random_token(32).map_err(SandboxError::Random)?;
        let mut config = Config::new(&platform_dir, ([127, 0, 0, 1], 0).into());
        config.activities = Some(activities);
        config.proof = Some(proof.clone());
        let (server, base_url) = match Server::start(config).await {
            Ok(server) => {
                let url = server.base_url();
                // The proof first: a console reading the new address finds its proof there.
                for (file, text) in [(&proof_file, &proof), (&url_file, &url)] {
                    write_atomic(file, text.as_bytes()).map_err(cannot_write(file))?;
                }
                (Some(server), url)
            }
            // Another License Desk of this user runs it: use that one, once it has proved it
            // is the Sandbox.
            Err(StartError::DataDirInUse(_)) => {
                (None, proved_address(&url_file, &proof_file).await?)
            }
            Err(e) => return Err(e.into()),
        };

        let (app_key, app_secret) = {
            let dir = dir.clone();
            let secrets = Arc::clone(&secrets);
            tokio::task::spawn_blocking(move || sandbox_app(&dir, &secrets, false)).await??
        };
        let mut sandbox = Sandbox {
            server,
            base_url,
            app_key,
            app_secret,
        };
        // The keyring may hold a secret of an app that no longer exists (data dir removed).
        if let Err(ApiError::Platform { code, .. }) = sandbox.client()?.token().await
            && code == "invalid_client"
        {
            let dir = dir.clone();
            let (key, secret) =
                tokio::task::spawn_blocking(move || sandbox_app(&dir, &secrets, true)).await??;
            sandbox.app_key = key;
            sandbox.app_secret = secret;
        }
        // Only the console that runs the Sandbox provisions it: two consoles starting together
        // would otherwise send the demo batch twice, each with an application of its own.
        let marker = dir.join("provisioned");
        if sandbox.server.is_some() && !marker.exists() {
            provision(&sandbox.client()?).await?;
            write_atomic(&marker, b"demo records provisioned\n").map_err(cannot_write(&marker))?;
        }
        Ok(sandbox)
    }

    fn client(&self) -> Result<Client, ApiError> {
        Client::new(
            ClientConfig::new(&self.base_url, &self.app_key, self.app_secret.clone()),
            Arc::new(NoObserver),
        )
    }

    pub async fn stop(self) {
        if let Some(server) = self.server {
            server.shutdown().await;
        }
    }
}

/// How long a console waits for the Sandbox another console is starting to write its address.
const PROVE_WITHIN: Duration = Duration::from_secs(20);

/// The address of the Sandbox another License Desk runs, once the server there has answered a
/// fresh challenge with the proof in `proof_file` (`platform::proof`). Until then nothing is
/// sent to it: the address may be stale, or not written yet by a console starting beside this
/// one (both files are read again until the proof holds).
async fn proved_address(url_file: &Path, proof_file: &Path) -> Result<String, SandboxError> {
    let http = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(2))
        .build()?;
    let deadline = tokio::time::Instant::now() + PROVE_WITHIN;
    loop {
        let url = std::fs::read_to_string(url_file).unwrap_or_default();
        let url = url.trim();
        let proof = std::fs::read_to_string(proof_file).unwrap_or_default();
        if proves(&http, url, proof.trim()).await {
            return Ok(url.to_owned());
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(SandboxError::Unproved {
                url_file: url_file.to_owned(),
            });
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether the server at `url` (on this machine) answers a fresh challenge with `proof`.
async fn proves(http: &reqwest::Client, url: &str, proof: &str) -> bool {
    let loopback = url.starts_with("http://127.0.0.1:") || url.starts_with("http://[::1]:");
    if !loopback || proof.is_empty() {
        return false;
    }
    let Ok(challenge) = platform::ids::random_token(16) else {
        return false;
    };
    let asked = http
        .get(format!("{url}{}", platform::proof::PATH))
        .query(&[("challenge", &challenge)])
        .send()
        .await;
    let Ok(answer) = asked else {
        return false;
    };
    answer.status().is_success()
        && answer
            .text()
            .await
            .is_ok_and(|text| text == platform::proof::answer(proof, &challenge))
}

/// The sandbox's application: its key from `app.json`, its secret from the keyring; a new
/// application when either is missing (a memory-only keyring forgets it every session).
fn sandbox_app(
    dir: &Path,
    secrets: &Secrets,
    renew: bool,
) -> Result<(String, Secret), SandboxError> {
    let app_file = dir.join("app.json");
    let known = std::fs::read(&app_file)
        .ok()
        .and_then(|b| serde_json::from_slice::<SandboxApp>(&b).ok());
    if !renew && let (Some(app), Some(secret)) = (known, secrets.app_secret(SANDBOX)) {
        return Ok((app.app_key, secret));
    }
    let scopes = ["auth_order".to_owned(), "auth_activity".to_owned()];
    let created = create_app(&dir.join("platform"), "License Desk sandbox", &scopes)?;
    let text = serde_json::to_vec(&SandboxApp {
        app_key: created.app_key.clone(),
    })?;
    write_atomic(&app_file, &text).map_err(cannot_write(&app_file))?;
    secrets.set(SANDBOX, SecretKind::AppSecret, &created.app_secret);
    secrets.delete(SANDBOX, SecretKind::Token);
    Ok((created.app_key, Secret::new(created.app_secret)))
}

/// Demo records: an enterprise with a bound shop customer, locks of several license types
/// (re-issuable, network, large-customer, not lockable), a certificate and a cloud account
/// with the `gxxp` extension. Safe to run again.
async fn provision(client: &Client) -> Result<(), SandboxError> {
    let fail = |what, source| SandboxError::Provision { what, source };
    let existing = client
        .query_customers(&CustomerQuery {
            channel_code: Some("CRM".to_owned()),
            channel_customer_id: Some(DEMO_CRM_ID.to_owned()),
            default_customer: None,
        })
        .await
        .map_err(|e| fail("query", e))?;
    if existing.is_empty() {
        for (crm, name, branch, address) in [
            (
                DEMO_CRM_ID,
                "北京示例科技有限公司",
                "北京分公司",
                "北京市海淀区中关村大街1号",
            ),
            (
                "CRM-DEMO-2",
                "上海样例贸易有限公司",
                "上海分公司",
                "上海市浦东新区世纪大道100号",
            ),
        ] {
            client
                .create_enterprise(&EnterpriseRequest {
                    crm_customer_id: Some(crm.to_owned()),
                    customer_name: Some(name.to_owned()),
                    branch_name: Some(branch.to_owned()),
                    address: Some(address.to_owned()),
                })
                .await
                .map_err(|e| fail("enterprise", e))?;
        }
    }
    client
        .bind(&BindRequest {
            channel_code: Some(demo::CHANNEL_CODE.to_owned()),
            channel_customer_id: Some(demo::CHANNEL_CUSTOMER.to_owned()),
            customer_name: Some(demo::ENTERPRISE.to_owned()),
            branch_name: Some(demo::BRANCH.to_owned()),
            enterprise_name: Some(demo::ENTERPRISE.to_owned()),
            password_mobile: Some(demo::MOBILE.to_owned()),
        })
        .await
        .map_err(|e| fail("bind", e))?;
    let batch: BatchOrderRequest = serde_json::from_value(demo_batch())?;
    client
        .batch_order(&batch)
        .await
        .map_err(|e| fail("orders", e))?;
    Ok(())
}

/// The demo's first batch: one order of each license type for the first demo enterprise.
fn demo_batch() -> serde_json::Value {
    let products = |uris: &[(&str, &str)]| {
        uris.iter()
            .map(
                |(uri, name)| json!({"productUri": uri, "productName": name, "limitConcurrent": 1}),
            )
            .collect::<Vec<_>>()
    };
    let order = |seq: i32,
                 license_type: &str,
                 nums: &[&str],
                 extra: serde_json::Value,
                 prods: Vec<serde_json::Value>| {
        let mut asset = json!({"assetNos": nums, "products": prods});
        if let (Some(a), Some(e)) = (asset.as_object_mut(), extra.as_object()) {
            a.extend(e.clone());
        }
        json!({"sequence": seq, "channelCustomerId": DEMO_CRM_ID, "customerName": "北京示例科技有限公司",
               "branchName": "北京分公司", "licenseType": license_type, "orderType": "new_buy", "assets": [asset]})
    };
    json!({
        "channelCode": "CRM", "channelOrderId": "DEMO-0001", "syncMode": "sync",
        "orderList": [
            order(1, "normal_recover_usbkey", &["8900000001", "8900000002", "8900000003"], json!({}),
                  products(&[("gms:1001", "计价软件"), ("gms:1002", "算量软件")])),
            order(2, "normal_recover_lan_usbkey", &["8900000004"], json!({}),
                  products(&[("gms:1003", "计价软件 网络版")])),
            order(3, "normal_unrecover_usbkey", &["8900000005"],
                  json!({"limitStartDate": 1767225600000i64, "limitEndDate": 1798761600000i64}),
                  products(&[("gms:1001", "计价软件")])),
            order(4, "normal_unrecover_usbkey", &["8900000006"], json!({}),
                  products(&[("gms:1004", "材料管理")])),
            order(5, "softkey", &["8900000007"], json!({}), products(&[("gms:1005", "证书版")])),
            order(6, "cloud_account", &["CA-DEMO-0001"],
                  json!({"assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}]}),
                  products(&[("gms:2001", "云计价")])),
        ]
    })
}
