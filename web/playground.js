// The playground page: controls built from rp.schemes metadata drive one <relpos-heatmap> and one
// <relpos-curve>. The whole state lives in the URL hash (TF-Playground style), so every view can be
// linked; a hash that does not decode to valid settings is ignored field by field.
// Words and layout live in index.html; numbers come from the core.
import { load } from '../bindings/index.js';
import './components/relpos-heatmap.js';
import './components/relpos-curve.js';
import { colormapNames } from './components/colormap.js';
import { VIEWS, viewsFor } from './components/compute.js';
import { decodeHash, encodeHash } from './components/hash-state.js';

const rp = await load();
const $ = (id) => document.getElementById(id);
const map = $('map');
const curve = $('curve');
const schemeSelect = $('scheme');
const viewSelect = $('view');
const fieldset = $('scheme-params');
const form = $('controls');

// Parameters the page sets itself or that need arrays (tables, probes) are not sliders.
const SKIP = new Set(['n', 'd', 'heads', 'causal', 'positions', 'rotaryDim', 'seqLen', 'role', 'center', 'output']);
const drawable = rp.schemes.filter((s) => s.calls.includes('bias') || s.calls.includes('scores'));
const infoOf = (id) => drawable.find((s) => s.id === id);

for (const s of drawable) schemeSelect.add(new Option(`${s.name} (${s.id})`, s.id));
for (const name of colormapNames) $('colormap').add(new Option(name, name));
$('build').textContent = `relpos ${rp.version}, ${rp.simd ? 'WebAssembly SIMD' : 'baseline WebAssembly'} build`;

function sliderRange(spec) {
  const lo = Number.isFinite(spec.min) ? spec.min : spec.default - 10;
  const hi = Number.isFinite(spec.max) && spec.max < 1e5 ? spec.max : Math.max(spec.default * 4, lo + 1);
  return [lo, hi];
}

function buildParams(info) {
  fieldset.querySelectorAll('label').forEach((l) => l.remove());
  for (const [name, spec] of Object.entries(info.params)) {
    if (SKIP.has(name) || spec.default === null) continue;
    const label = document.createElement('label');
    label.title = spec.doc;
    label.append(name);
    if (spec.type === 'choice') {
      const select = document.createElement('select');
      select.name = name;
      spec.choices.forEach((c) => select.add(new Option(c, c)));
      select.value = spec.default;
      label.append(select);
    } else if (spec.type === 'boolean') {
      label.append(Object.assign(document.createElement('input'), { type: 'checkbox', name, checked: spec.default }));
    } else if (spec.type !== 'array') {
      const [lo, hi] = sliderRange(spec);
      const input = Object.assign(document.createElement('input'), {
        type: 'range', name, min: lo, max: hi, value: spec.default, step: spec.integer ? 1 : 'any',
      });
      const out = Object.assign(document.createElement('output'), { value: spec.default });
      input.addEventListener('input', () => { out.value = input.value; });
      label.append(input, out);
    } else {
      continue;
    }
    fieldset.append(label);
  }
}

function fillViews(info, wanted) {
  viewSelect.innerHTML = '';
  for (const view of viewsFor(info)) viewSelect.add(new Option(view, view));
  if (wanted && viewsFor(info).includes(wanted)) viewSelect.value = wanted;
}

// Hash schema: page controls plus p.<name> for the current scheme's parameters.
function hashSchema() {
  return {
    scheme: { type: 'choice', choices: drawable.map((s) => s.id) },
    view: { type: 'choice', choices: VIEWS },
    n: { type: 'integer', min: 4, max: 1024 },
    heads: { type: 'integer', min: 1, max: 16 },
    head: { type: 'integer', min: 0, max: 15 },
    causal: { type: 'boolean' },
    mode: { type: 'choice', choices: ['', 'explicit', 'implicit', 'mixed'] },
    colormap: { type: 'choice', choices: ['', ...colormapNames] },
    curve: { type: 'choice', choices: ['profile', 'frequencies', 'wavelengths'] },
  };
}

function paramSpec(info) {
  return (name) => {
    const spec = Object.hasOwn(info.params, name) && !SKIP.has(name) ? info.params[name] : undefined;
    if (!spec) return undefined;
    if (spec.type === 'choice') return { type: 'choice', choices: spec.choices };
    if (spec.type === 'boolean') return { type: 'boolean' };
    if (spec.type === 'number' || spec.type === 'integer') return { type: spec.integer ? 'integer' : 'number', min: spec.min, max: spec.max };
    return undefined;
  };
}

