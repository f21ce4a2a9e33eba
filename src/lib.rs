pub mod platform;
pub mod wire;
