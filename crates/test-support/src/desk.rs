//! A console's core for a test: its settings and data in the test's own folder, files chosen
//! in the window's own browser. Shared by the test binaries that drive the core.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use keyring_core::CredentialStore;
use license_desk::core::calls::requests as calls;
use license_desk::core::request::Services;
use license_desk::core::{
    Call, Core, CoreError, CoreOptions, FileDialogChoice, KeyringChoice, Operation, Request,
};

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

/// A platform call's typed reply, for the tests that send calls of any kind through one
/// request (`CallOn`): each variant is one operation's reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Customer(wire::Customer),
    Customers(Vec<wire::Customer>),
    Enterprise(wire::CreatedEnterprise),
    Updated,
    Orders(Vec<wire::BatchOrderResult>),
    Locks(Vec<wire::LockResult>),
    Assets(wire::AssetList),
    Shellnums(Vec<String>),
    Claim(wire::ActivityResponse),
}

/// Any platform call on a profile, served as the typed request of its operation: the tests
/// name calls as data (`Call`) and send them alike.
#[derive(Debug, Clone)]
pub struct CallOn {
    pub profile: String,
    pub call: Call,
}

impl Request for CallOn {
    type Reply = Answer;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(self.call.operation())
    }

    async fn serve(self, services: Services) -> Result<Answer, CoreError> {
        let profile = self.profile;
        let on = services;
        Ok(match self.call {
            Call::Bind(request) => {
                Answer::Customer(calls::Bind { profile, request }.serve(on).await?)
            }
            Call::CreateEnterprise(request) => Answer::Enterprise(
                calls::CreateEnterprise { profile, request }
                    .serve(on)
                    .await?,
            ),
            Call::QueryCustomers(query) => {
                Answer::Customers(calls::QueryCustomers { profile, query }.serve(on).await?)
            }
            Call::UpdateEnterprise(request) => {
                calls::UpdateEnterprise { profile, request }
                    .serve(on)
                    .await?;
                Answer::Updated
            }
            Call::BatchOrder(batch) => {
                Answer::Orders(calls::BatchOrder { profile, batch }.serve(on).await?)
            }
            Call::Lock { nums, operator } => Answer::Locks(
                calls::Lock {
                    profile,
                    nums,
                    operator,
                }
                .serve(on)
                .await?,
            ),
            Call::Unlock { nums, operator } => Answer::Locks(
                calls::Unlock {
                    profile,
                    nums,
                    operator,
                }
                .serve(on)
                .await?,
            ),
            Call::Assets {
                enterprise_global_id,
                extend_code,
            } => Answer::Assets(
                calls::Assets {
                    profile,
                    enterprise_global_id,
                    extend_code,
                }
                .serve(on)
                .await?,
            ),
            Call::Shellnums(size) => {
                Answer::Shellnums(calls::Shellnums { profile, size }.serve(on).await?)
            }
            Call::Claim(request) => {
                Answer::Claim(calls::Claim { profile, request }.serve(on).await?)
            }
        })
    }
}
