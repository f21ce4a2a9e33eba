//! The platform's operations as requests, one per operation, each with its own reply
//! (`requests`); and the reads a batch is checked with before and after it is sent: what its
//! deletes would remove, and what the platform holds of a batch whose outcome is unknown
//! (`checks`). A call on a team server's profile goes through that server.

pub mod checks;
pub mod requests;
