//! The team server's OpenAPI document (`GET /openapi.json`): the platform's own (kept in
//! `wire::openapi`, generated from the platform's handlers), with the token endpoint taken out and the server's sign-in
//! paths put in, so that Postman and Apifox drive a team server as they drive a platform.

use serde_json::{Value, json};
use wire::paths;

use super::team_paths;

/// The document, as JSON text.
pub fn document_json() -> String {
    document().to_string()
}

fn document() -> Value {
    let mut doc: Value = serde_json::from_str(wire::openapi::PLATFORM).unwrap_or_default();
    doc["info"]["title"] = json!("License Desk team server");
    doc["info"]["description"] = json!(
        "A team server in front of one licensing platform (docs/team.md). People sign in at \
         POST /team/v1/session and send the session's token as the bearer of the platform's \
         operations, which are forwarded for them when their role permits: HTTP 403 with \
         code 403 and cause `permission:NAME` otherwise. A write whose answer was lost on the \
         way to the platform is answered HTTP 504 with {\"outcome\":\"unknown\",…}, no \
         envelope. A delete, or a batch or lock change above the server's thresholds, is \
         kept for a second person: HTTP 202, code \"202\", cause `request:R-N`, nothing sent \
         (the /team/v1/requests paths decide it). The platform's token endpoint is not \
         offered."
    );
    if let Some(all) = doc["paths"].as_object_mut() {
        all.remove(paths::TOKEN);
        all.insert(team_paths::SESSION.to_owned(), session_path());
        all.insert(team_paths::ME.to_owned(), me_path());
        all.insert(team_paths::EVENTS.to_owned(), events_path());
        all.insert(team_paths::AUDIT.to_owned(), audit_path());
        for (path, item) in requests_paths() {
            all.insert(path.to_owned(), item);
        }
        for (path, item) in release_paths() {
            all.insert(path.to_owned(), item);
        }
    }
    doc["components"]["securitySchemes"]["bearer"]["description"] =
        json!("A session token from POST /team/v1/session");
    if let Some(schemes) = doc["components"]["securitySchemes"].as_object_mut() {
        schemes.remove("basic");
    }
    if let Some(tags) = doc["tags"].as_array_mut() {
        tags.retain(|t| t["name"] != "token");
        tags.push(json!({"name": "team", "description": "Sign-in and sessions"}));
        tags.push(
            json!({"name": "requests", "description": "Calls that wait for a second person"}),
        );
        tags.push(json!({"name": "releases", "description": "The console's signed releases"}));
    }
    doc
}

fn envelope(data: Value) -> Value {
    json!({
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
            "message": {"type": "string"},
            "data": data,
            "cause": {"type": "string"}
        }
    })
}

fn me_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "person": {"type": "object", "properties": {
                "name": {"type": "string"}, "displayName": {"type": "string"},
                "role": {"type": "string"},
                "branch": {"type": ["object", "null"], "properties": {
                    "code": {"type": "string"}, "name": {"type": "string"}}}
            }},
            "permissions": {"type": "array", "items": {"type": "string", "enum": [
                "read", "customers", "purchase", "numbers", "claim", "locks", "delete",
                "approve", "users"]}},
            "fourEyes": {
                "description": "When this person's calls wait for a second person (every \
                    delete; a batch of more than batchAssets assets; a lock or unlock of more \
                    than locks), and who may decide them",
                "type": "object",
                "properties": {
                    "batchAssets": {"type": "integer"},
                    "locks": {"type": "integer"},
                    "approvers": {"type": "array", "items": {"type": "string"}}
                }
            }
        }
    })
}

fn answer(description: &str, schema: Value) -> Value {
    json!({"description": description, "content": {"application/json": {"schema": schema}}})
}

fn session_path() -> Value {
    let mut signed = me_schema();
    signed["properties"]["token"] = json!({"type": "string"});
    signed["properties"]["expiresAt"] = json!({"type": "integer"});
    signed["properties"]["idleMinutes"] = json!({"type": "integer"});
    json!({
        "post": {
            "tags": ["team"],
            "summary": "Sign in",
            "description": "Answers a session token. Every failure is HTTP 401 with the same words, whether the name exists or not; five in a row lock the name for 15 minutes.",
            "operationId": "sign_in",
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "object", "required": ["name", "password"],
                "properties": {"name": {"type": "string"}, "password": {"type": "string"}}}}}},
            "responses": {
                "200": answer("Signed in", envelope(signed)),
                "299": answer("The body is not a sign-in", envelope(json!({}))),
                "401": answer("Wrong name or password, a disabled account, or too many failures", envelope(json!({})))
            }
        },
        "delete": {
            "tags": ["team"],
            "summary": "Sign out",
            "operationId": "sign_out",
            "security": [{"bearer": []}],
            "responses": {
                "200": answer("Signed out", envelope(json!({}))),
                "401": answer("No session token", envelope(json!({})))
            }
        }
    })
}

