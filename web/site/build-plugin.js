// Vite plugin of the site: writes the shared shell (web/site/partials.js) around every page file's
// own content and the chapter's sections (web/tutorial/outline.js) in place of <!--rp:chapter-->, and
// after a production build writes the service worker (web/site/sw.js) with the list of files it
// caches for offline use.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import zlib from 'node:zlib';
import { minifySync } from 'rolldown/utils';
import en from '../i18n/en.js';
import siteEn from '../i18n/site.en.js';
import { chapterMarkup } from '../tutorial/outline.js';
import { FIRST_FIGURE, FIRST_VIEW_STYLE, firstFigureMarkup, prefillWords } from './first-figure.js';
import { page, PAGES, sourceOf } from './partials.js';

const WORDS = { ...en.page, ...siteEn };
// What a page file may ask for with <!--rp:name-->.
const PARTS = { chapter: chapterMarkup };

/** The id of the page whose file is `filename` (null for any other HTML). */
const pageOf = (filename) => Object.keys(PAGES).find((id) => sourceOf(id) === basename(filename ?? '')) ?? null;

/**
 * Page `id`'s document from its file's content `source`, as the site serves it (in English). The
 * chapter's first screen — everything before its first numbered section — carries its words and
 * the explorer's heatmap (web/site/first-figure.js), with `firstPicture` (firstPicture()) in it.
 */
export function sitePage(id, source, { siteUrl = '', firstPicture = null } = {}) {
  const own = source.replace(/^\s*<!--(?!rp:)[\s\S]*?-->\s*/, ''); // the file's opening comment is for its readers
  let content = own.replace(/<!--rp:(\w+)-->/g, (marker, name) => {
    if (!Object.hasOwn(PARTS, name)) throw new Error(`relpos-site: ${sourceOf(id)} asks for unknown ${marker}`);
    return PARTS[name]();
  });
  if (id === 'chapter') {
    const explorer = '<div class="playground" id="explorer"></div>';
    if (!content.includes(explorer)) throw new Error('relpos-site: the chapter has no explorer');
    content = content.replace(
      explorer,
      `<div class="playground" id="explorer">${firstFigureMarkup(firstPicture)}</div>`,
    );
    const fold = content.search(/<section id="s211"/);
    content = prefillWords(content.slice(0, fold), WORDS) + content.slice(fold);
  }
  const html = page(id, content, WORDS, { siteUrl });
  return id === 'chapter' ? html.replace('</head>', `  ${FIRST_VIEW_STYLE}\n</head>`) : html;
}

/**
 * The PNG of RGBA pixels `data` ([height, width, 4], every alpha 255) in indexed colour: a heatmap's
 * cells take at most 257 colours (the colormap's 256 and grey), and one byte per pixel with a
 * palette compresses to about a fifth of the RGBA file pngjs writes (the picture rides in the chapter's
 * HTML, before its first heatmap). A picture of more than 256 colours is refused.
 */
export function palettePNG(width, height, data) {
  const colours = new Map();
  const indices = Buffer.alloc((width + 1) * height); // each row: filter byte 0, then its indices
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      if (data[at + 3] !== 255) throw new RangeError('palettePNG: every pixel must be opaque');
      const key = (data[at] << 16) | (data[at + 1] << 8) | data[at + 2];
      if (!colours.has(key)) colours.set(key, colours.size);
      indices[y * (width + 1) + 1 + x] = colours.get(key);
    }
  }
  if (colours.size > 256) throw new RangeError(`palettePNG: ${colours.size} colours, at most 256`);
  const palette = Buffer.alloc(colours.size * 3);
  for (const [key, index] of colours) palette.set([key >> 16, (key >> 8) & 255, key & 255], index * 3);
  const chunk = (type, body) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8); // 8 bits per index, colour type 3 (palette), no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('IDAT', zlib.deflateSync(indices, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let picture = null;

/**
 * The explorer's first frame as the core computes it (FIRST_FIGURE's heatmap, coloured by
 * figure/colormap.js's rule as the element colours it, one pixel per cell), an indexed-colour PNG
 * (palettePNG) in a data: URL. Computed once per process, from the wasm core in dist/.
 */
