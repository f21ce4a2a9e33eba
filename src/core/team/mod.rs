//! A team-server profile's session as the console knows it (docs/team.md, "The console"): who
//! is signed in and what their role lets them do. The server decides every call; the console
//! only mirrors its permissions, to show an action the role lacks as disabled with the reason.

mod requests;
pub(in crate::core) mod session;

pub use requests::{
    Decide, Decision, HandOver, ListHanded, ListRequests, ReadAudit, ReadRequest, Receive, SignIn,
    SignOut, WaitForChanges, WhoAmI,
};
pub use session::Session;
pub use wire::approval::{Request, RequestQuery, State as RequestState};
pub use wire::handover::{APPROVERS, Handed};
pub use wire::team::{AuditEntry, AuditQuery, Card, Me, Permission};
