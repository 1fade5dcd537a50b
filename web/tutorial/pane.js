// One explorer pane: controls built from rp.schemes metadata drive a <relpos-heatmap> and a
// <relpos-curve>. The landing page shows one pane (ids map, curve, n, scheme, …, hash keys
// unprefixed); the playground shows two side by side (the second with id prefix "b-" and hash
// prefix "b."). Words come from the message files; numbers from the core.
import '../components/relpos-heatmap.js';
import '../components/relpos-curve.js';
import { colormapNames } from '../components/colormap.js';
import { VIEWS, viewsFor } from '../components/compute.js';
import { decodeHash } from '../components/hash-state.js';
import { applyI18n, lang, onLang, t } from '../i18n/index.js';
import { familyKey, segmented } from '../site/controls.js';
import { el, fmt, words } from './ui.js';

// Parameters the page sets itself or that need arrays (tables, probes) are not sliders.
const SKIP = new Set([
  'n',
  'd',
  'heads',
  'causal',
  'positions',
  'rotaryDim',
  'seqLen',
  'role',
  'center',
  'output',
  'q',
  'k',
]);

function sliderRange(spec) {
  const lo = Number.isFinite(spec.min) ? spec.min : spec.default - 10;
  const hi = Number.isFinite(spec.max) && spec.max < 1e5 ? spec.max : Math.max(spec.default * 4, lo + 1);
  return [lo, hi];
}

/**
 * Builds a pane into `root`. Options: id (DOM id prefix, '' or 'b-'), key (hash prefix, '' or 'b.'),
 * scheme (default), presets (show the preset picker), title (message key).
 */
