// 2.1.1 Sequences and position maps: a token strip over the relative-distance matrix rel(i, j) = j − i
// (Figure 2.1.1-a) and a permutation test of attention with and without positions.
import { gapVerdict, permutationGap, relativeDistances } from '../verdicts.js';
import { controls, demoRow, figure, live, statsRow } from '../demo.js';
import { fmt } from '../format.js';
import { t } from '../../i18n/index.js';
import { button, el, MatrixView, schemeOptions, select, slider, stat, words } from '../ui.js';

const tokenList = () => el('div', { className: 'tokens', attrs: { role: 'list' } });

/** The strip's tokens: list items holding buttons that point the matrix view at their row. */
function tokenButtons(list, size, view) {
  return Array.from({ length: size }, (_, i) => {
    // A list item holding a button: the button keeps its own role for keyboard and readers.
    const b = el('button', { type: 'button', className: 'token', textContent: list[i % list.length] });
    b.addEventListener('pointerenter', () => view.point(i, i));
    b.addEventListener('focus', () => view.point(i, i));
    return el('span', { attrs: { role: 'listitem' } }, b);
  });
}

/** A permutation test's gap, with its verdict (is attention equivariant?), marked by whether it is the expected one. */
function showGap(target, g, positions) {
  const v = gapVerdict(g, { positions });
  target.set(t('s211.gap', { value: fmt(g.gap), verdict: t(v.key) }), v.expected);
}

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
  const strip = tokenList();
  const shuffled = tokenList();
  const view = new MatrixView({ colormap: 'rdbu', xKey: 'ui.axisKey', yKey: 'ui.axisQuery', unitKey: 's211.unit' });
  const rowText = el('p', { className: 'readout-row', attrs: { 'aria-live': 'polite' } });
  const nope = stat('s211.nope', 'nope');
  const withPos = stat('s211.withPos', 'withPos');
  const after = statsRow(rowText, el('p', {}, words('s211.shuffled')), shuffled, nope, withPos);
  root.append(
    controls(n, scheme, shuffle),
    el('p', {}, words('s211.strip')),
    strip,
    figure('2.1.1-a', 's211.fig.a', demoRow(view, after)),
  );
  let rel;

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
    const list = t('s211.tokens').split(' ');
    strip.replaceChildren(...tokenButtons(list, size, view));
    const plain = permutationGap(rp, { n: size, seed });
    showGap(nope, plain, false);
    showGap(withPos, permutationGap(rp, { n: size, seed, scheme: scheme.value }), true);
    shuffled.replaceChildren(
      ...plain.order.map((from) =>
        el('span', { className: 'token', textContent: list[from % list.length], attrs: { role: 'listitem' } }),
      ),
    );
    showRow(view.at ? view.at[0] : 0);
  }
  live(root, update, [n, scheme]);
}
