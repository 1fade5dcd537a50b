// Small DOM helpers for the chapter's demos: labelled controls whose words come from the message
// files (data-i18n keys), a matrix view (canvas + renderHeatmap, hover/keyboard readout) and number
// formatting. No visible word is written here.
import { renderHeatmap } from '../components/render-heatmap.js';
import { applyI18n, lang, LANGUAGES, onLang, t } from '../i18n/index.js';

let uid = 0;
export const nextId = (prefix) => `${prefix}-${++uid}`;

/** document.createElement with properties, attributes (`attrs`) and children. */
export function el(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  const { attrs, dataset, ...rest } = props;
  Object.assign(element, rest);
  for (const [k, v] of Object.entries(attrs ?? {})) element.setAttribute(k, v);
  for (const [k, v] of Object.entries(dataset ?? {})) element.dataset[k] = v;
  for (const child of children.flat()) if (child != null) element.append(child);
  return element;
}

/** A <span data-i18n=key> (text from the message files). */
export function words(key, values) {
  const span = el('span', { dataset: { i18n: key } });
  if (values) span.dataset.i18nValues = JSON.stringify(values);
  return span;
}

/** The unit after a slider's value: a message key (translated) or a symbol shown as is ("°", "×"). */
function unitLabel(unit) {
  if (unit == null || unit === '') return null;
  if (Object.hasOwn(LANGUAGES.en.page, unit)) return el('span', { className: 'rp-unit', dataset: { i18n: unit } });
  return el('span', { className: 'rp-unit', textContent: unit });
}

/**
 * A range slider with its label, its live value and an optional `unit` (a message key, or a symbol
 * shown as is). Screen readers hear the value as shown, with its unit (aria-valuetext).
 */
export function slider({ key, min, max, step = 1, value, name, format = (v) => v, unit }) {
  const id = nextId(name ?? 'slider');
  const input = el('input', { type: 'range', id, name: name ?? id, min, max, step, value });
  const output = el('output', { htmlFor: id, value: format(Number(value)) });
  const unitEl = unitLabel(unit);
  const label = el(
    'label',
    { htmlFor: id, className: 'control rp-slider' },
    words(key),
    el('span', { className: 'rp-value' }, output, unitEl),
    input,
  );
  const announce = () => {
    const unitText = unitEl ? (unitEl.dataset.i18n ? t(unitEl.dataset.i18n) : unitEl.textContent) : '';
    input.setAttribute('aria-valuetext', unitText ? `${output.value} ${unitText}` : String(output.value));
  };
  const show = () => {
    output.value = format(Number(input.value));
    announce();
  };
  input.addEventListener('input', show);
  onLang(announce);
  if (unitEl?.dataset.i18n) unitEl.textContent = t(unitEl.dataset.i18n);
  announce();
  return {
    root: label,
    input,
    output,
    get value() {
      return Number(input.value);
    },
    set value(v) {
      input.value = String(v);
      show();
    },
  };
}

/**
 * A <select>; options are { value, key } (translated) or { value, text } (a proper name), and may
 * name a `group` (a message key): consecutive options of one group share an <optgroup>.
 */
export function select({ key, options, value, name }) {
  const id = nextId(name ?? 'select');
  const input = el('select', { id, name: name ?? id });
  let group = null;
  for (const option of options) {
    const o = el('option', { value: option.value });
    if (option.key) o.dataset.i18n = option.key;
    else o.textContent = option.text ?? option.value;
    if (option.group && option.group !== group?.dataset.group) {
      group = el('optgroup', { dataset: { group: option.group, i18nAttr: `label:${option.group}` } });
      group.label = t(option.group);
      input.append(group);
    } else if (!option.group) {
      group = null;
    }
    (group ?? input).append(o);
  }
  if (value !== undefined) input.value = value;
  const label = el('label', { htmlFor: id, className: 'control rp-select' }, words(key), input);
  return {
    root: label,
    input,
    get value() {
      return input.value;
    },
    set value(v) {
      input.value = v;
    },
  };
}

export function checkbox({ key, checked = false, name }) {
  const id = nextId(name ?? 'check');
  const input = el('input', { type: 'checkbox', id, name: name ?? id, checked });
  const label = el('label', { htmlFor: id, className: 'control check' }, input, words(key));
  return {
    root: label,
    input,
    get value() {
      return input.checked;
    },
  };
}

export function button(key, onClick) {
  const b = el('button', { type: 'button', dataset: { i18n: key } });
  b.addEventListener('click', onClick);
  return b;
}

/** A computed number with its label: set(text, verdictClass?). */
export function stat(key, name) {
  const value = el('output', { className: 'value' });
  if (name) value.dataset.stat = name;
  const root = el('div', { className: 'stat' }, words(key), value);
  return {
    root,
    value,
    set(text, kind) {
      value.textContent = text;
      value.dataset.kind = kind ?? '';
    },
  };
}

