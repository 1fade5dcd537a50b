// <relpos-lab>: the extrapolation lab. Pick schemes and a task, train a tiny attention model per
// scheme in the wasm core — every scheme at once on a pool of Web Workers (rp.lab.trainMany through
// relpos/worker, docs/workers.md), or through the `runner` / `runMany` properties — watch the loss
// and gradient-norm curves stream in, then compare accuracy against evaluation length (L … 8L) and
// the learned attention maps at L and 4L side by side.
//
// Attributes (all optional): task, schemes ("rope,alibi"), length, steps, layers, heads, lr, clip,
// normalisation ("false" turns it off), seed, workers ('auto' = the cores less one, a number, or
// 'none' to train on the page), data-section (s212 / s217 / s218 presets). The tasks, schemes,
// defaults and bounds come from the core (rp.lab.schema).
// Properties: messages (partial table over the English defaults of web/lab/messages.js), runner
// ((options, { onProgress, signal }) => Promise<LabResult>, one run at a time), runMany ((runs,
// { onProgress, signal }) => Promise<LabResult[]>, all runs of a train()), results (read-only).
// Events: relpos-lab-result ({ detail: { results } }) after every run.
import { load } from '../../bindings/index.js';
import { labMessages } from '../lab/messages.js';
import { formatMessage as format } from './messages.js';
import { renderCurve } from './relpos-curve.js';
import { renderHeatmap } from './render-heatmap.js';
import { ShadowHost } from './shadow-host.js';

const PRESETS = {
  s212: { task: 'copy', schemes: ['rope', 't5', 'kerple-log', 'alibi', 'nope'] },
  s217: { task: 'copy', schemes: ['rope', 'rope-linear', 'xpos'] },
  s218: { task: 'copy', schemes: ['rope'], lr: 0.05, clip: 0, normalisation: false },
};

const STYLE = `
:host { display: block; font: inherit; color: inherit; }
form { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; }
label { display: inline-flex; flex-direction: column; gap: 0.15rem; font-size: 0.9em; }
label.check { flex-direction: row; align-items: center; gap: 0.3rem; }
fieldset { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; border: 1px solid color-mix(in srgb, currentColor 25%, transparent); }
input[type=number] { width: 6rem; }
/* The site's controls (web/styles/controls.css) when its tokens are there, plain ones elsewhere. */
input, select, button { font: inherit; color: inherit; }
select, input[type=number], button {
  min-height: 2rem; border-radius: var(--rp-radius, 6px); padding: 0.3rem 0.55rem;
  border: 1px solid var(--rp-border, color-mix(in srgb, currentColor 30%, transparent));
  background-color: var(--rp-bg, transparent);
}
select {
  appearance: none; padding-right: 1.9rem; cursor: pointer; max-width: 100%;
  background-image: linear-gradient(45deg, transparent 50%, currentColor 50%), linear-gradient(135deg, currentColor 50%, transparent 50%);
  background-position: calc(100% - 0.95rem) 55%, calc(100% - 0.6rem) 55%; background-size: 0.35rem 0.35rem; background-repeat: no-repeat;
}
option { color: var(--rp-fg, inherit); background: var(--rp-bg, Canvas); }
button { padding-inline: 0.85rem; background-color: var(--rp-surface, transparent); font-weight: 500; cursor: pointer; }
button.train { background-color: var(--rp-accent, Highlight); border-color: var(--rp-accent, Highlight); color: var(--rp-accent-fg, HighlightText); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
:is(select, input, button):focus-visible { outline: none; box-shadow: var(--rp-focus-ring, 0 0 0 2px Highlight); }
fieldset { border-radius: var(--rp-radius, 6px); }
.status { min-height: 1.4em; margin: 0.5rem 0; }
progress { width: 100%; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; }
.maps { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; max-width: 48rem; }
figure { margin: 0; }
canvas { width: 100%; aspect-ratio: 1; image-rendering: pixelated; border: 1px solid color-mix(in srgb, currentColor 20%, transparent); }
figcaption { font-size: 0.85em; }
h3, h4 { margin: 0.75rem 0 0.25rem; }
`;

// The attributes <relpos-lab> reads (docs/elements.md documents each).
const OWN_ATTRIBUTES = [
  'task',
  'schemes',
  'length',
  'offset',
  'steps',
  'layers',
  'heads',
  'lr',
  'clip',
  'seed',
  'normalisation',
];
const NUMBER_ATTRIBUTES = ['length', 'offset', 'steps', 'layers', 'heads', 'lr', 'clip', 'seed'];
const known = (schema) => schema.schemes.map((s) => `'${s.id}'`).join(', ');

