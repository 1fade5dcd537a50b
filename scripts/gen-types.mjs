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

/** rp.attention's option types: a discriminated union on `scheme`, the scheme's parameters beside the call's options or in `params`. */
function attentionTypes(attention) {
  return `/** The options of rp.attention without a scheme (a given B or P, or content only). */
export type AttentionPlainOptions = AttentionCallOptions & { scheme?: undefined; params?: Record<string, never> };

/** The options of rp.attention with a scheme: its parameters stand beside the call's options or in \`params\` (which wins; a parameter named like one of the call's options of another meaning goes in \`params\`). */
export type AttentionSchemeOptions<Id extends AttentionSchemeId> = AttentionOptionsFor<Id> & {
  scheme: Id;
  params?: SchemeParamsById[Id];
};

/** The options of rp.attention: a discriminated union on \`scheme\`. */
export type AttentionOptions = AttentionPlainOptions | { [Id in AttentionSchemeId]: AttentionSchemeOptions<Id> }[AttentionSchemeId];

/**
 * The options of rp.attention for a scheme typed as a union of ids — a layer group's or a reading's
 * \`scheme\` with its \`params\` (rp.attention({ scheme: g.scheme, params: g.params, q, k })): the
 * parameters under \`params\`, checked by the core.
 */
export type AttentionGroupOptions<Id extends string> = AttentionCallOptions & { scheme: Id; params?: SchemeParams };

/** The options rp.attention takes for a scheme of type Id (a plain string: the loose form). */
export type AttentionOptionsOf<Id extends string> = [Id] extends [never]
  ? AttentionPlainOptions
  : [IsUnion<Id>] extends [true]
    ? AttentionGroupOptions<Id>
  : Id extends AttentionSchemeId
    ? AttentionSchemeOptions<Id>
    : string extends Id
      ? AttentionCallOptions & { scheme: string; params?: SchemeParams; [name: string]: unknown }
      : never;
${kvCacheStepType(attention)}`;
}

/** The text of bindings/schemes.d.ts for this catalogue and operation table. */
export async function generate(schemes, operations) {
  let out = `// Generated by scripts/gen-types.mjs from rp.schemes and rp.operations: do not edit. \`npm run types\`
// regenerates it; tests/node/types-generated.test.js fails when it is not what the catalogue generates.
import type { AttentionMask, HeapTensor, LayerGroup, SchemeParams, TemperatureTuning, TensorLike } from './index.js';

/** Every scheme id of rp.schemes. */
export type SchemeId = ${literals(schemes.map((s) => s.id))};

`;
  for (const scheme of schemes) {
    out += `/** ${scheme.name} (\`${scheme.id}\`, ${scheme.family}): its parameters as rp.schemes lists them. */\n`;
    // A type alias, not an interface: an object type alias is assignable to the loose SchemeParams
    // (a Record), so a reading's params still go where any scheme's parameters do.
    out += `export type ${typeName(scheme.id)}Params = {\n`;
    for (const [name, info] of Object.entries(scheme.params)) out += property(name, info);
    out += '};\n\n';
  }
  out += "/** Each scheme's parameters by id. */\nexport interface SchemeParamsById {\n";
  for (const scheme of schemes) out += `  ${quote(scheme.id)}: ${typeName(scheme.id)}Params;\n`;
  out += '}\n\n';
  out += `/** true when Id is a union of several literals (a reading's or a preset's \`scheme\`), false for one literal. */
export type IsUnion<Id, All = Id> = Id extends unknown ? ([All] extends [Id] ? false : true) : never;

/**
 * The type a call's scheme argument must have. A literal id must be one of the ids that offer the
 * call (\`Offering\`), so an unknown or unsuitable id is an error on the id itself, naming that list
 * ("'bogus' is not assignable to parameter of type 'BiasSchemeId'"), not on the options; a union of
 * known ids (\`reading.scheme\` of rp.fromConfig or a preset) and a plain string are checked by the core.
 */
export type CheckedId<Id extends string, Offering extends string> = string extends Id
  ? Id
  : [Id] extends [Offering]
    ? Id
    : [IsUnion<Id>] extends [false]
      ? Offering
      : [Id] extends [SchemeId]
        ? Id
        : SchemeId;

`;

  for (const op of operations) {
    const Op = typeName(op.name);
    const ids = schemes.filter((s) => s.calls.includes(op.name)).map((s) => s.id);
    out += `/** The schemes that offer rp.${op.name}. */\nexport type ${Op}SchemeId = ${literals(ids)};\n\n`;
    out += `/** The own options of rp.${op.name} (besides the scheme's parameters): ${op.doc}. */\n`;
    out += `export interface ${Op}CallOptions {\n`;
    // `scheme` and `params` are typed by the per-scheme types below; an input (rotate's x) is the
    // first argument.
    const own = op.options.filter((o) => !['scheme', 'params', op.input].includes(o.name));
    const jsTypes = op.name === 'attention' ? JS_TYPES : {};
    for (const option of own) out += property(option.name, option, option.required, jsTypes);
    out += '}\n\n';
    // A scheme's parameter wins over an option of the same name (it is what the call validates);
    // what the call cannot do without stays required.
    const required = own.filter((o) => o.required).map((o) => quote(o.name));
    const keep = required.length ? ` & Pick<${Op}CallOptions, ${required.join(' | ')}>` : '';
    out += `/** The options of rp.${op.name} for scheme Id: the scheme's parameters and the call's own options. */\n`;
    out += `export type ${Op}OptionsFor<Id extends ${Op}SchemeId> = Omit<${Op}CallOptions, keyof SchemeParamsById[Id]> &\n`;
    out += `  SchemeParamsById[Id]${keep};\n\n`;
    // A literal id picks its options; a plain string (an id chosen at run time) takes the loose
    // SchemeParams; an unknown literal id is an error. (attention: below, on `scheme`.)
    if (op.name === 'attention') continue;
    // A union of ids (a reading's scheme) takes, per id, its options, or for an id without this call
    // its parameters (the core refuses that id when called): so rp.${op.name}(reading.scheme,
    // reading.params) compiles for a reading typed as a union keyed by scheme.
    out += `/** The options rp.${op.name} takes for an id of type Id. */\n`;
    const requiredLoose = required.length ? ` & Pick<${Op}CallOptions, ${required.join(' | ')}>` : '';
    out += `export type ${Op}Options<Id extends string> = string extends Id\n  ? SchemeParams${requiredLoose}\n`;
    out += `  : [IsUnion<Id>] extends [false]\n    ? Id extends ${Op}SchemeId ? ${Op}OptionsFor<Id> : never\n`;
    out += `    : Id extends ${Op}SchemeId ? ${Op}OptionsFor<Id> : Id extends SchemeId ? SchemeParamsById[Id] : never;\n\n`;
  }

  // attention: a discriminated union on `scheme`, the scheme's parameters beside the call's options
  // or in `params`.
  const attention = operations.find((o) => o.name === 'attention');
  if (attention) out += attentionTypes(attention);
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
