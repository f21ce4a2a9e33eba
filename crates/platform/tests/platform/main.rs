//! The embedded platform over HTTP: every operation, its errors, restarts and concurrency.

mod activities;
mod auth;
mod bad_input;
use test_support::platform_rig as common;
mod connections;
mod customers;
mod instances;
mod limits;
mod listing;
mod locks;
mod openapi;
mod orders;
mod quotas;
mod release_data;
mod shellnums;
