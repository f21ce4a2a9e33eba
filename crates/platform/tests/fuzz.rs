//! Fuzzing (issue 3): a deterministic, seeded mutation fuzzer against every endpoint of the
//! embedded platform (the token endpoint, the nine order operations, the activity claim).
//!
//! Each case starts from a valid request of one endpoint and mutates some of: the JSON body
//! (values replaced by other types, huge numbers, long, Chinese, NUL and control-character
//! strings, deep nesting; keys deleted, duplicated, added), its bytes (bit flips, truncation,
//! inserted bytes and snippets), the headers (Authorization missing, garbled, of another scheme
//! or scope; Content-Type missing or random), the query (g_nonce missing, doubled, empty,
//! overlong, non-ASCII, percent garbage, reused; extra, doubled and wrong parameters) and the
//! path and method. Every answer is checked against the documented statuses and envelopes
//! (docs/platform.md, "Envelopes and errors", "g_nonce", "Conventions"): order and activity
//! paths answer only 200, 299, 401, 403, 404, 405 (the claim 200, 401, 403; the token endpoint
//! 200, 400, 401), always a JSON object in the group's envelope, never business code 500 or
//! claim code 1002; auth is judged first (401/403), then the nonce, then Content-Type. Also:
//! every `HEALTH_EVERY` cases a valid call must succeed; a batch that succeeded, sent again,
//! answers the same; a request with a body over `RAW_BODY` goes over a connection of its own,
//! and unless its answer says `Connection: close` a valid call on that same connection must be
//! answered too; at the end a valid batch order and a valid claim succeed.
//!
//! Run:
//!
//! ```sh
//! cargo test --test fuzz -- --nocapture                  # 4000 cases, fixed seed, ~6 s
//! FUZZ_CASES=200000 FUZZ_SEED=$RANDOM cargo test --release --test fuzz -- --nocapture
//! FUZZ_KEEP_GOING=1 FUZZ_CASES=30000 cargo test --release --test fuzz -- --nocapture
//! ```
//!
//! `FUZZ_CASES` is the number of cases, `FUZZ_SEED` the seed (printed at the start),
//! `FUZZ_KEEP_GOING=1` collects up to 50 failures instead of stopping at the first,
//! `FUZZ_VERBOSE=1` prints every case and its answer in one line. A failure
//! prints the seed, the case number and the request (with a curl command; the body is saved
//! in target/tmp/fuzz-failures). The platform starts empty on every run and the cases run one
//! after the other, so the same seed replays the same requests: run with that `FUZZ_SEED` and
//! `FUZZ_CASES` at least the case number. (Tokens and application keys are random, and async
//! batches are applied in the background, so a replay is faithful but not byte-identical.)

use test_support::platform_rig as common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use fastrand::Rng;
use platform::NumberQuota;
use reqwest::Method;
use reqwest::header::{HeaderName, HeaderValue};
use serde_json::{Value, json};

use common::Platform;

const TOKEN: &str = "/v3/api/oauth2/token";
const BIND: &str = "/order/api/order/v1/enterprise/user/bind";
const CREATE: &str = "/order/api/order/v1/enterprise/user/create";
const QUERY: &str = "/order/api/order/v1/enterprise/user/query";
const UPDATE: &str = "/order/api/order/v1/enterprise/user/update";
const BATCH: &str = "/order/api/order/v1/licenseOrder/batchOrder";
const LOCK: &str = "/order/api/order/v1/asset/lock";
const UNLOCK: &str = "/order/api/order/v1/asset/unlock";
const LIST_PREFIX: &str = "/order/api/order/v1/asset/";
const LIST_SUFFIX: &str = "/list";
const SHELLNUMS: &str = "/order/api/order/v1/shellnums";
const CLAIM: &str = "/activity/services/activity";

const DEFAULT_CASES: u64 = 4000;
const DEFAULT_SEED: u64 = 0x5EED_F022_2026;
/// A valid call must succeed after every this many cases.
const HEALTH_EVERY: u64 = 25;
/// With FUZZ_KEEP_GOING, stop after this many different failures.
const MAX_FAILURES: usize = 50;
/// Requests with a larger body are sent over a connection of their own (`raw_exchange`).
const RAW_BODY: usize = 16 * 1024;

const ENTERPRISE_NAME: &str = "北京示例科技有限公司";
const DAY: i64 = 24 * 3600 * 1000;

/// Asset numbers created during setup, by kind.
const RECOVER: &str = "8000000101";
const SOFTKEY: &str = "8000000102";
const LARGE: &str = "8000000103";
const UNRECOVER: &str = "8000000104";
const OTHER_CUSTOMER: &str = "8000000201";
const CLOUD: &str = "CA-0001";
const SETUP_ASSETS: [&str; 6] = [RECOVER, SOFTKEY, LARGE, UNRECOVER, OTHER_CUSTOMER, CLOUD];

const ACTIVITY_CODES: [&str; 7] = ["0000", "1001", "1002", "1004", "2001", "3001", "3002"];
const LICENSE_TYPES: [&str; 14] = [
    "normal_unrecover_usbkey",
    "normal_recover_usbkey",
    "normal_unrecover_lan_usbkey",
    "normal_recover_lan_usbkey",
    "identity_usbkey",
    "identity_lan_usbkey",
    "softkey",
    "lan_softkey",
    "product_entity",
    "cloud_account",
    "cloud_customer",
    "cloud_personal",
    "lk_product_usbkey",
    "lk_auth_usbkey",
];
const ORDER_TYPES: [&str; 3] = ["new_buy", "delete_asset", "delete_product"];

/// Field names of every body, used as unknown, duplicated or misplaced keys.
const FIELD_NAMES: [&str; 24] = [
    "size",
    "channelCode",
    "channelOrderId",
    "syncMode",
    "orderList",
    "sequence",
    "customerId",
    "licenseType",
    "orderType",
    "assets",
    "assetNos",
    "products",
    "productUri",
    "merchandises",
    "children",
    "assetNums",
    "operatorIdentity",
    "crmCustomerId",
    "customerName",
    "enterpriseName",
    "identity",
    "activityLabel",
    "limitStartDate",
    "srcLicenseOrderId",
];

/// Text that breaks JSON, strings or number parsing when inserted anywhere.
const SNIPPETS: [&str; 30] = [
    "中文",
    "北京分公司",
    "\0",
    "\u{1}",
    "\u{1f}",
    "\u{7f}",
    "\u{feff}",
    "\u{2028}",
    "\u{fffd}",
    "😀",
    "\\u0000",
    "\\ud800",
    "\\udc00\\ud800",
    "\\",
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "null",
    "true",
    "-",
    "1e999",
    "99999999999999999999999999",
    "-9223372036854775809",
    "9223372036854775808",
    "0x10",
    "NaN",
];

// ---------------------------------------------------------------------------------------------
// Endpoints

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Ep {
    Token,
    Bind,
    Create,
    Query,
    Update,
    Batch,
    Lock,
    Unlock,
    List,
    Shellnums,
    Claim,
}

impl Ep {
    const ALL: [Ep; 11] = [
        Ep::Token,
        Ep::Bind,
        Ep::Create,
        Ep::Query,
        Ep::Update,
        Ep::Batch,
        Ep::Lock,
        Ep::Unlock,
        Ep::List,
        Ep::Shellnums,
        Ep::Claim,
    ];

    fn method(self) -> Method {
        match self {
            Ep::Query | Ep::List => Method::GET,
            _ => Method::POST,
        }
    }

    fn has_body(self) -> bool {
        self.method() == Method::POST && self != Ep::Token
    }

    /// The endpoint a path is routed to, as axum matches it (byte for byte, no decoding).
    fn of_path(path: &str) -> Option<Ep> {
        let ep = match path {
            TOKEN => Ep::Token,
            BIND => Ep::Bind,
            CREATE => Ep::Create,
            QUERY => Ep::Query,
            UPDATE => Ep::Update,
            BATCH => Ep::Batch,
            LOCK => Ep::Lock,
            UNLOCK => Ep::Unlock,
            SHELLNUMS => Ep::Shellnums,
            CLAIM => Ep::Claim,
            _ => {
                let middle = path.strip_prefix(LIST_PREFIX)?.strip_suffix(LIST_SUFFIX)?;
                if middle.is_empty() || middle.contains('/') {
                    return None;
                }
                Ep::List
            }
        };
        Some(ep)
    }
}

// ---------------------------------------------------------------------------------------------
// Cases

/// What the Authorization header should make of a call to an order or activity operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AuthExpect {
    /// A valid token with the group's scope.
    Valid,
    /// A valid token without the group's scope: 403.
    NoScope,
    /// No usable token: 401.
    Bad,
    /// Not predicted (e.g. two Authorization headers).
    Unknown,
}

/// Header names and raw values, in the order sent.
type Headers = Vec<(String, Vec<u8>)>;

/// One request, as sent.
#[derive(Clone, Debug)]
struct Case {
    ep: Ep,
    method: Method,
    /// Path and query, appended to the base address.
    target: String,
    headers: Vec<(String, Vec<u8>)>,
    body: Option<Vec<u8>>,
    auth: AuthExpect,
    /// The body is the seed's, not mutated.
    pristine_body: bool,
    /// What was done to the seed request, for the report.
    mutations: Vec<String>,
}

impl Case {
    fn describe(&self, base: &str) -> String {
        let mut s = format!("{} {base}{}\n", self.method, shorten(&self.target, 2000));
        for (name, value) in &self.headers {
            let _ = writeln!(s, "{name}: {}", show_bytes(value, 300));
        }
        match &self.body {
            None => s.push_str("(no body)\n"),
            Some(b) => {
                let _ = writeln!(s, "body ({} bytes): {}", b.len(), show_bytes(b, 4000));
            }
        }
        let _ = writeln!(
            s,
            "mutations: {}{}",
            if self.pristine_body {
                "(body as seeded) "
            } else {
                ""
            },
            self.mutations.join("; ")
        );
        s
    }

    fn curl(&self, base: &str, url_file: Option<&str>, body_file: Option<&str>) -> String {
        let mut s = match url_file {
            Some(path) => format!("curl -si -X {} \"$(cat {path})\"", self.method),
            None => format!("curl -si -X {} '{base}{}'", self.method, self.target),
        };
        for (name, value) in &self.headers {
            let _ = write!(
                s,
                " -H '{name}: {}'",
                String::from_utf8_lossy(value).replace('\'', "'\\''")
            );
        }
        if let Some(path) = body_file {
            let _ = write!(s, " --data-binary @{path}");
        }
        s
    }
}

/// At most `max` characters of `s`, saying how long it was.
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let shown: String = s.chars().take(max).collect();
    format!("{shown}… (truncated, {} bytes in all)", s.len())
}

fn show_bytes(b: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(b);
    let shown: String = text.chars().take(max).collect();
    let mut out = format!("{:?}", shown);
    if text.chars().count() > max {
        let _ = write!(out, " … (truncated, {} bytes in all)", b.len());
    }
    if std::str::from_utf8(b).is_err() {
        out.push_str(" [not valid UTF-8; shown lossily]");
    }
    out
}

// ---------------------------------------------------------------------------------------------
// JSON rendering with structural edits

