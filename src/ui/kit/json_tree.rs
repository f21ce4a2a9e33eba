//! A JSON body as a tree a person reads: an object's fields and an array's items as rows that
//! open and close, leaves as `name: value`. The first levels are open; long arrays show their
//! first items and say how many more there are.

use egui::RichText;
use serde_json::Value;

/// Items of an array drawn before "… N more".
const SHOWN_ITEMS: usize = 100;
/// Levels open when first drawn.
const OPEN_LEVELS: usize = 2;

pub fn json_tree_ui(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, value: &Value) {
    ui.push_id(id, |ui| node_ui(ui, None, value, 0));
}

fn node_ui(ui: &mut egui::Ui, name: Option<&str>, value: &Value, depth: usize) {
    match value {
        Value::Object(fields) => {
            let header = header_text(name, "{…}", fields.len());
            collapsing_ui(ui, header, depth, |ui| {
                for (key, v) in fields {
                    node_ui(ui, Some(key), v, depth + 1);
                }
            });
        }
        Value::Array(items) => {
            let header = header_text(name, "[…]", items.len());
            collapsing_ui(ui, header, depth, |ui| {
                for (i, v) in items.iter().take(SHOWN_ITEMS).enumerate() {
                    node_ui(ui, Some(&format!("{}", i + 1)), v, depth + 1);
                }
                if items.len() > SHOWN_ITEMS {
                    let more = items.len() - SHOWN_ITEMS;
                    ui.label(RichText::new(format!("… +{more}")).weak());
                }
            });
        }
        leaf => {
            let shown = match leaf {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let line = match name {
                Some(name) => format!("{name}: {shown}"),
                None => shown,
            };
            ui.label(RichText::new(line).monospace());
        }
    }
}

fn header_text(name: Option<&str>, shape: &str, len: usize) -> String {
    match name {
        Some(name) => format!("{name} {shape} ({len})"),
        None => format!("{shape} ({len})"),
    }
}

fn collapsing_ui(
    ui: &mut egui::Ui,
    header: String,
    depth: usize,
    body: impl FnOnce(&mut egui::Ui),
) {
    egui::CollapsingHeader::new(RichText::new(header).monospace())
        .id_salt(ui.next_auto_id())
        .default_open(depth < OPEN_LEVELS)
        .show(ui, body);
}
