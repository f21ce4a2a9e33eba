//! Every label in Chinese and English. The default follows the OS locale.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// Chinese when the OS locale is Chinese (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English.
    pub fn from_os() -> Lang {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        if locale.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// The language's own name, as the switch shows it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "中文",
        }
    }
}

/// A label of the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    AppName,
    Customers,
    Orders,
    Assets,
    Activities,
    AssetNumbers,
    History,
    Settings,
    Profile,
    Production,
    Sandbox,
    KeyringChecking,
    KeyringOk,
    KeyringMemory,
    SandboxStarting,
    SandboxReady,
    SandboxFailed,
    Ready,
    Language,
    Theme,
    Dark,
    Light,
    Coming,
    CustomersWill,
    OrdersWill,
    AssetsWill,
    ActivitiesWill,
    AssetNumbersWill,
    HistoryWill,
    SettingsWill,
    Refresh,
    Operation,
    Code,
    CodeFilter,
    AllOperations,
    ExportCsv,
    ExportTo,
    Time,
    Http,
    DurationMs,
    Attempt,
    Request,
    Response,
    NoEntries,
    Exported,
    Failed,
    Loading,
}

pub fn t(lang: Lang, text: Text) -> &'static str {
    use Text::*;
    let (en, zh) = match text {
        AppName => ("License Desk", "授权管理台"),
        Customers => ("Customers", "客户"),
        Orders => ("Orders", "订单"),
        Assets => ("Assets", "资产"),
        Activities => ("Activities", "活动"),
        AssetNumbers => ("Asset numbers", "资产编号"),
        History => ("History", "历史记录"),
        Settings => ("Settings", "设置"),
        Profile => ("Profile", "配置"),
        Production => ("PRODUCTION", "生产环境"),
        Sandbox => ("Sandbox", "沙箱"),
        KeyringChecking => ("Keyring: checking…", "密钥环：检查中…"),
        KeyringOk => ("Keyring", "密钥环"),
        KeyringMemory => (
            "No keyring: secrets kept for this session only",
            "无密钥环：密钥仅在本次会话中保存",
        ),
        SandboxStarting => ("Sandbox starting…", "沙箱启动中…"),
        SandboxReady => ("Sandbox ready", "沙箱已就绪"),
        SandboxFailed => ("Sandbox failed", "沙箱启动失败"),
        Ready => ("Ready", "就绪"),
        Language => ("Language", "语言"),
        Theme => ("Theme", "主题"),
        Dark => ("Dark", "深色"),
        Light => ("Light", "浅色"),
        Coming => ("Coming in the next release", "将在下一版本提供"),
        CustomersWill => (
            "Query customers by channel code and channel customer id, bind a customer to an enterprise, create an enterprise master account and see its members, update its name and address.",
            "按渠道编码和渠道客户编号查询客户，将客户绑定到企业主账号，创建企业主账号并查看其成员，修改名称和地址。",
        ),
        OrdersWill => (
            "Compose batch license orders visually or import order JSON from a file, see every problem before sending, and submit.",
            "可视化编排批量授权订单或从文件导入订单 JSON，提交前查看所有问题，然后提交。",
        ),
        AssetsWill => (
            "List an enterprise's assets, filter them, and disable or enable locks by clicking in the grid.",
            "列出企业的资产并筛选，在表格中点击即可禁用或启用加密锁。",
        ),
        ActivitiesWill => (
            "Claim an activity's products for a participant and see why a claim is refused.",
            "为参与者领取活动产品，并查看领取被拒绝的原因。",
        ),
        AssetNumbersWill => (
            "Ask the platform for new asset numbers, copy or export them, and send them to the order composer.",
            "向平台申请新的资产编号，复制或导出，并发送到订单编排。",
        ),
        HistoryWill => (
            "Every call in a table: filter by operation and code, see the redacted request and answer, export to CSV.",
            "以表格列出每次调用：按操作和代码筛选，查看脱敏后的请求和应答，导出为 CSV。",
        ),
        SettingsWill => (
            "Add, edit, remove and switch profiles; enter app secrets (kept in the OS keyring); test a connection.",
            "添加、编辑、删除和切换配置；输入应用密钥（保存在系统密钥环中）；测试连接。",
        ),
        Refresh => ("Refresh", "刷新"),
        Operation => ("Operation", "操作"),
        Code => ("Code", "代码"),
        CodeFilter => ("Filter by code", "按代码筛选"),
        AllOperations => ("All operations", "全部操作"),
        ExportCsv => ("Export CSV", "导出 CSV"),
        ExportTo => ("Export to", "导出到"),
        Time => ("Time", "时间"),
        Http => ("HTTP", "HTTP"),
        DurationMs => ("ms", "毫秒"),
        Attempt => ("Attempt", "尝试"),
        Request => ("Request", "请求"),
        Response => ("Response", "应答"),
        NoEntries => ("No calls recorded yet.", "尚无调用记录。"),
        Exported => ("Exported", "已导出"),
        Failed => ("Failed", "失败"),
        Loading => ("Loading…", "加载中…"),
    };
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}