const num = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 100 || v === 0 ? v.toFixed(0) : v.toPrecision(3)) : '–');

/** An element of the lab's shadow tree: properties assigned, then children appended. */
function node(tag, props = {}, children = []) {
  const element = Object.assign(document.createElement(tag), props);
  element.append(...children);
  return element;
}

function merge(base, over) {
  const out = { ...base };
  for (const [k, v] of Object.entries(over ?? {})) {
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && base[k] && typeof base[k] === 'object'
        ? { ...base[k], ...v }
        : v;
  }
  return out;
}

// One worker client for every lab on the page (its pool starts on the first run).
let sharedClient = null;

export class RelposLab extends ShadowHost {
  #root = this.shadowRoot;
  #schema = null; // rp.lab.schema, once the core has loaded
  #messages = labMessages;
  #runner = null;
  #controller = null;
  #results = [];
  #runMany = null;
  #live = null; // run index → { label, losses, gradNorms } of the runs in progress
  #drawAt = 0;
  #built = null; // resolves once the form exists (the core's lab schema has loaded)

  get messages() {
    return this.#messages;
  }
  set messages(value) {
    this.#messages = merge(labMessages, value);
    if (this.isConnected && this.#schema) this.#build();
  }

  get runner() {
    return this.#runner;
  }
  set runner(fn) {
    if (fn !== null && typeof fn !== 'function') throw new TypeError('relpos-lab: runner must be a function or null');
    this.#runner = fn;
  }

  /** (runs, { onProgress(fraction, { run, fraction, detail }), signal }) => Promise<LabResult[]>, or null. */
  get runMany() {
    return this.#runMany;
  }
  set runMany(fn) {
    if (fn !== null && typeof fn !== 'function') throw new TypeError('relpos-lab: runMany must be a function or null');
    this.#runMany = fn;
  }

  /** The `workers` attribute: 'auto' (default), a whole number, or 'none' (train on the page). */
  get workers() {
    const value = (this.getAttribute('workers') ?? 'auto').trim();
    if (value === 'auto' || value === 'none') return value;
    const count = Number(value);
    if (!Number.isInteger(count) || count < 1 || count > 256) {
      throw new RangeError(
        `relpos-lab: workers must be 'auto', 'none' or a whole number from 1 to 256, got '${value}'`,
      );
    }
    return count;
  }

  get results() {
    return this.#results.slice();
  }

  /** Resolves once the element has loaded the core and built its form (train() waits for it). */
  get ready() {
    return this.#built ?? (this.#built = this.#load());
  }

  async #load() {
    const rp = await load({ lab: true, models: false });
    this.#schema = rp.lab.schema;
    if (!this.#root.firstChild) this.#build();
  }

  static get observedAttributes() {
    return OWN_ATTRIBUTES;
  }

  // Attributes are live as on the other elements: the form is rebuilt (not during a run).
  attributeChangedCallback() {
    if (this.isConnected && this.#schema && !this.#controller) this.#build();
  }

  connectedCallback() {
    if (!this.#root.firstChild) void this.ready;
  }

  disconnectedCallback() {
    this.#controller?.abort();
  }

  #schemeName(id) {
    return this.#messages.schemeNames[id] ?? this.#schema.schemes.find((s) => s.id === id)?.name ?? id;
  }

  // What the form starts with: attributes, else the section's preset, else the core's defaults.
  #settings() {
    const preset = PRESETS[this.dataset.section] ?? {};
    const defaults = (name) => preset[name] ?? this.#schema.options[name].default;
    const attr = (name) => (this.hasAttribute(name) ? this.getAttribute(name) : defaults(name));
    const known = this.#schema.schemes.map((s) => s.id);
    const asked = this.getAttribute('schemes')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const numbers = Object.fromEntries(NUMBER_ATTRIBUTES.map((name) => [name, Number(attr(name))]));
    return {
      task: attr('task'),
      schemes: asked?.length
        ? asked.filter((s) => known.includes(s))
        : (preset.schemes ?? ['rope', 't5', 'kerple-log']),
      // Ids the lab cannot train are reported, never dropped without a word.
      unknown: (asked ?? []).filter((s) => !known.includes(s)),
      ...numbers,
      normalisation: String(attr('normalisation')) !== 'false',
    };
  }

  #build() {
    const m = this.#messages;
    const s = this.#settings();
    const style = document.createElement('style');
    style.textContent = STYLE;
    const progress = node('progress', { max: 1, value: 0 });
    const plots = node('div', { className: 'plots' }, [
      node('div', { className: 'loss' }),
      node('div', { className: 'grad' }),
      node('div', { className: 'accuracy' }),
    ]);
    this.#root.replaceChildren(
      style,
      node('h3', { textContent: m.title }),
      node('p', { textContent: m.intro }),
      this.#form(m, s),
      this.#status(m, s),
      progress,
      plots,
      this.#mapsSection(m),
    );
    this.#draw(true);
  }

  /** The form of a run's options (bounded as the core's schema bounds them), with its buttons wired. */
  #form(m, s) {
    // A number field bounded as the core's option is; `attrs` narrows what the form offers.
    const numberField = (name, value, attrs = {}) => {
      const { min, max, integer } = this.#schema.options[name];
      const input = node('input', { type: 'number', name, value: String(value) });
      const bounds = { min, max, step: integer ? 1 : 'any', ...attrs };
      for (const [k, v] of Object.entries(bounds)) if (v !== null) input.setAttribute(k, String(v));
      return node('label', {}, [m[name], input]);
    };
    const task = node(
      'select',
      { name: 'task' },
      this.#schema.tasks.map(({ id, name }) =>
        node('option', { value: id, textContent: m.tasks[id] ?? name, selected: id === s.task }),
      ),
    );
    const schemes = node('fieldset', {}, [
      node('legend', { textContent: m.schemes }),
      ...this.#schema.schemes.map(({ id, name }) =>
        node('label', { className: 'check' }, [
          node('input', { type: 'checkbox', name: 'scheme', value: id, checked: s.schemes.includes(id) }),
          m.schemeNames[id] ?? name,
        ]),
      ),
    ]);
    const normalisation = node('input', { type: 'checkbox', name: 'normalisation', checked: s.normalisation });
    const form = node('form', {}, [
      node('label', {}, [m.task, task]),
      schemes,
      numberField('length', s.length, { step: 2 }),
      numberField('offset', s.offset),
      numberField('steps', s.steps),
      numberField('layers', s.layers),
      numberField('heads', s.heads),
      numberField('lr', s.lr, { min: 0.0001, max: 1 }),
      numberField('clip', s.clip, { max: null }),
      node('label', { className: 'check' }, [normalisation, m.normalisation]),
      numberField('seed', s.seed, { max: null }),
      node('button', { type: 'submit', className: 'train', textContent: m.train }),
      node('button', { type: 'button', className: 'cancel', textContent: m.cancel, disabled: true }),
      node('button', { type: 'button', className: 'clear', textContent: m.clear }),
    ]);
    form.setAttribute('aria-label', m.title);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.train();
    });
    form.querySelector('.cancel').addEventListener('click', () => this.#controller?.abort());
    form.querySelector('.clear').addEventListener('click', () => {
      this.#results = [];
      this.#draw(true);
    });
    return form;
  }

  /** The status line: idle, or the error of scheme ids the lab cannot train (also sent as an event). */
  #status(m, s) {
    const unknown = s.unknown.length
      ? new RangeError(
          `relpos-lab: schemes: unknown scheme id ${s.unknown.map((id) => `'${id}'`).join(', ')}; the lab trains ${known(this.#schema)}`,
        )
      : null;
    const status = node('p', {
      className: 'status',
      textContent: unknown ? format(m.failed, { message: unknown.message }) : m.idle,
    });
    if (unknown) {
      queueMicrotask(() => this.dispatchEvent(new CustomEvent('relpos-lab-error', { detail: { error: unknown } })));
    }
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    return status;
  }

  /** The attention maps of a trained run at L and 4L, with pickers of the run and the head. */
  #mapsSection(m) {
    const run = node('select', { className: 'run-select' });
    const head = node('select', { className: 'head-select' });
    run.addEventListener('change', () => this.#drawMaps());
    head.addEventListener('change', () => this.#drawMaps());
    return node('section', { className: 'heatmaps', hidden: true }, [
      node('h4', { textContent: m.heatmapsTitle }),
      node('label', {}, [m.run, run]),
      ' ',
      node('label', {}, [m.head, head]),
      node('div', { className: 'maps' }, [
        node('figure', {}, [node('canvas', { className: 'map-L' }), node('figcaption', { className: 'cap-L' })]),
        node('figure', {}, [node('canvas', { className: 'map-4L' }), node('figcaption', { className: 'cap-4L' })]),
      ]),
    ]);
  }

  #options() {
    const form = this.#root.querySelector('form');
    // querySelector, not form.elements[name]: form.elements.length is the collection's size.
    const field = (name) => form.querySelector(`[name="${name}"]`);
    const value = (name) => Number(field(name).value);
    return {
      task: field('task').value,
      schemes: [...form.querySelectorAll('input[name=scheme]:checked')].map((x) => x.value),
      length: value('length'),
      offset: value('offset'),
      steps: value('steps'),
      layers: value('layers'),
      heads: value('heads'),
      lr: value('lr'),
      clip: value('clip'),
      normalisation: field('normalisation').checked,
      seed: value('seed'),
    };
  }

  // The runs of one train(): each scheme with the form's options, and its label.
  #plan() {
    const m = this.#messages;
    const { schemes, ...common } = this.#options();
    return schemes.map((scheme) => {
      const options = { ...common, scheme };
      if (common.task === 'retrieve' && common.layers < 2) options.layers = 2;
      const label = format(m.runLabel, {
        scheme: this.#schemeName(scheme),
        lr: common.lr,
        clip: common.clip || '–',
        norm: common.normalisation ? m.normOn : m.normOff,
      });
      return { label, scheme, options };
    });
  }

  // How the runs train: runMany if set; else `runner` one run after another; else the lab's
  // trainMany on a pool of Web Workers (`workers`, default 'auto': the cores less one), or on the
  // page with workers="none" or where there are no workers.
  async #trainRuns(runs, control) {
    if (this.#runMany) return this.#runMany(runs, control);
    if (this.#runner) {
      const results = [];
      for (const [index, options] of runs.entries()) {
        const onProgress = (fraction, detail) =>
          control.onProgress((index + fraction) / runs.length, { run: index, fraction, detail });
        results.push(await this.#runner(options, { onProgress, signal: control.signal }));
      }
      return results;
    }
    const workers = this.workers;
    if (workers === 'none' || typeof Worker !== 'function') {
      const rp = await load({ models: false });
      return rp.lab.trainMany(runs, control);
    }
    const { createRelposWorker } = await import('../../bindings/worker-client.js');
    sharedClient ??= createRelposWorker();
    return sharedClient.lab.trainMany(runs, { ...control, workers });
  }

  /** Trains every selected scheme (on the pool's workers at once); resolves with the results of this call. */
  async train() {
    await this.ready;
    if (this.#controller) return [];
    const m = this.#messages;
    const plan = this.#plan();
    const status = this.#root.querySelector('.status');
    const bar = this.#root.querySelector('progress');
    const buttons = { train: this.#root.querySelector('.train'), cancel: this.#root.querySelector('.cancel') };
    if (!plan.length) return [];
    const controller = (this.#controller = new AbortController());
    buttons.train.disabled = true;
    buttons.cancel.disabled = false;
    const started = performance.now();
    let done = [];
    this.#live = new Map();
    try {
      const onProgress = (fraction, { run, detail } = {}) => {
        bar.value = fraction;
        const entry = plan[run];
        if (!entry) return;
        const live = this.#live.get(run) ?? { label: entry.label, losses: [], gradNorms: [] };
        this.#live.set(run, live);
        if (detail && detail.losses) {
          live.losses = Array.from(detail.losses);
          live.gradNorms = Array.from(detail.gradNorms);
        }
        status.textContent =
          detail && detail.step < detail.steps
            ? format(m.running, {
                scheme: this.#schemeName(entry.scheme),
                run: run + 1,
                runs: plan.length,
                step: detail.step,
                steps: detail.steps,
                loss: num(detail.loss),
              })
            : format(m.evaluating, { scheme: this.#schemeName(entry.scheme) });
        this.#draw(false);
      };
      const results = await this.#trainRuns(
        plan.map((entry) => entry.options),
        { onProgress, signal: controller.signal },
      );
      this.#live = null;
      done = plan.map(({ label, scheme, options }, k) => ({ label, scheme, options, result: results[k] }));
      this.#results.push(...done);
      this.#draw(true);
      bar.value = 1;
      status.textContent = format(m.finished, {
        count: done.length,
        seconds: ((performance.now() - started) / 1000).toFixed(1),
      });
      this.dispatchEvent(new CustomEvent('relpos-lab-result', { detail: { results: this.results } }));
    } catch (error) {
      this.#live = null;
      status.textContent = controller.signal.aborted
        ? m.cancelled
        : format(m.failed, { message: error?.message ?? String(error) });
      this.#draw(true);
      if (!controller.signal.aborted) this.dispatchEvent(new CustomEvent('relpos-lab-error', { detail: { error } }));
    } finally {
      this.#controller = null;
      buttons.train.disabled = false;
      buttons.cancel.disabled = true;
    }
    return done;
  }

  // Redraws the curves (throttled while streaming) and, when `full`, the accuracy plot and maps.
  #draw(full) {
    const now = performance.now();
    if (!full && now - this.#drawAt < 150) return;
    this.#drawAt = now;
    const m = this.#messages;
    const runs = this.#results.map((r) => ({
      label: r.label,
      losses: Array.from(r.result.loss),
      gradNorms: Array.from(r.result.gradNorm),
    }));
    if (this.#live) runs.push(...[...this.#live.keys()].sort((x, y) => x - y).map((k) => this.#live.get(k)));
    const length = Math.max(1, ...runs.map((r) => r.losses.length), ...(this.#live ? [this.#options().steps] : []));
    const x = Array.from({ length }, (_, k) => k + 1);
    const pad = (values) => Array.from({ length }, (_, k) => (k < values.length ? values[k] : null));
    const lossBox = this.#root.querySelector('.loss');
    const gradBox = this.#root.querySelector('.grad');
    const accuracyBox = this.#root.querySelector('.accuracy');
    if (!runs.length) {
      for (const box of [lossBox, gradBox, accuracyBox]) box.replaceChildren();
      this.#root.querySelector('.heatmaps').hidden = true;
      return;
    }
    renderCurve(lossBox, {
      x,
      series: runs.map((r) => ({ label: r.label, y: pad(r.losses) })),
      xLabel: m.step,
      yLabel: m.lossAxis,
      title: m.lossTitle,
    });
    renderCurve(gradBox, {
      x,
      series: runs.map((r) => ({ label: r.label, y: pad(r.gradNorms) })),
      xLabel: m.step,
      yLabel: m.gradAxis,
      title: m.gradTitle,
      log: true,
    });
    if (!full) return;
    const finished = this.#results;
    if (finished.length) {
      const lengths = finished[finished.length - 1].result.evalLengths;
      const same = finished.filter((r) => r.result.evalLengths.join() === lengths.join());
      // The copy task's chance level: a uniform guess over the content tokens, 1/vocab.
      const last = same[same.length - 1];
      const vocab = last.options.vocab ?? this.#schema.options.vocab.default;
      const chance =
        last.options.task === 'copy'
          ? [{ label: format(m.chance, { vocab }), y: lengths.map(() => 1 / vocab), dashed: true }]
          : [];
      renderCurve(accuracyBox, {
        x: lengths,
        series: [...same.map((r) => ({ label: r.label, y: Array.from(r.result.accuracy) })), ...chance],
        xLabel: m.lengthAxis,
        yLabel: m.accuracyAxis,
        title: m.accuracyTitle,
      });
    }
    this.#fillMapControls();
  }

  #fillMapControls() {
    const section = this.#root.querySelector('.heatmaps');
    const run = this.#root.querySelector('.run-select');
    section.hidden = this.#results.length === 0;
    if (!this.#results.length) return;
    const keep = run.value;
    run.replaceChildren(
      ...this.#results.map((r, k) =>
        Object.assign(document.createElement('option'), { value: String(k), textContent: r.label }),
      ),
    );
    run.value = keep && Number(keep) < this.#results.length ? keep : String(this.#results.length - 1);
    this.#drawMaps();
  }

  #drawMaps() {
    const m = this.#messages;
    const entry = this.#results[Number(this.#root.querySelector('.run-select').value)];
    if (!entry) return;
    const head = this.#root.querySelector('.head-select');
    const count = entry.result.attention.L.shape[0];
    const heads = entry.options.heads ?? this.#schema.options.heads.default;
    if (head.options.length !== count) {
      const keep = head.value;
      head.replaceChildren(
        ...Array.from({ length: count }, (_, k) =>
          Object.assign(document.createElement('option'), {
            value: String(k),
            textContent: count > heads ? `${Math.floor(k / heads) + 1}.${(k % heads) + 1}` : String(k + 1),
          }),
        ),
      );
      head.value = keep && Number(keep) < count ? keep : '0';
    }
    const index = Number(head.value) || 0;
    const L = entry.result.evalLengths[0];
    for (const [key, n, caption] of [
      ['L', L, m.atL],
      ['4L', 4 * L, m.at4L],
    ]) {
      const canvas = this.#root.querySelector(`.map-${key}`);
      renderHeatmap(canvas, entry.result.attention[key], { head: index, range: [0, 1], colormap: 'viridis' });
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `${entry.label} ${format(caption, { n })}`);
      this.#root.querySelector(`.cap-${key}`).textContent = format(caption, { n });
    }
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('relpos-lab')) {
  customElements.define('relpos-lab', RelposLab);
}
