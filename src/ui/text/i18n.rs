//! Every label in Chinese and English, from the Fluent files in `i18n/` (`en` and `zh-CN`, the
//! same message ids in each; a test checks it). `tr!` names a message and its arguments, and
//! `i18n-embed-fl` checks both at compile time; plurals follow each language's rules. The
//! default language follows the OS.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use i18n_embed::LanguageLoader;
use i18n_embed::fluent::{FluentLanguageLoader, fluent_language_loader};
use rust_embed::RustEmbed;
use serde::{Deserialize, Serialize};

#[derive(RustEmbed)]
#[folder = "i18n/"]
struct Translations;

/// A message of the UI in a language: `tr!(lang, "id")`, `tr!(lang, "id", n = count)`.
macro_rules! tr {
    ($lang:expr, $id:literal) => {
        i18n_embed_fl::fl!($crate::ui::text::i18n::loader($lang), $id)
    };
    ($lang:expr, $id:literal, $($args:tt)*) => {
        i18n_embed_fl::fl!($crate::ui::text::i18n::loader($lang), $id, $($args)*)
    };
}
pub(crate) use tr;

fn load(language: &str) -> FluentLanguageLoader {
    let loader: FluentLanguageLoader = fluent_language_loader!();
    // The files are compiled in, so this fails only for a defect the tests catch; English,
    // the fallback, then answers.
    match language.parse() {
        Ok(id) => {
            if let Err(e) = loader.load_languages(&Translations, &[id]) {
                tracing::error!(error = %e, language, "the translations could not be loaded");
            }
        }
        Err(e) => tracing::error!(error = %e, language, "not a language identifier"),
    }
    // egui lays text out itself: Unicode isolation marks around arguments would show as boxes.
    loader.set_use_isolating(false);
    loader
}

static ENGLISH: LazyLock<FluentLanguageLoader> = LazyLock::new(|| load("en"));
static CHINESE: LazyLock<FluentLanguageLoader> = LazyLock::new(|| load("zh-CN"));

