//! A sheet's rows grouped into a batch: rows with the same order number are one order; within
//! it, rows with the same asset numbers one asset; a product row with a package number goes
//! into that package, and a package naming a parent package of the same asset goes under it.
//! Each value keeps the cell it came from, each node its first row, to place problems.

use std::collections::HashMap;

use jiff::civil::Date;
use serde_json::{Map, Value, json};

use super::columns::{COLUMNS, Column, Kind, Level, column_of};
use super::read::{Cell, Grid, column_letters};
use crate::clock::day_ms;

/// The batch as JSON, where each of its values came from, and the headers not understood.
pub struct Built {
    pub batch: Map<String, Value>,
    /// The interface path of a field (`orderList[0].assets[1].assetNos`) or of a node
    /// (`orderList[0]`) → its cell (`Orders!F12`) or its first row (`Orders!12`).
    pub places: HashMap<String, String>,
    /// `Orders!K1: Foo`: headers that name no column; their cells are not read.
    pub unknown_headers: Vec<String>,
}

#[derive(Default)]
struct NodeB {
    obj: Map<String, Value>,
    /// (field, cell) of every column of the node's level, filled or not.
    cells: Vec<(&'static str, String)>,
    row: String,
}

#[derive(Default)]
struct OrderB {
    node: NodeB,
    assets: Vec<AssetB>,
    by_numbers: HashMap<String, usize>,
}

#[derive(Default)]
struct AssetB {
    node: NodeB,
    products: Vec<NodeB>,
    packages: Vec<PackageB>,
    by_num: HashMap<String, usize>,
}

#[derive(Default)]
struct PackageB {
    node: NodeB,
    products: Vec<NodeB>,
}

/// The row being read: its cells by column, and how to name a cell of it.
struct Row<'a> {
    cells: Vec<(&'static Column, &'a Cell, String)>,
    name: String,
}

impl Row<'_> {
    fn text(&self, field: &str, level: Level) -> String {
        self.cells
            .iter()
            .find(|(c, ..)| c.field == field && c.level == level)
            .map(|(_, cell, _)| cell.text())
            .unwrap_or_default()
    }

    fn has(&self, level: Level) -> bool {
        self.cells
            .iter()
            .any(|(c, cell, _)| c.level == level && !cell.is_empty())
    }

    /// Fills what `node` has not yet of `level` from this row (the first row that has a value
    /// gives it).
    fn fill(&self, node: &mut NodeB, level: Level) {
        if node.row.is_empty() {
            node.row = self.name.clone();
        }
        for (column, cell, place) in self.cells.iter().filter(|(c, ..)| c.level == level) {
            let field = column.field;
            let value = (!node.obj.contains_key(field))
                .then(|| convert(column.kind, cell))
                .flatten();
            let known = node.cells.iter().position(|(f, _)| *f == field);
            match (value, known) {
                // The cell that gives the value is its place, even after empty ones.
                (Some(value), known) => {
                    node.obj.insert(field.to_owned(), value);
                    match known {
                        Some(k) => node.cells[k].1 = place.clone(),
                        None => node.cells.push((field, place.clone())),
                    }
                }
                // An empty cell: the place of a field still missing.
                (None, None) => node.cells.push((field, place.clone())),
                (None, Some(_)) => {}
            }
        }
    }
}

