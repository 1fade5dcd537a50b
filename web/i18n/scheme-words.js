// The words of the schemes' catalogue (rp.schemes) in the page's language: each scheme's description,
// and the label, tooltip and options of each parameter the explorer pane edits. The core writes them
// in English (rp.schemes: description, params[name].doc, params[name].choices); English pages show the
// core's own words, other languages the web layer's tables (schemes.zh.js). tests/node/scheme-words.test.js
// checks that every scheme of rp.schemes, and every parameter and option the pane shows, has its 中文
// words, so a scheme added to the core without them fails a test.
import { CHOICES_ZH, CITES_ZH, DESCRIPTIONS_ZH, PARAM_DOCS_ZH, PARAM_LABELS_ZH } from './schemes.zh.js';
import { CHOICES_EN, PARAM_LABELS_EN } from './schemes.en.js';

// Parameters the page sets itself (n, d, heads, causal), that only one call reads (role, center,
// output, seqLen), that lay out the head (rotaryDim, startIndex) or that need arrays (positions, probes
// q and k) are not controls.
const SKIP = new Set([
  'n',
  'd',
  'heads',
  'causal',
  'positions',
  'rotaryDim',
  'startIndex',
  'seqLen',
  'role',
  'center',
  'output',
  'q',
  'k',
]);
const EDITABLE = new Set(['choice', 'boolean', 'number', 'integer']);

const TABLES = {
  zh: {
    descriptions: DESCRIPTIONS_ZH,
    cites: CITES_ZH,
    labels: PARAM_LABELS_ZH,
    docs: PARAM_DOCS_ZH,
    choices: CHOICES_ZH,
  },
};

/** The parameters of scheme `info` (an entry of rp.schemes) that the explorer pane shows as controls. */
export function shownParams(info) {
  return Object.entries(info.params)
    .filter(([name, spec]) => !SKIP.has(name) && spec.default !== null && EDITABLE.has(spec.type))
    .map(([name]) => name);
}

/** A table's entry for `name`: the scheme's own (keyed "id.name") before the shared one. */
const entry = (table, info, name) => table[`${info.id}.${name}`] ?? table[name];

/** The scheme's description in `language`. */
export function schemeDescription(language, info) {
  return TABLES[language]?.descriptions[info.id] ?? info.description;
}

/** The scheme's reference in `language`: the core's, unless it has words of its own to translate. */
export function schemeCite(language, info) {
  return TABLES[language]?.cites[info.id] ?? info.cite;
}

/**
 * A parameter's label and tooltip in `language`: { label, doc }. English: the label of
 * schemes.en.js with the core's own tooltip (the name as code writes it only for a parameter the
 * table lacks, which tests/node/scheme-words.test.js refuses).
 */
export function paramWords(language, info, name) {
  const table = TABLES[language];
  const label = table && entry(table.labels, info, name);
  if (label !== undefined) return { label, doc: entry(table.docs, info, name) };
  return { label: entry(PARAM_LABELS_EN, info, name) ?? name, doc: info.params[name].doc };
}

/** The words of option `choice` of parameter `name` in `language` (English: schemes.en.js). */
export function choiceWords(language, info, name, choice) {
  const words = entry(TABLES[language]?.choices ?? CHOICES_EN, info, name);
  return words?.[choice] ?? choice;
}

/** The languages with their own tables (English is the core's). */
export const LANGUAGES_WITH_TABLES = Object.keys(TABLES);
