//! The screens, one per navigation item: each draws its state and queues commands.

pub(crate) mod activities;
pub(crate) mod approvals;
pub(crate) mod asset_numbers;
pub(crate) mod assets;
pub(crate) mod catalog;
pub(crate) mod composer;
pub(crate) mod customer;
pub(crate) mod customers;
pub(crate) mod from_listings;
pub(crate) mod history;
pub(crate) mod queue;
pub(crate) mod renewals;
pub(crate) mod settings;
pub(crate) mod start;
