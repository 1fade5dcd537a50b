// The joint domain of a figure: the product of all of its controls (every step of every slider at every
// setting of every checkbox, form and scheme selector). A claim the page states next to a figure is
// checked over this product, not one slider at a time: exhaustively when the product is
// small enough, else at every corner, along every slider at every discrete setting, and at random
// joint settings drawn by fast-check.
//
// A control is a slider { value, min, max, step } or a discrete control { value, options: [...] }
// (a checkbox is { value: false, options: [false, true] }). web/tutorial/claims.js describes each
// claim's controls this way.
import fc from 'fast-check';
import { controlValues } from '../../web/tutorial/claims.js';

const isDiscrete = (control) => Array.isArray(control.options);

/** Every value a reader can set the control to. */
export const valuesOf = (control) => (isDiscrete(control) ? [...control.options] : controlValues(control));

/** The number of settings in the product of the controls. */
export const jointSize = (controls) => Object.values(controls).reduce((size, c) => size * valuesOf(c).length, 1);

/** The defaults of the controls. */
export const defaultsOf = (controls) => Object.fromEntries(Object.entries(controls).map(([k, c]) => [k, c.value]));

/** The product of the given value lists, as settings objects. */
function product(lists) {
  let out = [{}];
  for (const [name, values] of lists) out = out.flatMap((s) => values.map((v) => ({ ...s, [name]: v })));
  return out;
}

/** Every setting of the controls: the whole product. */
export const jointDomain = (controls) => product(Object.entries(controls).map(([k, c]) => [k, valuesOf(c)]));

/** Every corner: each slider at its min and max, each discrete control at every option. */
export const corners = (controls) =>
  product(Object.entries(controls).map(([k, c]) => [k, isDiscrete(c) ? [...c.options] : [...new Set([c.min, c.max])]]));

/**
 * When the product is too large to enumerate: every corner, and at every setting of the discrete
 * controls each slider over all of its steps with the other sliders at their defaults and at their
 * corners (all minima and all maxima when there are more than two others).
 */
export function sweepSettings(controls) {
  const entries = Object.entries(controls);
  const discrete = entries.filter(([, c]) => isDiscrete(c));
  const sliders = entries.filter(([, c]) => !isDiscrete(c));
  const out = [...corners(controls)];
  for (const base of product(discrete.map(([k, c]) => [k, [...c.options]]))) {
    for (const [name, c] of sliders) {
      const others = sliders.filter(([k]) => k !== name);
      // The other sliders at their defaults and at their corners (with more than two others, at all
      // minima and all maxima: the corners of many sliders are already in `out`).
      const rests = [
        Object.fromEntries(others.map(([k, o]) => [k, o.value])),
        ...(others.length <= 2
          ? product(others.map(([k, o]) => [k, [o.min, o.max]]))
          : [
              Object.fromEntries(others.map(([k, o]) => [k, o.min])),
              Object.fromEntries(others.map(([k, o]) => [k, o.max])),
            ]),
      ];
      for (const rest of rests) for (const v of controlValues(c)) out.push({ ...base, ...rest, [name]: v });
    }
  }
  const seen = new Set();
  return out.filter((s) => {
    const key = JSON.stringify(Object.keys(controls).map((k) => s[k]));
    return seen.has(key) ? false : seen.add(key);
  });
}

/** A fast-check arbitrary over the product: any reachable value of each control. */
export const jointArbitrary = (controls) =>
  fc.record(Object.fromEntries(Object.entries(controls).map(([k, c]) => [k, fc.constantFrom(...valuesOf(c))])));

/**
 * Runs `check(setting)` over the joint domain of `controls`. The check throws (an expect) or returns
 * false where the claim fails. Enumerates the whole product up to `limit` settings; beyond it, the
 * sweep of `sweepSettings` and `runs` random joint settings. Returns how it covered the domain.
 */
export async function forJointDomain(controls, check, { limit = 4000, runs = 24, seed = 39 } = {}) {
  const size = jointSize(controls);
  const exhaustive = size <= limit;
  const settings = exhaustive ? jointDomain(controls) : sweepSettings(controls);
  const run = async (setting) => {
    const ok = await check(setting);
    if (ok === false) throw new Error(`fails at ${JSON.stringify(setting)}`);
  };
  for (const setting of settings) await run(setting);
  if (!exhaustive) {
    await fc.assert(
      fc.asyncProperty(jointArbitrary(controls), (s) => run(s)),
      { numRuns: runs, seed },
    );
  }
  return { size, exhaustive, checked: settings.length + (exhaustive ? 0 : runs) };
}
