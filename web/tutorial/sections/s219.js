// 2.1.9 Summary (Table 2.1.9-a): one row per scheme, one named object per row (its bias b(r), or its
// position-only score s(r) with the probe), every cell computed now through summaryRow (verdicts.js),
// the function the claim checks call.
import { ROTARY_TABLE, summaryRow, summarySchemes, tablePreset } from '../verdicts.js';
import { controls, figure, live } from '../demo.js';
import { fmt } from '../format.js';
import { hasMessage, t } from '../../i18n/index.js';
import { el, labelCells, localize, slider, words } from '../ui.js';

const COLUMNS = ['invariant', 'decays', 'bounded', 'psd', 'cpd', 'extrapolates'];

/**
 * The number a verdict was taken from, in the words of its definition (s219.value.<definition>):
 * the verdict functions of verdicts.js return { verdict, value, definition }, so the cell shows the
 * deciding quantity and nothing else.
 */
function valueText(result) {
  if (result.verdict === null) return result.notToeplitz ? t('s219.notToeplitz') : '—';
  const extra = { pairs: result.pairs, d: result.d, s: ROTARY_TABLE.s };
  if (result.bound !== undefined) extra.bound = fmt(result.bound);
  return t(`s219.value.${result.definition}`, { ...extra, value: fmt(result.value) });
}

/** A verdict cell: its mark (yes, no or not applicable) and the number the verdict was taken from. */
function cell(result) {
  const kind = result.verdict === null ? 'na' : result.verdict ? 'yes' : 'no';
  const td = el('td', {
    dataset: { verdict: kind, value: String(result.value), definition: result.definition ?? '' },
  });
  td.append(
    el('span', { className: 'mark', textContent: t(`s219.${kind}`) }),
    ' ',
    el('small', { textContent: valueText(result) }),
  );
  return td;
}

/** What a row judges: the scheme's bias, its rotary score (scaled or not), or its position-only score. */
function objectName(rp, { info, kind, params }, L) {
  if (kind === 'bias') return t('s219.object.bias');
  if (info.calls.includes('frequencies')) {
    const preset = tablePreset(rp, info);
    if (preset) return t('s219.object.preset', { s: params.factor, L, model: preset.name, d: preset.params.d });
    return params.factor ? t('s219.object.scaled', { s: params.factor, L }) : t('s219.object.rotary');
  }
  return t('s219.object.score');
}

/** The cells of a row with verdicts: the object judged, then one verdict per column. */
function verdictCells(rp, row, L) {
  const kernel = (k) => (k.verdict === null ? { ...k, notToeplitz: true } : k);
  return [
    el('td', { textContent: objectName(rp, row, L) }),
    ...[row.invariant, row.decays, row.bounded, kernel(row.psd), kernel(row.cpd), row.extrapolates].map(cell),
    literatureCell(row.info),
  ];
}

/** What the literature reports on extrapolation for the scheme (docs/chapter.md lists the sources). */
function literatureCell(info) {
  const key = `s219.lit.${info.id}`;
  return el('td', { className: 'literature' }, words(hasMessage(key) ? key : 's219.lit.none'));
}

/** A scheme's row: its names, its verdicts (or why it has none) and a link to it in the playground. */
function schemeRow(rp, info, row, L) {
  const tr = el(
    'tr',
    { dataset: { scheme: info.id } },
    el('th', { scope: 'row' }, words(`scheme.${info.id}`), el('br'), el('code', { textContent: info.id })),
  );
  if (row.empty) {
    tr.append(el('td', {}, words(`s219.empty.${row.empty}`)));
    for (let c = 0; c < COLUMNS.length; c++) tr.append(cell({ verdict: null, value: NaN }));
    tr.append(literatureCell(info));
  } else {
    tr.append(...verdictCells(rp, row, L));
  }
  const link = el('a', { href: `./playground.html#scheme=${encodeURIComponent(info.id)}&b.scheme=alibi` });
  link.textContent = t('s219.open');
  tr.append(el('td', {}, link));
  return tr;
}

function headerRow() {
  const th = (key) => el('th', { scope: 'col' }, words(key));
  return el(
    'tr',
    {},
    th('s219.col.scheme'),
    th('s219.col.object'),
    ...COLUMNS.map((c) => th(`s219.col.${c}`)),
    th('s219.col.literature'),
    th('s219.col.playground'),
  );
}

export function mount(root, { rp }) {
  const n = slider({ key: 's219.n', min: 16, max: 128, step: 16, value: 64, name: 'n', unit: 'ui.unit.positions' });
  const L = slider({ key: 's219.L', min: 16, max: 64, step: 16, value: 32, name: 'L', unit: 'ui.unit.positions' });
  const table = el('table', { className: 'summary' });
  const wrap = el(
    'div',
    { className: 'table-wrap', tabIndex: 0, attrs: { role: 'region', 'data-i18n-attr': 'aria-label:s219.fig.a' } },
    table,
  );
  root.append(
    controls(n, L),
    figure('2.1.9-a', 's219.fig.a', wrap),
    el('p', { className: 'note' }, words('s219.criteria')),
  );

  function update() {
    const size = n.value;
    const rows = summarySchemes(rp).map((info) =>
      schemeRow(rp, info, summaryRow(rp, info, { n: size, L: L.value }), L.value),
    );
    table.replaceChildren(el('thead', {}, headerRow()), el('tbody', {}, ...rows));
    localize(table);
    labelCells(table);
    root.dataset.n = String(size);
    root.dataset.L = String(L.value);
  }
  live(root, update, [n, L]);
}
