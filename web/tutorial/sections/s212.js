// 2.1.2 Theorem 1 measured: translation defect of the position-score matrix S for any scheme, with a
// k slider that compares S(i + k, j + k) against S(i, j).
import { controls, el, fmt, localize, MatrixView, onLang, randomTensor, select, slider, stat, t } from '../ui.js';

const D = 32;

export function mount(root, { rp }) {
  const schemes = rp.schemes.filter((s) => s.calls.includes('scores') && s.id !== 'cope');
  const options = [
    ...schemes.map((s) => ({ value: s.id, text: `${s.name} (${s.id})` })),
    { value: 'learned', key: 's212.learned' },
    { value: 'sinusoidal-wqk', key: 's212.sinusoidalWqk' },
  ];
  const scheme = select({ key: 's212.scheme', name: 'scheme', value: 'alibi', options });
  const n = slider({ key: 's212.n', min: 8, max: 128, step: 4, value: 48, name: 'n' });
  const k = slider({ key: 's212.k', min: 1, max: 47, value: 8, name: 'k' });
  const full = new MatrixView({ captionKey: 's212.capFull' });
  const shifted = new MatrixView({ captionKey: 's212.capShift' });
  const defect = stat('s212.defect', 'defect');
  const defectK = stat('s212.defectK', 'defectK');
  const verdict = el('p', { className: 'verdict', attrs: { 'aria-live': 'polite' } });
  root.append(
    controls(scheme.root, n.root, k.root),
    el('div', { className: 'demo-row' }, full.root, shifted.root),
    el('div', { className: 'stats' }, defect.root, defectK.root, verdict),
  );

  function scores(id, size) {
    if (id === 'learned' || id === 'sinusoidal-wqk') {
      let Q;
      let K;
      if (id === 'learned') {
        // Learned absolute embeddings: one free (here random, seeded) vector per position.
        Q = randomTensor(size, D, 11, 1 / Math.sqrt(D));
        K = Q;
      } else {
        // Sinusoidal positions through random projections W_Q, W_K (input preparation: P·W).
        const P = rp.encoding('sinusoidal', { n: size, d: D });
        const project = (W) => {
          const out = new Float32Array(size * D);
          for (let i = 0; i < size; i++) {
            for (let c = 0; c < D; c++) {
              let acc = 0;
              for (let m = 0; m < D; m++) acc += P.data[i * D + m] * W.data[m * D + c];
              out[i * D + c] = acc;
            }
          }
          return { shape: [size, D], data: out };
        };
        Q = project(randomTensor(D, D, 21, 1 / Math.sqrt(D)));
        K = project(randomTensor(D, D, 22, 1 / Math.sqrt(D)));
      }
      // q_i·k_j / √d computed by the core (Shaw scores with a zero relative table).
      return rp.scores('shaw', {
        n: size,
        d: D,
        q: Q,
        k: K,
        clip: 1,
        aK: { shape: [3, D], data: new Float32Array(3 * D) },
      });
    }
    return rp.scores(id, { n: size, d: D, heads: 1 });
  }

  function crop(S, size, offset, span) {
    const out = new Float32Array(span * span);
    for (let i = 0; i < span; i++) {
      for (let j = 0; j < span; j++) out[i * span + j] = S.data[(i + offset) * size + j + offset];
    }
    return { shape: [span, span], data: out };
  }

  function update() {
    const size = n.value;
    k.input.max = String(size - 1);
    if (k.value > size - 1) k.value = size - 1;
    const S = scores(scheme.value, size);
    const td = rp.analysis.translationDefect(S);
    const tk = rp.analysis.translationDefect(S, { shift: k.value });
    const span = size - k.value;
    const a = crop(S, size, 0, span);
    const drawn = full.show(a);
    shifted.show(crop(S, size, k.value, span), { range: drawn.range, colormap: drawn.colormap });
    defect.set(t('s212.defectValue', { max: fmt(td.max), relative: fmt(td.relative) }), td.isToeplitz ? 'yes' : 'no');
    defectK.set(
      t('s212.defectKValue', { k: k.value, max: fmt(tk.max) }),
      tk.max <= 1e-5 * Math.max(1, td.max / Math.max(td.relative, 1e-30)) ? 'yes' : 'no',
    );
    verdict.textContent = t(td.isToeplitz ? 's212.invariant' : 's212.notInvariant');
    verdict.dataset.kind = td.isToeplitz ? 'yes' : 'no';
    root.dataset.defect = String(td.max);
  }
  for (const c of [n, k]) c.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}
