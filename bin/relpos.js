#!/usr/bin/env node
// relpos command line: renders a scheme's bias / scores / attention weights / buckets to PNG, SVG,
// CSV or JSON from Node, for papers and slides. Every number comes from the wasm core (the same
// calls as the API); colours come from relpos/web's colormaps (pure JS), PNG encoding from pngjs.
//
//   relpos render <scheme|preset> --n 256 [--param k=v …] [--heads H] [--head h]
//                 [--view bias|scores|weights|buckets] [--colormap name] --out file.png|svg|csv|json
//   relpos schemes [--json]
//   relpos presets [--json]
//
// Exit codes: 0 success, 1 the computation or the file write failed, 2 usage error.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { load, version } from '../bindings/index.js';
import { colormapNames, colormapTable } from '../web/components/colormap.js';
import { autoScale, sliceMatrix } from '../web/components/render-heatmap.js';

const VIEWS = ['bias', 'scores', 'weights', 'buckets'];
const FORMATS = ['.png', '.svg', '.csv', '.json'];
/** SVGs of maps up to this many cells are drawn as one <rect> per cell; larger ones embed a PNG. */
const SVG_RECT_LIMIT = 64 * 64;
const MASKED = [128, 128, 128];

const HELP = `relpos ${version}: positional-encoding maps from the command line

Usage:
  relpos render <scheme|preset> --out <file.png|file.svg|file.csv|file.json> [options]
  relpos schemes [--json]        list the schemes, their families, calls and parameters
  relpos presets [--json]        list the real-model presets (usable in place of a scheme)
  relpos --help | --version

render options:
  --n <int>              sequence length: the map is n × n (default 256)
  --heads <int>          number of heads (default 1, or the preset's head count)
  --head <int>           which head to draw (default 0)
  --d <int>              head dimension for scores / weights (default 64, or the preset's)
  --view <v>             bias | scores | weights | buckets (default: bias when the scheme has
                         one, else scores); weights = softmax over keys of the position-only logits
  --causal               mask keys after the query (-Infinity, drawn grey)
  --param <k=v>          a scheme parameter, repeatable (e.g. --param alibiBiasMax=4,
                         --param factor=8); values: numbers, true/false, JSON arrays, strings
  --colormap <name>      ${colormapNames.join(' | ')} (default: viridis, rdbu for signed data)
  --range <lo,hi>        fixed colour range (default: the finite range of the data)
  --scale <int>          PNG / SVG pixels per cell (default 1, or 8 for SVG rects)
  --out <file>           output; the extension picks the format

Examples:
  npx relpos render alibi --n 128 --heads 8 --head 3 --causal --out alibi.png
  npx relpos render rope --n 256 --param base=10000 --view scores --out rope.svg
  npx relpos render llama-3.1-8b --n 512 --view weights --out llama.png
  npx relpos render t5 --n 64 --view buckets --out t5.csv
  npx relpos schemes
`;

class UsageError extends Error {}

function fail(error) {
  const usage = error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS');
  process.stderr.write(`relpos: ${error.message}\n${usage ? "Run 'relpos --help' for usage.\n" : ''}`);
  process.exitCode = usage ? 2 : 1;
}

