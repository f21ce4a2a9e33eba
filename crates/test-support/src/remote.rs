//! A separate platform for a test (its own runtime, data folder and application), as a
//! remote profile sees it. Shared by the test binaries that talk to a remote platform.

use std::time::Duration;

use license_desk::core::profiles::usual_token_url;
use license_desk::core::{Endpoint, Profile};
use platform::{Config, Region, Server, create_app};
use tempfile::TempDir;

/// A separate platform (its own runtime, data dir and application), as a remote profile sees it.
pub struct Remote {
    pub runtime: tokio::runtime::Runtime,
    pub server: Option<Server>,
    pub dir: TempDir,
    pub base: String,
    pub app_key: String,
    pub app_secret: String,
}

impl Remote {
    pub fn start(region: Region) -> Remote {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = Config::new(dir.path(), "127.0.0.1:0".parse().expect("addr"));
        config.region = region;
        let server = runtime
            .block_on(Server::start(config))
            .expect("the remote platform starts");
        let base = server.base_url();
        let app = create_app(
            dir.path(),
            "tests",
            &["auth_order".to_owned(), "auth_activity".to_owned()],
        )
        .expect("app");
        Remote {
            runtime,
            server: Some(server),
            dir,
            base,
            app_key: app.app_key,
            app_secret: app.app_secret,
        }
    }

    pub fn profile(&self, name: &str, operator: &str) -> Profile {
        Profile {
            name: name.to_owned(),
            endpoint: Endpoint::Remote {
                base_url: self.base.clone(),
                token_url: usual_token_url(&self.base),
                app_key: self.app_key.clone(),
                ca_file: None,
            },
            operator_identity: operator.to_owned(),
            production: true,
            own_catalog: false,
            repeats_recognised: false,
            limits: Default::default(),
            insecure_http: false,
        }
    }

    pub fn db(&self) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open(self.dir.path().join("platform.sqlite3"))
            .expect("open the remote db");
        conn.busy_timeout(Duration::from_secs(10))
            .expect("busy timeout");
        conn
    }

    pub fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            self.runtime.block_on(server.shutdown());
        }
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.stop();
    }
}
