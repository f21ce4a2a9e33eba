#!/usr/bin/env bash
# Makes a platform data directory with a given release's binary, for the migration test
# (crates/platform/tests/platform/release_data.rs): an application, an enterprise and a bound customer, a sync
# and an async batch, a lock disabled, asset numbers, a claim on a once-only unit, and nonces
# spent by calls that write and by calls that only read. The directory is committed under
# tests/data/ so that every later build must read it.
#
#   scripts/make-release-fixture.sh BINARY OUT_DIR
#
# Needs curl and jq. The application's credentials go to OUT_DIR/app.json: a throwaway app of
# a test fixture, not a secret of anyone's.
set -euo pipefail
bin=$(realpath "$1")
out=$2
[ -e "$out" ] && { echo "$out exists" >&2; exit 1; }
mkdir -p "$out"
data=$(realpath "$out")

cat > "$data/activities.json" <<'EOF'
{"activities": [{"id": "A1", "label": "launch", "name": "上线活动",
  "startTime": 1735689600000, "endTime": 4102444800000,
  "units": [{"id": "U1", "name": "一次", "maxClaimsPerIdentity": 1, "stock": 1,
             "products": [{"productUri": "gms:9001", "validDays": 30, "activateType": "0"}]}]}]}
EOF

"$bin" app create --data "$data" --name fixture --scopes auth_order,auth_activity > "$data/app.json"
key=$(jq -r .appKey "$data/app.json")
secret=$(jq -r .appSecret "$data/app.json")

"$bin" serve --data "$data" --listen 127.0.0.1:0 --activities "$data/activities.json" \
  > "$data/serve.log" 2>&1 &
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
until base=$(grep -o 'http://127.0.0.1:[0-9]*' "$data/serve.log" | head -1) && [ -n "$base" ]; do
  sleep 0.2
done

: > "$data/nonces.txt"
token=$(curl -sf -u "$key:$secret" -d grant_type=client_credentials "$base/v3/api/oauth2/token" \
  | jq -r .access_token)
call() { # METHOD PATH [BODY]: prints the answer; every call spends a fresh, recorded nonce
  # Counted in the file: a call inside $(…) runs in a subshell.
  local nonce="fixture-$(($(wc -l < "$data/nonces.txt") + 1))"
  echo "$nonce" >> "$data/nonces.txt"
  local url="$base$2"
  case "$url" in *\?*) url="$url&g_nonce=$nonce" ;; *) url="$url?g_nonce=$nonce" ;; esac
  curl -sf -X "$1" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    ${3:+-d "$3"} "$url"
  echo
}

ok() { # the answer on stdin is a success; kept in answers.json
  tee -a "$data/answers.json" | jq -e '.code == 0 or .resultCode == "0000"' >/dev/null
}
o=/order/api/order/v1
gid=$(call POST $o/enterprise/user/create \
  '{"crmCustomerId":"CRM-1","customerName":"上海样例","branchName":"上海分公司","address":"浦东"}' \
  | jq -r .data.enterpriseGlobalId)
echo "$gid" > "$data/enterprise.txt"
call POST $o/enterprise/user/bind \
  "{\"channelCode\":\"CRM\",\"channelCustomerId\":\"CRM-1\",\"customerName\":\"上海样例\",\"branchName\":\"上海分公司\",\"enterpriseName\":\"上海样例\",\"passwordMobile\":\"13800138000\"}" | ok
order='{"sequence":1,"channelCustomerId":"CRM-1","customerName":"上海样例","licenseType":"normal_recover_usbkey","orderType":"new_buy","assets":[{"assetNos":["8000000001"],"products":[{"productUri":"gms:1001","productName":"产品","limitConcurrent":1}]}]}'
call POST "$o/licenseOrder/batchOrder?appKey=$key" \
  "{\"channelCode\":\"CRM\",\"channelOrderId\":\"SYNC-1\",\"syncMode\":\"sync\",\"orderList\":[$order]}" | ok
call POST "$o/licenseOrder/batchOrder?appKey=$key" \
  "{\"channelCode\":\"CRM\",\"channelOrderId\":\"ASYNC-1\",\"syncMode\":\"async\",\"orderList\":[${order/8000000001/8000000002}]}" | ok
call POST $o/shellnums '{"size":3}' > "$data/shellnums.json"
# Wait for the async batch: its asset is listed once it is applied.
until call GET "$o/asset/$gid/list" | jq -e '.data | length >= 2' >/dev/null; do sleep 0.2; done
call POST $o/asset/lock '{"assetNums":["8000000001"],"operatorIdentity":"fixture"}' | ok
call POST /activity/services/activity \
  '{"identity":"13900139000","activityLabel":"launch","source":"crm","branch":"上海分公司"}' | ok

kill -TERM $serve
wait $serve || true
trap - EXIT
rm -f "$data/serve.log" "$data/platform.lock"
ls -la "$data"
