// 2.1.1 Sequences and position maps: a token strip over the relative-distance matrix rel(i, j) = j − i
// (from the core's clipped-distance index map) and a permutation test of attention without positions.
import {
  button,
  controls,
  el,
  fmt,
  localize,
  MatrixView,
  onLang,
  randomTensor,
  select,
  slider,
  stat,
  t,
  words,
} from '../ui.js';

export function mount(root, { rp }) {
  const n = slider({ key: 's211.n', min: 4, max: 24, value: 10, name: 'n' });
  const scheme = select({
    key: 's211.scheme',
    name: 'scheme',
    value: 'alibi',
    options: ['alibi', 'rope', 'kerple-log', 't5'].map((id) => ({
      value: id,
      text: rp.schemes.find((s) => s.id === id).name,
    })),
  });
  let seed = 1;
  const shuffle = button('s211.shuffle', () => {
    seed += 1;
    update();
  });
  const strip = el('div', { className: 'tokens', attrs: { role: 'list' } });
  const shuffled = el('div', { className: 'tokens', attrs: { role: 'list' } });
  const view = new MatrixView({ colormap: 'rdbu', captionKey: 's211.caption' });
  const rowText = el('p', { className: 'readout-row', attrs: { 'aria-live': 'polite' } });
  const nope = stat('s211.nope', 'nope');
  const withPos = stat('s211.withPos', 'withPos');
  root.append(
    controls(n.root, scheme.root, shuffle),
    el('p', {}, words('s211.strip')),
    strip,
    el(
      'div',
      { className: 'demo-row' },
      view.root,
      el(
        'div',
        { className: 'stats' },
        rowText,
        el('p', {}, words('s211.shuffled')),
        shuffled,
        nope.root,
        withPos.root,
      ),
    ),
  );
  let rel;
  const tokens = () => t('s211.tokens').split(' ');

  function showRow(i) {
    const size = rel.shape[0];
    const values = Array.from(rel.data.subarray(i * size, (i + 1) * size), (v) => fmt(v));
    rowText.textContent = t('s211.row', { i: i + 1, values: values.join(', ') });
    strip.querySelectorAll('button').forEach((b, k) => b.classList.toggle('on', k === i));
  }

  function update() {
    const size = n.value;
    // The core's clipped-distance index idx(i, j) = clamp(j − i, −k, k) + k with k = n − 1.
    const idx = rp.buckets('shaw', { n: size, clip: size - 1 });
    rel = { shape: [size, size], data: Float32Array.from(idx.data, (v) => v - (size - 1)) };
    view.show(rel, { colormap: 'rdbu' });
    view.onPoint = (i) => showRow(i);
    const words_ = tokens();
    strip.replaceChildren(
      ...Array.from({ length: size }, (_, i) => {
        const b = el('button', { type: 'button', className: 'token', textContent: words_[i % words_.length] });
        b.setAttribute('role', 'listitem');
        b.addEventListener('pointerenter', () => view.point(i, i));
        b.addEventListener('focus', () => view.point(i, i));
        return b;
      }),
    );
    // Permutation π (seeded), inputs X (seeded): attention(Xπ) vs attention(X) permuted.
    const d = 16;
    const X = randomTensor(size, d, 7);
    const order = Array.from({ length: size }, (_, i) => i);
    const r = randomTensor(1, size, seed).data;
    order.sort((a, b) => r[a] - r[b]);
    const Xp = { shape: [size, d], data: new Float32Array(size * d) };
    order.forEach((from, to) => Xp.data.set(X.data.subarray(from * d, (from + 1) * d), to * d));
    const gap = (options) => {
      const a = rp.attention({ q: X, k: X, v: X, ...options }).output.data;
      const b = rp.attention({ q: Xp, k: Xp, v: Xp, ...options }).output.data;
      let m = 0;
      order.forEach((from, to) => {
        for (let c = 0; c < d; c++) m = Math.max(m, Math.abs(b[to * d + c] - a[from * d + c]));
      });
      return m;
    };
    const g0 = gap({});
    const g1 = gap({ scheme: scheme.value });
    nope.set(
      t('s211.gap', { value: fmt(g0), verdict: t(g0 < 1e-4 ? 's211.equivariant' : 's211.notEquivariant') }),
      g0 < 1e-4 ? 'yes' : 'no',
    );
    withPos.set(
      t('s211.gap', { value: fmt(g1), verdict: t(g1 < 1e-4 ? 's211.equivariant' : 's211.notEquivariant') }),
      g1 < 1e-4 ? 'yes' : 'no',
    );
    shuffled.replaceChildren(
      ...order.map((from) => el('span', { className: 'token', textContent: words_[from % words_.length] })),
    );
    showRow(view.at ? view.at[0] : 0);
  }
  n.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}
