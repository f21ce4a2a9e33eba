#!/usr/bin/env bash
# Screenshots of every screen of the console (issue 39): the release binary under Xvfb with a
# fresh HOME whose Sandbox holds the renewals demo (scripts/renewals-demo.sh), in English and
# Chinese, in the light and the dark theme, at 1280×800 and 900×600, into
# docs/screenshots/face/<screen>-<lang>-<theme>[-900].png.
# Each picture is a fresh start on its screen: the window's state file (app.ron) names the
# screen, the language and the theme, as Settings would have left them. Assets are listed by
# typing the demo enterprise and Enter, Renewals read by F5; "Refused" is Assets asked for an
# enterprise the platform does not have (its toast under the screen), "Claimed" the demo claim
# sent and "NumbersGiven" new asset numbers asked for, both by Ctrl+Enter; the other screens
# show what a user finds on opening them.
# Needs: apt-get install xvfb imagemagick xdotool
# Usage: scripts/screenshot-face.sh [screen...]   (LICENSE_DESK_BIN: a release binary already
# built; screens by their names below, all of them by default; SIZES: the window's sizes,
# "1280x800 900x600" by default, a size other than 1280x800 suffixed to the file's name by its
# width; LANGS and THEMES likewise, "En Zh" and "light dark")
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LICENSE_DESK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk
fi
out=docs/screenshots/face
mkdir -p "$out"
work=$(mktemp -d)
xvfb= app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
export HOME=$work/home LICENSE_DESK_KEYRING=memory LICENSE_DESK_BIN=$bin
mkdir -p "$HOME"
scripts/renewals-demo.sh >/dev/null
# A walk changes what it walks through: each starts from this copy.
cp -a "$HOME" "$work/home0"

# History last: it shows the calls the other screens made.
screens=${*:-Start Customers Renewals Orders OrdersSubmitted Catalog Assets AssetsDisabled Refused Activities Claimed AssetNumbers NumbersGiven SendLater Approvals Settings History}

claims=0

# AssetNumbers → asset-numbers
file_name() { sed -E 's/([a-z])([A-Z])/\1-\2/g' <<<"$1" | tr '[:upper:]' '[:lower:]'; }

# Starts the console on screen $1 in language $2 (En, Zh) and theme $3 (light, dark).
start_on() {
  local state=$HOME/.local/share/license-desk
  mkdir -p "$state"
  local on=$1 more=
  case $1 in
    # The Assets screen asked for an enterprise the platform does not have.
    Refused) on=Assets ;;
    # The demo claim filled in, then sent: by a participant of its own each time, since a
    # participant may claim it once.
    Claimed)
      on=Activities
      claims=$((claims + 1))
      local mobile
      mobile=$(printf '1390000%04d' "$claims")
      more=",claim:(identity:\\\"$mobile\\\",label:\\\"spring-2026\\\",source:\\\"license-desk\\\",branch:\\\"北京分公司\\\")"
      ;;
    # New asset numbers asked for.
    NumbersGiven) on=AssetNumbers ;;
    OrdersSubmitted) on=Orders ;;
    AssetsDisabled) on=Assets ;;
  esac
  printf '{"app":"(lang:%s,screen:%s,theme:%s%s)"}\n' "$2" "$on" "$3" "$more" >"$state/app.ron"
  local locale=en_US.UTF-8
  [ "$2" = En ] || locale=zh_CN.UTF-8
  LANG=$locale "$bin" >/dev/null 2>&1 &
  app=$!
  local win=
  for _ in $(seq 100); do
    win=$(xdotool search --pid "$app" 2>/dev/null | head -1) && [ -n "$win" ] && break
    sleep 0.1
  done
  [ -n "$win" ] || { echo "no window for $1 $2 $3" >&2; exit 1; }
  xdotool windowsize "$win" "$W" "$H"
  xdotool windowmove "$win" 0 0
  sleep 2
  # Keys go to the focused window (no window manager gives it the focus); refused while the
  # window is not yet mapped, so after the wait.
  xdotool windowfocus "$win" 2>/dev/null || true
  sleep 0.3
}

