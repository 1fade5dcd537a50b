// One explorer pane: controls built from rp.schemes metadata drive a <relpos-heatmap> and a
// <relpos-curve>. The landing page shows one pane (ids map, curve, n, scheme, …, hash keys
// unprefixed); the playground shows two side by side (the second with id prefix "b-" and hash
// prefix "b."). Words come from the message files; numbers from the core.
import '../components/relpos-heatmap.js';
import { colormapNames } from '../../figure/colormap.js';
import { VIEWS, viewsFor } from '../../figure/views.js';
import { decodeHash } from '../components/hash-state.js';
import { applyI18n, lang, onLang, t } from '../i18n/index.js';
import { choiceWords, paramWords, schemeCite, schemeDescription, shownParams } from '../i18n/scheme-words.js';
import { familyKey, segmented } from './controls.js';
import { fmt } from './format.js';
import { el, words } from './ui.js';

const MODES = ['', 'explicit', 'implicit', 'mixed'];
const CURVES = ['profile', 'frequencies', 'wavelengths'];
// The hash fields the pane's own controls hold: field → control id (without the pane's prefix).
const HASH_CONTROLS = {
  n: 'n',
  heads: 'heads',
  head: 'head',
  causal: 'causal',
  mode: 'mode',
  colormap: 'colormap',
  curve: 'curve-kind',
};

function sliderRange(spec) {
  const lo = Number.isFinite(spec.min) ? spec.min : spec.default - 10;
  const hi = Number.isFinite(spec.max) && spec.max < 1e5 ? spec.max : Math.max(spec.default * 4, lo + 1);
  return [lo, hi];
}

/** An <option> whose words are message `key` (`text` until the page's language applies). */
function keyedOption(value, key, text = '') {
  const option = new Option(text, value);
  option.dataset.i18n = key;
  return option;
}

/** `fields` with every name prefixed by `key` (the pane's hash prefix). */
const prefixed = (key, fields) => Object.fromEntries(Object.entries(fields).map(([name, v]) => [`${key}${name}`, v]));

/** The form of the pane's controls; every id and name is prefixed by `id`. */
function paneForm(id, { title, presets }) {
  const rangeInput = (name, min, max, step, value) =>
    el(
      'label',
      { className: 'control' },
      words(`pane.${name}`),
      el('input', { id: `${id}${name}`, name: `${id}${name}`, type: 'range', min, max, step, value }),
      el('output', { id: `${id}${name}-out`, htmlFor: `${id}${name}`, value }),
    );
  const selectInput = (name, labelKey) =>
    el('label', { className: 'control' }, words(labelKey), el('select', { id: `${id}${name}`, name: `${id}${name}` }));
  return el(
    'form',
    { id: `${id}controls`, className: 'pane-controls', attrs: { 'data-i18n-attr': 'aria-label:pane.controls' } },
    title ? el('h2', { className: 'pane-title' }, words(title)) : null,
    selectInput('scheme', 'pane.scheme'),
    presets ? selectInput('preset', 'pane.preset') : null,
    selectInput('view', 'pane.view'),
    rangeInput('n', 4, 1024, 4, 64),
    rangeInput('heads', 1, 16, 1, 8),
    rangeInput('head', 0, 7, 1, 0),
    el(
      'label',
      { className: 'control check' },
      el('input', { id: `${id}causal`, name: `${id}causal`, type: 'checkbox' }),
      words('pane.causal'),
    ),
    segmented({
      key: 'pane.mode',
      id: `${id}mode`,
      name: `${id}mode`,
      options: MODES.map((v) => ({ value: v, key: `pane.mode.${v || 'default'}` })),
    }).root,
    selectInput('colormap', 'pane.colormap'),
    selectInput('curve-kind', 'pane.curve'),
    el('fieldset', { id: `${id}scheme-params`, className: 'params' }, el('legend', {}, words('pane.params'))),
    el('p', { id: `${id}cite`, className: 'cite' }),
    el('p', {}, el('a', { id: `${id}permalink`, href: '#', dataset: { i18n: 'pane.permalink' } })),
  );
}

/**
 * Defines <relpos-curve> (its module carries uPlot) once the pane's heatmap has drawn or failed, so
 * the first view waits for the heatmap only; the curve element, already in the page, then upgrades
 * and draws.
 */
