// <relpos-curve>: line plots drawn with uPlot inside a shadow root — decay profiles, rotary spectra,
// wavelengths, or any data a page hands over (precision error vs position, angle plots, …).
//   Declarative: <relpos-curve kind="profile" scheme="alibi" n="256" heads="4"></relpos-curve>
//     kind = profile      one row of a view (bias | scores | weights, attribute `view`) against
//                         r = j − i, one series per head; the row is attribute `query` (default n/2)
//          | frequencies  rp.frequencies(scheme, { d, …params }).invFreq against pair k (log y)
//          | wavelengths  2π / θ_k against k (log y)
//   Programmatic: renderCurve(element, { x, series: [{ label, y }], xLabel, yLabel, log, logX }) or
//     el.data = { … } — data set this way wins over the attributes.
// Keyboard: the plot is focusable; ← / → move a cursor along x (Shift: ×10), the values are
// announced through an aria-live readout. Export menu: PNG, SVG, CSV, JSON, pgfplots.
import uPlot from 'uplot';
import { load } from '../../bindings/index.js';
import { computeView } from './compute.js';
import { EXPORT_FORMATS, download, exportFigure, seriesColor } from './export.js';
import { formatMessage, mergeMessages, onMessages, pageMessages } from './messages.js';
import { formatNumber, formatTick } from './ticks.js';
import { UPLOT_CSS } from './uplot-css.js';

const STYLE = `
  :host { display: block; color-scheme: light dark; font: 12px/1.4 system-ui, sans-serif; color: CanvasText; }
  .plot { width: var(--relpos-curve-width, 100%); min-height: 120px; outline: none; }
  .plot:focus-visible { outline: 2px solid Highlight; outline-offset: 2px; }
  .tools { display: flex; gap: 4px; align-items: center; margin-top: 4px; }
  button, summary { font: inherit; color: inherit; background: color-mix(in srgb, CanvasText 8%, Canvas);
                    border: 1px solid #8886; border-radius: 4px; padding: 1px 8px; cursor: pointer; }
  details { position: relative; }
  details > div { position: absolute; z-index: 2; display: grid; gap: 2px; padding: 4px; margin-top: 2px;
                  background: Canvas; border: 1px solid #8886; border-radius: 4px; min-width: 10rem; }
  .readout { min-height: 1.4em; font-variant-numeric: tabular-nums; }
  .error { color: #b00020; white-space: pre-wrap; }
  .error:empty { display: none; }
  @media (prefers-color-scheme: dark) { .error { color: #ff8a80; } }
`;

const KINDS = ['profile', 'frequencies', 'wavelengths'];

// Axis labels through formatTick: uPlot's default shows ticks below 1e-3 as "0" on log axes.
const tickLabels = (u, splits) => splits.map(formatTick);

