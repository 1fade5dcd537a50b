#!/usr/bin/env node
// relpos command line: draws a view of a scheme — bias, scores, attention weights, buckets or
// distances, as <relpos-heatmap> defines them (figure/views.js) — to PNG, SVG, CSV, JSON
// or pgfplots, through the Node figure writer (bindings/figure.js) and the elements' exporters.
// Every number comes from the wasm core; it says which call, scheme, form and parameters it drew.
//
//   relpos render <scheme|preset> | --config config.json  --out file.png|svg|csv|json|tex [options]
//   relpos schemes [--json]
//   relpos presets [--json]
//
// Exit codes: 0 success, 1 the computation or the file write failed, 2 usage error.
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { load, version } from '../bindings/index.js';
import { colormapNames, describeParams, viewCall, viewFigure, writeFigure, VIEWS } from '../bindings/figure.js';
import { EXPORT_FORMATS } from '../figure/export.js';
import { callText, defaultView, requireView, viewNeedsAnalysis } from '../figure/views.js';

const FORMATS = Object.keys(EXPORT_FORMATS).map((format) => `.${format}`);

const HELP = `relpos ${version}: positional-encoding maps from the command line

Usage:
  relpos render <scheme|preset> --out <file> [options]
  relpos render --config <config.json> --out <file> [options]
  relpos schemes [--json]        list the schemes, their families, calls and parameters
  relpos presets [--json]        list the real-model presets (usable in place of a scheme)
  relpos --help | --version

render options:
  --config <file>        a Hugging Face config.json, read by rp.fromConfig (scheme, parameters, heads)
  --out <file>           output; the extension picks the format: ${FORMATS.join(' ')}
  --view <v>             ${VIEWS.join(' | ')} (default: bias when the scheme has one, else
                         scores); the views of <relpos-heatmap>: weights = rp.attention with
                         all-ones queries and keys, so only the positional term shapes them
  --n <int>              sequence length: the map is n × n (default 256)
  --heads <int>          number of heads (default 1, or the preset's / config's head count)
  --head <int>           which head to draw (default 0)
  --d <int>              per-head probe width for scores / weights / distances (default 64, or
                         the preset's / config's d)
  --mode <m>             attention mode of the weights view: explicit | implicit | mixed
  --group <k>            a hybrid model's layer group (a preset's or config's groups): its index
                         or layer type, e.g. --group sliding_attention (default: group 0); the
                         weights view of a preset or config runs the group as rp.attention({ layer })
                         does: its heads, scale, causality, window, chunk, soft-cap and temperature
  --input <k=v>          an input the group's layer needs and a config cannot hold, repeatable
                         (e.g. gpt-oss's --input sinks=[…], one value per head); values as --param
  --causal               passed to the core call: masked cells are -inf in CSV, drawn grey
                         (also in the weights view, where their weight is 0); a preset's or
                         config's layer says its own causality (decoders are causal)
  --param <k=v>          a scheme parameter, repeatable (e.g. --param alibiBiasMax=4,
                         --param factor=8); values: numbers, true/false, JSON arrays, strings
  --colormap <name>      ${colormapNames.join(' | ')} (default: viridis, rdbu for signed data)
  --range <lo,hi>        fixed colour range (default: the finite range of the data)
  --scale <int>          PNG pixels per cell (default 1); SVG: plot size = scale × n px

It prints the core call it made, then each parameter of the scheme with its value, where the
value came from and what it means (e.g. the ALiBi form a preset uses).

Examples:
  npx relpos render alibi --n 128 --heads 8 --head 3 --causal --out alibi.png
  npx relpos render rope --n 256 --param base=10000 --view scores --out rope.svg
  npx relpos render bloom-7b1 --n 64 --out bloom.csv
  npx relpos render --config config.json --n 512 --view weights --out model.png
  npx relpos render t5 --n 64 --view buckets --out t5.csv
  npx relpos render gemma-3-4b --group sliding_attention --view weights --out local.png
  npx relpos schemes
`;

class UsageError extends Error {}

function fail(error) {
  const usage = error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS');
  process.stderr.write(`relpos: ${error.message}\n${usage ? "Run 'relpos --help' for usage.\n" : ''}`);
  process.exitCode = usage ? 2 : 1;
}

function say(line) {
  process.stderr.write(`relpos: ${line}\n`);
}

