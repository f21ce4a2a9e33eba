//! The OpenAPI document (`GET /openapi.json`, `license-desk openapi`): a well-formed OpenAPI 3.1
//! document, listing exactly the routes the platform answers, and whose examples the platform
//! accepts.

use std::collections::BTreeSet;
use std::io::Write;

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Platform, Reply, nonce, reply};

const DOCUMENT: &str = "/openapi.json";
const METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

async fn document(p: &Platform) -> Value {
    let r = p
        .http
        .get(format!("{}{DOCUMENT}", p.base))
        .send()
        .await
        .expect("document request");
    assert_eq!(r.status(), 200, "the document needs no token");
    let content_type = r.headers().get("content-type").cloned();
    assert_eq!(
        content_type.as_ref().and_then(|v| v.to_str().ok()),
        Some("application/json")
    );
    r.json().await.expect("the document is JSON")
}

/// Every `(method, path)` of the document.
fn operations(doc: &Value) -> Vec<(String, String)> {
    let paths = doc["paths"].as_object().expect("paths");
    let mut ops = Vec::new();
    for (path, item) in paths {
        for method in item.as_object().expect("path item").keys() {
            assert!(METHODS.contains(&method.as_str()), "{method} {path}");
            ops.push((method.clone(), path.clone()));
        }
    }
    ops
}

/// Every `$ref` in `value`.
fn refs(value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                found.insert(r.clone());
            }
            map.values().for_each(|v| refs(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
        _ => {}
    }
}

/// The copy a team server includes (`wire::openapi::PLATFORM`) is the document the handlers
/// make, byte for byte; when a handler changes, this names the command that renews the copy.
#[test]
fn the_document_kept_in_wire_is_the_one_the_handlers_make() {
    assert!(
        wire::openapi::PLATFORM.trim_end() == platform::openapi_json(),
        "crates/wire/openapi/platform.json is out of date: run \
         `license-desk openapi > crates/wire/openapi/platform.json`"
    );
}

#[tokio::test]
async fn the_document_is_openapi_3_1_with_every_reference_resolved() {
    let p = Platform::start().await;
    let doc = document(&p).await;
    // The fields OpenAPI 3.1 requires; scripts/schemathesis.sh also loads it with a validating
    // reader. (utoipa's own model cannot read back an any-value schema, so it is not used.)
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["info"]["title"].is_string() && doc["info"]["version"].is_string());
    for (method, path) in operations(&doc) {
        let op = &doc["paths"][&path][&method];
        assert!(op["operationId"].is_string(), "{method} {path}");
        assert!(op["responses"].as_object().is_some_and(|r| !r.is_empty()));
        for param in op["parameters"].as_array().into_iter().flatten() {
            assert!(
                param["name"].is_string() && param["schema"].is_object(),
                "{param}"
            );
            let place = param["in"].as_str().unwrap_or_default();
            assert!(["query", "path"].contains(&place), "{param}");
            // A path parameter must be required and appear in the path.
            if place == "path" {
                assert_eq!(param["required"], true, "{param}");
                let name = param["name"].as_str().unwrap_or_default();
                assert!(path.contains(&format!("{{{name}}}")), "{path}: {param}");
            }
        }
    }
    let mut found = BTreeSet::new();
    refs(&doc, &mut found);
    assert!(!found.is_empty());
    for r in found {
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("a local schema reference: {r}"));
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "{r} resolves"
        );
    }
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(
        schemes["bearer"],
        json!({"type": "http", "scheme": "bearer",
        "description": "An application access token from POST /v3/api/oauth2/token"})
    );
    assert_eq!(schemes["basic"]["scheme"], "basic");
}

/// Each group's operations: the nonce, the bearer scheme and the group's refusals.
#[tokio::test]
async fn every_operation_takes_the_nonce_and_the_bearer_and_declares_its_answers() {
    let p = Platform::start().await;
    let doc = document(&p).await;
    for (method, path) in operations(&doc) {
        let op = &doc["paths"][&path][&method];
        let security = op["security"].as_array().expect("security").clone();
        if path == DOCUMENT {
            assert_eq!(security, vec![json!({})], "the document is open to all");
            continue;
        }
        if path == "/v3/api/oauth2/token" {
            assert_eq!(security, vec![json!({"basic": []})]);
            continue;
        }
        assert_eq!(security, vec![json!({"bearer": []})], "{method} {path}");
        let nonce = op["parameters"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == "g_nonce"))
            .unwrap_or_else(|| panic!("{method} {path} takes g_nonce"));
        assert_eq!(nonce["in"], "query");
        assert_eq!(nonce["required"], true);
        let answers: BTreeSet<&str> = op["responses"]
            .as_object()
            .expect("responses")
            .keys()
            .map(String::as_str)
            .collect();
        let expected: BTreeSet<&str> = if path.starts_with("/order/") {
            ["200", "299", "401", "403"].into()
        } else {
            ["200", "401", "403"].into()
        };
        assert_eq!(answers, expected, "{method} {path}");
        let unauthorized = &op["responses"]["401"]["content"]["application/json"]["schema"];
        let code = if path.starts_with("/order/") {
            "code"
        } else {
            "resultCode"
        };
        assert_eq!(unauthorized["properties"][code]["enum"], json!(["401"]));
    }
}

