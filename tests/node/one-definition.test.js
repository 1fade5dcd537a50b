// One quantity, one definition: a quantity the chapter names in two places — two
// sections, or a section's figure and a claim sentence — comes from one function. QUANTITIES lists
// them with the function that defines each; the test follows the calls of every place that shows the
// quantity (a section's mount code, a claim's check) through verdicts.js and claims.js and fails when
// one of them does not reach that function. 2.1.8's bias readout and 2.1.9's "Bounded?" column are
// also compared number for number.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { biasReadout, summaryRow } from '../../web/tutorial/verdicts.js';

const read = (path) => readFileSync(new URL(`../../web/tutorial/${path}`, import.meta.url), 'utf8');
const VERDICTS = read('verdicts.js');
const CLAIMS_JS = read('claims.js');

/**
 * Where each quantity is shown, and the one function that defines it. A place is a section file
 * ('sections/s218.js') or a claim ('claim:s218.claim.biasGrowth').
 */
export const QUANTITIES = {
  // Growth and boundedness of a bias: 2.1.8's readout and claim, 2.1.9's column.
  bounded: {
    definition: 'boundedness',
    places: ['sections/s218.js', 'sections/s219.js', 'claim:s218.claim.biasGrowth'],
  },
  // "Decays?": 2.1.9's column (2.1.7's RoFormer bound is another quantity, named "long-range decay bound").
  decays: { definition: 'decay', places: ['sections/s219.js'] },
  // Numerical rank of the position matrix: 2.1.4's readout and its three claims.
  rank: {
    definition: 'spectrum',
    places: [
      'sections/s214.js',
      'claim:s214.claim.rankAtMostD',
      'claim:s214.claim.noCondition',
      'claim:s214.claim.rebuildAtRank',
    ],
  },
  // The reproduction's ranking by mean reciprocal rank: 2.1.2 and 2.1.9 (the lab page shows the file's).
  ranking: {
    definition: 'meanReciprocalRank',
    places: ['claim:s212.claim.reproduction', 'claim:s219.claim.proxy', 'claim:s219.claim.practical'],
  },
  // PSD / CPD of one object: 2.1.4's claim, 2.1.5's demo, 2.1.9's columns and claim.
  kernel: {
    definition: 'rp.analysis.kernelCheck',
    places: ['sections/s215.js', 'sections/s219.js', 'claim:s214.claim.oddNotKernel', 'claim:s219.claim.cpd'],
  },
  // Translation invariance: 2.1.2's demo and claims, 2.1.9's column.
  invariant: {
    definition: 'rp.analysis.translationDefect',
    places: ['sections/s212.js', 'sections/s219.js', 'claim:s212.claim.relativeInvariant'],
  },
  // Inside the trained range: 2.1.7's claim, 2.1.9's column and claim.
  extrapolates: {
    definition: 'extrapolation',
    places: ['sections/s219.js', 'claim:s217.claim.extrapolationTest', 'claim:s219.claim.proxy'],
  },
};

/** Top-level functions of a module's text: name → body (up to the next top-level declaration). */
function functions(text) {
  const starts = [...text.matchAll(/^(?:export )?(?:async )?(?:function\s+(\w+)|const\s+(\w+)\s*=)/gm)];
  return Object.fromEntries(
    starts.map((m, k) => [m[1] ?? m[2], text.slice(m.index, starts[k + 1]?.index ?? text.length)]),
  );
}

const GRAPH = { ...functions(VERDICTS), ...functions(CLAIMS_JS) };

/** The text of a place: a section file, or one claim's entry of the ledger. */
function placeText(place) {
  if (!place.startsWith('claim:')) return read(place);
  const key = place.slice('claim:'.length);
  const start = CLAIMS_JS.indexOf(`'${key}':`);
  expect(start, key).toBeGreaterThan(0);
  const next = CLAIMS_JS.slice(start + 1).search(/\n {2}'s2\d\d\.claim\.|\n};/);
  return CLAIMS_JS.slice(start, start + 1 + next);
}

/** Whether `text` calls `target`, directly or through the functions of verdicts.js and claims.js. */
function reaches(text, target, seen = new Set()) {
  // A call of `name`, not of a method of that name (x.name(…)); a spread (...name(…)) counts.
  const call = (name) => new RegExp(`(?<!\\w)(?<![\\w)\\]]\\.)${name.replaceAll('.', '\\.')}\\s*\\(`).test(text);
  if (target.includes('.') ? text.includes(`${target}(`) : call(target)) return true;
  for (const [name, body] of Object.entries(GRAPH)) {
    if (seen.has(name) || !call(name)) continue;
    seen.add(name);
    if (reaches(body, target, seen)) return true;
  }
  return false;
}

describe('one quantity, one definition', () => {
  for (const [quantity, { definition, places }] of Object.entries(QUANTITIES)) {
    it(`${quantity}: every place that shows it calls ${definition}`, () => {
      // Defined in verdicts.js or claims.js, or imported there from the package (bindings/).
      const imported = new RegExp(`import \\{[^}]*\\b${definition}\\b[^}]*\\} from '\\.\\./\\.\\./bindings/`);
      if (!definition.includes('.')) {
        expect(Boolean(GRAPH[definition]) || imported.test(CLAIMS_JS + VERDICTS), definition).toBe(true);
      }
      for (const place of places) expect(reaches(placeText(place), definition), `${place} → ${definition}`).toBe(true);
    });
  }

  it('the graph walk sees a wrong definition: a growth ratio of its own does not reach boundedness', () => {
    const own = 'const g = rp.bias(id, { n: 256 }); growth.set(maxAbs(g.data) / maxAbs(small.data));';
    expect(reaches(own, 'boundedness')).toBe(false);
    expect(reaches('const row = summaryRow(rp, info, { n, L });', 'boundedness')).toBe(true);
  });

  it('2.1.8’s bias readout and 2.1.9’s Bounded? column give the same verdict and number for every scheme of the figure', async () => {
    const rp = await load({ analysis: true });
    const ids = [
      ...read('sections/s218.js')
        .match(/GROWTH_SCHEMES = \[([^\]]+)\]/)[1]
        .matchAll(/'([\w-]+)'/g),
    ].map((m) => m[1]);
    expect(ids).toEqual(expect.arrayContaining(['alibi', 't5', 'sandwich', 'exp-decay']));
    for (const id of ids) {
      const info = rp.schemes.find((s) => s.id === id);
      const table = summaryRow(rp, info, { n: 64, L: 32 }).bounded;
      const readout = biasReadout(rp, id).bounded;
      expect(readout, id).toEqual(table);
    }
    // T5 and Sandwich are bounded in both (2.1.8 used to mark them "grows" from n = 64 to 256).
    expect(biasReadout(rp, 't5').bounded.verdict).toBe(true);
    expect(biasReadout(rp, 'sandwich').bounded.verdict).toBe(true);
    // The head shown is named: ALiBi's one head has slope 1/256.
    expect(biasReadout(rp, 'alibi').slope).toBe(1 / 256);
  });
});
