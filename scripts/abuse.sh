#!/usr/bin/env bash
# Issue 19's six findings replayed against the release binary (loopback only, bounded in
# connections and time, about two minutes): for each, the figure measured before the fixes
# and the figure now. Linux only.
# Usage: scripts/abuse.sh [STEP…]   (steps 1 to 6; default all)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
cargo build --release --quiet
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + uncommitted changes')"
ABUSE_BIN="$target/release/license-desk" cargo bench --quiet --bench abuse -- "$@"
