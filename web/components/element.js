// What every relpos element shares: the shadow root and its base styles (the page's design tokens
// --rp-* inherit into it, with fallbacks), the toolbar with its export menu, the attribute
// observer, the message API, reading a scheme and its options from attributes, and the render
// cycle with its events — relpos-render (one detail shape for every element, see RenderDetail in
// web/index.d.ts), relpos-error and relpos-export.
import { load } from '../../bindings/index.js';
import { loadCore } from '../../bindings/core-instance.js';
import { EXPORT_FORMATS } from '../../figure/export-formats.js';
import { viewNeedsAnalysis } from '../../figure/views.js';
import { formatMessage, mergeMessages, onMessages, pageMessages } from './messages.js';

const BASE_STYLE = `
  :host { color-scheme: light dark; color: var(--rp-fg, CanvasText);
          font: var(--rp-text-sm, 12px) / 1.4 var(--rp-font-sans, system-ui, sans-serif); }
  .tools { display: flex; gap: var(--rp-space-1, 4px); align-items: center; flex-wrap: wrap;
           margin-top: var(--rp-space-1, 4px); }
  button, summary { font: inherit; color: inherit; background: var(--rp-surface, color-mix(in srgb, CanvasText 8%, Canvas));
                    border: 1px solid var(--rp-border, #8886); border-radius: var(--rp-radius, 4px);
                    padding: 1px var(--rp-space-2, 8px); cursor: pointer; }
  button:hover, details[open] > summary { background: var(--rp-accent, Highlight); color: var(--rp-accent-fg, HighlightText); }
  button:focus-visible, summary:focus-visible { outline: 2px solid var(--rp-focus, Highlight); outline-offset: 2px; }
  details { position: relative; }
  details > div { position: absolute; z-index: 2; display: grid; gap: 2px; padding: var(--rp-space-1, 4px); margin-top: 2px;
                  background: var(--rp-bg, Canvas); border: 1px solid var(--rp-border, #8886);
                  border-radius: var(--rp-radius, 4px); min-width: 10rem; }
  .readout { min-height: 1.4em; font-family: var(--rp-font-mono, ui-monospace, monospace); font-variant-numeric: tabular-nums; }
  .error { color: #b00020; white-space: pre-wrap; }
  .error:empty { display: none; }
  .sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
             clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
  @media (prefers-color-scheme: dark) { .error { color: #ff8a80; } }
`;

/**
 * An element's shadow DOM: base styles + `style`, then `body`, the toolbar (`tools` buttons, then
 * the export menu), the aria-live readout, `after`, and the error line.
 */
export function elementTemplate(style, { body, tools = '', after = '' }) {
  return `<style>${BASE_STYLE}${style}</style>${body}
  <div class="tools" part="tools" role="group">${tools}<details class="export"><summary></summary><div></div></details></div>
  <div class="readout" part="readout" aria-live="polite" aria-atomic="true"></div>${after}
  <div class="error" role="alert"></div>`;
}

// Options every view takes besides the scheme's own parameters.
const COMMON_OPTIONS = ['n', 'heads', 'd', 'causal'];

function attributeValue(name, value, spec) {
  if (spec?.type === 'choice') return value;
  if (spec?.type === 'boolean' || name === 'causal') return value !== 'false';
  if (spec?.type === 'perHead' || spec?.type === 'array') {
    try {
      return JSON.parse(value);
    } catch {
      return value; // the core names the parameter and what it expects
    }
  }
  return Number(value);
}

export class RelposElement extends HTMLElement {
  #overrides = {};
  #token = 0;
  #scheduled = false;
  #observer;
  #resize = new ResizeObserver(() => this.resized());
  #unsubscribe = null;

