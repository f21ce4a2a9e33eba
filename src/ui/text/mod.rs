//! What the console says: translations (Fluent), labels of the interface's values, refusals and problems in words, dates.

pub(crate) mod dates;
pub(crate) mod file_errors;
pub mod i18n;
pub(crate) mod labels;
pub(crate) mod problems;
pub(crate) mod refusals;
