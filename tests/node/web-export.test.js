// Text exporters of the web figures (CSV, JSON, pgfplots, SVG) and messages — pure, no DOM.
import { describe, expect, it } from 'vitest';
import { dataNumber, fromJSON, texEscape, toCSV, toJSON, toPgfplots, toSVG, xmlEscape } from '../../figure/export.js';
import { defaultMessages, formatMessage, mergeMessages } from '../../web/components/messages.js';

function heatmap(n, f = (i, j) => 0 - Math.abs(j - i) * 0.5) {
  const data = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = j > i + 2 ? -Infinity : f(i, j);
  return {
    kind: 'heatmap',
    rows: n,
    cols: n,
    data,
    colormap: 'viridis',
    range: [-(n - 1) * 0.5, 0],
    xLabel: 'key j',
    yLabel: 'query i',
    title: 'ALiBi & <bias>',
  };
}

const curve = {
  kind: 'curve',
  x: [0, 1, 2, 3],
  series: [
    { label: 'head 0', y: [1, 0.5, 0.25, null] },
    { label: 'a, "quoted" one', y: [2, 1, 0.5, 0.125] },
  ],
  xLabel: 'r',
  yLabel: 'f(r)_1',
  log: true,
};

describe('CSV', () => {
  it('writes n rows of n float32-exact values, -inf for masked cells', () => {
    const fig = heatmap(5);
    const lines = toCSV(fig).trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.every((l) => l.split(',').length === 5)).toBe(true);
    expect(lines[0].split(',')[4]).toBe('-inf');
    expect(
      lines
        .flatMap((l) => l.split(','))
        .filter((v) => v !== '-inf')
        .map(Number)
        .map(Math.fround),
    ).toEqual(Array.from(fig.data).filter(Number.isFinite));
    expect(dataNumber(0.1)).toBe('0.1');
    expect(Math.fround(Number(dataNumber(Math.fround(0.1))))).toBe(Math.fround(0.1));
  });

  it('writes curves with a quoted header', () => {
    const lines = toCSV(curve).trimEnd().split('\n');
    expect(lines[0]).toBe('r,head 0,"a, ""quoted"" one"');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('3,,0.125');
  });
});

describe('JSON', () => {
  it('round-trips heatmaps, including -Infinity', () => {
    const fig = heatmap(6);
    const back = fromJSON(toJSON(fig));
    expect(back.rows).toBe(6);
    expect(Array.from(back.data)).toEqual(Array.from(fig.data));
    expect(back.range).toEqual(fig.range);
    expect(back.colormap).toBe('viridis');
  });

  it('round-trips curves and rejects other JSON', () => {
    const back = fromJSON(toJSON(curve));
    expect(Array.from(back.series[1].y)).toEqual([2, 1, 0.5, 0.125]);
    expect(Number.isNaN(back.series[0].y[3])).toBe(true);
    expect(() => fromJSON('{"a":1}')).toThrow(TypeError);
  });
});

describe('pgfplots', () => {
  it('inlines small heatmaps as a matrix plot with escaped labels', () => {
    const tex = toPgfplots(heatmap(4));
    expect(tex).toContain('\\begin{axis}');
    expect(tex).toContain('\\end{axis}');
    expect(tex).toContain('matrix plot*');
    expect(tex).toContain('mesh/cols=4');
    expect(tex).toContain('title={ALiBi \\& <bias>}');
    expect(tex.split('\n').filter((l) => /^\d+ \d+ /.test(l))).toHaveLength(16);
  });

  it('uses \\addplot graphics for large heatmaps', () => {
    const tex = toPgfplots(heatmap(100), { imageFile: 'map.png' });
    expect(tex).toContain('\\addplot graphics');
    expect(tex).toContain('{map.png}');
    expect(tex.length).toBeLessThan(4000);
  });

  it('writes curves with log axes and legend entries', () => {
    const tex = toPgfplots(curve);
    expect(tex).toContain('ymode=log');
    expect(tex).toContain('ylabel={f(r)\\_1}');
    expect(tex.match(/\\addplot/g)).toHaveLength(2);
    expect(texEscape('50% of $x_1$ {~}')).toBe('50\\% of \\$x\\_1\\$ \\{\\~{}\\}');
  });
});

describe('SVG', () => {
  it('draws small heatmaps as rects and escapes text', () => {
    const svg = toSVG(heatmap(8));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/shape-rendering="crispEdges"/g)).toHaveLength(64);
    expect(svg).toContain('ALiBi &amp; &lt;bias&gt;');
    expect(svg).not.toContain('<bias>');
  });

  it('needs a PNG data URL for large heatmaps and refuses anything else', () => {
    expect(() => toSVG(heatmap(40))).toThrow(/pngDataUrl/);
    expect(() => toSVG(heatmap(40), { pngDataUrl: 'javascript:alert(1)' })).toThrow(TypeError);
    expect(toSVG(heatmap(40), { pngDataUrl: 'data:image/png;base64,AAAA' })).toContain('<image');
  });

  it('draws curves as polylines with a gap for missing values', () => {
    const svg = toSVG(curve);
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(xmlEscape('<a href="x">')).toBe('&lt;a href=&quot;x&quot;&gt;');
  });
});

describe('messages', () => {
  it('fills placeholders and merges only known string keys', () => {
    expect(formatMessage(defaultMessages.readout, { i: 1, j: 3, r: 2, value: '0.5' })).toBe(
      'i = 1, j = 3, r = j − i = 2, value = 0.5',
    );
    expect(formatMessage('{a} {b}', { a: '<b>' })).toBe('<b> {b}');
    const m = mergeMessages(defaultMessages, { axisKey: '键 j', views: { bias: '偏置' }, bogus: 'x', axisQuery: 42 });
    expect(m.axisKey).toBe('键 j');
    expect(m.views.bias).toBe('偏置');
    expect(m.views.scores).toBe('scores');
    expect(m.axisQuery).toBe('query i');
    expect('bogus' in m).toBe(false);
  });
});
