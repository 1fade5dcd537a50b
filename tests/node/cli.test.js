// The command line (bin/relpos.js) as a user runs it: a child process writing PNG, SVG, CSV, JSON
// and pgfplots files of the views <relpos-heatmap> defines, from a scheme, a preset or a
// config.json; saying which call, form and parameters it drew; failing clearly (non-zero exit).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pngjs from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { colormapTable, lutIndex } from '../../figure/colormap.js';
import { computeView, maskedCells, viewsFor } from '../../figure/views.js';
import { cli, relpos, run, scratchDir } from './cli-run.js';

const outDir = scratchDir('cli-test');
const configs = fileURLToPath(new URL('../fixtures/configs/', import.meta.url));
const out = (name) => `${outDir}${name}`;
let rp;

/** `relpos render <words…> --out <file>`, expecting success; resolves to { stderr, text, file }. */
async function render(words, file) {
  const result = await relpos('render', ...words.split(' ').filter(Boolean), '--out', out(file));
  expect(result.code, result.stderr).toBe(0);
  return { ...result, file: out(file), text: () => readFileSync(out(file), 'utf8') };
}

/** Decoded PNG: { width, height, rgb(x, y) }. */
function readPng(bytes) {
  const png = pngjs.PNG.sync.read(Buffer.from(bytes));
  return {
    width: png.width,
    height: png.height,
    rgb: (x, y) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)],
  };
}

/** The iTXt / tEXt chunks of a PNG as { keyword: text }. */
function pngTextChunks(bytes) {
  const buffer = Buffer.from(bytes);
  const chunks = {};
  for (let at = 8; at < buffer.length;) {
    const length = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    const body = buffer.subarray(at + 8, at + 8 + length);
    const end = body.indexOf(0);
    if (type === 'iTXt') chunks[body.toString('latin1', 0, end)] = body.subarray(end + 5).toString('utf8');
    if (type === 'tEXt') chunks[body.toString('latin1', 0, end)] = body.subarray(end + 1).toString('latin1');
    at += 12 + length;
  }
  return chunks;
}

/** A minimal well-formedness check: balanced tags, one root <svg>. */
function checkXml(text) {
  const body = text.replace(/<\?xml[^>]*\?>/, '').trim();
  expect(body.startsWith('<svg')).toBe(true);
  const stack = [];
  for (const [, close, name, selfClosing] of body.matchAll(/<(\/?)([A-Za-z][\w:-]*)(?:\s[^<>]*?)?(\/?)>/g)) {
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name);
  }
  expect(stack).toEqual([]);
}

const csvRows = (text) =>
  text
    .trimEnd()
    .split('\n')
    .map((row) => row.split(','));

beforeAll(async () => {
  rp = await load();
});

