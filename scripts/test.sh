#!/usr/bin/env bash
# Every suite: native C++ (CTest/GoogleTest), Node (Vitest against the real wasm build) and browser
# (Vitest driving Debian's Chromium). Ends with one line "N passed, N failed" over all of them.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || exit 1
bash scripts/build.sh all || exit 1

mkdir -p build/reports
native_log=build/reports/ctest.log
ctest --test-dir build/native -j 2 --output-on-failure 2>&1 | tee "$native_log"
native_status=${PIPESTATUS[0]}

npx vitest run --reporter=default --reporter=json --outputFile=build/reports/vitest.json
vitest_status=$?

node scripts/summary.mjs "$native_log" build/reports/vitest.json
summary_status=$?

if [ "$native_status" -ne 0 ] || [ "$vitest_status" -ne 0 ] || [ "$summary_status" -ne 0 ]; then
  exit 1
fi
