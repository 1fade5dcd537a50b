// How a section's demo is laid out and kept live, around the controls of ui.js: the panel of
// controls, rows of stats and of figures, numbered figures (a curve's among them) and the wiring that
// updates the demo. Only the sections import it, so the curve renderer loads with the first demo, not
// with the page.
import { renderCurve } from '../components/relpos-curve.js';
import { onLang, t } from '../i18n/index.js';
import { el, localize, setWords, words } from './ui.js';

/** 0, 1, …, n − 1 (or from, from + 1, …). */
export const range = (n, from = 0) => Array.from({ length: n }, (_, i) => from + i);

/** The element of a part of a demo: a control or stat of ui.js (its root), or an element. */
const nodeOf = (part) => part?.root ?? part;

/** A panel of controls (made by slider, select, checkbox, button), laid out by web/styles/controls.css. */
export function controls(...parts) {
  return el('div', { className: 'controls' }, ...parts.map(nodeOf));
}

/** A row of computed numbers (stats) and verdict lines. */
export function statsRow(...parts) {
  return el('div', { className: 'stats' }, ...parts.map(nodeOf));
}

/** Figures (or views) side by side. */
export function demoRow(...parts) {
  return el('div', { className: 'demo-row' }, ...parts.map(nodeOf));
}

/**
 * A numbered figure: <figure class="rp-figure" id="fig-2-1-7-b"> with the body and a caption "Figure
 * 2.1.7-b …" in the current language (the text refers to figures by these numbers). `values` fill the
 * caption's {placeholders}.
 */
export function figure(number, captionKey, body, { values } = {}) {
  const label = words('ui.figure', { n: number });
  label.className = 'rp-figure-number';
  const caption = words(captionKey, values);
  caption.className = 'rp-figure-text';
  return el(
    'figure',
    { className: 'rp-figure', id: `fig-${number.replace(/\./g, '-')}` },
    el('div', { className: 'rp-figure-body' }, body),
    el('figcaption', {}, label, ' ', caption),
  );
}

/** Re-fills a figure caption's placeholders (a caption that quotes a live setting). */
export function setCaption(fig, values) {
  setWords(fig.querySelector('.rp-figure-text'), values);
}

/**
 * The mount() of a section whose demo comes in parts (data-part on the page): mounts the part named,
 * or the first one when none is.
 */
export function byPart(parts) {
  return (root, { rp, part }) => (parts[part] ?? Object.values(parts)[0])(root, rp);
}

/**
 * Makes a demo live: translates its words, then runs `update` now, after every change of one of
 * `inputs` (controls made by ui.js: a slider on input, a select or a checkbox on change) and when
 * the reader switches language.
 */
export function live(root, update, inputs = []) {
  for (const control of inputs) control.input.addEventListener(control.event, update);
  onLang(update);
  localize(root);
  update();
}

/**
 * A numbered figure holding a curve. draw(x, series, [xKey, yKey], options) plots the
 * series over x with the axis titles of those message keys; options (log, logX) go to renderCurve.
 */
export function curveFigure(number, captionKey, { values } = {}) {
  const box = el('div', { className: 'curve-box' });
  const root = figure(number, captionKey, box, { values });
  return {
    root,
    draw(x, series, [xKey, yKey], options = {}) {
      renderCurve(box, { x, series, xLabel: t(xKey), yLabel: t(yKey), ...options });
    },
  };
}