export function firstPicture() {
  picture ??= (async () => {
    // Specifiers the config's bundler leaves alone: the core loads when a page is written, not
    // when vite.config.js is read.
    const from = (path) => import(/* @vite-ignore */ new URL(path, import.meta.url).href);
    const { load } = await from('../../bindings/index.js');
    const { viewFigure } = await from('../../bindings/figure.js');
    const { colorize } = await from('../../figure/colormap.js');
    const rp = await load({ models: false });
    const { scheme, n, heads, head } = FIRST_FIGURE;
    const { figure } = viewFigure(rp, { scheme, n, heads, head });
    const { width, height, data } = colorize(figure, figure.colormap ?? 'viridis', figure.range);
    return `data:image/png;base64,${Buffer.from(palettePNG(width, height, data)).toString('base64')}`;
  })();
  picture.catch(() => {
    picture = null; // the next page asks again (a core being rebuilt meanwhile)
  });
  return picture;
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
      async handler(html, { filename }) {
        const id = pageOf(filename);
        if (!id) return html;
        return sitePage(id, html, { siteUrl, firstPicture: id === 'chapter' ? await firstPicture() : null });
      },
    },
    closeBundle() {
      if (!outDir) return;
      // public/boot.js is copied as written, comments and all; it blocks the first paint and is
      // fetched before the first heatmap, so the build minifies it (846 -> 337 bytes gzip) before
      // the service worker's manifest hashes it.
      const boot = join(outDir, 'boot.js');
      writeFileSync(boot, minifySync('boot.js', readFileSync(boot, 'utf8')).code);
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
        // data-compile: public/boot.js compiles it from its first byte.
        const compiled = { rel: 'preload', as: 'fetch', type: 'application/wasm', crossorigin: '', 'data-compile': '' };
        if (wasm) tags.push({ ...compiled, href: base + wasm });
        // The relaxed build's side module, which load() fetches beside the core where the engine
        // runs it (4 KB; bindings/loading.js compiles it from its bytes).
        const relaxed = file(/relpos-fused\.relaxed-[^/]*\.wasm$/);
        if (relaxed) tags.push({ rel: 'preload', href: base + relaxed, as: 'fetch', crossorigin: '' });
        if (glue) tags.push({ rel: 'modulepreload', href: base + glue, crossorigin: '' });
        // The stylesheet, which the first paint waits for, is asked for with the wasm, not after the
        // blocking boot.js and the module hints (the build writes its <link> last in <head>).
        const css = html.match(/<link rel="stylesheet"[^>]*href="([^"]+\.css)"/)?.[1];
        if (css) tags.push({ rel: 'preload', href: css, as: 'style', crossorigin: '' });
        if (MODELS_AT_ONCE.has(pageOf(filename))) {
          const modelsWasm = file(/relpos-models-[^/]*\.wasm$/);
          const modelsGlue = file(/relpos-models-[^/]*\.js$/);
          if (modelsWasm) tags.push({ ...compiled, href: base + modelsWasm });
          if (modelsGlue) tags.push({ rel: 'modulepreload', href: base + modelsGlue, crossorigin: '' });
        }
        // The chapter's entry imports <relpos-heatmap>'s module once it has started load(): its chunks
        // are asked for at once too. It imports chapter.js once its first heatmap has drawn
        // (web/tutorial/main.js): those modules are not asked for before, so they leave the wire to the core.
        if (pageOf(filename) === 'chapter') {
          for (const name of staticClosure(bundle, /\/web\/components\/relpos-heatmap\.js$/)) {
            if (!html.includes(name)) tags.push({ rel: 'modulepreload', href: base + name, crossorigin: '' });
          }
        }
        // The wasm is the first view's largest file and its compile starts as its bytes arrive:
        // its hint goes first in <head>, ahead of the blocking boot.js and the module hints.
        return {
          html,
          tags: tags.map((attrs) => ({
            tag: 'link',
            attrs,
            injectTo: attrs.as === 'fetch' || attrs.as === 'style' ? 'head-prepend' : 'head',
          })),
        };
      },
    },
  };
  return [shell, preloadCore];
}
