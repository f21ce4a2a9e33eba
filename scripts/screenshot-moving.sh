#!/usr/bin/env bash
# Screenshots of Settings → Move to another computer… (docs/team.md, "Moving to a new PC"): the
# release binary under Xvfb with fresh HOMEs and no keyring, driven with xdotool. On the "old"
# HOME a remote profile of its own, the dialog and the move file saved; on the "new" HOME the
# file checked, Restart now, and the program started again saying what it restored. In English
# and Chinese, into $SCREENSHOTS_OUT (default docs/screenshots) as moving-*.
# Needs: apt-get install xvfb imagemagick xdotool
# Usage: scripts/screenshot-moving.sh   (LICENSE_DESK_BIN: a release binary already built;
#        the click positions are the window's at 1100×720)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LICENSE_DESK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=${CARGO_TARGET_DIR:-$PWD/target}/release/license-desk
fi
out=${SCREENSHOTS_OUT:-docs/screenshots}
mkdir -p "$out"
W=1100 H=720
work=$(mktemp -d /tmp/ld-moving.XXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work" || true' EXIT
export LICENSE_DESK_KEYRING=memory

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
  sleep 0.8
  import -window root -crop "${W}x${H}+0+0" +repage "$out/$1.png"
}
click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-0.6}"; }
# The console's window, sized and focused.
window_up() {
  local win=
  for _ in $(seq 100); do
    win=$(xdotool search --name 'License Desk$' 2>/dev/null | head -1) && [ -n "$win" ] && break
    sleep 0.1
  done
  sleep 2
  xdotool windowsize "$win" "$W" "$H"
  xdotool windowmove "$win" 0 0
  sleep 1
}
# Settings in the navigation, then Move to another computer…
open_dialog() {
  click 40 372
  click 240 193
  xdotool windowfocus "$(xdotool search --name 'License Desk$' | head -1)"
}
# Types into the field at x y, over what it holds.
type_at() {
  click "$1" "$2" 0.3
  xdotool key ctrl+a
  xdotool type --delay 10 "$3"
  sleep 0.3
}

# $2: the language's suffix; then the places of Save to, Save, Move file and Check and restore…
# in a dialog just opened, and of Restart now once checked (the Chinese help is a line shorter).
walk() {
  local lang=$1 suffix=$2 save_field_y=$3 save_y=$4 move_field_y=$5 check_y=$6 restart_y=$7
  local file=$work/move-$suffix.ldbackup
  export HOME=$work/old-$suffix
  printf '%s' 'sk_not-a-real-secret-0001' | "$bin" profile add 总部 \
    --base-url https://platform.example.com --app-key ak_example >/dev/null 2>&1
  LANG=$lang "$bin" >/dev/null 2>&1 &
  local app=$!
  window_up
  open_dialog
  type_at 500 "$save_field_y" "$file"
  click 322 "$save_y" 2
  shot "moving-saved-$suffix"
  kill "$app"
  wait "$app" 2>/dev/null || true

  export HOME=$work/new-$suffix
  LANG=$lang "$bin" >/dev/null 2>&1 &
  app=$!
  window_up
  open_dialog
  type_at 512 "$move_field_y" "$file"
  click 328 "$check_y" 2
  shot "moving-checked-$suffix"
  # Restart now: this window closes and the program starts again, restoring first.
  click 303 "$restart_y" 1
  wait "$app" 2>/dev/null || true
  window_up
  shot "moving-restored-$suffix"
  # The program started again is its window's: ended by its own pid.
  kill "$(xdotool search --name 'License Desk$' getwindowpid | head -1)" 2>/dev/null || true
  sleep 1
}

walk en_US.UTF-8 en 355 388 454 486 521
[ -n "${ONLY_EN:-}" ] && exit 0
walk zh_CN.UTF-8 zh 347 380 446 478 513
echo "screenshots in $out: moving-{saved,checked,restored}-{en,zh}.png"