/// A concrete path for a templated one.
fn concrete(path: &str) -> String {
    path.replace("{enterpriseGlobalId}", "E-404")
}

/// The router serves exactly the document's routes: each documented method of each path is
/// answered by its operation (401 without a token, not 404 or 405), every other method of a
/// documented path is 405, a path next to them is 404, and the paths the client calls are all
/// documented.
#[tokio::test]
async fn the_document_lists_exactly_the_routes_the_router_serves() {
    let p = Platform::start().await;
    let doc = document(&p).await;
    let ops = operations(&doc);
    assert_eq!(
        ops.len(),
        12,
        "ten operations, the token endpoint, the document"
    );
    for (method, path) in &ops {
        let m = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
        let url = format!("{}{}", p.base, concrete(path));
        let status = p
            .http
            .request(m, &url)
            .send()
            .await
            .expect("request")
            .status();
        let expected = if path == DOCUMENT { 200 } else { 401 };
        assert_eq!(status.as_u16(), expected, "{method} {path}");
        for other in METHODS
            .iter()
            .filter(|o| doc["paths"][path].get(*o).is_none())
        {
            let m = Method::from_bytes(other.to_uppercase().as_bytes()).expect("method");
            let status = p
                .http
                .request(m, &url)
                .send()
                .await
                .expect("request")
                .status();
            assert_eq!(status.as_u16(), 405, "{other} {path} is not served");
        }
        let beside = format!("{url}x");
        let status = p.http.get(&beside).send().await.expect("request").status();
        assert_eq!(status.as_u16(), 404, "{beside} is not served");
    }
    use wire::paths;
    let client: BTreeSet<&str> = [
        paths::TOKEN,
        paths::BIND,
        paths::CREATE,
        paths::QUERY,
        paths::UPDATE,
        paths::BATCH_ORDER,
        paths::LOCK,
        paths::UNLOCK,
        paths::ASSET_LIST,
        paths::SHELLNUMS,
        paths::ACTIVITY,
    ]
    .into();
    let documented: BTreeSet<&str> = ops.iter().map(|(_, path)| path.as_str()).collect();
    let mut expected = client.clone();
    expected.insert(DOCUMENT);
    assert_eq!(documented, expected);
    assert_eq!(
        paths::asset_list("E-1"),
        concrete(paths::ASSET_LIST).replace("E-404", "E-1")
    );
}

/// An activity that the claim example's participant may claim.
fn activities_file(dir: &std::path::Path) -> std::path::PathBuf {
    let now = support::clock::now_ms();
    let day = 24 * 3600 * 1000;
    let definitions = json!({"activities": [{
        "id": "A1", "label": "spring-2026", "name": "春季活动",
        "startTime": now - day, "endTime": now + 30 * day,
        "units": [{"id": "U1", "name": "单元", "maxClaimsPerIdentity": 1,
                   "products": [{"productUri": "gms:1001", "validDays": 365, "activateType": "0"}]}]
    }]});
    let path = dir.join("activities.json");
    let mut f = std::fs::File::create(&path).expect("file");
    f.write_all(definitions.to_string().as_bytes())
        .expect("write");
    path
}

/// The example body of `(method, path)`, if it has one.
fn example(doc: &Value, method: &str, path: &str) -> Option<(String, Value)> {
    let content = doc["paths"][path][method]["requestBody"]["content"].as_object()?;
    let (media, body) = content.iter().next()?;
    Some((media.clone(), body["example"].clone()))
}

