#!/usr/bin/env bash
# Screenshots of the console: the release binary under Xvfb with a fresh HOME, into
# docs/screenshots/: the first screen in English and in Chinese, and History after two calls.
# Needs: apt-get install xvfb imagemagick xdotool
# Usage: scripts/screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/license-desk
out=docs/screenshots
mkdir -p "$out"
home=$(mktemp -d)
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$home"' EXIT
sleep 1
export HOME=$home LICENSE_DESK_KEYRING=memory DISPLAY=$display

shot() { import -window root -crop 1100x720+0+0 +repage "$out/$1.png"; }

# Two calls for History: one answered, one refused.
$bin call shellnums 3 >/dev/null
$bin call shellnums 0 >/dev/null 2>&1 || true

for lang in en_US.UTF-8 zh_CN.UTF-8; do
  LANG=$lang $bin &
  app=$!
  sleep 4
  shot "console-${lang%%_*}"
  if [ "$lang" = en_US.UTF-8 ]; then
    xdotool mousemove 40 159 click 1   # "History" in the navigation
    sleep 1
    xdotool mousemove 272 154 click 1  # the newest call
    sleep 1
    shot history-en
  fi
  kill $app
  wait $app 2>/dev/null || true
  # The next run starts from the defaults again (the language follows LANG).
  rm -f "$home/.local/share/license-desk/"*.ron
done
ls -l "$out"
