#!/usr/bin/env bash
# The command line beside newman, for one authenticated call: a token, then operation 9
# (`shellnums`, size 3), against the same `license-desk serve` on loopback. Each tool runs RUNS
# times as a fresh process (as a script or a CI job runs it); the median wall time and the median
# peak resident memory (GNU time's %M) are printed for both, in one run.
#
# license-desk gets its secret as a script would, from LICENSE_DESK_SECRET_<PROFILE>, on a home
# without a keyring, so it asks for a token each run, like newman.
# Needs: npm (newman is installed into a temporary directory), python3, /usr/bin/time.
# Usage: scripts/cli-vs-newman.sh            RUNS=50 scripts/cli-vs-newman.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
bin=${LICENSE_DESK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk
fi
work=$(mktemp -d /tmp/ld-newman.XXXX)
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

echo "installing newman into $work …" >&2
npm install --silent --prefix "$work/npm" newman@6 >/dev/null 2>&1
newman=$work/npm/node_modules/.bin/newman

app=$("$bin" app create --data "$work/platform" --name newman-bench --scopes auth_order)
key=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["appKey"])' <<<"$app")
secret=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["appSecret"])' <<<"$app")
"$bin" serve --data "$work/platform" --listen 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 200); do
  grep -q "listening on" "$work/serve.out" 2>/dev/null && break
  sleep 0.05
done
base=$(sed -n 's/^listening on //p' "$work/serve.out")
[ -n "$base" ] || { echo "serve did not start" >&2; cat "$work/serve.err" >&2; exit 1; }

# license-desk: a remote profile without a stored secret; each run gives it in the environment.
export HOME=$work/home LICENSE_DESK_KEYRING=memory
"$bin" profile add bench --base-url "$base" --app-key "$key" --operator bench --no-secret >/dev/null
cli=("$bin" call --profile bench shellnums 3)

# newman: the same two requests (the token by client credentials, then the call with a fresh nonce).
python3 - "$work/collection.json" <<'EOF'
import json, sys
token = {"name": "token", "event": [{"listen": "test", "script": {"exec": [
    "pm.test('a token', () => pm.expect(pm.response.code).to.eql(200));",
    "pm.collectionVariables.set('token', pm.response.json().access_token);"]}}],
  "request": {"method": "POST", "url": "{{base}}/v3/api/oauth2/token",
    "auth": {"type": "basic", "basic": [{"key": "username", "value": "{{key}}"},
                                        {"key": "password", "value": "{{secret}}"}]},
    "body": {"mode": "urlencoded", "urlencoded": [{"key": "grant_type", "value": "client_credentials"}]}}}
# --bail stops the run (and this script) unless both requests answer as they should.
call = {"name": "shellnums", "event": [{"listen": "test", "script": {"exec": [
    "pm.test('three numbers', () => pm.expect(pm.response.json().data.length).to.eql(3));"]}}],
  "request": {"method": "POST",
    "url": "{{base}}/order/api/order/v1/shellnums?g_nonce={{$guid}}",
    "header": [{"key": "Authorization", "value": "Bearer {{token}}"},
               {"key": "Content-Type", "value": "application/json"}],
    "body": {"mode": "raw", "raw": "{\"size\": 3}"}}}
json.dump({"info": {"name": "bench", "schema":
    "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
    "item": [token, call]}, open(sys.argv[1], "w"))
EOF
nm=("$newman" run "$work/collection.json" --env-var "base=$base" --env-var "key=$key"
  --env-var "secret=$secret" --bail --silent)

# Each tool once before measuring (disk cache), then RUNS measured runs, each a line
# "nanoseconds kilobytes" (the clock around GNU time, whose own %e counts in 10 ms steps).
measure() {
  local out=$work/$1.times start end
  shift
  "$@" >/dev/null
  : >"$out"
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null
    end=$(date +%s%N)
    echo "$((end - start)) $(tail -1 "$work/rss")" >>"$out"
  done
}
export LICENSE_DESK_SECRET_BENCH=$secret
measure cli "${cli[@]}"
measure nm "${nm[@]}"
python3 - "$work/cli.times" "$work/nm.times" "$runs" <<'EOF'
import statistics, sys
def med(path):
    rows = [l.split() for l in open(path) if l.strip() and l[0].isdigit()]
    return (statistics.median(int(r[0]) / 1e9 for r in rows),
            statistics.median(int(r[1]) for r in rows))
(ct, cm), (nt, nm) = med(sys.argv[1]), med(sys.argv[2])
print(f"one authenticated call (token + shellnums 3), median of {sys.argv[3]} runs each")
print(f"| tool | time | peak memory |\n|---|---|---|")
print(f"| license-desk call | {ct*1000:.0f} ms | {cm/1024:.0f} MB |")
print(f"| newman run | {nt*1000:.0f} ms | {nm/1024:.0f} MB |")
print(f"license-desk: {nt/ct:.1f}x faster, {nm/cm:.1f}x less memory")
EOF