function currentState() {
  const state = {
    scheme: schemeSelect.value, view: viewSelect.value, n: Number($('n').value), heads: Number($('heads').value),
    head: Number($('head').value), causal: $('causal').checked, mode: $('mode').value || undefined,
    colormap: $('colormap').value || undefined, curve: $('curve-kind').value,
  };
  for (const el of fieldset.querySelectorAll('input, select')) {
    state[`p.${el.name}`] = el.type === 'checkbox' ? el.checked : el.type === 'range' ? Number(el.value) : el.value;
  }
  return state;
}

function apply({ writeHash = true } = {}) {
  const info = infoOf(schemeSelect.value);
  const state = currentState();
  const params = {};
  for (const [key, value] of Object.entries(state)) if (key.startsWith('p.')) params[key.slice(2)] = value;
  $('head').max = String(state.heads - 1);
  if (Number($('head').value) > state.heads - 1) $('head').value = String(state.heads - 1);
  for (const id of ['n', 'heads', 'head']) $(`${id}-out`).value = $(id).value;
  $('cite').textContent = `${info.description} — ${info.cite}`;
  const attributes = {
    scheme: info.id, view: viewSelect.value, n: $('n').value, heads: $('heads').value, head: $('head').value,
    causal: String(state.causal), params: JSON.stringify(params),
  };
  for (const [name, value] of Object.entries(attributes)) map.setAttribute(name, value);
  for (const name of ['mode', 'colormap']) {
    if (state[name]) map.setAttribute(name, state[name]);
    else map.removeAttribute(name);
  }
  // The curve: a decay profile of the same view, or the rotary spectrum when the scheme has one.
  const kind = state.curve !== 'profile' && !info.calls.includes('frequencies') ? 'profile' : state.curve;
  const curveAttributes = { kind, scheme: info.id, n: $('n').value, heads: $('heads').value, params: JSON.stringify(params), causal: String(state.causal) };
  if (kind === 'profile') curveAttributes.view = viewSelect.value === 'weights' || viewSelect.value === 'scores' ? viewSelect.value : (info.calls.includes('bias') ? 'bias' : 'scores');
  for (const [name, value] of Object.entries(curveAttributes)) curve.setAttribute(name, value);
  if (kind !== 'profile') curve.removeAttribute('view');
  const hash = encodeHash(state);
  $('permalink').href = hash || '#';
  if (writeHash && hash !== location.hash) history.replaceState(null, '', hash || location.pathname);
}

function selectScheme(wantedView) {
  const info = infoOf(schemeSelect.value);
  fillViews(info, wantedView);
  buildParams(info);
}

function setControl(el, value) {
  if (!el || value === undefined) return;
  if (el.type === 'checkbox') el.checked = Boolean(value);
  else el.value = String(value);
}

// Reads the hash into the controls; fields that are missing or invalid keep their current value.
function fromHash() {
  const base = decodeHash(location.hash, hashSchema());
  if (base.scheme) schemeSelect.value = base.scheme;
  const info = infoOf(schemeSelect.value) ?? infoOf('alibi');
  schemeSelect.value = info.id;
  selectScheme(base.view);
  const state = decodeHash(location.hash, hashSchema(), { 'p.': paramSpec(info) });
  for (const [key, id] of [['n', 'n'], ['heads', 'heads'], ['head', 'head'], ['causal', 'causal'], ['mode', 'mode'], ['colormap', 'colormap'], ['curve', 'curve-kind']]) setControl($(id), state[key]);
  for (const el of fieldset.querySelectorAll('input, select')) {
    setControl(el, state[`p.${el.name}`]);
    el.nextElementSibling?.tagName === 'OUTPUT' && (el.nextElementSibling.value = el.value);
  }
}

schemeSelect.addEventListener('change', () => { selectScheme(viewSelect.value); apply(); });
form.addEventListener('input', (e) => { if (e.target !== schemeSelect) apply(); });
form.addEventListener('submit', (e) => e.preventDefault());
window.addEventListener('hashchange', () => { fromHash(); apply({ writeHash: false }); });
map.addEventListener('relpos-render', (e) => {
  const d = e.detail;
  $('caption').textContent = `${d.rows}×${d.cols}, head ${d.head}, ${d.renderer}; computed in ${d.computeMs.toFixed(1)} ms, drawn in ${d.drawMs.toFixed(1)} ms`;
});

schemeSelect.value = 'alibi';
fromHash();
apply({ writeHash: location.hash !== '' });