export function createPane(
  rp,
  root,
  { id = '', key = '', scheme = 'alibi', presets = false, title = null, onChange = () => {} } = {},
) {
  const $ = (name) => root.querySelector(`#${id}${name}`);
  const drawable = rp.schemes.filter((s) => s.calls.includes('bias') || s.calls.includes('scores'));
  const infoOf = (sid) => drawable.find((s) => s.id === sid);
  const defaultScheme = scheme;
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

  const form = el(
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
      options: ['', 'explicit', 'implicit', 'mixed'].map((v) => ({ value: v, key: `pane.mode.${v || 'default'}` })),
    }).root,
    selectInput('colormap', 'pane.colormap'),
    selectInput('curve-kind', 'pane.curve'),
    el('fieldset', { id: `${id}scheme-params`, className: 'params' }, el('legend', {}, words('pane.params'))),
    el('p', { id: `${id}cite`, className: 'cite' }),
    el('p', {}, el('a', { id: `${id}permalink`, href: '#', dataset: { i18n: 'pane.permalink' } })),
  );
  const map = el('relpos-heatmap', { id: `${id}map` });
  map.setAttribute('scheme', scheme);
  map.setAttribute('n', '64');
  map.setAttribute('heads', '8');
  const curve = el('relpos-curve', { id: `${id}curve` });
  for (const [k, v] of Object.entries({ kind: 'profile', scheme, n: '64', heads: '8' })) curve.setAttribute(k, v);
  const caption = el('figcaption', { id: `${id}caption`, attrs: { 'aria-live': 'off' } });
  root.append(form, el('figure', { className: 'pane-map' }, map, caption), el('figure', { className: 'curve' }, curve));

  const schemeSelect = $('scheme');
  const viewSelect = $('view');
  const fieldset = $('scheme-params');
  // The scheme picker groups the catalogue's families (rp.schemes[].family); names come from the
  // glossary (scheme.<id>), in the page's language.
  for (const family of new Set(drawable.map((s) => s.family))) {
    const group = el('optgroup', { dataset: { i18nAttr: `label:${familyKey(family)}` } });
    for (const s of drawable.filter((x) => x.family === family)) {
      const o = new Option(s.name, s.id);
      o.dataset.i18n = `scheme.${s.id}`;
      group.append(o);
    }
    schemeSelect.append(group);
  }
  const auto = new Option('', '');
  auto.dataset.i18n = 'pane.colormap.auto';
  $('colormap').add(auto);
  for (const name of colormapNames) $('colormap').add(new Option(name, name));
  for (const kind of ['profile', 'frequencies', 'wavelengths']) {
    const o = new Option('', kind);
    o.dataset.i18n = `pane.curve.${kind}`;
    $('curve-kind').add(o);
  }
  if (presets) {
    const none = new Option('', '');
    none.dataset.i18n = 'pane.preset.none';
    $('preset').add(none);
    for (const p of rp.presets) $('preset').add(new Option(`${p.name} (${p.scheme})`, p.id));
  }

  function buildParams(info) {
    fieldset.querySelectorAll('label').forEach((l) => l.remove());
    for (const [name, spec] of Object.entries(info.params)) {
      if (SKIP.has(name) || spec.default === null) continue;
      const inputId = `${id}p-${name}`;
      const label = el('label', { className: 'control', htmlFor: inputId, title: spec.doc }, name);
      if (spec.type === 'choice') {
        const s = el('select', { id: inputId, name });
        spec.choices.forEach((c) => s.add(new Option(c, c)));
        s.value = spec.default;
        label.append(s);
      } else if (spec.type === 'boolean') {
        label.append(el('input', { id: inputId, type: 'checkbox', name, checked: spec.default }));
      } else if (spec.type === 'number' || spec.type === 'integer') {
        const [lo, hi] = sliderRange(spec);
        const input = el('input', {
          id: inputId,
          type: 'range',
          name,
          min: lo,
          max: hi,
          value: spec.default,
          step: spec.integer ? 1 : 'any',
        });
        const out = el('output', { htmlFor: inputId, value: spec.default });
        input.addEventListener('input', () => {
          out.value = input.value;
        });
        label.append(input, out);
      } else {
        continue;
      }
      fieldset.append(label);
    }
  }

  function fillViews(info, wanted) {
    viewSelect.innerHTML = '';
    for (const view of viewsFor(info)) {
      const o = new Option('', view);
      o.dataset.i18n = `pane.view.${view}`;
      viewSelect.add(o);
    }
    applyI18n(viewSelect);
    if (wanted && viewsFor(info).includes(wanted)) viewSelect.value = wanted;
  }

  function hashSchema() {
    return {
      [`${key}scheme`]: { type: 'choice', choices: drawable.map((s) => s.id) },
      [`${key}view`]: { type: 'choice', choices: VIEWS },
      [`${key}n`]: { type: 'integer', min: 4, max: 1024 },
      [`${key}heads`]: { type: 'integer', min: 1, max: 16 },
      [`${key}head`]: { type: 'integer', min: 0, max: 15 },
      [`${key}causal`]: { type: 'boolean' },
      [`${key}mode`]: { type: 'choice', choices: ['', 'explicit', 'implicit', 'mixed'] },
      [`${key}colormap`]: { type: 'choice', choices: ['', ...colormapNames] },
      [`${key}curve`]: { type: 'choice', choices: ['profile', 'frequencies', 'wavelengths'] },
    };
  }

  function paramSpec(info) {
    return (name) => {
      const spec = Object.hasOwn(info.params, name) && !SKIP.has(name) ? info.params[name] : undefined;
      if (!spec) return undefined;
      if (spec.type === 'choice') return { type: 'choice', choices: spec.choices };
      if (spec.type === 'boolean') return { type: 'boolean' };
      if (spec.type === 'number' || spec.type === 'integer') {
        return { type: spec.integer ? 'integer' : 'number', min: spec.min, max: spec.max };
      }
      return undefined;
    };
  }

  /** The pane's hash fields (prefixed). */
  function state() {
    const s = {
      [`${key}scheme`]: schemeSelect.value,
      [`${key}view`]: viewSelect.value,
      [`${key}n`]: Number($('n').value),
      [`${key}heads`]: Number($('heads').value),
      [`${key}head`]: Number($('head').value),
      [`${key}causal`]: $('causal').checked,
      [`${key}mode`]: $('mode').value || undefined,
      [`${key}colormap`]: $('colormap').value || undefined,
      [`${key}curve`]: $('curve-kind').value,
    };
    for (const input of fieldset.querySelectorAll('input, select')) {
      s[`${key}p.${input.name}`] =
        input.type === 'checkbox' ? input.checked : input.type === 'range' ? Number(input.value) : input.value;
    }
    return s;
  }

  /** The scheme, its parameters and heads as the pane shows them. */
  function current() {
    const params = {};
    for (const input of fieldset.querySelectorAll('input, select')) {
      params[input.name] =
        input.type === 'checkbox' ? input.checked : input.type === 'range' ? Number(input.value) : input.value;
    }
    return {
      info: infoOf(schemeSelect.value),
      params,
      n: Number($('n').value),
      heads: Number($('heads').value),
      causal: $('causal').checked,
    };
  }

  function describe() {
    const info = infoOf(schemeSelect.value);
    // The core's scheme descriptions are English; other languages show the citation only.
    $('cite').textContent =
      lang() === 'en' ? `${info.description} — ${info.cite}` : t('pane.cite', { cite: info.cite });
  }

  function apply() {
    const { info, params } = current();
    const heads = Number($('heads').value);
    $('head').max = String(heads - 1);
    if (Number($('head').value) > heads - 1) $('head').value = String(heads - 1);
    for (const name of ['n', 'heads', 'head']) $(`${name}-out`).value = $(name).value;
    describe();
    const attributes = {
      scheme: info.id,
      view: viewSelect.value,
      n: $('n').value,
      heads: $('heads').value,
      head: $('head').value,
      causal: String($('causal').checked),
      params: JSON.stringify(params),
    };
    for (const [name, value] of Object.entries(attributes)) map.setAttribute(name, value);
    for (const name of ['mode', 'colormap']) {
      if ($(name).value) map.setAttribute(name, $(name).value);
      else map.removeAttribute(name);
    }
    const wanted = $('curve-kind').value;
    const kind = wanted !== 'profile' && !info.calls.includes('frequencies') ? 'profile' : wanted;
    const curveAttributes = {
      kind,
      scheme: info.id,
      n: $('n').value,
      heads: $('heads').value,
      params: JSON.stringify(params),
      causal: String($('causal').checked),
    };
    if (kind === 'profile') {
      curveAttributes.view =
        viewSelect.value === 'weights' || viewSelect.value === 'scores'
          ? viewSelect.value
          : info.calls.includes('bias')
            ? 'bias'
            : 'scores';
    }
    for (const [name, value] of Object.entries(curveAttributes)) curve.setAttribute(name, value);
    if (kind !== 'profile') curve.removeAttribute('view');
  }

  function selectScheme(wantedView) {
    const info = infoOf(schemeSelect.value);
    fillViews(info, wantedView);
    buildParams(info);
  }

  function setControl(input, value) {
    if (!input || value === undefined) return;
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else input.value = String(value);
    if (input.nextElementSibling?.tagName === 'OUTPUT') input.nextElementSibling.value = input.value;
  }

  /** Reads this pane's fields from a hash; missing or invalid fields keep their current value. */
  function fromHash(hash) {
    const base = decodeHash(hash, hashSchema());
    if (base[`${key}scheme`]) schemeSelect.value = base[`${key}scheme`];
    const info = infoOf(schemeSelect.value) ?? infoOf(defaultScheme);
    schemeSelect.value = info.id;
    selectScheme(base[`${key}view`] ?? viewSelect.value);
    const s = decodeHash(hash, hashSchema(), { [`${key}p.`]: paramSpec(info) });
    for (const [field, input] of [
      ['n', 'n'],
      ['heads', 'heads'],
      ['head', 'head'],
      ['causal', 'causal'],
      ['mode', 'mode'],
      ['colormap', 'colormap'],
      ['curve', 'curve-kind'],
    ]) {
      setControl($(input), s[`${key}${field}`]);
    }
    for (const input of fieldset.querySelectorAll('input, select')) setControl(input, s[`${key}p.${input.name}`]);
  }

  /** Loads a scheme with parameters (a preset or a config.json reading). */
  function load({ scheme: sid, params = {}, heads }) {
    if (!infoOf(sid)) return false;
    schemeSelect.value = sid;
    selectScheme(viewSelect.value);
    for (const input of fieldset.querySelectorAll('input, select')) {
      if (!Object.hasOwn(params, input.name)) continue;
      const value = params[input.name];
      if (input.type === 'range') {
        // Real-model values may lie beyond the slider's default span: widen it.
        if (Number(value) > Number(input.max)) input.max = String(value);
        if (Number(value) < Number(input.min)) input.min = String(value);
      }
      setControl(input, value);
    }
    if (heads) setControl($('heads'), Math.min(16, heads));
    apply();
    return true;
  }

  schemeSelect.addEventListener('change', () => {
    selectScheme(viewSelect.value);
    if (presets) $('preset').value = '';
    apply();
    onChange();
  });
  form.addEventListener('input', (e) => {
    if (e.target !== schemeSelect && e.target.id !== `${id}preset`) {
      apply();
      onChange();
    }
  });
  form.addEventListener('submit', (e) => e.preventDefault());
  if (presets) {
    $('preset').addEventListener('change', () => {
      const preset = rp.presets.find((p) => p.id === $('preset').value);
      if (preset) {
        load(preset);
        onChange();
      }
    });
  }
  let last = null;
  const captionText = () => {
    if (!last) return;
    caption.textContent = t('pane.caption', {
      rows: last.figure.rows,
      cols: last.figure.cols,
      head: last.figure.meta.head,
      renderer: last.renderer,
      compute: fmt(last.computeMs, 2),
      draw: fmt(last.drawMs, 2),
    });
  };
  map.addEventListener('relpos-render', (e) => {
    last = e.detail;
    captionText();
  });
  onLang(() => {
    describe();
    captionText();
  });

  schemeSelect.value = scheme;
  selectScheme();
  applyI18n(root);
  return { root, map, curve, state, fromHash, apply, load, current, permalink: $('permalink'), infoOf };
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