function defineCurveAfter(map) {
  const define = () => import('../components/relpos-curve.js');
  map.addEventListener('relpos-render', define, { once: true });
  map.addEventListener('relpos-error', define, { once: true });
}

/**
 * The pane's figures: its heatmap (with the caption of its last render, in their <figure>) and its
 * curve. The chapter's page carries its explorer's heatmap already (web/site/first-figure.js writes
 * it at build time, so it draws before the pane's code arrives): the pane takes that one over.
 */
function paneFigures(root, id, scheme) {
  const given = root.querySelector(`#${id}map`);
  const map = given ?? el('relpos-heatmap', { id: `${id}map` });
  if (!given) {
    map.setAttribute('scheme', scheme);
    map.setAttribute('n', '64');
    map.setAttribute('heads', '8');
  }
  const curve = el('relpos-curve', { id: `${id}curve` });
  for (const [k, v] of Object.entries({ kind: 'profile', scheme, n: '64', heads: '8' })) curve.setAttribute(k, v);
  const caption =
    root.querySelector(`#${id}caption`) ?? el('figcaption', { id: `${id}caption`, attrs: { 'aria-live': 'off' } });
  const figure = given?.closest('figure') ?? el('figure', { className: 'pane-map' }, map, caption);
  defineCurveAfter(map);
  return { map, curve, caption, figure };
}

/**
 * Fills the pickers: the schemes grouped by the catalogue's families (rp.schemes[].family, names
 * from the glossary, scheme.<id>, in the page's language), colour maps, curve kinds and presets.
 */
function fillPickers($, rp, drawable, presets) {
  for (const family of new Set(drawable.map((s) => s.family))) {
    const group = el('optgroup', { dataset: { i18nAttr: `label:${familyKey(family)}` } });
    const members = drawable.filter((s) => s.family === family);
    group.append(...members.map((s) => keyedOption(s.id, `scheme.${s.id}`, s.name)));
    $('scheme').append(group);
  }
  $('colormap').add(keyedOption('', 'pane.colormap.auto'));
  for (const name of colormapNames) $('colormap').add(new Option(name, name));
  for (const kind of CURVES) $('curve-kind').add(keyedOption(kind, `pane.curve.${kind}`));
  if (presets) {
    $('preset').add(keyedOption('', 'pane.preset.none'));
    for (const p of rp.presets) $('preset').add(new Option(presetText(p), p.id));
  }
}

/** A preset's name and its scheme's, in the page's language. */
const presetText = (p) => t('pane.preset.option', { name: p.name, scheme: t(`scheme.${p.scheme}`) });

/** Puts the page's language on a parameter's label, tooltip and options (scheme-words.js). */
function localizeParam(label, info, name) {
  const spec = info.params[name];
  const words = paramWords(lang(), info, name);
  label.title = words.doc;
  label.querySelector('.param-name').textContent = words.label;
  for (const option of label.querySelector('select')?.options ?? []) {
    option.textContent = choiceWords(lang(), info, name, option.value);
  }
  return spec;
}

/** The labelled input of one scheme parameter, or null for a kind the pane does not edit. */
function paramControl(info, name, spec, inputId) {
  const label = el('label', { className: 'control', htmlFor: inputId }, el('span', { className: 'param-name' }));
  if (spec.type === 'choice') {
    const s = el('select', { id: inputId, name });
    spec.choices.forEach((c) => s.add(new Option(c, c)));
    s.value = spec.default;
    label.append(s);
  } else if (spec.type === 'boolean') {
    label.append(el('input', { id: inputId, type: 'checkbox', name, checked: spec.default }));
  } else if (spec.type === 'number' || spec.type === 'integer') {
    const [lo, hi] = sliderRange(spec);
    const step = spec.integer ? 1 : 'any';
    const input = el('input', { id: inputId, type: 'range', name, min: lo, max: hi, value: spec.default, step });
    const out = el('output', { htmlFor: inputId, value: spec.default });
    input.addEventListener('input', () => {
      out.value = input.value;
    });
    label.append(input, out);
  } else {
    return null;
  }
  label.dataset.param = name;
  localizeParam(label, info, name);
  return label;
}

