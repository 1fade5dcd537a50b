#!/usr/bin/env bash
# libFuzzer targets for the core under AddressSanitizer + UndefinedBehaviorSanitizer, one per entry
# family (tests/fuzz/fuzz_*.cpp): schemes (compute), attention, analysis, config (fromConfigJson +
# parseJson), maps (attentionMap jobs stepped to the end or cancelled midway) and lab (training
# jobs with small budgets). Built here with clang++-14 directly into build/fuzz/ (not part of CMake).
#
# Usage: scripts/fuzz.sh [long|quick|replay|build] [target ...]
#   long   (default, `npm run fuzz`) each target until RELPOS_FUZZ_RUNS executions (default 10
#          million) or RELPOS_FUZZ_SECONDS (default 3600), whichever comes first; then writes
#          docs/fuzzing.md (scripts/fuzz-report.mjs) with every target's executions, time and findings
#   quick  (`npm test`) RELPOS_FUZZ_SECONDS per target (default 5), after replaying the regressions
#   replay every input under tests/fuzz/regressions/<target>/ once
#   build  only build
# Writes build/reports/fuzz.json ({ target: { status, execs, seconds, findings } }) for
# scripts/summary.mjs and the report. Runs at `nice` priority (the machine is shared).
# A crash leaves its input in build/fuzz/artifacts/<target>/; once fixed, keep it as a regression:
#   cp build/fuzz/artifacts/<target>/crash-… tests/fuzz/regressions/<target>/<what-it-was>
set -uo pipefail
cd "$(dirname "$0")/.."

mode="${1:-long}"
shift || true
all_targets=(schemes attention analysis config maps lab)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
runs=-1
case "$mode" in
  long) seconds="${RELPOS_FUZZ_SECONDS:-3600}"; runs="${RELPOS_FUZZ_RUNS:-10000000}" ;;
  quick) seconds="${RELPOS_FUZZ_SECONDS:-5}" ;;
  replay|build) seconds=0 ;;
  *) echo "usage: scripts/fuzz.sh [long|quick|replay|build] [target ...]" >&2; exit 2 ;;
esac

CXX="${RELPOS_FUZZ_CXX:-clang++-14}"
out=build/fuzz
mkdir -p "$out/obj" build/reports
flags=(-std=c++17 -g -O1 -fno-omit-frame-pointer -Isrc -I"$out/generated" -I/usr/include/eigen3
       -fsanitize=address,undefined -fno-sanitize-recover=all)
report=build/reports/fuzz.json
# The long campaign keeps its own record (targets may run one at a time, days apart).
[ "$mode" = long ] && report=build/reports/fuzz-long.json

