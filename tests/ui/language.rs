//! The window in Chinese: switched to in Settings, every screen drawn with the bundled fonts, a
//! profile named in the UI's language.

use egui_kittest::kittest::Queryable;
use license_desk::ui::text::i18n::Lang;

use test_support::window::{app, click, settle, type_into};

#[test]
fn switching_to_chinese_relabels_the_window() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::En);
    harness.run();
    harness.get_by_label("Settings").click();
    harness.run();
    harness.get_by_label("中文").click();
    harness.run();
    assert_eq!(harness.state().prefs.lang, Lang::Zh);
    harness.get_by_label("客户");
    assert_eq!(harness.get_all_by_label("设置").count(), 2);
    // The top bar and the profile list both name the built-in profile in Chinese.
    assert_eq!(harness.get_all_by_label("沙箱").count(), 2);
    assert!(harness.query_by_label("Customers").is_none());
}

/// Every screen, tab and form drawn in Chinese: the harness panics on a character no font has,
/// so this proves the bundled subset covers every Chinese label.
#[test]
fn every_screen_renders_in_chinese() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    click(&mut harness, "开始");
    harness.get_by_label("当前配置：沙箱");
    click(&mut harness, "客户");
    for tab in ["查询客户", "绑定客户", "创建企业主账号", "修改企业"] {
        click(&mut harness, tab);
    }
    click(&mut harness, "修改");
    assert_eq!(harness.query_all_by_label("必填").count(), 2);
    click(&mut harness, "订单");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("批次 LD-").next().is_some()
    });
    // The asset's form, through its problem, said in Chinese there and under its field.
    click(
        &mut harness,
        "订单 1 › 资产 1 › 资产编号：至少需要一个资产编号",
    );
    harness.get_by_label("至少需要一个资产编号");
    harness.get_by_label("申请新资产编号");
    harness.get_by_label("撤销");
    harness.get_by_label("重做");
    click(&mut harness, "资产");
    type_into(&mut harness, "企业全局编号", "EG0000000001");
    click(&mut harness, "列出资产");
    settle(&mut harness, |h| h.query_by_label("8900000001").is_some());
    click(&mut harness, "8900000005");
    harness.get_by_label("已选 1 个（其中加密锁 1 个）");
    click(&mut harness, "禁用所选");
    harness.get_by_label("禁用 1 把加密锁？");
    click(&mut harness, "取消");
    click(&mut harness, "按编号禁用/启用…");
    click(&mut harness, "取消");
    click(&mut harness, "活动");
    type_into(&mut harness, "身份标识", "EG0000000001");
    harness.get_by_label("企业全局编号");
    click(&mut harness, "资产编号");
    click(&mut harness, "申请新资产编号");
    settle(&mut harness, |h| h.query_by_label("10 个编号").is_some());
    for screen in ["历史记录", "设置"] {
        click(&mut harness, screen);
    }
    click(&mut harness, "添加配置");
    click(&mut harness, "保存");
    assert_eq!(harness.query_all_by_label("必填").count(), 3);
    assert_eq!(
        harness
            .query_all_by_label("须为 http:// 或 https:// 地址")
            .count(),
        2
    );
    harness.get_by_label("应用密钥");
    harness.get_by_label("生产环境");
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, "沙箱")
        .click();
    harness.run_ok();
    click(&mut harness, "测试连接");
    settle(&mut harness, |h| {
        h.query_by_label_contains("沙箱：连接成功").is_some()
    });
}

/// A sentence that names a profile names the Sandbox in the UI's language: the confirmation
/// and the result of a submit, in Chinese.
#[test]
fn a_submit_in_chinese_names_the_sandbox_in_chinese() {
    let dir = tempfile::tempdir().expect("dir");
    let mut harness = app(dir.path(), Lang::Zh);
    harness.run_ok();
    let file = dir.path().join("zh.json");
    let batch = serde_json::json!({"channelCode": "SHOP", "channelOrderId": "ZH-1",
        "syncMode": "sync", "orderList": [{"sequence": 1, "channelCustomerId": "S-0001",
        "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
        "assets": [{"assetNos": ["8100000901"], "products": [{"productUri": "gms:1001"}]}]}]});
    std::fs::write(&file, batch.to_string()).expect("write");
    click(&mut harness, "订单");
    settle(&mut harness, |h| {
        h.query_all_by_label_contains("批次 LD-").next().is_some()
    });
    type_into(&mut harness, "文件", &file.display().to_string());
    click(&mut harness, "导入");
    settle(&mut harness, |h| {
        h.query_by_label("没有问题，可以提交。").is_some()
    });
    click(&mut harness, "提交批量订单");
    harness.get_by_label("向“沙箱”提交此批量订单？");
    click(&mut harness, "提交");
    settle(&mut harness, |h| {
        h.query_by_label("已提交到“沙箱”：平台记录了 1 个授权订单。")
            .is_some()
    });
}