/// Sends the example body of an operation as its documentation shows it.
async fn send_example(p: &Platform, path: &str, media: &str, body: &Value) -> Reply {
    let url = format!("{}{path}", p.base);
    if media == "application/x-www-form-urlencoded" {
        let form: Vec<(String, String)> = body
            .as_object()
            .expect("a form's fields")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().expect("text").to_owned()))
            .collect();
        let req = p
            .http
            .post(url)
            .basic_auth(&p.app.app_key, Some(&p.app.app_secret));
        return reply(req.form(&form).send().await.expect("request")).await;
    }
    assert_eq!(media, "application/json", "{path}");
    let n = nonce();
    let mut query = vec![("g_nonce", n.as_str())];
    if path.ends_with("/batchOrder") {
        query.push(("appKey", p.app.app_key.as_str()));
    }
    let req = p
        .http
        .post(url)
        .bearer_auth(&p.token)
        .query(&query)
        .json(body);
    reply(req.send().await.expect("request")).await
}

/// Operations with a body, in the order a new user would send their examples: create before
/// update, the order before the lock on its asset.
const BODY_ORDER: [&str; 9] = [
    "token",
    "create",
    "update",
    "bind",
    "batchOrder",
    "lock",
    "unlock",
    "shellnums",
    "claim",
];

/// Every operation with a body has an example, and the real platform accepts it; the reads
/// with their parameters' examples then find the customer and the asset the examples made.
#[tokio::test]
async fn every_example_is_accepted_and_the_reads_find_what_it_made() {
    let files = tempfile::tempdir().expect("dir");
    let activities = activities_file(files.path());
    let p = Platform::start_with(|c| c.activities = Some(activities)).await;
    let doc = document(&p).await;
    let mut with_body: Vec<(usize, String, String)> = Vec::new();
    for (method, path) in operations(&doc) {
        if example(&doc, &method, &path).is_none() {
            assert_eq!(method, "get", "{path}: a body operation without an example");
            continue;
        }
        let id = doc["paths"][&path][&method]["operationId"]
            .as_str()
            .unwrap_or_default();
        let rank = BODY_ORDER.iter().position(|o| *o == id);
        let rank =
            rank.unwrap_or_else(|| panic!("{id}: an operation with a body, not in BODY_ORDER"));
        with_body.push((rank, method, path));
    }
    with_body.sort();
    assert_eq!(with_body.len(), BODY_ORDER.len());
    for (_, method, path) in with_body {
        let (media, body) = example(&doc, &method, &path).expect("an example");
        let r = send_example(&p, &path, &media, &body).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        if path.starts_with("/order/") {
            assert_eq!(r.body["code"], json!(0), "{path}: {}", r.body);
        } else if path.starts_with("/activity/") {
            assert_eq!(r.body["resultCode"], "0000", "{path}: {}", r.body);
        } else {
            assert_eq!(r.body["token_type"], "bearer", "{path}: {}", r.body);
        }
        if path.ends_with("/asset/lock") || path.ends_with("/asset/unlock") {
            assert_eq!(r.body["data"][0]["status"], 1, "{path}: {}", r.body);
        }
    }
    // The reads, with their parameters' examples, find what the examples above made.
    let query = get_example(&p, &doc, "/order/api/order/v1/enterprise/user/query").await;
    let bound = query.data().as_array().expect("customers");
    assert!(
        bound.iter().any(|c| c["channelCustomerId"] == "C-10001"),
        "{}",
        query.body
    );
    let listing = get_example(
        &p,
        &doc,
        "/order/api/order/v1/asset/{enterpriseGlobalId}/list",
    )
    .await;
    assert_eq!(
        listing.data()[0]["assetNum"],
        "8000000001",
        "{}",
        listing.body
    );
}

/// A GET with its parameters' examples and a fresh nonce.
async fn get_example(p: &Platform, doc: &Value, path: &str) -> Reply {
    let mut url = format!("{}{path}", p.base);
    let n = nonce();
    let mut query = vec![("g_nonce".to_owned(), n)];
    let params = doc["paths"][path]["get"]["parameters"]
        .as_array()
        .expect("parameters");
    for param in params.iter().filter(|param| param["name"] != "g_nonce") {
        let name = param["name"].as_str().expect("name");
        let value = param["example"].as_str().unwrap_or_default().to_owned();
        match param["in"].as_str() {
            Some("path") => url = url.replace(&format!("{{{name}}}"), &value),
            _ if !value.is_empty() => query.push((name.to_owned(), value)),
            _ => {}
        }
    }
    let req = p.http.get(url).bearer_auth(&p.token).query(&query);
    reply(req.send().await.expect("request")).await
}
