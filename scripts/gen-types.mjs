// Writes bindings/schemes.d.ts: the option types of every call, per scheme, generated from the core's
// own metadata (rp.schemes: each scheme's parameters with type, range, default and doc;
// rp.operations: each call's own options), so that `tsc --strict` refuses a parameter a scheme does
// not have (`theta`), a misspelt option (`sheme`) and an unknown scheme id.
//
//   node scripts/gen-types.mjs          regenerate bindings/schemes.d.ts (`npm run types`)
//   node scripts/gen-types.mjs --check  exit 1 when the file is not what the catalogue generates
//
// tests/node/types-generated.test.js runs the check inside `npm test`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

export const TARGET = fileURLToPath(new URL('../bindings/schemes.d.ts', import.meta.url));
// The JS side of the core's description of rp.attention's options (OpOption::roles).
export const TABLE_TARGET = fileURLToPath(new URL('../bindings/option-table.js', import.meta.url));

// 'rope-llama3' → 'RopeLlama3', 't5' → 'T5'.
const typeName = (id) =>
  id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
const quote = (text) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const literals = (values) => values.map(quote).join(' | ');
// A property name as TypeScript needs it.
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name));

/** The TypeScript type of one parameter or option, from its metadata. */
function tsType(info, schemeParamsType) {
  switch (info.type) {
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'choice':
      return literals(info.choices);
    case 'perHead':
      return 'number | readonly number[] | Float32Array';
    case 'array':
      if (info.items === 'string') return info.choices ? `readonly (${literals(info.choices)})[]` : 'readonly string[]';
      return 'TensorLike';
    case 'string':
      return 'string';
    case 'options':
      return schemeParamsType;
    default:
      return 'unknown';
  }
}

/** "integer, ≥ 1, ≤ 1048576, default 64" — what the metadata says beyond the doc. */
function range(info) {
  const parts = [];
  if (info.type === 'boolean') return info.default === null ? '' : ` (default ${info.default})`;
  if (info.integer) parts.push('integer');
  if (info.min !== null && info.min !== undefined) parts.push(`${info.exclusiveMin ? '>' : '≥'} ${info.min}`);
  if (info.max !== null && info.max !== undefined) parts.push(`≤ ${info.max}`);
  if (info.default !== null && info.default !== undefined) {
    parts.push(`default ${typeof info.default === 'string' ? quote(info.default) : info.default}`);
  }
  return parts.length ? ` (${parts.join(', ')})` : '';
}

// Options whose JS form is richer than the core's metadata says (the JS entry converts them).
const JS_TYPES = {
  mask: 'AttentionMask',
  out: 'Float32Array',
  layer: 'LayerGroup',
  temperatureTuning: 'TemperatureTuning',
};

function property(name, info, required = false, jsTypes = {}) {
  // An option the call reads in place when it is an rp.alloc tensor (rp.operations: inPlace).
  const inPlace = info.inPlace ? '; an rp.alloc tensor is read in place' : '';
  const doc = `${info.doc ?? ''}${inPlace}${range(info)}`.replaceAll('*/', '*\\/');
  const type = jsTypes[name] ?? (info.inPlace ? 'TensorLike | HeapTensor' : tsType(info, 'SchemeParams'));
  return `  /** ${doc} */\n  ${key(name)}${required ? '' : '?'}: ${type};\n`;
}

/** A KV cache step's options: rp.attention's, but those the cache holds (rp.operations: kvCache 'held'). */
function kvCacheStepType(attention) {
  const held = attention.options.filter((o) => o.kvCache === 'held').map((o) => o.name);
  return `
/** The options of a KV cache step (cache.attention(q, options)): rp.attention's but q (its first argument) and those the cache holds (${held.join(', ')}). */
export type KvCacheStepOptions<Id extends string = never> = Omit<AttentionOptionsOf<Id>, ${literals(['q', ...held])}>;
`;
}

