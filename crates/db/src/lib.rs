//! The store layer of License Desk's servers: SQLite or PostgreSQL behind one transaction
//! trait (`sql::Tx`), a SQLite store with one writer thread (`sqlite::Store`), a pooled
//! PostgreSQL store (`pg::PgStore`), and one migration runner each, both refusing a database
//! a newer release migrated. The platform and the team server keep their tables through it.

pub mod pg;
pub mod sql;
pub mod sqlite;