write_report() { # target status execs findings seconds
  node -e '
    const fs = require("fs");
    const [file, target, status, execs, findings, seconds, runs, limit] = process.argv.slice(1);
    let r = {};
    try { r = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
    r[target] = {
      status, execs: Number(execs), findings: Number(findings), seconds: Number(seconds ?? 0),
      runLimit: Number(runs), timeLimit: Number(limit), date: new Date().toISOString().slice(0, 10),
    };
    fs.writeFileSync(file, JSON.stringify(r, null, 2));' "$report" "$@" "$runs" "$seconds"
}

# The core's sources (src/relpos and its folders); an object is named after its path there, with
# "__" for "/" (ops/attention.cpp -> ops__attention.o), so equal file names in two folders differ.
# Not kernels/relaxed/: the relaxed-SIMD side module is wasm32-only, built by clang-19 on its own
# (CMakeLists.txt, docs/build.md), and the native core never calls it.
core_sources() { find src/relpos -name '*.cpp' -not -path 'src/relpos/kernels/relaxed/*' | sort; }
object_name() { local rel="${1#src/relpos/}"; rel="${rel//\//__}"; echo "${rel%.cpp}.o"; }

# ---- build (objects shared by all targets; rebuilt when a source or any core header is newer) ----
build() {
  exec 9>build/.build.lock   # one heavy job at a time with scripts/build.sh
  flock 9
  # The presets are data embedded at build time, as CMakeLists.txt does.
  local presets="$out/generated/relpos/models/presets_json.inc"
  if [ ! -f "$presets" ] || [ src/relpos/models/presets.json -nt "$presets" ]; then
    mkdir -p "$(dirname "$presets")"
    cmake -DIN=src/relpos/models/presets.json -DOUT="$presets" -P src/relpos/models/embed_text.cmake || { flock -u 9; return 1; }
  fi
  local stale=()
  for src in $(core_sources); do
    local obj="$out/obj/$(object_name "$src")"
    if [ ! -f "$obj" ] || [ ! -f "${obj%.o}.d" ] || [ "$src" -nt "$obj" ]; then stale+=("$src"); continue; fi
    # The headers it included last time (clang -MMD), any of them newer or gone → rebuild.
    local dep
    for dep in $(sed -e 's/^[^:]*://' -e 's/\\$//' "${obj%.o}.d"); do
      if [ ! -f "$dep" ] || [ "$dep" -nt "$obj" ]; then stale+=("$src"); break; fi
    done
  done
  if [ ${#stale[@]} -gt 0 ]; then
    echo "fuzz: compiling ${#stale[@]} core sources with ASan+UBSan"
    for src in "${stale[@]}"; do echo "$src $out/obj/$(object_name "$src")"; done | xargs -P "${RELPOS_JOBS:-2}" -n 2 sh -c \
      "$CXX"' '"${flags[*]}"' -fsanitize=fuzzer-no-link -MMD -c "$0" -o "$1" || { rm -f "$1"; exit 255; }' \
      || { flock -u 9; return 1; }
  fi
  rm -f "$out/librelpos_fuzz.a"
  ar rcs "$out/librelpos_fuzz.a" "$out"/obj/*.o
  for t in "${targets[@]}"; do
    local bin="$out/fuzz_$t"
    local newest_harness
    newest_harness=$(ls -t "tests/fuzz/fuzz_$t.cpp" tests/fuzz/*.hpp | head -1)
    if [ ! -f "$bin" ] || [ "$newest_harness" -nt "$bin" ] || [ "$out/librelpos_fuzz.a" -nt "$bin" ]; then
      "$CXX" "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/fuzz_$t.cpp" "$out/librelpos_fuzz.a" -o "$bin" || { flock -u 9; return 1; }
    fi
  done
  flock -u 9
}

# Only the core's sources that exist now (others edit the tree concurrently): drop stale objects.
for obj in "$out"/obj/*.o; do
  [ -e "$obj" ] || continue
  name=$(basename "${obj%.o}")
  [ -f "src/relpos/${name//__//}.cpp" ] || rm -f "$obj" "${obj%.o}.d"
done
if ! build; then
  echo "fuzz: build failed" >&2
  for t in "${targets[@]}"; do write_report "$t" failed 0 1 0; done
  exit 1
fi
[ "$mode" = build ] && exit 0

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fuzz_flags=(-timeout=20 -rss_limit_mb=3072 -malloc_limit_mb=1536 -dict=tests/fuzz/relpos.dict -print_final_stats=1)

node tests/fuzz/seeds.mjs "$out/seeds" >/dev/null || exit 1
status=0
for t in "${targets[@]}"; do
  bin="$out/fuzz_$t"
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t" "tests/fuzz/regressions/$t"
  log="$out/$t.log"
  : >"$log"
  target_status=passed
  findings=0
  execs=0
  started=$(date +%s)
  # 1. Regressions: every input that once crashed must now run clean.
  mapfile -t regressions < <(find "tests/fuzz/regressions/$t" -type f ! -name '.*' ! -name '*.md' | sort)
  if [ ${#regressions[@]} -gt 0 ]; then
    if "$bin" "${fuzz_flags[@]}" "${regressions[@]}" >>"$log" 2>&1; then
      execs=${#regressions[@]}
    else
      target_status=failed
      findings=1
      echo "fuzz $t: a regression input crashes again (see $log)"
    fi
  fi
  # 2. Fuzzing from the seeds, the saved corpus and the regressions.
  if [ "$seconds" -gt 0 ] && [ "$target_status" = passed ]; then
    nice "$bin" "${fuzz_flags[@]}" -max_total_time="$seconds" -runs="$runs" -artifact_prefix="$out/artifacts/$t/" \
      "$out/corpus/$t" "$out/seeds/$t" "tests/fuzz/regressions/$t" >>"$log" 2>&1
    rc=$?
    executed=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
    execs=$((execs + ${executed:-0}))
    if [ "$rc" -ne 0 ]; then
      target_status=failed
      findings=$((findings + 1))
      echo "fuzz $t: FINDING (exit $rc); input: $(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | cut -d' ' -f5)"
      grep -m3 -E "FUZZ FINDING|ERROR: AddressSanitizer|runtime error|ERROR: libFuzzer" "$log" | sed 's/^/    /'
    fi
  fi
  elapsed=$(( $(date +%s) - started ))
  echo "fuzz $t: $target_status ($execs execs in ${elapsed} s, $findings findings; log $log)"
  write_report "$t" "$target_status" "$execs" "$findings" "$elapsed"
  [ "$target_status" = passed ] || status=1
done
if [ "$mode" = long ]; then
  node scripts/fuzz-report.mjs "$report" docs/fuzzing.md "$runs" "$seconds" || status=1
fi
exit $status