/**
 * The declarations (property texts) that at least `least` of the lists share, each declared once in
 * an interface `${prefix}` (the second declaration of a name, of another type or doc, in
 * `${prefix}2`, …). A list is the declarations of one scheme's parameters or one call's options.
 * Returns text → [interface, name] and interface → its texts.
 */
function sharedDeclarations(lists, least, prefix) {
  const where = new Map();
  for (const list of lists) {
    for (const [name, text] of list) where.set(text, [name, (where.get(text)?.[1] ?? 0) + 1]);
  }
  const place = new Map();
  const interfaces = new Map();
  const variants = new Map();
  for (const [text, [name, times]] of where) {
    if (times < least) continue;
    variants.set(name, (variants.get(name) ?? 0) + 1);
    const iface = variants.get(name) === 1 ? prefix : `${prefix}${variants.get(name)}`;
    place.set(text, [iface, name]);
    interfaces.set(iface, [...(interfaces.get(iface) ?? []), text]);
  }
  return { place, interfaces };
}

// A call's own options: `scheme` and `params` are typed by the per-scheme types; an input (rotate's
// x) is the first argument.
function ownOptions(op) {
  return op.options.filter((o) => !['scheme', 'params', op.input].includes(o.name));
}

// The shared declarations as interfaces, and an object type of a list's declarations: the shared
// ones picked from their interface, the others inline.
function sharedTypes({ interfaces }, what) {
  let out = '';
  for (const [iface, texts] of interfaces) {
    const which = iface === [...interfaces.keys()][0] ? '' : ', under a name declared otherwise before';
    out += `/** ${what} declared alike in several places${which}, each declared once. */\n`;
    out += `interface ${iface} {\n${texts.join('')}}\n\n`;
  }
  return out;
}
function objectType(list, { place, interfaces }) {
  const picks = [...interfaces.keys()]
    .map((iface) => [iface, list.filter(([, text]) => place.get(text)?.[0] === iface).map(([name]) => quote(name))])
    .filter(([, names]) => names.length)
    .map(([iface, names]) => `Pick<${iface}, ${names.join(' | ')}> & `);
  const own = list.filter(([, text]) => !place.has(text)).map(([, text]) => text);
  return `${picks.join('')}{\n${own.join('')}}`;
}

