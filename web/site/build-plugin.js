// Vite plugin of the site: writes the shared shell (web/site/partials.js) around every page file's
// own content and the chapter's sections (web/tutorial/outline.js) in place of <!--rp:chapter-->, and
// after a production build writes the service worker (web/site/sw.js) with the list of files it
// caches for offline use.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import en from '../i18n/en.js';
import siteEn from '../i18n/site.en.js';
import { chapterMarkup } from '../tutorial/outline.js';
import { page, PAGES, sourceOf } from './partials.js';

const WORDS = { ...en.page, ...siteEn };
// What a page file may ask for with <!--rp:name-->.
const PARTS = { chapter: chapterMarkup };

/** The id of the page whose file is `filename` (null for any other HTML). */
const pageOf = (filename) => Object.keys(PAGES).find((id) => sourceOf(id) === basename(filename ?? '')) ?? null;

/** Page `id`'s document from its file's content `source`, as the site serves it (in English). */
export function sitePage(id, source, { siteUrl = '' } = {}) {
  const own = source.replace(/^\s*<!--(?!rp:)[\s\S]*?-->\s*/, ''); // the file's opening comment is for its readers
  const content = own.replace(/<!--rp:(\w+)-->/g, (marker, name) => {
    if (!Object.hasOwn(PARTS, name)) throw new Error(`relpos-site: ${sourceOf(id)} asks for unknown ${marker}`);
    return PARTS[name]();
  });
  return page(id, content, WORDS, { siteUrl });
}

/** The page in `file` under web/ (index.html, lab.html, …) as the site serves it. */
export function readSitePage(file, options) {
  const id = pageOf(file);
  if (!id) throw new RangeError(`readSitePage: '${file}' is not a page of the site`);
  return sitePage(id, readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'), options);
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
function walk(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path, root) : [relative(root, path).split('\\').join('/')];
  });
}

/**
 * What the service worker caches at install: pages, scripts, styles, icons and the woff2 fonts
 * (every browser that runs a service worker reads woff2, so .woff / .ttf are never fetched); the
 * wasm builds are listed apart (with the relaxed build's side module and the models module), one
 * of them is cached on request, with the models module. Source maps and the link-preview
 * image stay out.
 */
export function precacheManifest(outDir) {
  const files = walk(outDir).sort();
  const wasm = {};
  for (const file of files) {
    const build = /relpos\.(simd|baseline)[^/]*\.wasm$/.exec(file)?.[1];
    if (build) wasm[build] = file;
    // The relaxed build's side module, cached beside the SIMD build where the engine runs it.
    if (/relpos-fused\.relaxed[^/]*\.wasm$/.test(file)) wasm.relaxed = file;
    // The models module (rp.presets, rp.fromConfig): one build for every engine.
    if (/relpos-models[^/]*\.wasm$/.test(file)) wasm.models = file;
  }
  const cached = files.filter((f) => /\.(html|js|css|woff2|svg)$/.test(f) && f !== 'sw.js');
  const hash = createHash('sha256');
  for (const file of [...cached, ...Object.values(wasm)]) hash.update(file).update(readFileSync(join(outDir, file)));
  return { version: hash.digest('hex').slice(0, 16), files: cached, wasm };
}

// Pages whose first view is a live heatmap, computed as soon as the core is ready.
const CORE_AT_ONCE = new Set(['chapter', 'playground']);
// Pages whose first view also lists the presets (rp.presets): they ask for the models module at once too.
const MODELS_AT_ONCE = new Set(['playground']);

/** The chunk whose entry module matches `pattern` and every chunk it imports statically. */
function staticClosure(bundle, pattern) {
  const start = Object.values(bundle).find(
    (chunk) => chunk.type === 'chunk' && pattern.test(chunk.facadeModuleId ?? ''),
  );
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !bundle[name]) return;
    seen.add(name);
    for (const imported of bundle[name].imports ?? []) visit(imported);
  };
  if (start) visit(start.fileName);
  return [...seen];
}

export function relposSite({ siteUrl = '' } = {}) {
  let outDir = null;
  let base = './';
  const shell = {
    name: 'relpos-site',
    // The shell registers the service worker only where one was written: in a build.
    config(_, { command }) {
      return { define: { 'import.meta.env.RELPOS_SERVICE_WORKER': JSON.stringify(command === 'build') } };
    },
    configResolved(config) {
      outDir = config.command === 'build' ? config.build.outDir : null;
      base = config.base === '' ? './' : config.base;
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html, { filename }) {
        const id = pageOf(filename);
        return id ? sitePage(id, html, { siteUrl }) : html;
      },
    },
    closeBundle() {
      if (!outDir) return;
      const template = readFileSync(new URL('./sw.js', import.meta.url), 'utf8');
      const manifest = precacheManifest(outDir);
      const source = template.replace(/\/\* rp:manifest \*\/[\s\S]*?\/\* \/rp:manifest \*\//, JSON.stringify(manifest));
      if (source === template) throw new Error('relpos-site: sw.js has no manifest marker');
      writeFileSync(join(outDir, 'sw.js'), source);
    },
  };
  // Pages that draw a heatmap at once ask for the core while their scripts still load: the SIMD
  // build (what every current browser runs) and its glue, in parallel with the module chain that
  // would otherwise request them last.
  const preloadCore = {
    name: 'relpos-site-preload-core',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, filename }) {
        if (!bundle || !CORE_AT_ONCE.has(pageOf(filename))) return html;
        const file = (pattern) => Object.keys(bundle).find((name) => pattern.test(name));
        const wasm = file(/relpos\.simd-[^/]*\.wasm$/);
        const glue = file(/relpos\.simd-[^/]*\.js$/);
        const tags = [];
        if (wasm) {
          tags.push({ rel: 'preload', href: base + wasm, as: 'fetch', type: 'application/wasm', crossorigin: '' });
        }
        if (glue) tags.push({ rel: 'modulepreload', href: base + glue, crossorigin: '' });
        if (MODELS_AT_ONCE.has(pageOf(filename))) {
          const modelsWasm = file(/relpos-models-[^/]*\.wasm$/);
          const modelsGlue = file(/relpos-models-[^/]*\.js$/);
          if (modelsWasm) {
            tags.push({
              rel: 'preload',
              href: base + modelsWasm,
              as: 'fetch',
              type: 'application/wasm',
              crossorigin: '',
            });
          }
          if (modelsGlue) tags.push({ rel: 'modulepreload', href: base + modelsGlue, crossorigin: '' });
        }
        // The chapter's entry imports chapter.js dynamically (so the core starts first); its chunk
        // and static imports are asked for at once too, not after the entry has run.
        if (pageOf(filename) === 'chapter') {
          for (const name of staticClosure(bundle, /\/web\/tutorial\/chapter\.js$/)) {
            if (!html.includes(name)) tags.push({ rel: 'modulepreload', href: base + name, crossorigin: '' });
          }
        }
        // The wasm is the first view's largest file and its compile starts as its bytes arrive:
        // its hint goes first in <head>, ahead of the blocking boot.js and the module hints.
        return {
          html,
          tags: tags.map((attrs) => ({ tag: 'link', attrs, injectTo: attrs.as === 'fetch' ? 'head-prepend' : 'head' })),
        };
      },
    },
  };
  return [shell, preloadCore];
}