function integerOption(values, name, fallback, min = 1) {
  if (values[name] === undefined) return fallback;
  const text = values[name];
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--${name} must be an integer, got '${text}'`);
  const value = Number(text);
  if (value < min) throw new UsageError(`--${name} must be >= ${min}, got ${value}`);
  return value;
}

/** Parses one --param k=v into [name, value]. */
function parseParam(text) {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(text);
  if (!match) throw new UsageError(`--param must look like name=value (e.g. --param base=10000), got '${text}'`);
  const [, name, raw] = match;
  const value = raw.trim();
  if (value === '') throw new UsageError(`--param ${name} has no value`);
  if (value === 'true' || value === 'false') return [name, value === 'true'];
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value)) return [name, Number(value)];
  if (value.startsWith('[') || value.startsWith('{')) {
    try {
      return [name, JSON.parse(value)];
    } catch {
      throw new UsageError(`--param ${name}: '${value}' is not valid JSON`);
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

/** Computes the requested [heads, n, n] (or [n, n]) map with the core. */
function compute(rp, info, view, options) {
  const { n, heads, d, causal, params } = options;
  const common = { ...params, n, heads, causal };
  switch (view) {
    case 'bias':
      return rp.bias(info.id, common);
    case 'buckets': {
      const { heads: _h, causal: _c, ...rest } = common;
      return rp.buckets(info.id, rest);
    }
    case 'scores':
      return rp.scores(info.id, { d, ...common });
    case 'weights': {
      // Content-free attention: softmax over keys of the position-only logits, computed by the
      // core's attention with Q = K = 0 and the logits passed as the positional term B.
      const logits = info.calls.includes('bias') ? rp.bias(info.id, common) : rp.scores(info.id, { d, ...common });
      const h = logits.shape.length === 3 ? logits.shape[0] : 1;
      const zeros = { shape: [n, h], data: new Float32Array(n * h) };
      return rp.attention({ q: zeros, k: zeros, heads: h, B: logits, causal }).weights;
    }
    default:
      throw new UsageError(`--view must be one of ${VIEWS.join(', ')}, got '${view}'`);
  }
}

/** Maps a [rows, cols] slice to RGBA pixels, `scale` × `scale` per cell. */
function toRgba({ rows, cols, data }, colormap, range, scale) {
  const lut = colormapTable(colormap);
  const [lo, hi] = range;
  const k = 255 / (hi - lo);
  const width = cols * scale;
  const pixels = Buffer.alloc(rows * scale * width * 4);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = data[i * cols + j];
      let rgb = MASKED;
      if (!(Number.isNaN(v) || v === -Infinity)) {
        const at = Math.max(0, Math.min(255, Math.round((v - lo) * k))) * 4;
        rgb = [lut[at], lut[at + 1], lut[at + 2]];
      }
      for (let y = i * scale; y < (i + 1) * scale; y++) {
        for (let x = j * scale; x < (j + 1) * scale; x++) {
          const p = (y * width + x) * 4;
          pixels[p] = rgb[0];
          pixels[p + 1] = rgb[1];
          pixels[p + 2] = rgb[2];
          pixels[p + 3] = 255;
        }
      }
    }
  }
  return { width, height: rows * scale, pixels };
}

async function encodePng({ width, height, pixels }) {
  const { PNG } = (await import('pngjs')).default;
  const png = new PNG({ width, height, colorType: 6 });
  pixels.copy(png.data);
  return PNG.sync.write(png);
}

function csvNumber(v) {
  if (v === -Infinity) return '-Infinity';
  if (v === Infinity) return 'Infinity';
  return Number.isNaN(v) ? 'NaN' : String(v);
}

function escapeXml(text) {
  return String(text).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
  );
}

async function toSvg(slice, colormap, range, scaleOption, title) {
  const { rows, cols, data } = slice;
  if (rows * cols <= SVG_RECT_LIMIT) {
    const scale = scaleOption ?? 8;
    const lut = colormapTable(colormap);
    const [lo, hi] = range;
    const k = 255 / (hi - lo);
    const rects = [];
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const v = data[i * cols + j];
        let fill = `rgb(${MASKED.join(',')})`;
        if (!(Number.isNaN(v) || v === -Infinity)) {
          const at = Math.max(0, Math.min(255, Math.round((v - lo) * k))) * 4;
          fill = `rgb(${lut[at]},${lut[at + 1]},${lut[at + 2]})`;
        }
        rects.push(
          `<rect x="${j * scale}" y="${i * scale}" width="${scale}" height="${scale}" fill="${fill}"><title>i=${i} j=${j} ${csvNumber(v)}</title></rect>`,
        );
      }
    }
    return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${cols * scale}" height="${rows * scale}" viewBox="0 0 ${cols * scale} ${rows * scale}" shape-rendering="crispEdges">
<title>${escapeXml(title)}</title>
${rects.join('\n')}
</svg>
`;
  }
  const scale = scaleOption ?? 1;
  const png = await encodePng(toRgba(slice, colormap, range, scale));
  const w = cols * scale;
  const h = rows * scale;
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<title>${escapeXml(title)}</title>
<image width="${w}" height="${h}" style="image-rendering:pixelated" preserveAspectRatio="none" xlink:href="data:image/png;base64,${png.toString('base64')}"/>
</svg>
`;
}

async function render(positionals, values) {
  if (positionals.length === 0) {
    throw new UsageError('render needs a scheme id or preset id, e.g. relpos render alibi --n 128 --out alibi.png');
  }
  if (positionals.length > 1) {
    throw new UsageError(`render takes one scheme, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  const [id] = positionals;
  if (!values.out) throw new UsageError('render needs --out <file.png|file.svg|file.csv|file.json>');
  const out = resolve(values.out);
  const format = extname(out).toLowerCase();
  if (!FORMATS.includes(format)) {
    throw new UsageError(`--out must end in ${FORMATS.join(', ')}, got '${extname(out) || values.out}'`);
  }
  if (values.colormap !== undefined && !colormapNames.includes(values.colormap.toLowerCase())) {
    throw new UsageError(`--colormap must be one of ${colormapNames.join(', ')}, got '${values.colormap}'`);
  }
  let range;
  if (values.range !== undefined) {
    range = values.range.split(',').map((s) => Number(s.trim()));
    if (range.length !== 2 || !range.every(Number.isFinite) || !(range[1] > range[0])) {
      throw new UsageError(`--range must be two finite numbers lo,hi with lo < hi, got '${values.range}'`);
    }
  }
  const userParams = Object.fromEntries((values.param ?? []).map(parseParam));

  const rp = await load();
  const preset = rp.presets.find((p) => p.id === id);
  const schemeId = preset ? preset.scheme : id;
  const info = rp.schemes.find((s) => s.id === schemeId);
  if (!info) {
    throw new UsageError(
      `unknown scheme '${id}'; schemes: ${rp.schemes.map((s) => s.id).join(', ')}; presets: ${rp.presets.map((p) => p.id).join(', ')}`,
    );
  }
  // Parameter names are matched case-insensitively against the scheme's own (alibibiasmax → alibiBiasMax).
  const byLowerName = new Map(Object.keys(info.params).map((name) => [name.toLowerCase(), name]));
  const params = { ...(preset?.params ?? {}) };
  for (const [name, value] of Object.entries(userParams)) params[byLowerName.get(name.toLowerCase()) ?? name] = value;
  for (const reserved of ['n', 'heads', 'd', 'causal']) {
    if (reserved in userParams) throw new UsageError(`use --${reserved} instead of --param ${reserved}=…`);
  }

  const viewable = VIEWS.filter((v) => (v === 'weights' ? info.calls.includes('attention') : info.calls.includes(v)));
  const view = values.view ?? (info.calls.includes('bias') ? 'bias' : 'scores');
  if (!VIEWS.includes(view)) throw new UsageError(`--view must be one of ${VIEWS.join(', ')}, got '${view}'`);
  if (!viewable.includes(view)) {
    throw new UsageError(`scheme '${info.id}' has no ${view} view; it has ${viewable.join(', ')}`);
  }

  const n = integerOption(values, 'n', 256);
  const heads = integerOption(values, 'heads', preset?.heads ?? 1);
  const head = integerOption(values, 'head', 0, 0);
  const d = integerOption(values, 'd', typeof params.d === 'number' ? params.d : 64);
  delete params.d;
  if (head >= heads && view !== 'buckets') throw new UsageError(`--head must be < --heads (${heads}), got ${head}`);

  const tensor = compute(rp, info, view, { n, heads, d, causal: Boolean(values.causal), params });
  const count = tensor.shape.length === 3 ? tensor.shape[0] : 1;
  const slice = sliceMatrix(tensor, Math.min(head, count - 1));
  const scale = autoScale(slice.data, values.colormap?.toLowerCase());
  const drawRange = range ?? scale.range;
  const scaleOption = values.scale === undefined ? undefined : integerOption(values, 'scale', 1);
  const title = `${id} ${view}, n = ${n}${count > 1 ? `, head ${head} of ${count}` : ''}`;

  let bytes;
  if (format === '.png') {
    bytes = await encodePng(toRgba(slice, scale.colormap, drawRange, scaleOption ?? 1));
  } else if (format === '.svg') {
    bytes = await toSvg(slice, scale.colormap, drawRange, scaleOption, title);
  } else if (format === '.csv') {
    const lines = [];
    for (let i = 0; i < slice.rows; i++) {
      lines.push(Array.from(slice.data.subarray(i * slice.cols, (i + 1) * slice.cols), csvNumber).join(','));
    }
    bytes = `${lines.join('\n')}\n`;
  } else {
    const rows = [];
    for (let i = 0; i < slice.rows; i++) {
      // JSON has no -Infinity: masked cells are null.
      rows.push(
        Array.from(slice.data.subarray(i * slice.cols, (i + 1) * slice.cols), (v) => (Number.isFinite(v) ? v : null)),
      );
    }
    bytes = `${JSON.stringify({
      relpos: version,
      scheme: info.id,
      preset: preset?.id,
      view,
      params: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)),
      n,
      heads: count,
      head: Math.min(head, count - 1),
      causal: Boolean(values.causal),
      ...(view === 'scores' || view === 'weights' ? { d } : {}),
      shape: [slice.rows, slice.cols],
      range: drawRange,
      colormap: scale.colormap,
      masked: null,
      data: rows,
    })}\n`;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  process.stderr.write(
    `relpos: wrote ${values.out} (${title}, ${slice.rows}×${slice.cols}, range [${drawRange.map((v) => Number(v.toPrecision(6))).join(', ')}], ${scale.colormap})\n`,
  );
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
      n: { type: 'string' },
      heads: { type: 'string' },
      head: { type: 'string' },
      d: { type: 'string' },
      view: { type: 'string' },
      causal: { type: 'boolean' },
      param: { type: 'string', short: 'p', multiple: true },
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
