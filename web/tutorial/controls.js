// Controls of the design system beyond ui.js's slider / select / checkbox: segmented buttons for a
// small set of choices and the scheme picker that groups schemes by family. Styles:
// web/styles/controls.css. Words come from the message files (data-i18n keys).
import { hasMessage, t } from '../i18n/index.js';
import { el, nextId, select, words } from './ui.js';

/**
 * Segmented buttons: a radio group drawn as one strip (Tab enters it, arrow keys move the choice).
 * `options` are { value, key } (translated) or { value, text }. The returned `input` is the
 * <fieldset>; it has a `value` property like a <select>, and 'input' / 'change' events bubble from it.
 */
export function segmented({ key, options, value, name, id }) {
  const groupName = name ?? nextId('segmented');
  const strip = el('div', { className: 'rp-segmented__options' });
  const fieldset = el(
    'fieldset',
    { className: 'rp-segmented', id: id ?? nextId(groupName) },
    el('legend', {}, words(key)),
    strip,
  );
  for (const option of options) {
    const radio = el('input', { type: 'radio', name: groupName, value: option.value });
    const text = option.key
      ? el('span', { dataset: { i18n: option.key } })
      : el('span', { textContent: option.text ?? option.value });
    if (option.key && hasMessage(option.key)) text.textContent = t(option.key);
    strip.append(el('label', {}, radio, text));
  }
  const radios = () => [...strip.querySelectorAll('input')];
  Object.defineProperty(fieldset, 'value', {
    get: () => radios().find((r) => r.checked)?.value ?? '',
    set: (v) => {
      for (const r of radios()) r.checked = r.value === String(v);
    },
  });
  fieldset.value = value ?? options[0]?.value ?? '';
  return {
    root: fieldset,
    input: fieldset,
    get value() {
      return fieldset.value;
    },
    set value(v) {
      fieldset.value = v;
    },
  };
}

/** The message key naming a scheme family of rp.schemes[].family ("relative bias" → site.family.relative-bias). */
export const familyKey = (family) => `site.family.${String(family).trim().replace(/\s+/g, '-')}`;

/**
 * A scheme picker: a <select> of `schemes` (entries of rp.schemes) grouped by family, in the order
 * the catalogue lists them; each option shows the scheme's name. Same interface as select().
 */
export function schemePicker({ key, schemes, value, name }) {
  const families = [...new Set(schemes.map((s) => s.family))];
  const options = families.flatMap((family) =>
    schemes.filter((s) => s.family === family).map((s) => ({ value: s.id, text: s.name, group: familyKey(family) })),
  );
  return select({ key, options, value, name });
}