pub fn build(grid: &Grid) -> Built {
    let mut rows = grid.rows.iter().enumerate();
    let mut built = Built {
        batch: Map::new(),
        places: HashMap::new(),
        unknown_headers: Vec::new(),
    };
    // The header is the first row with anything in it.
    let Some((header_at, header)) = rows.find(|(_, r)| r.iter().any(|c| !c.is_empty())) else {
        return built;
    };
    let place = |row: usize, col: usize| {
        format!(
            "{}!{}{}",
            grid.sheet,
            column_letters(grid.first_col + col),
            grid.first_row + row
        )
    };
    let columns: Vec<Option<&'static Column>> = header
        .iter()
        .enumerate()
        .map(|(col, cell)| {
            let known = column_of(&cell.text());
            if known.is_none() && !cell.is_empty() {
                built
                    .unknown_headers
                    .push(format!("{}: {}", place(header_at, col), cell.text()));
            }
            known
        })
        .collect();
    let mut batch = NodeB::default();
    let mut orders: Vec<OrderB> = Vec::new();
    let mut by_order: HashMap<String, usize> = HashMap::new();
    for (at, cells) in rows {
        let row = Row {
            cells: cells
                .iter()
                .enumerate()
                .filter_map(|(col, cell)| Some((columns.get(col).copied()??, cell, place(at, col))))
                .collect(),
            name: format!("{}!{}", grid.sheet, grid.first_row + at),
        };
        if row.cells.iter().all(|(_, cell, _)| cell.is_empty()) {
            continue;
        }
        row.fill(&mut batch, Level::Batch);
        let key = row.text("sequence", Level::Order);
        let i = *by_order.entry(key).or_insert_with(|| {
            orders.push(OrderB::default());
            orders.len() - 1
        });
        add_row(&mut orders[i], &row);
    }
    let mut places = HashMap::new();
    let mut obj = emit(&batch, "", &mut places);
    let list: Vec<Value> = orders
        .iter()
        .enumerate()
        .map(|(i, o)| emit_order(o, &format!("orderList[{i}]"), &mut places))
        .collect();
    obj.insert("orderList".to_owned(), Value::Array(list));
    built.batch = obj;
    built.places = places;
    built
}

fn add_row(order: &mut OrderB, row: &Row<'_>) {
    row.fill(&mut order.node, Level::Order);
    let numbers = split_list(&row.text("assetNos", Level::Asset)).join(" ");
    let j = *order.by_numbers.entry(numbers).or_insert_with(|| {
        order.assets.push(AssetB::default());
        order.assets.len() - 1
    });
    let asset = &mut order.assets[j];
    row.fill(&mut asset.node, Level::Asset);
    let package = row.text("merchandiseNum", Level::Package);
    let product = row.has(Level::Product).then(|| {
        let mut p = NodeB::default();
        row.fill(&mut p, Level::Product);
        p
    });
    if package.is_empty() {
        asset.products.extend(product);
        return;
    }
    let k = *asset.by_num.entry(package).or_insert_with(|| {
        asset.packages.push(PackageB::default());
        asset.packages.len() - 1
    });
    row.fill(&mut asset.packages[k].node, Level::Package);
    asset.packages[k].products.extend(product);
}

/// The node's JSON; its fields' cells and its row are recorded under `path`.
fn emit(node: &NodeB, path: &str, places: &mut HashMap<String, String>) -> Map<String, Value> {
    let prefix = if path.is_empty() {
        String::new()
    } else {
        format!("{path}.")
    };
    for (field, cell) in &node.cells {
        places.insert(format!("{prefix}{field}"), cell.clone());
    }
    if !path.is_empty() {
        places.insert(path.to_owned(), node.row.clone());
    }
    node.obj.clone()
}

fn emit_order(o: &OrderB, path: &str, places: &mut HashMap<String, String>) -> Value {
    let mut obj = emit(&o.node, path, places);
    let assets = o
        .assets
        .iter()
        .enumerate()
        .map(|(j, a)| emit_asset(a, &format!("{path}.assets[{j}]"), places))
        .collect();
    obj.insert("assets".to_owned(), Value::Array(assets));
    Value::Object(obj)
}

fn emit_products(products: &[NodeB], path: &str, places: &mut HashMap<String, String>) -> Value {
    products
        .iter()
        .enumerate()
        .map(|(k, p)| Value::Object(emit(p, &format!("{path}[{k}]"), places)))
        .collect()
}

fn emit_asset(a: &AssetB, path: &str, places: &mut HashMap<String, String>) -> Value {
    let mut obj = emit(&a.node, path, places);
    let products = emit_products(&a.products, &format!("{path}.products"), places);
    obj.insert("products".to_owned(), products);
    // A package whose parent is another package of the asset goes under it.
    let nums: Vec<String> = a.packages.iter().map(package_num).collect();
    let parent_of = |p: &PackageB| -> Option<usize> {
        let parent = p.node.obj.get("parentMerchandiseNum")?.as_str()?;
        nums.iter()
            .position(|n| n == parent)
            .filter(|i| nums[*i] != package_num(p))
    };
    let parents: Vec<Option<usize>> = a.packages.iter().map(parent_of).collect();
    let top: Vec<usize> = (0..a.packages.len())
        .filter(|i| parents[*i].is_none())
        .collect();
    if !a.packages.is_empty() {
        let cx = Packages {
            all: &a.packages,
            parents: &parents,
        };
        let list = top
            .iter()
            .enumerate()
            .map(|(m, i)| cx.emit(*i, &format!("{path}.merchandises[{m}]"), places, 0))
            .collect();
        obj.insert("merchandises".to_owned(), Value::Array(list));
    }
    Value::Object(obj)
}

