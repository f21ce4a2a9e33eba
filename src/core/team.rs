//! A team-server profile's session as the console knows it (docs/team.md, "The console"): who
//! is signed in and what their role lets them do. The server decides every call; the console
//! only mirrors its permissions, to show an action the role lacks as disabled with the reason.

use crate::client::Secret;
pub use crate::wire::approval::{Request, RequestQuery, State as RequestState};
pub use crate::wire::handover::{APPROVERS, Handed};
pub use crate::wire::team::{AuditEntry, AuditQuery, Card, Me, Permission};

/// The team server's commands.
#[derive(Debug, Clone)]
pub enum TeamCommand {
    /// Signs the profile's person in; the session goes to the keyring, never the password.
    SignIn { profile: String, password: Secret },
    /// Ends the session on the server and forgets it here.
    SignOut { profile: String },
    /// Asks the server who is signed in now (their role may have changed).
    Me { profile: String },
    /// The server's record of calls the person may see (History on a team profile).
    Audit { profile: String, query: AuditQuery },
    /// Requests waiting for a second person: everyone's for an approver, else one's own.
    Requests {
        profile: String,
        query: RequestQuery,
    },
    /// One request.
    Request { profile: String, id: i64 },
    /// Hands the local draft `draft` over to `to` (a sign-in name, or `approvers`).
    HandOver {
        profile: String,
        draft: i64,
        to: String,
        note: String,
    },
    /// The drafts handed to the person and by them.
    Handed { profile: String },
    /// Opens a handed draft as a local draft of one's own; it leaves the server.
    Receive { profile: String, id: i64 },
    /// Approves (with the hash of the body seen) or rejects (with a reason) a request.
    Decide {
        profile: String,
        id: i64,
        decision: Decision,
    },
}

/// An approver's decision on a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Approve { body_hash: String },
    Reject { reason: String },
}

impl TeamCommand {
    pub fn profile(&self) -> &str {
        match self {
            Self::SignIn { profile, .. }
            | Self::SignOut { profile }
            | Self::Me { profile }
            | Self::Audit { profile, .. }
            | Self::Requests { profile, .. }
            | Self::Request { profile, .. }
            | Self::Decide { profile, .. }
            | Self::HandOver { profile, .. }
            | Self::Handed { profile }
            | Self::Receive { profile, .. } => profile,
        }
    }
}

/// A team profile's session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Session {
    /// Signed in, as the server said at the last sign-in or `Me`.
    SignedIn(Me),
    /// Never signed in on this PC, signed out, or the session ended: the password is asked.
    SignedOut,
}

impl Session {
    pub fn me(&self) -> Option<&Me> {
        match self {
            Self::SignedIn(me) => Some(me),
            Self::SignedOut => None,
        }
    }
}
