//! The embedded platform over HTTP: every operation, its errors, restarts and concurrency.

mod activities;
mod auth;
mod bad_input;
mod common;
mod connections;
mod customers;
mod instances;
mod limits;
mod listing;
mod locks;
mod openapi;
mod orders;
#[path = "../support/pg_cluster.rs"]
mod pg_cluster;
mod quotas;
mod release_data;
mod shellnums;
