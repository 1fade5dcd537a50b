#!/usr/bin/env node
// Screenshots of the built site for looking at: every page at desktop (1280×900) and phone
// (390×844) widths, light and dark, English and 中文, into build/screens/ (never committed).
//   npm run build:site && node scripts/screens.mjs [--full] [page …]
import { mkdirSync } from 'node:fs';
import { launchChromium } from './chromium.mjs';
import { serveSite } from './serve-site.mjs';

const PAGES = { chapter: '', playground: 'playground.html', lab: 'lab.html', notfound: 'missing-page' };
const SIZES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const args = process.argv.slice(2);
const full = args.includes('--full');
const wanted = args.filter((a) => !a.startsWith('--'));
const out = 'build/screens';
mkdirSync(out, { recursive: true });

const site = await serveSite();
const browser = await launchChromium();
try {
  for (const [name, path] of Object.entries(PAGES)) {
    if (wanted.length && !wanted.includes(name)) continue;
    for (const [size, viewport] of Object.entries(SIZES)) {
      for (const scheme of ['light', 'dark']) {
        for (const lang of ['en', 'zh']) {
          const context = await browser.newContext({ viewport, colorScheme: scheme, serviceWorkers: 'block' });
          const page = await context.newPage();
          await page.goto(`${site.url}${path}${lang === 'zh' ? '?lang=zh' : ''}`);
          if (name !== 'notfound') await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
          await page.waitForTimeout(400);
          const file = `${out}/${name}-${size}-${scheme}-${lang}.png`;
          await page.screenshot({ path: file, fullPage: full });
          console.log(file);
          await context.close();
        }
      }
    }
  }
} finally {
  await browser.close();
  await site.close();
}
