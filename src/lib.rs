pub mod client;
pub mod platform;
pub mod wire;
