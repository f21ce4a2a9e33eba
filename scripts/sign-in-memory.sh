#!/usr/bin/env bash
# Memory of `license-desk team serve` under a flood of sign-ins (issue 52, finding 2): its RSS
# idle and its peak (the kernel's high-water mark) while N sign-ins of unknown names with wrong
# passwords arrive at once, each from its own loopback address so that no per-address limit
# holds them back: only the bound on password checks at once does.
# Usage: scripts/sign-in-memory.sh [BIN] [N=256]
#   BIN defaults to the release binary; give another build's binary to compare. Needs curl and
#   jq; Linux (/proc; 127.0.0.0/8 is all loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-${CARGO_TARGET_DIR:-target}/release/license-desk}"
N="${2:-256}"

DATA=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$DATA"
}
trap cleanup EXIT

rss() { awk -v k="$2:" '$1 == k { printf "%.0f MiB", $2 / 1024 }' "/proc/$1/status"; }

# starts "$@" in the background, its stdout in $DATA/$NAME.out; sets BASE to the URL it serves
# and PID to its process.
start() {
  local name=$1
  shift
  "$@" >"$DATA/$name.out" 2>"$DATA/$name.log" &
  PID=$!
  PIDS+=("$PID")
  until grep -q '^listening on ' "$DATA/$name.out" 2>/dev/null; do
    kill -0 "$PID" || { cat "$DATA/$name.log"; exit 1; }
    sleep 0.1
  done
  BASE=$(sed -n 's/^listening on //p' "$DATA/$name.out")
}

start platform "$BIN" serve --data "$DATA/platform" --listen 127.0.0.1:0
PLATFORM=$BASE
CREDS=$("$BIN" app create --data "$DATA/platform" --name memory --scopes auth_order)
jq -r .appSecret <<<"$CREDS" >"$DATA/secret"
chmod 600 "$DATA/secret"
echo "a long admin password" | "$BIN" team init --data "$DATA/team" --admin wang >/dev/null
start team "$BIN" team serve --data "$DATA/team" --listen 127.0.0.1:0 \
  --upstream-url "$PLATFORM" --app-key "$(jq -r .appKey <<<"$CREDS")" --secret-file "$DATA/secret"
TEAM=$BASE
SERVER=$PID
echo "idle: $(rss "$SERVER" VmRSS)"

echo 5 >"/proc/$SERVER/clear_refs" # resets VmHWM to the current RSS
for i in $(seq 1 "$N"); do
  a=$((i / 250)); b=$((i % 250 + 1))
  curl -s -o /dev/null -w '%{http_code}\n' --interface "127.1.$a.$b" \
    -H 'Content-Type: application/json' -d "{\"name\":\"ghost$i\",\"password\":\"guess $i\"}" \
    "$TEAM/team/v1/session" >>"$DATA/codes" &
done
wait_started=$(date +%s%N)
while [ "$(wc -l <"$DATA/codes" 2>/dev/null || echo 0)" -lt "$N" ]; do sleep 0.1; done
took=$(( ($(date +%s%N) - wait_started) / 1000000 ))
echo "peak during $N sign-ins at once: $(rss "$SERVER" VmHWM); after: $(rss "$SERVER" VmRSS); all answered in ${took} ms"
echo "answers: $(sort "$DATA/codes" | uniq -c | awk '{printf "%s×%s ", $2, $1}')"
