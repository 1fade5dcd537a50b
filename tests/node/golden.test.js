// Conformance: every golden case of shared/golden must match through the public API. A case whose
// scheme is not in the catalogue is reported as "not yet implemented" (skipped, never passed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { callFor, compare, goldenCases, implementingScheme, sameShape } from './golden.js';

const cases = goldenCases();
const status = new Map(); // scheme → { passed, failed, notImplemented }

function record(scheme, outcome) {
  const entry = status.get(scheme) ?? { passed: 0, failed: 0, notImplemented: 0 };
  entry[outcome] += 1;
  status.set(scheme, entry);
}

let rp;
beforeAll(async () => {
  rp = await load();
});

afterAll(() => {
  const lines = [...status].map(([scheme, s]) => {
    const verdict = s.failed ? 'FAILED' : s.notImplemented ? 'not yet implemented' : 'passed';
    return `  ${scheme.padEnd(20)} ${verdict} (${s.passed} passed, ${s.failed} failed, ${s.notImplemented} not implemented)`;
  });
  console.log(`golden conformance by scheme:\n${lines.join('\n')}`);
});

describe('golden vectors', () => {
  it('covers every file of the fixtures', () => {
    expect(cases.length).toBeGreaterThanOrEqual(70);
  });

  for (const testCase of cases) {
    const scheme = implementingScheme(testCase);
    it(`${testCase.file}`, async (context) => {
      // Attention with a given B / P exercises the mode itself, which always exists.
      const known = scheme.startsWith('attention-') || rp.schemes.some((s) => s.id === scheme);
      if (!known) {
        record(scheme, 'notImplemented');
        context.skip(`${scheme}: not yet implemented`);
        return;
      }
      let verdict;
      try {
        const got = callFor(testCase)(rp);
        expect(sameShape(got.shape, testCase.shape), `shape [${got.shape}] vs [${testCase.shape}]`).toBe(true);
        verdict = compare(Array.from(got.data), testCase.data, testCase.tol);
      } catch (error) {
        record(scheme, 'failed');
        throw error;
      }
      record(scheme, verdict.ok ? 'passed' : 'failed');
      expect(verdict.ok, verdict.reason).toBe(true);
    });
  }
});
