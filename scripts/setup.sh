#!/usr/bin/env bash
# Installs what relpos needs on a fresh Debian machine and skips whatever is already there:
# Emscripten, Eigen, CMake/Ninja, GoogleTest, clang-14 with its sanitizer/fuzzer runtime, clang-19
# and lld-19 (the relaxed-SIMD side module) and
# Chromium with a CJK font (Noto CJK, so the 中文 chapter renders its glyphs) from Debian; npm
# packages from the lockfile. Run by `npm start` and `npm test`; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
# clang-14 + libclang-rt-14-dev: libFuzzer, AddressSanitizer and UBSan runtimes (scripts/fuzz.sh).
# clang-19 + lld-19: the relaxed-SIMD side module (docs/build.md, "The relaxed build").
for pkg in emscripten libeigen3-dev cmake ninja-build g++ libgtest-dev clang-14 libclang-rt-14-dev clang-format \
  clang-19 lld-19; do
  have_pkg "$pkg" || missing+=("$pkg")
done
if [ "${RELPOS_SKIP_BROWSER:-0}" != "1" ]; then
  have_pkg chromium || missing+=(chromium)
  have_pkg fonts-noto-cjk || missing+=(fonts-noto-cjk)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "relpos setup: installing ${missing[*]} with apt-get"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "relpos setup: Node.js >= 20 is required, found $(node --version)" >&2
  exit 1
fi

# npm ci when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "relpos setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
