// The site shell without a browser: its words exist in both languages, the design tokens are the
// ones docs/design.md lists and their colours are readable (WCAG AA) in both schemes, every scheme
// family has a name, every page's <head> carries what sharing needs, and the service worker's list
// holds what offline use needs and nothing it never uses.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';
import en from '../../web/i18n/en.js';
import siteEn from '../../web/i18n/site.en.js';
import siteZh from '../../web/i18n/site.zh.js';
import { precacheManifest } from '../../web/site/build-plugin.js';
import { familyKey } from '../../web/tutorial/controls.js';
import { CSP, footer, head, header, PAGES } from '../../web/site/partials.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const placeholders = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('site words', () => {
  it('exist in English and Chinese with the same keys and placeholders, apart from the chapter’s', () => {
    expect(Object.keys(siteZh).sort()).toEqual(Object.keys(siteEn).sort());
    for (const [key, text] of Object.entries(siteEn)) {
      expect(key.startsWith('site.'), key).toBe(true);
      expect(text.length, key).toBeGreaterThan(0);
      expect(placeholders(siteZh[key]), key).toEqual(placeholders(text));
      expect(siteZh[key], key).toMatch(/[\u4e00-\u9fff]/);
      expect(Object.hasOwn(en.page, key), `${key} is also a chapter key`).toBe(false);
    }
  });

  it('name every scheme family of the catalogue', async () => {
    const rp = await load();
    for (const family of new Set(rp.schemes.map((s) => s.family))) {
      expect(Object.hasOwn(siteEn, familyKey(family)), family).toBe(true);
    }
  });
});