  constructor(template) {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = template;
    const menu = root.querySelector('.export > div');
    for (const format of Object.keys(EXPORT_FORMATS)) {
      const button = Object.assign(document.createElement('button'), { type: 'button' });
      button.dataset.format = format;
      menu.append(button);
    }
    root.querySelector('.tools').addEventListener('click', (event) => this.#toolClick(event));
    // Scheme parameters are arbitrary attributes, so watch them all rather than a fixed list.
    // The element's own data-state / aria-* writes must not trigger a render (that would loop).
    this.#observer = new MutationObserver((records) => {
      if (records.some((r) => !/^(data-|aria-)/.test(r.attributeName))) this.requestRender();
    });
  }

  connectedCallback() {
    this.#observer.observe(this, { attributes: true });
    this.#resize.observe(this);
    this.#unsubscribe = onMessages(() => this.wordsChanged());
    this.wordsChanged();
    this.requestRender();
  }

  disconnectedCallback() {
    this.#observer.disconnect();
    this.#resize.disconnect();
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  /* ---------- words ---------- */

  /** The messages in use; assigning merges overrides onto the page-wide messages. */
  get messages() {
    return mergeMessages(pageMessages(), this.#overrides);
  }

  set messages(overrides) {
    this.setMessages(overrides);
  }

  /** Replaces this element's message overrides (partial objects are fine). */
  setMessages(overrides) {
    this.#overrides = overrides && typeof overrides === 'object' ? overrides : {};
    this.wordsChanged();
  }

  /** Writes the words of the toolbar and export menu; elements add their own words. */
  wordsChanged() {
    const m = this.messages;
    const root = this.shadowRoot;
    root.querySelector('.export summary').textContent = m.exportMenu;
    root.querySelector('.tools').setAttribute('aria-label', m.toolbar);
    for (const button of root.querySelectorAll('[data-format]')) {
      button.textContent = m[EXPORT_FORMATS[button.dataset.format].message];
    }
  }

  /* ---------- attributes → core options ---------- */

  /** The rp.schemes entry named by the `scheme` attribute (or `fallback`); a RangeError lists them. */
  schemeInfo(rp, fallback) {
    const scheme = this.getAttribute('scheme') ?? fallback;
    const info = rp.schemes.find((s) => s.id === scheme);
    if (!info) {
      const known = rp.schemes.map((s) => s.id).join(', ');
      throw new RangeError(`${formatMessage(this.messages.errorScheme, { scheme })}; ${known}`);
    }
    return info;
  }

  /**
   * The options the attributes ask for: every scheme parameter by its lower-cased name
   * (alibibiasmax="4"), n, heads, d and causal, then the JSON object of `params` (which wins).
   * `own` lists the element's own attributes, never read as parameters.
   */
  schemeOptions(info, own) {
    const options = {};
    const byLowerName = new Map(Object.keys(info.params).map((name) => [name.toLowerCase(), name]));
    for (const { name, value } of Array.from(this.attributes)) {
      if (own.includes(name)) continue;
      const param = byLowerName.get(name) ?? (COMMON_OPTIONS.includes(name) ? name : null);
      if (param) options[param] = attributeValue(name, value, info.params[param]);
    }
    const extra = this.getAttribute('params');
    if (extra) {
      let parsed = null;
      try {
        parsed = JSON.parse(extra);
      } catch {
        // reported below
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new TypeError(this.messages.errorParams);
      }
      Object.assign(options, parsed);
    }
    return options;
  }

  /* ---------- the render cycle ---------- */

  /** Renders once after the current task's attribute changes (coalesced). */
  requestRender() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#run();
    });
  }

  /** True when rendering needs the wasm core (elements showing a page's own data do not). */
  needsCore() {
    return true;
  }

  /** Resolves once what rendering needs besides the core is here (fetched beside it). */
  prepare() {
    return null;
  }

  /** True when rendering needs only the core's calls on schemes (bindings/core-instance.js, loadCore). */
  coreAlone() {
    return false;
  }

  /** True when rendering also needs rp.analysis (the analysis module, loaded on first use). */
  needsAnalysis() {
    return viewNeedsAnalysis(this.getAttribute('view'));
  }

  async #run() {
    const token = ++this.#token;
    const started = performance.now();
    try {
      // The elements read no presets or configs: the models module is not theirs to fetch. What
      // needs only the core's calls on schemes waits for the core alone (loadCore); anything else
      // for load() too (bindings/extras.js), and for the analysis module where the view reads it.
      const [rp] = await Promise.all([this.needsCore() ? loadCore({ models: false }) : null, this.prepare()]);
      if (rp && !this.coreAlone(rp)) await load({ models: false, analysis: this.needsAnalysis() });
      if (token !== this.#token) return;
      // { tensor, source, renderer, computeMs, drawMs } of what the element computed and drew.
      const drawn = this.renderWith(rp);
      this.showError('');
      this.dataset.state = 'ready';
      const detail = {
        figure: this.figure(),
        tensor: drawn.tensor ?? null,
        source: drawn.source ?? null,
        renderer: drawn.renderer,
        ms: performance.now() - started,
        computeMs: drawn.computeMs ?? 0,
        drawMs: drawn.drawMs ?? 0,
      };
      this.dispatchEvent(new CustomEvent('relpos-render', { detail }));
    } catch (error) {
      if (token !== this.#token) return;
      this.renderFailed(error);
      this.dataset.state = 'error';
      this.showError(error.message);
      this.dispatchEvent(new CustomEvent('relpos-error', { detail: error }));
    }
  }

  /** The element changed size. */
  resized() {}

  /** Forgets what a failed render left half-done. */
  renderFailed() {}

  showError(text) {
    this.shadowRoot.querySelector('.error').textContent = text;
  }

  /* ---------- export ---------- */

  /** { blob, filename } in png | svg | csv | json | tex. */
  export(format) {
    const figure = this.figure();
    if (!figure) return Promise.reject(new Error(`${this.localName}: nothing to export yet`));
    // The exporters arrive on first use: a page's first heatmap does not wait for them.
    return import('./export.js').then(({ exportFigure }) => exportFigure(figure, format, this.exportOptions(figure)));
  }

  /** { basename, canvas? } of the exported files. */
  exportOptions() {
    return { basename: this.localName };
  }

  /** A toolbar button other than an export format was pressed. */
  toolAction() {}

  async #toolClick(event) {
    const button = event.target.closest('button');
    if (!button) return;
    const format = button.dataset.format;
    if (!format) {
      this.toolAction(button.dataset.action);
      return;
    }
    button.closest('details').open = false;
    try {
      const { blob, filename } = await this.export(format);
      // A page may take the file over (upload, copy); otherwise it is saved.
      const detail = { format, blob, filename };
      if (this.dispatchEvent(new CustomEvent('relpos-export', { detail, cancelable: true }))) {
        const { download } = await import('./export.js');
        download(blob, filename);
      }
    } catch (error) {
      this.showError(error.message);
    }
  }
}
