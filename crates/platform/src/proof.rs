//! The Sandbox's proof of itself. The console that runs the Sandbox starts it with a random
//! proof, kept in a file private to the user beside `sandbox.url`; another console of the same
//! user that finds the Sandbox running asks the address in that file to answer a fresh
//! challenge with the proof before it sends the Sandbox's app secret there. A stale address, or
//! another program listening on that port now, cannot answer, and is sent nothing.

use axum::Router;
use axum::extract::RawQuery;
use axum::routing::get;

/// Where a server started with a proof answers challenges (no other server has the route).
pub const PATH: &str = "/license-desk/sandbox-proof";

/// A challenge's answer: SHA-256 of the proof and the challenge, in hex.
pub fn answer(proof: &str, challenge: &str) -> String {
    super::ids::hash(&[
        b"license-desk-sandbox",
        proof.as_bytes(),
        challenge.as_bytes(),
    ])
    .iter()
    .map(|b| format!("{b:02x}"))
    .collect()
}

/// The route answering challenges with `proof`.
pub fn route<S: Clone + Send + Sync + 'static>(proof: String) -> Router<S> {
    Router::new().route(
        PATH,
        get(move |RawQuery(query): RawQuery| async move {
            let challenge = form_urlencoded::parse(query.unwrap_or_default().as_bytes())
                .find(|(k, _)| k == "challenge")
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default();
            answer(&proof, &challenge)
        }),
    )
}
