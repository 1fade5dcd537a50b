// URL-hash state of the playground: round trips, and garbage / hostile hashes never throw and never
// yield a value the schema does not allow.
import { describe, expect, it } from 'vitest';
import { coerce, decodeHash, encodeHash, parseHashPairs } from '../../web/components/hash-state.js';

const schema = {
  scheme: { type: 'choice', choices: ['alibi', 'rope', 't5'] },
  view: { type: 'choice', choices: ['bias', 'scores', 'weights', 'buckets', 'distances'] },
  n: { type: 'integer', min: 4, max: 4096 },
  causal: { type: 'boolean' },
  label: { type: 'string' },
};
const params = {
  'p.': (name) =>
    ({
      alibiBiasMax: { type: 'number', min: 0, max: 1e6 },
      form: { type: 'choice', choices: ['symmetric', 'keyPosition'] },
    })[name],
};

describe('hash state', () => {
  it('round-trips a state', () => {
    const state = {
      scheme: 'alibi',
      view: 'weights',
      n: 256,
      causal: true,
      label: 'a-b_c.1',
      'p.alibiBiasMax': 4.5,
      'p.form': 'keyPosition',
    };
    const hash = encodeHash(state);
    expect(hash.startsWith('#')).toBe(true);
    expect({ ...decodeHash(hash, schema, params) }).toEqual(state);
  });

  it('skips undefined, non-finite and non-scalar values when encoding', () => {
    expect(encodeHash({ a: undefined, b: null, c: Infinity, d: { x: 1 }, e: 3 })).toBe('#e=3');
    expect(encodeHash({})).toBe('');
    expect(encodeHash(null)).toBe('');
  });

  it('drops invalid fields and keeps the valid ones', () => {
    const state = decodeHash(
      '#scheme=nope&n=3&view=scores&causal=maybe&p.alibiBiasMax=-1&p.unknown=2&p.form=keyPosition',
      schema,
      params,
    );
    expect({ ...state }).toEqual({ view: 'scores', 'p.form': 'keyPosition' });
  });

  it('survives garbage and hostile input', () => {
    const hostile = [
      '#%E0%A4%A',
      '#%',
      '#==&&==',
      '#n=1e999',
      '#n=0x40',
      '#n=64abc',
      '#n= 64',
      '#n=64.5',
      '#__proto__=1&constructor=2&n=8',
      `#label=${encodeURIComponent('<img src=x onerror=alert(1)>')}`,
      `#label=${encodeURIComponent('"><script>alert(1)</script>')}`,
      `#scheme=${'a'.repeat(10000)}`,
      `#${'x=1&'.repeat(5000)}`,
      '#scheme=alibi&scheme=rope',
      'no-hash-at-all',
      '',
      '#',
      '#p.=1&p.__proto__=3',
      `#label=${encodeURIComponent('javascript:alert(1)')}`,
    ];
    for (const hash of hostile) {
      const state = decodeHash(hash, schema, params);
      expect(Object.getPrototypeOf(state)).toBe(null);
      for (const [key, value] of Object.entries(state)) {
        expect(Object.hasOwn(schema, key) || key.startsWith('p.')).toBe(true);
        expect(typeof value === 'string' ? /[<>"'\s()]/.test(value) : false).toBe(false);
      }
    }
    expect(decodeHash('#n=1e999', schema).n).toBeUndefined();
    expect(decodeHash('#scheme=alibi&scheme=rope', schema).scheme).toBe('rope');
    expect({}.polluted).toBeUndefined();
    for (const weird of [undefined, null, 42, {}, []]) expect(() => decodeHash(weird, schema)).not.toThrow();
    expect(() =>
      decodeHash('#p.x=1', schema, {
        'p.': () => {
          throw new Error('boom');
        },
      }),
    ).not.toThrow();
  });

  it('parses pairs and coerces by spec', () => {
    expect([...parseHashPairs('#a=1&b&c=x%20y')]).toEqual([
      ['a', '1'],
      ['b', ''],
      ['c', 'x y'],
    ]);
    expect(coerce('true', { type: 'boolean' })).toBe(true);
    expect(coerce('0', { type: 'boolean' })).toBe(false);
    expect(coerce('12', { type: 'integer', min: 0, max: 10 })).toBeUndefined();
    expect(coerce('2.5e-1', { type: 'number' })).toBe(0.25);
    expect(coerce('x', { type: 'nope' })).toBeUndefined();
  });
});