/** The hash fields of a pane with prefix `key`, and what each may hold. */
function hashSchema(key, drawable) {
  return prefixed(key, {
    scheme: { type: 'choice', choices: drawable.map((s) => s.id) },
    view: { type: 'choice', choices: VIEWS },
    n: { type: 'integer', min: 4, max: 1024 },
    heads: { type: 'integer', min: 1, max: 16 },
    head: { type: 'integer', min: 0, max: 15 },
    causal: { type: 'boolean' },
    mode: { type: 'choice', choices: MODES },
    colormap: { type: 'choice', choices: ['', ...colormapNames] },
    curve: { type: 'choice', choices: CURVES },
  });
}

/** What the hash may hold for each of a scheme's parameters. */
function paramSpec(info) {
  return (name) => {
    const spec = Object.hasOwn(info.params, name) && shownParams(info).includes(name) ? info.params[name] : undefined;
    if (!spec) return undefined;
    if (spec.type === 'choice') return { type: 'choice', choices: spec.choices };
    if (spec.type === 'boolean') return { type: 'boolean' };
    if (spec.type === 'number' || spec.type === 'integer') {
      return { type: spec.integer ? 'integer' : 'number', min: spec.min, max: spec.max };
    }
    return undefined;
  };
}

/** The scheme parameters as the inputs of `fieldset` hold them. */
function readParams(fieldset) {
  const params = {};
  for (const input of fieldset.querySelectorAll('input, select')) {
    params[input.name] =
      input.type === 'checkbox' ? input.checked : input.type === 'range' ? Number(input.value) : input.value;
  }
  return params;
}

function setControl(input, value) {
  if (!input || value === undefined) return;
  if (input.type === 'checkbox') input.checked = Boolean(value);
  else input.value = String(value);
  if (input.nextElementSibling?.tagName === 'OUTPUT') input.nextElementSibling.value = input.value;
}

/** Sets each attribute of `element` (null removes it). */
function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null) element.removeAttribute(name);
    else element.setAttribute(name, value);
  }
}

/**
 * The heatmap's attributes for the pane's settings `s`. The renderer is the element's default
 * (WebGL2 where there is one): the chapter's first frame alone is drawn in 2D, the same pixels with
 * no WebGL context to start (web/site/first-figure.js, tests/browser/prerender.test.js).
 */
function mapAttributes(info, params, s) {
  return {
    renderer: null,
    scheme: info.id,
    view: s.view,
    n: s.n,
    heads: s.heads,
    head: s.head,
    causal: String(s.causal),
    params: JSON.stringify(params),
    mode: s.mode || null,
    colormap: s.colormap || null,
  };
}

/**
 * The curve's attributes: the profile (of the view the heatmap shows, when it is one a profile has)
 * or, for a rotary scheme, its frequencies or wavelengths.
 */
function curveAttributes(info, params, s) {
  const kind = s.curve !== 'profile' && !info.calls.includes('frequencies') ? 'profile' : s.curve;
  const profileView =
    s.view === 'weights' || s.view === 'scores' ? s.view : info.calls.includes('bias') ? 'bias' : 'scores';
  return {
    kind,
    scheme: info.id,
    n: s.n,
    heads: s.heads,
    params: JSON.stringify(params),
    causal: String(s.causal),
    view: kind === 'profile' ? profileView : null,
  };
}

/** The caption of a heatmap render: its size, head, renderer and timings. */
function renderCaption({ figure, renderer, computeMs, drawMs }) {
  return t('pane.caption', {
    rows: figure.rows,
    cols: figure.cols,
    head: figure.meta.head,
    renderer,
    compute: fmt(computeMs, 2),
    draw: fmt(drawMs, 2),
  });
}

