#!/usr/bin/env bash
# Fills the Sandbox of the current HOME with what Renewals shows: four customers of four
# branches bound to enterprises of their own, and 120 assets of three license types whose one
# product ends somewhere in the next 14 months. For screenshots and trying the screen.
# Usage: scripts/renewals-demo.sh   (LICENSE_DESK_BIN: the binary; default the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LICENSE_DESK_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now=$(($(date +%s) * 1000))
day=86400000
branches=(北京分公司 上海分公司 广州分公司 成都分公司)
names=(北京华信科技有限公司 上海浦江软件有限公司 广州南方数据有限公司 成都天府智造有限公司)
types=(normal_recover_usbkey cloud_account softkey)
customers='[]'
orders='[]'
for i in 0 1 2 3; do
  printf '{"channelCode":"SHOP","channelCustomerId":"R-%d","customerName":"%s","branchName":"%s","enterpriseName":"%s"}' \
    "$i" "${names[$i]}" "${branches[$i]}" "${names[$i]}" >"$work/bind.json"
  enterprise=$("$bin" call bind --body "$work/bind.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["enterpriseGlobalId"])')
  customers=$(python3 -c 'import json,sys; c=json.loads(sys.argv[1]); c.append({"enterpriseGlobalId":sys.argv[2],"enterpriseName":sys.argv[3],"customerName":sys.argv[3],"branchName":sys.argv[4]}); print(json.dumps(c, ensure_ascii=False))' \
    "$customers" "$enterprise" "${names[$i]}" "${branches[$i]}")
  for t in 0 1 2; do
    orders=$(python3 - "$orders" "$i" "$t" "${types[$t]}" "$now" "$day" <<'EOF'
import json, sys
orders, i, t, kind, now, day = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
assets = []
for k in range(10):
    n = i * 30 + t * 10 + k
    end = now + ((n * 37 + i * 11) % 420 + 2) * day
    assets.append({"assetNos": [f"86{n:08d}"], "products": [
        {"productUri": f"gms:{1001 + t}", "productName": ["云计价", "云协同", "算量"][t],
         "limitStartDate": end - 365 * day, "limitEndDate": end}]})
orders.append({"sequence": len(orders) + 1, "channelCustomerId": f"R-{i}",
               "licenseType": kind, "orderType": "new_buy", "assets": assets})
print(json.dumps(orders, ensure_ascii=False))
EOF
)
  done
done
printf '{"channelCode":"SHOP","channelOrderId":"RENEWALS-DEMO-%s","syncMode":"sync","orderList":%s}' \
  "$now" "$orders" >"$work/batch.json"
"$bin" call order --body "$work/batch.json" >/dev/null
printf '{"products":[],"packages":[],"customers":%s}' "$customers" >"$work/directory.json"
"$bin" catalog import --profile Sandbox "$work/directory.json" >/dev/null
echo "renewals demo: 4 enterprises, 120 assets on the Sandbox of $HOME"
