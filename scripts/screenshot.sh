#!/usr/bin/env bash
# Screenshots of the console: the release binary under Xvfb with a fresh HOME, driven with
# xdotool like a user would, into docs/screenshots/. Each picture is taken after real calls to
# the built-in Sandbox.
# Needs: apt-get install xvfb imagemagick xdotool
# Usage: scripts/screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=$PWD/target/release/license-desk
out=docs/screenshots
mkdir -p "$out"
home=$(mktemp -d)
display=:$((90 + RANDOM % 9))
Xvfb "$display" -noreset -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$home"' EXIT
# Wait for the display to answer (-noreset: the probe's disconnect must not reset the server).
for i in $(seq 200); do
  DISPLAY=$display xdotool getdisplaygeometry >/dev/null 2>&1 && break
  [ "$i" -lt 200 ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
  sleep 0.05
done
export HOME=$home LICENSE_DESK_KEYRING=memory DISPLAY=$display

shot() {
  xdotool mousemove 1000 100 # no hover highlight in the picture
  sleep 0.5
  import -window root -crop 1100x720+0+0 +repage "$out/$1.png"
}
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-0.4}"; }
# Types into the (empty) field at (x, y), a character at a time: xdotool remaps a key for each
# Chinese character, and typed fast some are lost.
type_at() {
  click "$1" "$2" 0.2
  local text=$3 i
  for ((i = 0; i < ${#text}; i++)); do
    xdotool type "${text:i:1}"
    sleep 0.05
  done
}
# Replaces what the field at (x, y) holds (ASCII only: xdotool drops the first CJK character
# typed after a key combination).
replace_at() {
  click "$1" "$2" 0.2
  xdotool key ctrl+a
  xdotool type --delay 30 "$3"
}
start() {
  LANG=$1 "$bin" &
  app=$!
  sleep 4
  xdotool windowfocus "$(xdotool search --name 'License Desk' | head -1)"
}
stop() {
  kill "$app"
  wait "$app" 2>/dev/null || true
  # The next run starts from the defaults again (the language follows LANG), on the Sandbox.
  rm -f "$home/.local/share/license-desk/"*.ron "$home/.config/license-desk/profiles.json"
}

# English: a query, a refused create (its toast), History, Settings with a production profile.
start en_US.UTF-8
type_at 490 131 SHOP
type_at 490 157 S-0001
click 501 184                  # All customers
click 204 213 1.5              # Query
shot customers-en
click 467 76                   # Create enterprise
type_at 490 131 CRM-DEMO
type_at 490 157 北京示例科技有限公司
click 205 239 1.5              # Create: the demo enterprise exists already
shot toast-en
click 1050 548                 # Dismiss
click 40 159 1                 # History
click 272 154                  # the newest call
shot history-en
click 40 182                   # Settings
click 218 228                  # Add profile
type_at 490 277 北京生产平台
type_at 490 303 https://license.example.com
type_at 490 355 ak_7Hq2Lm9Xc4Vb8Nd1
type_at 490 381 not-a-real-secret
replace_at 490 407 zhang.san@example.com
click 346 434                  # Production platform
shot profile-form-en
click 198 463 1                # Save
click 230 223                  # select it
click 318 252 1                # Use this profile
shot settings-en
stop

# Chinese: bind a shop's customer to the demo enterprise, then list the enterprise's customers.
start zh_CN.UTF-8
click 287 76                   # 绑定客户
type_at 490 131 SHOP
type_at 490 157 S-2001
type_at 490 183 上海徐汇门店
type_at 490 209 上海分公司
type_at 490 235 北京示例科技有限公司
type_at 490 261 13800138000
click 198 291 1.5              # 绑定
shot bind-zh
click 238 387 1.5              # 查看该企业的客户
shot customers-zh
stop
# English: the order composer, from the template to a submitted batch.
start en_US.UTF-8
click 36 67 1                  # Orders
click 380 675                  # the problem: no asset numbers yet
click 738 162 1                # Get new asset numbers
click 686 139                  # Add package
type_at 850 171 PKG-1
type_at 850 197 专业版套餐
click 300 179                  # the asset
shot orders-en
click 232 672                  # Submit batch
shot orders-confirm-en
click 394 391 1.5              # Send
shot orders-submitted-en
stop

# English: the asset grid (two locks disabled with one confirmation), a claim, asset numbers.
start en_US.UTF-8
click 35 90                    # Assets
type_at 372 76 EG0000000001
click 751 76 1.5               # List assets
click 335 178                  # 8900000001
xdotool keydown ctrl mousemove 335 203 click 1 keyup ctrl   # and 8900000002
sleep 0.3
click 575 122                  # Disable selected
shot assets-confirm-en
click 465 409 1.2              # Disable 2 lock(s)
shot assets-en
click 42 113                   # Activities
type_at 450 99 8900000001
type_at 450 125 spring-2026
type_at 450 151 license-desk
type_at 450 177 北京分公司
click 202 207 1.2              # Claim
shot activities-en
click 58 136                   # Asset numbers
click 370 94 1.2               # Get new asset numbers
shot asset-numbers-en
stop
# Chinese: a lock disabled from the grid (the confirmation's plural-free wording), History.
start zh_CN.UTF-8
click 35 90                    # 资产
type_at 340 76 EG0000000001
click 689 76 1.5               # 列出资产
click 335 178                  # 8900000001
click 567 122                  # 禁用所选
shot assets-confirm-zh
click 467 409 1.2              # 禁用 1 把锁
click 42 159 1.2               # 历史记录
shot history-zh
stop
ls -l "$out"
