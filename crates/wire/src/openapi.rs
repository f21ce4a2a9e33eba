//! The platform's OpenAPI document as data: generated from the embedded platform's handlers
//! (`license-desk openapi`), kept here so that a team server, which forwards the same calls,
//! includes it without depending on the platform. A test of the platform's fails when the two
//! differ: regenerate with `license-desk openapi > crates/wire/openapi/platform.json`.

/// Where a server offers its document.
pub const PATH: &str = "/openapi.json";

/// The platform's document, pretty JSON.
pub const PLATFORM: &str = include_str!("../openapi/platform.json");
