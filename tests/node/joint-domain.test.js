// The joint-domain helper (tests/node/joint-domain.js) covers the whole product of a figure's controls.
import { describe, expect, it } from 'vitest';
import { corners, forJointDomain, jointDomain, jointSize, sweepSettings } from './joint-domain.js';

const figure = {
  n: { value: 24, min: 8, max: 64, step: 4 },
  causal: { value: false, options: [false, true] },
  form: { value: 'modern', options: ['modern', 'seed'] },
};

describe('the joint domain', () => {
  it('is the whole product of slider steps and discrete settings', () => {
    expect(jointSize(figure)).toBe(15 * 2 * 2);
    const all = jointDomain(figure);
    expect(new Set(all.map((s) => JSON.stringify(s))).size).toBe(60);
    expect(all).toContainEqual({ n: 8, causal: true, form: 'seed' });
  });

  it('has every corner', () => {
    expect(corners(figure)).toHaveLength(2 * 2 * 2);
    expect(corners(figure)).toContainEqual({ n: 64, causal: true, form: 'seed' });
  });

  it('finds a failure that only shows with a box ticked at one slider step', async () => {
    const check = (s) => !(s.causal && s.form === 'seed' && s.n === 12);
    await expect(forJointDomain(figure, check)).rejects.toThrow(/"n":12,"causal":true,"form":"seed"/);
  });

  it('beyond the limit, sweeps every slider at every discrete setting and every corner', async () => {
    const big = { ...figure, d: { value: 16, min: 4, max: 128, step: 4 } };
    const sweep = sweepSettings(big);
    for (const c of corners(big)) expect(sweep).toContainEqual(c);
    expect(sweep).toContainEqual({ n: 36, causal: true, form: 'seed', d: 128 });
    expect(sweep).toContainEqual({ n: 64, causal: false, form: 'seed', d: 52 });
    const seen = [];
    const cover = await forJointDomain(big, (s) => seen.push(s), { limit: 10, runs: 5 });
    expect(cover).toMatchObject({ exhaustive: false, checked: sweep.length + 5 });
    expect(seen.length).toBe(sweep.length + 5);
  });
});
