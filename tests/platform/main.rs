//! The embedded platform over HTTP: every operation, its errors, restarts and concurrency.

mod common;
mod customers;
