//! The command line's commands, each in its module; `main.rs` holds the clap tree and the
//! dispatch. Exit codes and the error words are shared (`output`, and the manual's table).

pub mod app;
pub mod backup;
pub mod call;
pub mod catalog;
pub mod customer;
pub mod logging;
pub mod order;
pub mod output;
pub mod profile;
pub mod profile_list;
pub mod profile_team;
pub mod release;
pub mod renewals;
pub mod request;
pub mod secret_input;
pub mod serve;
pub mod team;
pub mod team_audit;
pub mod team_data;
pub mod team_record;
pub mod team_release;
pub mod team_serve;
#[cfg(windows)]
pub mod terminal;
pub mod update;
