// Reads the golden reference vectors (tests/fixtures/golden, copied from shared/golden) and maps
// each case onto the public API call its kind names (see the fixtures' README).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const goldenDir = fileURLToPath(new URL('../fixtures/golden/', import.meta.url));

export function goldenCases() {
  return readdirSync(goldenDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...JSON.parse(readFileSync(goldenDir + file, 'utf8')) }));
}

// Arrays listed in params.shapes become tensors; everything else passes as given.
export function apiOptions(params) {
  const { shapes = {}, ...rest } = params;
  const out = {};
  for (const [name, value] of Object.entries(rest)) {
    out[name] = shapes[name] ? { shape: shapes[name], data: Float32Array.from(value) } : value;
  }
  return out;
}

// Which public call a case needs, as (rp) => { shape, data }.
export function callFor(testCase) {
  const { scheme, kind } = testCase;
  const options = apiOptions(testCase.params);
  switch (kind) {
    case 'encoding':
      return (rp) => rp.encoding(scheme, options);
    case 'bias':
      return (rp) => rp.bias(scheme, options);
    case 'bucket':
      return (rp) => rp.buckets(scheme, options);
    case 'scores':
      return (rp) => rp.scores(scheme, options);
    case 'inv_freq':
      return (rp) => {
        const { invFreq } = rp.frequencies(scheme, options);
        return { shape: [invFreq.length], data: invFreq };
      };
    case 'attention_factor':
      return (rp) => ({ shape: [1], data: [rp.frequencies(scheme, options).attentionFactor] });
    case 'rotate': {
      const { x, ...rest } = options;
      return (rp) => rp.rotate(x, { scheme, ...rest });
    }
    case 'attention_weights': {
      const { return: wanted, ...rest } = options;
      const mode = rest.mode ?? scheme.replace(/^attention-/, '');
      return (rp) => rp.attention({ ...rest, mode })[wanted];
    }
    default:
      throw new Error(`unknown golden kind '${kind}'`);
  }
}

// The scheme whose implementation a case exercises (attention cases name it inside params).
export function implementingScheme(testCase) {
  if (testCase.kind !== 'attention_weights') return testCase.scheme;
  return testCase.params.scheme ?? testCase.scheme;
}

// Worst violation of |got − want| ≤ abs + rel·|want|; null in `want` means −∞ exactly.
export function compare(got, want, tol) {
  let worst = { index: -1, excess: 0, got: undefined, want: undefined };
  if (got.length !== want.length) return { ok: false, reason: `length ${got.length}, expected ${want.length}` };
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    const g = got[i];
    if (w === null) {
      if (g !== -Infinity) return { ok: false, reason: `[${i}] = ${g}, expected -Infinity` };
      continue;
    }
    const excess = Math.abs(g - w) - (tol.abs + tol.rel * Math.abs(w));
    if (!(excess <= 0) && (worst.index < 0 || !(excess <= worst.excess))) worst = { index: i, excess, got: g, want: w };
  }
  if (worst.index >= 0) {
    return {
      ok: false,
      reason: `[${worst.index}] = ${worst.got}, expected ${worst.want} (tol ${JSON.stringify(tol)})`,
    };
  }
  return { ok: true };
}

// Shapes agree once leading singleton axes are dropped ([1, n, n] ~ [n, n]).
export function sameShape(a, b) {
  const squeeze = (s) => {
    const out = s.slice();
    while (out.length > 1 && out[0] === 1) out.shift();
    return out.join('x');
  };
  return squeeze(a) === squeeze(b);
}
