// 2.1.9 Summary: every scheme with position-only scores, each property computed now by the core.
import { controls, el, fmt, localize, onLang, slider, t, words } from '../ui.js';
import { bounded, decay, extrapolation, invariance, psd, summarySchemes } from '../verdicts.js';

const COLUMNS = ['invariant', 'decays', 'psd', 'bounded', 'extrapolates'];

export function mount(root, { rp }) {
  const n = slider({ key: 's219.n', min: 16, max: 128, step: 16, value: 64, name: 'n' });
  const L = slider({ key: 's219.L', min: 16, max: 64, step: 16, value: 32, name: 'L' });
  const table = el('table', { className: 'summary' });
  const wrap = el(
    'div',
    { className: 'table-wrap', tabIndex: 0, attrs: { role: 'region', 'data-i18n-attr': 'aria-label:s219.caption' } },
    table,
  );
  root.append(controls(n.root, L.root), wrap, el('p', { className: 'note' }, words('s219.criteria')));

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

  function update() {
    const size = n.value;
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, words('s219.col.scheme')),
      ...COLUMNS.map((c) => el('th', { scope: 'col' }, words(`s219.col.${c}`))),
      el('th', { scope: 'col' }, words('s219.col.playground')),
    );
    const rows = [];
    for (const info of summarySchemes(rp)) {
      const tr = el(
        'tr',
        { dataset: { scheme: info.id } },
        el('th', { scope: 'row' }, `${info.name}`, el('br'), el('code', { textContent: info.id })),
      );
      try {
        const inv = invariance(rp, info.id, size);
        const dec = decay(rp, info.id, size, inv.S);
        const p = psd(rp, info, size, inv.S);
        const b = bounded(rp, info.id, size);
        const e = extrapolation(rp, info, L.value);
        tr.append(
          cell(inv, t('s219.defect', { value: fmt(inv.value) })),
          cell(dec, t('s219.far', { value: fmt(dec.value) })),
          cell(p, p.verdict === null ? t('s219.notToeplitz') : t('s219.minEig', { value: fmt(p.value) })),
          cell(b, t('s219.growth', { value: fmt(b.value) })),
          cell(
            e,
            e.kind === 'angles'
              ? t('s219.unseen', { count: e.value, pairs: e.pairs })
              : t('s219.rise', { value: fmt(e.value) }),
          ),
        );
      } catch (error) {
        // CoPE: its positions come from content; a position-only matrix does not exist.
        for (let c = 0; c < COLUMNS.length; c++) tr.append(cell({ verdict: null, value: NaN }, t('s219.needsContent')));
      }
      const link = el('a', { href: `./playground.html#scheme=${encodeURIComponent(info.id)}&b.scheme=alibi` });
      link.textContent = t('s219.open');
      tr.append(el('td', {}, link));
      rows.push(tr);
    }
    table.replaceChildren(el('caption', {}, words('s219.caption')), el('thead', {}, head), el('tbody', {}, ...rows));
    localize(table);
    root.dataset.n = String(size);
    root.dataset.L = String(L.value);
  }
  for (const c of [n, L]) c.input.addEventListener('input', update);
  onLang(update);
  localize(root);
  update();
}