class ExplorerPane {
  constructor(rp, root, { id, key, scheme, presets, title, onChange }) {
    Object.assign(this, { rp, root, id, key, presets, onChange, defaultScheme: scheme });
    this.drawable = rp.schemes.filter((s) => s.calls.includes('bias') || s.calls.includes('scores'));
    this.form = paneForm(id, { title, presets });
    const { map, curve, caption, figure } = paneFigures(root, id, scheme);
    Object.assign(this, { map, curve, caption });
    // A heatmap already in the page stays where it is (moving it would disconnect it).
    if (!figure.isConnected) root.append(figure);
    figure.before(this.form);
    figure.after(el('figure', { className: 'curve' }, curve));
    this.schemeSelect = this.$('scheme');
    this.viewSelect = this.$('view');
    this.fieldset = this.$('scheme-params');
    this.permalink = this.$('permalink');
    fillPickers((name) => this.$(name), rp, this.drawable, presets);
    this.#wire();
    this.schemeSelect.value = scheme;
    this.selectScheme();
    applyI18n(root);
  }

  /** The pane's element with id `name` (after its prefix). */
  $(name) {
    return this.root.querySelector(`#${this.id}${name}`);
  }

  infoOf(sid) {
    return this.drawable.find((s) => s.id === sid);
  }

