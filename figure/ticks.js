// Axis and colorbar ticks at "nice" numbers (1, 2, 5 × 10^k) and number formatting shared by the
// components and the exporters. Pure functions: no DOM.

/** A nice step (1, 2, 5 × 10^k) giving about `count` intervals over `span`. */
export function niceStep(span, count = 5) {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const nice = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  return nice * magnitude;
}

function decimalsOf(step) {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/** Tick values inside [lo, hi] at multiples of a nice step, about `count` of them. */
export function niceTicks(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo > hi) [lo, hi] = [hi, lo];
  if (lo === hi) return [lo];
  const step = niceStep(hi - lo, count);
  const decimals = decimalsOf(step);
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  const ticks = [];
  for (let k = first; k <= last && ticks.length < 1000; k++) {
    const v = Number((k * step).toFixed(Math.min(20, decimals)));
    ticks.push(Object.is(v, -0) ? 0 : v);
  }
  return ticks;
}

/** Integer ticks (cell indices) inside [lo, hi]: nice steps of at least 1. */
export function integerTicks(lo, hi, count = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const step = Math.max(1, niceStep(hi - lo, count));
  const ticks = [];
  for (let k = Math.ceil(lo / step); k * step <= hi && ticks.length < 1000; k++) ticks.push(k * step);
  return ticks;
}

/** Powers of ten inside [lo, hi] (log axes); falls back to niceTicks when the range spans < 1 decade. */
export function logTicks(lo, hi) {
  if (!(lo > 0) || !(hi > 0)) return [];
  const a = Math.ceil(Math.log10(lo) - 1e-9);
  const b = Math.floor(Math.log10(hi) + 1e-9);
  if (b - a < 1) return niceTicks(lo, hi, 4);
  const every = Math.max(1, Math.ceil((b - a + 1) / 8));
  const ticks = [];
  for (let e = a; e <= b; e += every) ticks.push(Number(`1e${e}`));
  return ticks;
}

/** A short, exact-enough label for a tick or a readout value. −∞ is spelled `masked`. */
export function formatNumber(v, masked = '−∞') {
  if (v === -Infinity) return masked;
  if (v === Infinity) return '∞';
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  const a = Math.abs(v);
  // A real minus sign everywhere, the exponent's too (2.1e−6, as the chapter's fmt writes it).
  if (a >= 1e5 || a < 1e-3) return v.toExponential(2).replace('e+', 'e').replaceAll('-', '−');
  return String(Number(v.toPrecision(5))).replace('-', '−');
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/**
 * An axis tick label: plain digits from 0.001 to 99999, else a power of ten (10⁻⁴, 2×10⁻⁶, 5×10⁵), so log
 * axes never collapse small ticks to "0". `null` (a tick an axis leaves out) stays null.
 */
export function formatTick(v) {
  if (v == null) return null;
  if (!Number.isFinite(v)) return formatNumber(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e5) return String(Number(v.toPrecision(6))).replace('-', '−');
  const [mantissa, exponent] = v.toExponential(5).split('e');
  const m = String(Number(mantissa)).replace('-', '−');
  const power = `10${String(Number(exponent))
    .split('')
    .map((c) => SUPERSCRIPT[c])
    .join('')}`;
  return m === '1' ? power : m === '−1' ? `−${power}` : `${m}×${power}`;
}