function integerOption(values, name, fallback, min = 1) {
  if (values[name] === undefined) return fallback;
  const text = values[name];
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--${name} must be an integer, got '${text}'`);
  const value = Number(text);
  if (value < min) throw new UsageError(`--${name} must be >= ${min}, got ${value}`);
  return value;
}

/** Parses one --param (or --input) k=v into [name, value]. */
function parseParam(text, option = 'param') {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(text);
  if (!match) throw new UsageError(`--${option} must look like name=value (e.g. --param base=10000), got '${text}'`);
  const [, name, raw] = match;
  const value = raw.trim();
  if (value === '') throw new UsageError(`--${option} ${name} has no value`);
  if (value === 'true' || value === 'false') return [name, value === 'true'];
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value)) return [name, Number(value)];
  if (value.startsWith('[') || value.startsWith('{')) {
    try {
      return [name, JSON.parse(value)];
    } catch {
      throw new UsageError(`--${option} ${name}: '${value}' is not valid JSON`);
    }
  }
  return [name, value];
}

function printTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  for (const row of rows) {
    process.stdout.write(
      `${row
        .map((v, c) => String(v).padEnd(widths[c]))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
}

async function listSchemes(json) {
  const rp = await load();
  if (json) {
    process.stdout.write(`${JSON.stringify(rp.schemes, null, 2)}\n`);
    return;
  }
  printTable([
    ['id', 'family', 'calls', 'parameters'],
    ...rp.schemes.map((s) => [s.id, s.family, s.calls.join(','), Object.keys(s.params).join(',')]),
  ]);
}

async function listPresets(json) {
  const rp = await load();
  if (json) {
    process.stdout.write(`${JSON.stringify(rp.presets, null, 2)}\n`);
    return;
  }
  printTable([['id', 'scheme', 'heads', 'name'], ...rp.presets.map((p) => [p.id, p.scheme, p.heads, p.name])]);
}

/** The output file, its format and the colour options — checked before anything is computed. */
function readOutput(values) {
  if (!values.out) throw new UsageError(`render needs --out <file${FORMATS.join('|file')}>`);
  const format = extname(values.out).toLowerCase();
  if (!FORMATS.includes(format)) {
    throw new UsageError(`--out must end in ${FORMATS.join(', ')}, got '${extname(values.out) || values.out}'`);
  }
  const colormap = values.colormap?.toLowerCase();
  if (colormap !== undefined && !colormapNames.includes(colormap)) {
    throw new UsageError(`--colormap must be one of ${colormapNames.join(', ')}, got '${values.colormap}'`);
  }
  let range;
  if (values.range !== undefined) {
    range = values.range.split(',').map((s) => Number(s.trim()));
    if (range.length !== 2 || !range.every(Number.isFinite) || !(range[1] > range[0])) {
      throw new UsageError(`--range must be two finite numbers lo,hi with lo < hi, got '${values.range}'`);
    }
  }
  return { out: values.out, format: format.slice(1), colormap, range, scale: integerOption(values, 'scale', 1) };
}

/**
 * The layer group to draw of a preset or config: --group as an index or a layer type, else group 0.
 * A scheme has no groups: --group is then a usage error.
 */
function pickGroup(source, values) {
  const { groups = [] } = source;
  const names = groups.map((g, k) => `${k} ${g.layerType}`).join(', ');
  if (values.group === undefined) return { index: 0, group: groups[0] };
  if (!groups.length) {
    throw new UsageError(`--group applies to a preset or --config with layer groups; ${source.label} is a scheme`);
  }
  const text = values.group;
  const index = /^\d+$/.test(text) ? Number(text) : groups.findIndex((g) => g.layerType === text);
  if (!(index >= 0 && index < groups.length)) {
    throw new UsageError(`--group must be one of ${source.label}'s groups (${names}), got '${text}'`);
  }
  return { index, group: groups[index] };
}

function readConfig(rp, path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read --config ${path}: ${error.message}`, { cause: error });
  }
  const reading = rp.fromConfig(text);
  const info = rp.schemes.find((s) => s.id === reading.scheme);
  return { label: basename(path), origin: 'config', info, params: reading.params, heads: reading.heads, ...reading };
}

/**
 * What to draw: a scheme, a preset or a config.json →
 * { label, origin ('scheme' | 'preset' | 'config'), info, params, heads, warnings }.
 */
function readSource(rp, positionals, values) {
  if (values.config !== undefined) {
    if (positionals.length) {
      throw new UsageError(`render takes a scheme or --config, not both (got '${positionals.join(' ')}')`);
    }
    return readConfig(rp, values.config);
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length
        ? `render takes one scheme, got ${positionals.length}: ${positionals.join(' ')}`
        : 'render needs a scheme id, a preset id or --config, e.g. relpos render alibi --n 128 --out alibi.png',
    );
  }
  const [id] = positionals;
  const preset = rp.presets.find((p) => p.id === id);
  const info = rp.schemes.find((s) => s.id === (preset ? preset.scheme : id));
  if (!info) {
    throw new UsageError(
      `unknown scheme '${id}'; schemes: ${rp.schemes.map((s) => s.id).join(', ')}; presets: ${rp.presets.map((p) => p.id).join(', ')}`,
    );
  }
  if (!preset) return { label: id, origin: 'scheme', info, params: {}, heads: undefined, warnings: [] };
  return {
    label: id,
    origin: 'preset',
    info,
    params: preset.params,
    heads: preset.heads,
    groups: preset.groups,
    model: preset.model,
    warnings: [],
  };
}

/**
 * The source narrowed to one layer group (--group): its scheme and parameters, and the group itself
 * (`layer`, as rp.presets / rp.fromConfig give it) for the weights view to run.
 */
function withGroup(rp, source, values) {
  const { index, group } = pickGroup(source, values);
  if (!group) return source;
  const info = rp.schemes.find((s) => s.id === group.scheme);
  const asked = values.group !== undefined;
  return {
    ...source,
    info,
    params: group.params,
    layer: group,
    group: { index, count: source.groups.length, asked, ...group },
  };
}

/**
 * The inputs a layer needs beside it (its `needs`: gpt-oss's sinks, T5's table), from --input or
 * --param; one it needs and was not given is a usage error naming it and how to give it.
 */
function layerInputs(source, values, params) {
  const inputs = Object.fromEntries((values.input ?? []).map((text) => parseParam(text, 'input')));
  const missing = (source.layer.needs ?? []).filter(({ option }) => !(option in inputs) && !(option in params));
  if (missing.length) {
    const how = missing.map(({ option }) =>
      option in source.info.params ? `--param ${option}=…` : `--input ${option}=…`,
    );
    throw new UsageError(
      `the weights view of ${source.label} group ${source.group.index} (${source.group.layerType}) runs the layer, which needs ${missing
        .map(({ option, why }) => `${option} (${why})`)
        .join(' and ')}; a config cannot hold it: give it with ${how.join(' and ')}`,
    );
  }
  return inputs;
}

/**
 * The view, the head and the options of the core call: the source's parameters, then --param
 * (matched case-insensitively: alibibiasmax → alibiBiasMax), then --n / --heads / --d / --causal / --mode.
 */
function readRequest(source, values) {
  const { info } = source;
  const userParams = Object.fromEntries((values.param ?? []).map((text) => parseParam(text)));
  for (const reserved of ['n', 'heads', 'd', 'causal', 'mode']) {
    if (reserved in userParams) throw new UsageError(`use --${reserved} instead of --param ${reserved}=…`);
  }
  const byLowerName = new Map(Object.keys(info.params).map((name) => [name.toLowerCase(), name]));
  const { d: sourceD, ...params } = source.params;
  const given = new Map(Object.keys(params).map((name) => [name, source.origin]));
  for (const [name, value] of Object.entries(userParams)) {
    const param = byLowerName.get(name.toLowerCase()) ?? name;
    params[param] = value;
    given.set(param, '--param');
  }
  const view = values.view ?? defaultView(info);
  try {
    requireView('relpos render --view', info, view);
  } catch (error) {
    throw new UsageError(error.message.replace('relpos render --view: ', '--view: '));
  }
  if (values.mode !== undefined && view !== 'weights') {
    throw new UsageError(`--mode applies to the weights view only (got --view ${view})`);
  }
  if (values.input !== undefined && !(source.layer && view === 'weights')) {
    throw new UsageError("--input applies to the weights view of a preset's or config's layer group");
  }
  const head = integerOption(values, 'head', 0, 0);
  const n = integerOption(values, 'n', 256);
  if (source.layer && view === 'weights') return layerRequest(source, values, { view, head, n, params, given });
  const options = {
    n,
    heads: integerOption(values, 'heads', source.heads ?? 1),
    d: integerOption(values, 'd', typeof sourceD === 'number' ? sourceD : 64),
    ...(values.causal ? { causal: true } : {}),
    ...(values.mode !== undefined ? { mode: values.mode } : {}),
    ...params,
  };
  return { view, head, options, params, given };
}

/**
 * The weights view of a layer group: rp.attention({ layer }) on all-ones probes (figure/views.js),
 * with what the command line adds — --causal, --mode, --heads, --param, --input — passed along for
 * rp.attention to check against the layer. The probe's head width is the group's `params.d`, else
 * the model's head width (a NoPE or bias group); --d cannot change it.
 */
function layerRequest(source, values, { view, head, n, params, given }) {
  const d = source.layer.params.d ?? source.layer.headDim ?? source.model?.headDim;
  if (values.d !== undefined) {
    throw new UsageError(
      `--d: the layer sets the head width (${d}); leave --d out with a preset's or config's weights view`,
    );
  }
  const added = Object.fromEntries(Object.entries(params).filter(([name]) => given.get(name) === '--param'));
  const options = {
    n,
    d,
    layer: source.layer,
    inputs: layerInputs(source, values, added),
    ...(values.heads !== undefined ? { heads: integerOption(values, 'heads', 1) } : {}),
    ...(values.causal ? { causal: true } : {}),
    ...(values.mode !== undefined ? { mode: values.mode } : {}),
    ...(Object.keys(added).length ? { params: added } : {}),
  };
  return { view, head, options, params, given };
}

/** Checks --head against the maps the view has (one per head, or one for all); returns their count. */
function checkHead({ view, head, options }, call) {
  const heads = call.probe?.heads ?? options.heads;
  const perHead = call.probe !== undefined || call.options.heads !== undefined;
  if (perHead && head >= heads) {
    const of = call.probe ? "the layer's heads" : '--heads';
    throw new UsageError(`--head must be < ${of} (${heads}), got ${head}`);
  }
  if (!perHead && head > 0) {
    throw new UsageError(`--head: the ${view} view is one map for every head, got --head ${head}`);
  }
  return perHead ? heads : 1;
}

/** Lines saying what was drawn: the call, then every scheme parameter, its origin and meaning. */
function describeDrawing(source, request, call) {
  const from = source.origin === 'scheme' ? '' : `, from ${source.origin} ${source.label}`;
  const lines = [`drew the ${request.view} view of ${source.info.name} (${source.info.id})${from}: ${callText(call)}`];
  for (const line of groupLines(source, request)) lines.push(line);
  for (const { name, value, given, meaning } of describeParams(source.info, request.params)) {
    const origin = given ? request.given.get(name) : 'default';
    const text = meaning.startsWith(`${value}:`) ? meaning.slice(String(value).length + 1).trim() : meaning;
    if (value === null) lines.push(`  ${name} (${origin}): ${text}`);
    else lines.push(`  ${name} = ${Array.isArray(value) ? `[${value.length} values]` : value} (${origin}): ${text}`);
  }
  return lines;
}

/** What the drawn layer group is, and what of it the view does not draw. */
function groupLines({ group, groups = [] }, { view }) {
  if (!group) return [];
  const lines = [];
  const layers = group.layers ? `layers ${group.layers.join(', ')}` : 'every layer';
  const others = groups.map((g, k) => `${k} ${g.layerType}`).join(', ');
  if (group.count > 1 || group.asked) {
    lines.push(
      `  group ${group.index} of ${group.count}: ${group.layerType} (${layers})${group.count > 1 ? `; --group picks another: ${others}` : ''}`,
    );
  }
  // What rp.attention({ layer }) runs the layer with beside its scheme (docs/models.md, "Layers"):
  // applied by the weights view, one line each; named in one line by the other views.
  const settings = LAYER_SETTINGS.filter((name) => group[name] !== undefined).map(
    (name) => `${name} = ${JSON.stringify(group[name])}`,
  );
  if (view === 'weights') {
    for (const setting of settings) lines.push(`  ${setting} (group): applied to the attention call (layer)`);
  } else if (settings.length) {
    lines.push(`  ${settings.join(', ')} (group): attention settings, drawn by --view weights only`);
  }
  for (const note of group.notes ?? []) lines.push(`  note: ${note}`);
  return lines;
}

// The settings a layer group holds beside its scheme and heads, as docs/models.md lists them.
const LAYER_SETTINGS = ['scale', 'causal', 'slidingWindow', 'attentionChunkSize', 'softcap', 'temperatureTuning'];

/**
 * A core error that names an option given on the command line — a --param (by the name given or
 * the one matched), --n, --heads, --d, --mode, --causal — is a usage error (exit 2): the core refused
 * what was asked for, and says why. A parameter the CLI takes as its own option (numHeads → heads)
 * is pointed at its option.
 */
function usageFromCore(error, request, values) {
  if (!(error instanceof TypeError || error instanceof RangeError)) return error;
  const asked = [...request.given].filter(([, origin]) => origin === '--param').map(([name]) => name);
  for (const option of ['n', 'heads', 'd', 'mode', 'causal']) if (values[option] !== undefined) asked.push(option);
  const given = (values.param ?? []).map((text) => text.split('=')[0]);
  const names = [...new Set([...asked, ...given])];
  const named = names.some((name) => new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).test(error.message));
  if (!named) return error;
  const suggested = /did you mean '([^']+)'/.exec(error.message)?.[1];
  const hint = ['n', 'heads', 'd', 'causal', 'mode'].includes(suggested)
    ? ` (on the command line: --${suggested})`
    : '';
  return new UsageError(`${error.message}${hint}`, { cause: error });
}

async function render(positionals, values) {
  const output = readOutput(values);
  const rp = await load();
  const source = withGroup(rp, readSource(rp, positionals, values), values);
  for (const warning of source.warnings) say(`${source.label}: ${warning}`);
  const request = readRequest(source, values);
  const { view, head, options } = request;
  if (viewNeedsAnalysis(view)) await rp.analysis.ready;
  const call = viewCall(source.info, view, options);
  const heads = checkHead(request, call);
  const groupTitle = source.group && source.group.count > 1 ? ` ${source.group.layerType}` : '';
  let figure;
  try {
    ({ figure } = viewFigure(rp, {
      scheme: source.info.id,
      view,
      ...options,
      head,
      colormap: output.colormap,
      range: output.range,
      title: `${source.label}${groupTitle} ${view}, n = ${options.n}${heads > 1 ? `, head ${head} of ${heads}` : ''}`,
    }));
  } catch (error) {
    throw usageFromCore(error, request, values);
  }
  const { group } = source;
  figure.meta = {
    relpos: version,
    [source.origin]: source.label,
    ...(group
      ? {
          group: {
            index: group.index,
            layerType: group.layerType,
            layers: group.layers,
            ...Object.fromEntries(
              LAYER_SETTINGS.filter((name) => group[name] !== undefined).map((name) => [name, group[name]]),
            ),
          },
        }
      : {}),
    ...figure.meta,
    n: options.n,
    causal: Boolean(options.causal ?? (view === 'weights' ? source.layer?.causal : undefined)),
    params: request.params,
  };
  if (figure.meta.warning) say(`${source.label}: ${figure.meta.warning} (written into ${values.out} too)`);
  const size = values.scale === undefined ? undefined : output.scale * Math.max(figure.rows, figure.cols);
  await writeFigure(output.out, figure, { format: output.format, scale: output.scale, size });
  const range = figure.range.map((v) => Number(v.toPrecision(6))).join(', ');
  say(`wrote ${values.out} (${figure.title}, ${figure.rows}×${figure.cols}, range [${range}], ${figure.colormap})`);
  for (const line of describeDrawing(source, request, call)) say(line);
}

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      json: { type: 'boolean' },
      config: { type: 'string' },
      n: { type: 'string' },
      heads: { type: 'string' },
      head: { type: 'string' },
      d: { type: 'string' },
      view: { type: 'string' },
      mode: { type: 'string' },
      group: { type: 'string' },
      causal: { type: 'boolean' },
      param: { type: 'string', short: 'p', multiple: true },
      input: { type: 'string', multiple: true },
      colormap: { type: 'string' },
      range: { type: 'string' },
      scale: { type: 'string' },
      out: { type: 'string', short: 'o' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${version}\n`);
    return;
  }
  switch (command) {
    case 'render':
      return render(rest, values);
    case 'schemes':
      return listSchemes(values.json);
    case 'presets':
      return listPresets(values.json);
    case undefined:
      process.stdout.write(HELP);
      process.exitCode = 2;
      return;
    default:
      throw new UsageError(`unknown command '${command}'; commands: render, schemes, presets`);
  }
}

main(process.argv.slice(2)).catch(fail);
