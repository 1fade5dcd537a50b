// 2.1.1 Sequences and position maps: a token strip over the relative-distance matrix rel(i, j) = j − i
// (Figure 2.1.1-a) and a permutation test of attention with and without positions.
import { permutationGap, relativeDistances } from '../verdicts.js';
import {
  button,
  controls,
  el,
  figure,
  fmt,
  localize,
  MatrixView,
  onLang,
  schemeOptions,
  select,
  slider,
  stat,
  t,
  words,
} from '../ui.js';

export function mount(root, { rp }) {
  const n = slider({ key: 's211.n', min: 4, max: 24, value: 10, name: 'n', unit: 'ui.unit.tokens' });
  const scheme = select({
    key: 's211.scheme',
    name: 'scheme',
    value: 'alibi',
    options: schemeOptions(['alibi', 'rope', 'kerple-log', 't5']),
  });
  let seed = 1;
  const shuffle = button('s211.shuffle', () => {
    seed += 1;
    update();
  });
  const strip = el('div', { className: 'tokens', attrs: { role: 'list' } });
  const shuffled = el('div', { className: 'tokens', attrs: { role: 'list' } });
  const view = new MatrixView({ colormap: 'rdbu', xKey: 'ui.axisKey', yKey: 'ui.axisQuery', unitKey: 's211.unit' });
  const rowText = el('p', { className: 'readout-row', attrs: { 'aria-live': 'polite' } });
  const nope = stat('s211.nope', 'nope');
  const withPos = stat('s211.withPos', 'withPos');
  root.append(
    controls(n.root, scheme.root, shuffle),
    el('p', {}, words('s211.strip')),
    strip,
    figure(
      '2.1.1-a',
      's211.fig.a',
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
    ),
  );
  let rel;
  const tokens = () => t('s211.tokens').split(' ');

  function showRow(i) {
    const size = rel.shape[0];
    const values = Array.from(rel.data.subarray(i * size, (i + 1) * size), (v) => fmt(v));
    // Rows are counted from 0 here and in the hover readout alike.
    rowText.textContent = t('s211.row', { i, values: values.join(', ') });
    strip.querySelectorAll('button').forEach((b, k) => b.classList.toggle('on', k === i));
  }

  function update() {
    const size = n.value;
    rel = relativeDistances(rp, size);
    view.show(rel, { colormap: 'rdbu' });
    view.onPoint = (i) => showRow(i);
    const list = tokens();
    strip.replaceChildren(
      ...Array.from({ length: size }, (_, i) => {
        // A list item holding a button: the button keeps its own role for keyboard and readers.
        const b = el('button', { type: 'button', className: 'token', textContent: list[i % list.length] });
        b.addEventListener('pointerenter', () => view.point(i, i));
        b.addEventListener('focus', () => view.point(i, i));
        return el('span', { attrs: { role: 'listitem' } }, b);
      }),
    );
    const plain = permutationGap(rp, { n: size, seed });
    const positioned = permutationGap(rp, { n: size, seed, scheme: scheme.value });
    for (const [target, g] of [
      [nope, plain],
      [withPos, positioned],
    ]) {
      target.set(
        t('s211.gap', { value: fmt(g.gap), verdict: t(g.equivariant ? 's211.equivariant' : 's211.notEquivariant') }),
        g.equivariant ? 'yes' : 'no',
      );
    }
    shuffled.replaceChildren(
      ...plain.order.map((from) =>
        el('span', { className: 'token', textContent: list[from % list.length], attrs: { role: 'listitem' } }),
      ),
    );
    showRow(view.at ? view.at[0] : 0);
  }
  n.input.addEventListener('input', update);
  scheme.input.addEventListener('change', update);
  onLang(update);
  localize(root);
  update();
}