/** The text of bindings/schemes.d.ts for this catalogue and operation table. */
export async function generate(schemes, operations) {
  let out = `// Generated by scripts/gen-types.mjs from rp.schemes and rp.operations: do not edit. \`npm run types\`
// regenerates it; tests/node/types-generated.test.js fails when it is not what the catalogue generates.
import type { AttentionMask, HeapTensor, LayerGroup, SchemeParams, TemperatureTuning, TensorLike } from './index.js';
import type { AttentionOptionsOf } from './option-types.js';

/** Every scheme id of rp.schemes. */
export type SchemeId = ${literals(schemes.map((s) => s.id))};

`;
  // A declaration several schemes or calls make alike (a grid's n, heads, causal) is typed once.
  const paramLists = schemes.map((scheme) =>
    Object.entries(scheme.params).map(([name, info]) => [name, property(name, info)]),
  );
  const callLists = new Map(
    operations.map((op) => {
      const jsTypes = op.name === 'attention' ? JS_TYPES : {};
      return [op.name, ownOptions(op).map((o) => [o.name, property(o.name, o, o.required, jsTypes)])];
    }),
  );
  const shared = sharedDeclarations([...paramLists, ...callLists.values()], 2, 'Shared');
  out += sharedTypes(shared, 'Parameters and call options');
  for (const [t, scheme] of schemes.entries()) {
    out += `/** ${scheme.name} (\`${scheme.id}\`, ${scheme.family}): its parameters as rp.schemes lists them. */\n`;
    // A type alias, not an interface: an object type alias is assignable to the loose SchemeParams
    // (a Record), so a reading's params still go where any scheme's parameters do.
    out += `export type ${typeName(scheme.id)}Params = ${objectType(paramLists[t], shared)};\n\n`;
  }
  out += "/** Each scheme's parameters by id. */\nexport interface SchemeParamsById {\n";
  for (const scheme of schemes) out += `  ${quote(scheme.id)}: ${typeName(scheme.id)}Params;\n`;
  out += '}\n\n';
  out += '/** The calls each scheme offers (rp.schemes: calls). */\nexport interface SchemeCallsById {\n';
  for (const scheme of schemes) out += `  ${quote(scheme.id)}: ${literals(scheme.calls)};\n`;
  out += '}\n\n';
  out += '/** The ids of the schemes that offer call Op. */\n';
  out +=
    'export type SchemesOffering<Op extends string> = { [Id in SchemeId]: Op extends SchemeCallsById[Id] ? Id : never }[SchemeId];\n\n';
  // Each call's own options and what it cannot do without, keyed by call: the generic CallOptionsFor
  // and CallOptionsOf (option-types.d.ts) read them, so no call repeats a block of its own.
  out += "/** Each call's own options (besides the scheme's parameters), as rp.operations lists them. */\n";
  out += 'export interface CallOptionsByName {\n';
  for (const op of operations) {
    out += `  /** rp.${op.name}: ${op.doc}. */\n`;
    out += `  ${op.name}: ${objectType(callLists.get(op.name), shared)};\n`;
  }
  out += '}\n\n';
  // A scheme's parameter wins over an option of the same name (it is what the call validates); what
  // the call cannot do without stays required.
  out += '/** The options each call cannot do without (rp.operations: required), by call. */\n';
  out += 'export interface RequiredOptionsByName {\n';
  for (const op of operations) {
    const required = ownOptions(op).filter((o) => o.required);
    out += `  ${op.name}: ${required.length ? literals(required.map((o) => o.name)) : 'never'};\n`;
  }
  out += '}\n\n';
  // Named, so that tsc reports an unsuitable id against a name (option-types.d.ts, CheckedId).
  out += '// The schemes that offer each call.\n';
  for (const op of operations) out += `export type ${typeName(op.name)}SchemeId = SchemesOffering<'${op.name}'>;\n`;
  out += '\n';

  // attention: a discriminated union on `scheme`, the scheme's parameters beside the call's options
  // or in `params`.
  const attention = operations.find((o) => o.name === 'attention');
  if (attention) out += kvCacheStepType(attention);
  const config = JSON.parse(readFileSync(new URL('../.prettierrc.json', import.meta.url), 'utf8'));
  return prettier.format(out, { ...config, parser: 'typescript' });
}

/**
 * The text of bindings/option-table.js: rp.attention's options as the core describes them
 * (rp.operations: type, what a layer sets, what is indexed by query row, how the KV cache, the
 * worker and the pool take each), the lists the JS entry reads from it, and the scheme parameters
 * named like an option of another meaning (rp.schemes), which rp.attention takes under `params`.
 */
