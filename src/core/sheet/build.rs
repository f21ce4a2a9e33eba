//! A sheet's rows grouped into a batch: rows with the same order number are one order; within
//! it, rows with the same asset numbers one asset; a product row with a package number goes
//! into that package, and a package naming a parent package of the same asset goes under it.
//! Each value keeps the cell it came from, each node its first row, to place problems.

use std::collections::HashMap;

use jiff::civil::Date;
use serde_json::{Map, Value, json};

use super::columns::{Column, Kind, Level, code_of, column_of};
use super::read::{Cell, Grid};
use crate::core::progress::{Cancelled, Progress, Stage};
use support::clock::day_ms;

/// The batch as JSON, where each of its values came from, and the headers not understood.
pub struct Built {
    pub batch: Map<String, Value>,
    /// Each node by its interface path (`orderList[0].assets[1]`; the batch is ``): where
    /// it is in the sheet.
    pub places: HashMap<String, NodePlace>,
    /// Each column's field, by its level, and its 0-based column in the sheet.
    pub header: Vec<(Level, &'static str, usize)>,
    /// `Orders!K1: Foo`: headers that name no column; their cells are not read.
    pub unknown_headers: Vec<String>,
    /// Packages whose parent number places them nowhere: kept at the top level of their asset.
    pub misplaced: Vec<Misplaced>,
}

/// A package its parent number could not place under another package of its asset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misplaced {
    /// The parent number's cell, `Orders!M3`.
    pub cell: String,
    pub package: String,
    pub parent: String,
    pub why: MisplacedWhy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MisplacedWhy {
    /// No package of the asset has that number.
    UnknownParent,
    /// Following the parents leads back to this package.
    Cycle,
}

impl std::fmt::Display for Misplaced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (cell, package, parent) = (&self.cell, &self.package, &self.parent);
        match self.why {
            MisplacedWhy::UnknownParent => write!(
                f,
                "{cell}: package {package} names parent package {parent}, which is no package \
                 of its asset; it is kept at the top level of the asset"
            ),
            MisplacedWhy::Cycle => write!(
                f,
                "{cell}: package {package} names parent package {parent}, whose parents lead \
                 back to {package}; the cycle is cut and kept from the top level of the asset"
            ),
        }
    }
}

/// A misplaced package before its cell is named: the parent number's row and column.
struct Unplaced {
    row: usize,
    col: usize,
    package: String,
    parent: String,
    why: MisplacedWhy,
}

