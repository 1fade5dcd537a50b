// <relpos-heatmap scheme="alibi" n="128" heads="8"></relpos-heatmap>: a live heatmap of a
// scheme's bias / scores / buckets, computed by the wasm core. Every attribute is live; scheme
// parameters are attributes too (case-insensitive, e.g. alibibiasmax="4"), or JSON in `params`.
import { load } from '../../bindings/index.js';
import { colormapCss } from './colormap.js';
import { renderHeatmap, sliceMatrix } from './render-heatmap.js';

const STYLE = `
  :host { display: inline-block; font: 12px/1.4 system-ui, sans-serif; color: CanvasText; }
  .frame { display: grid; grid-template-columns: auto auto; gap: 6px; align-items: start; }
  canvas.map { width: var(--relpos-size, 320px); height: var(--relpos-size, 320px); image-rendering: pixelated;
               outline: 1px solid #8884; cursor: crosshair; }
  canvas.map:focus-visible { outline: 2px solid Highlight; }
  .bar { display: grid; grid-template-rows: auto 1fr auto; height: var(--relpos-size, 320px); }
  .bar canvas { width: 12px; height: 100%; }
  .axis { opacity: 0.8; }
  .readout { min-height: 1.4em; font-variant-numeric: tabular-nums; }
  .error { color: #b00020; white-space: pre-wrap; max-width: var(--relpos-size, 320px); }
`;

function formatValue(v) {
  if (v === -Infinity) return '−∞ (masked)';
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : Number(v.toFixed(4)).toString();
}

export class RelposHeatmap extends HTMLElement {
  #root;
  #canvas;
  #bar;
  #readout;
  #error;
  #tensor = null;
  #scheduled = false;
  #cursor = null;
  #observer;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.innerHTML = `<style>${STYLE}</style>
      <div class="frame">
        <div>
          <div class="axis" part="axis-x">key j →</div>
          <canvas class="map" part="map" tabindex="0" role="img"></canvas>
          <div class="axis" part="axis-y">↓ query i</div>
        </div>
        <div class="bar" part="colorbar"><span class="hi"></span><canvas width="1" height="128"></canvas><span class="lo"></span></div>
      </div>
      <div class="readout" aria-live="polite"></div>
      <div class="error" role="alert"></div>`;
    this.#canvas = this.#root.querySelector('canvas.map');
    this.#bar = this.#root.querySelector('.bar');
    this.#readout = this.#root.querySelector('.readout');
    this.#error = this.#root.querySelector('.error');
    this.#canvas.addEventListener('pointermove', (e) => this.#hover(e));
    this.#canvas.addEventListener('keydown', (e) => this.#key(e));
    // Scheme parameters are arbitrary attributes, so watch them all rather than a fixed list.
    // Our own data-state / aria-* writes must not trigger a redraw (that would loop).
    this.#observer = new MutationObserver((records) => {
      if (records.some((r) => !/^(data-|aria-)/.test(r.attributeName))) this.#schedule();
    });
  }

  connectedCallback() {
    this.#observer.observe(this, { attributes: true });
    this.#schedule();
  }

  disconnectedCallback() {
    this.#observer.disconnect();
  }

  /** The tensor currently shown ({ shape, data }), or null before the first render. */
  get tensor() {
    return this.#tensor;
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#render();
    });
  }

  #options(rp, scheme) {
    const info = rp.schemes.find((s) => s.id === scheme);
    if (!info) throw new RangeError(`<relpos-heatmap>: unknown scheme '${scheme}'; known: ${rp.schemes.map((s) => s.id).join(', ')}`);
    const options = {};
    const byLowerName = new Map(Object.keys(info.params).map((name) => [name.toLowerCase(), name]));
    for (const { name, value } of Array.from(this.attributes)) {
      if (['scheme', 'head', 'view', 'colormap', 'params', 'class', 'style', 'id'].includes(name) || name.startsWith('data-') || name.startsWith('aria-')) continue;
      const param = byLowerName.get(name) ?? name;
      const spec = info.params[param];
      if (!spec && !['n', 'heads', 'causal', 'd'].includes(name)) continue;
      if (spec?.type === 'choice') options[param] = value;
      else if (spec?.type === 'boolean' || name === 'causal') options[param] = value !== 'false';
      else options[param] = Number(value);
    }
    const extra = this.getAttribute('params');
    if (extra) Object.assign(options, JSON.parse(extra));
    return { info, options };
  }

  async #render() {
    try {
      const rp = await load();
      const scheme = this.getAttribute('scheme') ?? 'alibi';
      const { info, options } = this.#options(rp, scheme);
      const view = this.getAttribute('view') ?? (info.calls.includes('bias') ? 'bias' : 'scores');
      const started = performance.now();
      let tensor;
      if (view === 'bias') tensor = rp.bias(scheme, options);
      else if (view === 'scores') tensor = rp.scores(scheme, { d: 64, ...options });
      else if (view === 'buckets') tensor = rp.buckets(scheme, options);
      else throw new RangeError(`<relpos-heatmap>: view must be bias, scores or buckets, got '${view}'`);
      const head = Number(this.getAttribute('head') ?? 0);
      const drawn = renderHeatmap(this.#canvas, tensor, { colormap: this.getAttribute('colormap') ?? undefined, head });
      this.#tensor = tensor;
      this.#drawColorbar(drawn);
      this.#canvas.setAttribute('aria-label', `${info.name} ${view}, ${drawn.rows} by ${drawn.cols}, values from ${formatValue(drawn.range[0])} to ${formatValue(drawn.range[1])}`);
      this.#error.textContent = '';
      this.dataset.state = 'ready';
      this.dispatchEvent(new CustomEvent('relpos-render', { detail: { tensor, ...drawn, head, ms: performance.now() - started } }));
    } catch (error) {
      this.#tensor = null;
      this.dataset.state = 'error';
      this.#error.textContent = error.message;
      this.dispatchEvent(new CustomEvent('relpos-error', { detail: error }));
    }
  }

  #drawColorbar({ colormap, range }) {
    const bar = this.#bar.querySelector('canvas');
    const context = bar.getContext('2d');
    for (let y = 0; y < bar.height; y++) {
      context.fillStyle = colormapCss(colormap, 1 - y / (bar.height - 1));
      context.fillRect(0, y, 1, 1);
    }
    this.#bar.querySelector('.hi').textContent = formatValue(range[1]);
    this.#bar.querySelector('.lo').textContent = formatValue(range[0]);
  }

  #show(i, j) {
    if (!this.#tensor) return;
    const { rows, cols, data } = sliceMatrix(this.#tensor, Number(this.getAttribute('head') ?? 0));
    if (i < 0 || j < 0 || i >= rows || j >= cols) return;
    this.#cursor = [i, j];
    this.#readout.textContent = `i = ${i}, j = ${j}, r = j − i = ${j - i}, value = ${formatValue(data[i * cols + j])}`;
  }

  #hover(event) {
    const box = this.#canvas.getBoundingClientRect();
    const j = Math.floor(((event.clientX - box.left) / box.width) * this.#canvas.width);
    const i = Math.floor(((event.clientY - box.top) / box.height) * this.#canvas.height);
    this.#show(i, j);
  }

  #key(event) {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const [i, j] = this.#cursor ?? [0, 0];
    this.#show(Math.max(0, Math.min(this.#canvas.height - 1, i + move[0])), Math.max(0, Math.min(this.#canvas.width - 1, j + move[1])));
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('relpos-heatmap')) {
  customElements.define('relpos-heatmap', RelposHeatmap);
}
