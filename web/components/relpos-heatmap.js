// <relpos-heatmap scheme="alibi" n="128" heads="8"></relpos-heatmap>: a live heatmap of one view of a
// scheme (bias | scores | weights | buckets | distances, defined in figure/views.js), computed by the
// wasm core and drawn by heatmap-view.js (the page's one shared WebGL2 context, canvas-2D fallback).
// Attributes are live: scheme, view, n, heads, head, d, causal, mode, colormap, range ("lo,hi" or
// "auto"), renderer ("auto" | "webgl2" | "2d"), params (JSON object) and every scheme parameter by
// its lower-cased name (alibibiasmax="4"). Interaction: hover readout; click locks it (click again
// or Escape unlocks); wheel zooms at the pointer, drag pans, double-click resets; the map is
// focusable — arrow keys move a cell cursor (Shift: ×10), + / − zoom, 0 resets, Enter locks — and
// the readout is an aria-live region. Maps up to 32×32 also carry a visually hidden <table>.
// The toolbar, export menu, words and events come from element.js; docs/elements.md has it all.
import { colormapTable } from '../../figure/colormap.js';
import { VIEWS, computeView, defaultView, maskedCells, viewCall, viewsFor } from '../../figure/views.js';
import { schemeCallReady } from '../../bindings/core-instance.js';
import { RelposElement, elementTemplate } from './element.js';
import { createHeatmapView, loadWebGL } from './heatmap-view.js';
import { formatMessage } from './messages.js';
import { autoScale } from '../../figure/scale.js';
import { formatNumber, integerTicks, niceTicks } from '../../figure/ticks.js';

const TABLE_LIMIT = 32;
const DEFAULT_N = 64;
const SVG_NS = 'http://www.w3.org/2000/svg';
// The element's own attributes; every other attribute naming a scheme parameter is one.
const OWN_ATTRIBUTES = ['scheme', 'view', 'mode', 'params', 'head', 'colormap', 'range', 'renderer'];

const STYLE = `
  :host { display: inline-block; --relpos-cursor: #ff2d95; }
  .frame { display: grid; grid-template-columns: auto auto; gap: var(--rp-space-1, 4px) var(--rp-space-2, 10px);
           align-items: start; }
  .plot { position: relative; padding: 34px 0 0 58px; }
  .surface { position: relative; width: var(--relpos-size, 320px); height: var(--relpos-size, 320px);
             outline: 1px solid var(--rp-border, #8884); cursor: crosshair; touch-action: none; overflow: hidden; }
  .surface:focus-visible { outline: 2px solid var(--rp-focus, Highlight); outline-offset: 2px; }
  .surface.dragging { cursor: grabbing; }
  canvas.map { display: block; width: 100%; height: 100%; image-rendering: pixelated; }
  ::slotted([slot="first"]) { position: absolute; inset: 0; width: 100%; height: 100%; image-rendering: pixelated; will-change: transform; }
  .cell { position: absolute; pointer-events: none; box-sizing: border-box; border: 2px solid var(--relpos-cursor);
          box-shadow: 0 0 0 1px var(--rp-bg, Canvas); display: none; }
  .cell.on { display: block; }
  .cell.locked { border-style: solid; border-width: 3px; }
  svg.axes { position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none; overflow: visible; }
  svg text { fill: currentColor; font-size: 11px; }
  svg line { stroke: currentColor; }
  svg .label { font-size: var(--rp-text-sm, 12px); }
  .bar { position: relative; margin-top: 34px; height: var(--relpos-size, 320px); width: 64px; }
  .bar canvas { position: absolute; left: 0; top: 0; width: 12px; height: 100%; outline: 1px solid var(--rp-border, #8884); }
  .bar svg { position: absolute; left: 12px; top: 0; width: 52px; height: 100%; overflow: visible; }
  .tools, .readout { margin-left: 58px; }
  .error { max-width: var(--relpos-size, 320px); }
  @media (prefers-color-scheme: dark) { :host { --relpos-cursor: #ffd60a; } }
  @media (prefers-reduced-motion: no-preference) { .cell { transition: left 60ms linear, top 60ms linear; } }
`;

