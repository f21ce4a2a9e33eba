//! What a batch's delete orders remove, drawn: the counts, each warning in words, and a table
//! of the assets and products that go. The composer's confirmation and the Approvals screen
//! show a preview alike.

use egui::RichText;

use crate::core::wire::preview::{DeletePreview, OrderPreview, RemovedProduct, Warning};
use crate::ui::text::dates::local_date;
use crate::ui::text::i18n::{Lang, tr};
use crate::ui::text::labels::order_type_short;
use crate::ui::text::refusals;

/// Rows of the table at most; the count says how many there are.
const MAX_ROWS: usize = 200;

pub fn found_ui(ui: &mut egui::Ui, lang: Lang, found: &DeletePreview) {
    let warn = ui.visuals().warn_fg_color;
    let (products, assets) = (found.products_removed(), found.assets_removed());
    // When some order's effect is unknown, the counts are only what is known; counts of
    // nothing say so in words rather than as "0 and 0, a line below each".
    let counts = if products + assets == 0 {
        if found.unknown() {
            tr!(lang, "preview-counts-unknown")
        } else {
            tr!(lang, "preview-counts-none")
        }
    } else if found.unknown() {
        tr!(
            lang,
            "preview-counts-partial",
            products = products,
            assets = assets
        )
    } else {
        tr!(lang, "preview-counts", products = products, assets = assets)
    };
    ui.label(RichText::new(counts).strong());
    for order in &found.orders {
        for w in &order.warnings {
            ui.colored_label(warn, warning_words(lang, order, w));
        }
    }
    table_ui(ui, lang, found);
}

fn sequence(order: &OrderPreview) -> String {
    order
        .sequence
        .map_or_else(|| format!("[{}]", order.index), |s| s.to_string())
}

/// What a warning means for the order, in words.
fn warning_words(lang: Lang, order: &OrderPreview, w: &Warning) -> String {
    let seq = sequence(order);
    match w {
        Warning::RemovesNothing => tr!(lang, "warn-removes-nothing", seq = seq),
        Warning::AllOrdersOfCustomer => tr!(lang, "warn-all-orders", seq = seq),
        Warning::LooseMatch {
            asset_num,
            product_uri,
            count,
        } => tr!(
            lang,
            "warn-loose-match",
            seq = seq,
            product = product_uri.as_str(),
            count = count.to_string(),
            asset = asset_num.as_str()
        ),
        Warning::AssetNotListed { asset_num } => {
            tr!(
                lang,
                "warn-asset-not-listed",
                seq = seq,
                asset = asset_num.as_str()
            )
        }
        Warning::Refused { path, refusal, .. } => {
            let words = refusals::words(lang, refusal);
            tr!(
                lang,
                "warn-refused",
                seq = seq,
                path = path.as_str(),
                message = words.trim_end_matches(['。', '.'])
            )
        }
        Warning::UnknownEnterprise => tr!(lang, "warn-unknown-enterprise", seq = seq),
        Warning::ListingFailed { reason } => {
            let enterprise = order.enterprise_global_id.as_deref().unwrap_or("—");
            tr!(
                lang,
                "warn-listing-failed",
                seq = seq,
                enterprise = enterprise,
                reason = reason.as_str()
            )
        }
        Warning::ProductsNotListed => tr!(lang, "warn-products-not-listed", seq = seq),
    }
}

/// One line per product instance that goes, and one per asset that goes whole.
fn table_ui(ui: &mut egui::Ui, lang: Lang, found: &DeletePreview) {
    let rows = found.products_removed() + found.assets_removed();
    if rows == 0 {
        return;
    }
    let heads = [
        tr!(lang, "preview-col-order"),
        tr!(lang, "preview-col-asset"),
        tr!(lang, "preview-col-product"),
        tr!(lang, "preview-col-validity"),
        tr!(lang, "preview-col-nodes"),
        tr!(lang, "preview-col-source"),
    ];
    egui::ScrollArea::vertical()
        .id_salt("delete_preview")
        .max_height(220.0)
        .show(ui, |ui| {
            egui::Grid::new("delete_preview_table")
                .striped(true)
                .num_columns(heads.len())
                .show(ui, |ui| {
                    for head in &heads {
                        ui.label(RichText::new(head).strong());
                    }
                    ui.end_row();
                    let mut shown = 0;
                    'orders: for order in &found.orders {
                        let what = format!(
                            "#{} {}",
                            sequence(order),
                            order_type_short(lang, order.order_type)
                        );
                        for num in &order.assets_removed {
                            if shown == MAX_ROWS {
                                break 'orders;
                            }
                            whole_asset_row_ui(ui, lang, &what, num);
                            shown += 1;
                        }
                        for removed in &order.removed {
                            if shown == MAX_ROWS {
                                break 'orders;
                            }
                            product_row_ui(ui, &what, removed);
                            shown += 1;
                        }
                    }
                });
        });
    if rows > MAX_ROWS {
        let more = rows - MAX_ROWS;
        ui.label(tr!(lang, "preview-more-rows", n = more));
    }
}

