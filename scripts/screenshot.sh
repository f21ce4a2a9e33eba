#!/usr/bin/env bash
# Screenshots of the console: the release binary under Xvfb with a fresh HOME, driven with
# xdotool like a user would, into docs/screenshots/. Each picture is taken after real calls to
# the built-in Sandbox. Every screen in English (<screen>-en.png) and in Chinese (<screen>-zh.png).
# Needs: apt-get install xvfb imagemagick xdotool xclip
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
# Types into the (empty) field at (x, y). Text that is not ASCII is pasted through the clipboard:
# xdotool types a Chinese character by remapping a key, and the window loses some of them (even
# typed one at a time, slowly); a paste is what a user would do, and it is reliable.
type_at() {
  click "$1" "$2" 0.2
  if LC_ALL=C grep -q '[^ -~]' <<<"$3"; then
    printf %s "$3" | xclip -selection clipboard >/dev/null 2>&1
    sleep 0.1
    xdotool key ctrl+v
    sleep 0.3
  else
    xdotool type --delay 30 "$3"
  fi
}
# Replaces what the field at (x, y) holds (ASCII).
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
  # The next run starts from the defaults again (the language follows LANG, the composer opens
  # a new batch from the template), on the Sandbox; the Sandbox's data and History are kept.
  local data=$home/.local/share/license-desk
  rm -f "$data/"*.ron "$data/drafts.sqlite3"* "$home/.config/license-desk/profiles.json"
}

# 1. Customers, a refused call, History, Settings: English, then Chinese.
# English: bind a shop's customer to the demo enterprise, list the enterprise's customers, a
# refused create (its toast), the refused call in History, a production profile in Settings.
start en_US.UTF-8
click 350 76                   # Bind customer (its description takes two lines)
type_at 490 146 SHOP
type_at 490 172 S-1001
type_at 490 198 "Xuhui store"
type_at 490 224 "Shanghai branch"
type_at 490 250 北京示例科技有限公司
type_at 490 276 13800138001
click 198 306 1.5              # Bind
shot bind-en
click 282 420 1.5              # Show this enterprise's customers
shot customers-en
click 467 76                   # Create enterprise
type_at 490 131 CRM-DEMO
type_at 490 157 北京示例科技有限公司
click 205 239 1.5              # Create: the demo enterprise exists already
shot toast-en
click 1050 548                 # Dismiss
click 40 159 1                 # History
click 345 154                  # the newest call: its request and answer
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

# Chinese: the same walk.
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
click 238 405 1.5              # 查看该企业的客户
shot customers-zh
click 383 76                   # 创建企业主账号
type_at 490 131 CRM-DEMO
type_at 490 157 北京示例科技有限公司
click 199 239 1.5              # 创建: the demo enterprise exists already
shot toast-zh
click 1060 564                 # 关闭
click 42 160 1                 # 历史记录
click 345 154                  # the newest call
shot history-zh
click 29 183                   # 设置
click 212 228                  # 添加配置
type_at 490 278 北京生产平台
type_at 490 304 https://license.example.com
type_at 490 356 ak_7Hq2Lm9Xc4Vb8Nd1
type_at 490 382 not-a-real-secret
replace_at 490 408 zhang.san@example.com
click 346 435                  # 生产平台
shot profile-form-zh
click 198 463 1                # 保存
click 230 223                  # select it
click 294 252 1                # 使用此配置
shot settings-zh
stop

# 2. The order composer, from the template to a submitted batch: English, then Chinese.
start en_US.UTF-8
click 36 67 1                  # Orders
click 380 675                  # the problem: no asset numbers yet (selects the asset)
click 686 139                  # Add package
type_at 850 171 PKG-1
type_at 850 197 专业版套餐
click 282 179                  # the asset
click 738 162 1                # Get new asset numbers
shot orders-en
click 232 672                  # Submit batch
shot orders-confirm-en
click 401 391 1.5              # Send
shot orders-submitted-en
stop

start zh_CN.UTF-8
click 29 68 1                  # 订单
click 340 675                  # the problem: no asset numbers yet
click 662 139                  # 添加商品包
type_at 850 171 PKG-1
type_at 850 197 专业版套餐
click 280 179                  # the asset
click 680 162 1                # 申请新资产编号
shot orders-zh
click 232 672                  # 提交批量订单
shot orders-confirm-zh
click 416 391 1.5              # 提交
shot orders-submitted-zh
stop

# 3. The asset grid (two locks disabled with one confirmation), a claim, asset numbers:
# English (locks 8900000001 and 2), then Chinese (locks 3 and 4).
start en_US.UTF-8
click 35 90                    # Assets
type_at 372 76 EG0000000001
click 751 76 1.5               # List assets
click 335 178                  # 8900000001
xdotool keydown ctrl mousemove 335 203 click 1 keyup ctrl   # and 8900000002
sleep 0.3
click 575 122                  # Disable selected
shot assets-confirm-en
click 462 409 1.2              # Disable 2 locks
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

start zh_CN.UTF-8
click 29 90                    # 资产
type_at 340 76 EG0000000001
click 689 76 1.5               # 列出资产
click 335 228                  # 8900000003
xdotool keydown ctrl mousemove 335 253 click 1 keyup ctrl   # and 8900000004
sleep 0.3
click 567 122                  # 禁用所选
shot assets-confirm-zh
click 467 409 1.2              # 禁用 2 把锁
shot assets-zh
click 29 114                   # 活动
type_at 450 100 8900000002
type_at 450 126 spring-2026
type_at 450 152 license-desk
type_at 450 178 上海分公司
click 199 207 1.2              # 领取
shot activities-zh
click 42 137                   # 资产编号
click 313 94 1.2               # 申请新资产编号
shot asset-numbers-zh
stop
ls -l "$out"