/// The messages of a language (one loader each: tests run windows in both at once).
pub fn loader(lang: Lang) -> &'static FluentLanguageLoader {
    match lang {
        Lang::En => &ENGLISH,
        Lang::Zh => &CHINESE,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// Chinese when the OS's first language is Chinese, else English: the user's UI language on
    /// Windows and macOS, `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` or `LANG` elsewhere.
    pub fn from_os() -> Lang {
        match sys_locale::get_locale() {
            Some(locale) if locale.to_ascii_lowercase().starts_with("zh") => Lang::Zh,
            _ => Lang::En,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    KeyringSecretService,
    KeyringKeyutils,
    KeyringWindows,
    KeyringMacos,
    KeyringGiven,
    KeyringMemory,
    SandboxStarting,
    SandboxReady,
    SandboxFailed,
    Ready,
    Language,
    Theme,
    Dark,
    Light,
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
    Refused,
    WindowTitle,
    Submitted,
    StaleResults,
    StartRemoteHelp,
    StartSandboxHelp,
    StartProductionHelp,
    StartOtherProfiles,
    StartDemoTitle,
    StartQueryIt,
    StartListThem,
    StartCompose,
    StartClaim,
    Start,
    KeyringMemoryHelp,
    SwitchProfile,
    KindShortMobile,
    FailuresOnly,
    CallOk,
    NoAnswer,
    ProductionWithoutTls,
    PlainHttp,
    OperatorNeeded,
    NothingToDisable,
    NothingToEnable,
    Loading,
    ExportResults,
    StatusCode,
    StatusWords,
    AssetsStart,
    DisableListed,
    EnableListed,
    Action,
    ActivateSeparately,
    Activation,
    ActiveNow,
    ActivityLabel,
    AllFieldsRequired,
    AssetNumber,
    AssetNumbersHelp,
    Assignment,
    AwaitingActivation,
    Branch,
    Chip4,
    Chip5,
    Chip,
    ClaimHelp,
    Claim,
    ClearSelection,
    Columns,
    CopyAll,
    CopyResults,
    Created2,
    DisableSelected,
    Disable,
    Disabled,
    EnableSelected,
    Enable,
    ExtendCode,
    Extension,
    ExtensionsCol,
    FilterHint,
    Filter,
    Frozen,
    IdentityHint,
    Identity,
    KindEmail,
    KindEnterprise,
    KindLock,
    KindMobile,
    KindUnknown,
    LicenseTypeCol,
    ListAssets,
    LockByNumbers,
    LockNumbersHelp,
    LockUnlock,
    Member,
    NoAssets,
    NoneYet,
    PlatformSays,
    ProductsCol,
    Reason,
    Recent,
    RegionDomestic,
    RegionOther,
    RegionSingapore,
    Region,
    Result0000,
    Result1001,
    Result1002,
    Result1004,
    Result2001,
    Result3001,
    Result3002,
    ResultOther,
    SelectAllFiltered,
    SendToComposer,
    SortHint,
    Source,
    State,
    StatusFailed,
    StatusNotFound,
    StatusSuccess,
    StatusWrongType,
    UndoDisable,
    UndoEnable,
    Unit14001,
    Unit14002,
    Unit14003,
    Unit14004,
    Unit14005,
    Unit,
    UpdatedCol,
    ValidFrom,
    ValidUntil,
    Validity,
    AssetNumbersHint,
    ExtensionsHint,
    LoadDrafts,
    CheckBatch,
    OpenDraft,
    SaveDraft,
    RenameDraft,
    DeleteDraft,
    Browse,
    ImportFile,
    ExportFile,
    SaveAs,
    GetAssetNumbers,
    SubmitBatch,
    Draft,
    DraftName,
    NewDraft,
    TemplateNewPurchase,
    TemplateDeleteAssets,
    TemplateDeleteProducts,
    OrderFile,
    FileHint,
    LoadingFile,
    DraftUntouched,
    AddOrder,
    AddAsset,
    AddProduct,
    AddPackage,
    AddFeature,
    AddSubPackage,
    Duplicate,
    MoveUp,
    MoveDown,
    Remove,
    NewBatchId,
    HowMany,
    NoProblems,
    Sequence,
    LicenseOrderId,
    DeletesFinal,
    PreviewDeletes,
    Send,
    CannotUndo,
    ConfirmDeleteDraft,
    ExpandCollapse,
    Batch,
    Order,
    Product,
    Feature,
    Package,
    Asset,
    NotANumber,
    NotSet,
    ExplainFile,
    Active,
    InUse,
    Channel,
    ChannelCustomer,
    Enterprise,
    KindProduction,
    ProductionPlatform,
    Operator,
    PlatformAddress,
    AddProfile,
    Address,
    AllCustomers,
    AppKey,
    AppSecret,
    BaseUrl,
    BindCustomer,
    BindHelp,
    Bind,
    Bound,
    BranchName,
    BuiltIn,
    Cancel,
    ChannelCode,
    ChannelCustomerId,
    ConfirmRemove,
    CreateEnterprise,
    CreateHelp,
    Create,
    Created,
    CrmCustomerId,
    CustomerId,
    CustomerName,
    DefaultOnly,
    DefaultType,
    Dismiss,
    Done,
    EditProfile,
    EditThisEnterprise,
    EnterpriseGlobalId,
    EnterpriseName,
    ExplainCaFile,
    ExplainForbidden,
    ExplainInvalid,
    ExplainNoSecret,
    ExplainNotFound,
    ExplainPlatformFailed,
    ExplainProfile,
    ExplainRefused,
    ExplainSandbox,
    ExplainStopped,
    ExplainStorage,
    ExplainTimeout,
    ExplainBroken,
    ExplainOutcomeUnknown,
    ExplainRefusedInAnswer,
    ExplainCancelled,
    SendLater,
    SendNow,
    LoadQueue,
    QueueHelp,
    QueueEmpty,
    KeptToSendLater,
    KeepToSendLater,
    ReadingState,
    ListAgainToRead,
    OutcomeUnknown,
    CancelCall,
    CheckSent,
    MarkDone,
    MarkNotDone,
    SendAgain,
    MarkedDone,
    MarkedNotDone,
    EvidenceListed,
    EvidenceNotListed,
    EvidenceUnreadable,
    ProfileNotRecorded,
    ExplainNoAnswerUnrecorded,
    RefusedInAnswer,
    WriteState,
    ExplainUnauthorized,
    ExplainUnexpected,
    ExplainUnreachable,
    ExplainUntrusted,
    FieldRequired,
    IsDefault,
    KindRemote,
    KindSandbox,
    Kind,
    LoadHistory,
    LoadCatalog,
    Catalog,
    CatalogFile,
    MemberGlobalId,
    MemberIdentity,
    Members,
    NoCustomers,
    No,
    NotMobile,
    OperatorIdentity,
    PasswordMobile,
    ProductionHelp,
    ProfileName,
    ProfilesHelp,
    Profiles,
    QueryCustomers,
    QueryHelp,
    Query,
    RemoveProfileWarning,
    RemoveProfile,
    RequiredMark,
    SaveProfile,
    Save,
    SecretKeepHint,
    SelectProfile,
    ShowEnterpriseCustomers,
    Show,
    TestConnection,
    TokenUrl,
    UpdateEnterprise,
    UpdateHelp,
    Update,
    Updated,
    UseProfile,
    Yes,
}

/// "label: value" with the language's colon (full-width in Chinese, with no space after it).
pub fn labelled(lang: Lang, label: &str, value: &str) -> String {
    match lang {
        Lang::En => format!("{label}: {value}"),
        Lang::Zh => format!("{label}：{value}"),
    }
}

/// "words (note)" with the language's brackets (full-width in Chinese).
pub fn noted(lang: Lang, words: &str, note: &str) -> String {
    match lang {
        Lang::En => format!("{words} ({note})"),
        Lang::Zh => format!("{words}（{note}）"),
    }
}

/// A label without arguments in the language; labels with arguments are `tr!` at their use.
/// Formatted once per language and kept: a frame names hundreds of labels.
pub fn t(lang: Lang, text: Text) -> &'static str {
    static FORMATTED: LazyLock<Mutex<HashMap<(Lang, Text), &'static str>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let mut formatted = FORMATTED.lock().unwrap_or_else(PoisonError::into_inner);
    formatted
        .entry((lang, text))
        .or_insert_with(|| Box::leak(message(lang, text).into_boxed_str()))
}

/// A message named at run time (an interface field's label), formatted once and kept; None
/// when there is no such message.
pub fn lookup(lang: Lang, id: &str) -> Option<&'static str> {
    // One map per language, so that a known id is found without building a key.
    type Found = [HashMap<String, Option<&'static str>>; 2];
    static FOUND: LazyLock<Mutex<Found>> = LazyLock::new(|| Mutex::new(Default::default()));
    let mut found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    let known = &mut found[lang as usize];
    if let Some(message) = known.get(id) {
        return *message;
    }
    let loader = loader(lang);
    let message = loader
        .has(id)
        .then(|| &*Box::leak(loader.get(id).into_boxed_str()));
    known.insert(id.to_owned(), message);
    message
}

/// One arm per label: a table, kept whole so that every id is checked by `fl!` at compile time.
#[expect(
    clippy::too_many_lines,
    reason = "a table of labels, one arm each; splitting it would only scatter it"
)]
fn message(lang: Lang, text: Text) -> String {
    use Text::*;
    match text {
        AppName => tr!(lang, "app-name"),
        Customers => tr!(lang, "customers"),
        Orders => tr!(lang, "orders"),
        Assets => tr!(lang, "assets"),
        Activities => tr!(lang, "activities"),
        AssetNumbers => tr!(lang, "asset-numbers"),
        History => tr!(lang, "history"),
        Settings => tr!(lang, "settings"),
        Profile => tr!(lang, "profile"),
        Production => tr!(lang, "production"),
        Sandbox => tr!(lang, "sandbox"),
        KeyringChecking => tr!(lang, "keyring-checking"),
        KeyringOk => tr!(lang, "keyring-ok"),
        KeyringSecretService => tr!(lang, "keyring-secret-service"),
        KeyringKeyutils => tr!(lang, "keyring-keyutils"),
        KeyringWindows => tr!(lang, "keyring-windows"),
        KeyringMacos => tr!(lang, "keyring-macos"),
        KeyringGiven => tr!(lang, "keyring-given"),
        KeyringMemory => tr!(lang, "keyring-memory"),
        SandboxStarting => tr!(lang, "sandbox-starting"),
        SandboxReady => tr!(lang, "sandbox-ready"),
        SandboxFailed => tr!(lang, "sandbox-failed"),
        Ready => tr!(lang, "ready"),
        Language => tr!(lang, "language"),
        Theme => tr!(lang, "theme"),
        Dark => tr!(lang, "dark"),
        Light => tr!(lang, "light"),
        Refresh => tr!(lang, "refresh"),
        Operation => tr!(lang, "operation"),
        Code => tr!(lang, "code"),
        CodeFilter => tr!(lang, "code-filter"),
        AllOperations => tr!(lang, "all-operations"),
        ExportCsv => tr!(lang, "export-csv"),
        ExportTo => tr!(lang, "export-to"),
        Time => tr!(lang, "time"),
        Http => tr!(lang, "http"),
        DurationMs => tr!(lang, "duration-ms"),
        Attempt => tr!(lang, "attempt"),
        Request => tr!(lang, "request"),
        Response => tr!(lang, "response"),
        NoEntries => tr!(lang, "no-entries"),
        Exported => tr!(lang, "exported"),
        Failed => tr!(lang, "failed"),
        Refused => tr!(lang, "refused"),
        WindowTitle => tr!(lang, "window-title"),
        Submitted => tr!(lang, "draft-submitted"),
        StaleResults => tr!(lang, "stale-results"),
        StartRemoteHelp => tr!(lang, "start-remote-help"),
        StartSandboxHelp => tr!(lang, "start-sandbox-help"),
        StartProductionHelp => tr!(lang, "start-production-help"),
        StartOtherProfiles => tr!(lang, "start-other-profiles"),
        StartDemoTitle => tr!(lang, "start-demo-title"),
        StartQueryIt => tr!(lang, "start-query-it"),
        StartListThem => tr!(lang, "start-list-them"),
        StartCompose => tr!(lang, "start-compose"),
        StartClaim => tr!(lang, "start-claim"),
        Start => tr!(lang, "start"),
        KeyringMemoryHelp => tr!(lang, "keyring-memory-help"),
        SwitchProfile => tr!(lang, "switch-profile"),
        KindShortMobile => tr!(lang, "kind-short-mobile"),
        FailuresOnly => tr!(lang, "failures-only"),
        CallOk => tr!(lang, "call-ok"),
        NoAnswer => tr!(lang, "no-answer"),
        ProductionWithoutTls => tr!(lang, "production-without-tls"),
        PlainHttp => tr!(lang, "plain-http"),
        OperatorNeeded => tr!(lang, "operator-needed"),
        NothingToDisable => tr!(lang, "nothing-to-disable"),
        NothingToEnable => tr!(lang, "nothing-to-enable"),
        Loading => tr!(lang, "loading"),
        ExportResults => tr!(lang, "export-results"),
        StatusCode => tr!(lang, "status-code"),
        StatusWords => tr!(lang, "status-words"),
        AssetsStart => tr!(lang, "assets-start"),
        DisableListed => tr!(lang, "disable-listed"),
        EnableListed => tr!(lang, "enable-listed"),
        Action => tr!(lang, "action"),
        ActivateSeparately => tr!(lang, "activate-separately"),
        Activation => tr!(lang, "activation"),
        ActiveNow => tr!(lang, "active-now"),
        ActivityLabel => tr!(lang, "activity-label"),
        AllFieldsRequired => tr!(lang, "all-fields-required"),
        AssetNumber => tr!(lang, "asset-number"),
        AssetNumbersHelp => tr!(lang, "asset-numbers-help"),
        Assignment => tr!(lang, "assignment"),
        AwaitingActivation => tr!(lang, "awaiting-activation"),
        Branch => tr!(lang, "branch"),
        Chip4 => tr!(lang, "chip4"),
        Chip5 => tr!(lang, "chip5"),
        Chip => tr!(lang, "chip"),
        ClaimHelp => tr!(lang, "claim-help"),
        Claim => tr!(lang, "claim"),
        ClearSelection => tr!(lang, "clear-selection"),
        Columns => tr!(lang, "columns"),
        CopyAll => tr!(lang, "copy-all"),
        CopyResults => tr!(lang, "copy-results"),
        Created2 => tr!(lang, "created2"),
        DisableSelected => tr!(lang, "disable-selected"),
        Disable => tr!(lang, "disable"),
        Disabled => tr!(lang, "disabled"),
        EnableSelected => tr!(lang, "enable-selected"),
        Enable => tr!(lang, "enable"),
        ExtendCode => tr!(lang, "extend-code"),
        Extension => tr!(lang, "extension"),
        ExtensionsCol => tr!(lang, "extensions-col"),
        FilterHint => tr!(lang, "filter-hint"),
        Filter => tr!(lang, "filter"),
        Frozen => tr!(lang, "frozen"),
        IdentityHint => tr!(lang, "identity-hint"),
        Identity => tr!(lang, "identity"),
        KindEmail => tr!(lang, "kind-email"),
        KindEnterprise => tr!(lang, "kind-enterprise"),
        KindLock => tr!(lang, "kind-lock"),
        KindMobile => tr!(lang, "kind-mobile"),
        KindUnknown => tr!(lang, "kind-unknown"),
        LicenseTypeCol => tr!(lang, "license-type-col"),
        ListAssets => tr!(lang, "list-assets"),
        LockByNumbers => tr!(lang, "lock-by-numbers"),
        LockNumbersHelp => tr!(lang, "lock-numbers-help"),
        LockUnlock => tr!(lang, "lock-unlock"),
        Member => tr!(lang, "member"),
        NoAssets => tr!(lang, "no-assets"),
        NoneYet => tr!(lang, "none-yet"),
        PlatformSays => tr!(lang, "platform-says"),
        ProductsCol => tr!(lang, "products-col"),
        Reason => tr!(lang, "reason"),
        Recent => tr!(lang, "recent"),
        RegionDomestic => tr!(lang, "region-domestic"),
        RegionOther => tr!(lang, "region-other"),
        RegionSingapore => tr!(lang, "region-singapore"),
        Region => tr!(lang, "region"),
        Result0000 => tr!(lang, "result0000"),
        Result1001 => tr!(lang, "result1001"),
        Result1002 => tr!(lang, "result1002"),
        Result1004 => tr!(lang, "result1004"),
        Result2001 => tr!(lang, "result2001"),
        Result3001 => tr!(lang, "result3001"),
        Result3002 => tr!(lang, "result3002"),
        ResultOther => tr!(lang, "result-other"),
        SelectAllFiltered => tr!(lang, "select-all-filtered"),
        SendToComposer => tr!(lang, "send-to-composer"),
        SortHint => tr!(lang, "sort-hint"),
        Source => tr!(lang, "source"),
        State => tr!(lang, "state"),
        StatusFailed => tr!(lang, "status-failed"),
        StatusNotFound => tr!(lang, "status-not-found"),
        StatusSuccess => tr!(lang, "status-success"),
        StatusWrongType => tr!(lang, "status-wrong-type"),
        UndoDisable => tr!(lang, "undo-disable"),
        UndoEnable => tr!(lang, "undo-enable"),
        Unit14001 => tr!(lang, "unit14001"),
        Unit14002 => tr!(lang, "unit14002"),
        Unit14003 => tr!(lang, "unit14003"),
        Unit14004 => tr!(lang, "unit14004"),
        Unit14005 => tr!(lang, "unit14005"),
        Unit => tr!(lang, "unit"),
        UpdatedCol => tr!(lang, "updated-col"),
        ValidFrom => tr!(lang, "valid-from"),
        ValidUntil => tr!(lang, "valid-until"),
        Validity => tr!(lang, "validity"),
        AssetNumbersHint => tr!(lang, "asset-numbers-hint"),
        ExtensionsHint => tr!(lang, "extensions-hint"),
        LoadDrafts => tr!(lang, "load-drafts"),
        CheckBatch => tr!(lang, "check-batch"),
        OpenDraft => tr!(lang, "open-draft"),
        SaveDraft => tr!(lang, "save-draft"),
        RenameDraft => tr!(lang, "rename-draft"),
        DeleteDraft => tr!(lang, "delete-draft"),
        Browse => tr!(lang, "browse"),
        ImportFile => tr!(lang, "import-file"),
        ExportFile => tr!(lang, "export-file"),
        SaveAs => tr!(lang, "save-as"),
        GetAssetNumbers => tr!(lang, "get-asset-numbers"),
        SubmitBatch => tr!(lang, "submit-batch"),
        Draft => tr!(lang, "draft"),
        DraftName => tr!(lang, "draft-name"),
        NewDraft => tr!(lang, "new-draft"),
        TemplateNewPurchase => tr!(lang, "template-new-purchase"),
        TemplateDeleteAssets => tr!(lang, "template-delete-assets"),
        TemplateDeleteProducts => tr!(lang, "template-delete-products"),
        OrderFile => tr!(lang, "order-file"),
        FileHint => tr!(lang, "file-hint"),
        LoadingFile => tr!(lang, "loading-file"),
        DraftUntouched => tr!(lang, "draft-untouched"),
        AddOrder => tr!(lang, "add-order"),
        AddAsset => tr!(lang, "add-asset"),
        AddProduct => tr!(lang, "add-product"),
        AddPackage => tr!(lang, "add-package"),
        AddFeature => tr!(lang, "add-feature"),
        AddSubPackage => tr!(lang, "add-sub-package"),
        Duplicate => tr!(lang, "duplicate"),
        MoveUp => tr!(lang, "move-up"),
        MoveDown => tr!(lang, "move-down"),
        Remove => tr!(lang, "remove"),
        NewBatchId => tr!(lang, "new-batch-id"),
        HowMany => tr!(lang, "how-many"),
        NoProblems => tr!(lang, "no-problems"),
        Sequence => tr!(lang, "sequence"),
        LicenseOrderId => tr!(lang, "license-order-id"),
        DeletesFinal => tr!(lang, "deletes-final"),
        PreviewDeletes => tr!(lang, "preview-deletes"),
        Send => tr!(lang, "send"),
        CannotUndo => tr!(lang, "cannot-undo"),
        ConfirmDeleteDraft => tr!(lang, "confirm-delete-draft"),
        ExpandCollapse => tr!(lang, "expand-collapse"),
        Batch => tr!(lang, "batch"),
        Order => tr!(lang, "order"),
        Product => tr!(lang, "product"),
        Feature => tr!(lang, "feature"),
        Package => tr!(lang, "package"),
        Asset => tr!(lang, "asset"),
        NotANumber => tr!(lang, "not-a-number"),
        NotSet => tr!(lang, "not-set"),
        ExplainFile => tr!(lang, "explain-file"),
        Active => tr!(lang, "active"),
        InUse => tr!(lang, "in-use"),
        Channel => tr!(lang, "channel"),
        ChannelCustomer => tr!(lang, "channel-customer"),
        Enterprise => tr!(lang, "enterprise"),
        KindProduction => tr!(lang, "kind-production"),
        ProductionPlatform => tr!(lang, "production-platform"),
        Operator => tr!(lang, "operator"),
        PlatformAddress => tr!(lang, "platform-address"),
        AddProfile => tr!(lang, "add-profile"),
        Address => tr!(lang, "address"),
        AllCustomers => tr!(lang, "all-customers"),
        AppKey => tr!(lang, "app-key"),
        AppSecret => tr!(lang, "app-secret"),
        BaseUrl => tr!(lang, "base-url"),
        BindCustomer => tr!(lang, "bind-customer"),
        BindHelp => tr!(lang, "bind-help"),
        Bind => tr!(lang, "bind"),
        Bound => tr!(lang, "bound"),
        BranchName => tr!(lang, "branch-name"),
        BuiltIn => tr!(lang, "built-in"),
        Cancel => tr!(lang, "cancel"),
        ChannelCode => tr!(lang, "channel-code"),
        ChannelCustomerId => tr!(lang, "channel-customer-id"),
        ConfirmRemove => tr!(lang, "confirm-remove"),
        CreateEnterprise => tr!(lang, "create-enterprise"),
        CreateHelp => tr!(lang, "create-help"),
        Create => tr!(lang, "create"),
        Created => tr!(lang, "created"),
        CrmCustomerId => tr!(lang, "crm-customer-id"),
        CustomerId => tr!(lang, "customer-id"),
        CustomerName => tr!(lang, "customer-name"),
        DefaultOnly => tr!(lang, "default-only"),
        DefaultType => tr!(lang, "default-type"),
        Dismiss => tr!(lang, "dismiss"),
        Done => tr!(lang, "done"),
        EditProfile => tr!(lang, "edit-profile"),
        EditThisEnterprise => tr!(lang, "edit-this-enterprise"),
        EnterpriseGlobalId => tr!(lang, "enterprise-global-id"),
        EnterpriseName => tr!(lang, "enterprise-name"),
        ExplainForbidden => tr!(lang, "explain-forbidden"),
        ExplainInvalid => tr!(lang, "explain-invalid"),
        ExplainNoSecret => tr!(lang, "explain-no-secret"),
        ExplainNotFound => tr!(lang, "explain-not-found"),
        ExplainPlatformFailed => tr!(lang, "explain-platform-failed"),
        ExplainProfile => tr!(lang, "explain-profile"),
        ExplainRefused => tr!(lang, "explain-refused"),
        ExplainSandbox => tr!(lang, "explain-sandbox"),
        ExplainStopped => tr!(lang, "explain-stopped"),
        ExplainStorage => tr!(lang, "explain-storage"),
        ExplainTimeout => tr!(lang, "explain-timeout"),
        ExplainBroken => tr!(lang, "explain-broken"),
        ExplainOutcomeUnknown => tr!(lang, "explain-outcome-unknown"),
        ExplainRefusedInAnswer => tr!(lang, "explain-refused-in-answer"),
        ExplainCancelled => tr!(lang, "explain-cancelled"),
        SendLater => tr!(lang, "send-later"),
        SendNow => tr!(lang, "send-now"),
        LoadQueue => tr!(lang, "load-queue"),
        QueueHelp => tr!(lang, "queue-help"),
        QueueEmpty => tr!(lang, "queue-empty"),
        KeptToSendLater => tr!(lang, "kept-to-send-later"),
        KeepToSendLater => tr!(lang, "keep-to-send-later"),
        ReadingState => tr!(lang, "reading-state"),
        ListAgainToRead => tr!(lang, "list-again-to-read"),
        OutcomeUnknown => tr!(lang, "write-state-unknown"),
        CancelCall => tr!(lang, "cancel-call"),
        CheckSent => tr!(lang, "check-sent"),
        MarkDone => tr!(lang, "mark-done"),
        MarkNotDone => tr!(lang, "mark-not-done"),
        SendAgain => tr!(lang, "send-again"),
        MarkedDone => tr!(lang, "marked-done"),
        MarkedNotDone => tr!(lang, "marked-not-done"),
        EvidenceListed => tr!(lang, "evidence-listed"),
        EvidenceNotListed => tr!(lang, "evidence-not-listed"),
        EvidenceUnreadable => tr!(lang, "evidence-unreadable"),
        ProfileNotRecorded => tr!(lang, "profile-not-recorded"),
        ExplainNoAnswerUnrecorded => tr!(lang, "explain-no-answer-unrecorded"),
        RefusedInAnswer => tr!(lang, "refused-in-answer"),
        WriteState => tr!(lang, "write-state"),
        ExplainUnauthorized => tr!(lang, "explain-unauthorized"),
        ExplainUnexpected => tr!(lang, "explain-unexpected"),
        ExplainUnreachable => tr!(lang, "explain-unreachable"),
        ExplainUntrusted => tr!(lang, "explain-untrusted"),
        ExplainCaFile => tr!(lang, "explain-ca-file"),
        FieldRequired => tr!(lang, "field-required"),
        IsDefault => tr!(lang, "is-default"),
        KindRemote => tr!(lang, "kind-remote"),
        KindSandbox => tr!(lang, "kind-sandbox"),
        Kind => tr!(lang, "kind"),
        LoadHistory => tr!(lang, "load-history"),
        LoadCatalog => tr!(lang, "load-catalog"),
        Catalog => tr!(lang, "catalog"),
        CatalogFile => tr!(lang, "catalog-file"),
        MemberGlobalId => tr!(lang, "member-global-id"),
        MemberIdentity => tr!(lang, "member-identity"),
        Members => tr!(lang, "members"),
        NoCustomers => tr!(lang, "no-customers"),
        No => tr!(lang, "no"),
        NotMobile => tr!(lang, "not-mobile"),
        OperatorIdentity => tr!(lang, "operator-identity"),
        PasswordMobile => tr!(lang, "password-mobile"),
        ProductionHelp => tr!(lang, "production-help"),
        ProfileName => tr!(lang, "profile-name"),
        ProfilesHelp => tr!(lang, "profiles-help"),
        Profiles => tr!(lang, "profiles"),
        QueryCustomers => tr!(lang, "query-customers"),
        QueryHelp => tr!(lang, "query-help"),
        Query => tr!(lang, "query"),
        RemoveProfileWarning => tr!(lang, "remove-profile-warning"),
        RemoveProfile => tr!(lang, "remove-profile"),
        RequiredMark => tr!(lang, "required-mark"),
        SaveProfile => tr!(lang, "save-profile"),
        Save => tr!(lang, "save"),
        SecretKeepHint => tr!(lang, "secret-keep-hint"),
        SelectProfile => tr!(lang, "select-profile"),
        ShowEnterpriseCustomers => tr!(lang, "show-enterprise-customers"),
        Show => tr!(lang, "show"),
        TestConnection => tr!(lang, "test-connection"),
        TokenUrl => tr!(lang, "token-url"),
        UpdateEnterprise => tr!(lang, "update-enterprise"),
        UpdateHelp => tr!(lang, "update-help"),
        Update => tr!(lang, "update"),
        Updated => tr!(lang, "updated"),
        UseProfile => tr!(lang, "use-profile"),
        Yes => tr!(lang, "yes"),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const ENGLISH_FTL: &str = include_str!("../../../i18n/en/license_desk.ftl");
    const CHINESE_FTL: &str = include_str!("../../../i18n/zh-CN/license_desk.ftl");

    /// The ids a Fluent file defines (a message starts a line with its id and ` =`).
    fn ids(ftl: &str) -> BTreeSet<&str> {
        ftl.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id))
            .collect()
    }

    #[test]
    fn every_message_is_in_both_languages_and_loads() {
        let (en, zh) = (ids(ENGLISH_FTL), ids(CHINESE_FTL));
        assert!(en.len() > 250, "{} messages", en.len());
        let only_en: Vec<_> = en.difference(&zh).collect();
        let only_zh: Vec<_> = zh.difference(&en).collect();
        assert!(only_en.is_empty(), "missing in Chinese: {only_en:?}");
        assert!(only_zh.is_empty(), "missing in English: {only_zh:?}");
        // Each file parsed whole: every message answers in its own language.
        for id in &en {
            assert!(loader(Lang::En).has(id), "{id} did not load in English");
            assert!(loader(Lang::Zh).has(id), "{id} did not load in Chinese");
        }
    }

    #[test]
    fn plurals_follow_each_language() {
        assert_eq!(tr!(Lang::En, "do-disable", n = 1), "Disable 1 lock");
        assert_eq!(tr!(Lang::En, "do-disable", n = 3), "Disable 3 locks");
        assert_eq!(tr!(Lang::En, "confirm-enable", n = 1), "Enable 1 lock?");
        assert_eq!(
            tr!(Lang::En, "summary-counts", assets = 1, products = 2),
            "1 asset number, 2 products."
        );
        // Chinese has one form.
        assert_eq!(tr!(Lang::Zh, "do-disable", n = 1), "禁用 1 把加密锁");
        assert_eq!(tr!(Lang::Zh, "do-disable", n = 2), "禁用 2 把加密锁");
        // No isolation marks around arguments: egui would draw them as boxes.
        assert!(!tr!(Lang::En, "on-profile", profile = "Sandbox").contains('\u{2068}'));
        assert_eq!(t(Lang::Zh, Text::Customers), "客户");
    }
}