  /** The settings the pane's own controls hold (values as the inputs read). */
  #settings() {
    const $ = (name) => this.$(name);
    return {
      scheme: this.schemeSelect.value,
      view: this.viewSelect.value,
      n: $('n').value,
      heads: $('heads').value,
      head: $('head').value,
      causal: $('causal').checked,
      mode: $('mode').value,
      colormap: $('colormap').value,
      curve: $('curve-kind').value,
    };
  }

  /** The pane's hash fields (prefixed). */
  state() {
    const s = this.#settings();
    const params = Object.entries(readParams(this.fieldset)).map(([name, value]) => [`p.${name}`, value]);
    return prefixed(this.key, {
      ...s,
      n: Number(s.n),
      heads: Number(s.heads),
      head: Number(s.head),
      mode: s.mode || undefined,
      colormap: s.colormap || undefined,
      ...Object.fromEntries(params),
    });
  }

  /** The scheme, its parameters and heads as the pane shows them. */
  current() {
    const s = this.#settings();
    const params = readParams(this.fieldset);
    return { info: this.infoOf(s.scheme), params, n: Number(s.n), heads: Number(s.heads), causal: s.causal };
  }

  describe() {
    const info = this.infoOf(this.schemeSelect.value);
    // The core's descriptions are English; the web layer has each scheme's in every other language.
    // The reference stays as its authors cite it (names, venue, arXiv id), marked as a <cite>.
    const [before, after = ''] = t('pane.cite').split('{cite}');
    const cite = el('cite', { textContent: schemeCite(lang(), info) });
    this.$('cite').replaceChildren(`${schemeDescription(lang(), info)} — ${before}`, cite, after);
  }

  /** The parameters' and presets' words in the page's language. */
  localizeParams() {
    const info = this.infoOf(this.schemeSelect.value);
    for (const label of this.fieldset.querySelectorAll('label[data-param]')) {
      localizeParam(label, info, label.dataset.param);
    }
    if (!this.presets) return;
    for (const option of this.$('preset').options) {
      const p = this.rp.presets.find((preset) => preset.id === option.value);
      if (p) option.textContent = presetText(p);
    }
  }

  /** Draws what the controls say: the head within the heads, the value readouts, the heatmap, the curve. */
  apply() {
    const heads = Number(this.$('heads').value);
    this.$('head').max = String(heads - 1);
    if (Number(this.$('head').value) > heads - 1) this.$('head').value = String(heads - 1);
    for (const name of ['n', 'heads', 'head']) this.$(`${name}-out`).value = this.$(name).value;
    this.describe();
    const { info, params } = this.current();
    const s = this.#settings();
    setAttributes(this.map, mapAttributes(info, params, s));
    setAttributes(this.curve, curveAttributes(info, params, s));
  }

  /** Shows the views and parameters of the scheme picked, keeping `wantedView` where it has it. */
  selectScheme(wantedView) {
    const info = this.infoOf(this.schemeSelect.value);
    this.viewSelect.replaceChildren(...viewsFor(info).map((view) => keyedOption(view, `pane.view.${view}`)));
    applyI18n(this.viewSelect);
    if (wantedView && viewsFor(info).includes(wantedView)) this.viewSelect.value = wantedView;
    this.fieldset.querySelectorAll('label').forEach((l) => l.remove());
    for (const name of shownParams(info)) {
      const control = paramControl(info, name, info.params[name], `${this.id}p-${name}`);
      if (control) this.fieldset.append(control);
    }
  }

  /** Reads this pane's fields from a hash; missing or invalid fields keep their current value. */
  fromHash(hash) {
    const { key } = this;
    const schema = hashSchema(key, this.drawable);
    const base = decodeHash(hash, schema);
    if (base[`${key}scheme`]) this.schemeSelect.value = base[`${key}scheme`];
    const info = this.infoOf(this.schemeSelect.value) ?? this.infoOf(this.defaultScheme);
    this.schemeSelect.value = info.id;
    this.selectScheme(base[`${key}view`] ?? this.viewSelect.value);
    const s = decodeHash(hash, schema, { [`${key}p.`]: paramSpec(info) });
    for (const [field, input] of Object.entries(HASH_CONTROLS)) setControl(this.$(input), s[`${key}${field}`]);
    for (const input of this.fieldset.querySelectorAll('input, select')) setControl(input, s[`${key}p.${input.name}`]);
  }

  /** Loads a scheme with parameters (a preset or a config.json reading). */
  load({ scheme: sid, params = {}, heads }) {
    if (!this.infoOf(sid)) return false;
    this.schemeSelect.value = sid;
    this.selectScheme(this.viewSelect.value);
    for (const input of this.fieldset.querySelectorAll('input, select')) {
      if (!Object.hasOwn(params, input.name)) continue;
      const value = params[input.name];
      if (input.type === 'range') {
        // Real-model values may lie beyond the slider's default span: widen it.
        if (Number(value) > Number(input.max)) input.max = String(value);
        if (Number(value) < Number(input.min)) input.min = String(value);
      }
      setControl(input, value);
    }
    if (heads) setControl(this.$('heads'), Math.min(16, heads));
    this.apply();
    return true;
  }

  /** Every control redraws and reports the change; the caption follows the heatmap's renders. */
  #wire() {
    const changed = () => {
      this.apply();
      this.onChange();
    };
    this.schemeSelect.addEventListener('change', () => {
      this.selectScheme(this.viewSelect.value);
      if (this.presets) this.$('preset').value = '';
      changed();
    });
    this.form.addEventListener('input', (e) => {
      if (e.target !== this.schemeSelect && e.target.id !== `${this.id}preset`) changed();
    });
    this.form.addEventListener('submit', (e) => e.preventDefault());
    if (this.presets) {
      this.$('preset').addEventListener('change', () => {
        const preset = this.rp.presets.find((p) => p.id === this.$('preset').value);
        if (preset) {
          this.load(preset);
          this.onChange();
        }
      });
    }
    let last = null;
    const caption = () => {
      if (last) this.caption.textContent = renderCaption(last);
    };
    this.map.addEventListener('relpos-render', (e) => {
      last = e.detail;
      caption();
    });
    onLang(() => {
      this.describe();
      this.localizeParams();
      caption();
    });
  }
}

/**
 * Builds a pane into `root`. Options: id (DOM id prefix, '' or 'b-'), key (hash prefix, '' or 'b.'),
 * scheme (default), presets (show the preset picker), title (message key), onChange (called after
 * the reader changes a control).
 */
export function createPane(
  rp,
  root,
  { id = '', key = '', scheme = 'alibi', presets = false, title = null, onChange = () => {} } = {},
) {
  return new ExplorerPane(rp, root, { id, key, scheme, presets, title, onChange });
}

/** Keeps panes and the URL hash in sync (TF-Playground style); returns a function writing the hash. */
export function syncHash(panes, extra = () => ({})) {
  const write = async () => {
    const { encodeHash } = await import('../components/hash-state.js');
    const state = Object.assign({}, ...panes.map((p) => p.state()), extra());
    const hash = encodeHash(state);
    for (const p of panes) p.permalink.href = hash || '#';
    if (hash !== location.hash) history.replaceState(null, '', hash || location.pathname + location.search);
  };
  window.addEventListener('hashchange', () => {
    for (const p of panes) {
      p.fromHash(location.hash);
      p.apply();
    }
  });
  for (const p of panes) {
    p.fromHash(location.hash);
    p.apply();
  }
  return write;
}
