//! What goes wrong on the team server's own data, in words a person acts on.

use db::pg::StoreFailure;
use db::sql::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Input that cannot be used; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// The role needs a branch (branch staff order for their own) and none was given.
    #[error(
        "branch: branch staff order for their own branch; give --branch CODE and --branch-name NAME"
    )]
    NoBranch,
    #[error(transparent)]
    Release(#[from] crate::releases::ReleaseError),
    #[error("no person is named {0:?}")]
    NoSuchPerson(String),
    #[error("a person named {0:?} already exists")]
    PersonExists(String),
    #[error(
        "{0:?} on this server is another directory account than the one that signed in \
         (the directory's id differs); an administrator removes or renames one of them"
    )]
    OtherDirectoryPerson(String),
    /// The message lists the roles there are.
    #[error("{0}")]
    NoSuchRole(String),
    #[error("a role named {0:?} already exists")]
    RoleExists(String),
    #[error("the role {role:?} is held by {held_by}; give them another role first")]
    RoleInUse { role: String, held_by: String },
    #[error(
        "{0:?} is the last active person who may manage people (permission users): \
         make another one first, or nobody could"
    )]
    LastAdministrator(String),
    #[error(
        "this team server already has people; `team init` makes the first administrator \
         once (add more with `team user add`)"
    )]
    AlreadyInitialized,
    #[error("cannot hash the password: {0}")]
    Hash(String),
    #[error("the audit log could not be written: {0}")]
    Audit(String),
    #[error("there is no handed draft {0} (it was opened or taken back)")]
    NoSuchDraft(i64),
    #[error("there is no request R-{0}")]
    NoSuchRequest(i64),
    #[error(
        "R-{0} was not sent by this instance: another instance settled or approved it meanwhile"
    )]
    ClaimTaken(i64),
    #[error(
        "R-{0} already waits for approval with this channelOrderId and another body: send \
         this batch with another channelOrderId, or wait until R-{0} is decided"
    )]
    FiledOtherwise(i64),
    #[error("R-{0} is your own request: another person decides it")]
    OwnRequest(i64),
    #[error("R-{0} changed after it was filed: read it again before deciding")]
    RequestChanged(i64),
    #[error("R-{0} was filed by {1:?}, who is disabled since: it is not sent")]
    RequesterDisabled(i64, String),
    #[error("R-{id} is branch {branch}'s request; you approve your own branch's only")]
    OtherBranch { id: i64, branch: String },
    #[error(
        "R-{id} was filed by {requester:?}, whose role no longer has the permission \
         {permission}: it is not sent"
    )]
    RequesterLacks {
        id: i64,
        requester: String,
        permission: &'static str,
    },
    #[error("R-{id} is {state} already (decided by {by:?})")]
    AlreadyDecided {
        id: i64,
        state: &'static str,
        by: String,
    },
}

impl StoreFailure for TeamError {
    fn store_error(&self) -> Option<&StoreError> {
        match self {
            Self::Store(e) => Some(e),
            _ => None,
        }
    }
}
