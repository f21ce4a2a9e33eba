//! A team server for a test, in front of its own platform (`Remote`), with two people: `li`,
//! branch staff of 上海 (SH01), and `wang`, an administrator; both with [`PASSWORD`].

use license_desk::core::{Endpoint, Profile};
use team::people::{self, Branch, NewPerson};
use team::server::{TeamConfig, TeamServer};
use team::sessions::SessionRules;
use team::upstream::UpstreamConfig;
use team::{Place, TeamStore};

use crate::fault_proxy::FaultProxy;
use crate::remote::Remote;

pub const PASSWORD: &str = "长城长城 correct horse";

pub struct TeamRemote {
    /// Between the team server and its platform, when started with one.
    pub proxy: Option<FaultProxy>,
    pub remote: Remote,
    /// None once stopped.
    pub server: Option<TeamServer>,
    pub base: String,
    pub team_dir: std::path::PathBuf,
}

impl TeamRemote {
    pub fn start() -> TeamRemote {
        Self::start_with(false)
    }

    /// [`TeamRemote::start`] with a fault-injecting proxy between the server and its platform.
    pub fn start_proxied() -> TeamRemote {
        Self::start_with(true)
    }

    fn start_with(proxied: bool) -> TeamRemote {
        let remote = Remote::start(platform::Region::Domestic);
        let proxy = proxied.then(|| FaultProxy::start(&remote.base));
        let upstream = proxy
            .as_ref()
            .map_or_else(|| remote.base.clone(), |p| p.base.clone());
        let team_dir = remote.dir.path().join("team");
        let config = TeamConfig {
            listen: "127.0.0.1:0".parse().expect("addr"),
            data_dir: team_dir.clone(),
            database: None,
            database_pool: 2,
            upstream: UpstreamConfig {
                base_url: upstream,
                token_url: None,
                app_key: remote.app_key.clone(),
                app_secret: license_desk::core::Secret::new(remote.app_secret.clone()),
                ca_file: None,
                insecure_http: false,
            },
            tls: None,
            insecure_http: false,
            sessions: SessionRules::default(),
            connections: Default::default(),
            audit_retention: None,
            ldap: None,
            trusted_proxies: Vec::new(),
            seal: None,
            mail: None,
            releases: Some(team_dir.join("releases")),
        };
        let server = remote.runtime.block_on(async {
            let store = TeamStore::open(Place::Dir(&team_dir), 1)
                .await
                .expect("store");
            add_people(&store).await;
            drop(store);
            TeamServer::start(config)
                .await
                .expect("the team server starts")
        });
        let base = server.base_url();
        TeamRemote {
            proxy,
            remote,
            server: Some(server),
            base,
            team_dir,
        }
    }

    /// A console's profile on this server for `user`.
    pub fn profile(&self, name: &str, user: &str) -> Profile {
        Profile {
            name: name.to_owned(),
            endpoint: Endpoint::Team {
                url: self.base.clone(),
                user: user.to_owned(),
                ca_file: None,
            },
            operator_identity: String::new(),
            production: false,
            own_catalog: false,
            repeats_recognised: false,
            limits: Default::default(),
            insecure_http: false,
        }
    }

    /// Runs `f` on the server's store, opened beside it.
    pub fn with_store<T>(&self, f: impl AsyncFnOnce(&TeamStore) -> T) -> T {
        self.remote.runtime.block_on(async {
            let store = TeamStore::open(Place::Dir(&self.team_dir), 1)
                .await
                .expect("store");
            f(&store).await
        })
    }
}

impl Drop for TeamRemote {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            self.remote.runtime.block_on(server.shutdown());
        }
    }
}

async fn add_people(store: &TeamStore) {
    let person = |name: &str, role: &str, branch: Option<Branch>| NewPerson {
        name: name.to_owned(),
        display_name: None,
        role: role.to_owned(),
        branch,
        password: Some(PASSWORD.to_owned()),
        email: None,
    };
    people::init(store, person("wang", "admin", None))
        .await
        .expect("wang");
    let shanghai = Branch {
        code: "SH01".to_owned(),
        name: "上海".to_owned(),
    };
    people::add(store, person("li", "staff", Some(shanghai)))
        .await
        .expect("li");
}
