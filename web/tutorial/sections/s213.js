// 2.1.3 Geometry. Part "metrics": the Euclidean / cosine / Manhattan distance matrices of the position
// vectors (2.1.3-a), whether each is a function of j − i, the distance from position 0 against r
// (2.1.3-b) and a PCA projection (2.1.3-c). Part "manifold": the 2-D pairs of the vectors on their
// circles (2.1.3-d) and the relative map φ(i, j) computed from two vectors (2.1.3-e).
import { renderCurve } from '../../components/relpos-curve.js';
import { geometry, METRICS, relativeMap } from '../verdicts.js';
import { controls, el, figure, fmt, localize, MatrixView, onLang, select, slider, stat, t, words } from '../ui.js';
import { pct } from '../format.js';

const SVG = 'http://www.w3.org/2000/svg';
const svgEl = (tag, attrs = {}) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
};

function sourceSelect(name) {
  return select({
    key: 's213.source',
    name,
    value: 'sinusoidal',
    options: ['sinusoidal', 'rope', 'learned'].map((v) => ({ value: v, key: `s213.source.${v}` })),
  });
}

/**
 * A square SVG plot of 2-D points with axes through the origin and labels: one polyline per series
 * (joined in order), or dots when `dots`.
 */
function planePlot(series, { xLabel, yLabel, label, dots = false, title = '' }) {
  let m = 1e-12;
  for (const points of series) for (const [x, y] of points) m = Math.max(m, Math.abs(x), Math.abs(y));
  const svg = svgEl('svg', { viewBox: '-1.25 -1.25 2.5 2.5', class: 'projection', role: 'img', 'aria-label': label });
  svg.append(
    svgEl('line', { x1: -1.1, x2: 1.1, y1: 0, y2: 0, stroke: 'currentColor', 'stroke-width': 0.01, opacity: 0.4 }),
    svgEl('line', { x1: 0, x2: 0, y1: -1.1, y2: 1.1, stroke: 'currentColor', 'stroke-width': 0.01, opacity: 0.4 }),
  );
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];
  series.forEach((points, s) => {
    if (dots) {
      for (const [x, y] of points) {
        svg.append(
          svgEl('circle', { cx: (x / m).toFixed(4), cy: (-y / m).toFixed(4), r: 0.025, fill: colours[s % 4] }),
        );
      }
      return;
    }
    const coords = points.map(([x, y]) => `${(x / m).toFixed(4)},${(-y / m).toFixed(4)}`).join(' ');
    svg.append(svgEl('polyline', { points: coords, fill: 'none', stroke: colours[s % 4], 'stroke-width': 0.012 }));
  });
  const text = (content, attrs) => {
    const node = svgEl('text', { 'font-size': 0.1, fill: 'currentColor', ...attrs });
    node.textContent = content;
    return node;
  };
  svg.append(text(xLabel, { x: 1.2, y: -0.05, 'text-anchor': 'end' }), text(yLabel, { x: 0.05, y: -1.12 }));
  svg.append(text(`±${fmt(m)}`, { x: 1.2, y: 0.14, 'text-anchor': 'end', opacity: 0.7 }));
  if (title) svg.append(text(title, { x: -1.2, y: -1.12 }));
  return svg;
}

