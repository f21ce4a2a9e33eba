#!/usr/bin/env bash
# The Windows package under Wine, as a user would meet it: the installer run silently into a fresh
# Wine prefix; `license-desk call shellnums 3` on the Sandbox and `order check`'s exit code through
# license-desk.com; the window under Xvfb in Chinese (docs/screenshots/windows-zh.png); the
# Sandbox's secret in the Windows Credential Manager and in no file; an update from a team server
# (a newer build signed with minisign, checked and installed silently, its --version said); an
# uninstall that keeps the user's data, and one with /REMOVEDATA that does not.
# Needs: apt-get install wine wine64 xvfb xdotool imagemagick gcc-mingw-w64-x86-64 nsis locales,
#        and the zh_CN.UTF-8 locale (localedef -i zh_CN -f UTF-8 zh_CN.UTF-8)
# Usage: scripts/windows-smoke.sh   (runs dist/build-windows.sh first unless the installer exists)
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
setup=$PWD/target/windows/LicenseDesk-$version-setup.exe
# Wine names files in the Unix locale's code page: without this locale a Chinese name is "?????".
locale -a | grep -qix 'zh_CN.utf8' || {
  echo "the zh_CN.UTF-8 locale is missing: localedef -i zh_CN -f UTF-8 zh_CN.UTF-8" >&2
  exit 1
}
[ -f "$setup" ] || dist/build-windows.sh
shot=${SMOKE_SCREENSHOT:-docs/screenshots/windows-zh.png}

