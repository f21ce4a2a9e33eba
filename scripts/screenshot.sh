#!/usr/bin/env bash
# Screenshots of the console: the release binary under Xvfb with a fresh HOME, driven with
# xdotool like a user would, into docs/screenshots/. Each picture is taken after real calls to
# the built-in Sandbox. Every screen in English (<screen>-en.png) and in Chinese (<screen>-zh.png),
# at the window's default size, 1100×720, and at 900×600 (<screen>-<lang>-900.png).
# Needs: apt-get install xvfb imagemagick xdotool xclip
# Usage: scripts/screenshot.sh [1100x720|900x600|all]   (all, the default: both sizes)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-all}
case $sizes in
  all) sizes="1100x720 900x600" ;;
  1100x720 | 900x600) ;;
  *) echo "usage: $0 [1100x720|900x600|all]" >&2; exit 2 ;;
esac
# LICENSE_DESK_BIN: a release binary already built (of this tree), instead of building one.
bin=${LICENSE_DESK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk
fi
out=docs/screenshots
mkdir -p "$out"
xvfb=
app=
home=
trap 'kill $app $xvfb 2>/dev/null || true; [ -z "$home" ] || rm -rf "$home"' EXIT

# The screen is the window's size, and the window fills it (no window manager: it sits at 0,0).
W=1100 H=720 suffix=
# Dialogs are centred: their buttons move by half the difference from 1100×720.
dx() { echo $(($1 + (W - 1100) / 2)); }
dy() { echo $(($1 + (H - 720) / 2)); }
# At 900×600 some rows wrap: what is below them moves down.
small() { [ "$W" -lt 1100 ]; }

shot() {
  xdotool mousemove $((W - 3)) 50 # no hover highlight in the picture
  sleep 0.5
  import -window root -crop "${W}x${H}+0+0" +repage "$out/$1$suffix.png"
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
  # By its process: the title is in the interface's language.
  local win
  win=$(xdotool search --pid "$app" | head -1)
  xdotool windowsize "$win" "$W" "$H"
  sleep 1
  xdotool windowfocus "$win"
  sleep 0.3
}
stop() {
  kill "$app"
  wait "$app" 2>/dev/null || true
  # The next run starts from the defaults again (the language follows LANG, the composer opens
  # a new batch from the template, a new user lands on Start), on the Sandbox; the Sandbox's data
  # and History are kept.
  local data=$home/.local/share/license-desk
  rm -f "$data/"*.ron "$data/drafts.sqlite3"* "$home/.config/license-desk/profiles.json"
}

# 1. Start, Customers, a refused call, History, Settings: English, then Chinese.
# English: the start page a new user lands on; bind a shop's customer to the demo enterprise,
# list the enterprise's customers, a refused create (its toast), the refused call in History, a
# production profile in Settings.
walk_customers_en() {
  start en_US.UTF-8
  shot start-en
  # At 900 Bind customer's description takes two lines.
  local s=0
  if small; then s=15; fi
  click 47 67                    # Customers
  click 310 76                   # Bind customer
  type_at 450 $((131 + s)) SHOP
  type_at 450 $((157 + s)) S-1001
  type_at 450 $((183 + s)) "Xuhui store"
  type_at 450 $((209 + s)) "Shanghai branch"
  type_at 450 $((235 + s)) 北京示例科技有限公司
  type_at 450 $((261 + s)) 13800138001
  click 158 $((291 + s)) 1.5     # Bind
  shot bind-en
  click 242 $((413 + s)) 1.5     # Show this enterprise's customers
  shot customers-en
  click 427 76                   # Create enterprise
  type_at 450 131 CRM-DEMO
  type_at 450 157 北京示例科技有限公司
  click 165 239 1.5              # Create: the demo enterprise exists already
  shot toast-en
  # Dismiss; at 900 the toast is narrower, so taller.
  if small; then click 850 305; else click $((W - 50)) $((H - 215)); fi
  click 37 251 1                 # History
  click 305 154                  # the newest call: its request and answer
  shot history-en
  click 40 274                   # Settings
  click 178 261                  # Add profile
  type_at 450 311 北京生产平台
  type_at 450 337 https://license.example.com
  type_at 450 389 ak_7Hq2Lm9Xc4Vb8Nd1
  type_at 450 415 not-a-real-secret
  replace_at 450 467 zhang.san@example.com
  click 306 493                  # Production platform
  shot profile-form-en
  click 158 648 1                # Save (the new profile is selected)
  click 278 285 1                # Use this profile
  shot settings-en
  stop
}

# Chinese: the same walk.
walk_customers_zh() {
  start zh_CN.UTF-8
  shot start-zh
  click 29 67                    # 客户
  click 247 76                   # 绑定客户
  type_at 450 131 SHOP
  type_at 450 157 S-2001
  type_at 450 183 上海徐汇门店
  type_at 450 209 上海分公司
  type_at 450 235 北京示例科技有限公司
  type_at 450 261 13800138000
  click 158 291 1.5              # 绑定
  shot bind-zh
  click 198 413 1.5              # 查看该企业的客户
  shot customers-zh
  click 343 76                   # 创建企业主账号
  type_at 450 131 CRM-DEMO
  type_at 450 157 北京示例科技有限公司
  click 159 239 1.5              # 创建: the demo enterprise exists already
  shot toast-zh
  if small; then click 860 336; else click $((W - 40)) $((H - 199)); fi # 关闭
  click 42 252 1                 # 历史记录
  click 305 154                  # the newest call
  shot history-zh
  click 29 275                   # 设置
  # At 900 the keyring warning takes two lines.
  local s=0
  if small; then s=15; fi
  click 172 $((246 + s))         # 添加配置
  type_at 450 $((296 + s)) 北京生产平台
  type_at 450 $((322 + s)) https://license.example.com
  type_at 450 $((374 + s)) ak_7Hq2Lm9Xc4Vb8Nd1
  type_at 450 $((400 + s)) not-a-real-secret
  replace_at 450 $((452 + s)) zhang.san@example.com
  click 306 $((478 + s))         # 生产环境
  shot profile-form-zh
  click 158 $((618 + s)) 1       # 保存 (the new profile is selected)
  click 254 $((270 + s)) 1       # 使用此配置
  shot settings-zh
  stop
}

# 2. The order composer, from the template to a submitted batch: English, then Chinese. A
# package is picked from the Sandbox's demo catalog by its pinyin initials (zjrm: 造价入门); the
# asset gets a Sandbox asset number and Valid until ticked (a year on: the typed date and its
# Calendar… button); then the batch is submitted and the Catalog shows what it knows.
walk_orders() {
  local lang=$1 nav add_package asset get_numbers
  if [ "$lang" = en ]; then
    nav=36 add_package=646 asset=242 get_numbers=698
    start en_US.UTF-8
  else
    nav=29 add_package=622 asset=240 get_numbers=640
    start zh_CN.UTF-8
  fi
  # The tree takes 40% of the central panel (360 px at most): at 900 the node's form is 58 px
  # further left. At 900 the draft's row wraps (*Delete draft* goes below), so all below it is
  # 23 px lower (t), and in English the node's buttons take two rows (s).
  local f=0 s=0 t=0
  if small; then
    f=-58 t=23
    if [ "$lang" = en ]; then s=23; fi
  fi
  click "$nav" 113 1              # Orders
  click 250 $((H - 45))          # the problem: no asset numbers yet (selects the asset)
  click $((add_package + f)) $((139 + t)) # Add package: the catalog's search
  xdotool type --delay 30 zjrm
  sleep 0.5
  shot "orders-pick-$lang"
  click "$(dx 450)" "$(dy 232)"  # 造价入门套餐, with its products
  click "$asset" $((179 + t))    # the asset
  click $((get_numbers + f)) $((162 + s + t)) 1.5 # Get new asset numbers
  click $((676 + f)) $((290 + s + t)) 0.6 # Valid until
  shot "orders-$lang"
  click 192 $((H - 48)) 0.8      # Submit batch
  shot "orders-confirm-$lang"
  if [ "$lang" = en ]; then
    click "$(dx 298)" "$(dy 486)" 1.5 # Send
  else
    click "$(dx 311)" "$(dy 486)" 1.5 # 提交
  fi
  shot "orders-submitted-$lang"
  click "$nav" 136 1             # Catalog: what the submitted batch taught it
  shot "catalog-$lang"
  stop
}

# 3. The asset grid (two locks disabled with one confirmation; a certificate selected too, left
# out), a claim, asset numbers: English (locks 8900000001 and 2), then Chinese (locks 3 and 4).
walk_assets_en() {
  start en_US.UTF-8
  # At 900 the toolbar takes two rows.
  local s=0
  if small; then s=23; fi
  click 35 159                   # Assets
  type_at 332 76 EG0000000001
  click 711 76 1.5               # List assets
  click 295 $((201 + s))         # 8900000001
  # and 8900000002, and the certificate 8900000007
  xdotool keydown ctrl mousemove 295 $((226 + s)) click 1 mousemove 295 $((351 + s)) click 1 keyup ctrl
  sleep 0.3
  click 535 $((145 + s)) 0.8     # Disable selected
  shot assets-confirm-en
  click "$(dx 369)" "$(dy 461)" 1.5 # Disable 2 locks
  shot assets-en
  click 42 182                   # Activities
  type_at 410 99 8900000001
  type_at 410 125 spring-2026
  type_at 410 151 license-desk
  type_at 410 177 北京分公司
  click 162 207 1.5              # Claim
  shot activities-en
  click 58 205                   # Asset numbers
  click 330 94 1.5               # Get new asset numbers
  shot asset-numbers-en
  stop
}

walk_assets_zh() {
  start zh_CN.UTF-8
  click 29 159                   # 资产
  type_at 300 76 EG0000000001
  click 649 76 1.5               # 列出资产
  click 295 251                  # 8900000003
  # and 8900000004, and the certificate 8900000007
  xdotool keydown ctrl mousemove 295 276 click 1 mousemove 295 351 click 1 keyup ctrl
  sleep 0.3
  click 527 145 0.8              # 禁用所选
  shot assets-confirm-zh
  click "$(dx 373)" "$(dy 461)" 1.5 # 禁用 2 把加密锁
  shot assets-zh
  click 29 182                   # 活动
  type_at 410 99 8900000002
  type_at 410 125 spring-2026
  type_at 410 151 license-desk
  type_at 410 177 上海分公司
  click 159 207 1.5              # 领取
  shot activities-zh
  click 42 205                   # 资产编号
  click 273 94 1.5               # 申请新资产编号
  shot asset-numbers-zh
  stop
}

for size in $sizes; do
  W=${size%x*} H=${size#*x}
  if [ "$W" = 1100 ]; then suffix=; else suffix=-$W; fi
  # A fresh HOME and display for each size: the same Sandbox data, the same pictures.
  home=$(mktemp -d /tmp/ld.XXXX)
  display=:$((90 + RANDOM % 9))
  Xvfb "$display" -noreset -screen 0 "${W}x${H}x24" >/dev/null 2>&1 &
  xvfb=$!
  # Wait for the display to answer (-noreset: the probe's disconnect must not reset the server).
  for i in $(seq 200); do
    DISPLAY=$display xdotool getdisplaygeometry >/dev/null 2>&1 && break
    [ "$i" -lt 200 ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
    sleep 0.05
  done
  export HOME=$home LICENSE_DESK_KEYRING=memory DISPLAY=$display
  walk_customers_en
  walk_customers_zh
  walk_orders en
  walk_orders zh
  walk_assets_en
  walk_assets_zh
  kill "$xvfb"
  wait "$xvfb" 2>/dev/null || true
  xvfb=
  rm -rf "$home"
  home=
done
ls -l "$out"