fn events_path() -> Value {
    let param = |name: &str, kind: &str, about: &str| {
        json!({"name": name, "in": "query", "required": false, "description": about,
            "schema": {"type": kind}})
    };
    json!({
        "get": {
            "tags": ["team"],
            "summary": "Wait until the requests change (a long poll)",
            "description": "Answers at once when the requests' cursor differs from `after` (a request filed, decided or settled on any instance), else after `wait` seconds (at most 25) with the same cursor. A console then reads again what it shows.",
            "operationId": "events",
            "security": [{"bearer": []}],
            "parameters": [
                param("after", "string", "The cursor last answered; none answers at once"),
                param("wait", "integer", "Seconds to wait for a change (default 20, at most 25)")
            ],
            "responses": {
                "200": answer("The cursor now", envelope(json!({"type": "object",
                    "properties": {"cursor": {"type": "string"}}}))),
                "401": answer("No session, or one that ended", envelope(json!({})))
            }
        }
    })
}

fn me_path() -> Value {
    json!({
        "get": {
            "tags": ["team"],
            "summary": "Who is signed in, and what they may do",
            "operationId": "me",
            "security": [{"bearer": []}],
            "responses": {
                "200": answer("The person and their permissions", envelope(me_schema())),
                "401": answer("No session, or one that ended", envelope(json!({})))
            }
        }
    })
}

fn audit_path() -> Value {
    let text = json!({"type": ["string", "null"]});
    let entry = json!({
        "type": "object",
        "required": ["seq", "at", "person", "operation", "outcome"],
        "properties": {
            "seq": {"type": "integer"}, "at": {"type": "integer"},
            "person": {"type": "string"}, "role": {"type": "string"}, "branch": text,
            "operation": {"type": "string"}, "callId": text,
            "outcome": {"type": "string", "description":
                "done, refused, denied, invalid, not_sent, unknown or failed"},
            "code": text, "message": text, "request": text, "answer": text
        }
    });
    let param = |name: &str, schema: Value, description: &str| {
        json!({"name": name, "in": "query", "required": false, "schema": schema,
               "description": description})
    };
    json!({
        "get": {
            "tags": ["team"],
            "summary": "The audit log's latest entries the person may see, newest first",
            "description": "One's own entries; anyone's with the permission users. Hashes aside: `team audit verify` proves the chain.",
            "operationId": "audit",
            "security": [{"bearer": []}],
            "parameters": [
                param("person", json!({"type": "string"}), "One person's entries (another's needs users)"),
                param("before", json!({"type": "integer"}), "Entries before this seq"),
                param("limit", json!({"type": "integer", "minimum": 1, "maximum": 1000}), "At most this many (100)")
            ],
            "responses": {
                "200": answer("The entries", envelope(json!({"type": "array", "items": entry}))),
                "299": answer("A number that is not one", envelope(json!({}))),
                "401": answer("No session, or one that ended", envelope(json!({}))),
                "403": answer("Another person's record without the permission users", envelope(json!({})))
            }
        }
    })
}

