// <relpos-curve>: line plots drawn with uPlot inside a shadow root — decay profiles, rotary spectra,
// wavelengths, or any data a page hands over (precision error vs position, angle plots, …).
//   Declarative: <relpos-curve kind="profile" scheme="alibi" n="256" heads="4"></relpos-curve>
//     kind = profile      one row of a view (bias | scores | weights, attribute `view`, computed as
//                         compute.js defines it) against r = j − i, one series per head; the row is
//                         attribute `query` (default n/2)
//          | frequencies  rp.frequencies(scheme, { d, …params }).invFreq against pair k (log y)
//          | wavelengths  2π / θ_k against k (log y)
//     (n, heads and causal shape a profile; a spectrum depends on d and the parameters only.)
//   Programmatic: renderCurve(element, { x, series: [{ label, y, dashed }], xLabel, yLabel, log, logX }) or
//     el.data = { … } — data set this way wins over the attributes.
// Keyboard: the plot is focusable; ← / → move a cursor along x (Shift: ×10), the values are
// announced through an aria-live readout. The toolbar, export menu, words and events come from
// element.js; docs/elements.md has it all.
import uPlot from 'uplot';
import { computeView, defaultView, viewCall } from '../../figure/views.js';
import { RelposElement, elementTemplate } from './element.js';
import { seriesColor } from '../../figure/export.js';
import { formatMessage } from './messages.js';
import { formatNumber, formatTick } from '../../figure/ticks.js';
import { UPLOT_CSS } from './uplot-css.js';

const STYLE = `${UPLOT_CSS}
  :host { display: block; }
  .plot { width: var(--relpos-curve-width, 100%); min-height: 120px; outline: none; }
  .plot:focus-visible { outline: 2px solid var(--rp-focus, Highlight); outline-offset: 2px; }
`;

const TEMPLATE = elementTemplate(STYLE, { body: '<div class="plot" part="plot" tabindex="0" role="img"></div>' });

const KINDS = ['profile', 'frequencies', 'wavelengths'];
// Axis labels through formatTick: uPlot's default shows ticks below 1e-3 as "0" on log axes.
const tickLabels = (u, splits) => splits.map(formatTick);
// The element's own attributes; every other attribute naming a scheme parameter is one.
const OWN_ATTRIBUTES = ['kind', 'scheme', 'view', 'mode', 'query', 'log', 'height', 'params'];

export class RelposCurve extends RelposElement {
  #plot = null;
  #host;
  #data = null; // programmatic data
  #figure = null; // what is shown
  #index = -1;

  constructor() {
    super(TEMPLATE);
    this.#host = this.shadowRoot.querySelector('.plot');
    this.#host.addEventListener('keydown', (e) => this.#key(e));
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#plot?.destroy();
    this.#plot = null;
  }

  /** Programmatic data { x, series: [{ label, y, dashed }], xLabel, yLabel, log, logX, title }; null returns to the attributes. */
  get data() {
    return this.#data;
  }

  set data(value) {
    this.#data = value ?? null;
    this.requestRender();
  }

  /** The uPlot instance (null before the first draw). */
  get plot() {
    return this.#plot;
  }

  /** The figure the exporters write. */
  figure() {
    return this.#figure ? { kind: 'curve', ...this.#figure } : null;
  }

  exportOptions() {
    return { basename: 'relpos-curve', canvas: this.#plot?.ctx.canvas };
  }

  wordsChanged() {
    super.wordsChanged();
    this.requestRender();
  }

  needsCore() {
    return !this.#data;
  }

  /* ---------- computing ---------- */

  /** One row of a view per head against r = j − i. */
  #profile(rp, info, options) {
    const m = this.messages;
    const view = this.getAttribute('view') ?? defaultView(info);
    const mode = this.getAttribute('mode');
    if (mode) options.mode = mode;
    const tensor = computeView(rp, info, view, options);
    const rows = tensor.shape.at(-2);
    const cols = tensor.shape.at(-1);
    const count = tensor.data.length / (rows * cols);
    const query = Math.max(0, Math.min(rows - 1, Number(this.getAttribute('query') ?? Math.floor(rows / 2)) || 0));
    const series = [];
    for (let h = 0; h < count; h++) {
      const row = tensor.data.subarray(h * rows * cols + query * cols, h * rows * cols + (query + 1) * cols);
      series.push({ label: formatMessage(m.head, { h }), y: Array.from(row, (v) => (Number.isFinite(v) ? v : null)) });
    }
    const figure = {
      x: Float64Array.from({ length: cols }, (_, j) => j - query),
      series,
      xLabel: m.curveAxis.distance,
      yLabel: m.views[view] ?? m.curveAxis.value,
      log: this.hasAttribute('log'),
    };
    return { figure, tensor, source: viewCall(info, view, options) };
  }

