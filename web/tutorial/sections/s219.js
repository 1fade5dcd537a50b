// 2.1.9 Summary (Table 2.1.9-a): one row per scheme, one named object per row (its bias b(r), or its
// position-only score s(r) with the probe), every cell computed now through summaryRow (verdicts.js),
// the function the claim checks call.
import { ROTARY_TABLE, summaryRow, summarySchemes } from '../verdicts.js';
import { controls, el, figure, fmt, localize, onLang, slider, t, words } from '../ui.js';

const COLUMNS = ['invariant', 'decays', 'bounded', 'psd', 'cpd', 'extrapolates'];

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
    controls(n.root, L.root),
    figure('2.1.9-a', 's219.fig.a', wrap),
    el('p', { className: 'note' }, words('s219.criteria')),
  );

  function cell(result, text) {
    const kind = result.verdict === null ? 'na' : result.verdict ? 'yes' : 'no';
    const td = el('td', { dataset: { verdict: kind, value: String(result.value) } });
    td.append(
      el('span', { className: 'mark', textContent: t(`s219.${kind}`) }),
      ' ',
      el('small', { textContent: text }),
    );
    return td;
  }

  function objectName(row) {
    const { info, kind, params } = row;
    if (kind === 'bias') return t('s219.object.bias');
    if (info.calls.includes('frequencies')) {
      return params.factor ? t('s219.object.scaled', { s: params.factor, L: L.value }) : t('s219.object.rotary');
    }
    return t('s219.object.score');
  }

  function update() {
    const size = n.value;
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, words('s219.col.scheme')),
      el('th', { scope: 'col' }, words('s219.col.object')),
      ...COLUMNS.map((c) => el('th', { scope: 'col' }, words(`s219.col.${c}`))),
      el('th', { scope: 'col' }, words('s219.col.playground')),
    );
    const rows = summarySchemes(rp).map((info) => {
      const row = summaryRow(rp, info, { n: size, L: L.value });
      const tr = el(
        'tr',
        { dataset: { scheme: info.id } },
        el('th', { scope: 'row' }, words(`scheme.${info.id}`), el('br'), el('code', { textContent: info.id })),
      );
      if (row.empty) {
        tr.append(el('td', {}, words(`s219.empty.${row.empty}`)));
        for (let c = 0; c < COLUMNS.length; c++) tr.append(cell({ verdict: null, value: NaN }, '—'));
      } else {
        const kernelText = (k) =>
          k.verdict === null
            ? t('s219.notToeplitz')
            : k.symmetric
              ? t('s219.minEig', { value: fmt(k.value) })
              : t('s219.notSymmetric');
        tr.append(
          el('td', { textContent: objectName(row) }),
          cell(row.invariant, t('s219.defect', { value: fmt(row.invariant.value) })),
          cell(row.decays, t('s219.far', { value: fmt(row.decays.value) })),
          cell(row.bounded, t('s219.growth', { value: fmt(row.bounded.value) })),
          cell(row.psd, kernelText(row.psd)),
          cell(row.cpd, kernelText(row.cpd)),
          cell(
            row.extrapolates,
            row.extrapolates.kind === 'angles'
              ? t('s219.unseen', { count: row.extrapolates.value, pairs: row.extrapolates.pairs, s: ROTARY_TABLE.s })
              : t('s219.rise', { value: fmt(row.extrapolates.value) }),
          ),
        );
      }
      const link = el('a', { href: `./playground.html#scheme=${encodeURIComponent(info.id)}&b.scheme=alibi` });
      link.textContent = t('s219.open');
      tr.append(el('td', {}, link));
      return tr;
    });
    table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
    localize(table);
    root.dataset.n = String(size);
    root.dataset.L = String(L.value);
  }
  for (const c of [n, L]) c.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}