// Tokens: name → [light, dark] (or a single value).
function tokens() {
  const css = read('web/styles/tokens.css').replace(/\/\*[\s\S]*?\*\//g, '');
  const out = new Map();
  for (const [, name, value] of css.matchAll(/(--rp-[\w-]+)\s*:\s*([^;]+);/g)) {
    const pair = /^light-dark\(\s*(#[0-9a-f]{6})\s*,\s*(#[0-9a-f]{6})\s*\)$/i.exec(value.trim());
    out.set(name, pair ? [pair[1], pair[2]] : value.trim());
  }
  return out;
}

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe('design tokens', () => {
  const defined = tokens();

  it('include the names the components rely on, and docs/design.md lists exactly these', () => {
    const required = [
      '--rp-font-sans',
      '--rp-font-mono',
      '--rp-text-sm',
      '--rp-text-base',
      '--rp-text-lg',
      '--rp-text-xl',
      ...[1, 2, 3, 4, 5, 6].map((k) => `--rp-space-${k}`),
      '--rp-radius',
      '--rp-fg',
      '--rp-fg-muted',
      '--rp-bg',
      '--rp-surface',
      '--rp-border',
      '--rp-accent',
      '--rp-accent-fg',
      '--rp-focus',
    ];
    for (const name of required) expect(defined.has(name), name).toBe(true);
    const doc = read('docs/design.md');
    const table = doc.slice(doc.indexOf('## Tokens'), doc.indexOf('## Colour schemes'));
    const listed = new Set(
      [...table.matchAll(/`(--rp-[\w-]+)`(?: … `(--rp-[\w-]+)`)?/g)].flatMap(([, first, last]) => {
        if (!last) return [first];
        const [stem, from] = /^(.*-)(\d+)$/.exec(first).slice(1);
        return Array.from(
          { length: Number(last.match(/\d+$/)[0]) - Number(from) + 1 },
          (_, k) => `${stem}${Number(from) + k}`,
        );
      }),
    );
    expect([...listed].sort()).toEqual([...defined.keys()].sort());
    // And the colours the table shows are the stylesheet's.
    for (const [name, value] of defined) {
      if (!Array.isArray(value)) continue;
      const row = table.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, name).toContain(`\`${value[0]}\` | \`${value[1]}\``);
    }
  });

  it('give every text colour at least 4.5:1 on the page and on panels, in light and in dark', () => {
    // Each text colour and the grounds it stands on.
    const grounds = {
      '--rp-fg': ['--rp-bg', '--rp-surface', '--rp-surface-2', '--rp-accent-soft'],
      '--rp-fg-muted': ['--rp-bg', '--rp-surface'],
      '--rp-accent': ['--rp-bg', '--rp-surface'],
      '--rp-accent-fg': ['--rp-accent'],
      '--rp-yes': ['--rp-bg', '--rp-surface'],
      '--rp-no': ['--rp-bg', '--rp-surface'],
      '--rp-warn': ['--rp-bg'],
    };
    const pairs = Object.entries(grounds).flatMap(([text, under]) => under.map((ground) => [text, ground]));
    for (const scheme of [0, 1]) {
      for (const [text, ground] of pairs) {
        const ratio = contrast(defined.get(text)[scheme], defined.get(ground)[scheme]);
        expect(ratio, `${text} on ${ground}, ${scheme ? 'dark' : 'light'}`).toBeGreaterThanOrEqual(4.5);
      }
      // Non-text: the focus ring and control borders against the page (WCAG 1.4.11: 3:1 for the ring).
      expect(contrast(defined.get('--rp-focus')[scheme], defined.get('--rp-bg')[scheme])).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('the shell’s markup', () => {
  const words = { ...en.page, ...siteEn };
  it('gives every page its policy, title, description, language alternates and preview image', () => {
    for (const [id, page] of Object.entries(PAGES)) {
      const html = head(id, words);
      expect(html).toContain(`content="${CSP}"`);
      expect(html).toContain(`<title>${siteEn[`site.title.${id}`]}</title>`);
      expect(html).toContain(`<meta name="description" content="${siteEn[`site.description.${id}`]}">`);
      expect(html).toContain('<meta property="og:image" content="./preview.png"');
      if (id === 'notfound') expect(html).toContain('noindex');
      else {
        expect(html).toContain(`hreflang="en" href="./${page.file}"`);
        expect(html).toContain(`hreflang="zh-CN" href="./${page.file}?lang=zh"`);
      }
    }
    // With the site's address, the alternates and the image are absolute.
    const absolute = head('playground', words, { siteUrl: 'https://example.org/relpos/' });
    expect(absolute).toContain('hreflang="zh-CN" href="https://example.org/relpos/playground.html?lang=zh"');
    expect(absolute).toContain('content="https://example.org/relpos/preview.png"');
  });

  it('marks the current page in the navigation and links every page from the footer', () => {
    for (const id of ['chapter', 'playground', 'lab']) {
      const nav = header(id, words);
      expect(nav.match(/aria-current="page"/g)).toHaveLength(1);
      expect(nav).toMatch(new RegExp(`data-page="${id}"[^>]*aria-current="page"`));
      expect(footer(id, words).match(/data-page=/g)).toHaveLength(3);
    }
    expect(header('notfound', words)).not.toContain('aria-current');
  });
});

describe('the service worker’s list', () => {
  it('caches pages, scripts, styles, icons and woff2 fonts; lists the wasm builds apart; skips the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relpos-precache-'));
    try {
      const files = [
        'index.html',
        '404.html',
        'sw.js',
        'boot.js',
        'favicon.svg',
        'preview.png',
        'assets/index-a1.js',
        'assets/styles-b2.css',
        'assets/KaTeX_Main-Regular-c3.woff2',
        'assets/KaTeX_Main-Regular-c4.woff',
        'assets/KaTeX_Main-Regular-c5.ttf',
        'assets/relpos.simd-d6.wasm',
        'assets/relpos.baseline-e7.wasm',
        'assets/relpos-models-f8.wasm',
        'assets/relpos-analysis.simd-g9.wasm',
      ];
      for (const f of files) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        writeFileSync(join(dir, f), f);
      }
      const manifest = precacheManifest(dir);
      expect(manifest.files).toEqual([
        '404.html',
        'assets/KaTeX_Main-Regular-c3.woff2',
        'assets/index-a1.js',
        'assets/styles-b2.css',
        'boot.js',
        'favicon.svg',
        'index.html',
      ]);
      expect(manifest.wasm).toEqual({
        simd: 'assets/relpos.simd-d6.wasm',
        baseline: 'assets/relpos.baseline-e7.wasm',
        models: 'assets/relpos-models-f8.wasm',
      });
      // A change to any cached byte is a new version (and a new cache).
      writeFileSync(join(dir, 'index.html'), 'changed');
      expect(precacheManifest(dir).version).not.toBe(manifest.version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
