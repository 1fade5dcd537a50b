// Sums the native (CTest) and Vitest results into the closing line "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

const [ctestLog, vitestJson] = process.argv.slice(2);

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

const native = ctestCounts(ctestLog);
const js = vitestCounts(vitestJson);
// A test file that failed to load counts as one failure (it ran no test).
const failed = native.failed + js.failed + (js.brokenFiles ?? 0);
const passed = native.passed + js.passed;
console.log(`suites: native ${native.passed} passed / ${native.failed} failed; vitest ${js.passed} passed / ${js.failed} failed / ${js.skipped} skipped`);
console.log(`${passed} passed, ${failed} failed, ${js.skipped} skipped`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