export class RelposCurve extends HTMLElement {
  #root;
  #plot = null;
  #host;
  #data = null; // programmatic data
  #figure = null; // what is shown
  #overrides = {};
  #token = 0;
  #scheduled = false;
  #observer;
  #resize;
  #unsubscribe = null;
  #index = -1;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.innerHTML = `<style>${UPLOT_CSS}${STYLE}</style>
      <div class="plot" part="plot" tabindex="0" role="img"></div>
      <div class="tools" part="tools" role="group"><details class="export"><summary></summary><div></div></details></div>
      <div class="readout" part="readout" aria-live="polite" aria-atomic="true"></div>
      <div class="error" role="alert"></div>`;
    this.#host = this.#root.querySelector('.plot');
    const menu = this.#root.querySelector('.export > div');
    for (const format of Object.keys(EXPORT_FORMATS)) {
      const button = Object.assign(document.createElement('button'), { type: 'button' });
      button.dataset.format = format;
      menu.append(button);
    }
    menu.addEventListener('click', (e) => this.#exportClick(e));
    this.#host.addEventListener('keydown', (e) => this.#key(e));
    this.#observer = new MutationObserver((records) => {
      if (records.some((r) => !/^(data-|aria-)/.test(r.attributeName))) this.#schedule();
    });
    this.#resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.#fit()) : null;
    this.#applyWords();
  }

  connectedCallback() {
    this.#observer.observe(this, { attributes: true });
    this.#resize?.observe(this.#host);
    this.#unsubscribe = onMessages(() => {
      this.#applyWords();
      this.#schedule();
    });
    this.#schedule();
  }

  disconnectedCallback() {
    this.#observer.disconnect();
    this.#resize?.disconnect();
    this.#unsubscribe?.();
    this.#plot?.destroy();
    this.#plot = null;
  }

  /** Programmatic data { x, series: [{ label, y }], xLabel, yLabel, log, logX, title }; null returns to the attributes. */
  get data() {
    return this.#data;
  }

  set data(value) {
    this.#data = value ?? null;
    this.#schedule();
  }

  /** The uPlot instance (null before the first draw). */
  get plot() {
    return this.#plot;
  }

  get messages() {
    return mergeMessages(pageMessages(), this.#overrides);
  }

  set messages(overrides) {
    this.setMessages(overrides);
  }

  setMessages(overrides) {
    this.#overrides = overrides && typeof overrides === 'object' ? overrides : {};
    this.#applyWords();
    this.#schedule();
  }

  /** The figure the exporters write. */
  figure() {
    return this.#figure ? { kind: 'curve', ...this.#figure } : null;
  }

  /** { blob, filename } in png | svg | csv | json | tex (PNG is uPlot's canvas). */
  export(format) {
    const figure = this.figure();
    if (!figure) return Promise.reject(new Error('relpos-curve: nothing to export yet'));
    return exportFigure(figure, format, { basename: 'relpos-curve', canvas: this.#plot?.ctx.canvas });
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#render();
    });
  }

  async #compute() {
    const m = this.messages;
    const rp = await load();
    const kind = this.getAttribute('kind') ?? 'profile';
    if (!KINDS.includes(kind)) {
      throw new RangeError(formatMessage(m.errorView, { views: KINDS.join(', '), view: kind }));
    }
    const scheme = this.getAttribute('scheme') ?? (kind === 'profile' ? 'alibi' : 'rope');
    const info = rp.schemes.find((s) => s.id === scheme);
    if (!info) throw new RangeError(formatMessage(m.errorScheme, { scheme }));
    const options = {};
    const byLowerName = new Map(Object.keys(info.params).map((name) => [name.toLowerCase(), name]));
    for (const { name, value } of Array.from(this.attributes)) {
      const param = byLowerName.get(name);
      if (!param || ['n', 'heads', 'causal', 'd'].includes(param)) continue;
      const spec = info.params[param];
      options[param] = spec.type === 'choice' ? value : spec.type === 'boolean' ? value !== 'false' : Number(value);
    }
    const extra = this.getAttribute('params');
    if (extra) {
      let parsed = null;
      try {
        parsed = JSON.parse(extra);
      } catch {
        /* reported below */
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new TypeError(m.errorParams);
      Object.assign(options, parsed);
    }
    const d = Number(this.getAttribute('d') ?? 64);
    const title = `${info.name} — ${m.curveKinds[kind]}`;
    if (kind === 'profile') {
      const n = Number(this.getAttribute('n') ?? 64);
      const heads = Number(this.getAttribute('heads') ?? 1);
      const view = this.getAttribute('view') ?? (info.calls.includes('bias') ? 'bias' : 'scores');
      const causal = this.hasAttribute('causal') && this.getAttribute('causal') !== 'false';
      const tensor = computeView(
        rp,
        info,
        view,
        { n, heads, d, causal, ...options },
        this.getAttribute('mode') || undefined,
      );
      const rows = tensor.shape.at(-2);
      const cols = tensor.shape.at(-1);
      const count = tensor.data.length / (rows * cols);
      const query = Math.max(0, Math.min(rows - 1, Number(this.getAttribute('query') ?? Math.floor(rows / 2)) || 0));
      const x = Float64Array.from({ length: cols }, (_, j) => j - query);
      const series = [];
      for (let h = 0; h < count; h++) {
        const row = tensor.data.subarray(h * rows * cols + query * cols, h * rows * cols + (query + 1) * cols);
        series.push({
          label: formatMessage(m.head, { h }),
          y: Array.from(row, (v) => (Number.isFinite(v) ? v : null)),
        });
      }
      return {
        x,
        series,
        xLabel: m.curveAxis.distance,
        yLabel: m.views[view] ?? m.curveAxis.value,
        log: this.hasAttribute('log'),
        title,
      };
    }
    const { invFreq } = rp.frequencies(scheme, { d, ...options });
    const x = Float64Array.from(invFreq, (_, k) => k);
    const y = kind === 'frequencies' ? Array.from(invFreq) : Array.from(invFreq, (t) => (2 * Math.PI) / t);
    const log = this.getAttribute('log') !== 'false';
    return {
      x,
      series: [{ label: info.id, y }],
      xLabel: m.curveAxis.pair,
      yLabel: kind === 'frequencies' ? m.curveAxis.invFreq : m.curveAxis.wavelength,
      log,
      title,
    };
  }

  async #render() {
    const token = ++this.#token;
    try {
      const figure = this.#data
        ? { xLabel: this.messages.curveX, yLabel: this.messages.curveY, ...this.#data }
        : await this.#compute();
      if (token !== this.#token) return;
      this.#validate(figure);
      this.#figure = {
        x: Array.from(figure.x, Number),
        series: figure.series.map((s) => ({
          label: String(s.label ?? ''),
          y: Array.from(s.y, (v) => (v == null || !Number.isFinite(Number(v)) ? null : Number(v))),
        })),
        xLabel: String(figure.xLabel ?? ''),
        yLabel: String(figure.yLabel ?? ''),
        log: Boolean(figure.log),
        logX: Boolean(figure.logX),
        title: String(figure.title ?? ''),
      };
      this.#draw();
      this.#root.querySelector('.error').textContent = '';
      this.dataset.state = 'ready';
      this.dispatchEvent(new CustomEvent('relpos-render', { detail: { figure: this.figure() } }));
    } catch (error) {
      if (token !== this.#token) return;
      this.dataset.state = 'error';
      this.#root.querySelector('.error').textContent = error.message;
      this.dispatchEvent(new CustomEvent('relpos-error', { detail: error }));
    }
  }

  #validate(figure) {
    if (!figure || !figure.x || typeof figure.x.length !== 'number' || !Array.isArray(figure.series)) {
      throw new TypeError('relpos.renderCurve: data must be { x, series: [{ label, y }] }');
    }
    for (const s of figure.series) {
      if (!s?.y || s.y.length !== figure.x.length) {
        throw new RangeError(`relpos.renderCurve: series '${s?.label}' must have ${figure.x.length} values`);
      }
    }
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
        ...f.series.map((s, k) => ({ label: s.label, stroke: seriesColor(k), width: 1.5, spanGaps: false })),
      ],
      cursor: { drag: { x: true, y: false }, points: { size: 6 } },
      legend: { live: true },
      hooks: { setCursor: [(u) => this.#cursorMoved(u.cursor.idx)] },
    };
    const ys = f.series.map((s) => (f.log ? s.y.map((v) => (v != null && v > 0 ? v : null)) : s.y));
    if (f.logX && f.x.some((v) => !(v > 0))) throw new RangeError('relpos.renderCurve: a log x axis needs x > 0');
    this.#plot?.destroy();
    this.#host.replaceChildren();
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

  #fit() {
    if (this.#plot) this.#plot.setSize(this.#size());
  }

  #cursorMoved(index) {
    if (index == null || !this.#figure) return;
    this.#index = index;
    const f = this.#figure;
    const values = f.series
      .map((s) => `${s.label} = ${s.y[index] == null ? '—' : formatNumber(s.y[index])}`)
      .join(', ');
    this.#root.querySelector('.readout').textContent = `${f.xLabel} = ${formatNumber(f.x[index])}: ${values}`;
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

  #applyWords() {
    const m = this.messages;
    this.#root.querySelector('.export summary').textContent = m.exportMenu;
    this.#root.querySelector('.tools').setAttribute('aria-label', m.toolbar);
    for (const button of this.#root.querySelectorAll('[data-format]')) {
      button.textContent = m[EXPORT_FORMATS[button.dataset.format].message];
    }
  }

  async #exportClick(event) {
    const button = event.target.closest('button[data-format]');
    if (!button) return;
    button.closest('details').open = false;
    try {
      const { blob, filename } = await this.export(button.dataset.format);
      if (
        this.dispatchEvent(
          new CustomEvent('relpos-export', {
            detail: { format: button.dataset.format, blob, filename },
            cancelable: true,
          }),
        )
      ) {
        download(blob, filename);
      }
    } catch (error) {
      this.#root.querySelector('.error').textContent = error.message;
    }
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('relpos-curve')) {
  customElements.define('relpos-curve', RelposCurve);
}

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
