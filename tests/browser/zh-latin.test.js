// The 中文 pages hold no English: every page (the chapter with its explorer pane and its labs, the
// playground, the lab) is opened in English and switched to 中文 with the site's language switch;
// then every text node and every title, aria-label, placeholder and alt (shadow roots included) is
// read, for every scheme the explorer panes offer, and every Latin word in it must be a name of
// ALLOWED (a scheme, model, person, unit, format, colour map or formula element, or a language's
// own name in the language switch), or lie inside a formula (KaTeX), code (<code>, <pre>, <kbd>,
// <textarea>) or a citation (<cite>: authors, venue, arXiv id as the work is cited).
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import { colormapNames } from '../../figure/colormap.js';
import { openPage, useSite } from './browser.js';
import { mountChapter, waitDrawn } from './site-pages.js';

// Proper names and formula elements a 中文 page writes in Latin letters; one letter alone is always a
// variable (i, j, r, d, n, L, k, …). Model names come from rp.presets (below).
const ALLOWED = new Set([
  // relpos, the schemes and the works they come from
  ...['relpos', 'RoPE', 'ALiBi', 'T5', 'KERPLE', 'FIRE', 'CoPE', 'NoPE', 'xPos', 'YaRN', 'NTK', 'LongRoPE'],
  ...['p-RoPE', 'Sandwich', 'Shaw', 'Transformer-XL', 'DeBERTa', 'MPT', 'BLOOM', 'RoFormer', 'Eckart–Young'],
  ...[
    'Eckart',
    'Young',
    'Schoenberg',
    'Weyl',
    'Toeplitz',
    'Transformer',
    'Llama',
    'GPT-NeoX',
    'Phi-3',
    'Hugging',
    'Face',
  ],
  // The reproduced study (web/lab.html): its author, venue, and the two names the paper uses; the
  // authors the 2.1.9 table's literature column cites.
  ...['Kazemnejad', 'NeurIPS', 'APE', 'MRR', 'Press', 'Chi', 'Chen', 'Peng', 'Ding'],
  ...['gpt-oss', 'DeepSeek', 'English', 'relpos.fromConfig'],
  // formats, units and the technology the page names
  ...['WebAssembly', 'wasm', 'SIMD', 'JavaScript', 'WebGL', 'WebGL2', 'webgl2', 'canvas', 'canvas2d', 'PNG', 'SVG'],
  ...['CSV', 'JSON', 'LaTeX', 'pgfplots', 'GitHub', 'KB', 'MB', 'ms', 'GF', 'config.json', 'rope_scaling'],
  // formula elements, functions and number formats
  ...['sin', 'cos', 'exp', 'log', 'ln', 'max', 'min', 'softmax', 'sinc', 'argmax', 'attn', 'rel', 'PE', 'Attn'],
  ...[
    'QK',
    'NaN',
    'Infinity',
    'float32',
    'float16',
    'bfloat16',
    'float64',
    'eff',
    'GP',
    'SVD',
    'MLP',
    'AdamW',
    'logit',
  ],
  ...['std', 'mod', 'floor', 'ceil', 'tr', 'det', 'rank', 'sign', 'e-6', 'mscale', 'psi'],
]);

const PAGES = { chapter: '', playground: 'playground.html', lab: 'lab.html' };
const shared = useSite();
let modelNames = null;

async function allowedWords() {
  if (!modelNames) {
    const rp = await load();
    modelNames = new Set(
      rp.presets.flatMap((p) => [p.name, ...p.name.split(/[\s()/,]+/)]).filter((w) => /[A-Za-z]/.test(w)),
    );
  }
  return (word) =>
    word.length === 1 ||
    ALLOWED.has(word) ||
    modelNames.has(word) ||
    colormapNames.includes(word) ||
    word.split(/[-–.]/).every((part) => !/[A-Za-z]/.test(part) || part.length === 1 || ALLOWED.has(part));
}

/** Every piece of text the page shows or announces, outside formulas and code, with where it is. */
function pageTexts(rootId = null) {
  // Citations (authors, venue, arXiv id) are names as their authors wrote them.
  const SKIP = 'script, style, template, noscript, code, pre, kbd, samp, textarea, cite, .katex, math, annotation';
  const ATTRIBUTES = ['title', 'aria-label', 'placeholder', 'alt', 'aria-description', 'aria-valuetext'];
  const out = [];
  const where = (element) => {
    const parts = [];
    for (let e = element; e && parts.length < 4; e = e.parentElement ?? e.getRootNode()?.host) {
      parts.unshift(e.id ? `#${e.id}` : e.tagName?.toLowerCase());
    }
    return parts.join(' > ');
  };
  const visit = (root) => {
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) visit(element.shadowRoot);
      if (element.closest(SKIP)) continue;
      for (const name of ATTRIBUTES) {
        const value = element.getAttribute(name);
        if (value) out.push({ text: value, where: `${where(element)} [${name}]` });
      }
      for (const node of element.childNodes) {
        if (node.nodeType === Node.TEXT_NODE && node.data.trim()) out.push({ text: node.data, where: where(element) });
      }
    }
  };
  if (rootId) {
    visit(document.getElementById(rootId));
    return out;
  }
  visit(document);
  out.push({ text: document.title, where: 'title' });
  return out;
}

/** The Latin words of `texts` that `allowed` does not name, each with one place it was seen. */
function latinWords(texts, allowed) {
  const found = new Map();
  for (const { text, where } of texts) {
    for (const [word] of text.matchAll(/[A-Za-z][A-Za-z0-9]*(?:[-–.’'][A-Za-z0-9]+)*/g)) {
      if (!allowed(word) && !found.has(word)) found.set(word, where);
    }
  }
  return Object.fromEntries(found);
}

/** The texts of the page for every scheme of every explorer pane on it (each scheme picked in turn). */
async function textsOverSchemes(page) {
  const texts = await page.evaluate(pageTexts);
  const selects = await page.evaluate(() =>
    [...document.querySelectorAll('select[id$="scheme"]')].filter((s) => s.closest('.pane-controls')).map((s) => s.id),
  );
  for (const id of selects) {
    const schemes = await page.evaluate((sid) => [...document.getElementById(sid).options].map((o) => o.value), id);
    for (const scheme of schemes) {
      await page.selectOption(`#${id}`, scheme);
      const form = id.replace(/scheme$/, 'controls');
      texts.push(...(await page.evaluate(pageTexts, form)));
    }
  }
  return texts;
}

describe('the 中文 pages have no English outside formulas, code and names', () => {
  for (const [name, path] of Object.entries(PAGES)) {
    it(`${name}: switched to 中文, every Latin word is an allowed name`, async () => {
      const allowed = await allowedWords();
      const { page, errors } = await openPage(shared.browser, `${shared.site.url}${path}?lang=en`);
      await waitDrawn(page, name);
      if (name === 'chapter') await mountChapter(page);
      await page.selectOption('#lang', 'zh');
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      if (name === 'chapter') {
        // The chapter's labs are in place (their forms and idle plots).
        await page.waitForFunction(() =>
          [...document.querySelectorAll('.lab-slot')].every((slot) => slot.querySelector('relpos-lab')?.shadowRoot),
        );
      }
      const texts = await textsOverSchemes(page);
      expect(texts.length).toBeGreaterThan(50);
      expect(latinWords(texts, allowed)).toEqual({});
      expect(errors).toEqual([]);
      await page.close();
    }, 180000);
  }
});
