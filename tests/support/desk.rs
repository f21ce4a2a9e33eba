//! A console's core for a test: its settings and data in the test's own folder, files chosen
//! in the window's own browser. Shared by the test binaries that drive the core.

#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use keyring_core::CredentialStore;
use license_desk::core::{Core, CoreOptions, FileDialogChoice, KeyringChoice, Request};

/// How long a test waits for a command's answer at most (a loaded CI machine included).
pub const WAIT: Duration = Duration::from_secs(60);

/// The keyring's mock store: the one stand-in the tests allow.
pub fn mock_store() -> Arc<CredentialStore> {
    keyring_core::mock::Store::new().expect("mock keyring")
}

/// A core with its settings in `root/config` and its data in `root/data`.
pub fn start_core(root: &Path, keyring: KeyringChoice) -> Core {
    Core::start(CoreOptions {
        config_dir: root.join("config"),
        data_dir: root.join("data"),
        keyring,
        file_dialog: FileDialogChoice::InWindow,
    })
    .expect("the core starts")
}

/// The request's reply; a failure fails the test, naming the request.
#[track_caller]
pub fn run<R: Request + std::fmt::Debug>(core: &Core, request: R) -> R::Reply {
    let what = format!("{request:?}");
    core.run(request, WAIT)
        .unwrap_or_else(|e| panic!("{what} failed: {e:?}"))
}