/** Formats a number for display (significant digits; exponent for very small / large). */
export function fmt(x, digits = 3) {
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (Number.isNaN(x)) return 'NaN';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const text = a < 1e-3 || a >= 1e6 ? x.toExponential(digits - 1) : Number(x.toPrecision(digits)).toString();
  return text.replace('-', '−');
}

/** A panel of controls, laid out by the site's stylesheet (web/styles/controls.css). */
export function controls(...children) {
  return el('div', { className: 'controls' }, ...children);
}

/**
 * Canvas heatmap of a [rows, cols] (or [h, rows, cols]) tensor with a hover / keyboard readout.
 * `readout(i, j, value)` returns the readout text (from messages).
 */
export class MatrixView {
  constructor({ captionKey, readout, colormap, size } = {}) {
    this.canvas = el('canvas', { className: 'matrix', tabIndex: 0 });
    this.canvas.setAttribute('role', 'img');
    this.cursor = el('div', { className: 'matrix-cursor' });
    this.readoutEl = el('div', { className: 'readout', attrs: { 'aria-live': 'polite' } });
    this.caption = captionKey ? el('figcaption', {}, words(captionKey)) : null;
    this.surface = el('div', { className: 'matrix-surface' }, this.canvas, this.cursor);
    if (size) this.surface.style.setProperty('--matrix-size', size);
    this.root = el('figure', { className: 'matrix-figure' }, this.surface, this.readoutEl, this.caption);
    this.readout = readout ?? ((i, j, v) => t('ui.readout', { i, j, r: j - i, value: fmt(v) }));
    this.colormap = colormap;
    this.at = null;
    this.canvas.addEventListener('pointermove', (e) => {
      if (!this.matrix) return;
      const box = this.canvas.getBoundingClientRect();
      const j = Math.floor(((e.clientX - box.left) / box.width) * this.matrix.cols);
      const i = Math.floor(((e.clientY - box.top) / box.height) * this.matrix.rows);
      this.point(i, j);
    });
    this.canvas.addEventListener('keydown', (e) => {
      if (!this.matrix) return;
      const [i, j] = this.at ?? [0, 0];
      const step = e.shiftKey ? 10 : 1;
      const moves = { ArrowUp: [-step, 0], ArrowDown: [step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step] };
      if (!moves[e.key]) return;
      e.preventDefault();
      this.point(i + moves[e.key][0], j + moves[e.key][1]);
    });
    onLang(() => this.#describe());
  }

  /** Shows slice `head` of the tensor. */
  show(tensor, options = {}) {
    const rows = tensor.shape.at(-2);
    const cols = tensor.shape.at(-1);
    const head = options.head ?? 0;
    this.matrix = { rows, cols, data: tensor.data.subarray(head * rows * cols, (head + 1) * rows * cols) };
    this.drawn = renderHeatmap(this.canvas, tensor, {
      colormap: options.colormap ?? this.colormap,
      range: options.range,
      head,
    });
    this.label = options.labelKey ?? this.label;
    if (this.at) this.point(...this.at);
    this.#describe();
    return this.drawn;
  }

  #describe() {
    if (!this.matrix) return;
    const [lo, hi] = this.drawn.range;
    this.canvas.setAttribute(
      'aria-label',
      t('ui.matrixLabel', { rows: this.matrix.rows, cols: this.matrix.cols, lo: fmt(lo), hi: fmt(hi) }),
    );
    if (this.at) this.point(...this.at);
  }

  point(i, j) {
    const { rows, cols, data } = this.matrix;
    i = Math.max(0, Math.min(rows - 1, i));
    j = Math.max(0, Math.min(cols - 1, j));
    this.at = [i, j];
    this.cursor.style.left = `${(j / cols) * 100}%`;
    this.cursor.style.top = `${(i / rows) * 100}%`;
    this.cursor.style.width = `${100 / cols}%`;
    this.cursor.style.height = `${100 / rows}%`;
    this.cursor.classList.add('on');
    this.readoutEl.textContent = this.readout(i, j, data[i * cols + j]);
    this.onPoint?.(i, j);
  }
}

/** Seeded PRNG (mulberry32) with normal deviates: demo inputs (random Q, K, V, learned-style embeddings). */
export function randomNormal(count, seed = 1) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float32Array(count);
  for (let k = 0; k < count; k++) {
    const u = Math.max(uniform(), 1e-12);
    out[k] = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  }
  return out;
}

/** A seeded random [rows, cols] tensor with entries ~ N(0, scale²). */
export function randomTensor(rows, cols, seed, scale = 1) {
  const data = randomNormal(rows * cols, seed);
  if (scale !== 1) for (let k = 0; k < data.length; k++) data[k] *= scale;
  return { shape: [rows, cols], data };
}

/** Re-applies data-i18n under a demo root after it built its DOM. */
export function localize(root) {
  applyI18n(root);
}

export { lang, onLang, t };
