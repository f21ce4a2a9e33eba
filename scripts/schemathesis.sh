#!/usr/bin/env bash
# schemathesis (an outside OpenAPI tester) against `license-desk serve` with the document the
# platform publishes: every operation gets generated and example requests, and each answer must
# be no 5xx, of a documented status, of the documented content type and the documented schema.
#
#   scripts/schemathesis.sh               bounded, as CI runs it (SCHEMATHESIS_EXAMPLES=50, about a minute)
#   SCHEMATHESIS_EXAMPLES=500 scripts/schemathesis.sh    the long version
#
# Uses the debug binary ($CARGO_TARGET_DIR or target/), building it when missing; installs
# python3 and its venv module with apt when missing (CI runs as root on Debian/Ubuntu), and
# schemathesis into a venv ($SCHEMATHESIS_VENV, default /tmp/st). Exit 0 only when every check
# passed.
set -euo pipefail
cd "$(dirname "$0")/.."

version=4.32.5
venv=${SCHEMATHESIS_VENV:-/tmp/st}
examples=${SCHEMATHESIS_EXAMPLES:-50}
bin=${CARGO_TARGET_DIR:-target}/debug/license-desk

if ! command -v python3 >/dev/null || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  echo "== apt-get install python3 python3-venv"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv >/dev/null
fi
if [ "$("$venv/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $version" ]; then
  echo "== pip install schemathesis==$version into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==$version"
fi
[ -x "$bin" ] || cargo build --locked --bin license-desk

work=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# One open activity, so that claims can also succeed (generated labels mostly name none).
now=$(($(date +%s) * 1000))
cat >"$work/activities.json" <<JSON
{"activities": [{"id": "A1", "label": "spring-2026", "name": "春季活动",
  "startTime": $((now - 86400000)), "endTime": $((now + 30 * 86400000)),
  "units": [{"id": "U1", "name": "单元", "maxClaimsPerIdentity": 1000,
             "products": [{"productUri": "gms:1001", "validDays": 365, "activateType": "0"}]}]}]}
JSON
app=$("$bin" app create --data "$work/data" --name schemathesis --scopes auth_order,auth_activity)
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
app_key=$(field "$app" appKey)
app_secret=$(field "$app" appSecret)

# Port 0: the platform picks a free port and says which on its one line of standard output.
: >"$work/serve.out"
RUST_LOG=warn "$bin" serve --data "$work/data" --listen 127.0.0.1:0 \
  --activities "$work/activities.json" >"$work/serve.out" 2>"$work/serve.err" &
server=$!
base=
for _ in $(seq 1 300); do
  base=$(sed -n 's/^listening on //p' "$work/serve.out")
  [ -n "$base" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { echo "serve did not start" >&2; exit 1; }
echo "== platform at $base"

token=$(python3 - "$base" "$app_key" "$app_secret" <<'PY'
import base64, json, sys, urllib.request
base, key, secret = sys.argv[1:]
basic = base64.b64encode(f"{key}:{secret}".encode()).decode()
req = urllib.request.Request(f"{base}/v3/api/oauth2/token", data=b"grant_type=client_credentials",
                             headers={"Authorization": f"Basic {basic}",
                                      "Content-Type": "application/x-www-form-urlencoded"})
print(json.load(urllib.request.urlopen(req))["access_token"])
PY
)

# The document's examples in a new user's order (create, update, bind, a batch order), so that
# the reads' examples (the customers of C-10001, the assets of EG0000000001) find data and their
# answers, not only refusals, are checked against the document.
python3 - "$base" "$app_key" "$token" <<'PY'
import json, sys, urllib.request, uuid
base, key, token = sys.argv[1:]
doc = json.load(urllib.request.urlopen(f"{base}/openapi.json"))
ids = {op["operationId"]: (path, op) for path, item in doc["paths"].items() for op in item.values()}
for name in ["create", "update", "bind", "batchOrder"]:
    path, op = ids[name]
    body = json.dumps(op["requestBody"]["content"]["application/json"]["example"]).encode()
    query = f"g_nonce={uuid.uuid4()}" + (f"&appKey={key}" if name == "batchOrder" else "")
    req = urllib.request.Request(f"{base}{path}?{query}", data=body, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    answer = json.load(urllib.request.urlopen(req))
    if answer.get("code") != 0:
        sys.exit(f"the example of {name} was refused: {answer}")
PY

echo "== schemathesis $version: at most $examples examples per operation"
# The bearer token, a fresh g_nonce per call and operation 5's appKey are set by the hooks
# (scripts/schemathesis_hooks.py). Only the checks the interface can meet: negative_data_rejection
# and the like expect a 4xx for invalid data, where the order group answers HTTP 299 (its
# business exception) and the activity group 200 with resultCode 1001, by design.
# Run from the temporary directory: schemathesis keeps a cache of past failures in its working
# directory and replays them, which would carry one run's state into the next.
hooks_dir=$PWD/scripts
cd "$work"
PYTHONPATH=$hooks_dir SCHEMATHESIS_HOOKS=schemathesis_hooks \
  LICENSE_DESK_APP_KEY="$app_key" LICENSE_DESK_APP_SECRET="$app_secret" LICENSE_DESK_TOKEN="$token" \
  "$venv/bin/schemathesis" run "$base/openapi.json" --url "$base" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "$examples" \
  --seed "${SCHEMATHESIS_SEED:-20261124}" \
  --workers 1 \
  --request-timeout 30 \
  --generation-database none \
  --no-color