/// An edit of one node of a JSON value (nodes numbered in pre-order, the root is 0).
#[derive(Clone, Debug)]
enum Edit {
    /// The node's text is replaced by this raw text.
    Replace(String),
    /// The member or element is left out.
    Delete,
    /// The member is written a second time (same key) or the element again, with this text.
    Duplicate(String),
    /// An object gets one more member: raw key text (quoted) and raw value text.
    AddMember(String, String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    Str,
    Number,
    Other,
}

struct Node {
    kind: Kind,
    root: bool,
}

fn nodes(v: &Value) -> Vec<Node> {
    fn walk(v: &Value, root: bool, out: &mut Vec<Node>) {
        let kind = match v {
            Value::Object(_) => Kind::Object,
            Value::Array(_) => Kind::Array,
            Value::String(_) => Kind::Str,
            Value::Number(_) => Kind::Number,
            _ => Kind::Other,
        };
        out.push(Node { kind, root });
        match v {
            Value::Object(m) => m.values().for_each(|c| walk(c, false, out)),
            Value::Array(a) => a.iter().for_each(|c| walk(c, false, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, true, &mut out);
    out
}

fn subtree_len(v: &Value) -> usize {
    1 + match v {
        Value::Object(m) => m.values().map(subtree_len).sum(),
        Value::Array(a) => a.iter().map(subtree_len).sum(),
        _ => 0,
    }
}

fn render(v: &Value, edits: &HashMap<usize, Edit>) -> String {
    fn sep(first: &mut bool, out: &mut String) {
        if !*first {
            out.push(',');
        }
        *first = false;
    }
    fn write(v: &Value, idx: &mut usize, edits: &HashMap<usize, Edit>, out: &mut String) {
        let me = *idx;
        if let Some(Edit::Replace(raw)) = edits.get(&me) {
            out.push_str(raw);
            *idx += subtree_len(v);
            return;
        }
        *idx += 1;
        match v {
            Value::Object(m) => {
                out.push('{');
                let mut first = true;
                for (k, child) in m {
                    let at = *idx;
                    if matches!(edits.get(&at), Some(Edit::Delete)) {
                        *idx += subtree_len(child);
                        continue;
                    }
                    let key = Value::String(k.clone()).to_string();
                    sep(&mut first, out);
                    out.push_str(&key);
                    out.push(':');
                    write(child, idx, edits, out);
                    if let Some(Edit::Duplicate(raw)) = edits.get(&at) {
                        sep(&mut first, out);
                        out.push_str(&key);
                        out.push(':');
                        out.push_str(raw);
                    }
                }
                if let Some(Edit::AddMember(k, raw)) = edits.get(&me) {
                    sep(&mut first, out);
                    out.push_str(k);
                    out.push(':');
                    out.push_str(raw);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                let mut first = true;
                for child in a {
                    let at = *idx;
                    if matches!(edits.get(&at), Some(Edit::Delete)) {
                        *idx += subtree_len(child);
                        continue;
                    }
                    sep(&mut first, out);
                    write(child, idx, edits, out);
                    if let Some(Edit::Duplicate(raw)) = edits.get(&at) {
                        sep(&mut first, out);
                        out.push_str(raw);
                    }
                }
                out.push(']');
            }
            leaf => out.push_str(&leaf.to_string()),
        }
    }
    let mut out = String::new();
    let mut idx = 0;
    write(v, &mut idx, edits, &mut out);
    out
}

/// The JSON text of a string.
fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

// ---------------------------------------------------------------------------------------------
// The fuzzer

#[derive(Default)]
struct Stats {
    /// (endpoint, status, business code) → count.
    answers: BTreeMap<(Ep, u16, String), u64>,
    health_checks: u64,
    skipped: u64,
}

struct Fuzzer {
    p: Platform,
    _activities_dir: tempfile::TempDir,
    http: reqwest::Client,
    rng: Rng,
    seed: u64,
    /// A token of an application with only auth_order, and one with only auth_activity.
    order_only_token: String,
    activity_only_token: String,
    /// Known enterprise global ids.
    enterprises: Vec<String>,
    /// Ids seen in answers (customers, enterprises, license orders, asset numbers).
    pool: Vec<String>,
    pool_seen: HashSet<String>,
    /// Nonces certainly spent (in order, for picking one to reuse) and possibly spent.
    spent: Vec<String>,
    spent_set: HashSet<String>,
    maybe_spent: HashSet<String>,
    counter: u64,
    stats: Stats,
    /// Failures by reason: how many, and the first case.
    failures: BTreeMap<String, (u64, u64)>,
    keep_going: bool,
}

/// The reply to one case.
struct Answer {
    status: u16,
    content_type: Option<String>,
    text: Vec<u8>,
    json: Option<Value>,
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}")),
        _ => default,
    }
}

fn activities_file(dir: &std::path::Path) -> std::path::PathBuf {
    let now = support::clock::now_ms();
    let products = json!([{"productUri": "gms:1001", "validDays": 365, "activateType": "0"},
                          {"productUri": "gms:1002", "validDays": 30, "activateType": "1"}]);
    let one = json!([{"productUri": "gms:3001", "validDays": 7, "activateType": "0"}]);
    let file = json!({"activities": [
        {"id": "A1", "label": "spring-2026", "name": "春季活动", "startTime": now - DAY,
         "endTime": now + 3650 * DAY, "sources": ["crm.example.com"], "branches": ["北京分公司"],
         "units": [
            {"id": "U1", "name": "单元 U1", "maxClaimsPerIdentity": 1, "products": products},
            {"id": "U2", "name": "单元 U2", "maxClaimsPerIdentity": 3, "stock": 1_000_000,
             "identityKinds": ["enterprise", "lock"], "products": one.clone()}]},
        {"id": "A2", "label": "sold-out", "name": "售罄", "startTime": now - DAY,
         "endTime": now + 3650 * DAY,
         "units": [{"id": "U1", "name": "单元", "maxClaimsPerIdentity": 1, "stock": 0, "products": one.clone()}]},
        {"id": "A3", "label": "open", "name": "开放", "startTime": now - DAY,
         "endTime": now + 3650 * DAY,
         "units": [{"id": "U1", "name": "单元", "maxClaimsPerIdentity": 1_000_000, "products": one.clone()}]},
        {"id": "A4", "label": "past", "name": "过去", "startTime": now - 3 * DAY, "endTime": now - DAY,
         "units": [{"id": "U1", "name": "单元", "maxClaimsPerIdentity": 1, "products": one}]}
    ]});
    let path = dir.join("activities.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&file).expect("json")).expect("write");
    path
}

impl Fuzzer {
    async fn start(seed: u64) -> Self {
        let activities_dir = tempfile::tempdir().expect("temp dir");
        let path = activities_file(activities_dir.path());
        // Long runs take asset numbers faster than any person would, and the health checks
        // must not be refused for it: the quotas are tested in crates/platform/tests/platform.
        let p = Platform::start_with(|c| {
            c.activities = Some(path);
            c.number_quota = NumberQuota {
                per_minute: u32::MAX,
                per_day: u32::MAX,
            };
        })
        .await;
        let order_only = p.new_app(&["auth_order"]).await;
        let activity_only = p.new_app(&["auth_activity"]).await;
        let order_only_token = p.token_for(&order_only).await;
        let activity_only_token = p.token_for(&activity_only).await;
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()
            .expect("client");
        let mut f = Self {
            p,
            _activities_dir: activities_dir,
            http,
            rng: Rng::with_seed(seed),
            seed,
            order_only_token,
            activity_only_token,
            enterprises: Vec::new(),
            pool: Vec::new(),
            pool_seen: HashSet::new(),
            spent: Vec::new(),
            spent_set: HashSet::new(),
            maybe_spent: HashSet::new(),
            counter: 0,
            stats: Stats::default(),
            failures: BTreeMap::new(),
            keep_going: std::env::var("FUZZ_KEEP_GOING").is_ok_and(|v| v == "1"),
        };
        f.setup().await;
        f
    }

    /// Two enterprises, a bound shop customer, and assets of every kind the operations treat
    /// differently, so that mutated requests reach the business rules, not only validation.
    async fn setup(&mut self) {
        for (crm, name) in [
            ("CRM-1001", ENTERPRISE_NAME),
            ("CRM-2002", "上海另一家公司"),
        ] {
            let r = self
                .p
                .post(
                    CREATE,
                    json!({"crmCustomerId": crm, "customerName": name, "branchName": "北京分公司", "address": "北京市海淀区"}),
                )
                .await;
            let egid = r.data()["enterpriseGlobalId"]
                .as_str()
                .expect("enterpriseGlobalId")
                .to_owned();
            self.enterprises.push(egid);
        }
        let r = self
            .p
            .post(
                BIND,
                json!({"channelCode": "SHOP", "channelCustomerId": "S-42", "customerName": ENTERPRISE_NAME,
                       "branchName": "北京分公司", "enterpriseName": ENTERPRISE_NAME, "passwordMobile": "13800138000"}),
            )
            .await;
        self.harvest(r.data());
        let product = |uri: &str| json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": 1});
        let order = |seq: i32, customer: &str, license: &str, assets: Value| {
            json!({"sequence": seq, "channelCustomerId": customer, "customerName": "上海测试客户",
                   "licenseType": license, "orderType": "new_buy", "assets": assets})
        };
        let batch = json!({
            "channelCode": "CRM", "channelOrderId": "SETUP-1", "syncMode": "sync",
            "orderList": [
                order(1, "CRM-1001", "normal_recover_usbkey", json!([{"assetNos": [RECOVER],
                    "assetExtendList": [{"extendCode": "gxxp", "extendValue": "1"}],
                    "products": [product("gms:1001")],
                    "merchandises": [{"merchandiseNum": "M-1", "licenseOrderProductList": [product("gms:2001")],
                                      "children": [{"merchandiseNum": "M-1-1", "parentMerchandiseNum": "M-1",
                                                    "licenseOrderProductList": [product("gms:2002")], "children": null}]}]}])),
                order(2, "CRM-1001", "softkey", json!([{"assetNos": [SOFTKEY], "products": [product("gms:1001")]}])),
                order(3, "CRM-1001", "normal_unrecover_usbkey", json!([{"assetNos": [LARGE],
                    "limitStartDate": 1_700_000_000_000_i64, "limitEndDate": 1_900_000_000_000_i64,
                    "products": [product("gms:1001")]}])),
                order(4, "CRM-1001", "normal_unrecover_usbkey", json!([{"assetNos": [UNRECOVER], "products": [product("gms:1001")]}])),
                order(5, "CRM-2002", "normal_recover_usbkey", json!([{"assetNos": [OTHER_CUSTOMER], "products": [product("gms:1001")]}])),
                order(6, "CRM-1001", "cloud_account", json!([{"assetNos": [CLOUD],
                    "assetExtendList": [{"extendCode": "hy", "extendValue": "2"}], "products": [product("gms:5001")]}])),
            ]
        });
        let r = self.p.batch(batch).await;
        self.harvest(r.data());
        let r = self
            .p
            .get(
                QUERY,
                &[("channelCode", "CRM"), ("channelCustomerId", "CRM-1001")],
            )
            .await;
        self.harvest(r.data());
    }

    /// Remembers the ids in an answer, to be used as values in later requests.
    fn harvest(&mut self, v: &Value) {
        match v {
            Value::String(s) => {
                let id_like = ["CU", "EG", "LO", "AS", "EM"].iter().any(|p| {
                    s.strip_prefix(p)
                        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                }) || (s.len() == 10 && s.bytes().all(|b| b.is_ascii_digit()));
                if id_like && self.pool.len() < 2000 && self.pool_seen.insert(s.clone()) {
                    if s.starts_with("EG") && !self.enterprises.contains(s) {
                        self.enterprises.push(s.clone());
                    }
                    self.pool.push(s.clone());
                }
            }
            Value::Array(a) => a.iter().for_each(|c| self.harvest(c)),
            Value::Object(m) => m.values().for_each(|c| self.harvest(c)),
            _ => {}
        }
    }

    fn next_id(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    fn pick_str(&mut self, items: &[&'static str]) -> &'static str {
        items[self.rng.usize(..items.len())]
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.usize(..items.len())]
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.rng.u32(..100) < percent
    }

    fn pool_value(&mut self) -> String {
        if self.pool.is_empty() {
            return "EG0000000001".to_owned();
        }
        self.pool[self.rng.usize(..self.pool.len())].clone()
    }

    fn pool_prefixed(&mut self, prefix: &str, fallback: &str) -> String {
        let matching: Vec<&String> = self.pool.iter().filter(|s| s.starts_with(prefix)).collect();
        if matching.is_empty() {
            fallback.to_owned()
        } else {
            matching[self.rng.usize(..matching.len())].clone()
        }
    }

    fn enterprise(&mut self) -> String {
        self.enterprises[self.rng.usize(..self.enterprises.len())].clone()
    }

    fn fresh_nonce(&mut self) -> String {
        let n = self.next_id();
        format!("fz-{n}")
    }

    // --- seed bodies -------------------------------------------------------------------------

    fn asset_no(&mut self) -> String {
        if self.chance(50) {
            (*self.pick(&SETUP_ASSETS)).to_owned()
        } else if self.chance(30) {
            self.pool_value()
        } else {
            let n = self.next_id();
            format!("7{:09}", n % 1_000_000_000)
        }
    }

    fn product(&mut self, uri: &str) -> Value {
        let mut p =
            json!({"productUri": uri, "productName": format!("产品 {uri}"), "limitConcurrent": 1});
        if self.chance(40) {
            p["limitStartDate"] = json!(1_700_000_000_000_i64);
            p["limitEndDate"] = json!(1_900_000_000_000_i64);
        }
        if self.chance(30) {
            p["crmProductId"] = json!("CP-1");
            p["parentCrmProductId"] = json!("CP-0");
            p["gmsPid"] = json!(uri);
            p["appKey"] = json!("ak-product");
            p["productType"] = json!("software");
            p["limitTimeDuration"] = json!(3_600_000);
            p["trial"] = json!(self.rng.u8(..2));
            p["trialEndDate"] = json!(1_900_000_000_000_i64);
            p["passwords"] = json!(["pw-1", "pw-2"]);
            p["timeUnit"] = json!("year");
            p["timeUnitQuantity"] = json!(1);
            p["timeDurationExpression"] = json!("1-0-0");
            p["productFeatures"] = json!([{"featureCode": "F1", "featureName": "功能一", "featureValue": "1",
                                           "featureValueType": "int", "trial": 0, "trialEndDate": 1_900_000_000_000_i64}]);
        }
        if self.chance(10) {
            let lo = self.pool_prefixed("LO", "LO0000000001");
            p["srcLicenseOrderId"] = json!(lo);
        }
        if self.chance(20) {
            p["strictMatchWhenDelete"] = json!(self.rng.bool());
        }
        p
    }

    fn order_entry(&mut self, sequence: i64) -> Value {
        let order_type = if self.chance(60) {
            "new_buy"
        } else {
            *self.pick(&ORDER_TYPES)
        };
        let license = if self.chance(50) {
            "normal_recover_usbkey"
        } else {
            *self.pick(&LICENSE_TYPES)
        };
        let mut asset = json!({"assetNos": [self.asset_no()]});
        if self.chance(20) {
            let extra = self.asset_no();
            asset["assetNos"]
                .as_array_mut()
                .expect("array")
                .push(json!(extra));
        }
        match order_type {
            "new_buy" => {
                let uri = format!("gms:{}", 1000 + self.rng.u32(..5));
                asset["products"] = json!([self.product(&uri)]);
                if self.chance(30) {
                    let inner = self.product("gms:2002");
                    let outer = self.product("gms:2001");
                    asset["merchandises"] = json!([{"merchandiseNum": "M-1", "merchandiseName": "套餐",
                        "timeDurationExpression": "1-0-0", "licenseOrderProductList": [outer],
                        "children": [{"merchandiseNum": "M-1-1", "parentMerchandiseNum": "M-1",
                                      "licenseOrderProductList": [inner], "children": null}]}]);
                }
                if self.chance(30) {
                    asset["assetExtendList"] = json!([{"extendCode": "gxxp", "extendValue": "1"}]);
                }
                if self.chance(30) {
                    asset["limitStartDate"] = json!(1_700_000_000_000_i64);
                    asset["limitEndDate"] = json!(1_900_000_000_000_i64);
                }
                if self.chance(20) {
                    asset["borrowedUsbKey"] = json!(self.rng.bool());
                }
                if self.chance(20) {
                    asset["transferedAssetNum"] = json!(true);
                }
            }
            "delete_product" => {
                let uri = format!("gms:{}", 1000 + self.rng.u32(..5));
                asset["products"] = json!([self.product(&uri)]);
            }
            _ => {}
        }
        let mut o = json!({
            "sequence": sequence,
            "licenseType": license,
            "orderType": order_type,
            "assets": [asset]
        });
        match self.rng.u32(..4) {
            0 => o["customerId"] = json!(self.pool_prefixed("CU", "CU0000000001")),
            1 => o["channelCustomerId"] = json!("CRM-1001"),
            2 => o["channelCustomerId"] = json!("CRM-2002"),
            _ => {
                let n = self.next_id();
                o["channelCustomerId"] = json!(format!("NEW-{n}"));
                o["customerName"] = json!(format!("新客户 {n}"));
                o["crmCustomerId"] = json!(format!("CRM-N{n}"));
                o["customerType"] = json!(if self.rng.bool() {
                    "company"
                } else {
                    "personal"
                });
                o["adminName"] = json!("张三");
                o["adminAccount"] = json!("zhangsan");
                o["adminEmail"] = json!("zhangsan@example.com");
                o["adminCellNumber"] = json!("13900000000");
                o["passwordMobile"] = json!("13900000000");
                o["address"] = json!("上海市浦东新区");
                o["branchCode"] = json!("SH");
                o["branchName"] = json!("上海分公司");
                if self.chance(50) {
                    o["enterpriseGlobalId"] = json!(self.enterprise());
                }
            }
        }
        if order_type != "new_buy" && (license.starts_with("cloud_") || self.chance(30)) {
            o["srcLicenseOrderId"] = json!(self.pool_prefixed("LO", "LO0000000001"));
        }
        o
    }

    fn seed_body(&mut self, ep: Ep) -> Value {
        match ep {
            Ep::Bind => {
                let n = self.next_id();
                let customer = if self.chance(30) {
                    "S-42".to_owned()
                } else {
                    format!("S-{n}")
                };
                let enterprise = if self.chance(70) {
                    ENTERPRISE_NAME.to_owned()
                } else {
                    format!("企业 {n}")
                };
                json!({"channelCode": *self.pick(&["SHOP", "CRM", "JD"]), "channelCustomerId": customer,
                       "customerName": ENTERPRISE_NAME, "branchName": "北京分公司",
                       "enterpriseName": enterprise, "passwordMobile": "13800138000"})
            }
            Ep::Create | Ep::Update => {
                let n = self.next_id();
                let crm = match self.rng.u32(..3) {
                    0 => "CRM-2002".to_owned(),
                    1 if ep == Ep::Create => "CRM-1001".to_owned(),
                    _ => format!("CRM-F{n}"),
                };
                json!({"crmCustomerId": crm, "customerName": format!("企业 {n}"),
                       "branchName": "北京分公司", "address": "北京市海淀区"})
            }
            Ep::Batch => {
                let n = self.next_id();
                let id = if self.chance(90) {
                    format!("FZ-{n}")
                } else {
                    "SETUP-1".to_owned()
                };
                let orders = if self.chance(75) {
                    1
                } else {
                    2 + self.rng.i64(0..3)
                };
                let list: Vec<Value> = (1..=orders).map(|s| self.order_entry(s)).collect();
                json!({"channelCode": *self.pick(&["CRM", "SHOP"]), "channelOrderId": id,
                       "syncMode": if self.chance(80) { "sync" } else { "async" }, "orderList": list})
            }
            Ep::Lock | Ep::Unlock => {
                let count = 1 + self.rng.usize(..4);
                let nums: Vec<String> = (0..count).map(|_| self.asset_no()).collect();
                json!({"assetNums": nums, "operatorIdentity": *self.pick(&["admin@example.com", "13800138000", "张三"])})
            }
            Ep::Shellnums => json!({"size": 1 + self.rng.u32(..3)}),
            Ep::Claim => {
                let n = self.next_id();
                let identity = match self.rng.u32(..7) {
                    0 => "13800138000".to_owned(),
                    1 => "li.lei@example.com".to_owned(),
                    2 => self.enterprise(),
                    3 => RECOVER.to_owned(),
                    4 => format!("139{:08}", n % 100_000_000),
                    5 => format!("user{n}@example.com"),
                    _ => self.pool_value(),
                };
                let label = *self.pick(&[
                    "spring-2026",
                    "spring-2026",
                    "open",
                    "sold-out",
                    "past",
                    "nope",
                ]);
                let mut b = json!({"identity": identity, "activityLabel": label,
                                   "source": "crm.example.com", "branch": "北京分公司"});
                match self.rng.u32(..4) {
                    0 => b["extParams"] = json!({"mode": "sync"}),
                    1 => b["extParams"] = json!("{\"mode\":\"sync\"}"),
                    _ => {}
                }
                b
            }
            Ep::Token | Ep::Query | Ep::List => json!({}),
        }
    }

    // --- mutations ---------------------------------------------------------------------------

    fn long_string(&mut self) -> String {
        let len = if self.chance(10) {
            100_000 + self.rng.usize(..200_000)
        } else {
            129 + self.rng.usize(..2000)
        };
        let unit = *self.pick(&["x", "中", "😀", " ", "8"]);
        unit.repeat(len / unit.len().max(1))
    }

    fn deep(&mut self) -> String {
        let depth = match self.rng.u32(..10) {
            0 => 10_000 + self.rng.usize(..100_000),
            1..=3 => 100 + self.rng.usize(..400),
            _ => 1 + self.rng.usize(..40),
        };
        if self.rng.bool() {
            format!("{}{}", "[".repeat(depth), "]".repeat(depth))
        } else {
            format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth))
        }
    }

    /// Raw JSON text (mostly valid) of a random value of any type.
    fn random_raw(&mut self, depth: u32) -> String {
        let pick = self.rng.u32(..44);
        match pick {
            0 => "null".into(),
            1 => "true".into(),
            2 => "false".into(),
            3 => "0".into(),
            4 => "-1".into(),
            5 => "1.5".into(),
            6 => "-0".into(),
            7 => "9223372036854775807".into(),
            8 => "9223372036854775808".into(),
            9 => "-9223372036854775808".into(),
            10 => "-9223372036854775809".into(),
            11 => "18446744073709551616".into(),
            12 => "2147483648".into(),
            13 => "-2147483649".into(),
            14 => (*self.pick(&["1e308", "1e400", "-1e400", "1E2", "0.000001", "1e-400"])).into(),
            15 => "123456789012345678901234567890".into(),
            16 => self.rng.i64(..).to_string(),
            17 => self.rng.u64(..).to_string(),
            18 => "\"\"".into(),
            19 => "\"   \"".into(),
            20 => quoted(&self.long_string()),
            21 => quoted(self.pick_str(&[
                "北京分公司",
                "中文名称测试",
                "😀🎉",
                "\u{202e}evil",
                "Ａ全角",
            ])),
            22 => quoted(self.pick_str(&[
                "a\0b",
                "\0",
                "\u{1}\u{2}\u{1f}",
                "tab\there",
                "line\nbreak",
                "\u{7f}",
            ])),
            23 => (*self.pick(&[
                "\"\\ud800\"",
                "\"\\udc00\"",
                "\"\\u0000\"",
                "\"a\u{1}b\"",
                "\"\\x41\"",
            ]))
            .into(),
            24 => quoted(&self.pool_value()),
            25 => {
                quoted(self.pick_str(&["1", "0", "-1", "Y", "N", "sync", "async", "true", "null"]))
            }
            26 => quoted(self.pick_str(&LICENSE_TYPES)),
            27 => quoted(self.pick_str(&ORDER_TYPES)),
            28 => "[]".into(),
            29 => "{}".into(),
            30 => "[null]".into(),
            31 => quoted(self.pick_str(&SETUP_ASSETS)),
            32 => format!("[{}]", quoted(self.pick_str(&SETUP_ASSETS))),
            33 => self.deep(),
            34 => {
                // A long array: over the platform's list limits now and then.
                let n = if self.chance(20) {
                    10_001
                } else {
                    1 + self.rng.usize(..50)
                };
                let item = if self.rng.bool() {
                    quoted(RECOVER)
                } else {
                    "{}".to_owned()
                };
                format!("[{}]", vec![item; n].join(","))
            }
            35..=37 if depth < 3 => {
                let n = self.rng.usize(..4);
                let items: Vec<String> = (0..n).map(|_| self.random_raw(depth + 1)).collect();
                format!("[{}]", items.join(","))
            }
            38..=40 if depth < 3 => {
                let n = self.rng.usize(..4);
                let members: Vec<String> = (0..n)
                    .map(|_| format!("{}:{}", self.random_key(), self.random_raw(depth + 1)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
            41 => quoted(&format!(
                "{}",
                1_700_000_000_000_i64 + self.rng.i64(0..DAY * 1000)
            )),
            42 => (*self.pick(&["1", "2", "1000", "1001", "10000", "10001", "65"])).into(),
            _ => quoted(&format!("v{}", self.rng.u32(..1000))),
        }
    }

    fn random_key(&mut self) -> String {
        match self.rng.u32(..8) {
            0..=2 => quoted(self.pick_str(&FIELD_NAMES)),
            3 => quoted(self.pick_str(&[
                "",
                " ",
                "中文键",
                "a\0b",
                "__proto__",
                "ChannelCode",
                "SIZE",
            ])),
            4 => quoted(&self.long_string()),
            5 => (*self.pick(&["\"\\ud800\"", "\"\\u0000\"", "\"\\\"\""])).into(),
            _ => quoted(&format!("unknown{}", self.rng.u32(..100))),
        }
    }

    /// 1 to 3 structural edits of a JSON value.
    fn structural(&mut self, v: &Value, notes: &mut Vec<String>) -> String {
        let all = nodes(v);
        let mut edits: HashMap<usize, Edit> = HashMap::new();
        let count = 1 + self.rng.usize(..3);
        for _ in 0..count {
            let at = self.rng.usize(..all.len());
            let node = &all[at];
            let edit = match self.rng.u32(..10) {
                0..=4 => Edit::Replace(self.random_raw(0)),
                5 if !node.root => Edit::Delete,
                6 if !node.root => {
                    // Another value, or (empty, filled in below) the same value again.
                    let raw = if self.rng.bool() {
                        self.random_raw(0)
                    } else {
                        String::new()
                    };
                    Edit::Duplicate(raw)
                }
                7 | 8 if node.kind == Kind::Object => {
                    Edit::AddMember(self.random_key(), self.random_raw(0))
                }
                _ if node.kind == Kind::Str || node.kind == Kind::Number => {
                    Edit::Replace(self.random_raw(0))
                }
                _ if node.kind == Kind::Object => {
                    Edit::AddMember(self.random_key(), self.random_raw(0))
                }
                _ => Edit::Replace(self.random_raw(0)),
            };
            notes.push(format!("node {at}: {}", short_edit(&edit)));
            edits.insert(at, edit);
        }
        // An empty Duplicate means "the same value again": fill in the node's own text.
        let empties: Vec<usize> = edits
            .iter()
            .filter(|(_, e)| matches!(e, Edit::Duplicate(raw) if raw.is_empty()))
            .map(|(at, _)| *at)
            .collect();
        for at in empties {
            let own = node_text(v, at);
            edits.insert(at, Edit::Duplicate(own));
        }
        render(v, &edits)
    }

    /// 1 to 4 byte-level mutations.
    fn bytes(&mut self, b: &mut Vec<u8>, notes: &mut Vec<String>) {
        let count = 1 + self.rng.usize(..4);
        for _ in 0..count {
            let len = b.len();
            match self.rng.u32(..9) {
                0 if len > 0 => {
                    let at = self.rng.usize(..len);
                    let bit = self.rng.u8(..8);
                    b[at] ^= 1 << bit;
                    notes.push(format!("flip bit {bit} of byte {at}"));
                }
                1 => {
                    let at = self.rng.usize(..=len);
                    b.truncate(at);
                    notes.push(format!("truncate at {at}"));
                }
                2 => {
                    let at = self.rng.usize(..=len);
                    let n = 1 + self.rng.usize(..8);
                    let junk: Vec<u8> = (0..n).map(|_| self.rng.u8(..)).collect();
                    notes.push(format!("insert bytes {junk:?} at {at}"));
                    b.splice(at..at, junk);
                }
                3 | 4 => {
                    let at = self.rng.usize(..=len);
                    let s = *self.pick(&SNIPPETS);
                    notes.push(format!("insert {s:?} at {at}"));
                    b.splice(at..at, s.bytes());
                }
                5 if len > 0 => {
                    let at = self.rng.usize(..len);
                    let n = 1 + self.rng.usize(..(len - at).min(32));
                    notes.push(format!("delete {n} bytes at {at}"));
                    b.drain(at..at + n);
                }
                6 if len > 0 => {
                    let at = self.rng.usize(..len);
                    let n = 1 + self.rng.usize(..(len - at).min(64));
                    let copy = b[at..at + n].to_vec();
                    notes.push(format!("duplicate {n} bytes at {at}"));
                    b.splice(at..at, copy);
                }
                7 if len > 0 => {
                    let at = self.rng.usize(..len);
                    let c = *self.pick(b"{}[],:\"\\0-e.9 ");
                    notes.push(format!("byte {at} := {:?}", c as char));
                    b[at] = c;
                }
                _ => {
                    let at = self.rng.usize(..=len);
                    let s = self.random_raw(0);
                    notes.push(format!("insert value {} at {at}", short(&s)));
                    b.splice(at..at, s.bytes());
                }
            }
        }
    }

    /// A whole body of another kind altogether.
    fn whole_body(&mut self, notes: &mut Vec<String>) -> Vec<u8> {
        let b: Vec<u8> = match self.rng.u32(..12) {
            0 => Vec::new(),
            1 => b"null".to_vec(),
            2 => b"[]".to_vec(),
            3 => b"[{\"size\":1}]".to_vec(),
            4 => b"\"text\"".to_vec(),
            5 => b"12".to_vec(),
            6 => (0..self.rng.usize(..200))
                .map(|_| self.rng.u8(..))
                .collect(),
            7 => self.deep().into_bytes(),
            8 => {
                let other = *self.pick(&Ep::ALL);
                let v = self.seed_body(other);
                v.to_string().into_bytes()
            }
            9 => b"\xef\xbb\xbf{\"size\":1}".to_vec(),
            10 => b"\xff\xfe{\0\"\0".to_vec(),
            _ => b"size=1&channelCode=CRM".to_vec(),
        };
        notes.push(format!("whole body {}", show_bytes(&b, 60)));
        b
    }

    fn body_for(&mut self, ep: Ep, notes: &mut Vec<String>) -> (Option<Vec<u8>>, bool) {
        let seed = self.seed_body(ep);
        let roll = self.rng.u32(..100);
        if roll < 20 {
            return (Some(seed.to_string().into_bytes()), true);
        }
        if roll < 25 {
            notes.push("no body".into());
            return (None, false);
        }
        if roll < 32 {
            return (Some(self.whole_body(notes)), false);
        }
        let mut b = if roll < 85 {
            self.structural(&seed, notes).into_bytes()
        } else {
            seed.to_string().into_bytes()
        };
        if roll >= 85 || self.chance(25) {
            self.bytes(&mut b, notes);
        }
        (Some(b), false)
    }

    // --- query -------------------------------------------------------------------------------

    /// The g_nonce part of a query: raw `key=value` pieces (percent-encoded as they go out).
    fn nonce_pieces(&mut self, notes: &mut Vec<String>) -> Vec<String> {
        let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
        if self.chance(85) {
            return vec![format!("g_nonce={}", self.fresh_nonce())];
        }
        let fresh = self.fresh_nonce();
        let (what, pieces) = match self.rng.u32(..16) {
            0 => ("missing", vec![]),
            1 => {
                let other = self.fresh_nonce();
                (
                    "doubled",
                    vec![format!("g_nonce={fresh}"), format!("g_nonce={other}")],
                )
            }
            2 => (
                "doubled, same value",
                vec![format!("g_nonce={fresh}"), format!("g_nonce={fresh}")],
            ),
            3 => ("empty", vec!["g_nonce=".to_owned()]),
            4 => ("no '='", vec!["g_nonce".to_owned()]),
            5 => {
                let mut long = format!("{fresh}-");
                let target = if self.chance(80) {
                    128 + self.rng.usize(..3)
                } else {
                    1000 + self.rng.usize(..10_000)
                };
                while long.len() < target {
                    long.push('x');
                }
                long.truncate(target);
                ("length 128 or more", vec![format!("g_nonce={long}")])
            }
            6 => (
                "non-ASCII",
                vec![format!("g_nonce={}", enc(&format!("{fresh}-中文")))],
            ),
            7 => ("raw non-ASCII", vec![format!("g_nonce={fresh}-中文😀")]),
            8 => {
                let garbage = *self.pick(&[
                    "%", "%zz", "%ff%fe", "%00", "%0a", "%7f", "%2", "%%", "%20", "+", "%C3%28",
                ]);
                let before = self.rng.bool();
                let v = if before {
                    format!("{garbage}{fresh}")
                } else {
                    format!("{fresh}{garbage}")
                };
                ("percent garbage", vec![format!("g_nonce={v}")])
            }
            9 => {
                if self.spent.is_empty() {
                    ("missing", vec![])
                } else {
                    let old = self.spent[self.rng.usize(..self.spent.len())].clone();
                    ("reused", vec![format!("g_nonce={}", enc(&old))])
                }
            }
            10 => ("with a space", vec![format!("g_nonce={fresh}%20x")]),
            11 => ("upper-case key", vec![format!("G_NONCE={fresh}")]),
            12 => ("encoded key", vec![format!("g%5Fnonce={fresh}")]),
            13 => {
                let mut exact = format!("{fresh}-");
                while exact.len() < 128 {
                    exact.push('~');
                }
                ("exactly 128 characters", vec![format!("g_nonce={exact}")])
            }
            14 => (
                "every visible ASCII character",
                vec![format!(
                    "g_nonce={}",
                    enc(&format!("{fresh}!\"#$%&'()*+,-./:;<=>?@[\\]^_`{{|}}~"))
                )],
            ),
            _ => ("tab", vec![format!("g_nonce={fresh}%09")]),
        };
        notes.push(format!("g_nonce {what}"));
        pieces
    }

    fn random_param(&mut self) -> String {
        match self.rng.u32(..9) {
            0 => "x=1".into(),
            1 => "%E4%B8%AD=%E6%96%87".into(),
            2 => "=".into(),
            3 => "&&".into(),
            4 => "a=b=c".into(),
            5 => format!("pad={}", "y".repeat(1 + self.rng.usize(..8000))),
            6 => "%zz=%zz".into(),
            7 => format!(
                "{}={}",
                *self.pick(&[
                    "appKey",
                    "extendCode",
                    "channelCode",
                    "defaultCustomer",
                    "size"
                ]),
                self.rng.u32(..100)
            ),
            _ => "中=文".into(),
        }
    }

    fn query_for(&mut self, ep: Ep, notes: &mut Vec<String>) -> String {
        let mut pieces = self.nonce_pieces(notes);
        let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
        match ep {
            Ep::Batch => {
                let key = self.p.app.app_key.clone();
                match self.rng.u32(..100) {
                    0..=84 => pieces.push(format!("appKey={}", enc(&key))),
                    85..=87 => notes.push("appKey missing".into()),
                    88..=90 => {
                        notes.push("appKey doubled".into());
                        pieces.push(format!("appKey={}", enc(&key)));
                        pieces.push(format!("appKey={}", enc(&key)));
                    }
                    91..=93 => {
                        notes.push("appKey of another application".into());
                        pieces.push("appKey=ak_0000000000000000".into());
                    }
                    94..=95 => {
                        notes.push("appKey empty".into());
                        pieces.push("appKey=".into());
                    }
                    _ => {
                        notes.push("appKey non-ASCII".into());
                        pieces.push(format!("appKey={}", enc(&format!("{key}中"))));
                    }
                }
            }
            Ep::Query => {
                let code = *self.pick(&["SHOP", "CRM", "GXXP", "JD", "", "中文", " CRM "]);
                let customer = match self.rng.u32(..4) {
                    0 => "S-42".to_owned(),
                    1 => "CRM-1001".to_owned(),
                    2 => self.pool_value(),
                    _ => {
                        let mut long = self.long_string();
                        long.truncate(long.floor_char_boundary(20_000));
                        long
                    }
                };
                if self.chance(90) {
                    pieces.push(format!("channelCode={}", enc(code)));
                }
                if self.chance(90) {
                    pieces.push(format!("channelCustomerId={}", enc(&customer)));
                }
                if self.chance(70) {
                    let d = *self.pick(&["Y", "N", "y", "", "YES", "中", "N&defaultCustomer=Y"]);
                    pieces.push(format!("defaultCustomer={d}"));
                }
            }
            Ep::List if self.chance(40) => {
                let code = *self.pick(&["gxxp", "hy", "", "中文", "%ff", "x%00"]);
                pieces.push(format!("extendCode={code}"));
            }
            _ => {}
        }
        if self.chance(10) {
            let n = 1 + self.rng.usize(..3);
            for _ in 0..n {
                let p = self.random_param();
                notes.push(format!("extra parameter {}", short(&p)));
                pieces.push(p);
            }
        }
        if self.chance(10) {
            // Shuffle: order does not matter.
            self.rng.shuffle(&mut pieces);
        }
        pieces.join("&")
    }

    // --- path and method ---------------------------------------------------------------------

    fn list_segment(&mut self) -> String {
        if self.chance(90) {
            return self.enterprise();
        }
        match self.rng.u32(..10) {
            0 => "EG9999999999".into(),
            1 => self.pool_value(),
            2 => "%E4%B8%AD%E6%96%87".into(),
            3 => "%ff%fe".into(),
            4 => "EG%2F1".into(),
            5 => "%20".into(),
            6 => "x".repeat(1 + self.rng.usize(..5000)),
            7 => "%00".into(),
            8 => "lock".into(),
            _ => "中文".into(),
        }
    }

    fn path_for(&mut self, ep: Ep) -> String {
        match ep {
            Ep::Token => TOKEN.into(),
            Ep::Bind => BIND.into(),
            Ep::Create => CREATE.into(),
            Ep::Query => QUERY.into(),
            Ep::Update => UPDATE.into(),
            Ep::Batch => BATCH.into(),
            Ep::Lock => LOCK.into(),
            Ep::Unlock => UNLOCK.into(),
            Ep::List => format!("{LIST_PREFIX}{}{LIST_SUFFIX}", self.list_segment()),
            Ep::Shellnums => SHELLNUMS.into(),
            Ep::Claim => CLAIM.into(),
        }
    }

    fn mutate_path(&mut self, path: &str, notes: &mut Vec<String>) -> String {
        let segments: Vec<&str> = path.split('/').collect();
        let (what, out) = match self.rng.u32(..10) {
            0 => ("trailing slash", format!("{path}/")),
            1 => ("extra segment", format!("{path}/x")),
            2 => ("upper case", path.to_uppercase()),
            3 => ("v2", path.replace("/v1/", "/v2/")),
            4 => ("double slash", path.replacen('/', "//", 2)),
            5 => {
                let mut s: Vec<String> = segments.iter().map(|s| (*s).to_owned()).collect();
                let at = 1 + self.rng.usize(..s.len() - 1);
                s[at] = match self.rng.u32(..4) {
                    0 => "%E4%B8%AD".into(),
                    1 => "%ff".into(),
                    2 => "x".repeat(1 + self.rng.usize(..300)),
                    _ => "..".into(),
                };
                ("segment replaced", s.join("/"))
            }
            6 => (
                "last segment dropped",
                segments[..segments.len() - 1].join("/"),
            ),
            7 => ("prefix", format!("/api{path}")),
            8 => ("root", "/".into()),
            _ => ("percent-encoded letter", path.replacen('a', "%61", 1)),
        };
        notes.push(format!("path {what}"));
        out
    }

    fn random_method(&mut self) -> Method {
        match self.rng.u32(..8) {
            0 => Method::GET,
            1 => Method::POST,
            2 => Method::PUT,
            3 => Method::DELETE,
            4 => Method::PATCH,
            5 => Method::OPTIONS,
            6 => Method::HEAD,
            _ => Method::from_bytes(b"FUZZ").expect("method"),
        }
    }

    // --- headers -----------------------------------------------------------------------------

    fn header_garbage(&mut self) -> Vec<u8> {
        let n = self.rng.usize(..80);
        (0..n)
            .map(|_| {
                loop {
                    let b = self.rng.u8(..);
                    if b == b'\t' || (0x20..0x7f).contains(&b) || b >= 0x80 {
                        break b;
                    }
                }
            })
            .collect()
    }

    /// The Authorization header(s) of an order or activity call, and what they should yield.
    fn bearer(
        &mut self,
        ep: Ep,
        headers: &mut Vec<(String, Vec<u8>)>,
        notes: &mut Vec<String>,
    ) -> AuthExpect {
        let token = self.p.token.clone();
        let auth = "Authorization".to_owned();
        if self.chance(90) {
            headers.push((auth, format!("Bearer {token}").into_bytes()));
            return AuthExpect::Valid;
        }
        let (what, expect) = match self.rng.u32(..13) {
            0 => ("missing", AuthExpect::Bad),
            1 => {
                headers.push((auth, format!("bearer {token}").into_bytes()));
                ("lower-case scheme", AuthExpect::Valid)
            }
            2 => {
                let scheme = *self.pick(&["Basic", "Token", "Bearer:", "MAC", "Digest"]);
                headers.push((auth, format!("{scheme} {token}").into_bytes()));
                ("wrong scheme", AuthExpect::Bad)
            }
            3 => {
                headers.push((auth, token.clone().into_bytes()));
                ("token without scheme", AuthExpect::Bad)
            }
            4 => {
                let g = self.header_garbage();
                headers.push((auth, g));
                ("garbage", AuthExpect::Bad)
            }
            5 => {
                let fake: String = (0..token.len()).map(|_| self.rng.alphanumeric()).collect();
                headers.push((auth, format!("Bearer {fake}").into_bytes()));
                ("unknown token", AuthExpect::Bad)
            }
            6 => {
                let n = self.rng.usize(..token.len());
                headers.push((auth, format!("Bearer {}", &token[..n]).into_bytes()));
                ("truncated token", AuthExpect::Bad)
            }
            7 => {
                let mut t: Vec<char> = token.chars().collect();
                let at = self.rng.usize(..t.len());
                let c = loop {
                    let c = self.rng.alphanumeric();
                    if c != t[at] {
                        break c;
                    }
                };
                t[at] = c;
                let t: String = t.into_iter().collect();
                headers.push((auth, format!("Bearer {t}").into_bytes()));
                ("one character changed", AuthExpect::Bad)
            }
            8 => {
                let other = if ep == Ep::Claim {
                    self.order_only_token.clone()
                } else {
                    self.activity_only_token.clone()
                };
                headers.push((auth, format!("Bearer {other}").into_bytes()));
                ("token without the group's scope", AuthExpect::NoScope)
            }
            9 => {
                let g = self.header_garbage();
                headers.push((auth.clone(), format!("Bearer {token}").into_bytes()));
                headers.push((auth, g));
                ("two headers, valid first", AuthExpect::Unknown)
            }
            10 => {
                let g = self.header_garbage();
                headers.push((auth.clone(), g));
                headers.push((auth, format!("Bearer {token}").into_bytes()));
                ("two headers, garbage first", AuthExpect::Unknown)
            }
            11 => {
                headers.push((auth, format!("Bearer   {token}  ").into_bytes()));
                ("extra spaces", AuthExpect::Unknown)
            }
            _ => {
                headers.push((auth, b"Bearer ".to_vec()));
                ("empty token", AuthExpect::Bad)
            }
        };
        notes.push(format!("Authorization {what}"));
        expect
    }

    fn content_type(&mut self, headers: &mut Vec<(String, Vec<u8>)>, notes: &mut Vec<String>) {
        let ct = "Content-Type".to_owned();
        if self.chance(85) {
            headers.push((ct, b"application/json".to_vec()));
            return;
        }
        let value: Option<Vec<u8>> = match self.rng.u32(..12) {
            0 => None,
            1 => Some(b"text/plain".to_vec()),
            2 => Some(b"application/x-www-form-urlencoded".to_vec()),
            3 => Some(b"application/json; charset=utf-8".to_vec()),
            4 => Some(b"APPLICATION/JSON".to_vec()),
            5 => Some(b"application/json; charset=gbk".to_vec()),
            6 => Some(b"application/json, text/plain".to_vec()),
            7 => Some(b"application/jsonx".to_vec()),
            8 => Some(b"application/problem+json".to_vec()),
            9 => Some(self.header_garbage()),
            10 => Some(b"application/json;;;=".to_vec()),
            _ => {
                headers.push((ct.clone(), b"text/plain".to_vec()));
                Some(b"application/json".to_vec())
            }
        };
        match value {
            None => notes.push("Content-Type missing".into()),
            Some(v) => {
                notes.push(format!("Content-Type {}", show_bytes(&v, 60)));
                headers.push((ct, v));
            }
        }
    }

    fn extra_headers(&mut self, headers: &mut Vec<(String, Vec<u8>)>, notes: &mut Vec<String>) {
        if self.chance(5) {
            let (name, value): (&str, Vec<u8>) = match self.rng.u32(..5) {
                0 => ("X-Fuzz", self.header_garbage()),
                1 => ("Accept", b"text/html".to_vec()),
                2 => ("Accept-Encoding", b"gzip, br".to_vec()),
                3 => ("Content-Encoding", b"gzip".to_vec()),
                _ => ("Expect", b"100-continue".to_vec()),
            };
            notes.push(format!("header {name}"));
            headers.push((name.to_owned(), value));
        }
    }

    // --- token endpoint ----------------------------------------------------------------------

    fn token_case(&mut self, notes: &mut Vec<String>) -> (Headers, Vec<u8>, bool) {
        let key = self.p.app.app_key.clone();
        let secret = self.p.app.app_secret.clone();
        let basic = |k: &str, s: &str| format!("Basic {}", STANDARD.encode(format!("{k}:{s}")));
        let mut headers = Vec::new();
        let auth = "Authorization".to_owned();
        let valid_creds = if self.chance(70) {
            headers.push((auth, basic(&key, &secret).into_bytes()));
            true
        } else {
            let (what, valid) = match self.rng.u32(..9) {
                0 => ("missing", false),
                1 => {
                    headers.push((auth, basic(&key, "wrong").into_bytes()));
                    ("wrong secret", false)
                }
                2 => {
                    headers.push((auth, basic("ak_0000000000000000", &secret).into_bytes()));
                    ("unknown key", false)
                }
                3 => {
                    let v = format!("Bearer {}", self.p.token);
                    headers.push((auth, v.into_bytes()));
                    ("bearer instead of basic", false)
                }
                4 => {
                    let g = self.header_garbage();
                    headers.push((auth, g));
                    ("garbage", false)
                }
                5 => {
                    headers.push((auth, b"Basic !!!not-base64!!!".to_vec()));
                    ("not base64", false)
                }
                6 => {
                    let v = format!("Basic {}", STANDARD.encode(format!("{key}{secret}")));
                    headers.push((auth, v.into_bytes()));
                    ("no colon", false)
                }
                7 => {
                    let v = format!("Basic {}", STANDARD.encode(b"\xff\xfe:\xc3\x28"));
                    headers.push((auth, v.into_bytes()));
                    ("not UTF-8", false)
                }
                _ => {
                    let v = format!("basic {}", STANDARD.encode(format!("{key}:{secret}")));
                    headers.push((auth, v.into_bytes()));
                    ("lower-case scheme", true)
                }
            };
            notes.push(format!("Authorization {what}"));
            valid
        };
        if self.chance(80) {
            headers.push((
                "Content-Type".to_owned(),
                b"application/x-www-form-urlencoded".to_vec(),
            ));
        } else {
            self.content_type(&mut headers, notes);
        }
        let mut form = b"grant_type=client_credentials".to_vec();
        match self.rng.u32(..10) {
            0..=5 => {}
            6 => {
                let alt = *self.pick(&[
                    "",
                    "grant_type=password",
                    "grant_type=",
                    "grant_type=client_credentials&grant_type=password",
                    "scope=auth_order&grant_type=client_credentials",
                    "grant_type=client%5Fcredentials",
                    "grant_type=CLIENT_CREDENTIALS",
                    "{\"grant_type\":\"client_credentials\"}",
                ]);
                notes.push(format!("form {alt:?}"));
                form = alt.as_bytes().to_vec();
            }
            7 => {
                let n = 4000 + self.rng.usize(..200);
                notes.push(format!("form padded to {n} bytes"));
                form.extend_from_slice(b"&pad=");
                while form.len() < n {
                    form.push(b'x');
                }
            }
            _ => self.bytes(&mut form, notes),
        }
        (headers, form, valid_creds)
    }

    // --- a case ------------------------------------------------------------------------------

    fn case(&mut self) -> Case {
        let ep = *self.pick(&Ep::ALL);
        let mut notes = Vec::new();
        let mut headers = Vec::new();
        let (auth, body, pristine_body, query) = if ep == Ep::Token {
            let (h, form, valid) = self.token_case(&mut notes);
            headers = h;
            let expect = if valid {
                AuthExpect::Valid
            } else {
                AuthExpect::Bad
            };
            let query = if self.chance(10) {
                self.random_param()
            } else {
                String::new()
            };
            (expect, Some(form), false, query)
        } else {
            let auth = self.bearer(ep, &mut headers, &mut notes);
            let query = self.query_for(ep, &mut notes);
            let (body, pristine) = if ep.has_body() {
                if self.chance(95) {
                    self.content_type(&mut headers, &mut notes);
                } else {
                    notes.push("Content-Type missing".into());
                }
                self.body_for(ep, &mut notes)
            } else if self.chance(5) {
                notes.push("GET with a body".into());
                (Some(b"{\"x\":1}".to_vec()), false)
            } else {
                (None, true)
            };
            (auth, body, pristine, query)
        };
        self.extra_headers(&mut headers, &mut notes);
        let mut path = self.path_for(ep);
        let mut method = ep.method();
        if self.chance(6) {
            path = self.mutate_path(&path, &mut notes);
        }
        if self.chance(5) {
            method = self.random_method();
            notes.push(format!("method {method}"));
        }
        let target = if query.is_empty() {
            path
        } else {
            format!("{path}?{query}")
        };
        Case {
            ep,
            method,
            target,
            headers,
            body,
            auth,
            pristine_body,
            mutations: notes,
        }
    }

    /// Sends a case. Bodies over `RAW_BODY` go over a connection of their own, followed by a
    /// valid call on the same connection (see `raw_exchange`); the second value is what went
    /// wrong with that call.
    async fn send(
        &mut self,
        case: &Case,
    ) -> Result<(reqwest::Url, Answer, Option<String>), String> {
        let url = reqwest::Url::parse(&format!("{}{}", self.p.base, case.target))
            .map_err(|e| format!("skip: unparseable URL: {e}"))?;
        let mut headers = Vec::new();
        for (name, value) in &case.headers {
            let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_bytes(value),
            ) else {
                return Err("skip: header not representable".into());
            };
            headers.push((name, value));
        }
        if case.body.as_ref().is_some_and(|b| b.len() > RAW_BODY) {
            return self.send_raw(case, url, headers).await;
        }
        let mut req = self.http.request(case.method.clone(), url.clone());
        for (name, value) in headers {
            req = req.header(name, value);
        }
        if let Some(body) = &case.body {
            req = req.body(body.clone());
        }
        let r = req.send().await.map_err(|e| {
            if e.is_builder() {
                format!("skip: the client cannot send this request: {e}")
            } else {
                format!(
                    "no answer (the server stopped answering?): {:?}",
                    e.without_url()
                )
            }
        })?;
        let status = r.status().as_u16();
        let content_type = r
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let text = r
            .bytes()
            .await
            .map_err(|e| format!("the body could not be read: {e:?}"))?
            .to_vec();
        let json = serde_json::from_slice(&text).ok();
        Ok((
            url,
            Answer {
                status,
                content_type,
                text,
                json,
            },
            None,
        ))
    }

    async fn send_raw(
        &mut self,
        case: &Case,
        url: reqwest::Url,
        headers: Vec<(HeaderName, HeaderValue)>,
    ) -> Result<(reqwest::Url, Answer, Option<String>), String> {
        let host = format!(
            "{}:{}",
            url.host_str().unwrap_or("127.0.0.1"),
            url.port().unwrap_or(80)
        );
        let target = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        };
        let mut request =
            format!("{} {target} HTTP/1.1\r\nHost: {host}\r\n", case.method).into_bytes();
        for (name, value) in &headers {
            request.extend_from_slice(name.as_str().as_bytes());
            request.extend_from_slice(b": ");
            request.extend_from_slice(value.as_bytes());
            request.extend_from_slice(b"\r\n");
        }
        let body = case.body.clone().unwrap_or_default();
        request.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        request.extend_from_slice(&body);
        let nonce = self.fresh_nonce();
        let follow_body = br#"{"size":1}"#;
        let follow_up = format!(
            "POST {SHELLNUMS}?g_nonce={nonce} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
            self.p.token,
            follow_body.len(),
            String::from_utf8_lossy(follow_body)
        )
        .into_bytes();
        let head = case.method == Method::HEAD;
        let (answer, problem, followed) =
            tokio::task::spawn_blocking(move || raw_exchange(&host, &request, head, &follow_up))
                .await
                .map_err(|e| format!("the raw exchange panicked: {e}"))??;
        if !followed {
            // Never sent: the nonce was not spent.
        } else if problem.is_none() {
            self.spent_set.insert(nonce.clone());
            self.spent.push(nonce);
        } else {
            self.maybe_spent.insert(nonce);
        }
        Ok((url, answer, problem))
    }

    // --- invariants --------------------------------------------------------------------------

    /// What the g_nonce of an admitted order or activity call should give: `Some(true)` a
    /// nonce refusal, `Some(false)` none, `None` not predicted. Records the nonce as spent.
    fn nonce_expectation(&mut self, url: &reqwest::Url, predictable: bool) -> Option<bool> {
        let values: Vec<String> =
            form_urlencoded::parse(url.query().unwrap_or_default().as_bytes())
                .filter(|(k, _)| k == "g_nonce")
                .map(|(_, v)| v.into_owned())
                .collect();
        if !predictable {
            self.maybe_spent.extend(values);
            return None;
        }
        let [nonce] = values.as_slice() else {
            return Some(true);
        };
        let well_formed =
            !nonce.is_empty() && nonce.len() <= 128 && nonce.bytes().all(|b| b.is_ascii_graphic());
        if !well_formed || self.spent_set.contains(nonce) {
            return Some(true);
        }
        if self.maybe_spent.contains(nonce) {
            return None;
        }
        self.spent_set.insert(nonce.clone());
        self.spent.push(nonce.clone());
        Some(false)
    }

    fn check(&mut self, case: &Case, url: &reqwest::Url, a: &Answer) -> Result<(), String> {
        let path = url.path();
        let routed = Ep::of_path(path);
        let status = a.status;
        let head = case.method == Method::HEAD;

        // Every answer (but to HEAD, which has no body) is a JSON object.
        let body = if head {
            Value::Null
        } else {
            let Some(body) = a.json.clone() else {
                return Err("the body is not JSON".into());
            };
            if !body.is_object() {
                return Err("the body is not a JSON object".into());
            }
            if !a
                .content_type
                .as_deref()
                .is_some_and(|c| c.starts_with("application/json"))
            {
                return Err(format!(
                    "Content-Type of the answer is {:?}",
                    a.content_type
                ));
            }
            body
        };
        let code = match &body["code"] {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => body["resultCode"]
                .as_str()
                .or_else(|| body["error"].as_str())
                .unwrap_or("-")
                .to_owned(),
        };
        *self
            .stats
            .answers
            .entry((case.ep, status, code.clone()))
            .or_default() += 1;

        // Which route the server had to take.
        let exact = routed.is_some_and(|ep| ep.method() == case.method);
        let wrong_method = routed
            .is_some_and(|ep| ep.method() != case.method && !(head && ep.method() == Method::GET));
        let certainly_unknown = routed.is_none() && !path.contains('%');

        if wrong_method && status != 405 {
            return Err(format!(
                "a known path with another method should be 405, not {status}"
            ));
        }
        if certainly_unknown && status != 404 {
            return Err(format!("an unknown path should be 404, not {status}"));
        }
        if !head && (status == 404 || status == 405) {
            let expected = status.to_string();
            if body["code"] != json!(expected)
                || !body["message"].is_string()
                || !body["cause"].is_string()
            {
                return Err(format!("a {status} must be in the order group's envelope"));
            }
        }

        if routed == Some(Ep::Token) {
            return self.check_token(case, status, &body, exact);
        }

        let activity = routed == Some(Ep::Claim);
        let allowed: &[u16] = if exact && activity {
            &[200, 401, 403]
        } else {
            &[200, 299, 401, 403, 404, 405]
        };
        if !allowed.contains(&status) {
            return Err(format!(
                "HTTP {status} is not a documented status here ({allowed:?})"
            ));
        }
        if head {
            return Ok(());
        }
        // Envelopes by status.
        match status {
            200 if activity && exact => {
                let rc = body["resultCode"].as_str().unwrap_or_default();
                if !ACTIVITY_CODES.contains(&rc) || !body["resultMessage"].is_string() {
                    return Err(
                        "a claim answer needs a documented resultCode and a resultMessage".into(),
                    );
                }
                if rc == "1002" {
                    return Err("resultCode 1002 (processing exception): an internal failure caused by the request".into());
                }
                if rc == "0000" && !body["detail"]["products"].is_array() {
                    return Err("a successful claim needs detail.products".into());
                }
                if rc == "3002" && !body["activityDtoList"].is_array() {
                    return Err("3002 needs activityDtoList".into());
                }
            }
            200 => {
                let order_ok = body["code"] == json!(0) && body["message"] == json!("success");
                let claim_ok = body["resultCode"]
                    .as_str()
                    .is_some_and(|c| ACTIVITY_CODES.contains(&c));
                if !(order_ok || (!exact && claim_ok)) {
                    return Err("HTTP 200 without a success envelope".into());
                }
                if exact && routed != Some(Ep::Update) && body.get("data").is_none() {
                    return Err("a success without data".into());
                }
                if exact && routed == Some(Ep::Update) && body.get("data").is_some() {
                    return Err("the update operation answers without data".into());
                }
            }
            299 => {
                let c = body["code"].as_str().unwrap_or_default();
                if !(c == "13004" || c == "500")
                    || !body["message"].is_string()
                    || !body["cause"].is_string()
                {
                    return Err(
                        "a 299 needs a string code 13004 or 500, a message and a cause".into(),
                    );
                }
                if body.get("data").is_some() {
                    return Err("a failure with data".into());
                }
                if c == "500" {
                    return Err(
                        "business code 500: a storage or internal failure caused by the request"
                            .into(),
                    );
                }
            }
            401 | 403 => {
                let expected = status.to_string();
                let order_env = body["code"] == json!(expected)
                    && body["message"].is_string()
                    && body["cause"].is_string();
                let activity_env =
                    body["resultCode"] == json!(expected) && body["resultMessage"].is_string();
                let ok = if !exact {
                    order_env || activity_env
                } else if activity {
                    activity_env
                } else {
                    order_env
                };
                if !ok {
                    return Err(format!("a {status} must be in the group's envelope"));
                }
            }
            _ => {}
        }

        // Auth first, then the nonce, then the body (docs: "Auth failures", "g_nonce").
        let predictable = exact && case.auth == AuthExpect::Valid;
        if exact {
            match case.auth {
                AuthExpect::Bad if status != 401 => {
                    return Err(format!(
                        "a call without a usable token should be 401, not {status}"
                    ));
                }
                AuthExpect::NoScope if status != 403 => {
                    return Err(format!(
                        "a token without the group's scope should be 403, not {status}"
                    ));
                }
                AuthExpect::Valid if status == 401 || status == 403 => {
                    return Err(format!(
                        "a valid token with the scope was refused with {status}"
                    ));
                }
                _ => {}
            }
        }
        let message = if activity {
            body["resultMessage"].as_str()
        } else {
            body["message"].as_str()
        }
        .unwrap_or_default()
        .to_owned();
        let refused_13004 = if activity {
            body["resultCode"] == json!("1001")
        } else {
            status == 299 && body["code"] == json!("13004")
        };
        match self.nonce_expectation(url, predictable) {
            Some(true) if !(refused_13004 && message.starts_with("g_nonce: ")) => {
                return Err(
                    "a missing, malformed or reused g_nonce should be refused naming g_nonce"
                        .into(),
                );
            }
            Some(false) if message.starts_with("g_nonce") => {
                return Err("a fresh, well-formed g_nonce was refused".into());
            }
            Some(false) if routed.is_some_and(Ep::has_body) => {
                // Admitted: the Content-Type is judged next.
                let ct_ok = content_type_is_json(&case.headers);
                let named = refused_13004 && message.starts_with("Content-Type: ");
                if ct_ok == named {
                    return Err(if ct_ok {
                        "a JSON Content-Type was refused".into()
                    } else {
                        "a Content-Type other than application/json was not refused".into()
                    });
                }
            }
            _ => {}
        }
        // Ids of successful answers feed later requests (not the listing's: async batches
        // make what it shows depend on timing, and the cases should replay exactly).
        if exact && status == 200 && !activity && routed != Some(Ep::List) {
            self.harvest(&body["data"]);
        }
        Ok(())
    }

    fn check_token(
        &mut self,
        case: &Case,
        status: u16,
        body: &Value,
        exact: bool,
    ) -> Result<(), String> {
        if !exact {
            return if status == 405 {
                Ok(())
            } else {
                Err(format!(
                    "the token path with {} should be 405, not {status}",
                    case.method
                ))
            };
        }
        if ![200, 400, 401].contains(&status) {
            return Err(format!(
                "the token endpoint answers 200, 400 or 401, not {status}"
            ));
        }
        let form = case.body.clone().unwrap_or_default();
        let grant = form_urlencoded::parse(&form)
            .find(|(k, _)| k == "grant_type")
            .map(|(_, v)| v.into_owned());
        let form_ok = form.len() <= 4096 && grant.as_deref() == Some("client_credentials");
        match (case.auth == AuthExpect::Valid, form_ok) {
            (true, true) if status != 200 => {
                return Err(format!(
                    "valid credentials and grant should be 200, not {status}"
                ));
            }
            (true, false) if status != 400 => {
                return Err(format!(
                    "a bad form with valid credentials should be 400, not {status}"
                ));
            }
            (false, true) if status != 401 => {
                return Err(format!("bad credentials should be 401, not {status}"));
            }
            (false, false) if status == 200 => {
                return Err("bad credentials and a bad form got a token".into());
            }
            _ => {}
        }
        match status {
            200 => {
                if !body["access_token"].is_string()
                    || body["token_type"] != json!("bearer")
                    || !body["expires_in"].is_i64()
                    || !body["scope"].is_string()
                {
                    return Err(
                        "a token answer needs access_token, token_type, expires_in, scope".into(),
                    );
                }
            }
            400 => {
                let e = body["error"].as_str().unwrap_or_default();
                if !(e == "invalid_request" || e == "unsupported_grant_type")
                    || !body["error_description"].is_string()
                {
                    return Err(
                        "a 400 needs error invalid_request or unsupported_grant_type".into(),
                    );
                }
            }
            _ => {
                if body["error"] != json!("invalid_client")
                    || !body["error_description"].is_string()
                {
                    return Err("a 401 needs error invalid_client".into());
                }
            }
        }
        Ok(())
    }

    /// A batch that succeeded, sent again (fresh nonce, same bytes): the same answer, as the
    /// batch is idempotent on (channelCode, channelOrderId) (docs: "Batch orders"); an async
    /// batch may instead have failed when applied, which is then said.
    async fn replay_batch(&mut self, body: &[u8], first: &Value) -> Result<(), String> {
        let nonce = self.fresh_nonce();
        let r = self
            .http
            .post(format!("{}{BATCH}", self.p.base))
            .bearer_auth(&self.p.token)
            .query(&[("g_nonce", nonce.as_str()), ("appKey", &self.p.app.app_key)])
            .header("Content-Type", "application/json")
            .body(body.to_vec())
            .send()
            .await
            .map_err(|e| format!("the batch sent again got no answer: {:?}", e.without_url()))?;
        self.spent_set.insert(nonce.clone());
        self.spent.push(nonce);
        let status = r.status().as_u16();
        let again: Value = r
            .json()
            .await
            .map_err(|e| format!("the batch sent again: not JSON: {e:?}"))?;
        let failed_async = status == 299
            && again["code"] == json!("13004")
            && again["message"]
                .as_str()
                .is_some_and(|m| m.contains("was accepted but could not be applied"));
        if (status == 200 && again == *first) || failed_async {
            Ok(())
        } else {
            Err(format!(
                "the same batch sent again answered differently: HTTP {status} {}",
                shorten(&again.to_string(), 1000)
            ))
        }
    }

    // --- health ------------------------------------------------------------------------------

    /// A valid call of operation 9 with a fresh nonce.
    async fn healthy(&mut self) -> Result<(), String> {
        let nonce = self.fresh_nonce();
        let r = self
            .http
            .post(format!("{}{SHELLNUMS}", self.p.base))
            .bearer_auth(&self.p.token)
            .query(&[("g_nonce", nonce.as_str())])
            .json(&json!({"size": 1}))
            .send()
            .await
            .map_err(|e| format!("health check: no answer: {e:?}"))?;
        self.spent_set.insert(nonce.clone());
        self.spent.push(nonce);
        let status = r.status().as_u16();
        let body: Value = r
            .json()
            .await
            .map_err(|e| format!("health check: not JSON: {e:?}"))?;
        let numbers = body["data"].as_array();
        if status != 200
            || body["code"] != json!(0)
            || numbers.is_none_or(|n| n.len() != 1 || n[0].as_str().is_none_or(|s| s.len() != 10))
        {
            return Err(format!("health check failed: HTTP {status} {body}"));
        }
        self.stats.health_checks += 1;
        Ok(())
    }

    /// Reports a failure: stops at once, or with FUZZ_KEEP_GOING prints the first two cases of
    /// each reason and counts the rest.
    fn fail(&mut self, n: u64, reason: &str, report: String) {
        let entry = self.failures.entry(reason.to_owned()).or_insert((0, n));
        entry.0 += 1;
        if entry.0 <= 2 {
            eprintln!("{report}");
        }
        if !self.keep_going {
            panic!("fuzz failure (FUZZ_SEED={}): see above", self.seed);
        }
        if self.failures.len() >= MAX_FAILURES {
            panic!(
                "{MAX_FAILURES} different fuzz failures (FUZZ_SEED={}): see above",
                self.seed
            );
        }
    }

    fn report(&self, n: u64, case: &Case, why: &str, answer: Option<&Answer>) -> String {
        let base = &self.p.base;
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
        let save = |suffix: &str, bytes: &[u8]| {
            let _ = std::fs::create_dir_all(&dir);
            let path = dir.join(format!("seed-{}-case-{n}.{suffix}", self.seed));
            if let Ok(mut f) = std::fs::File::create(&path) {
                let _ = f.write_all(bytes);
            }
            path.display().to_string()
        };
        let body_file = case.body.as_ref().map(|b| save("body", b));
        let url_file = (case.target.len() > 2000)
            .then(|| save("url", format!("{base}{}", case.target).as_bytes()));
        let mut s = format!(
            "\n=== FUZZ FAILURE: case {n} of FUZZ_SEED={} ({:?}) ===\n{why}\n--- request\n{}",
            self.seed,
            case.ep,
            case.describe(base)
        );
        let _ = writeln!(
            s,
            "--- as curl (token and port of this run)\n{}",
            case.curl(base, url_file.as_deref(), body_file.as_deref())
        );
        if let Some(a) = answer {
            let _ = writeln!(
                s,
                "--- answer: HTTP {} ({:?})\n{}",
                a.status,
                a.content_type,
                show_bytes(&a.text, 2000)
            );
        }
        s
    }
}

/// Sends `request` over a new connection and reads the answer. Then, unless the answer said
/// `Connection: close`, sends `follow_up` (a valid call) on the same connection: a server that
/// keeps a connection open must answer the next request on it (RFC 9112, 9.3 and 9.6), and one
/// that will close it must say so, or a keep-alive client's next call fails without an answer.
/// Returns the first answer and what went wrong with the follow-up, if anything.
fn raw_exchange(
    addr: &str,
    request: &[u8],
    head: bool,
    follow_up: &[u8],
) -> Result<(Answer, Option<String>, bool), String> {
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("no connection: {e}"))?;
    let timeout = Some(Duration::from_secs(120));
    s.set_read_timeout(timeout).map_err(|e| e.to_string())?;
    s.set_write_timeout(timeout).map_err(|e| e.to_string())?;
    // The server may answer before it has read the body; the answer is what counts.
    let write_error = s.write_all(request).err();
    let (answer, close) = read_answer(&mut s, head).map_err(|e| {
        let during = write_error
            .map(|w| format!(" (writing the request failed: {w})"))
            .unwrap_or_default();
        format!("no answer (the server stopped answering?): {e}{during}")
    })?;
    if close {
        // The follow-up is not sent: its nonce stays unspent.
        return Ok((answer, None, false));
    }
    // A server that closes after this answer without saying so fails the follow-up whether it
    // has closed yet or not: the write fails, or the read meets a reset or the end.
    let follow = s
        .write_all(follow_up)
        .and_then(|()| read_answer(&mut s, false));
    let problem = match follow {
        Ok((a, _)) if a.status == 200 => None,
        Ok((a, _)) => Some(format!(
            "the valid call sent next on the same connection got HTTP {}: {}",
            a.status,
            show_bytes(&a.text, 300)
        )),
        Err(e) => Some(format!(
            "the server dropped the keep-alive connection after this answer without saying \
             `Connection: close`: the valid call sent next on it got no answer ({e})"
        )),
    };
    Ok((answer, problem, true))
}

/// Reads one HTTP/1.1 answer (skipping 1xx); true when it says `Connection: close`.
fn read_answer(s: &mut std::net::TcpStream, head: bool) -> std::io::Result<(Answer, bool)> {
    use std::io::{Error, ErrorKind, Read};
    let eof = || Error::new(ErrorKind::UnexpectedEof, "the connection was closed");
    let bad = |what: &str| Error::new(ErrorKind::InvalidData, what.to_owned());
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i;
            }
            let n = s.read(&mut chunk)?;
            if n == 0 {
                return Err(eof());
            }
            buf.extend_from_slice(&chunk[..n]);
        };
        let text = String::from_utf8_lossy(&buf[..end]).into_owned();
        buf.drain(..end + 4);
        let mut lines = text.split("\r\n");
        let status: u16 = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| bad("no status line"))?;
        if (100..200).contains(&status) {
            continue;
        }
        let (mut content_type, mut length, mut close) = (None, 0usize, false);
        for line in lines {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-type" => content_type = Some(value.to_owned()),
                "content-length" => length = value.parse().map_err(|_| bad("content-length"))?,
                "connection" => close = value.eq_ignore_ascii_case("close"),
                "transfer-encoding" => return Err(bad("chunked answers are not read here")),
                _ => {}
            }
        }
        if head {
            length = 0;
        }
        while buf.len() < length {
            let n = s.read(&mut chunk)?;
            if n == 0 {
                return Err(eof());
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        buf.truncate(length);
        let json = serde_json::from_slice(&buf).ok();
        let answer = Answer {
            status,
            content_type,
            text: buf,
            json,
        };
        return Ok((answer, close));
    }
}

fn content_type_is_json(headers: &[(String, Vec<u8>)]) -> bool {
    let Some((_, value)) = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
    else {
        return false;
    };
    // Only visible ASCII (and tab) is readable as text; anything else counts as absent.
    let Ok(text) = std::str::from_utf8(value) else {
        return false;
    };
    if !text
        .bytes()
        .all(|b| b == b'\t' || (0x20..0x7f).contains(&b))
    {
        return false;
    }
    let media = text.split(';').next().unwrap_or_default().trim();
    media.eq_ignore_ascii_case("application/json")
}

fn short(s: &str) -> String {
    let shown: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        format!("{shown:?}… ({} bytes)", s.len())
    } else {
        format!("{shown:?}")
    }
}

