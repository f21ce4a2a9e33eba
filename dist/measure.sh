#!/usr/bin/env bash
# Start-up and footprint of the release binary, as a user feels them, beside the nearest
# reference (a headless Chromium showing a blank page: the engine under Electron API clients),
# measured in the same run on this machine. Prints a Markdown table.
#
#   first frame   time from starting the process to its first frame (the console logs it)
#   memory        proportional set size (PSS, shared pages divided among the processes that
#                 share them) summed over the process tree, so that a many-process program and
#                 a one-process program are counted alike
#
# Needs: apt-get install xvfb xdotool chromium
# Usage: dist/measure.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=$(realpath "${CARGO_TARGET_DIR:-target}")/release/license-desk
work=$(mktemp -d)
display=:$((80 + RANDOM % 9))
Xvfb "$display" -noreset -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
pids=()
trap 'kill "${pids[@]}" $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
# Wait for the display to answer (-noreset: the probe's disconnect must not reset the server).
for i in $(seq 200); do
  DISPLAY=$display xdotool getdisplaygeometry >/dev/null 2>&1 && break
  [ "$i" -lt 200 ] || { echo "Xvfb did not start on $display" >&2; exit 1; }
  sleep 0.05
done
export DISPLAY=$display LICENSE_DESK_KEYRING=memory LANG=en_US.UTF-8

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# PSS and RSS of a process and all its descendants, in MiB: "pss/rss".
pss_mib() {
  local pss=0 rss=0 pid
  for pid in $1 $(pgrep -P "$1" 2>/dev/null) $(for c in $(pgrep -P "$1" 2>/dev/null); do pgrep -P "$c"; done); do
    local p r
    p=$(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)
    r=$(awk '/^Rss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)
    pss=$((pss + ${p:-0}))
    rss=$((rss + ${r:-0}))
  done
  awk -v p="$pss" -v r="$rss" 'BEGIN {printf "%.1f/%.1f", p / 1024, r / 1024}'
}

# RSS of one process without Mesa's software GL renderer (libLLVM, swrast_dri), which is loaded
# only because Xvfb has no GPU, in MiB.
rss_without_soft_gl_mib() {
  awk '/^[0-9a-f]+-/ {name = $6} /^Rss:/ {if (name !~ /libLLVM|swrast_dri/) kb += $2}
       END {printf "%.1f", kb / 1024}' "/proc/$1/smaps"
}

# Median of "pss/rss" pairs (or of plain numbers), by the first.
median() { sort -t/ -k1,1n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
pss() { echo "${1%/*}"; }
rss() { echo "${1#*/}"; }

# Starts the console with a HOME; waits for its first frame; echoes "pid ms".
start_console() {
  local home=$1 log=$1/console.log t0
  t0=$(now_ms)
  HOME=$home RUST_LOG=license_desk::ui=info "$bin" 2>"$log" &
  local pid=$!
  until grep -q "first frame" "$log" 2>/dev/null; do
    sleep 0.005
    kill -0 "$pid" 2>/dev/null || { echo "the console (HOME $home) exited: $(cat "$log")" >&2; exit 1; }
  done
  echo "$pid $(($(now_ms) - t0))"
}

echo "measuring: $runs runs each" >&2

# 1. First frame, fresh HOME each time (the Sandbox is provisioned on this first start), and
#    idle memory on the Sandbox 5 s later.
firsts=() idles=() bares=()
for i in $(seq "$runs"); do
  home=$work/fresh-$i
  mkdir -p "$home"
  read -r pid ms < <(start_console "$home")
  pids+=("$pid")
  firsts+=("$ms")
  sleep 5
  idles+=("$(pss_mib "$pid")")
  bares+=("$(rss_without_soft_gl_mib "$pid")")
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
first=$(printf '%s\n' "${firsts[@]}" | median)
idle=$(printf '%s\n' "${idles[@]}" | median)
bare=$(printf '%s\n' "${bares[@]}" | median)

# 2. A second start of the same HOME (what a user sees every day).
agains=()
for i in $(seq "$runs"); do
  read -r pid ms < <(start_console "$work/fresh-1")
  agains+=("$ms")
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
again=$(printf '%s\n' "${agains[@]}" | median)

# 3. 100,000 assets listed in the Assets screen: the Sandbox is given them through `call`
#    (ten batch orders of 10,000 asset numbers), then the console lists them.
home=$work/big
mkdir -p "$home"
for b in $(seq 0 9); do
  python3 - "$b" >"$work/batch-$b.json" <<'PY'
import json, sys
b = int(sys.argv[1])
nums = ["7%09d" % (b * 10000 + i) for i in range(10000)]
print(json.dumps({"channelCode": "SHOP", "channelOrderId": "MEASURE-%d" % b, "syncMode": "sync",
  "orderList": [{"sequence": 1, "channelCustomerId": "S-0001", "licenseType": "normal_recover_usbkey",
    "orderType": "new_buy", "assets": [{"assetNos": nums, "products": [{"productUri": "gms:1001"}]}]}]}))
PY
  HOME=$home "$bin" call order --body "$work/batch-$b.json" >/dev/null
done
read -r pid _ < <(start_console "$home")
pids+=("$pid")
sleep 2
xdotool windowfocus "$(xdotool search --name 'License Desk' | head -1)"
xdotool mousemove 35 136 click 1; sleep 0.3           # Assets
xdotool mousemove 332 76 click 1; sleep 0.2
xdotool type EG0000000001
xdotool mousemove 711 76 click 1                      # List assets
sleep 15                                              # listed and drawn (a few s here)
listed=$(pss_mib "$pid")
# The picture, to see that the 100,000 are there.
import -window root -crop 1100x720+0+0 +repage target/measure-listed.png 2>/dev/null || true
xdotool mousemove 1018 76 click 1                     # Close the listing
sleep 5
closed=$(pss_mib "$pid")
import -window root -crop 1100x720+0+0 +repage target/measure-closed.png 2>/dev/null || true
kill "$pid"; wait "$pid" 2>/dev/null || true

# 4. The headless platform, idle.
mkdir -p "$work/serve"
HOME=$work/serve "$bin" serve --listen 127.0.0.1:0 --data "$work/serve/data" >"$work/serve.out" 2>/dev/null &
pid=$!
pids+=("$pid")
until grep -q listening "$work/serve.out" 2>/dev/null; do sleep 0.01; done
sleep 3
serve=$(pss_mib "$pid")
kill "$pid"; wait "$pid" 2>/dev/null || true

# 5. Chromium, headless, a blank page: first frame as the time to a screenshot of it, memory
#    of the running browser (every process) 5 s after start.
chrome_flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --window-size=1100,720)
if command -v chromium >/dev/null; then
  cfirsts=() cmems=()
  for i in $(seq "$runs"); do
    t0=$(now_ms)
    chromium "${chrome_flags[@]}" --user-data-dir="$work/chrome-a-$i" \
      --screenshot="$work/blank-$i.png" about:blank >/dev/null 2>&1
    cfirsts+=("$(($(now_ms) - t0))")
    chromium "${chrome_flags[@]}" --user-data-dir="$work/chrome-b-$i" --remote-debugging-port=0 \
      about:blank >/dev/null 2>&1 &
    pid=$!
    pids+=("$pid")
    sleep 5
    cmems+=("$(pss_mib "$pid")")
    pkill -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  done
  cfirst=$(printf '%s\n' "${cfirsts[@]}" | median)
  cmem=$(printf '%s\n' "${cmems[@]}" | median)
else
  echo "chromium is not installed: its column is left empty" >&2
  cfirst="—" cmem="0/0"
fi
third=$(awk -v c="$(pss "$cmem")" 'BEGIN {printf "%.1f", c / 3}')
echo
echo "| measure ($runs runs, median) | License Desk | headless Chromium, blank page | target |"
echo "|---|---|---|---|"
echo "| first frame, first start (fresh HOME, Sandbox provisioned) | ${first} ms | ${cfirst} ms (to a screenshot) | < 500 ms |"
echo "| first frame, later starts | ${again} ms | — | < 500 ms |"
echo "| memory idle on the Sandbox, PSS (RSS) | $(pss "$idle") MiB ($(rss "$idle") MiB) | $(pss "$cmem") MiB ($(rss "$cmem") MiB) | < 100 MiB and < ⅓ of Chromium (${third} MiB) |"
echo "| memory idle on the Sandbox, RSS without Xvfb's software GL renderer (libLLVM, swrast) | ${bare} MiB | — | < 100 MiB |"
echo "| memory with 100,000 assets listed, PSS (RSS) | $(pss "$listed") MiB ($(rss "$listed") MiB) | — | < 200 MiB PSS |"
closed_ratio=$(awk -v c="$(pss "$closed")" -v i="$(pss "$idle")" 'BEGIN {printf "%.2f", c / i}')
echo "| memory after the listing is closed, PSS (RSS) | $(pss "$closed") MiB ($(rss "$closed") MiB), ${closed_ratio}× idle | — | < 1.3× idle |"
echo "| memory of \`license-desk serve\` idle, PSS (RSS) | $(pss "$serve") MiB ($(rss "$serve") MiB) | — | — |"