work=$(mktemp -d)
export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all
# No Mono or Gecko install prompts: nothing here needs them.
export WINEDLLOVERRIDES="mscoree=;mshtml="
display=:$((70 + RANDOM % 9))
xvfb=
app=
team_server=
platform=
cleanup() {
  [ -z "$app" ] || kill "$app" 2>/dev/null || true
  [ -z "$team_server" ] || kill "$team_server" 2>/dev/null || true
  [ -z "$platform" ] || kill "$platform" 2>/dev/null || true
  wineserver -k 2>/dev/null || true
  [ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
passed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*" >&2; echo "windows-smoke: $passed passed, 1 failed"; exit 1; }
# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local limit=$1 start=$SECONDS
  shift
  until "$@"; do
    [ $((SECONDS - start)) -lt "$limit" ] || return 1
    sleep 0.2
  done
}

# One display for every Wine process: a wineserver first started without one keeps its
# desktop windowless, and the window would then fail to find a GL configuration.
Xvfb "$display" -noreset -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
export DISPLAY=$display
wait_for 20 xdotool getdisplaygeometry >/dev/null 2>&1 || fail "Xvfb did not start"

echo "== a fresh Wine prefix"
wine wineboot --init >/dev/null 2>&1
wineserver -w
sys32=$WINEPREFIX/drive_c/windows/system32
[ -d "$sys32" ] || fail "wineboot made no prefix"
x86_64-w64-mingw32-gcc -O2 -shared -o "$sys32/bcryptprimitives.dll" scripts/wine/processprng.c -ladvapi32
x86_64-w64-mingw32-gcc -O2 -o "$work/credlist.exe" scripts/wine/credlist.c -ladvapi32
home=$(echo "$WINEPREFIX"/drive_c/users/"$(id -un)")
[ -d "$home" ] || fail "no Wine user folder for $(id -un)"

echo "== silent install"
wine "$setup" /S
wineserver -w
dir="$home/AppData/Local/Programs/License Desk"
for f in license-desk.exe license-desk.com uninstall.exe; do
  [ -f "$dir/$f" ] || fail "the installer left no $dir/$f"
done
menu="$home/AppData/Roaming/Microsoft/Windows/Start Menu/Programs"
[ -f "$menu/License Desk.lnk" ] || fail "no Start-menu entry: $(ls "$menu")"
wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\LicenseDesk' /v DisplayVersion |
  grep -q "$version" || fail "no Apps entry with version $version"
ok "installed per user: $(du -sh "$dir" | cut -f1) in AppData\\Local\\Programs, a Start-menu entry, an Apps entry"

echo "== the command line through license-desk.com"
numbers=$(wine "$dir/license-desk.com" call shellnums 3 | tr -d '\r')
echo "$numbers" | python3 -c '
import json, sys
nums = json.load(sys.stdin)
assert len(nums) == 3 and all(len(str(n)) == 10 and str(n)[0] == "8" for n in nums), nums
' || fail "call shellnums 3 answered: $numbers"
ok "call shellnums 3 printed three asset numbers: $(echo "$numbers" | tr -d ' \n')"
status=0
wine "$dir/license-desk.com" order check 'Z:'"$PWD"'/tests/data/orders/three-problems.json' >"$work/check.txt" || status=$?
[ "$status" = 1 ] && [ "$(grep -c . "$work/check.txt")" -ge 3 ] ||
  fail "order check exited $status and printed: $(cat "$work/check.txt")"
ok "order check printed $(grep -c . "$work/check.txt") problems and exited 1"

echo "== secrets: in the Credential Manager, in no file"
creds=$(wine "$work/credlist.exe" | tr -d '\r' | grep 'license-desk' || true)
secret_hex=$(echo "$creds" | grep -i 'sandbox' | grep -i 'secret' | head -1 | cut -f2)
[ -n "$secret_hex" ] || fail "no Sandbox app secret in the Credential Manager: $creds"
secret=$(python3 -c '
import sys
raw = bytes.fromhex(sys.argv[1])
text = raw.decode("utf-16-le") if len(raw) % 2 == 0 and raw[1:2] == b"\0" else raw.decode()
print(text)' "$secret_hex")
[ "${#secret}" -ge 16 ] || fail "the stored secret is too short to be one: ${#secret} characters"
if grep -rlF "$secret" "$home" "$WINEPREFIX/drive_c/windows/temp" 2>/dev/null; then
  fail "the Sandbox's secret is in a file (listed above)"
fi
ok "the Sandbox's secret ($(echo "$creds" | grep -ci sandbox) entries) is in the Credential Manager and in no file"

echo "== the window, in Chinese"
LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 wine "$dir/license-desk.exe" &
app=$!
# The title is the UI language's: "授权管理台 - License Desk" in Chinese.
window() { xdotool search --onlyvisible --name 'License Desk$' | head -1; }
has_window() { [ -n "$(window)" ]; }
wait_for 60 has_window || fail "no window within 60 s"
# Settled: two pictures of the window in a row that are the same (the Sandbox ready, text drawn).
settled() {
  import -window "$(window)" "$work/a.png" 2>/dev/null
  sleep 0.5
  import -window "$(window)" "$work/b.png" 2>/dev/null
  cmp -s "$work/a.png" "$work/b.png"
}
wait_for 60 settled || fail "the window kept changing for 60 s"
mkdir -p "$(dirname "$shot")"
cp "$work/b.png" "$shot"
size=$(identify -format '%w %h' "$shot")
colours=$(identify -format %k "$shot")
# At least the console's minimum size (720×480): not a message box saying why it did not open.
[ "${size% *}" -ge 720 ] && [ "${size#* }" -ge 480 ] || fail "the window is ${size/ /×}: not the console"
[ "$colours" -gt 50 ] || fail "the screenshot has $colours colours: an empty window"
ok "the window opened: ${size/ /×}, $colours colours ($shot)"

# Help: F1 opens the manual over the console (built into the exe, in Chinese), Escape closes it.
xdotool windowfocus --sync "$(window)" 2>/dev/null || true
xdotool key --window "$(window)" F1
wait_for 30 settled || fail "the window kept changing for 30 s after F1"
changed=$(compare -metric AE "$shot" "$work/b.png" /dev/null 2>&1 || true)
changed=${changed%% *}
[ "${changed%.*}" -gt 20000 ] || fail "F1 changed $changed pixels: no manual over the console"
cp "$work/b.png" "${shot%.png}-help.png"
xdotool key --window "$(window)" Escape
wait_for 30 settled || fail "the window kept changing for 30 s after Escape"
left=$(compare -metric AE "$shot" "$work/b.png" /dev/null 2>&1 || true)
left=${left%% *}
[ "${left%.*}" -lt $((${changed%.*} / 4)) ] || fail "after Escape $left pixels still differ: the manual stayed open"
ok "F1 opened the manual ($changed pixels changed, ${shot%.png}-help.png); Escape closed it"
kill "$app"
wait "$app" 2>/dev/null || true
app=
wineserver -w

echo "== an update from a team server: signed, checked, installed silently, started"
# A newer build of the same program (its version given at build time), signed with Debian's
# minisign tool, published on a team server run here on Linux in front of a platform.
# Built each run, so that what is tested is this code (it leaves the 0.99.0 program in
# target/x86_64-pc-windows-gnu/release: the next dist/build-windows.sh builds the real one again).
next=0.99.0
next_setup=$PWD/target/windows/LicenseDesk-$next-setup.exe
rm -f "$next_setup"
LICENSE_DESK_VERSION=$next dist/build-windows.sh
# The Linux program for the servers: SMOKE_LINUX_BIN (CI keeps the tests' one), else built.
linux=${SMOKE_LINUX_BIN:-}
if [ -z "$linux" ]; then
  cargo build --locked --bin license-desk
  linux=$PWD/target/debug/license-desk
fi
linux=$(realpath "$linux")
password='长城长城 correct horse'
"$linux" serve --listen 127.0.0.1:0 --data "$work/platform" >"$work/platform.out" 2>/dev/null &
platform=$!
listening() { grep -q '^listening on ' "$1"; }
wait_for 60 listening "$work/platform.out" || fail "the platform did not start"
upstream=$(sed -n 's/^listening on //p' "$work/platform.out")
app_json=$("$linux" app create --name smoke --scopes auth_order --data "$work/platform")
app_key=$(echo "$app_json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["appKey"])')
echo "$app_json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["appSecret"])' >"$work/app-secret"
chmod 600 "$work/app-secret"
team() { "$linux" team "$@" --data "$work/team"; }
printf '%s' "$password" | team init --admin wang >/dev/null
printf '%s' "$password" | team user add li --role viewer >/dev/null
minisign -G -W -p "$work/company.pub" -s "$work/company.key" >/dev/null
team settings --release-public-key "$work/company.pub" >/dev/null
cp "$next_setup" "$work/"
minisign -S -W -s "$work/company.key" -m "$work/$(basename "$next_setup")" \
  -t "license-desk version:$next target:windows-x86_64" >/dev/null
team release publish --version "$next" --target windows-x86_64 --notes "更快 · faster" \
  "$work/$(basename "$next_setup")" >/dev/null
"$linux" team serve --listen 127.0.0.1:0 --app-key "$app_key" --upstream-url "$upstream" \
  --data "$work/team" --secret-file "$work/app-secret" >"$work/team.out" 2>/dev/null &
team_server=$!
wait_for 60 listening "$work/team.out" || fail "the team server did not start"
team_url=$(sed -n 's/^listening on //p' "$work/team.out")
printf '%s' "$password" | wine "$dir/license-desk.com" profile add branch --team "$team_url" --user li >/dev/null ||
  fail "profile add branch on the team server failed"
printf '%s' "$password" >"$work/password"
win_password='Z:'"$work/password"
checked=$(wine "$dir/license-desk.com" update check --profile branch --secret-file "$win_password" | tr -d '\r')
echo "$checked" | grep -q "\"version\": *\"$next\"" || fail "update check answered: $checked"
applied=$(wine "$dir/license-desk.com" update apply --profile branch --secret-file "$win_password" | tr -d '\r') ||
  fail "update apply failed: $applied"
wineserver -w
echo "$applied" | grep -q "^installed License Desk $next: " || fail "update apply said: $applied"
now=$(wine "$dir/license-desk.com" --version | tr -d '\r')
[ "$now" = "license-desk $next" ] || fail "after the update --version says: $now"
wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\LicenseDesk' /v DisplayVersion |
  grep -q "$next" || fail "the Apps entry does not say $next"
[ ! -e "$dir/license-desk.exe.old" ] && [ ! -e "$dir/license-desk.com.old" ] ||
  fail "the program set aside by the update was not deleted at the next start"
kill "$team_server" "$platform" 2>/dev/null || true
team_server=
platform=
ok "update check offered $next; update apply checked it against the pinned key and installed it silently; the new version starts ($now)"

echo "== uninstall keeps the user's data unless asked"
wine "$dir/uninstall.exe" /S
wineserver -w
[ ! -e "$dir/license-desk.exe" ] || fail "the uninstaller left the program"
[ ! -e "$menu/License Desk.lnk" ] || fail "the uninstaller left the Start-menu entry"
[ -d "$home/AppData/Local/license-desk" ] || fail "the uninstaller removed the user's data"
ok "uninstalled; the data in AppData\\Local\\license-desk stayed"
# Again on a Chinese Windows: the installer speaks Chinese and names the entry so.
LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 wine "$setup" /S
wineserver -w
[ -f "$menu/授权管理台.lnk" ] || fail "no Chinese Start-menu entry: $(ls "$menu")"
ok "installed on a Chinese Windows: the Start-menu entry is 授权管理台"
wine "$dir/uninstall.exe" /S /REMOVEDATA
wineserver -w
[ ! -e "$menu/授权管理台.lnk" ] || fail "the uninstaller left the Chinese Start-menu entry"
[ ! -e "$home/AppData/Local/license-desk" ] && [ ! -e "$home/AppData/Roaming/license-desk" ] ||
  fail "uninstall /REMOVEDATA left the user's data"
ok "uninstall /REMOVEDATA removed the data too"

echo "windows-smoke: $passed passed, 0 failed"
