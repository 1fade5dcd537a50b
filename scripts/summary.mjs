// Sums the native (CTest), Vitest and fuzz (scripts/fuzz.sh, one test per target) results into the
// closing line "N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';

const [ctestLog, vitestJson, fuzzJson] = process.argv.slice(2);

function ctestCounts(path) {
  if (!existsSync(path)) return { passed: 0, failed: 1, skipped: 0 };
  const text = readFileSync(path, 'utf8');
  const match = text.match(/(\d+)% tests passed, (\d+) tests failed out of (\d+)/);
  if (!match) return { passed: 0, failed: 1, skipped: 0 };
  const failed = Number(match[2]);
  return { passed: Number(match[3]) - failed, failed, skipped: 0 };
}

function vitestCounts(path) {
  if (!existsSync(path)) return { passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(readFileSync(path, 'utf8'));
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    brokenFiles: report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length,
  };
}

// scripts/fuzz.sh's report: { target: { status, execs, findings } }, one test per target.
function fuzzCounts(path) {
  if (!path) return { passed: 0, failed: 0, skipped: 0, targets: [] };
  if (!existsSync(path)) return { passed: 0, failed: 1, skipped: 0, targets: [] };
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const targets = Object.entries(report);
  const passed = targets.filter(([, t]) => t.status === 'passed').length;
  return { passed, failed: targets.length - passed, skipped: 0, targets };
}

const native = ctestCounts(ctestLog);
const fuzz = fuzzCounts(fuzzJson);
const js = vitestCounts(vitestJson);
// A test file that failed to load counts as one failure (it ran no test).
const failed = native.failed + js.failed + (js.brokenFiles ?? 0) + fuzz.failed;
const passed = native.passed + js.passed + fuzz.passed;
const fuzzText = fuzzJson
  ? `; fuzz ${fuzz.passed} passed / ${fuzz.failed} failed (${fuzz.targets.map(([name, t]) => `${name} ${t.execs} execs`).join(', ')})`
  : '';
console.log(
  `suites: native ${native.passed} passed / ${native.failed} failed; vitest ${js.passed} passed / ${js.failed} failed / ${js.skipped} skipped${fuzzText}`,
);
console.log(`${passed} passed, ${failed} failed, ${js.skipped} skipped`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
