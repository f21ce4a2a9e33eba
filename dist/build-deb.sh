#!/usr/bin/env bash
# Builds the Debian package on a fresh machine: installs what is missing (dpkg-dev for the
# dependency scan, cargo-deb from crates.io), builds the release binary and the .deb, and
# checks it: the listing holds the binary, the menu entry and the icons.
# Usage: dist/build-deb.sh [--install]   (--install also installs it and runs the installed
#        binary's --version; needs root)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dpkg-shlibdeps >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq dpkg-dev
fi
if ! cargo deb --version >/dev/null 2>&1; then
  cargo install cargo-deb --locked
fi

# Stripped: the release profile keeps line tables for backtraces, which the package does not need.
cargo deb --locked --strip
deb=$(ls -t target/debian/license-desk_*.deb | head -1)
echo "built $deb"

listing=$(dpkg -c "$deb")
for path in ./usr/bin/license-desk ./usr/share/applications/license-desk.desktop \
  ./usr/share/icons/hicolor/256x256/apps/license-desk.png; do
  grep -q " $path\$" <<<"$listing" || { echo "missing from the package: $path" >&2; exit 1; }
done
echo "the package holds the binary, the desktop entry and the icons"

if [ "${1:-}" = "--install" ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  # dpkg installs it; apt only fetches the window libraries it needs if they are missing.
  $sudo dpkg -i "$deb" || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -f -y -qq
  /usr/bin/license-desk --version
fi
