//! Spreadsheets as batch orders: an order sheet read (`.xlsx`, `.csv`), its rows grouped into
//! orders, assets, packages and products, every problem placed at its cell.

pub mod columns;
pub mod read;