export async function generateTable(schemes, operations) {
  const attention = operations.find((o) => o.name === 'attention');
  const roles = Object.fromEntries(
    attention.options.map((o) => [
      o.name,
      {
        type: o.type,
        layer: o.layer,
        queryRows: o.queryRows,
        kvCache: o.kvCache,
        worker: o.worker,
        pool: o.pool,
        sameInSchemes: o.sameInSchemes,
      },
    ]),
  );
  const named = {};
  for (const o of attention.options) {
    if (o.check === 'binding' || o.sameInSchemes) continue;
    const ids = schemes.filter((s) => s.params[o.name]?.affects.includes('attention')).map((s) => s.id);
    if (ids.length) named[o.name] = ids;
  }
  const list = (keep) => JSON.stringify(Object.keys(roles).filter((name) => keep(roles[name])));
  const out = `// Generated by scripts/gen-types.mjs from rp.operations and rp.schemes (the core's description of
// rp.attention's options, src/relpos/ops/operations.cpp: OpOption::roles): do not edit. \`npm run types\`
// regenerates it; tests/node/option-description.test.js fails when it is not what the core describes.

/**
 * rp.attention's options: { type, layer, queryRows, kvCache: 'step' | 'held' | 'shape', worker, pool,
 * sameInSchemes } (docs/attention.md, "The options and where they are taken").
 */
export const ATTENTION_OPTIONS = JSON.parse('${JSON.stringify(roles)}');

/** The options a layer group sets (rp.attention({ layer }), rp.kvCache({ layer })). */
export const LAYER_OPTIONS = ${list((o) => o.layer)};
/** The options indexed by query row: a part of the rows takes its rows of them. */
export const QUERY_ROW_OPTIONS = ${list((o) => o.queryRows)};
/** What a KV cache holds: a step naming them is refused. */
export const KV_CACHE_HELD = ${list((o) => o.kvCache === 'held')};
/** What a KV cache's shape fixes: a step may repeat the cache's value only. */
export const KV_CACHE_SHAPE = ${list((o) => o.kvCache === 'shape')};
/** What relpos/worker cannot carry (the page's own array, views into a heap). */
export const NOT_THROUGH_WORKER = ${list((o) => !o.worker)};
/** What a call split over workers does not take. */
export const NOT_POOLED = ${list((o) => !o.pool)};
/**
 * Scheme parameters named like an rp.attention option of another meaning, with the schemes that have
 * them: for those schemes the option keeps its meaning and the parameter goes under \`params\`.
 */
export const SCHEME_PARAMS_NAMED_LIKE_OPTIONS = ${JSON.stringify(named)};
`;
  const config = JSON.parse(readFileSync(new URL('../.prettierrc.json', import.meta.url), 'utf8'));
  return prettier.format(out, { ...config, parser: 'babel' });
}

const DOCS_TARGET = fileURLToPath(new URL('../docs/attention.md', import.meta.url));
const DOCS_BEGIN = '<!-- attention-options: generated by scripts/gen-types.mjs from rp.operations -->';
const DOCS_END = '<!-- /attention-options -->';

/** The option table of docs/attention.md, from the core's description (rp.operations). */
export function attentionOptionsTable(operations) {
  const attention = operations.find((o) => o.name === 'attention');
  const yes = (flag) => (flag ? 'yes' : '—');
  const cache = { step: 'each step', held: 'the cache’s own', shape: 'the cache’s value only' };
  const rows = attention.options.map(
    (o) =>
      `| \`${o.name}\` | ${o.type} | ${yes(o.layer)} | ${yes(o.queryRows)} | ${cache[o.kvCache]} | ${yes(o.worker)} | ${yes(o.pool)} |`,
  );
  return [
    DOCS_BEGIN,
    '| option | type | a layer sets it | by query row | KV cache step | through relpos/worker | pooled (`workers`) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    DOCS_END,
  ].join('\n');
}

// docs/attention.md with its option table regenerated (between DOCS_BEGIN and DOCS_END).
function docsWithTable(operations) {
  const text = readFileSync(DOCS_TARGET, 'utf8');
  const a = text.indexOf(DOCS_BEGIN);
  const b = text.indexOf(DOCS_END);
  if (a < 0 || b < a) throw new Error(`${DOCS_TARGET} has no ${DOCS_BEGIN} … ${DOCS_END} section`);
  return text.slice(0, a) + attentionOptionsTable(operations) + text.slice(b + DOCS_END.length);
}

async function main() {
  const { load } = await import('../bindings/index.js');
  const rp = await load();
  const files = [
    [TARGET, await generate(rp.schemes, rp.operations)],
    [TABLE_TARGET, await generateTable(rp.schemes, rp.operations)],
    [DOCS_TARGET, docsWithTable(rp.operations)],
  ];
  for (const [target, text] of files) {
    if (process.argv.includes('--check')) {
      let current = '';
      try {
        current = readFileSync(target, 'utf8');
      } catch {
        /* missing: not current */
      }
      if (current !== text) {
        console.error(`${target} is not what the core's description generates; run \`npm run types\``);
        process.exitCode = 1;
      }
      continue;
    }
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
