// 2.1.3 Geometry: euclidean / cosine / manhattan distance matrices between position vectors, the
// distance against |i − j|, and a PCA (SVD) projection of the vectors onto a plane.
import { renderCurve } from '../../components/relpos-curve.js';
import {
  controls,
  el,
  fmt,
  localize,
  MatrixView,
  onLang,
  randomTensor,
  select,
  slider,
  stat,
  t,
  words,
} from '../ui.js';

const METRICS = ['euclidean', 'cosine', 'manhattan'];

export function mount(root, { rp }) {
  const source = select({
    key: 's213.source',
    name: 'source',
    value: 'sinusoidal',
    options: ['sinusoidal', 'rope', 'learned'].map((v) => ({ value: v, key: `s213.source.${v}` })),
  });
  const n = slider({ key: 's213.n', min: 16, max: 256, step: 8, value: 128, name: 'n' });
  const d = slider({ key: 's213.d', min: 4, max: 128, step: 4, value: 16, name: 'd' });
  const views = METRICS.map((m) => new MatrixView({ captionKey: `s213.metric.${m}` }));
  const curveBox = el('div', { className: 'curve-box' });
  const svgNS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('viewBox', '-1.1 -1.1 2.2 2.2');
  svg.setAttribute('class', 'projection');
  svg.setAttribute('role', 'img');
  const path = document.createElementNS(svgNS, 'polyline');
  svg.append(path);
  const monotone = METRICS.map((m) => stat(`s213.monotone.${m}`, `monotone-${m}`));
  const explained = stat('s213.explained', 'explained');
  root.append(
    controls(source.root, n.root, d.root),
    el('div', { className: 'demo-row three' }, ...views.map((v) => v.root)),
    el(
      'div',
      { className: 'demo-row' },
      curveBox,
      el('figure', { className: 'projection-figure' }, svg, el('figcaption', {}, words('s213.projection'))),
    ),
    el('div', { className: 'stats' }, ...monotone.map((m) => m.root), explained.root),
  );

  function vectors(size, dim) {
    if (source.value === 'sinusoidal') return rp.encoding('sinusoidal', { n: size, d: dim });
    if (source.value === 'rope') {
      // RoPE-rotated unit vectors: the all-ones unit vector rotated to each position.
      const x = { shape: [size, dim], data: new Float32Array(size * dim).fill(1 / Math.sqrt(dim)) };
      return rp.rotate(x, { scheme: 'rope', positions: Array.from({ length: size }, (_, i) => i) });
    }
    return randomTensor(size, dim, 5, 1 / Math.sqrt(dim));
  }

  function update() {
    const size = n.value;
    const E = vectors(size, d.value);
    const rows = [];
    METRICS.forEach((metric, index) => {
      const D = rp.analysis.distances(E, metric);
      views[index].show(D, { colormap: 'viridis' });
      const row = D.data.subarray(0, size);
      rows.push(Array.from(row));
      // First r at which the distance to position 0 stops growing (aliasing).
      let first = -1;
      for (let r = 1; r < size; r++) {
        if (row[r] < row[r - 1] - 1e-6) {
          first = r;
          break;
        }
      }
      monotone[index].set(
        first < 0 ? t('s213.isMonotone', { n: size }) : t('s213.aliasAt', { r: first }),
        first < 0 ? 'yes' : 'no',
      );
    });
    renderCurve(curveBox, {
      x: Array.from({ length: size }, (_, r) => r),
      series: METRICS.map((metric, index) => ({ label: t(`s213.metric.${metric}`), y: rows[index] })),
      xLabel: t('s213.curveX'),
      yLabel: t('s213.curveY'),
      title: t('s213.curveTitle'),
    });
    const { points, explained: ex } = rp.analysis.project2d(E);
    let m = 1e-12;
    for (const v of points.data) m = Math.max(m, Math.abs(v));
    const coords = [];
    for (let i = 0; i < size; i++) {
      coords.push(`${(points.data[2 * i] / m).toFixed(4)},${(-points.data[2 * i + 1] / m).toFixed(4)}`);
    }
    path.setAttribute('points', coords.join(' '));
    svg.setAttribute('aria-label', t('s213.projectionLabel', { n: size }));
    explained.set(t('s213.explainedValue', { a: fmt(ex[0] * 100), b: fmt(ex[1] * 100) }));
  }
  for (const c of [n, d]) c.input.addEventListener('input', update);
  source.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}
