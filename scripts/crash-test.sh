#!/usr/bin/env bash
# Crash durability of the embedded platform: the release binary is killed with SIGKILL at
# random moments under a stream of batch orders and claims, restarted, and checked.
# Usage: scripts/crash-test.sh [KILLS=25] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
CRASH_KILLS="${1:-25}" CRASH_SEED="${2:-$RANDOM}" CRASH_BIN="$PWD/target/release/license-desk" \
  cargo test --release --quiet --test crash -- --nocapture
