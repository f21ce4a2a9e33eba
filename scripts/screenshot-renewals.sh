#!/usr/bin/env bash
# Screenshots of Renewals and of a customer's page: the release binary under Xvfb with a fresh
# HOME whose Sandbox holds the renewals demo (scripts/renewals-demo.sh), driven with xdotool:
# the directory read, then a bar of the chart clicked; then Ctrl+K, a customer found by its
# pinyin initials, Enter, and the page's timeline. In English and Chinese, at 1280×800 and
# 900×600, into docs/screenshots/renewals-<lang>[-900].png, renewals-month-<lang>.png,
# customer-search-<lang>.png, customer-page-<lang>[-900].png and
# customer-timeline-<lang>[-900].png.
# Needs: apt-get install xvfb imagemagick xdotool
# Usage: scripts/screenshot-renewals.sh   (LICENSE_DESK_BIN: a release binary already built)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LICENSE_DESK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk
fi
out=${SCREENSHOTS_OUT:-docs/screenshots}
mkdir -p "$out"
work=$(mktemp -d)
xvfb= app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
export HOME=$work/home LICENSE_DESK_KEYRING=memory LICENSE_DESK_BIN=$bin
mkdir -p "$HOME"
scripts/renewals-demo.sh

click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-0.6}"; }
shot() {
  xdotool mousemove $((W - 3)) 50 # no hover highlight in the picture
  sleep 0.5
  import -window root -crop "${W}x${H}+0+0" +repage "$out/$1.png"
}

for size in 1280x800 900x600; do
  W=${size%x*} H=${size#*x}
  if [ "$W" = 1280 ]; then suffix= bar_foot=315; else suffix=-$W; fi
  display=:$((80 + RANDOM % 9))
  Xvfb "$display" -noreset -screen 0 "${W}x${H}x24" >/dev/null 2>&1 &
  xvfb=$!
  for i in $(seq 200); do
    DISPLAY=$display xdotool getdisplaygeometry >/dev/null 2>&1 && break
    [ "$i" -lt 200 ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
    sleep 0.05
  done
  export DISPLAY=$display
  for lang in en zh; do
    if [ "$lang" = en ]; then locale=en_US.UTF-8; else locale=zh_CN.UTF-8; fi
    LANG=$locale "$bin" >/dev/null 2>&1 &
    app=$!
    for i in $(seq 100); do
      win=$(xdotool search --pid "$app" 2>/dev/null | head -1) && [ -n "$win" ] && break
      sleep 0.1
    done
    xdotool windowsize "$win" "$W" "$H"
    xdotool windowmove "$win" 0 0
    sleep 2
    # Below a top bar that wraps (English at 900 px), everything is a line lower.
    top=0
    [ "$lang$suffix" = en-900 ] && top=32
    click 40 $((116 + top)) 1    # Renewals: the third of the navigation (52 + 32 k)
    click 175 $((118 + top)) 3   # Read the directory: every enterprise of it
    shot "renewals-$lang$suffix"
    # At 1280 px, the third month's bar near its foot: that month and the license type drawn
    # lowest. The plot runs from x 162 to the window's edge, 13.3 months wide. (At 900×600 the
    # chart gives way to the rows.)
    if [ -z "$suffix" ]; then
      click $((162 + (W - 162) * 32 / 133)) "$bar_foot" 1
      shot "renewals-month-$lang"
    fi
    xdotool windowfocus "$win"
    click 700 45 0.3 # the title: nothing to press there
    xdotool key ctrl+k
    sleep 0.3
    xdotool type --delay 60 bjhx # 北京华信科技有限公司
    sleep 1
    if [ -z "$suffix" ]; then
      xdotool mousemove $((W - 3)) 300 # the list of matches stays
      sleep 0.3
      import -window root -crop "${W}x${H}+0+0" +repage "$out/customer-search-$lang.png"
    fi
    xdotool key Return
    sleep 2
    shot "customer-page-$lang$suffix"
    # The Timeline tab: below the action bar, lower where the top bar or the actions wrap.
    case "$lang$suffix" in
      en-900) tab_y=300 ;;
      *) tab_y=237 ;;
    esac
    click 266 "$tab_y" 1
    shot "customer-timeline-$lang$suffix"
    kill "$app"
    wait "$app" 2>/dev/null || true
    app=
  done
  kill "$xvfb"
  wait "$xvfb" 2>/dev/null || true
  xvfb=
done
ls -l "$out"/renewals-* "$out"/customer-*
