//! The widgets and helpers every screen builds with: forms, dates, the file browser, toasts, the font.

pub(crate) mod ca_file;
pub(crate) mod date_field;
pub(crate) mod delete_preview;
pub(crate) mod file_browser;
pub mod fonts;
pub(crate) mod form;
pub(crate) mod permits;
pub(crate) mod toasts;
