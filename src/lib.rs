pub mod client;
pub mod core;
pub mod platform;
pub mod support;
pub mod ui;
pub mod wire;
