// Small DOM helpers for the chapter's demos and the playground: labelled controls whose words come
// from the message files (data-i18n keys), computed numbers and verdicts, a matrix view (canvas +
// renderHeatmap with axes, colour scale and a hover/keyboard readout). No visible word is written here.
import { colormapCss } from '../../figure/colormap.js';
import { renderHeatmap } from '../components/render-heatmap.js';
import { formatTick, integerTicks, niceTicks } from '../../figure/ticks.js';
import { applyI18n, hasMessage, lang, onLang, t } from '../i18n/index.js';
import { fmt } from './format.js';

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

/** Sets a words() span's placeholder values and re-renders it in the current language. */
export function setWords(span, values) {
  span.dataset.i18nValues = JSON.stringify(values);
  applyI18n(span.parentElement ?? span);
}

/** The unit after a slider's value: a message key (translated) or a symbol shown as is ("°", "×"). */
function unitLabel(unit) {
  if (unit == null || unit === '') return null;
  if (hasMessage(unit)) return el('span', { className: 'rp-unit', dataset: { i18n: unit } });
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
    event: 'input',
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
    event: 'change',
    get value() {
      return input.value;
    },
    set value(v) {
      input.value = v;
    },
  };
}

/** Select options for scheme ids, translated through the glossary of scheme names ('scheme.<id>'). */
export function schemeOptions(ids) {
  return ids.map((id) => ({ value: id, key: `scheme.${id}` }));
}

/** Select options whose words are the messages `<prefix>.<value>`. */
export function keyedOptions(prefix, values) {
  return values.map((value) => ({ value, key: `${prefix}.${value}` }));
}

/** Select options shown as their values (numbers, proper names). */
export function textOptions(values) {
  return values.map((value) => ({ value, text: value }));
}