/// Where a node is: its first row (0-based in the grid) and the cell of each field it got.
#[derive(Debug, Default, Clone)]
pub struct NodePlace {
    pub level: Option<Level>,
    pub row: usize,
    /// (field, row, column) of each value the node got from a cell.
    pub cells: Vec<(&'static str, usize, usize)>,
}

#[derive(Default)]
struct NodeB {
    obj: Map<String, Value>,
    place: NodePlace,
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

/// The row being read: its cells with their columns, and where it is.
struct Row<'a> {
    cells: Vec<(&'static Column, &'a Cell, usize)>,
    at: usize,
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
    /// gives it, and is its place).
    fn fill(&self, node: &mut NodeB, level: Level) {
        if node.place.level.is_none() {
            node.place = NodePlace {
                level: Some(level),
                row: self.at,
                cells: Vec::new(),
            };
        }
        for (column, cell, col) in self.cells.iter().filter(|(c, ..)| c.level == level) {
            if node.obj.contains_key(column.field) {
                continue;
            }
            if let Some(value) = convert(column.kind, column.field, cell) {
                node.obj.insert(column.field.to_owned(), value);
                node.place.cells.push((column.field, self.at, *col));
            }
        }
    }
}

/// The batch of a sheet's rows, each row told to `progress`; stopped when the user cancels.
pub fn build(grid: &Grid, progress: &Progress) -> Result<Built, Cancelled> {
    progress.start(Stage::Building, grid.rows.len() as u64);
    let mut rows = grid.rows.iter().enumerate();
    let mut built = Built {
        batch: Map::new(),
        places: HashMap::new(),
        header: Vec::new(),
        unknown_headers: Vec::new(),
        misplaced: Vec::new(),
    };
    // The header is the first row with anything in it.
    let Some((header_at, header)) = rows.find(|(_, r)| r.iter().any(|c| !c.is_empty())) else {
        return Ok(built);
    };
    let columns: Vec<Option<&'static Column>> = header
        .iter()
        .enumerate()
        .map(|(col, cell)| {
            let known = column_of(&cell.text());
            match known {
                Some(c) => built.header.push((c.level, c.field, col)),
                None if !cell.is_empty() => built.unknown_headers.push(format!(
                    "{}: {}",
                    grid.cell_name(header_at, col),
                    cell.text()
                )),
                None => {}
            }
            known
        })
        .collect();
    let mut batch = NodeB::default();
    let mut orders: Vec<OrderB> = Vec::new();
    let mut by_order: HashMap<String, usize> = HashMap::new();
    for (at, cells) in rows {
        if at % 512 == 0 {
            progress.at(at as u64)?;
        }
        let row = Row {
            cells: cells
                .iter()
                .enumerate()
                .filter_map(|(col, cell)| Some((columns.get(col).copied()??, cell, col)))
                .collect(),
            at,
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
    let mut unplaced = Vec::new();
    let mut obj = emit(batch, String::new(), &mut places);
    let list: Vec<Value> = orders
        .into_iter()
        .enumerate()
        .map(|(i, o)| emit_order(o, format!("orderList[{i}]"), &mut places, &mut unplaced))
        .collect();
    obj.insert("orderList".to_owned(), Value::Array(list));
    built.batch = obj;
    built.places = places;
    built.misplaced = unplaced
        .into_iter()
        .map(|u| Misplaced {
            cell: grid.cell_name(u.row, u.col),
            package: u.package,
            parent: u.parent,
            why: u.why,
        })
        .collect();
    Ok(built)
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

type Places = HashMap<String, NodePlace>;

/// The node's JSON; where it is in the sheet is recorded under `path`.
fn emit(node: NodeB, path: String, places: &mut Places) -> Map<String, Value> {
    places.insert(path, node.place);
    node.obj
}

fn emit_order(o: OrderB, path: String, places: &mut Places, out: &mut Vec<Unplaced>) -> Value {
    let assets = o
        .assets
        .into_iter()
        .enumerate()
        .map(|(j, a)| emit_asset(a, format!("{path}.assets[{j}]"), places, out))
        .collect();
    let mut obj = emit(o.node, path, places);
    obj.insert("assets".to_owned(), Value::Array(assets));
    Value::Object(obj)
}

fn emit_products(products: Vec<NodeB>, path: &str, places: &mut Places) -> Value {
    products
        .into_iter()
        .enumerate()
        .map(|(k, p)| Value::Object(emit(p, format!("{path}[{k}]"), places)))
        .collect()
}

fn emit_asset(a: AssetB, path: String, places: &mut Places, out: &mut Vec<Unplaced>) -> Value {
    let products = emit_products(a.products, &format!("{path}.products"), places);
    let parents = parents_of(&a.packages, out);
    let packages = (!a.packages.is_empty()).then(|| {
        let mut cx = Packages {
            all: a.packages.into_iter().map(Some).collect(),
            parents: &parents,
        };
        // The top-level packages with their trees; then what no tree reached (a cycle of
        // parents), from the top level too, so that no package and none of its products is lost.
        let mut list = Vec::new();
        for (i, parent) in parents.iter().enumerate() {
            if parent.is_none() {
                list.push(cx.emit(i, format!("{path}.merchandises[{}]", list.len()), places, 0));
            }
        }
        for i in 0..parents.len() {
            if cx.all[i].is_some() {
                list.push(cx.emit(i, format!("{path}.merchandises[{}]", list.len()), places, 0));
            }
        }
        list
    });
    let mut obj = emit(a.node, path, places);
    obj.insert("products".to_owned(), products);
    if let Some(list) = packages {
        obj.insert("merchandises".to_owned(), Value::Array(list));
    }
    Value::Object(obj)
}

/// Each package's parent among the asset's packages, by index. A parent number that names no
/// package, or whose parents lead back to the package, is told to `out` at its cell.
fn parents_of(packages: &[PackageB], out: &mut Vec<Unplaced>) -> Vec<Option<usize>> {
    let nums: Vec<String> = packages.iter().map(package_num).collect();
    let named: Vec<Option<String>> = packages
        .iter()
        .map(|p| {
            let parent = p.node.obj.get("parentMerchandiseNum")?.as_str()?.trim();
            (!parent.is_empty()).then(|| parent.to_owned())
        })
        .collect();
    let parents: Vec<Option<usize>> = named
        .iter()
        .map(|n| nums.iter().position(|num| Some(num) == n.as_ref()))
        .collect();
    for (i, p) in packages.iter().enumerate() {
        let Some(parent) = &named[i] else {
            continue;
        };
        let why = match parents[i] {
            None => MisplacedWhy::UnknownParent,
            Some(_) if leads_back(&parents, i) => MisplacedWhy::Cycle,
            Some(_) => continue,
        };
        let cell = p
            .node
            .place
            .cells
            .iter()
            .find(|c| c.0 == "parentMerchandiseNum");
        let (row, col) = cell.map_or((p.node.place.row, 0), |c| (c.1, c.2));
        out.push(Unplaced {
            row,
            col,
            package: nums[i].clone(),
            parent: parent.clone(),
            why,
        });
    }
    parents
}

/// Whether following the parents from `i` comes back to `i`.
fn leads_back(parents: &[Option<usize>], i: usize) -> bool {
    let mut at = parents[i];
    for _ in 0..parents.len() {
        match at {
            Some(p) if p == i => return true,
            Some(p) => at = parents[p],
            None => return false,
        }
    }
    false
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
    /// Each package until it is placed in the tree.
    all: Vec<Option<PackageB>>,
    parents: &'a [Option<usize>],
}

impl Packages<'_> {
    fn emit(&mut self, i: usize, path: String, places: &mut Places, depth: usize) -> Value {
        let Some(p) = self.all.get_mut(i).and_then(Option::take) else {
            return Value::Null;
        };
        let products = emit_products(
            p.products,
            &format!("{path}.licenseOrderProductList"),
            places,
        );
        // Cycles are cut before this; the depth rule of the platform says the rest.
        let children: Vec<Value> = if depth > 32 {
            Vec::new()
        } else {
            // A package already placed (the start of a cycle) is not placed twice.
            let mine: Vec<usize> = (0..self.parents.len())
                .filter(|c| self.parents[*c] == Some(i) && self.all[*c].is_some())
                .collect();
            mine.into_iter()
                .enumerate()
                .map(|(n, c)| self.emit(c, format!("{path}.children[{n}]"), places, depth + 1))
                .collect()
        };
        let mut obj = emit(p.node, path, places);
        obj.insert("licenseOrderProductList".to_owned(), products);
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
fn convert(kind: Kind, field: &str, cell: &Cell) -> Option<Value> {
    if cell.is_empty() {
        return None;
    }
    let text = cell.text();
    Some(match kind {
        Kind::Text => match code_of(field, &text) {
            Some(code) => Value::String(code.to_owned()),
            None => Value::String(text),
        },
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