  /** The rotary spectrum: θ_k or 2π/θ_k against the pair k. */
  #spectrum(rp, info, kind, { n: _n, heads: _heads, causal: _causal, d = 64, ...params }) {
    const m = this.messages;
    const options = { d, ...params };
    const { invFreq } = rp.frequencies(info.id, options);
    const y = kind === 'frequencies' ? Array.from(invFreq) : Array.from(invFreq, (t) => (2 * Math.PI) / t);
    const figure = {
      x: Float64Array.from(invFreq, (_, k) => k),
      series: [{ label: info.id, y }],
      xLabel: m.curveAxis.pair,
      yLabel: kind === 'frequencies' ? m.curveAxis.invFreq : m.curveAxis.wavelength,
      log: this.getAttribute('log') !== 'false',
    };
    const tensor = { shape: [invFreq.length], data: invFreq };
    return { figure, tensor, source: { view: kind, call: 'frequencies', scheme: info.id, options } };
  }

  #compute(rp) {
    const kind = this.getAttribute('kind') ?? 'profile';
    if (!KINDS.includes(kind)) {
      throw new RangeError(formatMessage(this.messages.errorView, { views: KINDS.join(', '), view: kind }));
    }
    const info = this.schemeInfo(rp, kind === 'profile' ? 'alibi' : 'rope');
    const options = { n: 64, ...this.schemeOptions(info, OWN_ATTRIBUTES) };
    const result = kind === 'profile' ? this.#profile(rp, info, options) : this.#spectrum(rp, info, kind, options);
    result.figure.title = `${info.name} — ${this.messages.curveKinds[kind]}`;
    return result;
  }

  /* ---------- drawing ---------- */

  renderWith(rp) {
    const t = performance.now();
    const computed = this.#data
      ? { figure: { xLabel: this.messages.curveX, yLabel: this.messages.curveY, ...this.#data } }
      : this.#compute(rp);
    const computeMs = computed.tensor ? performance.now() - t : 0;
    this.#figure = this.#normalise(computed.figure);
    const t2 = performance.now();
    this.#draw();
    return {
      tensor: computed.tensor,
      source: computed.source,
      renderer: 'uplot',
      computeMs,
      drawMs: performance.now() - t2,
    };
  }

  #normalise(figure) {
    if (!figure || !figure.x || typeof figure.x.length !== 'number' || !Array.isArray(figure.series)) {
      throw new TypeError('relpos.renderCurve: data must be { x, series: [{ label, y }] }');
    }
    for (const s of figure.series) {
      if (!s?.y || s.y.length !== figure.x.length) {
        throw new RangeError(`relpos.renderCurve: series '${s?.label}' must have ${figure.x.length} values`);
      }
    }
    return {
      x: Array.from(figure.x, Number),
      series: figure.series.map((s) => ({
        label: String(s.label ?? ''),
        y: Array.from(s.y, (v) => (v == null || !Number.isFinite(Number(v)) ? null : Number(v))),
        // A reference line (a level, a bound) is drawn dashed so a series on it stays visible.
        dashed: Boolean(s.dashed),
      })),
      xLabel: String(figure.xLabel ?? ''),
      yLabel: String(figure.yLabel ?? ''),
      log: Boolean(figure.log),
      logX: Boolean(figure.logX),
      title: String(figure.title ?? ''),
    };
  }

  #size() {
    const width = Math.max(200, this.#host.clientWidth || 480);
    const height = Number(this.getAttribute('height')) || Math.round(Math.min(320, width * 0.55));
    return { width, height };
  }

  #draw() {
    const f = this.#figure;
    const ink = getComputedStyle(this).color || 'currentColor';
    const grid = { stroke: 'rgba(127,127,127,0.25)', width: 1 };
    const opts = {
      ...this.#size(),
      title: f.title || undefined,
      scales: { x: f.logX ? { time: false, distr: 3 } : { time: false }, y: f.log ? { distr: 3 } : {} },
      axes: [
        { label: f.xLabel, stroke: ink, grid, ticks: grid, values: tickLabels },
        { label: f.yLabel, stroke: ink, grid, ticks: grid, size: 60, values: tickLabels },
      ],
      series: [
        { label: f.xLabel },
        ...f.series.map((s, k) => ({
          // A series without a label is named by the y axis (uPlot's own default would be the English "Value").
          label: s.label || f.yLabel,
          stroke: seriesColor(k),
          width: s.dashed ? 1 : 1.5,
          ...(s.dashed ? { dash: [6, 4] } : {}),
          spanGaps: false,
        })),
      ],
      cursor: { drag: { x: true, y: false }, points: { size: 6 } },
      legend: { live: true },
      hooks: { setCursor: [(u) => this.#cursorMoved(u.cursor.idx)] },
    };
    const ys = f.series.map((s) => (f.log ? s.y.map((v) => (v != null && v > 0 ? v : null)) : s.y));
    // Every value the same (all-zero eigenvalues): a span of ±1 around it, not uPlot's 0–100.
    const finite = ys.flat().filter((v) => v != null);
    if (!f.log && finite.length && finite.every((v) => v === finite[0])) {
      const pad = Math.abs(finite[0]) || 1;
      opts.scales.y = { range: [finite[0] - pad, finite[0] + pad] };
    }
    this.#plot?.destroy();
    this.#host.replaceChildren();
    if (f.logX && f.x.some((v) => !(v > 0))) throw new RangeError('relpos.renderCurve: a log x axis needs x > 0');
    this.#plot = new uPlot(opts, [f.x, ...ys], this.#host);
    this.#host.setAttribute(
      'aria-label',
      formatMessage(this.messages.curveLabel, {
        title: f.title || f.yLabel,
        count: f.series.length,
        points: f.x.length,
      }),
    );
    this.#index = -1;
  }

  resized() {
    if (this.#plot) this.#plot.setSize(this.#size());
  }

  /* ---------- cursor and readout ---------- */

  #cursorMoved(index) {
    if (index == null || !this.#figure) return;
    this.#index = index;
    const f = this.#figure;
    const values = f.series
      .map((s) => `${s.label} = ${s.y[index] == null ? '—' : formatNumber(s.y[index])}`)
      .join(', ');
    this.shadowRoot.querySelector('.readout').textContent = `${f.xLabel} = ${formatNumber(f.x[index])}: ${values}`;
  }

  #key(event) {
    if (!this.#plot || !this.#figure) return;
    const step = event.shiftKey ? 10 : 1;
    const delta = { ArrowLeft: -step, ArrowRight: step, Home: -Infinity, End: Infinity }[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    const last = this.#figure.x.length - 1;
    const index = Math.max(0, Math.min(last, this.#index < 0 ? 0 : this.#index + delta));
    const u = this.#plot;
    const left = u.valToPos(this.#figure.x[index], 'x');
    const series = this.#figure.series.find((s) => s.y[index] != null);
    const top = series ? u.valToPos(series.y[index], 'y') : 0;
    u.setCursor({ left, top });
    this.#cursorMoved(index);
  }
}

if (!customElements.get('relpos-curve')) customElements.define('relpos-curve', RelposCurve);

/**
 * Draws a line plot: into `element` when it is a <relpos-curve>, else into a new <relpos-curve>
 * appended to (and replacing the previous one in) `element`. Returns the <relpos-curve>.
 */
export function renderCurve(element, data) {
  let curve = element instanceof RelposCurve ? element : element.querySelector(':scope > relpos-curve');
  if (!curve) {
    curve = document.createElement('relpos-curve');
    element.append(curve);
  }
  curve.data = data;
  return curve;
}
