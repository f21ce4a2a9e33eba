#!/usr/bin/env bash
# Screenshots of a branch's day on a team profile (issue 55, docs/team.md): the release binary
# under Xvfb with a D-Bus session and a notification daemon (dunst), driven with xdotool. A
# real platform (`serve`) and team server, wang (administrator, approves) and lisi (branch
# staff of 上海), each with a console of their own (a HOME each). lisi files a delete on the
# command line: wang's console counts it beside Approvals, names it in a notice and the
# desktop shows a notification. wang approves it on the command line: lisi's console tells the
# decision, and lisi's record says what became of the request. Then a lock change above the
# team's threshold in wang's console: said beforehand, held afterwards. In English and
# Chinese, into docs/screenshots/day-*.
# Needs: apt-get install xvfb imagemagick xdotool dunst dbus
# Usage: scripts/screenshot-team-day.sh   (LICENSE_DESK_BIN: a release binary already built)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  exec dbus-run-session -- "$0" "$@"
fi
bin=${LICENSE_DESK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk
fi
out=docs/screenshots
mkdir -p "$out"
W=1100 H=720
staff_password='shanghai-branch-2026'
admin_password='head-office-admin-2026'
work=$(mktemp -d /tmp/ld-day.XXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

keys=$("$bin" app create --data "$work/platform" --name team --scopes auth_order,auth_activity)
app_key=$(sed -n 's/.*"appKey": *"\([^"]*\)".*/\1/p' <<<"$keys")
(umask 077; sed -n 's/.*"appSecret": *"\([^"]*\)".*/\1/p' <<<"$keys" >"$work/app-secret")
"$bin" serve --data "$work/platform" --listen 127.0.0.1:0 >"$work/platform.out" 2>/dev/null &
pids+=($!)
until grep -q '^listening on ' "$work/platform.out" 2>/dev/null; do sleep 0.1; done
platform=$(sed -n 's/^listening on //p' "$work/platform.out" | head -1)

printf '%s\n' "$admin_password" | "$bin" team init --data "$work/team" --admin wang >/dev/null
printf '%s\n' "$staff_password" | "$bin" team user add lisi --display-name 李四 --role staff \
  --branch SH01 --branch-name 上海 --data "$work/team" >/dev/null
# Every lock change waits for a second person: the Assets confirmation says so beforehand.
"$bin" team settings --data "$work/team" --locks 0 >/dev/null
"$bin" team serve --data "$work/team" --listen 127.0.0.1:0 --upstream-url "$platform" \
  --app-key "$app_key" --secret-file "$work/app-secret" >"$work/team.out" 2>/dev/null &
pids+=($!)
until grep -q '^listening on ' "$work/team.out" 2>/dev/null; do sleep 0.1; done
team=$(sed -n 's/^listening on //p' "$work/team.out" | head -1)
printf '%s' "$staff_password" >"$work/staff-password"
printf '%s' "$admin_password" >"$work/admin-password"

# A HOME per person; `profile add` signs in for that run only: each window asks the password.
home_of() { echo "$work/home-$1"; }
for who in lisi wang; do
  mkdir -p "$(home_of $who)"
done
HOME=$(home_of lisi) LICENSE_DESK_KEYRING=memory "$bin" profile add 上海分行 --team "$team" \
  --user lisi <"$work/staff-password" >/dev/null
HOME=$(home_of wang) LICENSE_DESK_KEYRING=memory "$bin" profile add 总部 --team "$team" \
  --user wang <"$work/admin-password" >/dev/null
as() { HOME=$(home_of "$1") LICENSE_DESK_KEYRING=memory "${@:2}"; }
as lisi "$bin" profile use 上海分行 >/dev/null
as wang "$bin" profile use 总部 >/dev/null

cat >"$work/bind.json" <<'JSON'
{"channelCode":"CRM","channelCustomerId":"CRM-88","customerName":"上海示例科技","enterpriseName":"上海示例科技有限公司","passwordMobile":"13800000088"}
JSON
order() {
  local kind=$1 id=$2 products='[]'
  [ "$kind" = new_buy ] && products='[{"productUri":"gms:1","productName":"计价软件"}]'
  printf '{"channelCode":"CRM","channelOrderId":"%s","syncMode":"sync","orderList":[{"sequence":1,"channelCustomerId":"CRM-88","licenseType":"normal_recover_usbkey","orderType":"%s","assets":[{"assetNos":["%s"],"products":%s}]}]}' \
    "$id" "$kind" "$3" "$products" >"$work/$id.json"
  echo "$work/$id.json"
}
as_wang=(--profile 总部 --secret-file "$work/admin-password")
as_lisi=(--profile 上海分行 --secret-file "$work/staff-password")
as wang "$bin" call "${as_wang[@]}" bind --body "$work/bind.json" >/dev/null
as wang "$bin" call "${as_wang[@]}" --yes order --body "$(order new_buy B-1 8000000001)" >/dev/null
as wang "$bin" call "${as_wang[@]}" --yes order --body "$(order new_buy B-2 8000000002)" >/dev/null

display=:$((80 + RANDOM % 9))
Xvfb "$display" -noreset -screen 0 "${W}x${H}x24" >/dev/null 2>&1 &
pids+=($!)
export DISPLAY=$display
for i in $(seq 200); do
  xdotool getdisplaygeometry >/dev/null 2>&1 && break
  [ "$i" -lt 200 ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
  sleep 0.05
done
# The desktop's notifications: dunst on this display and session bus, top right.
mkdir -p "$work/dunst"
cat >"$work/dunst/dunstrc" <<'RC'
[global]
    origin = top-right
    offset = 12x48
    width = 360
    font = Noto Sans CJK SC 10
    frame_width = 2
[urgency_normal]
    background = "#2b2f36"
    foreground = "#ffffff"
    frame_color = "#5b8def"
    timeout = 0
RC
dunst -config "$work/dunst/dunstrc" >/dev/null 2>&1 &
pids+=($!)

shot() {
  sleep 0.8
  import -window root -crop "${W}x${H}+0+0" +repage "$out/$1.png"
}
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-0.5}"; }

# `who`'s console in a language, signed in, its window sized; its window id in $win.
launch() {
  local who=$1 lang=$2 password=$3
  HOME=$(home_of "$who") LICENSE_DESK_KEYRING=memory LANG=$lang "$bin" &
  pids+=($!)
  eval "app_$who=$!"
  sleep 4
  win=$(xdotool search --pid "$(eval echo "\$app_$who")" | head -1)
  eval "win_$who=$win"
  xdotool windowsize "$win" "$W" "$H"
  sleep 1
  xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win"
  sleep 0.5
  xdotool type --delay 30 "$password"
  xdotool key Return
  sleep 3
}
front() {
  local win
  win=$(eval echo "\$win_$1")
  xdotool windowraise "$win"
  xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win"
  sleep 0.5
}
quit() {
  local pid
  pid=$(eval echo "\$app_$1")
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# One day in a language: the delete `delete_id` of asset `asset`, held as request `request`.
day() {
  local lang=$1 suffix=$2 nav_x=$3 delete_id=$4 asset=$5 request=$6 numbers_x=$7 disable_x=$8 send_x=$9
  launch lisi "$lang" "$staff_password"
  launch wang "$lang" "$admin_password"
  held=0
  as lisi "$bin" call "${as_lisi[@]}" --yes order \
    --body "$(order delete_asset "$delete_id" "$asset")" >/dev/null 2>&1 || held=$?
  [ "$held" = 6 ] || { echo "the delete was not held (exit $held)" >&2; exit 1; }
  sleep 3
  xdotool mousemove $((W - 3)) 400
  shot "day-arrival-$suffix"             # wang: the count, the notice, the desktop's notification
  dunstctl close-all 2>/dev/null || true
  as wang "$bin" request "${as_wang[@]}" approve "$request" --yes >/dev/null
  front lisi
  sleep 3
  xdotool mousemove $((W - 3)) 400
  shot "day-decided-$suffix"             # lisi: the decision over the screen
  click "$nav_x" 340 2                   # History: the team's record, the request's fate
  shot "day-record-$suffix"
  quit lisi
  front wang
  click "$nav_x" 212 1.5                 # Assets
  click "$numbers_x" 90 1                # Disable or enable by numbers…
  click 550 362 0.8                      # its numbers
  xdotool type --delay 80 "$asset"
  sleep 0.5
  click "$disable_x" 457 1.5             # Disable these: the confirmation
  shot "day-lock-beforehand-$suffix"     # said beforehand: it waits, who approves
  click "$send_x" 462 2                  # Send for approval
  xdotool mousemove $((W - 3)) 400
  shot "day-lock-held-$suffix"           # held: news, not a failure
  quit wang
}

day en_US.UTF-8 en 47 D-1 8000000001 R-1 909 400 393
day zh_CN.UTF-8 zh 29 D-2 8000000002 R-3 796 400 393
ls -l "$out"/day-*.png