const TEMPLATE = elementTemplate(STYLE, {
  body: `<div class="frame">
    <div class="plot">
      <div class="surface" part="map" tabindex="0" role="img" aria-describedby="hint">
        <canvas class="map"></canvas>
        <slot name="first"></slot>
        <div class="cell" aria-hidden="true"></div>
      </div>
      <svg class="axes" aria-hidden="true"></svg>
    </div>
    <div class="bar" part="colorbar" aria-hidden="true"><canvas width="1" height="256"></canvas><svg></svg></div>
  </div>`,
  tools: `<button type="button" data-action="zoom-out">−</button>
    <button type="button" data-action="zoom-in">+</button>
    <button type="button" data-action="reset"></button>`,
  after: `<p class="sr-only hint" id="hint"></p><div class="sr-only"><table hidden></table></div>`,
});

function parseRange(text) {
  if (!text || text === 'auto') return undefined;
  const parts = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  return parts.length === 2 && parts.every(Number.isFinite) && parts[0] < parts[1] ? parts : undefined;
}

function svg(name, attributes = {}, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function reducedMotion() {
  return matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class RelposHeatmap extends RelposElement {
  #root;
  #surface;
  #canvas;
  #view = null;
  #viewRenderer = null; // the renderer attribute #view was made for
  #tensor = null;
  #masked = null; // the cells the weights view's call masks (figure/views.js maskedCells), or null
  #matrix = null; // { rows, cols, data } of the shown head, masked cells −∞
  #scale = null; // { colormap, range }
  #info = null;
  #viewName = '';
  #source = null; // the core call of the shown tensor (compute.js viewCall)
  #computeKey = '';
  #window = [0, 0, 1, 1];
  #cursor = null;
  #locked = false;
  #frame = 0;
  #drag = null;
  #animation = 0;
  #uploaded = null; // { tensor, head, scaleKey, scale, view }: what the view holds, so draw-only changes skip work

  constructor() {
    super(TEMPLATE);
    this.#root = this.shadowRoot;
    this.#surface = this.#root.querySelector('.surface');
    this.#canvas = this.#root.querySelector('canvas.map');
    const s = this.#surface;
    s.addEventListener('pointermove', (e) => this.#pointerMove(e));
    s.addEventListener('pointerdown', (e) => this.#pointerDown(e));
    s.addEventListener('pointerup', (e) => this.#pointerUp(e));
    s.addEventListener('pointercancel', () => {
      this.#drag = null;
      s.classList.remove('dragging');
    });
    s.addEventListener('pointerleave', () => {
      if (!this.#locked && !this.#drag) this.#hideCursorBox();
    });
    s.addEventListener('wheel', (e) => this.#wheel(e), { passive: false });
    s.addEventListener('dblclick', () => this.resetView());
    s.addEventListener('keydown', (e) => this.#key(e));
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    cancelAnimationFrame(this.#frame);
    cancelAnimationFrame(this.#animation);
    this.#frame = 0;
    // The GPU texture goes with the element; the matrix stays, so reconnecting draws again.
    this.#view?.release();
    this.#view = null;
    this.#uploaded = null;
  }

  /* ---------- public API ---------- */

  /** The tensor currently shown ({ shape, data }), or null before the first render. */
  get tensor() {
    return this.#tensor;
  }

  /** 'webgl2' or '2d': what drew the last frame (null before the first). */
  get renderer() {
    return this.#view?.kind ?? null;
  }

  /** The visible window [x0, y0, x1, y1] in cells (key j from x0 to x1, query i from y0 to y1). */
  get window() {
    return [...this.#window];
  }

  set window(value) {
    if (!Array.isArray(value) || value.length !== 4 || !value.every(Number.isFinite)) {
      throw new TypeError('relpos-heatmap: window must be four finite numbers [x0, y0, x1, y1]');
    }
    this.#setWindow(value);
  }

  /** The cell cursor [i, j] (keyboard / hover / locked), or null. */
  get cursor() {
    return this.#cursor ? [...this.#cursor] : null;
  }

  /** True while the readout is locked to a clicked cell. */
  get locked() {
    return this.#locked;
  }

  /** Shows the whole matrix. */
  resetView() {
    if (!this.#matrix) return;
    this.#animateTo([0, 0, this.#matrix.cols, this.#matrix.rows]);
  }

  /** Zooms by `factor` (< 1 zooms in) about the fraction (fx, fy) of the visible window. */
  zoom(factor, fx = 0.5, fy = 0.5) {
    const [x0, y0, x1, y1] = this.#window;
    const cx = x0 + fx * (x1 - x0);
    const cy = y0 + fy * (y1 - y0);
    const w = (x1 - x0) * factor;
    const h = (y1 - y0) * factor;
    this.#setWindow([cx - fx * w, cy - fy * h, cx - fx * w + w, cy - fy * h + h]);
  }

  /** The figure (plain data) the exporters write: the shown head, colormap, range and labels. */
  figure() {
    if (!this.#matrix) return null;
    const m = this.messages;
    const { rows, cols, data } = this.#matrix;
    return {
      kind: 'heatmap',
      rows,
      cols,
      data: data instanceof Float32Array ? data : Float32Array.from(data),
      colormap: this.#scale.colormap,
      range: [...this.#scale.range],
      xLabel: m.axisKey,
      yLabel: m.axisQuery,
      title: `${this.#info?.name ?? ''} ${m.views[this.#viewName] ?? this.#viewName}`.trim(),
      meta: {
        scheme: this.#info?.id,
        view: this.#viewName,
        head: this.#head(),
        heads: this.#headCount(),
        attributes: Object.fromEntries(Array.from(this.attributes, (a) => [a.name, a.value])),
      },
    };
  }

  exportOptions(figure) {
    return { basename: `relpos-${figure.meta.scheme}-${figure.meta.view}` };
  }

  /* ---------- computing and drawing ---------- */

  #headCount() {
    return this.#tensor ? this.#tensor.data.length / (this.#matrix?.rows * this.#matrix?.cols || 1) : 1;
  }

  #head() {
    const head = Math.trunc(Number(this.getAttribute('head') ?? 0));
    return Number.isFinite(head) ? Math.max(0, Math.min(this.#headCount() - 1, head)) : 0;
  }

  /**
   * The shared WebGL2 renderer's module (heatmap-webgl.js) unless the renderer attribute is 2d; if it
   * cannot arrive, the view draws in 2D (the same colours), as where WebGL2 is missing.
   */
  prepare() {
    return this.getAttribute('renderer') === '2d' ? null : loadWebGL().catch(() => {});
  }

  /**
   * True when the view the attributes ask for is a call on a scheme, which an instance has from the
   * core alone (bindings/core-instance.js, loadCore); anything else (a weights view: rp.attention, a
   * view of rp.analysis, or a request the render will refuse) waits for load().
   */
  coreAlone(rp) {
    try {
      const { info, view, options } = this.#request(rp);
      return !this.needsAnalysis() && schemeCallReady(rp, viewCall(info, view, options).call);
    } catch {
      return false;
    }
  }

  /** The scheme, view and options the attributes ask for: a RangeError in the element's words for a view it cannot show. */
  #request(rp) {
    const info = this.schemeInfo(rp, 'alibi');
    const options = { n: DEFAULT_N, ...this.schemeOptions(info, OWN_ATTRIBUTES) };
    const mode = this.getAttribute('mode');
    if (mode) options.mode = mode;
    const view = this.getAttribute('view') || defaultView(info);
    // The element's own words (messages.errorView / errorUnsupported) for a view it cannot show.
    if (!viewsFor(info).includes(view)) {
      const m = this.messages;
      throw new RangeError(
        VIEWS.includes(view)
          ? formatMessage(m.errorUnsupported, { scheme: info.id, call: view })
          : formatMessage(m.errorView, { views: VIEWS.join(', '), view }),
      );
    }
    return { info, view, options };
  }

  /** Computes the view the attributes ask for, unless it is what is shown already. */
  #compute(rp) {
    const { info, view, options } = this.#request(rp);
    const key = JSON.stringify([info.id, view, options]);
    if (key === this.#computeKey && this.#tensor) return 0;
    const t = performance.now();
    this.#tensor = computeView(rp, info, view, options);
    this.#masked = maskedCells(rp, info, view, options);
    this.#source = viewCall(info, view, options);
    this.#computeKey = key;
    this.#info = info;
    this.#viewName = view;
    return performance.now() - t;
  }

  /** The colour scale: the range / colormap attributes, or autoScale of the shown head. */
  #pickScale(fresh, data) {
    const range = parseRange(this.getAttribute('range'));
    const colormap = this.getAttribute('colormap') || undefined;
    const scaleKey = `${range}|${colormap}`;
    // The finite range scan happens once per shown matrix.
    if (!fresh && this.#uploaded?.scaleKey === scaleKey) return { scaleKey, scale: this.#uploaded.scale };
    const scale = range ? { colormap: colormap ?? 'viridis', range } : autoScale(data, colormap);
    colormapTable(scale.colormap); // a RangeError naming the colormaps
    return { scaleKey, scale };
  }

  renderWith(rp) {
    const computeMs = this.#compute(rp);
    const tensor = this.#tensor;
    const rows = tensor.shape.at(-2);
    const cols = tensor.shape.at(-1);
    const sizeChanged = !this.#matrix || this.#matrix.rows !== rows || this.#matrix.cols !== cols;
    const previous = this.#matrix?.data;
    this.#matrix = { rows, cols, data: tensor.data }; // #head() counts heads by this size
    const head = this.#head();
    // A colormap or range change only swaps the LUT / uniforms: the texture stays.
    const fresh = this.#uploaded?.tensor !== tensor || this.#uploaded.head !== head;
    this.#matrix.data = fresh ? this.#shownHead(tensor, head, rows * cols) : previous;
    const { scaleKey, scale } = this.#pickScale(fresh, this.#matrix.data);
    this.#scale = scale;
    const t = performance.now();
    this.#ensureView();
    if (fresh || this.#uploaded?.view !== this.#view) this.#view.setMatrix(this.#matrix);
    this.#view.setScale(scale.colormap, scale.range);
    this.#uploaded = { tensor, head, scaleKey, scale, view: this.#view };
    if (sizeChanged) {
      this.#window = [0, 0, cols, rows];
      this.#cursor = null;
      this.#locked = false;
    }
    this.#draw();
    // A picture shown until the first frame (slot="first": the chapter's build-time rendering of
    // this map, web/site/first-figure.js) goes in the task that drew the frame, so no paint is blank.
    for (const stand of this.querySelectorAll(':scope > [slot="first"]')) stand.remove();
    const drawMs = performance.now() - t;
    this.#drawColorbar();
    this.#describe();
    this.#buildTable();
    this.#refreshReadout();
    return { tensor, source: this.#source, renderer: this.renderer, computeMs, drawMs };
  }

  /**
   * The head's map as drawn: in the weights view a masked key's weight is 0, as is one that
   * underflowed, so the cells the call masks become −∞ and are drawn and read out as masked, like the
   * bias view's. `tensor` stays the core's result.
   */
  #shownHead(tensor, head, size) {
    const data = tensor.data.subarray(head * size, (head + 1) * size);
    const masked = this.#masked;
    return masked ? Float32Array.from(data, (v, cell) => (masked[cell] ? -Infinity : v)) : data;
  }

  resized() {
    this.#requestDraw();
  }

  renderFailed() {
    this.#tensor = null;
    this.#masked = null;
    this.#uploaded = null;
    this.#computeKey = '';
  }

  #ensureView() {
    const wanted = this.getAttribute('renderer') ?? 'auto';
    if (this.#view && wanted === this.#viewRenderer) return;
    this.#view?.release();
    this.#view = createHeatmapView(this.#canvas, wanted, { onRestored: () => this.#requestDraw() });
    this.#viewRenderer = wanted;
  }

  #pixelSize() {
    const dpr = globalThis.devicePixelRatio || 1;
    const w = this.#surface.clientWidth || 320;
    const h = this.#surface.clientHeight || 320;
    return [Math.max(1, Math.round(w * dpr)), Math.max(1, Math.round(h * dpr))];
  }

  #draw() {
    if (!this.#view || !this.#matrix) return;
    const [w, h] = this.#pixelSize();
    this.#view.draw(this.#window, w, h);
    this.#drawAxes();
    this.#placeCursorBox();
  }

  #requestDraw() {
    if (this.#frame || !this.isConnected) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  #setWindow([x0, y0, x1, y1]) {
    if (!this.#matrix) return;
    const { rows, cols } = this.#matrix;
    const minK = Math.min(1, 4 / Math.max(rows, cols));
    const k = Math.max(minK, Math.min(1, (x1 - x0) / cols));
    const w = k * cols;
    const h = k * rows;
    const nx0 = Math.max(0, Math.min(cols - w, (x0 + x1) / 2 - w / 2));
    const ny0 = Math.max(0, Math.min(rows - h, (y0 + y1) / 2 - h / 2));
    this.#window = [nx0, ny0, nx0 + w, ny0 + h];
    this.#requestDraw();
    this.dispatchEvent(new CustomEvent('relpos-view', { detail: { window: this.window } }));
  }

  #animateTo(target) {
    cancelAnimationFrame(this.#animation);
    if (reducedMotion()) {
      this.#setWindow(target);
      return;
    }
    const from = this.#window;
    const t0 = performance.now();
    const step = (now) => {
      const t = Math.min(1, (now - t0) / 160);
      const e = 1 - (1 - t) ** 3;
      this.#setWindow(from.map((v, k) => v + (target[k] - v) * e));
      if (t < 1) this.#animation = requestAnimationFrame(step);
    };
    this.#animation = requestAnimationFrame(step);
  }

  #drawAxes() {
    const m = this.messages;
    const axes = this.#root.querySelector('svg.axes');
    const [x0, y0, x1, y1] = this.#window;
    const W = this.#surface.clientWidth || 320;
    const H = this.#surface.clientHeight || 320;
    const left = 58;
    const top = 34;
    const nodes = [];
    const count = Math.max(2, Math.round(W / 70));
    for (const j of integerTicks(Math.ceil(x0 - 0.5), Math.floor(x1 - 0.5), count)) {
      const x = left + ((j + 0.5 - x0) / (x1 - x0)) * W;
      nodes.push(
        svg('line', { x1: x, x2: x, y1: top - 4, y2: top }),
        svg('text', { x, y: top - 7, 'text-anchor': 'middle' }, String(j)),
      );
    }
    for (const i of integerTicks(Math.ceil(y0 - 0.5), Math.floor(y1 - 0.5), count)) {
      const y = top + ((i + 0.5 - y0) / (y1 - y0)) * H;
      nodes.push(
        svg('line', { x1: left - 4, x2: left, y1: y, y2: y }),
        svg('text', { x: left - 7, y: y + 4, 'text-anchor': 'end' }, String(i)),
      );
    }
    nodes.push(svg('text', { class: 'label', x: left + W / 2, y: 10, 'text-anchor': 'middle' }, `${m.axisKey} →`));
    // Rotated a quarter turn counter-clockwise, '←' points down the rows (i grows downwards).
    nodes.push(
      svg(
        'text',
        { class: 'label', transform: `translate(12 ${top + H / 2}) rotate(-90)`, 'text-anchor': 'middle' },
        `← ${m.axisQuery}`,
      ),
    );
    axes.replaceChildren(...nodes);
  }

  #drawColorbar() {
    const { colormap, range } = this.#scale;
    const bar = this.#root.querySelector('.bar canvas');
    const context = bar.getContext('2d');
    const lut = colormapTable(colormap);
    const image = context.createImageData(1, 256);
    for (let y = 0; y < 256; y++) image.data.set(lut.subarray((255 - y) * 4, (255 - y) * 4 + 4), y * 4);
    context.putImageData(image, 0, 0);
    const H = this.#surface.clientHeight || 320;
    const [lo, hi] = range;
    const nodes = [];
    for (const t of niceTicks(lo, hi, Math.max(2, Math.round(H / 50)))) {
      const y = H - ((t - lo) / (hi - lo)) * H;
      nodes.push(svg('line', { x1: 0, x2: 4, y1: y, y2: y }), svg('text', { x: 6, y: y + 4 }, formatNumber(t)));
    }
    this.#root.querySelector('.bar svg').replaceChildren(...nodes);
  }

  #describe() {
    const m = this.messages;
    const { rows, cols } = this.#matrix;
    const [lo, hi] = this.#scale.range;
    this.#surface.setAttribute(
      'aria-label',
      formatMessage(m.mapLabel, {
        name: this.#info.name,
        view: m.views[this.#viewName] ?? this.#viewName,
        rows,
        cols,
        lo: formatNumber(lo),
        hi: formatNumber(hi),
      }),
    );
  }

  #buildTable() {
    const table = this.#root.querySelector('table');
    const { rows, cols, data } = this.#matrix;
    if (rows > TABLE_LIMIT || cols > TABLE_LIMIT) {
      table.hidden = true;
      table.replaceChildren();
      return;
    }
    const m = this.messages;
    const caption = document.createElement('caption');
    caption.textContent = formatMessage(m.tableCaption, {
      name: this.#info.name,
      view: m.views[this.#viewName] ?? this.#viewName,
    });
    const head = document.createElement('tr');
    head.append(
      Object.assign(document.createElement('th'), { scope: 'col', textContent: `${m.axisQuery} \\ ${m.axisKey}` }),
    );
    for (let j = 0; j < cols; j++) {
      head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: String(j) }));
    }
    const body = [head];
    for (let i = 0; i < rows; i++) {
      const tr = document.createElement('tr');
      tr.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: String(i) }));
      for (let j = 0; j < cols; j++) {
        tr.append(
          Object.assign(document.createElement('td'), { textContent: formatNumber(data[i * cols + j], m.masked) }),
        );
      }
      body.push(tr);
    }
    table.replaceChildren(caption, ...body);
    table.hidden = false;
  }

  /* ---------- words ---------- */

  wordsChanged() {
    super.wordsChanged();
    const m = this.messages;
    const zoomIn = this.#root.querySelector('[data-action="zoom-in"]');
    const zoomOut = this.#root.querySelector('[data-action="zoom-out"]');
    zoomIn.setAttribute('aria-label', m.zoomIn);
    zoomIn.title = m.zoomIn;
    zoomOut.setAttribute('aria-label', m.zoomOut);
    zoomOut.title = m.zoomOut;
    this.#root.querySelector('[data-action="reset"]').textContent = m.resetView;
    this.#root.querySelector('.hint').textContent = m.readoutHint;
    if (this.#matrix && this.#info) {
      this.#drawAxes();
      this.#describe();
      this.#buildTable();
      this.#refreshReadout();
    }
  }

  /* ---------- cursor and readout ---------- */

  #cellAt(event) {
    const box = this.#surface.getBoundingClientRect();
    const [x0, y0, x1, y1] = this.#window;
    const fx = (event.clientX - box.left) / box.width;
    const fy = (event.clientY - box.top) / box.height;
    return { i: Math.floor(y0 + fy * (y1 - y0)), j: Math.floor(x0 + fx * (x1 - x0)), fx, fy };
  }

  #show(i, j) {
    if (!this.#matrix) return;
    const { rows, cols } = this.#matrix;
    if (!(i >= 0 && j >= 0 && i < rows && j < cols)) return;
    this.#cursor = [i, j];
    this.#refreshReadout();
    this.#placeCursorBox();
  }

  #refreshReadout() {
    const readout = this.#root.querySelector('.readout');
    if (!this.#cursor || !this.#matrix) {
      readout.textContent = '';
      return;
    }
    const m = this.messages;
    const [i, j] = this.#cursor;
    const { cols, rows, data } = this.#matrix;
    if (i >= rows || j >= cols) {
      this.#cursor = null;
      readout.textContent = '';
      return;
    }
    const text = formatMessage(m.readout, {
      i,
      j,
      r: String(j - i).replace('-', '−'),
      value: formatNumber(data[i * cols + j], m.masked),
    });
    readout.textContent = this.#locked ? formatMessage(m.readoutLocked, { readout: text }) : text;
  }

  #placeCursorBox() {
    const box = this.#root.querySelector('.cell');
    if (!this.#cursor) {
      box.classList.remove('on');
      return;
    }
    const [i, j] = this.#cursor;
    const [x0, y0, x1, y1] = this.#window;
    const W = this.#surface.clientWidth || 320;
    const H = this.#surface.clientHeight || 320;
    const cw = W / (x1 - x0);
    const ch = H / (y1 - y0);
    Object.assign(box.style, {
      left: `${(j - x0) * cw}px`,
      top: `${(i - y0) * ch}px`,
      width: `${Math.max(4, cw)}px`,
      height: `${Math.max(4, ch)}px`,
    });
    box.classList.add('on');
    box.classList.toggle('locked', this.#locked);
  }

  #hideCursorBox() {
    this.#root.querySelector('.cell').classList.remove('on');
  }

  #pointerMove(event) {
    if (this.#drag) {
      const dx = event.clientX - this.#drag.x;
      const dy = event.clientY - this.#drag.y;
      if (Math.hypot(dx, dy) > 3) this.#drag.moved = true;
      if (this.#drag.moved) {
        const [x0, y0, x1, y1] = this.#drag.window;
        const kx = (x1 - x0) / (this.#surface.clientWidth || 320);
        const ky = (y1 - y0) / (this.#surface.clientHeight || 320);
        this.#setWindow([x0 - dx * kx, y0 - dy * ky, x1 - dx * kx, y1 - dy * ky]);
        return;
      }
    }
    if (this.#locked) return;
    const { i, j } = this.#cellAt(event);
    this.#show(i, j);
  }

  #pointerDown(event) {
    if (event.button !== 0) return;
    this.#drag = { x: event.clientX, y: event.clientY, window: this.#window, moved: false };
    this.#surface.setPointerCapture?.(event.pointerId);
    this.#surface.classList.add('dragging');
  }

  #pointerUp(event) {
    const drag = this.#drag;
    this.#drag = null;
    this.#surface.classList.remove('dragging');
    if (!drag || drag.moved) return;
    // A click (no drag): lock the readout at this cell, or unlock when it is the locked cell.
    const { i, j } = this.#cellAt(event);
    const same = this.#locked && this.#cursor && this.#cursor[0] === i && this.#cursor[1] === j;
    this.#locked = !same;
    this.#show(i, j);
    this.#refreshReadout();
    this.#placeCursorBox();
  }

  #wheel(event) {
    if (!this.#matrix) return;
    event.preventDefault();
    const { fx, fy } = this.#cellAt(event);
    const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
    this.zoom(Math.exp(Math.max(-2, Math.min(2, delta * 0.002))), fx, fy);
  }

  #key(event) {
    if (!this.#matrix) return;
    const { rows, cols } = this.#matrix;
    const step = event.shiftKey ? 10 : 1;
    const moves = {
      ArrowUp: [-step, 0],
      ArrowDown: [step, 0],
      ArrowLeft: [0, -step],
      ArrowRight: [0, step],
      Home: [0, -cols],
      End: [0, cols],
      PageUp: [-rows, 0],
      PageDown: [rows, 0],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      const [i, j] = this.#cursor ?? [Math.floor(this.#window[1]), Math.floor(this.#window[0])];
      const start = this.#cursor ? 1 : 0;
      const ni = Math.max(0, Math.min(rows - 1, i + move[0] * start));
      const nj = Math.max(0, Math.min(cols - 1, j + move[1] * start));
      this.#show(ni, nj);
      this.#keepVisible(ni, nj);
      return;
    }
    const [ci, cj] = this.#cursor ?? [];
    const [x0, y0, x1, y1] = this.#window;
    const fx = this.#cursor ? Math.max(0, Math.min(1, (cj + 0.5 - x0) / (x1 - x0))) : 0.5;
    const fy = this.#cursor ? Math.max(0, Math.min(1, (ci + 0.5 - y0) / (y1 - y0))) : 0.5;
    if (event.key === '+' || event.key === '=') this.zoom(0.5, fx, fy);
    else if (event.key === '-' || event.key === '_') this.zoom(2, fx, fy);
    else if (event.key === '0') this.resetView();
    else if ((event.key === 'Enter' || event.key === ' ') && this.#cursor) {
      this.#locked = !this.#locked;
      this.#refreshReadout();
      this.#placeCursorBox();
    } else if (event.key === 'Escape' && this.#locked) {
      this.#locked = false;
      this.#refreshReadout();
      this.#placeCursorBox();
    } else return;
    event.preventDefault();
  }

  #keepVisible(i, j) {
    const [x0, y0, x1, y1] = this.#window;
    const w = x1 - x0;
    const h = y1 - y0;
    let nx = x0;
    let ny = y0;
    if (j < x0) nx = j;
    else if (j + 1 > x1) nx = j + 1 - w;
    if (i < y0) ny = i;
    else if (i + 1 > y1) ny = i + 1 - h;
    if (nx !== x0 || ny !== y0) this.#setWindow([nx, ny, nx + w, ny + h]);
  }

  toolAction(action) {
    if (action === 'zoom-in') this.zoom(0.5);
    else if (action === 'zoom-out') this.zoom(2);
    else if (action === 'reset') this.resetView();
  }
}

if (!customElements.get('relpos-heatmap')) customElements.define('relpos-heatmap', RelposHeatmap);
