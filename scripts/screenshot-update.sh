#!/usr/bin/env bash
# Screenshots of a newer version offered by a team server (docs/team.md, "Rolling out"): the
# release binary under Xvfb with a fresh HOME and no keyring, driven with xdotool. A real
# platform (`serve`), a real team server in front of it, the company's key made and a release
# of version 99.0.0 signed with it (`license-desk release keygen|sign`) and published; the
# console signs lisi in, shows the quiet line, its notes, and the download checked. In English
# and Chinese, into $SCREENSHOTS_OUT (default docs/screenshots) as update-*.
# Needs: apt-get install xvfb imagemagick xdotool
# Usage: scripts/screenshot-update.sh   (LICENSE_DESK_BIN: a release binary already built)
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
password='shanghai-branch-2026'
work=$(mktemp -d /tmp/ld-update.XXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work" || true' EXIT

keys=$("$bin" app create --data "$work/platform" --name team --scopes auth_order,auth_activity)
app_key=$(sed -n 's/.*"appKey": *"\([^"]*\)".*/\1/p' <<<"$keys")
(umask 077; sed -n 's/.*"appSecret": *"\([^"]*\)".*/\1/p' <<<"$keys" >"$work/app-secret")
"$bin" serve --data "$work/platform" --listen 127.0.0.1:0 >"$work/platform.out" 2>/dev/null &
pids+=($!)
until grep -q '^listening on ' "$work/platform.out" 2>/dev/null; do sleep 0.1; done
platform=$(sed -n 's/^listening on //p' "$work/platform.out" | head -1)

printf '%s\n' "head-office-admin-2026" | "$bin" team init --data "$work/team" --admin wang >/dev/null
printf '%s\n' "$password" | "$bin" team user add lisi --display-name 李四 --role staff \
  --branch SH01 --branch-name 上海 --data "$work/team" >/dev/null

# The company's key, a release signed with it, published.
printf '%s\n' "company-release-key-2026" | "$bin" release keygen \
  --secret-key "$work/release.key" --public-key "$work/release.pub" >/dev/null
"$bin" team settings --data "$work/team" --release-public-key "$work/release.pub" >/dev/null
package=$work/license-desk_99.0.0_amd64.deb
head -c 2000000 /dev/urandom >"$package"
printf '%s\n' "company-release-key-2026" | "$bin" release sign "$package" --key "$work/release.key" \
  --version 99.0.0 --target linux-x86_64 >/dev/null
"$bin" team release publish --data "$work/team" --version 99.0.0 --target linux-x86_64 \
  --notes "导入大文件更快；续订表在 900 像素宽的窗口中完整显示。Large files import faster; Renewals fits a 900-pixel window." \
  "$package" >/dev/null

"$bin" team serve --data "$work/team" --listen 127.0.0.1:0 --upstream-url "$platform" \
  --app-key "$app_key" --secret-file "$work/app-secret" >"$work/team.out" 2>/dev/null &
pids+=($!)
until grep -q '^listening on ' "$work/team.out" 2>/dev/null; do sleep 0.1; done
team=$(sed -n 's/^listening on //p' "$work/team.out" | head -1)

export HOME=$work/home LICENSE_DESK_KEYRING=memory
printf '%s\n' "$password" | "$bin" profile add 上海分行 --team "$team" --user lisi >/dev/null
"$bin" profile use 上海分行 >/dev/null

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

walk() {
  local lang=$1 suffix=$2 notes_x=$3 download_x=$4
  LANG=$lang "$bin" &
  app=$!
  sleep 4
  local win
  win=$(xdotool search --pid "$app" | head -1)
  xdotool windowsize "$win" "$W" "$H"
  sleep 1
  xdotool windowfocus "$win"
  sleep 0.5
  xdotool type --delay 30 "$password"
  xdotool key Return
  sleep 2
  shot "update-offered-$suffix"
  click "$notes_x" "${NOTICE_Y:-676}" 1
  shot "update-notes-$suffix"
  click "$download_x" "${NOTICE_Y:-676}" 3
  shot "update-downloaded-$suffix"
  kill "$app"
  wait "$app" 2>/dev/null || true
  rm -f "$HOME/.local/share/license-desk/"*.ron
  rm -rf "$HOME/.local/share/license-desk/updates"
}

walk en_US.UTF-8 en "${EN_NOTES_X:-330}" "${EN_DOWNLOAD_X:-420}"
walk zh_CN.UTF-8 zh "${ZH_NOTES_X:-210}" "${ZH_DOWNLOAD_X:-270}"
echo "screenshots in $out: update-{offered,notes,downloaded}-{en,zh}.png"
