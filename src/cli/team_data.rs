//! Where the team server's data is, as every `team` command is given it, and opening it.

use std::path::PathBuf;

use clap::Args;
use license_desk::platform::pg::DatabaseUrl;
use license_desk::team::{Place, TeamStore};

use crate::cli::output::Failure;
use crate::cli::serve::parse_database;

/// Where the team server's data is: one of the two is needed.
#[derive(Args)]
#[group(required = true, multiple = false)]
pub(crate) struct Data {
    /// The team server's data directory (its SQLite file, team.sqlite3).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Its PostgreSQL database instead (postgresql://user@host/db; the password from the URL
    /// or PGPASSWORD). It may be the platform's: the tables do not meet.
    #[arg(long, value_name = "URL", value_parser = parse_database)]
    database: Option<DatabaseUrl>,
}

impl Data {
    /// The data directory or the database, as given.
    pub(crate) fn parts(self) -> (Option<PathBuf>, Option<DatabaseUrl>) {
        (self.data, self.database)
    }
}

pub(crate) async fn open(data: &Data) -> Result<TeamStore, Failure> {
    let place = match (&data.data, &data.database) {
        (_, Some(url)) => Place::Database(url),
        (Some(dir), None) => Place::Dir(dir),
        // clap's group requires one of the two.
        (None, None) => return Err(Failure::failed("give --data DIR or --database URL")),
    };
    TeamStore::open(place, 2)
        .await
        .map_err(|e| Failure::failed(format!("cannot open the team server's data: {e}")))
}