/// `/team/v1/releases…`: the console's releases, signed with the company's key (issue 58).
fn release_paths() -> Vec<(&'static str, Value)> {
    let absent = |what: &str| answer(what, envelope(json!({})));
    let key = json!({
        "type": "object",
        "required": ["publicKey", "keyId", "fingerprint"],
        "properties": {
            "publicKey": {"type": "string", "description": "minisign's base64 line"},
            "keyId": {"type": "string"}, "fingerprint": {"type": "string"}
        }
    });
    let release = json!({
        "type": "object",
        "required": ["version", "target", "fileName", "size", "sha256", "publishedAt", "signature"],
        "properties": {
            "version": {"type": "string"}, "target": target_schema(),
            "fileName": {"type": "string"}, "size": {"type": "integer"},
            "sha256": {"type": "string"}, "notes": {"type": "string"},
            "publishedAt": {"type": "integer"}, "required": {"type": "boolean"},
            "withdrawn": {"type": "boolean"},
            "signature": {"type": "string", "description": "The .minisig file's text"}
        }
    });
    let get = |id: &str, summary: &str, params: Value, ok: Value| {
        json!({"get": {
            "tags": ["releases"], "summary": summary, "operationId": id,
            "security": [{"bearer": []}], "parameters": params,
            "responses": {
                "200": ok,
                "401": absent("No session, or one that ended"),
                "404": absent("None set, or none offered (cause no_release)")
            }
        }})
    };
    let path_param = |name: &str, schema: Value| json!({"name": name, "in": "path", "required": true, "schema": schema});
    vec![
        (
            wire::release::KEY,
            get(
                "releaseKey",
                "The key the team's releases are signed with",
                json!([]),
                answer("The key", envelope(key)),
            ),
        ),
        (
            wire::release::LATEST,
            get(
                "latestRelease",
                "The newest release offered for a target",
                json!([{"name": "target", "in": "query", "required": true, "schema": target_schema()}]),
                answer("The release", envelope(release)),
            ),
        ),
        (
            wire::release::FILE,
            get(
                "releaseFile",
                "A release's file, as published (byte ranges answered with 206)",
                json!([
                    path_param("target", target_schema()),
                    path_param("version", json!({"type": "string"}))
                ]),
                json!({"description": "The file", "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}),
            ),
        ),
    ]
}

fn target_schema() -> Value {
    json!({"type": "string", "enum": ["windows-x86_64", "linux-x86_64"]})
}

/// `/team/v1/requests…`: held calls, read and decided.
fn requests_paths() -> [(&'static str, Value); 4] {
    use wire::approval::paths as p;
    let approve = decide_path(
        "approve",
        json!({"type": "object", "required": ["bodyHash"], "properties": {"bodyHash": {"type": "string"}}}),
        "Approve a request, then send it once",
        "Needs the permission approve; never one's own. The answer is the request after \
         sending: done, refused (the platform's code and message), unknown (sent, no answer: \
         never sent again) or not_sent (may be approved again).",
    );
    let reject = decide_path(
        "reject",
        json!({"type": "object", "required": ["reason"], "properties": {"reason": {"type": "string"}}}),
        "Reject a request, saying why",
        "Needs the permission approve; never one's own; the reason is not empty.",
    );
    [
        (p::REQUESTS, list_path()),
        (p::REQUEST, show_path()),
        (p::APPROVE, approve),
        (p::REJECT, reject),
    ]
}

fn request_schema() -> Value {
    let text = json!({"type": ["string", "null"]});
    json!({
        "type": "object",
        "required": ["id", "requester", "operation", "body", "bodyHash", "summary", "state", "createdAt"],
        "properties": {
            "id": {"type": "integer"}, "requester": {"type": "string"}, "role": {"type": "string"},
            "branch": text, "operation": {"type": "string"}, "body": {},
            "bodyHash": {"type": "string", "description": "SHA-256 (hex) of the body as filed"},
            "preview": {"description": "What a delete removes, by the platform's removal rule"},
            "summary": {"type": "string"},
            "state": {"type": "string", "enum": ["pending", "approved", "rejected", "done", "refused", "unknown", "not_sent"]},
            "createdAt": {"type": "integer"}, "decidedBy": text, "decidedAt": {"type": ["integer", "null"]},
            "reason": text, "callId": text, "code": text, "message": text, "answer": {},
            "endedAt": {"type": ["integer", "null"]}
        }
    })
}

fn id_parameter() -> Value {
    json!({"name": "id", "in": "path", "required": true, "schema": {"type": "string"},
           "description": "R-17, or 17"})
}

/// The answers every path of one request may give, with `more`.
fn one_request_answers(more: Value) -> Value {
    let mut all = json!({
        "401": answer("No session, or one that ended", envelope(json!({}))),
        "404": answer("No such request (cause no_request)", envelope(json!({})))
    });
    if let (Some(all), Some(more)) = (all.as_object_mut(), more.as_object()) {
        all.extend(more.clone());
    }
    all
}

fn list_path() -> Value {
    let query = |name: &str, schema: Value, description: &str| {
        json!({"name": name, "in": "query", "required": false, "schema": schema,
               "description": description})
    };
    let list = json!({"type": "array", "items": request_schema()});
    json!({"get": {
        "tags": ["requests"], "summary": "Requests, newest first",
        "description": "Everyone's with the permission approve, else one's own.",
        "operationId": "requests", "security": [{"bearer": []}],
        "parameters": [
            query("mine", json!({"type": "boolean"}), "Only one's own"),
            query("state", json!({"type": "string"}), "Only those in this state"),
            query("limit", json!({"type": "integer", "minimum": 1, "maximum": 1000}), "At most this many (100)")
        ],
        "responses": {"200": answer("The requests", envelope(list)),
                      "401": answer("No session, or one that ended", envelope(json!({})))}
    }})
}

fn show_path() -> Value {
    let found = answer("The request", envelope(request_schema()));
    json!({"get": {
        "tags": ["requests"], "summary": "One request",
        "description": "One's own, or any with the permission approve.",
        "operationId": "request", "security": [{"bearer": []}], "parameters": [id_parameter()],
        "responses": one_request_answers(json!({"200": found}))
    }})
}

fn decide_path(verb: &str, body: Value, summary: &str, description: &str) -> Value {
    let decided = answer("The request as it now stands", envelope(request_schema()));
    let responses = one_request_answers(json!({
        "200": decided,
        "403": answer("One's own request (cause own_request), or no permission approve", envelope(json!({}))),
        "409": answer("Decided already (decided), changed since it was seen (request_changed), requester disabled (requester_disabled)", envelope(json!({})))
    }));
    json!({"post": {
        "tags": ["requests"], "summary": summary, "description": description,
        "operationId": verb, "security": [{"bearer": []}], "parameters": [id_parameter()],
        "requestBody": {"required": true, "content": {"application/json": {"schema": body}}},
        "responses": responses
    }})
}
