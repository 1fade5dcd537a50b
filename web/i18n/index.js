// Language state of the tutorial and the playground. Every visible word lives in the message tables
// (en.js / zh.js, and any table added with addMessages); pages mark elements with data-i18n="key"
// (text) and data-i18n-attr="attr:key;attr:key" (attributes) and scripts call t(key, values). Component
// words (<relpos-heatmap>, <relpos-curve>) go through their messages API (setMessages). The choice
// persists in localStorage and ?lang=, and sets <html lang>. Message text may hold inline TeX between
// $…$; it is rendered with KaTeX, the rest set as text. A sentence that continues a paragraph of
// several messages carries data-i18n-gap: it is preceded by a space in English, by nothing in Chinese.
// Only the reader's language is loaded with this module (its top-level await); another one arrives
// when the reader switches to it (setLang) or a caller asks for it (loadLanguage).
import { setMessages } from '../components/messages.js';
import { renderInlineMath } from './tex.js';

// Each language's tables: the chapter's (page and component words) and the site shell's.
const TABLES = {
  en: () => Promise.all([import('./en.js'), import('./site.en.js')]),
  zh: () => Promise.all([import('./zh.js'), import('./site.zh.js')]),
};

/** The tables of every language: filled as each one loads (loadLanguage), empty until then. */
export const LANGUAGES = {
  en: { page: {}, components: {} },
  zh: { page: {}, components: {} },
};
const SENTENCE_GAP = { en: ' ', zh: '' };
const loading = {};

function merge(language, table) {
  const page = LANGUAGES[language].page;
  for (const key of Object.keys(table)) {
    if (Object.hasOwn(page, key)) throw new RangeError(`addMessages: '${key}' is already defined`);
  }
  Object.assign(page, table);
}

/**
 * Merges more page messages into the tables (e.g. the site shell's own file): { en: {...}, zh: {...} }.
 * A key defined twice is an error, so two tables never silently disagree.
 */
export function addMessages(tables) {
  for (const [language, table] of Object.entries(tables)) {
    if (!Object.hasOwn(LANGUAGES, language)) throw new RangeError(`addMessages: unknown language '${language}'`);
    merge(language, table);
  }
}

/** Loads language `language`'s tables (once); resolves when LANGUAGES[language] holds them. */
export function loadLanguage(language) {
  if (!Object.hasOwn(TABLES, language)) {
    return Promise.reject(new RangeError(`loadLanguage: unknown language '${language}'`));
  }
  loading[language] ??= TABLES[language]().then(([{ default: words }, { default: site }]) => {
    LANGUAGES[language].components = words.components;
    merge(language, words.page);
    merge(language, site);
  });
  return loading[language];
}

/** Whether `key` names a message (every language has the same keys: tests/node/i18n.test.js). */
export function hasMessage(key) {
  return Object.values(LANGUAGES).some((table) => Object.hasOwn(table.page, key));
}

const STORAGE_KEY = 'relpos-lang';
const listeners = new Set();
let initialized = false;

function initialLanguage() {
  try {
    const query = new URLSearchParams(location.search).get('lang');
    if (query && Object.hasOwn(LANGUAGES, query)) return query;
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored && Object.hasOwn(LANGUAGES, stored)) return stored;
  } catch {
    // storage unavailable (privacy mode): fall through to English
  }
  return 'en';
}

let current = typeof location === 'undefined' ? 'en' : initialLanguage();
let wanted = current;
await loadLanguage(current);

export function lang() {
  return current;
}

/** The message `key` of the current language with {name} placeholders filled (as text). */
export function t(key, values = {}) {
  const table = LANGUAGES[current].page;
  const template = Object.hasOwn(table, key) ? table[key] : (LANGUAGES.en.page[key] ?? key);
  // A brace group right after a letter, ^ or _ is TeX (\sqrt{16}, e^{b}), never a placeholder.
  return String(template).replace(/(?<![A-Za-z^_\\])\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** Sets an element's content from a message: text, with $…$ segments typeset by KaTeX. */
export function setText(element, text) {
  if (text.includes('$')) renderInlineMath(element, text);
  // Words already in place are left alone, so a section coming into view keeps its text nodes
  // (and a reader's selection in them).
  else if (element.textContent !== text || element.childElementCount > 0) element.textContent = text;
}

/** Applies data-i18n / data-i18n-attr under `root`. */
export function applyI18n(root = document) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    // Typeset math waits until its section comes near the viewport (fast first view).
    if (
      element.closest('.chapter-section:not([data-shown])') &&
      (LANGUAGES[current].page[element.dataset.i18n] ?? '').includes('$')
    ) {
      continue;
    }
    // A claim sentence waits for the numbers its check measures (chapter.js fills them).
    if (
      element.hasAttribute('data-claim') &&
      !element.dataset.i18nValues &&
      /(?<![A-Za-z^_\\])\{\w+\}/.test(t(element.dataset.i18n))
    ) {
      continue;
    }
    const values = element.dataset.i18nValues ? JSON.parse(element.dataset.i18nValues) : {};
    const gap = element.hasAttribute('data-i18n-gap') ? SENTENCE_GAP[current] : '';
    setText(element, gap + t(element.dataset.i18n, values));
  }
  for (const element of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of element.dataset.i18nAttr.split(';')) {
      const [attribute, key] = pair.split(':');
      if (attribute && key) element.setAttribute(attribute.trim(), t(key.trim()));
    }
  }
}

/**
 * Switches the language everywhere: page words, component words, <html lang>, title; persists it.
 * Resolves once done (at once when the language's tables are here, else once they have arrived).
 */
export async function setLang(next, { persist = true } = {}) {
  if (!Object.hasOwn(LANGUAGES, next)) return;
  wanted = next;
  await loadLanguage(next);
  // A switch made while this language's tables were loading wins.
  if (wanted === next) applyLang(next, persist);
}

function applyLang(next, persist) {
  current = next;
  if (persist) {
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // not persisted
    }
  }
  document.documentElement.lang = LANGUAGES[next].page['meta.htmlLang'];
  setMessages(LANGUAGES[next].components);
  applyI18n(document);
  delete document.documentElement.dataset.words; // the page's own words are the reader's now (public/boot.js)
  const titleKey = document.documentElement.dataset.titleKey;
  if (titleKey) document.title = t(titleKey);
  for (const listener of listeners) listener(next);
}

/** Calls `listener(lang)` after every language change; returns an unsubscribe function. */
export function onLang(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Wires the language switch (<select id="lang"> or buttons with data-lang) and applies the initial language. */
export function initI18n() {
  if (initialized) return; // the site shell and the page's own script both call it
  initialized = true;
  const select = document.getElementById('lang');
  if (select) {
    select.value = current;
    select.addEventListener('change', () => setLang(select.value));
    onLang((l) => {
      select.value = l;
    });
  }
  applyLang(current, false);
}