export function checkbox({ key, checked = false, name }) {
  const id = nextId(name ?? 'check');
  const input = el('input', { type: 'checkbox', id, name: name ?? id, checked });
  const label = el('label', { htmlFor: id, className: 'control check' }, input, words(key));
  return {
    root: label,
    input,
    event: 'change',
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

/**
 * A computed number with its label: set(text) shows it; set(text, holds) also marks it as a verdict
 * that holds (truthy) or fails.
 */
export function stat(key, name) {
  const value = el('output', { className: 'value' });
  if (name) value.dataset.stat = name;
  const root = el('div', { className: 'stat' }, words(key), value);
  return {
    root,
    value,
    set(text, ...verdict) {
      value.textContent = text;
      value.dataset.kind = verdict.length ? (verdict[0] ? 'yes' : 'no') : '';
    },
  };
}

/** A sentence stating a verdict, marked as holding (true) or failing (false), read out when it changes. */
export function verdictLine() {
  const root = el('p', { className: 'verdict', attrs: { 'aria-live': 'polite' } });
  return {
    root,
    set(text, holds) {
      root.textContent = text;
      root.dataset.kind = holds ? 'yes' : 'no';
    },
  };
}

const style = (node, rules) => Object.assign(node.style, rules);

/**
 * Canvas heatmap of a [rows, cols] (or [h, rows, cols]) tensor with axes (ticks on rows and columns,
 * counted from 0 like the readout), a colour scale with its unit, and a hover / keyboard readout.
 * `readout(i, j, value)` returns the readout text; `xKey`, `yKey`, `unitKey` are message keys.
 */
export class MatrixView {
  constructor({ readout, colormap, size, xKey = 'ui.axisKey', yKey = 'ui.axisQuery', unitKey = 'ui.unitValue' } = {}) {
    this.canvas = el('canvas', { className: 'matrix', tabIndex: 0 });
    this.canvas.setAttribute('role', 'img');
    this.cursor = el('div', { className: 'matrix-cursor' });
    this.readoutEl = el('div', { className: 'readout', attrs: { 'aria-live': 'polite' } });
    this.surface = el('div', { className: 'matrix-surface' }, this.canvas, this.cursor);
    if (size) this.surface.style.setProperty('--matrix-size', size);
    this.xTicks = el('div', { className: 'rp-axis rp-axis-x', attrs: { 'aria-hidden': 'true' } });
    this.yTicks = el('div', { className: 'rp-axis rp-axis-y', attrs: { 'aria-hidden': 'true' } });
    this.bar = el('div', { className: 'rp-colorbar', attrs: { 'aria-hidden': 'true' } });
    this.barTicks = el('div', { className: 'rp-colorbar-ticks', attrs: { 'aria-hidden': 'true' } });
    this.root = el('div', { className: 'matrix-figure' }, this.#grid(xKey, yKey, unitKey), this.readoutEl);
    this.readout = readout ?? ((i, j, v) => t('ui.readout', { i, j, r: j - i, value: fmt(v) }));
    this.colormap = colormap;
    this.at = null;
    this.#listen();
    onLang(() => this.#describe());
  }

  /** The figure's grid: y title, y ticks, map, colour bar, its ticks; then x ticks; then x title, unit. */
  #grid(xKey, yKey, unitKey) {
    const xTitle = words(xKey);
    const yTitle = words(yKey);
    const unit = words(unitKey);
    xTitle.className = 'rp-axis-title';
    yTitle.className = 'rp-axis-title';
    unit.className = 'rp-colorbar-unit';
    // Latin axis titles read bottom to top; Chinese ones stay upright, top to bottom.
    const orient = () =>
      style(yTitle, {
        writingMode: 'vertical-rl',
        transform: lang() === 'zh' ? 'none' : 'rotate(180deg)',
        textAlign: 'center',
        fontSize: '0.8em',
      });
    orient();
    onLang(orient);
    style(xTitle, { textAlign: 'center', fontSize: '0.8em' });
    style(unit, { fontSize: '0.8em', whiteSpace: 'nowrap' });
    style(this.xTicks, { position: 'relative', height: '1.2em', fontSize: '0.75em' });
    style(this.yTicks, { position: 'relative', width: '2.2em', fontSize: '0.75em' });
    style(this.surface, { width: '100%', aspectRatio: '1', alignSelf: 'start' });
    style(this.bar, { width: '0.8rem', outline: '1px solid #8886' });
    style(this.barTicks, { position: 'relative', width: '3.6em', fontSize: '0.75em' });
    const blank = () => el('span');
    const cells = [yTitle, this.yTicks, this.surface, this.bar, this.barTicks];
    cells.push(blank(), blank(), this.xTicks, blank(), blank(), blank(), blank(), xTitle, blank(), unit);
    const grid = el('div', { className: 'rp-matrix-grid' }, ...cells);
    style(grid, {
      display: 'grid',
      gridTemplateColumns: 'auto auto minmax(0, var(--matrix-size, 320px)) auto auto',
      gap: '0 0.3rem',
      alignItems: 'stretch',
      maxWidth: '100%',
    });
    return grid;
  }

  /** The readout follows the pointer, and the arrow keys (Shift: ten cells at a time). */
  #listen() {
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
    this.#axes();
    if (this.at) this.point(...this.at);
    this.#describe();
    return this.drawn;
  }

  #axes() {
    const { rows, cols } = this.matrix;
    const tick = (value, count, horizontal) => {
      const label = el('span', { textContent: String(value) });
      const at = `${((value + 0.5) / count) * 100}%`;
      style(label, { position: 'absolute', whiteSpace: 'nowrap', lineHeight: '1' });
      if (horizontal) style(label, { left: at, top: '0.15em', transform: 'translateX(-50%)' });
      else style(label, { top: at, right: '0.2em', transform: 'translateY(-50%)' });
      return label;
    };
    this.xTicks.replaceChildren(...integerTicks(0, cols - 1, 4).map((v) => tick(v, cols, true)));
    this.yTicks.replaceChildren(...integerTicks(0, rows - 1, 4).map((v) => tick(v, rows, false)));
    const [lo, hi] = this.drawn.range;
    const stops = Array.from({ length: 17 }, (_, k) => colormapCss(this.drawn.colormap, k / 16));
    this.bar.style.background = `linear-gradient(to top, ${stops.join(', ')})`;
    this.barTicks.replaceChildren(
      ...niceTicks(lo, hi, 4).map((v) => {
        const label = el('span', { textContent: formatTick(v) });
        style(label, {
          position: 'absolute',
          left: '0.2em',
          top: `${(1 - (v - lo) / (hi - lo)) * 100}%`,
          transform: 'translateY(-50%)',
          whiteSpace: 'nowrap',
          lineHeight: '1',
        });
        return label;
      }),
    );
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

/** The footer's line naming the core's build (SIMD or baseline) and version, in the page's language. */
export function showBuild(rp) {
  const build = document.getElementById('build');
  const text = () => {
    build.textContent = t(rp.simd ? 'footer.buildSimd' : 'footer.buildBaseline', { version: rp.version });
  };
  text();
  onLang(text);
}

/** Re-applies data-i18n under a demo root after it built its DOM. */
export function localize(root) {
  applyI18n(root);
}

/**
 * Names each body cell of `table` by its column's header (data-label), so a narrow screen can show a
 * row as a card (web/styles/chapter.css); call it after the table's words are in place.
 */
export function labelCells(table) {
  const headers = [...(table.tHead?.rows[0]?.cells ?? [])].map((cell) => cell.textContent.trim());
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      [...row.cells].forEach((cell, index) => {
        if (cell.tagName === 'TD' && headers[index]) cell.dataset.label = headers[index];
      });
    }
  }
}
