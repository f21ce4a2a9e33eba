//! The widgets and helpers every screen builds with: the design tokens and themes, forms, dates,
//! the file browser, toasts, the font.

pub(crate) mod button;
pub(crate) mod ca_file;
pub(crate) mod card;
pub(crate) mod date_field;
pub(crate) mod delete_preview;
pub(crate) mod empty;
pub(crate) mod file_browser;
pub mod fonts;
pub(crate) mod form;
pub(crate) mod icon;
pub(crate) mod json_tree;
pub(crate) mod keys;
pub(crate) mod lock_change;
pub(crate) mod permits;
pub(crate) mod pill;
pub mod theme;
pub(crate) mod toasts;
