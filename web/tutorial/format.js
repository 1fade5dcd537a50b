// Number formatting of the chapter's text and readouts (shared by the page and the claim checks, so
// a number in a sentence is written the same way in both). No DOM.

/** Significant digits; exponent form for very small / large; a real minus sign. */
export function fmt(x, digits = 3) {
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const text = a < 1e-3 || a >= 1e6 ? x.toExponential(digits - 1) : Number(x.toPrecision(digits)).toString();
  return text.replaceAll('-', '−'); // the exponent's sign too: 1e−6, never 1e-6
}

/** A percentage with one decimal: 0.2123 → "21.2". */
export function pct(x) {
  return (x * 100).toFixed(1);
}