fn package_num(p: &PackageB) -> String {
    p.node
        .obj
        .get("merchandiseNum")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

struct Packages<'a> {
    all: &'a [PackageB],
    parents: &'a [Option<usize>],
}

impl Packages<'_> {
    fn emit(
        &self,
        i: usize,
        path: &str,
        places: &mut HashMap<String, String>,
        depth: usize,
    ) -> Value {
        let p = &self.all[i];
        let mut obj = emit(&p.node, path, places);
        let products = emit_products(
            &p.products,
            &format!("{path}.licenseOrderProductList"),
            places,
        );
        obj.insert("licenseOrderProductList".to_owned(), products);
        // A cycle of parents stops here; the platform's depth rule says the rest.
        let children: Vec<Value> = if depth > 32 {
            Vec::new()
        } else {
            (0..self.all.len())
                .filter(|c| self.parents[*c] == Some(i))
                .enumerate()
                .map(|(n, c)| self.emit(c, &format!("{path}.children[{n}]"), places, depth + 1))
                .collect()
        };
        let children = if children.is_empty() {
            Value::Null
        } else {
            Value::Array(children)
        };
        obj.insert("children".to_owned(), children);
        Value::Object(obj)
    }
}

/// A cell as the JSON of its column's field; None when empty. What does not convert is kept
/// as the text it is, to be shown as typed and said wrong.
fn convert(kind: Kind, cell: &Cell) -> Option<Value> {
    if cell.is_empty() {
        return None;
    }
    let text = cell.text();
    Some(match kind {
        Kind::Text => Value::String(text),
        Kind::Integer => match cell {
            Cell::Number(n) if n.fract() == 0.0 => json!(*n as i64),
            _ => text
                .parse::<i64>()
                .map_or(Value::String(text.clone()), |n| json!(n)),
        },
        Kind::StartDate | Kind::EndDate => {
            let day = match cell {
                Cell::Date(d) => Some(*d),
                _ => parse_day(&text),
            };
            day.and_then(|d| day_ms(d, kind == Kind::EndDate))
                .map_or(Value::String(text), |ms| json!(ms))
        }
        Kind::YesNo => match cell {
            Cell::Bool(b) => Value::Bool(*b),
            _ => yes_no(&text).map_or(Value::String(text), Value::Bool),
        },
        Kind::ZeroOne => match yes_no(&text) {
            Some(on) => json!(i32::from(on)),
            None => Value::String(text),
        },
        Kind::List => Value::Array(split_list(&text).into_iter().map(Value::String).collect()),
        Kind::Pairs => Value::Array(
            text.split([';', '；', '\n'])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|pair| {
                    let (code, value) = pair.split_once(['=', '＝']).unwrap_or((pair, ""));
                    json!({"extendCode": code.trim(), "extendValue": value.trim()})
                })
                .collect(),
        ),
    })
}

fn parse_day(text: &str) -> Option<Date> {
    let normal: String = text
        .trim()
        .chars()
        .map(|c| if matches!(c, '/' | '.') { '-' } else { c })
        .collect();
    normal.parse().ok()
}

fn yes_no(text: &str) -> Option<bool> {
    match text.trim().to_lowercase().as_str() {
        "yes" | "y" | "true" | "1" | "是" | "真" => Some(true),
        "no" | "n" | "false" | "0" | "否" | "假" => Some(false),
        _ => None,
    }
}

/// Values in one cell, separated by spaces, commas, semicolons (either width) or new lines.
fn split_list(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '，' | '；' | '、'))
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The header row of the template: English or Chinese.
pub fn headers(chinese: bool) -> Vec<&'static str> {
    COLUMNS
        .iter()
        .map(|c| if chinese { c.zh } else { c.en })
        .collect()
}
