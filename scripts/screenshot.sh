#!/usr/bin/env bash
# Screenshots of the console: the release binary under Xvfb with a fresh HOME, one PNG per
# language, into docs/screenshots/. Needs: apt-get install xvfb imagemagick
# Usage: scripts/screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=docs/screenshots
mkdir -p "$out"
home=$(mktemp -d)
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$home"' EXIT
sleep 1
for lang in en_US.UTF-8 zh_CN.UTF-8; do
  DISPLAY=$display HOME=$home LANG=$lang LICENSE_DESK_KEYRING=memory \
    target/release/license-desk &
  app=$!
  sleep 4
  DISPLAY=$display import -window root -crop 1100x720+0+0 +repage "$out/console-${lang%%_*}.png"
  kill $app
  wait $app 2>/dev/null || true
  # The next run starts from the defaults again (the language follows LANG).
  rm -rf "$home/.local/share/license-desk/app.ron" "$home/.local/share/license-desk/"*.ron
done
ls -l "$out"
