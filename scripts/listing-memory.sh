#!/usr/bin/env bash
# Memory of `license-desk serve` around asset listings (issue 19, "Listings stream"): its RSS
# idle, at its peak during N concurrent listings of one enterprise of ASSETS assets (the kernel's
# high-water mark, reset just before them), and once they are answered; two rounds, so that
# what the first keeps and the second adds show apart.
# Usage: scripts/listing-memory.sh [BIN] [ASSETS=100000] [LISTINGS=6]
#   BIN defaults to the release binary ($CARGO_TARGET_DIR or target, /release/license-desk);
#   give another build's binary to compare. Needs curl and jq; Linux (/proc).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-${CARGO_TARGET_DIR:-target}/release/license-desk}"
ASSETS="${2:-100000}"
LISTINGS="${3:-6}"
PER_ORDER=10
ORDERS_PER_BATCH=1000

DATA=$(mktemp -d)
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$DATA"
}
trap cleanup EXIT

rss() { awk -v k="$2:" '$1 == k { printf "%.0f MiB", $2 / 1024 }' "/proc/$1/status"; }

"$BIN" serve --data "$DATA/platform" --listen 127.0.0.1:0 >"$DATA/out" 2>"$DATA/log" &
SERVER=$!
until grep -q '^listening on ' "$DATA/out" 2>/dev/null; do
  kill -0 "$SERVER" || { cat "$DATA/log"; exit 1; }
  sleep 0.1
done
BASE=$(sed -n 's/^listening on //p' "$DATA/out")
CREDS=$("$BIN" app create --data "$DATA/platform" --name memory --scopes auth_order)
KEY=$(jq -r .appKey <<<"$CREDS")
SECRET=$(jq -r .appSecret <<<"$CREDS")
TOKEN=$(curl -sf -u "$KEY:$SECRET" -d grant_type=client_credentials "$BASE/v3/api/oauth2/token" | jq -r .access_token)
call() { # METHOD PATH [BODY-FILE]: the answer's body, with a fresh nonce
  local sep='?'
  [[ $2 == *\?* ]] && sep='&'
  curl -sf -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    ${3:+--data-binary @"$3"} "$BASE$2${sep}g_nonce=mem-$(date +%s%N)-$RANDOM"
}
echo '{"crmCustomerId":"CRM-MEM","customerName":"内存测试企业"}' >"$DATA/create.json"
EGID=$(call POST /order/api/order/v1/enterprise/user/create "$DATA/create.json" | jq -r .data.enterpriseGlobalId)

# The enterprise's assets: batches of 1000 orders of 10 re-issuable locks, one product each
# (as `cargo bench --bench load -- 4` sets it up).
per_batch=$((ORDERS_PER_BATCH * PER_ORDER))
for ((b = 0; b * per_batch < ASSETS; b++)); do
  jq -n --argjson b "$b" --argjson orders "$ORDERS_PER_BATCH" --argjson per "$PER_ORDER" \
    --argjson total "$ASSETS" '
    {channelCode: "CRM", channelOrderId: "MEM-\($b)", syncMode: "sync",
     orderList: [range(0; $orders) as $o
       | ($b * $orders * $per + $o * $per) as $first
       | select($first < $total)
       | {sequence: ($o + 1), channelCustomerId: "CRM-MEM", customerName: "内存测试客户",
          licenseType: "normal_recover_usbkey", orderType: "new_buy",
          assets: [{assetNos: [range($first; [$first + $per, $total] | min) | "4\(. + 1000000000 | tostring | .[1:])"],
                    products: [{productUri: "gms:1001", productName: "产品 gms:1001", limitConcurrent: 1}]}]}]}' \
    >"$DATA/batch.json"
  call POST "/order/api/order/v1/licenseOrder/batchOrder?appKey=$KEY" "$DATA/batch.json" |
    jq -e '.code == 0' >/dev/null
done

LIST="/order/api/order/v1/asset/$EGID/list"
listed=$(call GET "$LIST" | jq '.data | length')
[ "$listed" = "$ASSETS" ] || { echo "the enterprise lists $listed assets, not $ASSETS" >&2; exit 1; }
sleep 1
echo "binary: $BIN"
echo "idle, $ASSETS assets stored, one listing done: $(rss "$SERVER" VmRSS)"

# Two rounds: the second shows whether what the first kept grows.
for round in 1 2; do
  # The high-water mark from here on (5: reset the peak RSS).
  echo 5 >"/proc/$SERVER/clear_refs"
  pids=()
  for ((i = 0; i < LISTINGS; i++)); do
    call GET "$LIST" | wc -c >"$DATA/listing-$i" &
    pids+=($!)
  done
  wait "${pids[@]}"
  sizes=$(sort -u "$DATA"/listing-* | tr '\n' ' ')
  echo "round $round: peak during $LISTINGS concurrent listings (bytes each: $sizes): $(rss "$SERVER" VmHWM)"
  sleep 2
  echo "round $round: after them (2 s later): $(rss "$SERVER" VmRSS)"
done