fn whole_asset_row_ui(ui: &mut egui::Ui, lang: Lang, what: &str, num: &str) {
    ui.label(what);
    ui.label(RichText::new(num).monospace());
    ui.label(RichText::new(tr!(lang, "preview-whole-asset")).strong());
    ui.label("");
    ui.label("");
    ui.label("");
    ui.end_row();
}

fn product_row_ui(ui: &mut egui::Ui, what: &str, removed: &RemovedProduct) {
    let p = &removed.product;
    let date = |ms: Option<i64>| ms.map_or_else(|| "—".to_owned(), local_date);
    ui.label(what);
    ui.label(RichText::new(&removed.asset_num).monospace());
    let name = p.product_name.as_deref().unwrap_or_default();
    ui.label(format!("{name} {}", p.product_uri).trim().to_owned());
    // A product without dates is valid without limit: one dash says it.
    ui.label(match (p.limit_start_date, p.limit_end_date) {
        (None, None) => "—".to_owned(),
        (start, end) => format!("{} – {}", date(start), date(end)),
    });
    ui.label(
        p.limit_concurrent
            .map_or_else(String::new, |n| n.to_string()),
    );
    let source = p
        .license_order_id
        .as_deref()
        .or(p.activity_id.as_deref())
        .unwrap_or("—");
    ui.label(RichText::new(source).monospace());
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::refusal::Refusal;

    #[test]
    fn the_preview_s_refusals_are_said_in_chinese() {
        let said = |refusal| refusals::words(Lang::Zh, &refusal);
        assert_eq!(
            said(Refusal::OwnedByOther {
                asset: "8900000005".into(),
                owner: "CU0000000001".into(),
                customer: "CU0000000005".into()
            }),
            "资产 8900000005 属于客户 CU0000000001，不是本订单的客户 CU0000000005：请将订单的客户（平台客户编号）改为 CU0000000001，或从订单中移除该资产。"
        );
        assert_eq!(
            said(Refusal::RemovedEarlier {
                asset: "8900000005".into()
            }),
            "资产 8900000005 已被本批次中前面的订单删除。"
        );
        assert!(
            said(Refusal::OwnedForNew {
                asset: "8900000005".into(),
                owner: "CU0000000001".into()
            })
            .contains("会新建一个客户")
        );
        assert_eq!(
            said(Refusal::NothingFromSource {
                asset: "8900000005".into()
            }),
            "资产 8900000005 中没有来自来源授权订单的内容。"
        );
    }

    fn shown(lang: Lang, warning: Warning) -> egui_kittest::Harness<'static> {
        let found = DeletePreview {
            orders: vec![OrderPreview {
                index: 0,
                sequence: Some(1),
                order_type: crate::core::wire::OrderType::DeleteProduct,
                enterprise_global_id: None,
                removed: Vec::new(),
                assets_removed: Vec::new(),
                warnings: vec![warning],
            }],
        };
        egui_kittest::Harness::builder()
            .with_context_setup(crate::ui::kit::fonts::install)
            .build_ui(move |ui| found_ui(ui, lang, &found))
    }

    #[test]
    fn a_delete_of_nothing_says_so_and_what_to_do() {
        use egui_kittest::kittest::Queryable;
        let harness = shown(Lang::En, Warning::RemovesNothing);
        harness.get_by_label("As the assets are listed now, this removes nothing.");
        harness.get_by_label(
            "Order #1 removes nothing: none of its assets holds what it names. Check its asset \
             numbers and products against the customer's page, or remove the order.",
        );
        let harness = shown(Lang::Zh, Warning::UnknownEnterprise);
        harness.get_by_label("本批次将删除什么尚不可知（见下方）。");
        harness.get_by_label(
            "订单 #1 未指定企业，客户目录中也没有其客户所属的企业：删除内容未知。\
             请先在“客户 › 绑定客户”中将客户绑定到企业，或在订单中填写企业全局编号，再预览。",
        );
    }
}
