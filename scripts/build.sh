#!/usr/bin/env bash
# Builds the wasm modules (SIMD and baseline, into dist/) and/or the native core with its tests.
# Usage: scripts/build.sh [wasm|native|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="${RELPOS_JOBS:-2}"
# One build at a time in this checkout (parallel sessions would race on build/ and dist/).
mkdir -p build
exec 9>build/.build.lock
flock 9
# Debian's emcc needs its node modules (acorn) on NODE_PATH.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

if [ "$what" = "wasm" ] || [ "$what" = "all" ]; then
  if [ ! -f build/wasm/build.ninja ]; then
    emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build build/wasm -j "$jobs"
  # relpos/web as one self-contained ES module for pages without a bundler (dist/web/relpos-web.js).
  node node_modules/vite/bin/vite.js build -c vite.web-bundle.config.js
fi
if [ "$what" = "native" ] || [ "$what" = "all" ]; then
  if [ ! -f build/native/build.ninja ]; then
    cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build build/native -j "$jobs"
fi