# The manual's walks, at 1280×800 only: their clicks are at the places the pictures of that
# size show (English first, Chinese second), so a change of layout asks for new ones.
walk() { [ "$1" = OrdersSubmitted ] || [ "$1" = AssetsDisabled ]; }
at() { if [ "$lang" = En ]; then echo "$1"; else echo "$2"; fi; }
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-0.5}"; }

# The demo draft's asset: its numbers from the Sandbox, a package picked from the catalog by its
# pinyin initials (zjrm: 造价入门), Valid until ticked, then submitted by Ctrl+Enter and Send.
walk_orders() {
  click "$(at 370 300)" 746                 # the problem: no asset numbers (opens the asset)
  click "$(at 658 632)" 175                 # Add package: the catalog's search
  xdotool type --delay 30 zjrm
  sleep 0.6
  shot "orders-pick-$1"
  xdotool key Return                        # the first match, with its products
  sleep 0.6
  click 250 233                             # the asset again
  click "$(at 720 657)" 207 1.5             # Get new asset numbers
  click "$(at 692 679)" 384                 # Valid until: a year on
  shot "orders-filled-$1"
  xdotool key ctrl+Return
  sleep 1
  shot "orders-confirm-$1"
  click "$(at 360 395)" 527 2               # Send
}

# Two locks and a certificate selected, the certificate left out, the two disabled.
walk_assets() {
  act_on Assets
  click 300 256                             # 8900000001
  xdotool keydown ctrl mousemove 300 284 click 1 mousemove 300 424 click 1 keyup ctrl
  sleep 0.3
  click "$(at 563 552)" 187 0.8             # Disable selected
  shot "assets-confirm-$1"
  click 430 "$(at 502 502)" 2               # Disable 2 locks
}

# What a user does first on the screen, when it shows nothing until asked.
act_on() {
  case $1 in
    OrdersSubmitted) walk_orders "$2" ;;
    AssetsDisabled) walk_assets "$2" ;;
    Assets | Refused)
      local enterprise=EG0000000001
      [ "$1" = Assets ] || enterprise=EG9999999999
      xdotool mousemove 350 99 click 1 # the enterprise's field, first on the screen's bar
      sleep 0.3
      xdotool type --delay 20 "$enterprise"
      xdotool key Return
      sleep 2
      ;;
    Renewals)
      xdotool key F5
      sleep 4
      ;;
    Claimed | NumbersGiven)
      xdotool key ctrl+Return
      sleep 2
      ;;
  esac
}

shot() {
  xdotool mousemove $((W - 3)) $((H - 3)) # no hover highlight in the picture
  sleep 0.4
  import -window root -crop "${W}x${H}+0+0" +repage "$out/$1.png"
  # 256 colours: the same picture to the eye at less than half the bytes.
  convert "$out/$1.png" -colors 256 "PNG8:$out/$1.png"
}

for size in ${SIZES:-1280x800 900x600}; do
  W=${size%x*} H=${size#*x}
  suffix=
  [ "$W" = 1280 ] || suffix=-$W
  display=:$((80 + RANDOM % 9))
  Xvfb "$display" -noreset -screen 0 "${W}x${H}x24" >/dev/null 2>&1 &
  xvfb=$!
  for i in $(seq 200); do
    DISPLAY=$display xdotool getdisplaygeometry >/dev/null 2>&1 && break
    [ "$i" -lt 200 ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
    sleep 0.05
  done
  export DISPLAY=$display
  for screen in $screens; do
    for lang in ${LANGS:-En Zh}; do
      for theme in ${THEMES:-light dark}; do
        # A walk runs in a copy of the start of its own, so that what it changes (two locks
        # disabled, a batch sent) is in no other picture.
        export HOME=$work/home
        if walk "$screen"; then
          [ "$W" = 1280 ] || continue
          rm -rf "$work/walk"
          cp -a "$work/home0" "$work/walk"
          export HOME=$work/walk
        fi
        start_on "$screen" "$lang" "$theme"
        lower=$(tr '[:upper:]' '[:lower:]' <<<"$lang")
        act_on "$screen" "$lower-$theme$suffix"
        shot "$(file_name "$screen")-$lower-$theme$suffix"
        kill "$app"
        wait "$app" 2>/dev/null || true
      done
    done
  done
  kill "$xvfb"
  wait "$xvfb" 2>/dev/null || true
done
echo "screenshots in $out"
