#!/usr/bin/env bash
# Screenshots of the console on a team server's profile (docs/team.md): the release binary
# under Xvfb with a fresh HOME and no keyring, driven with xdotool. A real platform (`serve`),
# a real team server in front of it with lisi (branch staff of 上海), and the profile added on
# the command line; the window then asks lisi's password (the session of `profile add` was
# kept for that run only), and shows the person and role, a disabled action with its reason,
# and History from the server's record; then wang's Approvals screen with lisi's delete held
# for him. In English and Chinese, into docs/screenshots/team-*.
# Needs: apt-get install xvfb imagemagick xdotool
# Usage: scripts/screenshot-team.sh   (LICENSE_DESK_BIN: a release binary already built)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LICENSE_DESK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk
fi
out=docs/screenshots
mkdir -p "$out"
W=1100 H=720
password='shanghai-branch-2026'
work=$(mktemp -d /tmp/ld-team.XXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

# The platform and its application for the team server.
keys=$("$bin" app create --data "$work/platform" --name team --scopes auth_order,auth_activity)
app_key=$(sed -n 's/.*"appKey": *"\([^"]*\)".*/\1/p' <<<"$keys")
(umask 077; sed -n 's/.*"appSecret": *"\([^"]*\)".*/\1/p' <<<"$keys" >"$work/app-secret")
"$bin" serve --data "$work/platform" --listen 127.0.0.1:0 >"$work/platform.out" 2>/dev/null &
pids+=($!)
until grep -q '^listening on ' "$work/platform.out" 2>/dev/null; do sleep 0.1; done
platform=$(sed -n 's/^listening on //p' "$work/platform.out" | head -1)

# The team server, its administrator and lisi.
printf '%s\n' "head-office-admin-2026" | "$bin" team init --data "$work/team" --admin wang >/dev/null
printf '%s\n' "$password" | "$bin" team user add lisi --display-name 李四 --role staff \
  --branch SH01 --branch-name 上海 --data "$work/team" >/dev/null
"$bin" team serve --data "$work/team" --listen 127.0.0.1:0 --upstream-url "$platform" \
  --app-key "$app_key" --secret-file "$work/app-secret" >"$work/team.out" 2>/dev/null &
pids+=($!)
until grep -q '^listening on ' "$work/team.out" 2>/dev/null; do sleep 0.1; done
team=$(sed -n 's/^listening on //p' "$work/team.out" | head -1)

export HOME=$work/home LICENSE_DESK_KEYRING=memory
printf '%s\n' "$password" | "$bin" profile add 上海分行 --team "$team" --user lisi >/dev/null
"$bin" profile use 上海分行

display=:$((80 + RANDOM % 9))
Xvfb "$display" -noreset -screen 0 "${W}x${H}x24" >/dev/null 2>&1 &
pids+=($!)
export DISPLAY=$display
for i in $(seq 200); do
  xdotool getdisplaygeometry >/dev/null 2>&1 && break
  [ "$i" -lt 200 ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
  sleep 0.05
done

shot() {
  sleep 0.6
  import -window root -crop "${W}x${H}+0+0" +repage "$out/$1.png"
}
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-0.5}"; }

# The console in a language, its window sized and focused; its pid in $app.
launch() {
  LANG=$1 "$bin" &
  app=$!
  sleep 4
  local win
  win=$(xdotool search --pid "$app" | head -1)
  xdotool windowsize "$win" "$W" "$H"
  sleep 1
  xdotool windowfocus "$win"
  sleep 0.5
}

# One walk in a language: the nav's x and the by-numbers button's place differ by language.
walk() {
  local lang=$1 suffix=$2 nav_x=$3 lock_x=$4 numbers_x=$5
  launch "$lang"
  shot "team-sign-in-$suffix"            # asked over the start page: no session on this PC
  xdotool type --delay 30 "$password"
  xdotool key Return
  sleep 1.5
  xdotool mousemove $((W - 3)) 300
  shot "team-start-$suffix"              # the top bar: 李四 · branch staff, Sign out
  click "$nav_x" 159                     # Assets
  xdotool mousemove "$lock_x" 76
  sleep 1.5
  shot "team-disabled-$suffix"           # Disable or enable by numbers: disabled, and why
  click "$nav_x" 205                     # Asset numbers
  click "$numbers_x" 94 1.5              # Get new asset numbers
  click "$nav_x" 251 1.5                 # History: the server's record
  click 170 155 1                        # the newest entry
  shot "team-history-$suffix"
  kill "$app"
  wait "$app" 2>/dev/null || true
  rm -f "$HOME/.local/share/license-desk/"*.ron
}

# A lock lisi's role does not allow, tried on the command line: refused, and on the record.
printf '%s' "$password" >"$work/password"
"$bin" call --profile 上海分行 --secret-file "$work/password" lock 8000000001 >/dev/null 2>&1 || true

walk en_US.UTF-8 en 47 857 330
walk zh_CN.UTF-8 zh 29 755 273

# Four eyes: wang buys an asset for a customer, lisi files its delete (kept as R-1, exit 6), and
# wang's Approvals screen shows it with what it removes.
admin_password='head-office-admin-2026'
printf '%s\n' "$admin_password" | "$bin" profile add 总部 --team "$team" --user wang >/dev/null
printf '%s' "$admin_password" >"$work/admin-password"
cat >"$work/bind.json" <<'JSON'
{"channelCode":"CRM","channelCustomerId":"CRM-88","customerName":"上海示例科技","enterpriseName":"上海示例科技有限公司","passwordMobile":"13800000088"}
JSON
order() {
  local kind=$1 id=$2 products='[]'
  [ "$kind" = new_buy ] && products='[{"productUri":"gms:1"}]'
  printf '{"channelCode":"CRM","channelOrderId":"%s","syncMode":"sync","orderList":[{"sequence":1,"channelCustomerId":"CRM-88","licenseType":"normal_recover_usbkey","orderType":"%s","assets":[{"assetNos":["8000000001"],"products":%s}]}]}' \
    "$id" "$kind" "$products" >"$work/$id.json"
  echo "$work/$id.json"
}
as_wang=(--profile 总部 --secret-file "$work/admin-password")
"$bin" call "${as_wang[@]}" bind --body "$work/bind.json" >/dev/null
"$bin" call "${as_wang[@]}" --yes order --body "$(order new_buy B-1)" >/dev/null
held=0
"$bin" call --profile 上海分行 --secret-file "$work/password" --yes order \
  --body "$(order delete_asset D-1)" >/dev/null 2>&1 || held=$?
[ "$held" = 6 ] || { echo "the delete was not held (exit $held)" >&2; exit 1; }
"$bin" profile use 总部 >/dev/null

approvals() {
  local lang=$1 suffix=$2 nav_x=$3
  launch "$lang"
  xdotool type --delay 30 "$admin_password"
  xdotool key Return
  sleep 1.5
  click "$nav_x" 274 1.5                 # Approvals
  click 150 152 1                        # R-1
  xdotool mousemove $((W - 3)) 300
  shot "team-approvals-$suffix"
  kill "$app"
  wait "$app" 2>/dev/null || true
}
approvals en_US.UTF-8 en 47
approvals zh_CN.UTF-8 zh 29
ls -l "$out"/team-*.png
