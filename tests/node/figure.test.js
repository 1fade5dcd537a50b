// relpos/figure from Node, no DOM: files of tensors and views with the elements' colour maps,
// colour rule and formats; the views as compute.js defines them; errors that name the function;
// and docs/cli.md's example, run as written.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pngjs from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import {
  callText,
  describeParams,
  encodeFigure,
  fromJSON,
  heatmapFigure,
  viewCall,
  viewFigure,
  viewsFor,
  writeFigure,
} from '../../bindings/figure.js';
import { colormapTable, lutIndex } from '../../figure/colormap.js';
import { computeView } from '../../figure/views.js';

const dir = fileURLToPath(new URL('../../build/figure-test/', import.meta.url));
let rp;
const info = (id) => rp.schemes.find((s) => s.id === id);

beforeAll(async () => {
  rp = await load({ analysis: true });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('heatmapFigure and the files of a tensor', () => {
  it('writes a PNG whose pixels are LUT[round((v − lo)·255/(hi − lo))], masked cells grey', async () => {
    const tensor = rp.bias('alibi', { n: 12, heads: 4, causal: true });
    const { figure } = await writeFigure(`${dir}alibi.png`, tensor, { head: 2, colormap: 'magma', scale: 2 });
    const png = pngjs.PNG.sync.read(readFileSync(`${dir}alibi.png`));
    expect([png.width, png.height]).toEqual([24, 24]);
    const [lo, hi] = figure.range;
    const lut = colormapTable('magma');
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 12; j++) {
        const v = tensor.data[2 * 144 + i * 12 + j];
        const at = (2 * i * 24 + 2 * j) * 4;
        const expected =
          v === -Infinity ? [128, 128, 128] : [...lut.subarray(lutIndex(v, lo, 255 / (hi - lo)) * 4)].slice(0, 3);
        expect([...png.data.subarray(at, at + 3)], `${i},${j}`).toEqual(expected);
      }
    }
  });

  it('picks the colour scale the elements pick: viridis over the finite range, rdbu centred at 0 when signed', () => {
    const bias = heatmapFigure(rp.bias('alibi', { n: 8 }));
    expect(bias.colormap).toBe('viridis');
    expect(bias.range).toEqual([-7 * 2 ** -8, 0]);
    const signed = heatmapFigure({ shape: [2, 2], data: Float32Array.of(-1, 3, 0, 2) });
    expect(signed).toMatchObject({ colormap: 'rdbu', range: [-3, 3], rows: 2, cols: 2, meta: { head: 0 } });
  });

  it('writes CSV (-inf masked), JSON that reads back, SVG and pgfplots — the exporters of the elements', async () => {
    const tensor = rp.bias('alibi', { n: 40, causal: true });
    await writeFigure(`${dir}a.csv`, tensor);
    expect(readFileSync(`${dir}a.csv`, 'utf8').split('\n')[0].split(',').slice(0, 3)).toEqual(['0', '-inf', '-inf']);
    await writeFigure(`${dir}a.json`, tensor, { title: 'ALiBi', meta: { scheme: 'alibi' } });
    const back = fromJSON(readFileSync(`${dir}a.json`, 'utf8'));
    expect(back).toMatchObject({ kind: 'heatmap', rows: 40, cols: 40, title: 'ALiBi', meta: { scheme: 'alibi' } });
    expect(Array.from(back.data)).toEqual(Array.from(tensor.data));
    await writeFigure(`${dir}a.svg`, tensor);
    const svg = readFileSync(`${dir}a.svg`, 'utf8');
    const png = pngjs.PNG.sync.read(Buffer.from(/base64,([A-Za-z0-9+/=]+)/.exec(svg)[1], 'base64'));
    expect([png.width, png.height]).toEqual([40, 40]); // 40×40 > 32×32: the map is an embedded PNG
    await writeFigure(`${dir}a.tex`, tensor);
    expect(readFileSync(`${dir}a.tex`, 'utf8')).toContain('matrix plot*');
  });

  it('writes a curve figure as SVG, CSV, JSON and pgfplots, and says its PNG needs a browser', async () => {
    const curve = { kind: 'curve', x: [0, 1, 2], series: [{ label: 'θ', y: [1, 0.1, 0.01] }], log: true };
    await writeFigure(`${dir}c.csv`, curve);
    expect(readFileSync(`${dir}c.csv`, 'utf8')).toBe('x,θ\n0,1\n1,0.1\n2,0.01\n');
    expect(encodeFigure(curve, 'svg')).toContain('<polyline');
    expect(() => encodeFigure(curve, 'png')).toThrow(/^relpos\.encodeFigure: a curve's PNG is drawn by a browser/);
  });

  it('names the function and the argument on bad input', async () => {
    const t = rp.bias('alibi', { n: 4 });
    await expect(writeFigure(`${dir}x.gif`, t)).rejects.toThrow(/^relpos\.writeFigure: path must end in \.png, \.svg/);
    await expect(writeFigure(`${dir}x.png`, { shape: [2] })).rejects.toThrow(/^relpos\.writeFigure: source must be/);
    await expect(writeFigure(42, t)).rejects.toThrow(TypeError);
    expect(() => heatmapFigure(t, { head: 3 })).toThrow(/^relpos\.heatmapFigure: head must be an integer in \[0, 0\]/);
    expect(() => heatmapFigure(t, { range: [1, 0] })).toThrow(/^relpos\.heatmapFigure: range must be/);
    expect(() => heatmapFigure(t, { colormap: 'jet' })).toThrow(/colormap must be one of viridis/);
    expect(() => encodeFigure(heatmapFigure(t), 'png', { scale: 0 })).toThrow(/^relpos\.encodeFigure: scale must be/);
    expect(() => encodeFigure(heatmapFigure(t), 'bmp')).toThrow(/^relpos\.encodeFigure: format must be one of png/);
  });
});

describe('views (figure/views.js), shared by the elements, the CLI and relpos/figure', () => {
  it('viewFigure computes what computeView computes and says which call it made', () => {
    const { figure, call } = viewFigure(rp, { scheme: 'rope', view: 'weights', n: 8, d: 16, causal: true });
    const expected = computeView(rp, info('rope'), 'weights', { n: 8, d: 16, causal: true });
    // The weights the call masks (causal: j > i) are drawn as masked (−∞), the others as computed.
    expect(Array.from(figure.data)).toEqual(
      Array.from(expected.data, (v, cell) => (cell % 8 > Math.floor(cell / 8) ? -Infinity : v)),
    );
    expect(Array.from(expected.data).filter((v, cell) => cell % 8 > Math.floor(cell / 8))).toEqual(Array(28).fill(0));
    expect(figure.meta.masked).toMatch(/-Infinity/);
    expect(figure.range[1]).toBe(1);
    expect(call).toEqual({
      view: 'weights',
      call: 'attention',
      scheme: 'rope',
      options: { n: 8, d: 16, heads: 1, mode: 'explicit', causal: true, params: { d: 16 } },
    });
    expect(figure.meta.call).toBe(
      "rp.attention({ q: ones [8, 1·16], k: ones, scheme: 'rope', heads: 1, mode: 'explicit', causal: true, params: { d: 16 } }).weights",
    );
  });

  it('passes causal to the call of every view when it is set, and not otherwise', () => {
    for (const scheme of ['alibi', 't5', 'rope', 'sinusoidal', 'shaw']) {
      for (const view of viewsFor(info(scheme))) {
        expect(viewCall(info(scheme), view, { causal: true }).options.causal, `${scheme} ${view}`).toBe(true);
        expect(viewCall(info(scheme), view, {}).options, `${scheme} ${view}`).not.toHaveProperty('causal');
      }
    }
    // An encoding has no mask: the core names the option instead of dropping it.
    expect(() => computeView(rp, info('sinusoidal'), 'distances', { causal: true })).toThrow(/causal/);
  });

  it('each view is the call docs/elements.md names', () => {
    const calls = Object.fromEntries(
      viewsFor(info('t5')).map((view) => [view, callText(viewCall(info('t5'), view, { n: 4 }))]),
    );
    expect(calls).toEqual({
      bias: "rp.bias('t5', { n: 4, heads: 1 })",
      scores: "rp.scores('t5', { n: 4, d: 64, heads: 1 })",
      weights:
        "rp.attention({ q: ones [4, 1·64], k: ones, scheme: 't5', heads: 1, mode: 'explicit', params: {} }).weights",
      buckets: "rp.buckets('t5', { n: 4 })",
    });
    expect(callText(viewCall(info('rope'), 'distances', { n: 4 }))).toBe(
      "rp.analysis.distances(rp.encoding('rope', { n: 4, d: 64 }), 'euclidean')",
    );
  });

  it("describes each parameter; a choice by the meaning of its value (BLOOM's ALiBi: m*j)", () => {
    const rows = describeParams(info('alibi'), { form: 'keyPosition' });
    expect(rows.find((r) => r.name === 'form')).toEqual({
      name: 'form',
      value: 'keyPosition',
      given: true,
      meaning: 'keyPosition: m*j (BLOOM)',
    });
    expect(rows.find((r) => r.name === 'alibiBiasMax')).toMatchObject({ value: 8, given: false });
    expect(rows.map((r) => r.name)).not.toContain('n');
  });
});

describe('docs/cli.md', () => {
  it('its relpos/figure example runs as written', () => {
    const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const code = /```js\n([\s\S]*?)```/.exec(doc)[1];
    writeFileSync(`${dir}example.mjs`, code);
    execFileSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(pngjs.PNG.sync.read(readFileSync(`${dir}alibi.png`)).width).toBe(64 * 4);
    expect(readFileSync(`${dir}rope.svg`, 'utf8')).toMatch(/^<svg/);
  });
});