function mountMetrics(root, rp) {
  const source = sourceSelect('source');
  const n = slider({ key: 's213.n', min: 16, max: 256, step: 8, value: 128, name: 'n', unit: 'ui.unit.positions' });
  const d = slider({ key: 's213.d', min: 4, max: 128, step: 4, value: 16, name: 'd', unit: 'ui.unit.dims' });
  const views = METRICS.map(
    () => new MatrixView({ colormap: 'viridis', xKey: 'ui.axisPosJ', yKey: 'ui.axisPosI', unitKey: 's213.unit' }),
  );
  const curveBox = el('div', { className: 'curve-box' });
  const plane = el('div', { className: 'projection-figure' });
  const stats = METRICS.map((m) => stat(`s213.relative.${m}`, `relative-${m}`));
  const monotone = METRICS.map((m) => stat(`s213.monotone.${m}`, `monotone-${m}`));
  const explained = stat('s213.explained', 'explained');
  root.append(
    controls(source.root, n.root, d.root),
    figure(
      '2.1.3-a',
      's213.fig.a',
      el(
        'div',
        { className: 'demo-row three' },
        ...views.map((v, i) => el('div', {}, el('h4', {}, words(`s213.metric.${METRICS[i]}`)), v.root, stats[i].root)),
      ),
    ),
    el(
      'div',
      { className: 'demo-row' },
      figure('2.1.3-b', 's213.fig.b', curveBox),
      figure('2.1.3-c', 's213.fig.c', plane),
    ),
    el('div', { className: 'stats' }, ...monotone.map((m) => m.root), explained.root),
  );

  function update() {
    const size = n.value;
    const g = geometry(rp, source.value, size, d.value);
    METRICS.forEach((metric, index) => {
      const m = g.metrics[metric];
      views[index].show(m.D, { colormap: 'viridis' });
      stats[index].set(
        t(m.relative ? 's213.isRelative' : 's213.notRelative', { defect: fmt(m.defect) }),
        m.relative ? 'yes' : 'no',
      );
      monotone[index].set(
        m.firstMax < 0 ? t('s213.isMonotone', { n: size }) : t('s213.firstMax', { r: m.firstMax }),
        m.firstMax < 0 ? 'yes' : 'no',
      );
    });
    renderCurve(curveBox, {
      x: Array.from({ length: size }, (_, r) => r),
      series: METRICS.map((metric) => ({ label: t(`s213.metric.${metric}`), y: g.metrics[metric].row })),
      xLabel: t('s213.curveX'),
      yLabel: t('s213.curveY'),
    });
    const points = Array.from({ length: size }, (_, i) => [g.pca.points.data[2 * i], g.pca.points.data[2 * i + 1]]);
    plane.replaceChildren(
      planePlot([points], {
        xLabel: t('s213.pc1'),
        yLabel: t('s213.pc2'),
        label: t('s213.projectionLabel', { n: size }),
      }),
    );
    explained.set(t('s213.explainedValue', { a: pct(g.pca.explained[0]), b: pct(g.pca.explained[1]) }));
  }
  for (const c of [n, d]) c.input.addEventListener('input', update);
  source.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

function mountManifold(root, rp) {
  const source = sourceSelect('source');
  const n = slider({ key: 's213.n', min: 16, max: 256, step: 8, value: 128, name: 'n', unit: 'ui.unit.positions' });
  const d = slider({ key: 's213.d', min: 4, max: 128, step: 4, value: 16, name: 'd', unit: 'ui.unit.dims' });
  const circles = el('div', { className: 'projection-figure' });
  const view = new MatrixView({ colormap: 'rdbu', xKey: 'ui.axisPosJ', yKey: 'ui.axisPosI', unitKey: 's213.phiUnit' });
  const defect = stat('s213.phiDefect', 'phi-defect');
  root.append(
    controls(source.root, n.root, d.root),
    el(
      'div',
      { className: 'demo-row' },
      figure('2.1.3-d', 's213.fig.d', circles),
      figure('2.1.3-e', 's213.fig.e', el('div', {}, view.root, defect.root)),
    ),
  );

  function update() {
    const size = n.value;
    const dim = d.value;
    const { phi, E, defect: value, relative } = relativeMap(rp, source.value, size, dim);
    const pairs = Math.min(4, dim / 2);
    circles.replaceChildren(
      ...Array.from({ length: pairs }, (_, k) => {
        const points = Array.from({ length: size }, (_, i) => [E.data[i * dim + 2 * k], E.data[i * dim + 2 * k + 1]]);
        const plot = planePlot([points], {
          xLabel: t('s213.pairX'),
          yLabel: t('s213.pairY'),
          label: t('s213.circlesLabel', { k }),
          title: t('s213.pairTitle', { k }),
          dots: true,
        });
        plot.style.width = '48%';
        return plot;
      }),
    );
    view.show({ shape: [size, size], data: phi.data.subarray(0, size * size) }, { colormap: 'rdbu', range: [-1, 1] });
    defect.set(t(relative ? 's213.phiIs' : 's213.phiNot', { defect: fmt(value) }), relative ? 'yes' : 'no');
    root.dataset.phiDefect = String(value);
  }
  for (const c of [n, d]) c.input.addEventListener('input', update);
  source.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}

export function mount(root, { rp, part }) {
  if (part === 'manifold') mountManifold(root, rp);
  else mountMetrics(root, rp);
}
