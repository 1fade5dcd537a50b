#!/usr/bin/env bash
# Every suite: native C++ (CTest/GoogleTest), Node (Vitest against the real wasm build), browser
# (Vitest driving Debian's Chromium) and the libFuzzer targets (each counts as one test). Ends with
# one line "N passed, N failed, N skipped" over all of them.
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

# libFuzzer targets under ASan+UBSan: replay tests/fuzz/regressions, then a few seconds each
# (RELPOS_FUZZ_SECONDS, default 5; `npm run fuzz` runs them for 10 minutes each).
rm -f build/reports/fuzz.json
RELPOS_FUZZ_SECONDS="${RELPOS_FUZZ_SECONDS:-5}" bash scripts/fuzz.sh quick
fuzz_status=$?

node scripts/summary.mjs "$native_log" build/reports/vitest.json build/reports/fuzz.json
summary_status=$?

if [ "$native_status" -ne 0 ] || [ "$vitest_status" -ne 0 ] || [ "$fuzz_status" -ne 0 ] || [ "$summary_status" -ne 0 ]; then
  exit 1
fi
