pub mod client;
pub mod clock;
pub mod core;
pub mod platform;
pub mod private_files;
pub mod ui;
pub mod wire;