fn short_edit(e: &Edit) -> String {
    match e {
        Edit::Replace(raw) => format!("replaced by {}", short(raw)),
        Edit::Delete => "deleted".into(),
        Edit::Duplicate(raw) => format!("duplicated with {}", short(raw)),
        Edit::AddMember(k, raw) => format!("member {} = {} added", short(k), short(raw)),
    }
}

/// The JSON text of node `at` (pre-order) of `v`.
fn node_text(v: &Value, at: usize) -> String {
    fn find<'a>(v: &'a Value, at: usize, idx: &mut usize) -> Option<&'a Value> {
        if *idx == at {
            return Some(v);
        }
        *idx += 1;
        let children: Vec<&Value> = match v {
            Value::Object(m) => m.values().collect(),
            Value::Array(a) => a.iter().collect(),
            _ => Vec::new(),
        };
        for c in children {
            if let Some(found) = find(c, at, idx) {
                return Some(found);
            }
        }
        None
    }
    let mut idx = 0;
    find(v, at, &mut idx).map_or_else(|| "null".to_owned(), Value::to_string)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzz_every_endpoint() {
    let cases = env_u64("FUZZ_CASES", DEFAULT_CASES);
    let seed = env_u64("FUZZ_SEED", DEFAULT_SEED);
    let verbose = std::env::var("FUZZ_VERBOSE").is_ok_and(|v| v == "1");
    println!("fuzz: FUZZ_SEED={seed} FUZZ_CASES={cases}");
    let started = Instant::now();
    let mut f = Fuzzer::start(seed).await;

    for n in 1..=cases {
        let case = f.case();
        match f.send(&case).await {
            Err(why) if why.starts_with("skip") => f.stats.skipped += 1,
            Err(why) => {
                let report = f.report(n, &case, &why, None);
                f.fail(n, "no answer", report);
            }
            Ok((url, answer, follow_up)) => {
                if verbose {
                    let body = case.body.as_deref().unwrap_or_default();
                    println!(
                        "case {n} {:?} {}{}: {} {} HTTP {} {}",
                        case.ep,
                        if case.pristine_body {
                            "seeded body "
                        } else {
                            ""
                        },
                        shorten(&case.mutations.join("; "), 200),
                        case.method,
                        shorten(&case.target, 200),
                        answer.status,
                        shorten(&String::from_utf8_lossy(&answer.text), 300)
                    );
                    println!("    body: {}", show_bytes(body, 400));
                }
                if let Err(why) = f.check(&case, &url, &answer) {
                    let report = f.report(n, &case, &why, Some(&answer));
                    f.fail(n, &why, report);
                } else if url.path() == BATCH
                    && case.method == Method::POST
                    && answer.status == 200
                    && let (Some(first), Some(body)) = (&answer.json, &case.body)
                    && let Err(why) = f.replay_batch(body, first).await
                {
                    let report = f.report(n, &case, &why, Some(&answer));
                    f.fail(n, "a batch sent again answered differently", report);
                }
                if let Some(why) = follow_up {
                    let report = f.report(n, &case, &why, Some(&answer));
                    let reason = format!(
                        "HTTP {} answer, then the connection was dropped unannounced",
                        answer.status
                    );
                    f.fail(n, &reason, report);
                }
            }
        }
        if n.is_multiple_of(HEALTH_EVERY)
            && let Err(why) = f.healthy().await
        {
            let report = f.report(n, &case, &format!("after this case: {why}"), None);
            f.fail(n, "health check failed", report);
        }
    }

    // At the end, a valid batch order and a valid claim go through.
    let n = f.next_id();
    let batch = json!({
        "channelCode": "CRM", "channelOrderId": format!("FINAL-{n}"), "syncMode": "sync",
        "orderList": [{"sequence": 1, "channelCustomerId": format!("FINAL-{n}"), "customerName": "最终客户",
                       "licenseType": "normal_recover_usbkey", "orderType": "new_buy",
                       "assets": [{"assetNos": [format!("6{:09}", n % 1_000_000_000)],
                                   "products": [{"productUri": "gms:1001", "limitConcurrent": 1}]}]}]
    });
    let r = f.p.batch(batch).await;
    assert_eq!(
        r.data().as_array().map(Vec::len),
        Some(1),
        "the final batch order: {}",
        r.body
    );
    let r =
        f.p.post(
            CLAIM,
            json!({"identity": format!("final-{n}@example.com"), "activityLabel": "spring-2026",
                   "source": "crm.example.com", "branch": "北京分公司"}),
        )
        .await;
    assert_eq!(r.status, 200, "the final claim: {}", r.body);
    assert_eq!(
        r.body["resultCode"],
        json!("0000"),
        "the final claim: {}",
        r.body
    );
    f.healthy().await.expect("still healthy");

    let elapsed = started.elapsed();
    println!(
        "fuzz: {cases} cases ({} skipped), {} health checks, in {:.1} s",
        f.stats.skipped,
        f.stats.health_checks,
        elapsed.as_secs_f64()
    );
    let mut by_ep: BTreeMap<Ep, Vec<String>> = BTreeMap::new();
    for ((ep, status, code), count) in &f.stats.answers {
        by_ep
            .entry(*ep)
            .or_default()
            .push(format!("{status}/{code}×{count}"));
    }
    for (ep, answers) in by_ep {
        println!("fuzz: {ep:?}: {}", answers.join(" "));
    }
    let summary: Vec<String> = f
        .failures
        .iter()
        .map(|(reason, (count, first))| format!("  {count}× (first: case {first}) {reason}"))
        .collect();
    assert!(
        f.failures.is_empty(),
        "fuzz failures (FUZZ_SEED={seed}), by reason:\n{}",
        summary.join("\n")
    );
}
