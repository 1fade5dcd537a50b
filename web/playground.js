// The playground page: controls built from rp.schemes metadata drive one <relpos-heatmap>.
// Words and layout live in index.html; numbers come from the core.
import { load } from '../bindings/index.js';
import './components/relpos-heatmap.js';

const rp = await load();
const map = document.getElementById('map');
const schemeSelect = document.getElementById('scheme');
const viewSelect = document.getElementById('view');
const nInput = document.getElementById('n');
const causal = document.getElementById('causal');
const fieldset = document.getElementById('scheme-params');

// Parameters the page sets itself or that need arrays (tables, probes) are not sliders.
const SKIP = new Set(['n', 'd', 'heads', 'causal', 'positions', 'rotaryDim', 'seqLen', 'role', 'center']);
const drawable = rp.schemes.filter((s) => s.calls.includes('bias') || s.calls.includes('scores'));

for (const s of drawable) schemeSelect.add(new Option(`${s.name} (${s.id})`, s.id));
document.getElementById('build').textContent = `relpos ${rp.version}, ${rp.simd ? 'WebAssembly SIMD' : 'baseline WebAssembly'} build`;

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
      label.append(select);
    } else if (spec.type === 'boolean') {
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', name, checked: spec.default });
      label.append(box);
    } else if (spec.type !== 'array') {
      const [lo, hi] = sliderRange(spec);
      const input = Object.assign(document.createElement('input'), {
        type: 'range', name, min: lo, max: hi, value: spec.default, step: spec.integer ? 1 : (hi - lo) / 200,
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

function apply() {
  const info = drawable.find((s) => s.id === schemeSelect.value);
  const params = {};
  for (const el of fieldset.querySelectorAll('input, select')) {
    params[el.name] = el.type === 'checkbox' ? el.checked : el.type === 'range' ? Number(el.value) : el.value;
  }
  document.getElementById('n-out').value = nInput.value;
  document.getElementById('cite').textContent = `${info.description} — ${info.cite}`;
  map.setAttribute('scheme', info.id);
  map.setAttribute('view', viewSelect.value);
  map.setAttribute('n', nInput.value);
  map.setAttribute('causal', String(causal.checked));
  map.setAttribute('params', JSON.stringify(params));
}

function selectScheme() {
  const info = drawable.find((s) => s.id === schemeSelect.value);
  viewSelect.innerHTML = '';
  for (const view of ['bias', 'scores', 'buckets']) if (info.calls.includes(view)) viewSelect.add(new Option(view, view));
  buildParams(info);
  apply();
}

schemeSelect.addEventListener('change', selectScheme);
document.getElementById('controls').addEventListener('input', (e) => { if (e.target !== schemeSelect) apply(); });
map.addEventListener('relpos-render', (e) => {
  document.getElementById('caption').textContent = `${e.detail.rows}×${e.detail.cols}, head ${e.detail.head}, computed and drawn in ${e.detail.ms.toFixed(1)} ms`;
});
schemeSelect.value = 'alibi';
selectScheme();