describe('relpos render: files', { timeout: 120000 }, () => {
  it('writes a PNG, one pixel per cell, in the colours of the elements (ALiBi, causal, head 3 of 8)', async () => {
    const { stderr, file } = await render('alibi --n 96 --heads 8 --head 3 --causal', 'alibi.png');
    expect(stderr).toContain('head 3 of 8');
    const png = readPng(readFileSync(file));
    expect([png.width, png.height]).toEqual([96, 96]);
    const bias = rp.bias('alibi', { n: 96, heads: 8, causal: true }).data.subarray(3 * 96 * 96);
    const lo = Math.min(...bias.filter(Number.isFinite));
    const lut = colormapTable('viridis');
    for (const [i, j] of [
      [95, 0],
      [50, 20],
      [10, 10],
    ]) {
      const at = lutIndex(bias[i * 96 + j], lo, 255 / (0 - lo)) * 4;
      expect(png.rgb(j, i)).toEqual([lut[at], lut[at + 1], lut[at + 2]]);
    }
    expect(png.rgb(95, 0)).toEqual([128, 128, 128]); // masked: grey
  });

  it('scales PNG cells with --scale', async () => {
    const { file } = await render('exp-decay --n 20 --scale 3 --colormap magma', 'decay.png');
    const png = readPng(readFileSync(file));
    expect([png.width, png.height]).toEqual([60, 60]);
    expect(png.rgb(0, 0)).toEqual(png.rgb(2, 2)); // one cell, 3 × 3 pixels
  });

  it('writes a CSV with n rows of n numbers, equal to the API result', async () => {
    const { text } = await render('t5 --n 40 --view buckets --param numBuckets=16', 't5.csv');
    const rows = csvRows(text());
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(row).toHaveLength(40);
    expect(rows.flat().map(Number)).toEqual(Array.from(rp.buckets('t5', { n: 40, numBuckets: 16 }).data));
  });

  it('writes -inf into CSV for masked cells, as the elements export them', async () => {
    const { text } = await render('alibi --n 4 --causal', 'causal.csv');
    expect(csvRows(text())[0]).toEqual(['0', '-inf', '-inf', '-inf']);
  });

  it("writes the elements' JSON figure: values, colour scale and what was drawn", async () => {
    const { text } = await render('alibi --n 12 --heads 4 --head 2 --causal --param alibiBiasMax=4', 'alibi.json');
    const json = JSON.parse(text());
    expect(json).toMatchObject({ format: 'relpos-figure', kind: 'heatmap', shape: [12, 12], colormap: 'viridis' });
    expect(json.meta).toMatchObject({
      scheme: 'alibi',
      view: 'bias',
      n: 12,
      heads: 4,
      head: 2,
      causal: true,
      params: { alibiBiasMax: 4 },
      call: "rp.bias('alibi', { n: 12, heads: 4, causal: true, alibiBiasMax: 4 })",
    });
    expect(json.data).toHaveLength(12);
    expect(json.data[0][1]).toBe('-Infinity');
    expect(json.data[5][0]).toBeCloseTo(-5 * 2 ** -3, 6); // slope of head 2 of 4 with max 4: 2^-(3·4/4)
  });

  it('writes the weights view of the elements: the all-ones probe through rp.attention, row-stochastic', async () => {
    const { text } = await render('rope --n 16 --d 32 --view weights --causal', 'weights.json');
    const { data, meta } = JSON.parse(text());
    expect(meta.view).toBe('weights');
    expect(meta.call).toMatch(/^rp\.attention\(\{ q: ones \[16, 1·32\].*causal: true/);
    expect(meta.masked).toMatch(/-Infinity/);
    const info = rp.schemes.find((s) => s.id === 'rope');
    const weights = computeView(rp, info, 'weights', { n: 16, d: 32, causal: true }).data;
    // Causal: key j > i is masked, drawn and exported as masked (−∞), not as its weight 0.
    for (let i = 0; i < 16; i++) {
      for (let j = 0; j < 16; j++) {
        if (j > i) expect(data[i][j], `${i},${j}`).toBe('-Infinity');
        else expect(data[i][j], `${i},${j}`).toBe(weights[i * 16 + j]);
      }
      expect(data[i].filter((v) => typeof v === 'number').reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    }
  });

  it('draws masked weights grey (masked) in PNGs, and a kept weight that underflowed to 0 in the colour of 0', async () => {
    // ALiBi with slopes of 100: far keys' weights underflow to exactly 0 but are not masked.
    const { file } = await render('alibi --n 12 --view weights --causal --param slopes=[100]', 'weights.png');
    const png = readPng(readFileSync(file));
    const weights = computeView(
      rp,
      rp.schemes.find((s) => s.id === 'alibi'),
      'weights',
      {
        n: 12,
        causal: true,
        slopes: [100],
      },
    ).data;
    expect(weights[11 * 12 + 0]).toBe(0); // kept, underflowed
    const lut = colormapTable('viridis');
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 12; j++) {
        const at = lutIndex(weights[i * 12 + j], 0, 255) * 4;
        const expected = j > i ? [128, 128, 128] : [lut[at], lut[at + 1], lut[at + 2]];
        expect(png.rgb(j, i), `${i},${j}`).toEqual(expected);
      }
    }
  });

  it("maskedCells is the core's mask of the call: causal, sliding window, none", () => {
    const info = rp.schemes.find((s) => s.id === 'rope');
    for (let n = 1; n <= 9; n++) {
      for (const window of [undefined, 1, 2, 3, n]) {
        for (const causal of [undefined, true]) {
          const mask = maskedCells(rp, info, 'weights', { n, d: 8, causal, slidingWindow: window });
          if (!causal && window === undefined) {
            expect(mask).toBeNull();
            continue;
          }
          // docs/api.md: with causal, key j is kept when 0 ≤ i − j < w; without, when |i − j| < w.
          const expected = [];
          for (let i = 0; i < n; i++) {
            for (let j = 0; j < n; j++) {
              const outside = window !== undefined && Math.abs(i - j) >= window;
              expected.push((causal && j > i) || outside ? 1 : 0);
            }
          }
          expect(Array.from(mask), `n ${n}, window ${window}, causal ${causal}`).toEqual(expected);
        }
      }
    }
    expect(maskedCells(rp, info, 'scores', { n: 4, causal: true })).toBeNull();
  });

  it("writes the elements' SVG: one <rect> per cell for small maps, with axes and a colour bar", async () => {
    const { text } = await render('kerple-log --n 10', 'small.svg');
    const svg = text();
    checkXml(svg);
    expect(svg.match(/<rect [^>]*shape-rendering="crispEdges"/g)).toHaveLength(100);
    expect(svg).toContain('url(#relpos-bar)');
    expect(svg).toContain('<title>kerple-log bias, n = 10</title>');
  });

  it('writes an SVG embedding a one-pixel-per-cell PNG for large maps', async () => {
    const { text } = await render('rope --n 128 --view scores', 'large.svg');
    const svg = text();
    checkXml(svg);
    expect(svg).not.toMatch(/crispEdges/);
    const base64 = /data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(svg)[1];
    const png = readPng(Buffer.from(base64, 'base64'));
    expect([png.width, png.height]).toEqual([128, 128]);
  });

  it('writes a pgfplots snippet', async () => {
    const { text } = await render('alibi --n 8', 'alibi.tex');
    expect(text()).toMatch(/\\begin\{axis\}[\s\S]*matrix plot\*[\s\S]*\\end\{tikzpicture\}/);
  });
});

describe('relpos render: what it drew', { timeout: 120000 }, () => {
  it("prints the call, the scheme, and each parameter: BLOOM's preset draws the keyPosition form +m·j", async () => {
    const { stderr, text } = await render('bloom-7b1 --n 8 --head 31', 'bloom.json');
    expect(JSON.parse(text()).meta).toMatchObject({ scheme: 'alibi', preset: 'bloom-7b1', heads: 32, head: 31 });
    expect(stderr).toContain(
      "drew the bias view of ALiBi (alibi), from preset bloom-7b1: rp.bias('alibi', { n: 8, heads: 32, alibiBiasMax: 8, form: 'keyPosition' })",
    );
    expect(stderr).toMatch(/^relpos: {3}form = keyPosition \(preset\): m\*j \(BLOOM\)$/m);
    expect(stderr).toMatch(/^relpos: {3}alibiBiasMax = 8 \(preset\): /m);
    const plain = await render('alibi --n 8 --param form=symmetric', 'mpt.json');
    expect(plain.stderr).toMatch(/^relpos: {3}form = symmetric \(--param\): -m\|j-i\| \(paper\/MPT\)$/m);
  });

  it('prints what docs/cli.md shows: BLOOM, a layer group of Llama 4, T5 with its demonstration table', async () => {
    const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const examples = [...doc.matchAll(/\(`npx (relpos render [^`]+)`\):?\n\n```text\n([\s\S]*?)```/g)];
    expect(examples.map(([, command]) => command.split(' ')[2])).toEqual(['bloom-7b1', 'llama-4-scout', 't5-base']);
    for (const [, command, shown] of examples) {
      const words = command.split(' ').slice(1);
      const { stderr } = await run(process.execPath, [cli, ...words], { cwd: outDir, encoding: 'utf8' });
      expect(stderr, command).toBe(shown);
    }
  });

  it('--causal goes to the core call of every view (the core applies it, or names it)', async () => {
    for (const scheme of ['alibi', 'rope', 't5', 'sinusoidal']) {
      const info = rp.schemes.find((s) => s.id === scheme);
      for (const view of viewsFor(info)) {
        const result = await relpos('render', scheme, '--n', '6', '--view', view, '--causal', '--out', out('c.json'));
        if (result.code === 0) {
          const json = JSON.parse(readFileSync(out('c.json'), 'utf8'));
          expect(json.meta.call, `${scheme} ${view}`).toContain('causal: true');
          const head0 = computeView(rp, info, view, { n: 6, causal: true }).data.subarray(0, 36);
          const mask = maskedCells(rp, info, view, { n: 6, causal: true });
          const expected = Array.from(head0, (v, cell) => (mask?.[cell] ? -Infinity : v));
          expect(json.data.flat().map(Number), `${scheme} ${view}`).toEqual(expected);
        } else {
          // A call without a causal form refuses it by name (never dropped silently): a usage error.
          expect(result.code, `${scheme} ${view}`).toBe(2);
          expect(result.stderr).toMatch(/causal/);
        }
      }
    }
  });

  it("--mode goes to the weights view's attention call", async () => {
    const explicit = JSON.parse((await render('alibi --n 8 --view weights --mode explicit', 'm1.json')).text());
    expect(explicit.meta.call).toContain("mode: 'explicit'");
    // ALiBi has no position vectors: the core refuses implicit mode by name.
    const implicit = await relpos(
      'render',
      'alibi',
      '--view',
      'weights',
      '--mode',
      'implicit',
      '--out',
      out('m2.json'),
    );
    expect(implicit.code).toBe(2);
    expect(implicit.stderr).toMatch(/relpos\.attention: mode 'implicit'/);
  });
});

describe('relpos render --config', { timeout: 120000 }, () => {
  it("draws a config.json through rp.fromConfig: BLOOM's config draws what its preset draws", async () => {
    const fromConfig = await render(`--config ${configs}bloom-7b1.json --n 8 --head 5`, 'bloom-config.csv');
    const fromPreset = await render('bloom-7b1 --n 8 --head 5', 'bloom-preset.csv');
    expect(fromConfig.text()).toBe(fromPreset.text());
    expect(fromConfig.stderr).toContain('from config bloom-7b1.json');
    expect(fromConfig.stderr).toMatch(/form = keyPosition \(config\): m\*j \(BLOOM\)/);
  });

  it("uses the config's heads and rotary width, and prints fromConfig's warnings", async () => {
    const { stderr, text } = await render(
      `--config ${configs}qwen2-7b-instruct-yarn.json --n 16 --view scores`,
      'qwen.json',
    );
    const { meta } = JSON.parse(text());
    expect(meta).toMatchObject({ scheme: 'rope-yarn', heads: 28, config: 'qwen2-7b-instruct-yarn.json' });
    expect(meta.call).toMatch(/rp\.scores\('rope-yarn', \{ n: 16, d: 128, heads: 28, .*factor: 4/);
    const reading = rp.fromConfig(readFileSync(`${configs}qwen2-7b-instruct-yarn.json`, 'utf8'));
    expect(reading.warnings.length).toBeGreaterThan(0);
    for (const warning of reading.warnings) expect(stderr).toContain(`qwen2-7b-instruct-yarn.json: ${warning}`);
  });

  it('fails clearly on a config that is not one, and on a missing file', async () => {
    writeFileSync(out('bad.json'), '{ "model_type": 42 ');
    const bad = await relpos('render', '--config', out('bad.json'), '--out', out('x.png'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^relpos: relpos\.fromConfig: /);
    const missing = await relpos('render', '--config', out('nope.json'), '--out', out('x.png'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read --config .*nope\.json/);
  });
});

describe('relpos render --group: a layer group of a hybrid model', { timeout: 120000 }, () => {
  it("draws each group of every hybrid preset with that group's scheme and parameters, by index and by layer type", async () => {
    const hybrids = rp.presets.filter((p) => p.groups.length > 1);
    expect(hybrids.map((p) => p.id)).toEqual(expect.arrayContaining(['gemma-3-4b', 'llama-4-scout']));
    for (const preset of hybrids) {
      for (const [index, group] of preset.groups.entries()) {
        const byIndex = await render(`${preset.id} --n 8 --group ${index}`, `g-${preset.id}-${index}.json`);
        const json = JSON.parse(byIndex.text());
        expect(json.meta, `${preset.id} ${index}`).toMatchObject({
          preset: preset.id,
          scheme: group.scheme,
          group: { index, layerType: group.layerType, layers: group.layers },
        });
        const info = rp.schemes.find((s) => s.id === group.scheme);
        const { d, ...params } = group.params;
        const view = info.calls.includes('bias') ? 'bias' : 'scores';
        const expected = computeView(rp, info, view, { n: 8, heads: preset.heads, d: d ?? 64, ...params });
        expect(json.data.flat().map(Number), `${preset.id} ${index}`).toEqual(
          Array.from(expected.data.subarray(0, 64)),
        );
        expect(byIndex.stderr).toContain(`group ${index} of ${preset.groups.length}: ${group.layerType}`);
        const byName = await render(`${preset.id} --n 8 --group ${group.layerType}`, `g-${preset.id}-name.json`);
        expect(byName.text()).toBe(byIndex.text());
      }
      // Without --group: group 0, and the output says so and names the others.
      const plain = await render(`${preset.id} --n 8`, `g-${preset.id}.json`);
      expect(JSON.parse(plain.text()).meta.group.index).toBe(0);
      expect(plain.stderr).toMatch(/group 0 of \d+: .*--group picks another: 0 /);
    }
  });

  it("applies a sliding-window group's window to the weights view", async () => {
    const config = out('gemma-window.json');
    writeFileSync(
      config,
      JSON.stringify({
        model_type: 'gemma3_text',
        num_hidden_layers: 6,
        num_attention_heads: 2,
        num_key_value_heads: 1,
        head_dim: 16,
        sliding_window: 3,
        sliding_window_pattern: 6,
      }),
    );
    const reading = rp.fromConfig(readFileSync(config, 'utf8'));
    const index = reading.groups.findIndex((g) => g.layerType === 'sliding_attention');
    expect(reading.groups[index].slidingWindow).toBe(3);
    const { text, stderr } = await render(
      `--config ${config} --group sliding_attention --view weights --causal --n 8`,
      'window.json',
    );
    const { data, meta } = JSON.parse(text());
    expect(meta.call).toContain("layer: <the 'rope' group>");
    expect(meta.group).toMatchObject({ index, layerType: 'sliding_attention', slidingWindow: 3, causal: true });
    expect(stderr).toContain('slidingWindow = 3 (group): applied to the attention call (layer)');
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) expect(data[i][j] === '-Infinity', `${i},${j}`).toBe(j > i || j <= i - 3);
    }
    // Other views have no window: the output says so rather than dropping it in silence.
    const bias = await render(`--config ${config} --group sliding_attention --n 8`, 'window-scores.json');
    expect(bias.stderr).toMatch(/slidingWindow = 3 \(group\): attention settings, drawn by --view weights only/);
  });
});

describe('relpos render: demonstration inputs are said in the file', { timeout: 120000 }, () => {
  it("a T5 preset drawn with relpos's demonstration table says so in the PNG's text and the JSON's meta", async () => {
    const png = await render('t5-base --n 8', 't5.png');
    const chunks = pngTextChunks(readFileSync(png.file));
    expect(chunks.Warning).toMatch(/^table: filled with relpos's untrained demonstration values/);
    expect(JSON.parse(chunks.relpos)).toMatchObject({ preset: 't5-base', scheme: 't5', synthetic: ['table'] });
    expect(chunks.Title).toBe('t5-base bias, n = 8, head 0 of 12');
    expect(png.stderr).toMatch(/t5-base: table: filled with relpos's untrained demonstration values.*written into/);
    const json = JSON.parse((await render('t5-base --n 8', 't5.json')).text());
    expect(json.meta).toMatchObject({ synthetic: ['table'], warning: chunks.Warning });
  });

  it('says nothing of the kind when every input is given: a learned table, or a scheme without one', async () => {
    const table = JSON.stringify(Array.from({ length: 32 }, (_, k) => -k / 8));
    const given = await render(`t5 --n 8 --param table=${table}`, 't5-given.png');
    expect(pngTextChunks(readFileSync(given.file)).Warning).toBeUndefined();
    expect(given.stderr).not.toMatch(/untrained demonstration values/);
    const alibi = await render('bloom-7b1 --n 8', 'bloom.png');
    const chunks = pngTextChunks(readFileSync(alibi.file));
    expect(chunks.Warning).toBeUndefined();
    expect(JSON.parse(chunks.relpos)).toMatchObject({ preset: 'bloom-7b1', scheme: 'alibi', view: 'bias' });
  });
});

describe('relpos schemes / presets / --help', { timeout: 120000 }, () => {
  it('lists every scheme', async () => {
    const { code, stdout } = await relpos('schemes');
    expect(code).toBe(0);
    for (const id of ['alibi', 't5', 'rope-yarn', 'deberta', 'cope']) {
      expect(stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
    }
  });

  it('lists schemes as JSON with --json', async () => {
    const { code, stdout } = await relpos('schemes', '--json');
    expect(code).toBe(0);
    const schemes = JSON.parse(stdout);
    expect(schemes.find((s) => s.id === 'alibi').params).toHaveProperty('alibiBiasMax');
  });

  it('lists the presets', async () => {
    const { code, stdout } = await relpos('presets');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^llama-3\.1-8b\s+rope-llama3\s+32/m);
  });

  it('prints usage with --help: every view, --config, and -inf for masked cells', async () => {
    const { code, stdout } = await relpos('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('relpos render <scheme|preset>');
    expect(stdout).toContain('relpos render --config <config.json>');
    expect(stdout).toContain('bias | scores | weights | buckets | distances');
    expect(stdout).toContain('-inf in CSV');
  });

  it('prints usage and exits 2 without a command', async () => {
    const { code, stdout } = await relpos();
    expect(code).toBe(2);
    expect(stdout).toContain('Usage:');
  });
});

describe('relpos errors', { timeout: 120000 }, () => {
  const x = out('x.png');
  const cases = [
    ['an unknown scheme', 'render alibbi', 2, /unknown scheme 'alibbi'; schemes: sinusoidal, .*alibi/],
    ['--param without =', 'render alibi --param alibiBiasMax', 2, /--param must look like name=value/],
    ['--param with bad JSON', 'render alibi --param x=[1,', 2, /not valid JSON/],
    ['a missing --out', 'render alibi', 2, /needs --out/, false],
    ['an unknown option', 'render alibi --bogus', 2, /--bogus/],
    ['an unknown command', 'draw alibi', 2, /unknown command 'draw'/, false],
    ['a view the scheme lacks', 'render alibi --view buckets', 2, /--view: scheme 'alibi' has no buckets view/],
    ['an unknown view', 'render alibi --view heat', 2, /--view: view must be one of bias, scores, weights/],
    ['a bad --n', 'render alibi --n ten', 2, /--n must be an integer/],
    ['an unknown colormap', 'render alibi --colormap jet', 2, /--colormap must be one of viridis/],
    ['--head out of range', 'render alibi --heads 2 --head 2', 2, /--head must be < --heads/],
    ['--head on a map shared by every head', 'render t5 --view buckets --head 1', 2, /one map for every head/],
    ['--mode outside the weights view', 'render alibi --mode implicit', 2, /--mode applies to the weights view/],
    ['a scheme together with --config', 'render alibi --config c.json', 2, /a scheme or --config, not both/],
    ['an unknown scheme parameter (from the core)', 'render alibi --param slope=1', 2, /unknown parameter 'slope'/],
    ['an out-of-range parameter (from the core)', 'render rope --view scores --param base=-1', 2, /base must be > 1/],
    [
      'a Hugging Face name for a CLI option',
      'render alibi --param numHeads=12',
      2,
      /unknown parameter 'numHeads'; did you mean 'heads'\?.*\(on the command line: --heads\)/,
    ],
    ['--heads over the core limit', 'render alibi --heads 5000', 2, /heads must be/],
    ['--group of a scheme', 'render alibi --group 0', 2, /--group applies to a preset or --config/],
    [
      'an unknown --group',
      'render gemma-3-4b --group global',
      2,
      /one of gemma-3-4b's groups \(0 full_attention, 1 sliding_attention\)/,
    ],
    ['a --group index out of range', 'render gemma-3-4b --group 2', 2, /got '2'/],
    ['over the work budget (the computation)', 'render rope --view scores --n 4096 --d 1024', 1, /multiply-adds/],
  ];
  for (const [what, words, expectedCode, message, withOut = true] of cases) {
    it(`rejects ${what} with exit code ${expectedCode}`, async () => {
      const { code, stderr } = await relpos(...words.split(' '), ...(withOut ? ['--out', x] : []));
      expect(code).toBe(expectedCode);
      expect(stderr).toMatch(/^relpos: /);
      expect(stderr).toMatch(message);
    });
  }

  it('rejects an unknown extension with exit code 2, naming every format', async () => {
    const { code, stderr } = await relpos('render', 'alibi', '--out', out('x.gif'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--out must end in \.png, \.svg, \.csv, \.json, \.tex, got '\.gif'/);
  });
});
