#!/usr/bin/env bash
# Builds License Desk for Windows on Linux (cross-built with mingw-w64):
#   target/windows/LicenseDesk-<version>-setup.exe     per-user installer (NSIS)
#   target/windows/LicenseDesk-<version>-portable.zip  the same files, to unpack anywhere
# Needs: rustup target add x86_64-pc-windows-gnu; apt-get install gcc-mingw-w64-x86-64 nsis
# Usage: dist/build-windows.sh [--no-build]   (--no-build packages the exe already built)
#        LICENSE_DESK_VERSION=X.Y.Z dist/build-windows.sh   builds it as version X.Y.Z (the program's
#        --version and the installer's; the Wine smoke test's newer release to update to)
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-pc-windows-gnu
version=${LICENSE_DESK_VERSION:-$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)}
out=target/windows
stage=$out/LicenseDesk-$version

for tool in x86_64-w64-mingw32-gcc x86_64-w64-mingw32-strip makensis python3; do
  command -v "$tool" >/dev/null || {
    echo "$tool is missing: apt-get install gcc-mingw-w64-x86-64 nsis python3" >&2
    exit 1
  }
done
if [ "${1:-}" != "--no-build" ]; then
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
  cargo build --release --locked --target "$target"
fi

rm -rf "$stage"
mkdir -p "$stage"
# The release profile keeps line tables for Linux backtraces; the shipped exe has no debug
# information or symbols (a panic message still names its file and line).
x86_64-w64-mingw32-strip --strip-all -o "$stage/license-desk.exe" "target/$target/release/license-desk.exe"
python3 dist/windows/console-twin.py "$stage/license-desk.exe" "$stage/license-desk.com"
cp README.md docs/manual.md assets/NotoSansSC-LICENSE.txt assets/icons/PhosphorIcons-LICENSE.txt "$stage/"

makensis -V2 -INPUTCHARSET UTF8 -DVERSION="$version" -DSTAGE="$PWD/$stage" \
  -DOUTFILE="$PWD/$out/LicenseDesk-$version-setup.exe" dist/windows/installer.nsi
rm -f "$out/LicenseDesk-$version-portable.zip"
(cd "$out" && python3 -m zipfile -c "LicenseDesk-$version-portable.zip" "LicenseDesk-$version/")

ls -l "$out/LicenseDesk-$version-setup.exe" "$out/LicenseDesk-$version-portable.zip" "$stage"/license-desk.*
