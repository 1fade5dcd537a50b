// Exports from every figure in Chromium: PNG (signature, size), SVG (parses), CSV (n rows), JSON
// (round-trips), pgfplots (\begin{axis}); the export menu hands the file to the page.
import { beforeAll, describe, expect, it } from 'vitest';
import { fromJSON } from '../../figure/export.js';
import { useSitePage } from './browser.js';
import { addHeatmap } from './fixtures.js';

const shared = useSitePage();
let page;
let errors;
beforeAll(() => ({ page, errors } = shared));

// Every format of one element, as text (PNG as byte array + IHDR size, SVG parsed in the page).
function exportAll(selector) {
  return page.evaluate(async (sel) => {
    const el = document.querySelector(sel);
    const out = {};
    for (const format of ['png', 'svg', 'csv', 'json', 'tex']) {
      const { blob, filename } = await el.export(format);
      if (format === 'png') {
        const bytes = new Uint8Array(await blob.arrayBuffer());
        const view = new DataView(bytes.buffer);
        out.png = {
          signature: Array.from(bytes.slice(0, 8)),
          width: view.getUint32(16),
          height: view.getUint32(20),
          type: blob.type,
          filename,
        };
      } else {
        const text = await blob.text();
        out[format] = { text, filename, type: blob.type };
        if (format === 'svg') {
          const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
          out.svg.parsed = {
            error: doc.querySelector('parsererror')?.textContent ?? null,
            root: doc.documentElement.nodeName,
            rects: doc.querySelectorAll('rect[shape-rendering]').length,
            images: doc.querySelectorAll('image').length,
            texts: Array.from(doc.querySelectorAll('text'), (t) => t.textContent),
          };
        }
      }
    }
    return out;
  }, selector);
}

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

describe('heatmap export', () => {
  it('small map (n = 16): PNG, SVG with rects, CSV, JSON, pgfplots', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 16, heads: 2, head: 1, causal: 'true' });
    const data = await page.evaluate(
      (s) =>
        Array.from(document.querySelector(s).tensor.data.subarray(256, 512), (v) =>
          Number.isFinite(v) ? v : String(v),
        ),
      sel,
    );
    const out = await exportAll(sel);
    expect(out.png.signature).toEqual(PNG_SIGNATURE);
    expect([out.png.width, out.png.height]).toEqual([512, 512]);
    expect(out.png.filename).toBe('relpos-alibi-bias.png');
    expect(out.svg.parsed.error).toBe(null);
    expect(out.svg.parsed.root).toBe('svg');
    expect(out.svg.parsed.rects).toBe(256);
    expect(out.svg.parsed.texts).toContain('key j');
    const lines = out.csv.text.trimEnd().split('\n');
    expect(lines).toHaveLength(16);
    expect(lines[0].split(',')[15]).toBe('-inf');
    expect(Number(lines[5].split(',')[2])).toBeCloseTo(data[5 * 16 + 2], 6);
    const back = fromJSON(out.json.text);
    expect(Array.from(back.data, (v) => (Number.isFinite(v) ? v : String(v)))).toEqual(data);
    expect(back.meta).toMatchObject({ scheme: 'alibi', view: 'bias', head: 1 });
    expect(out.tex.text).toContain('\\begin{axis}');
    expect(out.tex.text).toContain('matrix plot*');
  });

  it('large map (n = 256): SVG embeds the PNG as an <image> under vector axes; pgfplots uses \\addplot graphics', async () => {
    const sel = await addHeatmap(page, { scheme: 'rope', n: 256, view: 'scores' });
    const out = await exportAll(sel);
    expect(out.png.signature).toEqual(PNG_SIGNATURE);
    expect([out.png.width, out.png.height]).toEqual([512, 512]);
    expect(out.svg.parsed.error).toBe(null);
    expect(out.svg.parsed.images).toBe(1);
    expect(out.svg.parsed.rects).toBe(0);
    expect(out.csv.text.trimEnd().split('\n')).toHaveLength(256);
    expect(out.tex.text).toContain('\\addplot graphics');
    expect(out.tex.text).toContain('{relpos-rope-scores.png}');
  });

  it('the export menu hands each file to the page (relpos-export, cancelable) in the right format', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 8, heads: 1 });
    const got = await page.evaluate(async (s) => {
      const el = document.querySelector(s);
      const files = [];
      el.addEventListener('relpos-export', (e) => {
        e.preventDefault();
        files.push({ format: e.detail.format, filename: e.detail.filename, size: e.detail.blob.size });
      });
      const root = el.shadowRoot;
      const labels = [];
      for (const button of root.querySelectorAll('.export button')) {
        root.querySelector('.export summary').click();
        labels.push(button.textContent);
        button.click();
        await new Promise((r) => setTimeout(r, 100));
      }
      return { files, labels };
    }, sel);
    expect(got.labels).toEqual(['PNG image', 'SVG (vector)', 'CSV table', 'JSON data', 'pgfplots (LaTeX)']);
    expect(got.files.map((f) => f.filename)).toEqual(
      ['png', 'svg', 'csv', 'json', 'tex'].map((x) => `relpos-alibi-bias.${x}`),
    );
    expect(got.files.every((f) => f.size > 0)).toBe(true);
  });

  it('an uncancelled export downloads the file', async () => {
    const sel = await addHeatmap(page, { scheme: 'alibi', n: 8, heads: 1 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate(
        (s) => document.querySelector(s).shadowRoot.querySelector('.export button[data-format="csv"]').click(),
        sel,
      ),
    ]);
    expect(download.suggestedFilename()).toBe('relpos-alibi-bias.csv');
    expect(errors).toEqual([]);
  });
});

describe('curve export', () => {
  it('the playground curve exports PNG, SVG (polylines), CSV, JSON and pgfplots', async () => {
    await page.waitForFunction(() => document.getElementById('curve')?.dataset.state === 'ready');
    const out = await exportAll('#curve');
    expect(out.png.signature).toEqual(PNG_SIGNATURE);
    expect(out.png.width).toBeGreaterThan(100);
    expect(out.svg.parsed.error).toBe(null);
    const figure = fromJSON(out.json.text);
    expect(figure.kind).toBe('curve');
    expect(figure.series).toHaveLength(8);
    const lines = out.csv.text.trimEnd().split('\n');
    expect(lines).toHaveLength(figure.x.length + 1);
    expect(lines[0].split(',')).toHaveLength(9);
    expect(out.tex.text).toContain('\\begin{axis}');
    expect(out.tex.text.match(/\\addplot/g)).toHaveLength(8);
  });
});
