//! A national directory for the renewals benches: enterprises bound over HTTP to a `serve`
//! child process, each holding assets whose one product ends in the next 12 months, and a
//! console whose profile reaches that server with the enterprises in its directory.

use std::path::Path;
use std::time::{Duration, Instant};

use futures::StreamExt;
use license_desk::core::catalog::{self, store::Import};
use license_desk::core::profiles::usual_token_url;
use license_desk::core::{
    Core, CoreOptions, Endpoint, FileDialogChoice, KeyringChoice, Profile, Request, Secret, now_ms,
};
use serde_json::{Value, json};

use crate::bench::client::{Client, ORDER};
use crate::bench::server::{App, Server};

pub const PROFILE: &str = "National";
const DAY: i64 = 86_400_000;

/// A `serve` child process seeded with a national directory, and a client of it.
pub struct National {
    pub server: Server,
    pub app: App,
    pub runtime: tokio::runtime::Runtime,
    pub http: Client,
    pub ids: Vec<String>,
    pub enterprises: usize,
    pub per: usize,
}

impl National {
    /// 1,000 enterprises of 1,000 assets, or as `RENEWALS_ENTERPRISES` and
    /// `RENEWALS_PER_ENTERPRISE` say.
    pub fn start() -> National {
        let enterprises = count("RENEWALS_ENTERPRISES", 1_000);
        let per = count("RENEWALS_PER_ENTERPRISE", 1_000);
        National::sized(enterprises, per)
    }

    /// `enterprises` enterprises of `per` assets each.
    pub fn sized(enterprises: usize, per: usize) -> National {
        let server = Server::start(crate::served::bin(), &[], None).expect("serve starts");
        let app = server.app("renewals", "auth_order");
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        let http = runtime.block_on(Client::new(&server, &app));
        let started = Instant::now();
        let ids = runtime.block_on(seed(&http, enterprises, per));
        eprintln!(
            "seeded {enterprises} enterprises × {per} assets in {:.0} s",
            started.elapsed().as_secs_f64()
        );
        National {
            server,
            app,
            runtime,
            http,
            ids,
            enterprises,
            per,
        }
    }

    /// A console whose profile reaches the server, with the enterprises in its directory.
    pub fn console(&self, dir: &Path) -> Core {
        console(dir, &self.server, &self.app, &self.ids)
    }
}

fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The enterprises, each bound to a customer of its own and holding `per` assets whose one
/// product ends somewhere in the next 12 months.
async fn seed(http: &Client, enterprises: usize, per: usize) -> Vec<String> {
    let ids: Vec<String> = futures::stream::iter(0..enterprises)
        .map(|i| async move {
            let answer = http
                .post(
                    &format!("{ORDER}/enterprise/user/bind"),
                    &json!({"channelCode": "SHOP", "channelCustomerId": format!("N-{i:04}"),
                        "customerName": format!("全国客户 {i}"),
                        "enterpriseName": format!("全国企业 {i}")}),
                )
                .await;
            answer.json()["data"]["enterpriseGlobalId"]
                .as_str()
                .expect("an enterprise")
                .to_owned()
        })
        .buffered(8)
        .collect()
        .await;
    let now = now_ms();
    // Ten enterprises' orders a batch.
    for (b, chunk) in (0..enterprises).collect::<Vec<_>>().chunks(10).enumerate() {
        let orders: Vec<Value> = chunk
            .iter()
            .enumerate()
            .map(|(k, &i)| {
                let nums: Vec<String> = (0..per).map(|j| format!("9{:09}", i * per + j)).collect();
                let end = now + ((i * 7 + 3) % 365) as i64 * DAY;
                json!({"sequence": k + 1, "channelCustomerId": format!("N-{i:04}"),
                    "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                    "assets": [{"assetNos": nums, "products": [
                        {"productUri": "gms:1001", "limitEndDate": end}]}]})
            })
            .collect();
        let body = json!({"channelCode": "SHOP", "channelOrderId": format!("NATIONAL-{b}"),
            "syncMode": "sync", "orderList": orders});
        let answer = http.batch(serde_json::to_vec(&body).expect("json")).await;
        assert!(answer.is_success(), "batch {b}: {}", answer.brief());
    }
    ids
}

/// A console whose profile reaches the server, with the enterprises in its directory.
fn console(dir: &Path, server: &Server, app: &App, ids: &[String]) -> Core {
    let core = Core::start(CoreOptions {
        config_dir: dir.join("config"),
        data_dir: dir.join("data"),
        keyring: KeyringChoice::Store(keyring_core::mock::Store::new().expect("mock keyring")),
        file_dialog: FileDialogChoice::InWindow,
    })
    .expect("core");
    let profile = Profile {
        name: PROFILE.to_owned(),
        endpoint: Endpoint::Remote {
            base_url: server.base.clone(),
            token_url: usual_token_url(&server.base),
            app_key: app.key.clone(),
            ca_file: None,
        },
        operator_identity: "bench".to_owned(),
        production: false,
        own_catalog: false,
        repeats_recognised: false,
        limits: Default::default(),
        insecure_http: false,
    };
    run(
        &core,
        license_desk::core::profiles::requests::Save {
            previous: None,
            profile,
            app_secret: Some(Secret::new(app.secret.clone())),
        },
    );
    let customers: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            json!({"enterpriseGlobalId": id, "enterpriseName": format!("全国企业 {i}"),
            "branchName": format!("分公司 {}", i % 30)})
        })
        .collect();
    let path = dir.join("directory.json");
    let file = json!({"products": [], "packages": [], "customers": customers});
    std::fs::write(&path, file.to_string()).expect("directory file");
    run(
        &core,
        catalog::ImportFile {
            path,
            profile: PROFILE.to_owned(),
            import: Import {
                apply: true,
                overwrite: true,
            },
        },
    );
    core
}

pub fn run<R: Request>(core: &Core, request: R) -> R::Reply {
    core.run(request, Duration::from_secs(1800))
        .expect("the command succeeds")
}
