// Playground state in the URL hash, TensorFlow-Playground style: `#scheme=alibi&n=64&p.alibiBiasMax=4`.
// decodeHash never throws and never returns anything a schema did not allow: unknown keys, wrong
// types, out-of-range numbers, over-long input and malformed escapes are dropped, so a hostile link
// can only ever select valid settings. Values are plain strings / numbers / booleans (no markup is
// produced here; pages still set them via attributes and textContent).

const MAX_HASH = 4096;
const MAX_VALUE = 256;
const KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const SAFE_STRING = /^[A-Za-z0-9_.,:+-]{0,128}$/;

function safeDecode(text) {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Raw key → string pairs of a hash (or query) string; malformed pieces are skipped. */
export function parseHashPairs(hash) {
  const pairs = new Map();
  if (typeof hash !== 'string') return pairs;
  const text = hash.length > MAX_HASH ? '' : hash.replace(/^#/, '');
  for (const piece of text.split('&')) {
    if (!piece) continue;
    const at = piece.indexOf('=');
    const key = safeDecode(at < 0 ? piece : piece.slice(0, at));
    const value = at < 0 ? '' : safeDecode(piece.slice(at + 1));
    if (key === null || value === null || !KEY.test(key) || value.length > MAX_VALUE) continue;
    pairs.set(key, value);
  }
  return pairs;
}

/**
 * Coerces one raw string by a field spec:
 * { type: 'number' | 'integer', min?, max? } | { type: 'boolean' } | { type: 'choice', choices } | { type: 'string', pattern? }.
 * Returns undefined when the value does not fit.
 */
export function coerce(raw, spec) {
  if (typeof raw !== 'string' || !spec) return undefined;
  switch (spec.type) {
    case 'number':
    case 'integer': {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw.trim())) return undefined;
      const v = Number(raw);
      if (!Number.isFinite(v) || (spec.type === 'integer' && !Number.isInteger(v))) return undefined;
      if ((spec.min != null && v < spec.min) || (spec.max != null && v > spec.max)) return undefined;
      return v === 0 ? 0 : v; // −0 reads as 0, as it is written back
    }
    case 'boolean':
      return raw === 'true' || raw === '1' || raw === '' ? true : raw === 'false' || raw === '0' ? false : undefined;
    case 'choice':
      return Array.isArray(spec.choices) && spec.choices.includes(raw) ? raw : undefined;
    case 'string':
      return (spec.pattern ?? SAFE_STRING).test(raw) ? raw : undefined;
    default:
      return undefined;
  }
}

/**
 * Decodes a hash with a schema { key: spec }. Keys may also be matched by a prefix rule:
 * `prefixes: { 'p.': (name) => spec | undefined }` (scheme parameters whose specs depend on the scheme).
 * Returns a null-prototype object holding only valid fields.
 */
export function decodeHash(hash, schema = {}, prefixes = {}) {
  const out = Object.create(null);
  let pairs;
  try {
    pairs = parseHashPairs(hash);
  } catch {
    return out;
  }
  for (const [key, raw] of pairs) {
    let value;
    if (Object.hasOwn(schema, key)) {
      value = coerce(raw, schema[key]);
    } else {
      const prefix = Object.keys(prefixes).find((p) => key.startsWith(p) && key.length > p.length);
      if (!prefix) continue;
      let spec;
      try {
        spec = prefixes[prefix](key.slice(prefix.length));
      } catch {
        spec = undefined;
      }
      value = coerce(raw, spec);
    }
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** `#k=v&…` for the defined, finite, JSON-scalar fields of `state` (insertion order). */
export function encodeHash(state) {
  const parts = [];
  for (const [key, value] of Object.entries(state ?? {})) {
    if (!KEY.test(key) || value === undefined || value === null) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    if (!['string', 'number', 'boolean'].includes(typeof value)) continue;
    const text = String(value);
    if (text.length > MAX_VALUE) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.length ? `#${parts.join('&')}` : '';
}
